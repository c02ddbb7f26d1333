//! The validator against every tool schema of the real catalogs in `tests/data/catalogs/`: it
//! accepts arguments the schema itself implies, rejects a property of the wrong type, and neither
//! panics nor misbehaves on odd arguments.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

mod schema_support;

use schema_support::{arguments, catalog_schemas, Fill};
use toolshelf::json::{self, Value};
use toolshelf::schema::{validate, Violation};

fn describe_failure(catalog: &str, name: &str, args: &Value, v: &Violation) -> String {
    let args = args.to_json();
    let args: String =
        if args.chars().count() > 300 { args.chars().take(300).chain(Some('…')).collect() } else { args };
    format!("{catalog}/{name}: {v} [{}]\n    args {args}", v.keyword)
}

#[test]
fn catalog_schemas_accept_the_arguments_they_imply() {
    let schemas = catalog_schemas();
    let (mut built, mut skipped, mut from_examples, mut examples_rejected, mut full) = (0, 0, 0, 0, 0);
    let mut rejected = Vec::new();
    let mut example_notes = Vec::new();
    for (catalog, name, parameters) in schemas {
        let with_examples = arguments(parameters, Fill::Examples);
        let minimal = arguments(parameters, Fill::Minimal);
        if let Some(args) = with_examples.filter(|a| Some(a) != minimal.as_ref()) {
            let mut checked = args.clone();
            match validate(parameters, &mut checked) {
                Ok(()) => from_examples += 1,
                Err(v) => {
                    examples_rejected += 1;
                    example_notes.push(describe_failure(catalog, name, &args, &v));
                }
            }
        }
        if let Some(args) = arguments(parameters, Fill::Full).filter(|a| Some(a) != minimal.as_ref()) {
            full += 1;
            let mut checked = args.clone();
            if let Err(v) = validate(parameters, &mut checked) {
                rejected.push(describe_failure(catalog, name, &args, &v));
            }
        }
        let Some(args) = minimal else {
            skipped += 1;
            continue;
        };
        built += 1;
        let mut checked = args.clone();
        if let Err(v) = validate(parameters, &mut checked) {
            rejected.push(describe_failure(catalog, name, &args, &v));
        }
    }
    println!(
        "{} catalog schemas checked: {built} minimal arguments built, {skipped} skipped as unbuildable",
        schemas.len()
    );
    println!("{full} of them also built with every optional property (and checked)");
    println!(
        "arguments from the schemas' own examples/defaults: {from_examples} accepted, {examples_rejected} rejected"
    );
    for note in example_notes.iter().take(40) {
        println!("  example rejected: {note}");
    }
    assert!(schemas.len() > 15_000, "all catalogs read");
    assert!(skipped * 100 <= schemas.len(), "more than 1% unbuildable: {skipped}");
    assert!(rejected.is_empty(), "{} built arguments rejected:\n{}", rejected.len(), rejected.join("\n"));
    assert!(
        examples_rejected * 100 <= from_examples + examples_rejected,
        "over 1% of the schemas' own examples rejected"
    );
}

/// A property's schema with one plain JSON type and nothing that could admit another type.
fn plain_type(schema: &Value) -> Option<&str> {
    let simple =
        ["anyOf", "oneOf", "allOf", "not", "$ref", "nullable", "enum", "const"].iter().all(|k| schema.get(k).is_none());
    schema.get("type").and_then(Value::as_str).filter(|t| simple && *t != "null")
}

/// `arguments.key`, or `arguments["odd key"]` for a key that is not a plain word.
fn property_path(key: &str) -> String {
    if !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b"_-$".contains(&b)) {
        return format!("arguments.{key}");
    }
    let mut quoted = String::new();
    json::write_string(&mut quoted, key);
    format!("arguments[{quoted}]")
}

#[test]
fn catalog_schemas_reject_a_property_of_the_wrong_type() {
    let (mut checked, mut missed) = (0, Vec::new());
    for (catalog, name, parameters) in catalog_schemas() {
        let combined = ["anyOf", "oneOf", "allOf", "not", "$ref"].iter().any(|k| parameters.get(k).is_some());
        let properties = parameters.get("properties").and_then(Value::as_object).unwrap_or(&[]);
        let Some(Value::Object(valid)) = arguments(parameters, Fill::Minimal) else {
            continue;
        };
        for (key, sub) in properties {
            let Some(kind) = plain_type(sub).filter(|_| !combined) else { continue };
            // Never a string: a string could be coerced into the wanted type.
            let wrong =
                if kind == "object" { Value::Array(vec![]) } else { Value::object([("wrong", Value::Bool(true))]) };
            let mut args = Value::Object(valid.iter().filter(|(k, _)| k != key).cloned().collect());
            if let Value::Object(members) = &mut args {
                members.push((key.clone(), wrong));
            }
            checked += 1;
            match validate(parameters, &mut args) {
                Err(v) if v.keyword == "type" && v.path == property_path(key) => {}
                other => missed.push(format!("{catalog}/{name}.{key} ({kind}): {other:?}")),
            }
        }
    }
    println!("{checked} properties of the wrong type injected; {} not rejected", missed.len());
    assert!(checked > 30_000, "only {checked} checked");
    assert!(missed.is_empty(), "not rejected:\n{}", missed.join("\n"));
}

/// Odd arguments for a schema: none of them may panic or produce a malformed violation.
fn odd_arguments(schema: &Value) -> Vec<Value> {
    let mut deep = Value::Null;
    for _ in 0..json::MAX_DEPTH {
        deep = Value::Array(vec![deep]);
    }
    let keys: Vec<&str> =
        schema.get("properties").and_then(Value::as_object).unwrap_or(&[]).iter().map(|(k, _)| k.as_str()).collect();
    let every = |v: Value| Value::object(keys.iter().map(|k| (*k, v.clone())));
    vec![
        Value::object::<&str>([]),
        Value::Null,
        Value::Array(vec![]),
        Value::str("x"),
        Value::uint(0),
        Value::Bool(true),
        deep.clone(),
        Value::object([("deep", deep.clone())]),
        Value::object([("a", Value::str("1"))]),
        every(Value::str("42")),
        every(Value::str("true")),
        every(Value::str("-1.5e3")),
        every(Value::Null),
        every(Value::Array(vec![Value::object([("x", Value::str("1"))]); 3])),
        Value::object(keys.first().map(|k| (*k, deep))),
        every(Value::float(1e300)),
        every(Value::str("😀".repeat(300))),
    ]
}

#[test]
fn catalog_schemas_never_panic_on_odd_arguments() {
    let schemas = catalog_schemas();
    let (mut calls, mut rejected) = (0, 0);
    for (catalog, name, parameters) in schemas {
        for args in odd_arguments(parameters) {
            let mut once = args.clone();
            calls += 1;
            match validate(parameters, &mut once) {
                Ok(()) => {
                    let mut twice = once.clone();
                    assert_eq!(validate(parameters, &mut twice), Ok(()), "{catalog}/{name}: not idempotent");
                    assert_eq!(twice, once, "{catalog}/{name}: coerced twice");
                }
                Err(v) => {
                    rejected += 1;
                    assert!(v.path.starts_with("arguments") && !v.message.is_empty(), "{catalog}/{name}: {v:?}");
                    assert_eq!(once, args, "{catalog}/{name}: a rejected call was changed");
                }
            }
        }
    }
    println!("{} schemas, {calls} odd calls validated without a panic ({rejected} rejected)", schemas.len());
}
