//! The JavaScript binding, and the only module that knows about JS: each export parses its input
//! (JSON text), calls the core, and returns JSON text. The package's entry shims (`pkg-template/`)
//! turn that text into objects and put the caller's own tool objects back in place.

use crate::assemble::{Layout, Slot};
use crate::error::Error;
use crate::json::Value;
use crate::shelf::Shelf;
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

/// Stateless assemble: toolbox and options as JSON text, the assembly plan as JSON text.
#[wasm_bindgen(js_name = assembleJson)]
pub fn assemble_json(toolbox: &str, options: &str) -> Result<String, JsValue> {
    let shelf = Shelf::from_json(toolbox, options).map_err(js_error)?;
    Ok(layout_json(&shelf.layout()))
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
        Shelf::from_json(toolbox, options).map(|shelf| ShelfHandle { shelf }).map_err(js_error)
    }

    /// The assembly plan as JSON text.
    pub fn assemble(&self) -> String {
        layout_json(&self.shelf.layout())
    }
}
