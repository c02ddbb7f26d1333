//! unwrap over `tests/data/unwrap-cases.json` (shared with the JS tests): every call shape, every
//! result kind and every reject reason, on a toolbox of real catalogs.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use toolshelf::json::{self, Value};
use toolshelf::Shelf;

fn fixture() -> Value {
    json::parse(&std::fs::read_to_string(common::data_dir().join("unwrap-cases.json")).unwrap()).unwrap()
}

fn shelf_of(spec: &Value) -> Shelf {
    let catalogs: Vec<&str> =
        spec.get("catalogs").unwrap().as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    let direct = spec.get("direct").unwrap().as_array().unwrap().to_vec();
    Shelf::new(&common::grouped_with(direct, &catalogs), spec.get("options").unwrap()).unwrap()
}

/// Checks one result against its expectation: exact fields for calls; kind, id and the `contains`
/// substrings (plus `json` members and the `matches` count of an answer) otherwise.
fn check(name: &str, got: &Value, expect: &Value) {
    let kind = expect.get("kind").unwrap();
    assert_eq!(got.get("kind"), Some(kind), "{name}: {}", got.to_json());
    if kind.as_str() == Some("call") {
        assert_eq!(got, expect, "{name}");
        return;
    }
    assert_eq!(got.get("id"), expect.get("id"), "{name}: id");
    let content = got.get("content").and_then(Value::as_str).unwrap();
    for part in expect.get("contains").and_then(Value::as_array).unwrap_or(&[]) {
        assert!(content.contains(part.as_str().unwrap()), "{name}: {content:?} lacks {part:?}");
    }
    if kind.as_str() == Some("answer") {
        let answer = json::parse(content).unwrap_or_else(|e| panic!("{name}: answer is not JSON: {e:?}"));
        for (key, value) in expect.get("json").and_then(Value::as_object).unwrap_or(&[]) {
            assert_eq!(answer.get(key), Some(value), "{name}: {key}");
        }
        if let Some(n) = expect.get("matches").and_then(Value::as_f64) {
            assert_eq!(answer.get("matches").and_then(Value::as_array).map(<[Value]>::len), Some(n as usize), "{name}");
        }
    }
}

#[test]
fn every_shape_result_and_reject() {
    let fixture = fixture();
    let shelf = shelf_of(fixture.get("toolbox").unwrap());
    let cases = fixture.get("cases").unwrap().as_array().unwrap();
    assert!(cases.len() >= 30);
    for case in cases {
        let name = case.get("name").unwrap().as_str().unwrap();
        let got = shelf.unwrap(case.get("call").unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        check(name, &got.to_value(), case.get("expect").unwrap());
    }
}

#[test]
fn the_free_function_gives_what_the_shelf_gives() {
    let fixture = fixture();
    let spec = fixture.get("toolbox").unwrap();
    let shelf = shelf_of(spec);
    let catalogs: Vec<&str> =
        spec.get("catalogs").unwrap().as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    let toolbox = common::grouped_with(spec.get("direct").unwrap().as_array().unwrap().to_vec(), &catalogs);
    for case in fixture.get("cases").unwrap().as_array().unwrap().iter().step_by(4) {
        let call = case.get("call").unwrap();
        let free = toolshelf::unwrap(&toolbox, call, spec.get("options").unwrap()).unwrap();
        assert_eq!(free, shelf.unwrap(call).unwrap());
    }
}

#[test]
fn a_call_that_is_not_an_object_is_a_programmer_error() {
    let shelf = Shelf::from_json(r#"[{"name":"a","parameters":{}}]"#, "").unwrap();
    for call in ["42", "null", "\"tool_call\"", "[]"] {
        let err = shelf.unwrap(&json::parse(call).unwrap()).unwrap_err();
        assert_eq!(err.code.as_str(), "invalid_call", "{call}");
        assert!(err.message.starts_with("call: expected a tool call object, got "), "{}", err.message);
    }
}

#[test]
fn custom_bridge_names_are_recognised() {
    let shelf = Shelf::from_json(
        r#"{"servers":{"s":[{"name":"t","description":"Do it.","parameters":{"type":"object"}}]}}"#,
        r#"{"bridgeNames":{"call":"invoke_tool"}}"#,
    )
    .unwrap();
    let call = json::parse(r#"{"name":"invoke_tool","arguments":{"name":"t","arguments":{}}}"#).unwrap();
    let got = shelf.unwrap(&call).unwrap().to_value();
    assert_eq!(got.get("kind").and_then(Value::as_str), Some("call"));
    let call = json::parse(r#"{"name":"tool_call","arguments":{"name":"t","arguments":{}}}"#).unwrap();
    let got = shelf.unwrap(&call).unwrap().to_value();
    assert!(
        got.get("content").and_then(Value::as_str).unwrap().contains("no tool named \"tool_call\""),
        "{}",
        got.to_json()
    );
}
