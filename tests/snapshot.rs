//! Snapshots (SPEC §13): a shelf loaded from a snapshot answers byte for byte as the shelf it was
//! taken of (and as a new `Shelf` of the same toolbox), on every real catalog, with the toolbox
//! held or given; the reasons of `invalid_snapshot` for a toolbox or options that differ; a
//! snapshot of a loaded shelf is the same bytes; an update of a loaded shelf is that of a new one.
//! Hostile bytes: tests/snapshot_hostile.rs.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::catalogs::{catalog_names, keyword_queries};
use toolshelf::json::Value;
use toolshelf::{ErrorCode, Shelf};

/// Queries every catalog is searched with, beside its labelled ones.
const QUERIES: [&str; 7] = ["create issue", "list pull requests", "refund a charge", "dns record", "who am I", "x", ""];

/// Every answer of a shelf as JSON text: the assembly, searches, and describe and unwrap of every
/// deferred tool (up to 400) and of a name no tool has.
fn answers(shelf: &Shelf, queries: &[String]) -> Vec<String> {
    let mut out = vec![shelf.assemble().to_value().to_json()];
    out.extend(queries.iter().map(|q| shelf.search(q, Some(8)).to_value().to_json()));
    let catalog = shelf.catalog();
    let mut names: Vec<String> = catalog.tools.iter().take(400).map(|t| t.name.clone()).collect();
    names.push("no_such_tool".into());
    for name in &names {
        out.push(shelf.describe(name).map(|d| d.to_value().to_json()).unwrap_or_default());
        let call = Value::object([
            ("name", Value::str("tool_call")),
            (
                "arguments",
                Value::object([("name", Value::str(name.as_str())), ("arguments", Value::object::<&str>([]))]),
            ),
        ]);
        out.push(shelf.unwrap(&call).unwrap().to_value().to_json());
        let own = Value::object([("name", Value::str(name.as_str())), ("arguments", Value::str("{}"))]);
        out.push(shelf.unwrap(&own).map(|u| u.to_value().to_json()).unwrap_or_else(|e| e.to_string()));
    }
    out
}

fn queries_of(catalog: &str) -> Vec<String> {
    let mut queries: Vec<String> = QUERIES.iter().map(|q| q.to_string()).collect();
    queries.extend(keyword_queries().into_iter().filter(|q| q.catalog == catalog).take(40).map(|q| q.query));
    queries
}

fn same_answers(what: &str, expected: &[String], shelf: &Shelf, queries: &[String]) {
    let got = answers(shelf, queries);
    assert_eq!(got.len(), expected.len(), "{what}");
    for (i, (a, b)) in got.iter().zip(expected).enumerate() {
        assert!(
            a == b,
            "{what}: answer {i} differs:\n  loaded: {}\n  new:    {}",
            &a[..a.len().min(300)],
            &b[..b.len().min(300)]
        );
    }
}

#[test]
fn a_loaded_snapshot_answers_as_a_new_shelf_on_every_catalog() {
    let mut names = catalog_names();
    names.push("rest-apis-flat-3400".into());
    let mut compared = 0;
    for name in &names {
        let toolbox = common::grouped_with(vec![common::openai_tool("read_file", "Read a file.")], &[name]);
        let text = toolbox.to_json();
        for options in
            [r#"{"contextLength":200000}"#, r#"{"qualify":true,"fullMatchesFirst":false,"contextLength":8000}"#]
        {
            let what = format!("{name} {options}");
            let queries = queries_of(name);
            let Ok(fresh) = Shelf::from_json_text(text.clone(), options) else {
                // A catalog whose names clash without qualify is an error either way.
                continue;
            };
            let expected = answers(&fresh, &queries);
            let held = fresh.snapshot();
            let loaded = Shelf::from_snapshot(held.clone(), None, None).unwrap();
            same_answers(&format!("{what}, toolbox held"), &expected, &loaded, &queries);
            assert!(loaded.snapshot() == held, "{what}: a loaded shelf's snapshot is the same bytes");
            let checked = Shelf::from_snapshot(held.clone(), Some(text.clone()), Some(options)).unwrap();
            same_answers(&format!("{what}, toolbox held and given"), &expected, &checked, &queries);
            let without = fresh.snapshot_without_toolbox();
            // The toolbox's text is what it adds; without it, the text's fingerprint and length.
            assert!(without.len() + text.len() == held.len() + 16, "{what}: the toolbox's text is what it adds");
            let given = Shelf::from_snapshot(without, Some(text.clone()), None).unwrap();
            same_answers(&format!("{what}, toolbox given"), &expected, &given, &queries);
            // From a value: the defs are held in the snapshot, no toolbox text.
            let from_value = Shelf::new(&toolbox, &toolshelf::json::parse(options).unwrap()).unwrap();
            let inline = Shelf::from_snapshot(from_value.snapshot(), None, None).unwrap();
            same_answers(&format!("{what}, from a value"), &expected, &inline, &queries);
            compared += 1;
        }
    }
    // Every catalog with qualify on, and those without clashes with it off too.
    assert!(compared > names.len(), "{compared} comparisons for {} catalogs", names.len());
}

#[test]
fn a_toolbox_or_options_that_differ_are_refused() {
    let toolbox = common::grouped(&["linear-mcp-official"]).to_json();
    let other = common::grouped(&["github-mcp-server"]).to_json();
    let shelf = Shelf::from_json_text(toolbox.clone(), r#"{"contextLength":100000}"#).unwrap();
    let reason = |bytes: Vec<u8>, toolbox: Option<String>, options: Option<&str>| {
        let error = Shelf::from_snapshot(bytes, toolbox, options).expect_err("refused");
        assert_eq!(error.code, ErrorCode::InvalidSnapshot);
        assert_eq!(error.code.as_str(), "invalid_snapshot");
        error.message
    };
    assert!(reason(shelf.snapshot(), Some(other.clone()), None).contains("differs"));
    assert!(reason(shelf.snapshot_without_toolbox(), Some(other), None).contains("fingerprint"));
    assert!(reason(shelf.snapshot_without_toolbox(), None, None).contains("give the toolbox"));
    assert!(reason(shelf.snapshot(), None, Some(r#"{"contextLength":5000}"#)).contains("options"));
    // Options that read the same (another spelling, a warning more) are the snapshot's.
    let same = Shelf::from_snapshot(shelf.snapshot(), None, Some(r#"{"context_length":100000,"nonsense":1}"#)).unwrap();
    assert_eq!(same.options(), shelf.options());
    let fresh = Shelf::from_json_text(toolbox, r#"{"context_length":100000,"nonsense":1}"#).unwrap();
    assert_eq!(same.assemble().to_value().to_json(), fresh.assemble().to_value().to_json());
}

#[test]
fn an_update_of_a_loaded_shelf_is_that_of_a_new_shelf() {
    let start = common::grouped(&["github-mcp-server", "linear-mcp-official"]);
    let next = common::grouped(&["github-mcp-server", "stripe-api-2022-04"]);
    let options = r#"{"qualify":true}"#;
    let queries = queries_of("stripe-api-2022-04");
    let fresh = Shelf::from_json_text(next.to_json(), options).unwrap();
    let expected = answers(&fresh, &queries);
    let mut loaded =
        Shelf::from_snapshot(Shelf::from_json_text(start.to_json(), options).unwrap().snapshot(), None, None).unwrap();
    loaded.update(&next).unwrap();
    same_answers("update", &expected, &loaded, &queries);
    let mut by_text =
        Shelf::from_snapshot(Shelf::from_json_text(start.to_json(), options).unwrap().snapshot(), None, None).unwrap();
    by_text.update_keeping_text(next.to_json(), Some(&["github".to_string()])).unwrap();
    same_answers("update keeping a server", &expected, &by_text, &queries);
    // Its snapshot (taken with no toolbox text) holds the defs and loads without one.
    let again = Shelf::from_snapshot(by_text.snapshot(), None, None).unwrap();
    same_answers("snapshot after an update", &expected, &again, &queries);
}
