//! Lone surrogates (legal in JS strings, written by `JSON.stringify` as `\ud800`): the toolbox of
//! tests/data/surrogates.json (written by `JSON.stringify`, read by the JS tests too) comes back
//! byte for byte, each tool's size counts a lone surrogate as its escape's six code points, the
//! fingerprint hashes those bytes, and names, arguments and answers keep them.
// Native only, as every test here but tests/wasm_*.rs.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use toolshelf::assemble::fingerprint;
use toolshelf::json::{self, Value};
use toolshelf::{Shelf, Unwrapped};

fn fixture() -> (String, Value) {
    let text = std::fs::read_to_string(common::data_dir().join("surrogates.json")).unwrap();
    let text = text.trim_end().to_string();
    let value = json::parse(&text).unwrap();
    (text, value)
}

#[test]
fn the_text_comes_back_byte_for_byte_and_sizes_count_the_escapes() {
    let (text, fixture) = fixture();
    assert!(text.contains(r"read\ud800file") && text.contains('\u{10FFFF}'));
    assert_eq!(fixture.to_json(), text);
    assert_eq!(fixture.json_code_points(), text.chars().count());
    let shelf = Shelf::new(&fixture.get("toolbox").unwrap().clone(), fixture.get("options").unwrap()).unwrap();
    for tool in &shelf.catalog().tools {
        assert_eq!(tool.size, tool.def().to_json().chars().count(), "{}", tool.def().to_json());
    }
    // The deferred tools' own names keep their escapes; the names shown for them are provider-valid
    // (SPEC §16), the direct tool's is its own.
    let own: Vec<String> = shelf.catalog().tools.iter().map(|t| Value::str(&t.own_name).to_json()).collect();
    assert_eq!(own, [r#""read\ud800file""#, r#""get_\udbffthing""#, r#""list_things""#]);
    for tool in &shelf.catalog().tools {
        let shown = match &tool.server {
            Some(server) => toolshelf::wire::tool_name(server, &tool.own_name),
            None => tool.own_name.clone(),
        };
        assert_eq!(tool.name, shown);
    }
}

#[test]
fn the_fingerprint_hashes_what_json_stringify_writes() {
    let (text, fixture) = fixture();
    let toolbox = fixture.get("toolbox").unwrap().clone();
    let assembly = Shelf::new(&toolbox, fixture.get("options").unwrap()).unwrap().assemble();
    let tools = Value::Array(assembly.tools.clone()).to_json();
    assert_eq!(assembly.facts.fingerprint, fingerprint(&tools));
    // The direct tool as JSON.stringify wrote it, escapes and all, opens the array.
    let direct = fixture.get("toolbox").and_then(|t| t.get("tools")).and_then(Value::as_array).unwrap()[0].to_json();
    assert!(text.contains(&direct));
    assert!(tools.starts_with(&format!("[{direct},")), "{tools}");
    // The listing names the deferred tools by valid names and keeps the escapes of their descriptions.
    let shelf = Shelf::new(&toolbox, fixture.get("options").unwrap()).unwrap();
    let get = shelf.catalog().tools.iter().find(|t| t.own_name.starts_with("get_")).unwrap();
    let shown = toolshelf::wire::tool_part(get.server.as_deref().unwrap(), &get.own_name);
    assert!(shown.starts_with("get_thing-") && tools.contains(&format!("- {shown}: Gets a thing \\ud800")), "{tools}");
    let stateless = toolshelf::assemble(&toolbox, fixture.get("options").unwrap()).unwrap();
    assert_eq!(stateless.facts, assembly.facts);
}

#[test]
fn calls_keep_lone_surrogates_in_names_and_arguments() {
    let (_, fixture) = fixture();
    let shelf = Shelf::new(fixture.get("toolbox").unwrap(), fixture.get("options").unwrap()).unwrap();
    let calls = fixture.get("calls").and_then(Value::as_array).unwrap();
    let kinds = fixture.get("kinds").and_then(Value::as_array).unwrap();
    for (call, kind) in calls.iter().zip(kinds) {
        let unwrapped = shelf.unwrap(call).unwrap();
        let value = unwrapped.to_value();
        assert_eq!(value.get("kind"), Some(kind), "{}", value.to_json());
        let input = call.get("input").unwrap();
        match &unwrapped {
            Unwrapped::Call(c) => {
                let sent = input.get("arguments").filter(|_| c.via_bridge).unwrap_or(input);
                assert_eq!(c.arguments.to_json(), sent.to_json());
                assert!(c.arguments.to_json().contains(r"\ud") || c.arguments.to_json().contains(r"\udc00"));
            }
            _ => {
                let text = value.to_json();
                assert!(text.contains(r"\ud800") || text.contains(r"\udbff"), "{text}");
            }
        }
    }
    let described = shelf.describe("get_\u{10FFFF}\u{1003FF}thing").expect("the name as the core keeps it");
    assert!(described.to_value().to_json().contains(r#"Gets a thing \ud800 with"#));
    let found = shelf.search("thing", Some(5));
    let found = found.to_value().to_json();
    let shown = shelf.catalog().tools.iter().find(|t| t.own_name.starts_with("get_")).map(|t| t.name.clone()).unwrap();
    assert!(found.contains(&format!(r#""name":"{shown}","server":"srv\ud83d""#)), "{found}");
}
