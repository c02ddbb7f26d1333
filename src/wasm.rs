//! The JavaScript binding, and the only module that knows about JS: one class, `ShelfHandle`, whose
//! methods parse their input (JSON text), call the core, and return JSON text. The JS layer's
//! stateless functions go through prepared handles too (their memo, `pkg-template/api.js`). The package's entry shims (`pkg-template/`)
//! turn that text into objects and put the caller's own tool objects back in place.

use crate::assemble::{Layout, Slot};
use crate::error::Error;
use crate::json::Value;
use crate::shelf::Shelf;
use crate::unwrap::Unwrapped;
use alloc::string::String;
use wasm_bindgen::prelude::*;

/// A JS `Error` named `ToolshelfError` with the stable `code` of SPEC §8.
fn js_error(error: Error) -> JsValue {
    let js = js_sys::Error::new(&error.message);
    js.set_name("ToolshelfError");
    let _ = js_sys::Reflect::set(&js, &JsValue::from_str("code"), &JsValue::from_str(error.code.as_str()));
    js.into()
}

/// The assembly with each tool the caller gave written as its input position (a number), so the
/// JS side can hand back the very same object.
fn layout_json(layout: &Layout<'_>) -> String {
    let plan = layout.slots.iter().map(|slot| match slot {
        Slot::Given(tool) => Value::uint(tool.position as u64),
        Slot::Made(def) => def.clone(),
    });
    layout.facts.to_value(Value::Array(plan.collect())).to_json()
}

/// The unwrap result; `untouched: true` marks arguments that are exactly the object the model sent,
/// which the JS side then hands back by reference.
fn unwrapped_json(unwrapped: &Unwrapped) -> String {
    let mut value = unwrapped.to_value();
    if let (Unwrapped::Call(call), Value::Object(members)) = (unwrapped, &mut value) {
        if call.untouched {
            members.push(("untouched".into(), Value::Bool(true)));
        }
    }
    value.to_json()
}

fn shelf_of(toolbox: &str, options: &str) -> Result<Shelf, JsValue> {
    Shelf::from_json(toolbox, options).map_err(js_error)
}

fn parse_call(call: &str) -> Result<Value, JsValue> {
    crate::catalog::parse_input(call, "call", crate::error::ErrorCode::InvalidCall).map_err(js_error)
}

/// A prepared toolbox, held in wasm memory between calls.
#[wasm_bindgen(js_name = ShelfHandle)]
pub struct ShelfHandle {
    shelf: Shelf,
}

#[wasm_bindgen(js_class = ShelfHandle)]
impl ShelfHandle {
    /// Prepares a toolbox (JSON text) with options (JSON text).
    #[wasm_bindgen(constructor)]
    pub fn new(toolbox: &str, options: &str) -> Result<ShelfHandle, JsValue> {
        shelf_of(toolbox, options).map(|shelf| ShelfHandle { shelf })
    }

    /// The assembly plan as JSON text.
    pub fn assemble(&self) -> String {
        layout_json(&self.shelf.layout())
    }

    /// The search result as JSON text.
    pub fn search(&self, query: &str, limit: Option<u32>) -> String {
        self.shelf.search(query, limit.map(|l| l as usize)).to_value().to_json()
    }

    /// The described tool as JSON text, or `null`.
    pub fn describe(&self, name: &str) -> String {
        self.shelf.describe(name).map_or_else(|| "null".into(), |d| d.to_value().to_json())
    }

    /// The unwrap result as JSON text.
    pub fn unwrap(&self, call: &str) -> Result<String, JsValue> {
        self.shelf.unwrap(&parse_call(call)?).map(|u| unwrapped_json(&u)).map_err(js_error)
    }
}
