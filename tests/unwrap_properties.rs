//! Property tests: unwrap never panics and never throws on any call object, whatever its shape,
//! names and arguments; a non-object call is always `invalid_call`.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use proptest::prelude::*;
use std::sync::OnceLock;
use toolshelf::json::Value;
use toolshelf::{Shelf, Unwrapped};

/// GitHub + Linear (qualified) with one direct tool: real schemas for the validator to chew on.
fn shelf() -> &'static Shelf {
    static SHELF: OnceLock<Shelf> = OnceLock::new();
    SHELF.get_or_init(|| {
        let toolbox = common::grouped_with(
            vec![common::openai_tool("bash", "Run.")],
            &["github-mcp-server", "linear-mcp-official"],
        );
        Shelf::new(&toolbox, &common::options(r#"{"qualify":true}"#)).unwrap()
    })
}

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| Value::float(f64::from(n))),
        any::<f64>().prop_map(Value::float),
        "[a-z_ {}\":,\\[\\]0-9]{0,12}".prop_map(Value::String),
        prop::sample::select(vec![
            "tool_call",
            "tool_search",
            "tool_describe",
            "bash",
            "mcp__github__create_issue",
            "mcp__linear__get_issue"
        ])
        .prop_map(Value::str),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        let key = prop::sample::select(vec![
            "name",
            "arguments",
            "input",
            "args",
            "function",
            "type",
            "id",
            "call_id",
            "query",
            "queries",
            "names",
            "limit",
            "owner",
            "repo",
            "title",
        ]);
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((key, inner), 0..6).prop_map(Value::object),
        ]
    })
}

/// A call-shaped object: a name from the toolbox (or not) and arbitrary arguments.
fn call_like() -> impl Strategy<Value = Value> {
    let name = prop::sample::select(vec![
        "tool_call",
        "tool_search",
        "tool_describe",
        "bash",
        "mcp__github__create_issue",
        "mcp__github__search_repositories",
        "nope",
        "",
    ]);
    let inner = prop::sample::select(vec![
        "mcp__github__create_issue",
        "mcp__github__issue_read",
        "mcp__linear__save_issue",
        "tool_call",
        "bash",
        "x",
    ]);
    (name, inner, arbitrary_json(), any::<bool>()).prop_map(|(name, inner, args, as_text)| {
        let arguments =
            if name == "tool_call" { Value::object([("name", Value::str(inner)), ("arguments", args)]) } else { args };
        let arguments = if as_text { Value::String(arguments.to_json()) } else { arguments };
        Value::object([("name", Value::str(name)), ("arguments", arguments)])
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn unwrap_never_panics_on_any_json(call in arbitrary_json()) {
        match shelf().unwrap(&call) {
            Ok(_) => prop_assert!(call.is_object()),
            Err(e) => prop_assert_eq!((e.code.as_str(), call.is_object()), ("invalid_call", false)),
        }
    }

    #[test]
    fn call_shaped_objects_always_give_a_result(call in call_like()) {
        let result = shelf().unwrap(&call).unwrap();
        if let Unwrapped::Call(c) = &result {
            prop_assert!(c.arguments.is_object());
            prop_assert!(shelf().catalog().get(&c.name).is_some());
        }
        if let Unwrapped::Reject { content, .. } | Unwrapped::Answer { content, .. } = &result {
            prop_assert!(!content.is_empty());
        }
    }
}
