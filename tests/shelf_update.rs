//! `Shelf::update` (SPEC §9) gives byte for byte what a new `Shelf` of the same toolbox gives, over
//! the real catalogs: attach a server, detach one, change one tool, rename a server, reorder; and it
//! reads only the servers that changed (the unchanged ones keep their tools as read).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use toolshelf::json::Value;
use toolshelf::Shelf;

/// The queries each comparison searches.
const QUERIES: [&str; 6] = ["create issue", "list pull requests", "refund a charge", "dns record", "who am I", "x"];

/// Every answer of a shelf, as JSON text: the assembly, searches, describes and unwraps of the
/// first tools of every server.
fn answers(shelf: &Shelf) -> Vec<String> {
    let mut out = vec![shelf.assemble().to_value().to_json()];
    out.extend(QUERIES.iter().map(|q| shelf.search(q, Some(5)).to_value().to_json()));
    let names: Vec<String> = shelf
        .catalog()
        .servers
        .iter()
        .flat_map(|s| s.tools.iter().take(3))
        .map(|&i| shelf.catalog().tools[i].name.clone())
        .collect();
    for name in &names {
        out.push(shelf.describe(name).map(|d| d.to_value().to_json()).unwrap_or_default());
        let call = Value::object([
            ("name", Value::str("tool_call")),
            ("arguments", Value::object([("name", Value::str(name.as_str()))])),
        ]);
        out.push(shelf.unwrap(&call).unwrap().to_value().to_json());
    }
    out
}

/// `toolbox`'s servers, as `(name, list)`.
fn servers(toolbox: &Value) -> Vec<(String, Value)> {
    toolbox.get("servers").and_then(Value::as_object).unwrap().to_vec()
}

fn with_servers(direct: &[Value], servers: Vec<(String, Value)>) -> Value {
    Value::Object(vec![("tools".into(), Value::Array(direct.to_vec())), ("servers".into(), Value::Object(servers))])
}

fn direct() -> Vec<Value> {
    let read = r#"{"type":"function","function":{"name":"read_file","description":"Read a file.","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}"#;
    vec![toolshelf::json::parse(read).unwrap()]
}

/// The toolboxes a session goes through, each from the one before.
fn steps() -> Vec<(&'static str, Value)> {
    let start = common::grouped_with(direct(), &["github-mcp-server", "linear-mcp-official"]);
    let stripe = common::grouped(&["stripe-api-2022-04"]);
    let base = servers(&start);
    let mut attached = base.clone();
    attached.extend(servers(&stripe));
    let detached: Vec<_> = attached.iter().filter(|(name, _)| name != "linear").cloned().collect();
    let mut changed = detached.clone();
    if let Some((_, Value::Array(list))) = changed.iter_mut().find(|(name, _)| name == "github") {
        if let Some(Value::Object(function)) = list[3].get("function").cloned() {
            let mut function = function;
            function.retain(|(k, _)| k != "description");
            function.push(("description".into(), Value::str("Changed.")));
            list[3] = Value::object([("type", Value::str("function")), ("function", Value::Object(function))]);
        }
    }
    let renamed: Vec<_> =
        changed.iter().map(|(n, l)| (if n == "github" { "gh".into() } else { n.clone() }, l.clone())).collect();
    let mut reordered = renamed.clone();
    reordered.reverse();
    vec![
        ("start", start),
        ("attach stripe", with_servers(&direct(), attached)),
        ("detach linear", with_servers(&direct(), detached)),
        ("change one tool", with_servers(&direct(), changed)),
        ("rename a server", with_servers(&direct(), renamed)),
        ("reorder servers", with_servers(&direct(), reordered)),
        ("flat list", Value::Array(direct())),
    ]
}

#[test]
fn an_updated_shelf_answers_as_a_new_one() {
    for options in [
        r#"{"contextLength":200000,"qualify":true}"#,
        r#"{"contextLength":1000000,"qualify":true}"#,
        r#"{"enabled":"off","qualify":true,"batch":true}"#,
    ] {
        let options = common::options(options);
        let steps = steps();
        let mut shelf = Shelf::new(&steps[0].1, &options).unwrap();
        for (step, toolbox) in &steps[1..] {
            shelf.update(toolbox).unwrap();
            let fresh = Shelf::new(toolbox, &options).unwrap();
            assert_eq!(answers(&shelf), answers(&fresh), "{step}");
        }
    }
}

#[test]
fn update_keeps_the_unchanged_servers_and_reads_the_others() {
    let options = common::options(r#"{"qualify":true}"#);
    let steps = steps();
    let mut shelf = Shelf::new(&steps[0].1, &options).unwrap();
    let github_def = |shelf: &Shelf| {
        let tool = shelf.catalog().tools.iter().find(|t| t.server.as_deref() == Some("github")).unwrap();
        tool.def_json.as_ptr()
    };
    let before = github_def(&shelf);
    shelf.update(&steps[1].1).unwrap(); // stripe attached: github is kept, its defs shared
    assert_eq!(github_def(&shelf), before);
    shelf.update(&steps[3].1).unwrap(); // one github tool changed: github is read again
    assert_ne!(github_def(&shelf), before);
}

#[test]
fn update_keeping_takes_the_named_servers_from_the_shelf() {
    let options = common::options(r#"{"qualify":true}"#);
    let steps = steps();
    let mut shelf = Shelf::new(&steps[1].1, &options).unwrap();
    // What a binding sends: the unchanged servers' lists empty, their names in `keep`.
    let Value::Object(mut members) = steps[3].1.clone() else { unreachable!() };
    let keep = vec!["stripe".to_string()];
    if let Some((_, Value::Object(servers))) = members.iter_mut().find(|(k, _)| k == "servers") {
        for (name, list) in servers.iter_mut() {
            if keep.contains(name) {
                *list = Value::Array(vec![]);
            }
        }
    }
    shelf.update_keeping(Value::Object(members), &keep).unwrap();
    assert_eq!(answers(&shelf), answers(&Shelf::new(&steps[3].1, &options).unwrap()));
}

#[test]
fn a_failed_update_leaves_the_shelf_as_it_was() {
    let options = common::options(r#"{"qualify":true}"#);
    let steps = steps();
    let mut shelf = Shelf::new(&steps[1].1, &options).unwrap();
    let before = answers(&shelf);
    let twice = [direct(), direct()].concat(); // read_file twice
    let error = shelf.update(&with_servers(&twice, servers(&steps[1].1))).unwrap_err();
    assert_eq!(error.code.as_str(), "duplicate_tool");
    assert_eq!(answers(&shelf), before);
}

#[test]
fn updates_from_text_share_the_text_and_never_keep_an_old_one_for_a_few_tools() {
    let options = r#"{"qualify":true}"#;
    let steps = steps();
    let text = |step: usize| steps[step].1.to_json();
    let mut shelf = Shelf::from_json_text(text(1), options).unwrap();
    assert_eq!(answers(&shelf), answers(&Shelf::from_json(&text(1), options).unwrap()));
    // stripe kept, github and linear read again from the new text: stripe's tools (most of the
    // old text) still share it.
    let stripe = |shelf: &Shelf| {
        shelf.catalog().tools.iter().find(|t| t.server.as_deref() == Some("stripe")).unwrap().def_json.as_ptr()
    };
    let before = stripe(&shelf);
    shelf.update_keeping_text(text(3), Some(&["stripe".into()])).unwrap();
    assert_eq!(stripe(&shelf), before);
    assert_eq!(answers(&shelf), answers(&Shelf::from_json(&text(3), options).unwrap()));
    // Only linear kept (a small part of the text it came in): it gets its own copy.
    let linear = |shelf: &Shelf| {
        shelf.catalog().tools.iter().find(|t| t.server.as_deref() == Some("linear")).unwrap().def_json.as_ptr()
    };
    let mut shelf = Shelf::from_json_text(text(1), options).unwrap();
    let before = linear(&shelf);
    shelf.update_keeping_text(text(1), Some(&["linear".into()])).unwrap();
    assert_ne!(linear(&shelf), before);
    assert_eq!(answers(&shelf), answers(&Shelf::from_json(&text(1), options).unwrap()));
}

#[test]
fn an_update_text_takes_unchanged_tools_by_their_index() {
    let options = r#"{"qualify":true}"#;
    let start = steps()[1].1.clone(); // github, linear, stripe
    let mut shelf = Shelf::from_json_text(start.to_json(), options).unwrap();
    // The toolbox wanted: stripe's tool 5 changed, its tools 0 and 1 swapped, one tool added.
    let mut wanted = servers(&start);
    let mut sent = servers(&start);
    let extra = toolshelf::json::parse(
        r#"{"type":"function","function":{"name":"new_tool","description":"New.","parameters":{"type":"object"}}}"#,
    )
    .unwrap();
    for ((name, list), (_, sent_list)) in wanted.iter_mut().zip(sent.iter_mut()) {
        let Value::Array(defs) = list else { unreachable!() };
        match name.as_str() {
            "stripe" => {
                let Value::Object(mut def) = defs[5].clone() else { unreachable!() };
                def.push(("x-changed".into(), Value::Bool(true)));
                defs[5] = Value::Object(def);
                defs.swap(0, 1);
                defs.push(extra.clone());
                // What the JS side sends: each unchanged def as its index in the shelf's list.
                let refs = (0..defs.len()).map(|i| match i {
                    0 => Value::uint(1),
                    1 => Value::uint(0),
                    5 => defs[5].clone(),
                    i if i + 1 == defs.len() => extra.clone(),
                    i => Value::uint(i as u64),
                });
                *sent_list = Value::Array(refs.collect());
            }
            "github" => *sent_list = Value::Array(vec![]), // kept whole
            _ => {}
        }
    }
    let wanted = with_servers(&direct(), wanted);
    shelf.update_keeping_text(with_servers(&direct(), sent).to_json(), Some(&["github".into()])).unwrap();
    let fresh = Shelf::from_json(&wanted.to_json(), options).unwrap();
    assert_eq!(answers(&shelf), answers(&fresh));
    // A number the shelf has no tool for is read as the number it is: the error a new shelf gives.
    let bad = r#"{"servers":{"stripe":[99999]}}"#;
    let error = shelf.update_keeping_text(bad.into(), Some(&[])).unwrap_err();
    assert_eq!(error, Shelf::from_json(bad, options).unwrap_err());
    // With nothing kept, a number is never a reference.
    let error = shelf.update_keeping_text(r#"{"servers":{"stripe":[0]}}"#.into(), None).unwrap_err();
    assert_eq!(error.code.as_str(), "invalid_tool");
}

/// What `Shelf.update` in `pkg-template/api.js` sends the core for `next` after `last`, defs that
/// are equal standing for "the very same objects": the toolbox's text with each server list that
/// is `last`'s def for def left empty (named in `keep`) and in the other lists each def of `last`'s
/// list written as its index there (the last index of an equal def, as the JS side's `Map`).
pub fn js_update_text(last: &Value, next: &Value) -> (String, Vec<String>) {
    let last_lists: Vec<(String, Value)> =
        last.get("servers").and_then(Value::as_object).map(<[_]>::to_vec).unwrap_or_default();
    let mut keep = Vec::new();
    let Value::Object(members) = next else { panic!("a grouped toolbox") };
    let members = members.iter().map(|(key, value)| {
        let (key, value) = (key.clone(), value.clone());
        let (Some(Value::Object(servers)), "servers") = (Some(&value), key.as_str()) else { return (key, value) };
        let servers = servers.iter().map(|(name, list)| {
            let last = last_lists.iter().find(|(n, _)| n == name).map(|(_, l)| l);
            match (list, last) {
                (Value::Array(defs), Some(Value::Array(before))) if defs == before => {
                    keep.push(name.clone());
                    (name.clone(), Value::Array(vec![]))
                }
                (Value::Array(defs), Some(Value::Array(before))) => {
                    let refs = defs.iter().map(|def| match before.iter().rposition(|b| b == def) {
                        Some(at) => Value::uint(at as u64),
                        None => def.clone(),
                    });
                    (name.clone(), Value::Array(refs.collect()))
                }
                _ => (name.clone(), list.clone()),
            }
        });
        (key, Value::Object(servers.collect()))
    });
    (Value::Object(members.collect()).to_json(), keep)
}

/// A server holding a tool left out of the deferred set (named as a bridge tool, as a
/// custom `bridgeNames` tool, or an assembly's own bridge tool fed back) and another tool that
/// changes: the JS side names the kept tools by their index in the server's last list, which
/// counts the left-out tool. Every variant, in bridge and native mode, updates to what a new
/// shelf gives (it threw `invalid_tool … got a number`).
#[test]
fn an_update_keeps_tools_by_their_place_past_a_left_out_tool() {
    let tool = |name: &str, description: &str| common::openai_tool(name, description);
    let servers = Value::object([("servers", Value::object([("s", Value::Array(vec![tool("a", "A.")]))]))]);
    let own_search = Shelf::from_json(&servers.to_json(), r#"{"contextLength":2000}"#).unwrap().assemble().to_value();
    let fed_back = own_search
        .get("tools")
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .find(|t| common::openai_name(t) == "tool_search");
    let variants: Vec<(&str, Value, &str)> = vec![
        ("tool_search", tool("tool_search", "Mine."), "{}"),
        ("tool_call", tool("tool_call", "Mine."), "{}"),
        ("tool_describe", tool("tool_describe", "Mine."), "{}"),
        ("custom search", tool("find_tools", "Mine."), r#"{"bridgeNames":{"search":"find_tools"}}"#),
        ("custom call", tool("run_tool", "Mine."), r#"{"bridgeNames":{"call":"run_tool"}}"#),
        ("custom describe", tool("show_tool", "Mine."), r#"{"bridgeNames":{"describe":"show_tool"}}"#),
        ("own bridge tool fed back", fed_back.unwrap().clone(), "{}"),
    ];
    for mode in ["bridge", "native"] {
        for (variant, left_out, options) in &variants {
            let mut options = common::options(options);
            if let Value::Object(members) = &mut options {
                members.push(("mode".into(), Value::str(mode)));
                members.push(("contextLength".into(), Value::uint(2000)));
            }
            let options = options.to_json();
            let list = |changed: &str| {
                Value::Array(vec![
                    tool("first", "First."),
                    left_out.clone(),
                    tool("second", changed),
                    tool("third", "Third."),
                ])
            };
            let toolbox = |changed: &str| {
                Value::object([("servers", Value::object([("gh", list(changed)), ("other", list("Other."))]))])
            };
            let (before, after) = (toolbox("Second."), toolbox("Changed."));
            let mut shelf = Shelf::from_json_text(before.to_json(), &options).unwrap();
            let (text, keep) = js_update_text(&before, &after);
            assert!(text.contains("[0,1,"), "{variant}: {text}");
            shelf.update_keeping_text(text, Some(&keep)).unwrap_or_else(|e| panic!("{mode}, {variant}: {e}"));
            let fresh = Shelf::from_json(&after.to_json(), &options).unwrap();
            assert_eq!(answers(&shelf), answers(&fresh), "{mode}, {variant}");
            // A server kept whole holds its left-out tool too: the warning a new shelf gives.
            let (text, keep) = js_update_text(&after, &after);
            assert_eq!(keep.len(), 2);
            shelf.update_keeping_text(text, Some(&keep)).unwrap();
            assert_eq!(answers(&shelf), answers(&fresh), "{mode}, {variant}, kept whole");
        }
    }
}
