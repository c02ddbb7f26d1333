//! The JavaScript binding, and the only module that knows about JS: one class, `ShelfHandle`, whose
//! methods parse their input (JSON text), call the core, and return JSON text; and two functions
//! for the stateless `assemble` of `pkg-template/outline.js`, which reads only a toolbox's outline.
//! The JS layer (`pkg-template/`) turns that text into objects and puts the caller's own tool
//! objects back in place.

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
    plan_value(layout).to_json()
}

fn plan_value(layout: &Layout<'_>) -> Value {
    let plan = layout.slots.iter().map(|slot| match slot {
        Slot::Given(tool) => Value::uint(tool.position as u64),
        Slot::Made(def) => def.clone(),
    });
    layout.facts.to_value(Value::Array(plan.collect()))
}

/// The plan of an outline (a toolbox whose tool defs keep only what assemble reads: `type`,
/// `name`, `description`, `function`, and the schema keys with a placeholder value): as
/// [`layout_json`], with `deferredTokens` and `fingerprint` null (sizes and direct tools' bytes are
/// not in an outline; the JS layer computes both from the caller's objects) and `deferred` added,
/// the input positions of the deferred tools.
fn outline_plan_json(shelf: &Shelf) -> String {
    let layout = shelf.layout();
    let deferred = shelf.catalog().deferred().map(|tool| Value::uint(tool.position as u64)).collect();
    let mut plan = plan_value(&layout);
    if let Value::Object(members) = &mut plan {
        for (key, value) in members.iter_mut() {
            if key == "deferredTokens" || key == "fingerprint" {
                *value = Value::Null;
            }
        }
        members.push(("deferred".into(), Value::Array(deferred)));
    }
    plan.to_json()
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
    reserve_for(toolbox);
    Shelf::from_json(toolbox, options).map_err(js_error)
}

/// Heap bytes per byte of JSON text a prepared toolbox and its search index take, about (7–10
/// measured on toolboxes of 20,000 and 100,000 tools).
const HEAP_PER_TEXT_BYTE: usize = 10;

/// Makes room in wasm memory for the work on `text` in one step. The allocator grows memory 64 KiB
/// at a time as it runs out, and V8 may collect garbage on a growth: a 100,000-tool toolbox's
/// first `new Shelf` took 2,400 growths and 25 s instead of 1.5 (docs/hostile.md). A block of
/// the size the work will need, allocated and freed, grows memory once; the work then takes its
/// memory from that block's room. Memory never shrinks, so this costs nothing the work would not
/// take anyway, and nothing when the room is already there.
fn reserve_for(text: &str) {
    let mut room: alloc::vec::Vec<u8> = alloc::vec::Vec::new();
    if room.try_reserve_exact(text.len().saturating_mul(HEAP_PER_TEXT_BYTE)).is_ok() {
        core::hint::black_box(room.as_mut_ptr()); // kept, so the allocation is not elided
    }
}

fn parse_call(call: &str) -> Result<Value, JsValue> {
    reserve_for(call);
    crate::catalog::parse_input(call, "call", crate::error::ErrorCode::InvalidCall).map_err(js_error)
}

/// The assembly plan of a toolbox outline (see [`outline_plan_json`]), for a stateless assemble
/// that never reads the schemas of the tools it defers. Errors as `new ShelfHandle`.
#[wasm_bindgen(js_name = outlinePlan)]
pub fn outline_plan(outline: &str, options: &str) -> Result<String, JsValue> {
    shelf_of(outline, options).map(|shelf| outline_plan_json(&shelf))
}

/// The fingerprint of SPEC §3.5 (FNV-1a 64, 16 hex digits) of a model-visible tools array's
/// compact JSON, for assemblies whose direct tools the JS layer wrote.
#[wasm_bindgen(js_name = fingerprint)]
pub fn fingerprint_of(tools_json: &str) -> String {
    crate::assemble::fingerprint(tools_json)
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
