//! Which tools the model sees directly, over the real catalogs: `alwaysLoad` and `defer` per
//! server, per `server/tool` and per tool name (the more precise entry wins, `defer` a tie), a
//! server's tool kept direct under a name every provider accepts and routed to its server, and
//! `directWhenFits` at the edge of the budget.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{grouped, grouped_with, openai_name, openai_tool, options};
use toolshelf::json::{self, Value};
use toolshelf::{Shelf, Unwrapped};

const GITHUB: &str = "github-mcp-server";
const LINEAR: &str = "linear-mcp-official";

/// `(server, own name)` of every tool the shelf keeps direct, in input order.
fn direct(shelf: &Shelf) -> Vec<(Option<String>, String)> {
    shelf.catalog().direct().map(|t| (t.server.clone(), t.own_name.clone())).collect()
}

fn shelf(toolbox: &Value, opts: &str) -> Shelf {
    Shelf::new(toolbox, &options(opts)).unwrap_or_else(|e| panic!("{opts}: {e}"))
}

fn pair(server: &str, tool: &str) -> (Option<String>, String) {
    (Some(server.to_string()), tool.to_string())
}

/// The call `shelf` unwraps `name` (called directly, no arguments) to.
fn direct_call(shelf: &Shelf, name: &str, arguments: &str) -> toolshelf::Call {
    let call = json::parse(&format!(r#"{{"name":"{name}","arguments":{arguments}}}"#)).unwrap();
    match shelf.unwrap(&call).unwrap() {
        Unwrapped::Call(call) => call,
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn one_tool_of_a_server_stays_direct_by_server_slash_tool_or_by_its_name() {
    let toolbox = grouped(&[GITHUB, LINEAR]);
    for entry in ["linear/save_issue", "save_issue"] {
        let shelf = shelf(&toolbox, &format!(r#"{{"qualify":"auto","alwaysLoad":["{entry}"]}}"#));
        assert_eq!(direct(&shelf), [pair("linear", "save_issue")], "{entry}");
        let a = shelf.assemble();
        assert_eq!(a.facts.deferred_count, 117 + 38 - 1);
        assert!(a.facts.warnings.iter().all(|w| !w.contains("alwaysLoad")), "{:?}", a.facts.warnings);
        assert_eq!(openai_name(&a.tools[0]), "save_issue", "the direct tool comes first, under its own name");
        // Routed to its server, with its own name, and validated as every server tool's call.
        let call = direct_call(&shelf, "save_issue", r#"{"title":"x","team":"y"}"#);
        assert_eq!((call.server.as_deref(), call.tool.as_deref()), (Some("linear"), Some("save_issue")));
        let bad = json::parse(r#"{"name":"save_issue","arguments":{"title":7}}"#).unwrap();
        let Unwrapped::Reject { content, .. } = shelf.unwrap(&bad).unwrap() else { panic!("{entry}: not validated") };
        assert!(content.contains("invalid arguments"), "{content}");
    }
}

#[test]
fn the_more_precise_entry_wins_and_defer_wins_a_tie() {
    let toolbox = grouped(&[GITHUB, LINEAR]);
    let kept_server_but_one = shelf(&toolbox, r#"{"alwaysLoad":["linear"],"defer":["linear/save_issue"]}"#);
    let kept = direct(&kept_server_but_one);
    assert_eq!(kept.len(), 37);
    assert!(!kept.contains(&pair("linear", "save_issue")));

    let deferred_server_but_one = shelf(&toolbox, r#"{"alwaysLoad":["linear/save_issue"],"defer":["linear"]}"#);
    assert_eq!(direct(&deferred_server_but_one), [pair("linear", "save_issue")]);

    let tie = shelf(&toolbox, r#"{"alwaysLoad":["linear/save_issue"],"defer":["save_issue"]}"#);
    assert!(direct(&tie).is_empty(), "defer wins a tie");
}

#[test]
fn a_bare_name_keeps_every_servers_tool_of_that_name_and_auto_qualifies_the_clash() {
    let toolbox = grouped(&[GITHUB, LINEAR]);
    let shelf = shelf(&toolbox, r#"{"alwaysLoad":["list_issues"]}"#);
    assert_eq!(direct(&shelf), [pair("github", "list_issues"), pair("linear", "list_issues")]);
    let a = shelf.assemble();
    let names: Vec<&str> = a.tools.iter().take(2).map(openai_name).collect();
    assert_eq!(names, ["mcp__github__list_issues", "mcp__linear__list_issues"]);
    for (server, arguments) in [("github", r#"{"owner":"o","repo":"r"}"#), ("linear", "{}")] {
        let call = direct_call(&shelf, &format!("mcp__{server}__list_issues"), arguments);
        assert_eq!((call.server.as_deref(), call.tool.as_deref()), (Some(server), Some("list_issues")));
    }
    // The own name alone is ambiguous now: rejected with both qualified names, never guessed.
    let ambiguous = json::parse(r#"{"name":"list_issues","arguments":{}}"#).unwrap();
    let Unwrapped::Reject { content, .. } = shelf.unwrap(&ambiguous).unwrap() else { panic!("guessed") };
    assert!(content.contains("list_issues"), "{content}");
}

/// One direct tool of a name keeps it; the deferred tool that shares it is qualified.
#[test]
fn a_pinned_tool_keeps_its_name_and_the_deferred_namesake_is_qualified() {
    let shelf = shelf(&grouped(&[GITHUB, LINEAR]), r#"{"qualify":"auto","alwaysLoad":["github/list_issues"]}"#);
    let a = shelf.assemble();
    assert_eq!(openai_name(&a.tools[0]), "list_issues");
    assert_eq!(shelf.catalog().get("mcp__linear__list_issues").map(|t| t.deferred), Some(true));
    let call = direct_call(&shelf, "list_issues", r#"{"owner":"o","repo":"r"}"#);
    assert_eq!((call.server.as_deref(), call.tool.as_deref()), (Some("github"), Some("list_issues")));
}

#[test]
fn an_entry_that_names_nothing_is_one_warning_per_option() {
    let toolbox = grouped_with(vec![openai_tool("web_fetch", "Fetch a page.")], &[LINEAR]);
    let shelf = shelf(&toolbox, r#"{"alwaysLoad":["nope","linear/nope"],"defer":["web_fetch","gone/x"]}"#);
    let warnings = shelf.assemble().facts.warnings;
    for expected in [
        "alwaysLoad: no server or tool named \"nope\"",
        "alwaysLoad: no server or tool named \"linear/nope\"",
        "defer: no server or tool named \"gone/x\"",
    ] {
        assert!(warnings.iter().any(|w| w == expected), "{expected}: {warnings:?}");
    }
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    let fetch = shelf.catalog().get("mcp__builtin__web_fetch").unwrap();
    assert_eq!((fetch.deferred, fetch.server.as_deref()), (true, Some("builtin")));
}

/// A server's tool whose name no provider accepts goes direct under a made name, which routes back.
#[test]
fn a_server_tool_kept_direct_goes_by_a_name_every_provider_accepts() {
    let tool = |name: &str| {
        json::parse(&format!(
            r#"{{"name":"{name}","description":"Reads.","inputSchema":{{"type":"object","properties":{{"q":{{"type":"string"}}}}}}}}"#
        ))
        .unwrap()
    };
    let toolbox = Value::object([(
        "servers",
        Value::object([("docs.site", Value::Array(vec![tool("pages.read"), tool("other")]))]),
    )]);
    for opts in [r#"{"alwaysLoad":["docs.site/pages.read"]}"#, r#"{"enabled":"off"}"#] {
        let shelf = shelf(&toolbox, opts);
        let a = shelf.assemble();
        let sent = a.tools[0].get("name").and_then(Value::as_str).unwrap().to_string();
        assert!(
            sent.len() <= 64 && sent.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'),
            "{opts}: {sent}"
        );
        let call = direct_call(&shelf, &sent, r#"{"q":"a"}"#);
        assert_eq!((call.server.as_deref(), call.tool.as_deref()), (Some("docs.site"), Some("pages.read")), "{opts}");
    }
}

/// `directWhenFits`: tier 0 exactly when the deferred tools' tokens are within the budget, the
/// tools then as the caller gave them and a deferred tool's call still validated; off by default.
#[test]
fn direct_when_fits_sends_everything_exactly_when_it_fits_the_budget() {
    let toolbox = grouped_with(vec![openai_tool("read_file", "Read a file.")], &[LINEAR]);
    let bridged = shelf(&toolbox, r#"{"qualify":"auto"}"#).assemble();
    let tokens = bridged.facts.deferred_tokens;
    assert!((200..=60_000).contains(&tokens), "{tokens}");
    let at = |budget: u64| {
        shelf(&toolbox, &format!(r#"{{"qualify":"auto","directWhenFits":true,"listingMaxTokens":{budget}}}"#))
    };
    let fits = at(tokens);
    let a = fits.assemble();
    assert_eq!((a.facts.tier, a.facts.deferred_count, a.tools.len()), (0, 38, 39));
    assert!(a.facts.context_tokens < bridged.facts.context_tokens + tokens);
    let Value::Array(given) = toolbox.get("servers").and_then(|s| s.get("linear")).unwrap().clone() else { panic!() };
    assert_eq!(a.tools[1..], given[..], "every tool as given");
    let bad = json::parse(r#"{"name":"save_issue","arguments":{"title":7}}"#).unwrap();
    assert!(matches!(fits.unwrap(&bad).unwrap(), Unwrapped::Reject { .. }), "still validated");

    let over = at(tokens - 1).assemble();
    assert_eq!(over.facts.tier, bridged.facts.tier);
    assert_eq!(
        over.facts.fingerprint,
        shelf(&toolbox, &format!(r#"{{"qualify":"auto","listingMaxTokens":{}}}"#, tokens - 1))
            .assemble()
            .facts
            .fingerprint
    );
    let off = shelf(&toolbox, &format!(r#"{{"listingMaxTokens":{tokens}}}"#)).assemble();
    assert_ne!(off.facts.tier, 0, "off by default");
}

/// A native Anthropic conversation that loaded a tool keeps the search tool even when the rest fits.
#[test]
fn direct_when_fits_keeps_a_conversation_that_loaded_tools_natively() {
    let linear = common::catalog(LINEAR);
    let tools: Vec<Value> = linear
        .iter()
        .map(|(_, t)| {
            let f = t.get("function").unwrap();
            Value::object([
                ("name", f.get("name").unwrap().clone()),
                ("description", f.get("description").cloned().unwrap_or(Value::str(""))),
                ("input_schema", f.get("parameters").unwrap().clone()),
            ])
        })
        .collect();
    let toolbox = Value::object([("servers", Value::object([("linear", Value::Array(tools))]))]);
    let opts = r#"{"mode":"native","format":"anthropic","directWhenFits":true,"listingMaxTokens":60000}"#;
    let shelf = shelf(&toolbox, opts);
    assert_eq!(shelf.assemble().facts.tier, 0);
    let history = json::parse(
        r#"{"messages":[{"role":"user","content":"file a bug"},
        {"role":"assistant","content":[{"type":"server_tool_use","id":"s1","name":"tool_search","input":{"query":"issue"}}]},
        {"role":"user","content":[{"type":"tool_result","tool_use_id":"s1","content":[{"type":"tool_reference","tool_name":"save_issue"}]}]}]}"#,
    )
    .unwrap();
    let a = shelf.assemble_with(&history);
    assert_ne!(a.facts.tier, 0);
    assert!(a.tools.iter().any(|t| t.get("name").and_then(Value::as_str) == Some("save_issue")));
}

/// A snapshot keeps the choices: loaded, it assembles and routes as the shelf it was made of.
#[test]
fn a_snapshot_keeps_pins_defers_and_direct_when_fits() {
    let toolbox = grouped(&[GITHUB, LINEAR]);
    for opts in [
        r#"{"alwaysLoad":["linear/save_issue","list_issues"],"defer":["github/list_issues"]}"#,
        r#"{"directWhenFits":60000,"listingMaxTokens":60000,"contextLength":2000000}"#,
    ] {
        let made = shelf(&toolbox, opts);
        let loaded = Shelf::from_snapshot(made.snapshot(), None, None).unwrap_or_else(|e| panic!("{opts}: {e}"));
        let (a, b) = (made.assemble(), loaded.assemble());
        assert_eq!((a.facts.tier, &a.facts.fingerprint), (b.facts.tier, &b.facts.fingerprint), "{opts}");
        assert_eq!(a.facts.tier == 0, opts.contains("directWhenFits"), "{opts}: {}", a.facts.deferred_tokens);
        let call = json::parse(r#"{"name":"save_issue","arguments":{"title":"x","team":"y"}}"#).unwrap();
        assert_eq!(made.unwrap(&call).unwrap().to_value(), loaded.unwrap(&call).unwrap().to_value(), "{opts}");
    }
}
