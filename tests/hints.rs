//! Search hints (issue 42): words a server gives a tool (`title`, `annotations.title`,
//! `_meta["anthropic/searchHint"]`) or the caller adds (`hints`) are found as its description's
//! words, on a real catalog; `_meta["anthropic/alwaysLoad"]: true` keeps a tool direct; a snapshot
//! keeps the hints.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use toolshelf::json::{self, Value};
use toolshelf::Shelf;

/// A query of tests/data/queries-model.json whose tool GitHub's words miss: the README is a file.
const QUERY: &str = "grab the README from the repo";
const WANTED: &str = "get_file_contents";

/// GitHub's catalog as MCP `tools/list` items, `extra` merged into the wanted tool.
fn github_mcp(extra: &[(&str, Value)]) -> Value {
    let tools = common::catalog("github-mcp-server").into_iter().map(|(_, tool)| {
        let f = tool.get("function").unwrap();
        let name = f.get("name").unwrap().clone();
        let mut members = vec![
            ("name", name.clone()),
            ("description", f.get("description").cloned().unwrap_or(Value::str(""))),
            (
                "inputSchema",
                f.get("parameters").cloned().unwrap_or_else(|| json::parse(r#"{"type":"object"}"#).unwrap()),
            ),
        ];
        if name.as_str() == Some(WANTED) {
            members.extend(extra.iter().cloned());
        }
        Value::object(members)
    });
    Value::object([("servers", Value::object([("github", Value::Array(tools.collect()))]))])
}

fn rank(shelf: &Shelf, query: &str) -> Option<usize> {
    let wanted = toolshelf::wire::tool_name("github", WANTED);
    shelf.search(query, Some(20)).matches.iter().position(|m| m.name == wanted)
}

fn shelf(toolbox: &Value, options: &str) -> Shelf {
    Shelf::new(toolbox, &common::options(options)).unwrap()
}

#[test]
fn a_hint_moves_a_missed_query_into_the_top_five() {
    let plain = shelf(&github_mcp(&[]), "{}");
    assert!(rank(&plain, QUERY).is_none_or(|r| r >= 5), "the query is a miss without hints: {:?}", rank(&plain, QUERY));
    let hint = || Value::str("read a README or any file of a repository");
    let ways = [
        ("_meta searchHint", github_mcp(&[("_meta", Value::object([("anthropic/searchHint", hint())]))]), "{}"),
        ("annotations.title", github_mcp(&[("annotations", Value::object([("title", hint())]))]), "{}"),
        ("title", github_mcp(&[("title", hint())]), "{}"),
        (
            "hints by server/tool",
            github_mcp(&[]),
            r#"{"hints":{"github/get_file_contents":"read a README or any file of a repository"}}"#,
        ),
        (
            "hints by own name",
            github_mcp(&[]),
            r#"{"hints":{"get_file_contents":"read a README or any file of a repository"}}"#,
        ),
        (
            "hints by shown name",
            github_mcp(&[]),
            r#"{"hints":{"mcp__github__get_file_contents":"read a README or any file of a repository"}}"#,
        ),
    ];
    for (way, toolbox, options) in ways {
        let hinted = shelf(&toolbox, options);
        assert!(rank(&hinted, QUERY).is_some_and(|r| r < 5), "{way}: {:?}", rank(&hinted, QUERY));
        // A query the tool was found by is still answered as before.
        assert_eq!(rank(&hinted, "get file contents"), Some(0), "{way}");
    }
    // A hint for no tool changes nothing; hints of the wrong shape are warnings.
    let stray = shelf(&github_mcp(&[]), r#"{"hints":{"nope/none":"README"}}"#);
    assert_eq!(rank(&stray, QUERY), rank(&plain, QUERY));
    let warned = shelf(&github_mcp(&[]), r#"{"hints":["README"]}"#);
    assert!(warned.assemble().facts.warnings.iter().any(|w| w.starts_with("hints:")));
}

#[test]
fn a_server_can_keep_a_tool_direct() {
    let asked = Value::object([("anthropic/alwaysLoad", Value::Bool(true))]);
    let toolbox = github_mcp(&[("_meta", asked)]);
    let a = shelf(&toolbox, "{}").assemble();
    let names: Vec<&str> = a.tools.iter().filter_map(|t| t.get("name").and_then(Value::as_str)).collect();
    assert!(names.contains(&toolshelf::wire::tool_name("github", WANTED).as_str()), "{names:?}");
    assert_eq!(a.facts.deferred_count, shelf(&github_mcp(&[]), "{}").assemble().facts.deferred_count - 1);
    // `false`, and `defer` naming the tool, leave it deferred.
    let not_asked = github_mcp(&[("_meta", Value::object([("anthropic/alwaysLoad", Value::Bool(false))]))]);
    assert_eq!(shelf(&not_asked, "{}").assemble().facts.deferred_count, a.facts.deferred_count + 1);
    let deferred = shelf(&toolbox, r#"{"defer":["github/get_file_contents"]}"#).assemble();
    assert_eq!(deferred.facts.deferred_count, a.facts.deferred_count + 1);
    // A shelf loaded from a snapshot (its defs unread) and updated with GitHub's tools unchanged
    // and a server more keeps it direct too: the kept tool's def is read for the mark.
    let mut loaded = Shelf::from_snapshot(shelf(&toolbox, "{}").snapshot(), None, None).unwrap();
    let servers = toolbox.get("servers").and_then(Value::as_object).unwrap().to_vec();
    let more = [(
        "other".to_string(),
        Value::Array(vec![json::parse(r#"{"name":"ping","inputSchema":{"type":"object"}}"#).unwrap()]),
    )];
    loaded.update(&Value::object([("servers", Value::Object(servers.into_iter().chain(more).collect()))])).unwrap();
    let updated = loaded.assemble();
    assert_eq!(
        updated.facts.deferred_count,
        a.facts.deferred_count + 1,
        "the new server's tool deferred, GitHub's kept direct"
    );
    let names: Vec<&str> = updated.tools.iter().filter_map(|t| t.get("name").and_then(Value::as_str)).collect();
    assert!(names.contains(&toolshelf::wire::tool_name("github", WANTED).as_str()), "{names:?}");
}

#[test]
fn a_snapshot_keeps_the_hints() {
    let options = r#"{"hints":{"github/get_file_contents":"read a README or any file of a repository"}}"#;
    let toolbox = github_mcp(&[]);
    let hinted = Shelf::from_json(&toolbox.to_json(), options).unwrap();
    let bytes = hinted.snapshot();
    let loaded = Shelf::from_snapshot(bytes, None, None).unwrap();
    assert_eq!(rank(&loaded, QUERY), rank(&hinted, QUERY));
    assert!(rank(&loaded, QUERY).is_some_and(|r| r < 5));
}

/// The known miss of issue 42: "list open pull requests" found `list_notifications` (a full match
/// through a variant) before `list_pull_requests`, whose `state` enum (`open`, `closed`, `all`)
/// says it lists open ones: a short enum is indexed with the parameter descriptions.
#[test]
fn list_open_pull_requests_finds_the_pull_request_list_first() {
    let shelf = shelf(&github_mcp(&[]), "{}");
    let first = shelf.search("list open pull requests", Some(5)).matches.into_iter().next().map(|m| m.name);
    assert_eq!(first, Some(toolshelf::wire::tool_name("github", "list_pull_requests")));
}
