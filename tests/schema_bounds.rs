//! The validator's bounds: hostile schemas and arguments end within the work bound without a panic
//! or a stack overflow, and large but ordinary arguments are still judged in full. Work is counted
//! (`validate_counted`), never timed.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

use toolshelf::json::{self, Value};
use toolshelf::schema::{validate_counted, Violation, MAX_WORK};

fn parse(text: &str) -> Value {
    json::parse(text).expect("test JSON parses")
}

/// Validates, checking the work spent stays within `most` units (at most the validator's bound).
fn bounded(schema: &Value, args: &mut Value, most: usize) -> Result<(), Violation> {
    let (result, work) = validate_counted(schema, args);
    assert!(work <= most.min(MAX_WORK), "{work} units of work, more than {most}");
    result
}

/// Validates a hostile input: whatever it does, it ends within the validator's work bound.
fn timed(schema: &Value, args: &mut Value) -> Result<(), Violation> {
    bounded(schema, args, MAX_WORK)
}

fn nested_arrays(depth: usize, inner: Value) -> Value {
    (0..depth).fold(inner, |v, _| Value::Array(vec![v]))
}

#[test]
fn exponential_any_of_through_a_ref_is_cut_off() {
    // Two alternatives that both recurse: 2^60 paths to the failing leaf, unless work is bounded.
    // The evaluation depth (schema, `$ref` hops and value nesting together) ends it first.
    let schema =
        parse(r##"{"anyOf": [{"type": "array", "items": {"$ref": "#"}}, {"type": "array", "items": {"$ref": "#"}}]}"##);
    let mut args = nested_arrays(60, Value::uint(5));
    let (result, work) = validate_counted(&schema, &mut args);
    assert_eq!(result, Ok(()), "past the work bound the call is not judged");
    assert!(work < 1_000, "{work} units of work: cut off by the depth bound");
}

#[test]
fn ref_cycles_end() {
    for schema in [
        r##"{"$ref": "#"}"##,
        r##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}"##,
        r##"{"allOf": [{"$ref": "#"}, {"$ref": "#"}]}"##,
        r##"{"oneOf": [{"$ref": "#"}, {"not": {"$ref": "#"}}]}"##,
        r##"{"properties": {"a": {"$ref": "#"}}, "additionalProperties": {"$ref": "#"}}"##,
    ] {
        let schema = parse(schema);
        for text in ["1", r#""42""#, r#"{"a": {"a": {"b": "1"}}}"#, "[[[[]]]]"] {
            let mut args = parse(text);
            // A cycle ends at the evaluation depth, far below the work bound; it cannot judge, so
            // the call passes, untouched.
            assert_eq!(bounded(&schema, &mut args, 10_000), Ok(()), "{schema:?} on {text}");
            assert_eq!(args, parse(text));
        }
    }
}

#[test]
fn arguments_deeper_than_the_parser_allows_are_not_judged() {
    let schema = parse(r##"{"items": {"$ref": "#"}, "type": "array"}"##);
    let mut args = nested_arrays(1000, Value::uint(1));
    assert_eq!(timed(&schema, &mut args), Ok(()));
    let mut args = nested_arrays(json::MAX_DEPTH, Value::uint(1));
    assert_eq!(timed(&schema, &mut args), Ok(()), "deeper than the evaluation bound: not judged");
}

#[test]
fn hand_built_deep_schema_is_safe() {
    let mut schema = parse(r#"{"type": "integer"}"#);
    for _ in 0..1000 {
        schema = Value::object([("type", Value::str("object")), ("properties", Value::object([("a", schema)]))]);
    }
    let mut args = Value::uint(5);
    let violation = timed(&schema, &mut args).unwrap_err();
    assert_eq!((violation.path.as_str(), violation.keyword), ("arguments", "type"));
    assert_eq!(violation.schema, Value::Null, "too deep to copy into the violation safely");
}

#[test]
fn large_enum_on_many_items_is_judged_through_a_set() {
    let enumerated: Vec<Value> = (0..5000).map(|i| Value::str(format!("v{i}"))).collect();
    let schema = Value::object([("items", Value::object([("enum", Value::Array(enumerated))]))]);
    // 25M comparisons if each item scanned the enum: the set built at the second look makes it
    // 5,000 lookups, judged in full well within the bound.
    let mut args = Value::Array((0..5000).map(|_| Value::str("v4999")).collect());
    let (result, work) = validate_counted(&schema, &mut args);
    assert_eq!(result, Ok(()));
    assert!(work < 100_000, "{work} units of work");
    let mut args = Value::Array((0..5000).map(|i| Value::str(if i == 4999 { "v5000" } else { "v4999" })).collect());
    let violation = timed(&schema, &mut args).unwrap_err();
    assert_eq!((violation.path.as_str(), violation.keyword), ("arguments[4999]", "enum"));
}

#[test]
fn large_ordinary_arguments_are_judged_in_full() {
    let schema = parse(
        r#"{"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string", "maxLength": 20}}, "required": ["id"]}}"#,
    );
    let mut items: Vec<Value> =
        (0..20_000).map(|i| Value::object([("id", Value::uint(i)), ("name", Value::str("x"))])).collect();
    items.push(Value::object([("name", Value::str("last"))]));
    let violation = timed(&schema, &mut Value::Array(items)).unwrap_err();
    assert_eq!((violation.path.as_str(), violation.keyword), ("arguments[20000]", "required"));
}

#[test]
fn coercion_across_many_items() {
    let schema = parse(r#"{"items": {"type": "integer"}}"#);
    let mut args = Value::Array((0..10_000).map(|i| Value::str(i.to_string())).collect());
    assert_eq!(timed(&schema, &mut args), Ok(()));
    assert_eq!(args.as_array().and_then(|a| a.last()), Some(&Value::uint(9999)));
}

#[test]
fn odd_numbers_and_strings_do_not_panic() {
    let schemas = [
        r#"{"multipleOf": 1e-320}"#,
        r#"{"multipleOf": 1.7976931348623157e308}"#,
        r#"{"minimum": 1e400, "maximum": -1e400}"#,
        r#"{"type": "integer", "minimum": -0}"#,
        r#"{"minLength": 1e300, "maxItems": -5}"#,
        r#"{"enum": []}"#,
        r#"{"anyOf": []}"#,
        r#"{"const": {"a": [1, {"b": null}]}}"#,
    ];
    let args = ["1e308", "-1e-320", "0", "12345678901234567890123", r#""9999999999999999999999""#, r#""""#, r#""😀""#];
    for schema in schemas {
        for text in args {
            let mut value = parse(text);
            // Each ends in a few units of work with a result: a pass, or a violation that names
            // a keyword of the schema.
            match bounded(&parse(schema), &mut value, 100) {
                Ok(()) => {}
                Err(violation) => {
                    assert!(schema.contains(&format!("\"{}\"", violation.keyword)), "{schema} on {text}: {violation}")
                }
            }
        }
    }
}

#[test]
fn hand_built_numbers_that_are_not_numbers_do_not_panic() {
    let schema = parse(r#"{"type": "integer", "minimum": 1, "multipleOf": 2, "enum": [1, 2]}"#);
    for text in ["", "abc", "NaN", "inf", "-", "1e99999"] {
        let mut value = Value::Number(text.into());
        // Not a number any schema keyword can read: rejected by `type` or `enum`, never a panic.
        let violation = bounded(&schema, &mut value, 100).expect_err(text);
        assert!(["type", "enum", "minimum", "multipleOf"].contains(&violation.keyword), "{text}: {violation}");
    }
}

#[test]
fn items_of_a_type_only_schema_are_judged_as_any_other() {
    // `items: {"type": …}` takes a shorter way for items of an admitted type; the verdicts are those
    // of the whole way: coercion, nullable, a bad item's path and message.
    let cases = [
        (r#"{"items": {"type": "integer"}}"#, "[1, 2, 3]", Ok(())),
        (r#"{"items": {"type": "integer"}}"#, r#"[1, 2, "x"]"#, Err(("arguments[2]", "type"))),
        (r#"{"items": {"type": "integer", "description": "an id"}}"#, "[1, 2.5]", Err(("arguments[1]", "type"))),
        (r#"{"items": {"type": "integer", "nullable": true}}"#, "[1, null]", Ok(())),
        (r#"{"items": {"type": "integer"}}"#, "[1, null]", Err(("arguments[1]", "type"))),
        (r#"{"items": {"type": ["integer", "null"]}}"#, "[null, 1]", Ok(())),
        (r#"{"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}"#, r#"["a", 1]"#, Ok(())),
        (
            r#"{"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}"#,
            "[1, 1]",
            Err(("arguments[0]", "type")),
        ),
    ];
    for (schema, args, expected) in cases {
        let mut value = parse(args);
        let result = timed(&parse(schema), &mut value).map_err(|v| (v.path, v.keyword));
        assert_eq!(result, expected.map_err(|(p, k)| (p.to_string(), k)), "{schema} on {args}");
    }
    let mut coerced = parse(r#"[1, "2", 3]"#);
    assert_eq!(timed(&parse(r#"{"items": {"type": "integer"}}"#), &mut coerced), Ok(()));
    assert_eq!(coerced, parse("[1, 2, 3]"), "text coerced as before");
}
