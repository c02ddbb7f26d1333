//! The validator against every tool schema of the real catalogs in `tests/data/catalogs/`: it
//! accepts arguments the schema itself implies, rejects a property of the wrong type, and neither
//! panics nor misbehaves on odd arguments.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Read;

use toolshelf::json::{self, Value};
use toolshelf::schema::{validate, Violation};

/// Deepest schema nesting the argument builder follows.
const BUILD_DEPTH: usize = 24;

/// Every `(catalog, tool name, parameters)` of the catalogs, read once for all tests.
fn catalog_schemas() -> &'static [(String, String, Value)] {
    static SCHEMAS: std::sync::OnceLock<Vec<(String, String, Value)>> = std::sync::OnceLock::new();
    SCHEMAS.get_or_init(read_catalog_schemas)
}

/// Reads the catalogs (the `queries-*` files hold no tools).
fn read_catalog_schemas() -> Vec<(String, String, Value)> {
    let mut files: Vec<_> = std::fs::read_dir("tests/data/catalogs")
        .expect("catalog dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".json.gz") && !name.starts_with("queries-")
        })
        .collect();
    files.sort();
    let mut schemas = Vec::new();
    for path in files {
        let mut text = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap()).read_to_string(&mut text).unwrap();
        let catalog = path.file_name().unwrap().to_string_lossy().trim_end_matches(".json.gz").to_string();
        for entry in json::parse(&text).expect("catalog parses").as_array().expect("catalog array") {
            let function = entry.get("tool").and_then(|t| t.get("function")).expect("tool.function");
            let name = function.get("name").and_then(Value::as_str).unwrap_or("?").to_string();
            let parameters = function.get("parameters").cloned().unwrap_or(Value::Null);
            schemas.push((catalog.clone(), name, parameters));
        }
    }
    schemas
}

/// Builds arguments a schema implies: its own `example`/`examples`/`default` when `use_examples`,
/// otherwise a minimal value (required properties only, first `enum` value, `const`, min bounds).
struct Builder<'a> {
    root: &'a Value,
    use_examples: bool,
}

impl Builder<'_> {
    fn build(&self, schema: &Value, depth: usize) -> Option<Value> {
        if depth > BUILD_DEPTH {
            return None;
        }
        let Value::Object(_) = schema else {
            return (*schema != Value::Bool(false)).then_some(Value::Null);
        };
        if self.use_examples {
            if let Some(example) = own_example(schema) {
                return Some(example.clone());
            }
        }
        if schema.get("$ref").is_some() {
            return self.build(&self.expand(schema, depth)?, depth + 1);
        }
        if let Some(value) = schema.get("const") {
            return Some(value.clone());
        }
        // The first `enum` value the node's type allows (a broken schema may list none).
        let enumerated = schema.get("enum").and_then(Value::as_array).unwrap_or(&[]);
        if let Some(first) = enumerated.iter().find(|v| kind_fits(implied_type(schema), v)) {
            return Some(first.clone());
        }
        if let Some(branches) = schema.get("allOf").and_then(Value::as_array) {
            let mut all = without(schema, "allOf");
            for branch in branches {
                all = merged(&all, &self.expand(branch, depth)?);
            }
            return self.build(&all, depth + 1);
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(branches) = schema.get(keyword).and_then(Value::as_array) {
                let own = without(schema, keyword);
                return branches.iter().find_map(|b| self.build(&merged(&own, &self.expand(b, depth)?), depth + 1));
            }
        }
        match implied_type(schema) {
            "object" => self.build_object(schema, depth),
            "array" => self.build_array(schema, depth),
            "string" => Some(Value::str(minimal_string(schema))),
            "integer" => Some(Value::float(minimal_number(schema, true))),
            "number" => Some(Value::float(minimal_number(schema, false))),
            "boolean" => Some(Value::Bool(false)),
            _ => Some(Value::Null),
        }
    }

    /// The schema with its `$ref` (if any) replaced by the target's keywords.
    fn expand(&self, schema: &Value, depth: usize) -> Option<Value> {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) if depth <= BUILD_DEPTH => {
                let target = self.expand(resolve(self.root, reference)?, depth + 1)?;
                Some(merged(&target, &without(schema, "$ref")))
            }
            Some(_) => None,
            None => Some(schema.clone()),
        }
    }

    fn build_object(&self, schema: &Value, depth: usize) -> Option<Value> {
        let properties = schema.get("properties").and_then(Value::as_object).unwrap_or(&[]);
        let property = |name: &str| properties.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v);
        let mut members = Vec::new();
        let required = schema.get("required").and_then(Value::as_array).unwrap_or(&[]);
        for name in required.iter().filter_map(Value::as_str) {
            if members.iter().any(|(k, _)| k == name) {
                continue;
            }
            let sub = property(name).or(schema.get("additionalProperties")).unwrap_or(&Value::Bool(true));
            members.push((name.to_string(), self.build(sub, depth + 1)?));
        }
        let at_least = schema.get("minProperties").and_then(Value::as_f64).unwrap_or(0.0) as usize;
        for (name, sub) in properties {
            if members.len() >= at_least {
                break;
            }
            if !members.iter().any(|(k, _)| k == name) {
                members.push((name.clone(), self.build(sub, depth + 1)?));
            }
        }
        Some(Value::Object(members))
    }

    fn build_array(&self, schema: &Value, depth: usize) -> Option<Value> {
        let count = schema.get("minItems").and_then(Value::as_f64).unwrap_or(0.0) as usize;
        let items = (0..count)
            .map(|i| match schema.get("items") {
                Some(Value::Array(tuple)) => tuple.get(i).map_or(Some(Value::Null), |s| self.build(s, depth + 1)),
                Some(sub) => self.build(sub, depth + 1),
                None => Some(Value::Null),
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Value::Array(items))
    }
}

/// `schema` without `keyword`.
fn without(schema: &Value, keyword: &str) -> Value {
    match schema {
        Value::Object(m) => Value::Object(m.iter().filter(|(k, _)| k != keyword).cloned().collect()),
        other => other.clone(),
    }
}

/// Both schemas' keywords in one (as `allOf` means): `properties` joined, `required` concatenated,
/// any other keyword of `b` replacing `a`'s.
fn merged(a: &Value, b: &Value) -> Value {
    let (Value::Object(am), Value::Object(bm)) = (a, b) else {
        return match (a, b) {
            (_, Value::Bool(true)) => a.clone(),
            (Value::Bool(true), _) | (_, Value::Bool(false)) => b.clone(),
            _ => a.clone(),
        };
    };
    let mut out = am.clone();
    for (key, value) in bm {
        let joined = match (key.as_str(), out.iter().find(|(k, _)| k == key).map(|(_, v)| v)) {
            ("properties", Some(Value::Object(old))) => {
                let mut props = old.clone();
                for (name, sub) in value.as_object().unwrap_or(&[]) {
                    match props.iter_mut().find(|(k, _)| k == name) {
                        Some((_, both)) => {
                            *both = Value::object([("allOf", Value::Array(vec![both.clone(), sub.clone()]))])
                        }
                        None => props.push((name.clone(), sub.clone())),
                    }
                }
                Value::Object(props)
            }
            ("required", Some(Value::Array(old))) => {
                Value::Array(old.iter().chain(value.as_array().unwrap_or(&[])).cloned().collect())
            }
            _ => value.clone(),
        };
        out.retain(|(k, _)| k != key);
        out.push((key.clone(), joined));
    }
    Value::Object(out)
}

/// The schema's own sample value: `example`, the first of `examples`, or `default`.
fn own_example(schema: &Value) -> Option<&Value> {
    schema
        .get("example")
        .or_else(|| schema.get("examples").and_then(Value::as_array).and_then(|e| e.first()))
        .or_else(|| schema.get("default"))
}

/// `type` (the first non-null name of a list), else what the keywords imply.
fn implied_type(schema: &Value) -> &str {
    let named = match schema.get("type") {
        Some(Value::String(t)) => Some(t.as_str()),
        Some(Value::Array(types)) => {
            types.iter().filter_map(Value::as_str).find(|t| *t != "null").or(types.first().and_then(Value::as_str))
        }
        _ => None,
    };
    let has = |keys: &[&str]| keys.iter().any(|k| schema.get(k).is_some());
    named.unwrap_or(if has(&["properties", "required", "additionalProperties"]) {
        "object"
    } else if has(&["items", "minItems"]) {
        "array"
    } else if has(&["minLength", "maxLength", "pattern"]) {
        "string"
    } else if has(&["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
        "number"
    } else {
        "null"
    })
}

/// Whether a value could be of the (implied) type `kind`; `null` means untyped.
fn kind_fits(kind: &str, value: &Value) -> bool {
    kind == "null"
        || match value {
            Value::Null => true,
            Value::Bool(_) => kind == "boolean",
            Value::Number(_) => kind == "number" || kind == "integer",
            Value::String(_) => kind == "string",
            Value::Array(_) => kind == "array",
            Value::Object(_) => kind == "object",
        }
}

fn minimal_string(schema: &Value) -> String {
    let min = schema.get("minLength").and_then(Value::as_f64).unwrap_or(1.0);
    let max = schema.get("maxLength").and_then(Value::as_f64).unwrap_or(f64::MAX);
    "a".repeat(min.max(1.0).min(max).max(0.0) as usize)
}

/// The number nearest 0 that the bounds allow, a multiple of `multipleOf` (or whole) where asked.
fn minimal_number(schema: &Value, integer: bool) -> f64 {
    let number = |key: &str| schema.get(key).and_then(Value::as_f64);
    let flag = |key: &str| schema.get(key) == Some(&Value::Bool(true));
    let low =
        number("exclusiveMinimum").map(|x| (x, true)).or(number("minimum").map(|m| (m, flag("exclusiveMinimum"))));
    let high =
        number("exclusiveMaximum").map(|x| (x, true)).or(number("maximum").map(|m| (m, flag("exclusiveMaximum"))));
    let step = number("multipleOf").filter(|s| *s > 0.0).or(integer.then_some(1.0));
    let nudge = step.unwrap_or(1e-3);
    let mut value = 0.0;
    if let Some((lo, strict)) = low {
        if value < lo || (strict && value <= lo) {
            value = if strict { lo + nudge } else { lo };
        }
    }
    if let Some((hi, strict)) = high {
        if value > hi || (strict && value >= hi) {
            value = if strict { hi - nudge } else { hi };
        }
    }
    match step {
        Some(step) if high.is_some_and(|(hi, _)| (value / step).ceil() * step > hi) => (value / step).floor() * step,
        Some(step) => (value / step).ceil() * step,
        None => value,
    }
}

/// A local JSON pointer `$ref`, as the validator reads it.
fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    pointer.split('/').skip(1).try_fold(root, |node, token| {
        let token = token.replace("~1", "/").replace("~0", "~");
        match node {
            Value::Array(items) => items.get(token.parse::<usize>().ok()?),
            _ => node.get(&token),
        }
    })
}

fn describe_failure(catalog: &str, name: &str, args: &Value, v: &Violation) -> String {
    let args = args.to_json();
    let args: String =
        if args.chars().count() > 300 { args.chars().take(300).chain(Some('…')).collect() } else { args };
    format!("{catalog}/{name}: {v} [{}]\n    args {args}", v.keyword)
}

#[test]
fn catalog_schemas_accept_the_arguments_they_imply() {
    let schemas = catalog_schemas();
    let (mut built, mut skipped, mut from_examples, mut examples_rejected) = (0, 0, 0, 0);
    let mut rejected = Vec::new();
    let mut example_notes = Vec::new();
    for (catalog, name, parameters) in schemas {
        let with_examples = Builder { root: parameters, use_examples: true }.build(parameters, 0);
        let minimal = Builder { root: parameters, use_examples: false }.build(parameters, 0);
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
    if !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || "_-$".contains(c)) {
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
        let Some(Value::Object(valid)) = Builder { root: parameters, use_examples: false }.build(parameters, 0) else {
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
