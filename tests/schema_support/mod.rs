//! Shared by the schema tests and the `validate_speed` example: reads the real catalogs and builds
//! the arguments a tool schema implies.
#![allow(dead_code)]

#[path = "../common/catalogs.rs"]
mod catalogs;

use toolshelf::json::{self, Value};

/// Deepest schema nesting the argument builder follows.
const BUILD_DEPTH: usize = 24;

/// Every `(catalog, tool name, parameters)` of the catalogs, read once.
pub fn catalog_schemas() -> &'static [(String, String, Value)] {
    static SCHEMAS: std::sync::OnceLock<Vec<(String, String, Value)>> = std::sync::OnceLock::new();
    SCHEMAS.get_or_init(read_catalog_schemas)
}

/// Reads every catalog of tools (through the one loader, `tests/common/catalogs.rs`).
fn read_catalog_schemas() -> Vec<(String, String, Value)> {
    let mut schemas = Vec::new();
    for catalog in catalogs::catalog_names() {
        let text = catalogs::catalog_text(&catalog);
        for entry in json::parse(&text).expect("catalog parses").as_array().expect("catalog array") {
            let function = entry.get("tool").and_then(|t| t.get("function")).expect("tool.function");
            let name = function.get("name").and_then(Value::as_str).unwrap_or("?").to_string();
            let parameters = function.get("parameters").cloned().unwrap_or(Value::Null);
            schemas.push((catalog.clone(), name, parameters));
        }
    }
    schemas
}

/// Which arguments to build from a schema.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Fill {
    /// The schema's own `example`/`examples`/`default` where given, else as `Minimal`.
    Examples,
    /// Required properties only, the first `enum` value, `const`, values at the min bounds.
    Minimal,
    /// As `Minimal`, plus every optional property that can be built.
    Full,
}

/// Builds the arguments a tool's `parameters` schema implies; `None` when it cannot.
pub fn arguments(parameters: &Value, fill: Fill) -> Option<Value> {
    Builder { root: parameters, fill }.build(parameters, 0)
}

struct Builder<'a> {
    root: &'a Value,
    fill: Fill,
}

impl Builder<'_> {
    fn build(&self, schema: &Value, depth: usize) -> Option<Value> {
        if depth > BUILD_DEPTH {
            return None;
        }
        let Value::Object(_) = schema else {
            return (*schema != Value::Bool(false)).then_some(Value::Null);
        };
        if self.fill == Fill::Examples {
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
            if members.len() >= at_least && self.fill != Fill::Full {
                break;
            }
            if !members.iter().any(|(k, _)| k == name) {
                match self.build(sub, depth + 1) {
                    Some(value) => members.push((name.clone(), value)),
                    None if members.len() >= at_least => {}
                    None => return None,
                }
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
