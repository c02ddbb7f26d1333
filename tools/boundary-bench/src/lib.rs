//! Object-passing prototype for the boundary figures (scripts/figures): `assembleValue` takes the
//! toolbox and options as JS values and converts them to `toolshelf::json::Value` by walking them
//! from wasm (`Array`/`Object.entries`, one boundary crossing per value), the way
//! serde-wasm-bindgen deserialises; then it does exactly what the package's `assembleJson` does.
//! The package's own exports (`assembleJson`, …) are in this module too, for the comparison.

use js_sys::{Array, Object};
use toolshelf::assemble::{Layout, Slot};
use toolshelf::json::{Value, MAX_DEPTH};
use toolshelf::options::Options;
use toolshelf::Shelf;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A JS value as a JSON value, as `JSON.stringify` would see it (non-finite numbers and functions
/// become null); `None` past the depth bound.
fn value_of(js: &JsValue, depth: usize) -> Option<Value> {
    if depth > MAX_DEPTH {
        return None;
    }
    Some(if let Some(s) = js.as_string() {
        Value::String(s)
    } else if let Some(x) = js.as_f64() {
        Value::float(x)
    } else if let Some(b) = js.as_bool() {
        Value::Bool(b)
    } else if Array::is_array(js) {
        let array: &Array = js.unchecked_ref();
        Value::Array(array.iter().map(|v| value_of(&v, depth + 1)).collect::<Option<_>>()?)
    } else if js.is_object() && !js.is_function() {
        let entries = Object::entries(js.unchecked_ref());
        let members = entries.iter().map(|entry| {
            let pair: Array = entry.unchecked_into();
            Some((pair.get(0).as_string()?, value_of(&pair.get(1), depth + 1)?))
        });
        Value::Object(members.collect::<Option<_>>()?)
    } else {
        Value::Null
    })
}

/// The same plan JSON as the package's binding: given tools as positions.
fn layout_json(layout: &Layout<'_>) -> String {
    let plan = layout.slots.iter().map(|slot| match slot {
        Slot::Given(tool) => Value::uint(tool.position as u64),
        Slot::Made(def) => def.clone(),
    });
    layout.facts.to_value(Value::Array(plan.collect())).to_json()
}

/// assemble with the toolbox and options as JS values rather than JSON text.
#[wasm_bindgen(js_name = assembleValue)]
pub fn assemble_value(toolbox: JsValue, options: JsValue) -> Result<String, JsValue> {
    let toolbox = value_of(&toolbox, 0).ok_or_else(|| JsValue::from_str("too deep"))?;
    let parsed = Options::parse(&value_of(&options, 0).unwrap_or(Value::Null));
    let shelf =
        Shelf::with_options(toolbox, parsed.options, parsed.warnings).map_err(|e| JsValue::from_str(&e.message))?;
    Ok(layout_json(&shelf.layout()))
}

/// Only the conversion, for the breakdown: the number of values walked.
#[wasm_bindgen(js_name = convertValue)]
pub fn convert_value(toolbox: JsValue) -> usize {
    fn count(v: &Value) -> usize {
        1 + match v {
            Value::Array(items) => items.iter().map(count).sum(),
            Value::Object(members) => members.iter().map(|(_, v)| count(v)).sum(),
            _ => 0,
        }
    }
    value_of(&toolbox, 0).map_or(0, |v| count(&v))
}

/// Only the parse of JSON text, for the breakdown: the number of values parsed.
#[wasm_bindgen(js_name = parseText)]
pub fn parse_text(text: &str) -> usize {
    fn count(v: &Value) -> usize {
        1 + match v {
            Value::Array(items) => items.iter().map(count).sum(),
            Value::Object(members) => members.iter().map(|(_, v)| count(v)).sum(),
            _ => 0,
        }
    }
    toolshelf::json::parse(text).map_or(0, |v| count(&v))
}
