//! The JavaScript binding, and the only module that knows about JS: one class, `ShelfHandle`, whose
//! methods parse their input (JSON text), call the core, and return JSON text. It translates and
//! decides nothing: the JS layer (`pkg-template/`) turns the text into objects and puts the caller's
//! own objects back where the core says they are (a tool def's place in the toolbox, the key that
//! held a call's untouched arguments).
//!
//! Layer 13 of ARCHITECTURE.md's Layers: imports only the rooms of the layers below.

use crate::error::{Error, ErrorCode};
use crate::json::Value;
use crate::shelf::Shelf;
use crate::unwrap::Unwrapped;
use alloc::string::String;
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// JavaScript's `Error`, imported here: through js-sys, the `.wasm` held js-sys's futures
    /// support and wasm-bindgen's closure shims too (kilobytes), for two calls.
    #[wasm_bindgen(js_name = Error)]
    type JsError;
    #[wasm_bindgen(constructor, js_class = "Error")]
    fn new(message: &str) -> JsError;
    #[wasm_bindgen(method, setter = name)]
    fn set_name(this: &JsError, name: &str);
    #[wasm_bindgen(method, setter = code)]
    fn set_code(this: &JsError, code: &str);
}

/// A JS `Error` named `ToolshelfError` with the stable `code` of SPEC §8.
fn js_error(error: Error) -> JsValue {
    let js = JsError::new(&error.message);
    js.set_name("ToolshelfError");
    js.set_code(error.code.as_str());
    js.into()
}

/// The unwrap result; for a call whose arguments are exactly what the model sent, `untouched`
/// holds the keys that lead from the call to them (`function.arguments`), `arguments` is `null`,
/// and the JS side hands back that very object.
fn unwrapped_json(unwrapped: Unwrapped) -> String {
    unwrapped_json_warning(unwrapped, Vec::new())
}

/// [`unwrapped_json`] with `warnings` added to the result's own.
fn unwrapped_json_warning(unwrapped: Unwrapped, warnings: Vec<String>) -> String {
    let untouched = match &unwrapped {
        Unwrapped::Call(call) => call.untouched,
        _ => None,
    };
    let mut value = unwrapped.into_value();
    if let Value::Object(members) = &mut value {
        if let Some(at) = untouched {
            // The JS side puts the caller's own object there: writing it (megabytes, possibly)
            // and parsing it back would be work thrown away.
            if let Some((_, arguments)) = members.iter_mut().find(|(key, _)| key == "arguments") {
                *arguments = Value::Null;
            }
            members.push(("untouched".into(), Value::str(at.path())));
        }
        // Only a search takes vectors, and a search's answer has no warnings of its own.
        if !warnings.is_empty() {
            members.push(("warnings".into(), Value::strings(&warnings)));
        }
    }
    value.to_json()
}

/// The toolbox's text from its UTF-8 bytes (`TextEncoder` writes nothing else).
fn toolbox_text(bytes: Vec<u8>) -> Result<String, JsValue> {
    String::from_utf8(bytes).map_err(|_| js_error(Error::new(ErrorCode::InvalidToolbox, "toolbox: not UTF-8")))
}

/// Server names (or keys, or queries) as a JSON array of strings; anything else (`null`) is none:
/// no update of what is kept, vectors in texts order.
fn server_names(keep: &str) -> Option<Vec<String>> {
    let names = crate::json::parse(keep).ok()?;
    Some(names.as_array()?.iter().filter_map(Value::as_str).map(String::from).collect())
}

/// Heap bytes reserved per byte of JSON text. A prepared toolbox keeps its text as the one copy
/// of its defs (plus about as much again for its tools and index): reserving the text's size once
/// makes the many small growths a few, and reserving more (10× was tried) would only make wasm
/// memory, which never shrinks, that much larger (59 MB for the 5.9 MB REST toolbox).
const HEAP_PER_TEXT_BYTE: usize = 1;

/// Makes room in wasm memory for the work on `text` in one step. The allocator grows memory 64 KiB
/// at a time as it runs out, and V8 may collect garbage on a growth: a 100,000-tool toolbox's
/// first `new Shelf` took 2,400 growths and 25 s instead of 1.5 (docs/hostile.md). A block of
/// the size the work will need, allocated and freed, grows memory once; the work then takes its
/// memory from that block's room. Memory never shrinks, so this costs nothing the work would not
/// take anyway, and nothing when the room is already there.
fn reserve_for(text: &str) -> Result<(), JsValue> {
    reserve_for_bytes(text.len())
}

/// [`reserve_for`] a text of `bytes` bytes. When wasm memory cannot grow that far, the work would
/// run out of memory and trap the instance: it is `too_large` now instead, the shelf untouched.
fn reserve_for_bytes(bytes: usize) -> Result<(), JsValue> {
    let mut room: alloc::vec::Vec<u8> = alloc::vec::Vec::new();
    if room.try_reserve_exact(bytes.saturating_mul(HEAP_PER_TEXT_BYTE)).is_err() {
        return Err(too_large(bytes));
    }
    core::hint::black_box(room.as_mut_ptr()); // kept, so the allocation is not elided
    Ok(())
}

/// Room in wasm memory that the JS side writes a toolbox's JSON text into as UTF-8
/// (`TextEncoder.encodeInto` on a view of [`wasm_memory`] at [`TextRoom::at`]): the text crosses once, with no `Uint8Array`
/// of its own to copy in (for a 5 MB toolbox, 4 ms instead of 10 in Node). The shelf then takes
/// its bytes as they are ([`ShelfHandle::new`], [`ShelfHandle::update`]).
#[wasm_bindgen(js_name = TextRoom)]
pub struct TextRoom {
    bytes: Vec<u8>,
}

#[wasm_bindgen(js_class = TextRoom)]
impl TextRoom {
    /// Room for `capacity` bytes; `too_large` when wasm memory cannot grow that far.
    #[wasm_bindgen(constructor)]
    pub fn new(capacity: usize) -> Result<TextRoom, JsValue> {
        reserve_for_bytes(capacity)?;
        // Zeroed in one allocation (`calloc`), not byte by byte as `resize` writes them.
        Ok(TextRoom { bytes: alloc::vec![0; capacity] })
    }

    /// Keeps the first `written` bytes and makes room for `more` after them.
    pub fn grow(&mut self, written: usize, more: usize) -> Result<(), JsValue> {
        self.bytes.truncate(written);
        if self.bytes.try_reserve_exact(more).is_err() {
            return Err(too_large(written.saturating_add(more)));
        }
        self.bytes.resize(written + more, 0);
        Ok(())
    }

    /// Where the room starts in wasm memory (the JS side views `memory().buffer` there).
    pub fn at(&self) -> usize {
        self.bytes.as_ptr() as usize
    }
}

/// The name the model is shown for `tool` of `server` (SPEC §16, [`crate::wire::tool_name`]), for
/// JS layers that name a server's tool without an assembly (toolshelf/ai's Responses ToolSet).
#[wasm_bindgen(js_name = toolName)]
pub fn tool_name(server: &str, tool: &str) -> String {
    crate::wire::tool_name(server, tool)
}

/// The instance's `WebAssembly.Memory`.
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

impl TextRoom {
    /// Room holding `bytes` (for callers in Rust: the wasm tests).
    pub fn of(bytes: Vec<u8>) -> TextRoom {
        TextRoom { bytes }
    }

    /// The first `written` bytes as the toolbox's text (no copy; the rest of the room given back).
    fn text(mut self, written: usize) -> Result<String, JsValue> {
        self.bytes.truncate(written);
        self.bytes.shrink_to_fit();
        toolbox_text(self.bytes)
    }
}

/// The `too_large` error for an input of `bytes` bytes that wasm memory cannot grow to work on.
fn too_large(bytes: usize) -> JsValue {
    let message = alloc::format!("input of {bytes} bytes: not enough memory to work on it");
    js_error(Error::new(ErrorCode::TooLarge, message))
}

/// A prepared toolbox, held in wasm memory between calls.
#[wasm_bindgen(js_name = ShelfHandle)]
pub struct ShelfHandle {
    shelf: Shelf,
}

#[wasm_bindgen(js_class = ShelfHandle)]
impl ShelfHandle {
    /// Prepares a toolbox (JSON text as UTF-8, the first `written` bytes of `toolbox`, taken
    /// without a copy: a string passed as `&str` would be copied in at up to three bytes per
    /// UTF-16 unit, the peak of wasm memory) with options (JSON text).
    #[wasm_bindgen(constructor)]
    pub fn new(toolbox: TextRoom, written: usize, options: &str) -> Result<ShelfHandle, JsValue> {
        reserve_for_bytes(written)?;
        Shelf::from_json_text(toolbox.text(written)?, options).map(|shelf| ShelfHandle { shelf }).map_err(js_error)
    }

    /// Prepares a new toolbox (JSON text as UTF-8, as [`ShelfHandle::new`] takes it) in place of
    /// this one, keeping the servers named in `keep` (a JSON array of names) and the tools its
    /// server lists name by number ([`Shelf::update_keeping_text`]); `keep` `null`: the text is a
    /// whole toolbox, nothing kept.
    pub fn update(&mut self, toolbox: TextRoom, written: usize, keep: &str) -> Result<(), JsValue> {
        reserve_for_bytes(written)?;
        let keep = server_names(keep);
        self.shelf.update_keeping_text(toolbox.text(written)?, keep.as_deref()).map_err(js_error)
    }

    /// The assembly plan as JSON text ([`crate::assemble::Layout::plan`]).
    pub fn assemble(&self) -> String {
        self.shelf.layout().plan().to_json()
    }

    /// The assembly plan for a request continuing `context` (JSON text: `{messages}`), as JSON
    /// text ([`Shelf::layout_with`]: in native Anthropic mode, only the referenced deferred tools).
    pub fn assemble_with(&self, context: &str) -> Result<String, JsValue> {
        reserve_for(context)?;
        Ok(self.shelf.layout_with_text(context).map_err(js_error)?.plan().to_json())
    }

    /// The search result as JSON text (the stateless search's; a `Shelf`'s is
    /// [`ShelfHandle::search_found`]).
    pub fn search(&self, query: &str, limit: Option<u32>) -> String {
        self.shelf.search(query, limit.map(|l| l as usize)).to_value().to_json()
    }

    /// The search result as JSON text with each match `[tool, score, partial]`, `tool` its index
    /// in the catalog ([`crate::find::Found::to_json`]): the JS side keeps each tool's strings
    /// ([`ShelfHandle::match_summary`]) and writes the match objects.
    #[wasm_bindgen(js_name = searchFound)]
    pub fn search_found(&self, query: &str, limit: Option<u32>) -> String {
        self.shelf.search_found(query, limit.map(|l| l as usize)).to_json()
    }

    /// The strings of a match of the catalog's tool `tool` as JSON text (`{name, server,
    /// description, required}`), or `null`.
    #[wasm_bindgen(js_name = matchSummary)]
    pub fn match_summary(&self, tool: u32) -> String {
        self.shelf.match_summary(tool as usize).unwrap_or_else(|| "null".into())
    }

    /// The search result as JSON text, `vector` (the query's embedding) fused in (SPEC §12).
    #[wasm_bindgen(js_name = searchVector)]
    pub fn search_vector(&self, query: &str, limit: Option<u32>, vector: Vec<f32>) -> Result<String, JsValue> {
        let result = self.shelf.search_with_vector(query, limit.map(|l| l as usize), Some(&vector));
        Ok(result.map_err(js_error)?.to_value().to_json())
    }

    /// The described tool as JSON text, or `null`.
    pub fn describe(&self, name: &str) -> String {
        self.shelf.describe(name).map_or_else(|| "null".into(), |d| d.to_value().to_json())
    }

    /// The unwrap result as JSON text.
    pub fn unwrap(&self, call: &str) -> Result<String, JsValue> {
        reserve_for(call)?;
        self.shelf.unwrap_json(call).map(unwrapped_json).map_err(js_error)
    }

    /// The unwrap result as JSON text, for a call continuing `context` (JSON text: `{messages}`,
    /// `{input}` or the array; SPEC §14).
    #[wasm_bindgen(js_name = unwrapWith)]
    pub fn unwrap_with(&self, call: &str, context: &str) -> Result<String, JsValue> {
        reserve_for(call)?;
        self.shelf.unwrap_json_with(call, Some(context)).map(unwrapped_json).map_err(js_error)
    }

    /// The shelf as a snapshot (SPEC §13), holding the toolbox's text when `hold_toolbox`. With
    /// `toolbox` (JSON text as UTF-8 bytes: the shelf's toolbox, when an update kept servers and
    /// the shelf has no whole text of it), the snapshot is of that toolbox prepared anew.
    pub fn snapshot(&self, hold_toolbox: bool, toolbox: Option<Vec<u8>>) -> Result<Vec<u8>, JsValue> {
        let fresh = match toolbox {
            Some(bytes) => Some(self.shelf.anew(toolbox_text(bytes)?).map_err(js_error)?),
            None => None,
        };
        let shelf = fresh.as_ref().unwrap_or(&self.shelf);
        Ok(if hold_toolbox { shelf.snapshot() } else { shelf.snapshot_without_toolbox() })
    }

    /// A shelf loaded from a snapshot's bytes ([`Shelf::from_snapshot`]), with the toolbox's JSON
    /// text (as [`ShelfHandle::new`] takes it: the first `written` bytes of `toolbox`) and the
    /// options' JSON text when given.
    #[wasm_bindgen(js_name = fromSnapshot)]
    pub fn from_snapshot(
        bytes: Vec<u8>,
        toolbox: Option<TextRoom>,
        written: usize,
        options: Option<String>,
    ) -> Result<ShelfHandle, JsValue> {
        let toolbox = toolbox.map(|room| room.text(written)).transpose()?;
        // The bytes are in wasm memory already, and the toolbox's text; the load needs room for
        // its payload's copy and strings.
        reserve_for_bytes(crate::shelf::snapshot::room_to_load(&bytes))?;
        Shelf::from_snapshot(bytes, toolbox, options.as_deref()).map(|shelf| ShelfHandle { shelf }).map_err(js_error)
    }

    /// The assembly as JSON text with the defs themselves where [`ShelfHandle::assemble`] writes
    /// their places: for a shelf loaded from a snapshot, whose caller gave no toolbox objects.
    #[wasm_bindgen(js_name = assembleWhole)]
    pub fn assemble_whole(&self) -> String {
        self.shelf.assemble().to_value().to_json()
    }

    /// The toolbox's JSON text the shelf keeps (a loaded snapshot's), or `undefined`.
    #[wasm_bindgen(js_name = toolboxText)]
    pub fn toolbox_text(&self) -> Option<String> {
        self.shelf.toolbox_text().map(String::from)
    }

    /// The deferred tools' embedding texts as JSON text: `[{key, text}]` (SPEC §12).
    #[wasm_bindgen(js_name = embeddingTexts)]
    pub fn embedding_texts(&self) -> String {
        let texts = self.shelf.embedding_texts().into_iter();
        let entries =
            texts.map(|(key, text)| Value::object([("key", Value::String(key)), ("text", Value::String(text))]));
        Value::Array(entries.collect()).to_json()
    }

    /// Sets the deferred tools' vectors: `values` holds them one after another, `dimensions`
    /// each; `keys` (a JSON array of keys) names them, or `null`: in texts order. What the shelf
    /// then holds as JSON text: `{stored, missing, unknownKeys}` ([`crate::search::embed::Stored`]).
    #[wasm_bindgen(js_name = setEmbeddings)]
    pub fn set_embeddings(
        &mut self,
        model: &str,
        dimensions: u32,
        values: Vec<f32>,
        keys: &str,
    ) -> Result<String, JsValue> {
        // The int8 store: a byte per component of every deferred tool (`too_large`, not a trap).
        let tools = self.shelf.catalog().deferred().count();
        let dimensions = dimensions as usize;
        reserve_for_bytes(tools.saturating_mul(dimensions.min(crate::search::embed::MAX_DIMENSIONS)))?;
        let keys = server_names(keys);
        let vectors = crate::search::embed::Vectors { model, dimensions, values: &values, keys: keys.as_deref() };
        let stored = self.shelf.set_embeddings(vectors).map_err(js_error)?;
        Ok(stored_json(&stored))
    }

    /// Drops every vector; `{stored, missing, unknownKeys}` as [`ShelfHandle::set_embeddings`].
    #[wasm_bindgen(js_name = clearEmbeddings)]
    pub fn clear_embeddings(&mut self) -> String {
        self.shelf.clear_embeddings();
        let missing = self.shelf.catalog().deferred().count();
        stored_json(&crate::search::embed::Stored { missing, ..Default::default() })
    }

    /// For `unwrapAsync`, in two steps. With `queries` `null`: the queries unwrapping `call` (JSON
    /// text) would search and the dimension of the shelf's vectors (0: none), as JSON text
    /// `{queries, dimensions}`. With `queries` (a JSON array of strings) and their vectors one
    /// after another in `values`, all of one length: the unwrap result as JSON text, each search
    /// fusing in the vector of its query, with a warning for each vector the core would not use.
    #[wasm_bindgen(js_name = unwrapWithVectors)]
    pub fn unwrap_with_vectors(&self, call: &str, queries: &str, values: Vec<f32>) -> Result<String, JsValue> {
        reserve_for(call)?;
        let Some(queries) = server_names(queries) else {
            let dimensions = self.shelf.embeddings().map_or(0, |e| e.dimensions());
            let asked = Value::strings(self.shelf.search_queries(call));
            return Ok(Value::object([("queries", asked), ("dimensions", Value::uint(dimensions as u64))]).to_json());
        };
        let dims = values.len().checked_div(queries.len()).unwrap_or(0);
        let vectors: Vec<(String, Vec<f32>)> = queries
            .into_iter()
            .enumerate()
            .map(|(i, q)| (q, values.get(i * dims..(i + 1) * dims).unwrap_or(&[]).to_vec()))
            .collect();
        let (unwrapped, warnings) = self.shelf.unwrap_with_vectors(call, &vectors).map_err(js_error)?;
        Ok(unwrapped_json_warning(unwrapped, warnings))
    }
}

/// `{stored, missing, unknownKeys}`: what a shelf holds after setting its vectors.
fn stored_json(stored: &crate::search::embed::Stored) -> String {
    let crate::search::embed::Stored { stored, missing, unknown_keys } = stored;
    let keys = Value::strings(unknown_keys).to_json();
    alloc::format!(r#"{{"stored":{stored},"missing":{missing},"unknownKeys":{keys}}}"#)
}
