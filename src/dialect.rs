//! What every wire shape shares (layer: above the catalog, search and conversation; below the
//! dialects in `native` and the operations `assemble` and `unwrap`): the model-visible array's
//! slots, what unwrap makes of a call (`Unwrapped`, `Call`) and reads of a prepared toolbox
//! (`Prepared`), and the reading of a call's arguments and of the searches it asks for.
//!
//! Layer 9 of ARCHITECTURE.md's Layers: imports only the rooms of the layers below.

use crate::bridge::MAX_BATCH_QUERIES;
use crate::catalog::{Catalog, Tool};
use crate::conversation::{tool_names, Bindings, Target};
use crate::describe::Described;
use crate::find::SearchResult;
use crate::json::{self, Value};
use crate::options::Options;
use crate::texts;
use alloc::string::String;
use alloc::vec::Vec;

/// One tool of the model-visible array: a tool def of the caller's, or one toolshelf made.
#[derive(Clone, Debug)]
pub enum Slot<'a> {
    /// The caller's tool def, passed through untouched (in JS: the very same object).
    Given(&'a Tool),
    /// A bridge tool, or a deferred tool shown under its qualified name.
    Made(Value),
}

impl Slot<'_> {
    /// The tool def this slot stands for (the caller's parsed from its compact JSON).
    pub fn def(&self) -> Value {
        match self {
            Slot::Given(tool) => tool.def(),
            Slot::Made(def) => def.clone(),
        }
    }

    /// The tool's name in the request (`name`, or a Chat tool's `function.name`).
    pub fn name(&self) -> Option<String> {
        match self {
            Slot::Given(tool) => Some(tool.name.clone()),
            Slot::Made(def) => {
                let holder = def.get("function").filter(|f| f.is_object()).unwrap_or(def);
                holder.get("name").and_then(Value::as_str).map(String::from)
            }
        }
    }

    /// Pushes the tool def's compact JSON (the caller's as it was given).
    pub(crate) fn push_json(&self, out: &mut String) {
        match self {
            Slot::Given(tool) => out.push_str(&tool.def_json),
            Slot::Made(def) => out.push_str(&def.to_json()),
        }
    }
}

/// Largest arguments accepted, in code points of their JSON (SPEC §8): of the text as sent, or of
/// the compact JSON of an object. One unit both ways, so a call is judged alike in either shape.
pub const MAX_ARGUMENTS_CHARS: usize = 4 << 20;

/// What unwrap reads of a prepared toolbox (a [`crate::Shelf`] is one): unwrap knows no more of
/// the shelf, and the shelf knows unwrap only as the function it calls.
pub trait Prepared {
    /// The toolbox read.
    fn catalog(&self) -> &Catalog;
    /// The options in force.
    fn options(&self) -> &Options;
    /// A search of the deferred tools (SPEC §4).
    fn search(&self, query: &str, limit: Option<usize>) -> SearchResult;
    /// A deferred tool described (SPEC §5).
    fn describe(&self, name: &str) -> Option<Described>;
}

/// The real call an agent runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The name as the model knows it.
    pub name: String,
    /// The server to send it to (deferred tools, and direct tools that came from a server).
    pub server: Option<String>,
    /// The server-side tool name.
    pub tool: Option<String>,
    /// The arguments: validated (and coerced) for deferred tools, as sent for direct ones.
    pub arguments: Value,
    /// The provider's call id.
    pub id: Option<String>,
    /// True when the model went through `tool_call`.
    pub via_bridge: bool,
    /// Where the call held `arguments` when they are exactly the object the model sent (a binding
    /// hands back that very object); `None` when they were parsed, coerced or made.
    pub untouched: Option<SentAt>,
    /// For the agent, not the model: why the arguments passed without being judged in full
    /// (their schema would cost more to check than the validator's work bound).
    pub warnings: Vec<String>,
}

/// Where a call holds its arguments: `key` of the call, or of its `function` object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SentAt {
    /// True when they are in the call's `function` object (OpenAI Chat).
    pub in_function: bool,
    /// `arguments`, `input` or `args`.
    pub key: &'static str,
}

impl SentAt {
    /// The keys to follow from the call to the arguments, joined by `.`: `function.arguments`.
    pub fn path(self) -> &'static str {
        match (self.in_function, self.key) {
            (true, "input") => "function.input",
            (true, "args") => "function.args",
            (true, _) => "function.arguments",
            (false, key) => key,
        }
    }
}

/// What unwrap makes of one call.
#[derive(Clone, Debug, PartialEq)]
pub enum Unwrapped {
    /// Run this tool.
    Call(Call),
    /// A bridge search or describe, answered here: send `content` back as the tool result.
    Answer {
        /// The tool result text.
        content: String,
        /// The provider's call id.
        id: Option<String>,
    },
    /// The call is invalid and nothing ran: send `content` back as the tool result.
    Reject {
        /// What was wrong and how to recover.
        content: String,
        /// The provider's call id.
        id: Option<String>,
        /// For a Responses `tool_search_call`: the `tool_search_output` item (no tools) the call
        /// still needs after it, `content` going to the model as a message.
        item: Option<Value>,
        /// For the agent: `unavailable_tool` when the call names a tool the conversation knew
        /// that the toolbox no longer holds (SPEC §14).
        code: Option<&'static str>,
    },
    /// A search answered in the provider's native shape (SPEC §11): the `tool_result` content
    /// blocks (Anthropic) or the `tool_search_output` item (Responses).
    Loaded {
        /// The blocks or the item.
        answer: Answer,
        /// The provider's call id.
        id: Option<String>,
    },
}

impl Unwrapped {
    /// The JS shape: `{kind: "call", name, server?, tool?, arguments, id?, viaBridge, warnings?}`
    /// or `{kind: "answer" | "reject", content, id?}`.
    pub fn to_value(&self) -> Value {
        self.clone().into_value()
    }

    /// [`Unwrapped::to_value`], taking the result (its arguments moved, not copied).
    pub fn into_value(self) -> Value {
        let mut members: Vec<(&str, Value)> = Vec::new();
        let kind = match &self {
            Unwrapped::Call(_) => "call",
            Unwrapped::Answer { .. } | Unwrapped::Loaded { .. } => "answer",
            Unwrapped::Reject { .. } => "reject",
        };
        members.push(("kind", Value::str(kind)));
        match self {
            Unwrapped::Call(call) => {
                members.push(("name", Value::String(call.name)));
                if let Some(server) = call.server {
                    members.push(("server", Value::String(server)));
                }
                if let Some(tool) = call.tool {
                    members.push(("tool", Value::String(tool)));
                }
                members.push(("arguments", call.arguments));
                if let Some(id) = call.id {
                    members.push(("id", Value::String(id)));
                }
                members.push(("viaBridge", Value::Bool(call.via_bridge)));
                if !call.warnings.is_empty() {
                    members.push(("warnings", Value::strings(&call.warnings)));
                }
            }
            Unwrapped::Answer { content, id } => {
                members.push(("content", Value::String(content)));
                if let Some(id) = id {
                    members.push(("id", Value::String(id)));
                }
            }
            Unwrapped::Reject { content, id, item, code } => {
                members.push(("content", Value::String(content)));
                if let Some(item) = item {
                    members.push(("item", item));
                }
                if let Some(id) = id {
                    members.push(("id", Value::String(id)));
                }
                if let Some(code) = code {
                    members.push(("code", Value::str(code)));
                }
            }
            Unwrapped::Loaded { answer, id } => {
                let (key, value) = answer.member();
                members.push((key, value.clone()));
                if let Some(id) = id {
                    members.push(("id", Value::String(id)));
                }
            }
        }
        Value::object(members)
    }
}

/// Arguments as a JSON object: absent, `null` and blank text count as `{}`; text is parsed. They
/// may nest [`json::MAX_DEPTH`] levels, and `wrapping` levels more (`tool_call`'s hold the real
/// tool's arguments one level down).
pub(crate) fn arguments_object(raw: Option<Value>, wrapping: usize) -> Result<(Value, bool), String> {
    let parsed = match raw {
        None | Some(Value::Null) => return Ok((Value::Object(Vec::new()), false)),
        Some(Value::String(text)) if text.trim().is_empty() => return Ok((Value::Object(Vec::new()), false)),
        Some(Value::String(text)) => {
            // No more code points than bytes: count them only when the bytes are over.
            if text.len() > MAX_ARGUMENTS_CHARS && text.chars().count() > MAX_ARGUMENTS_CHARS {
                return Err(texts::arguments_too_large(MAX_ARGUMENTS_CHARS));
            }
            let value = json::parse_deeper(&text, wrapping).map_err(|e| match e.too_deep {
                true => texts::arguments_too_deep(json::MAX_DEPTH),
                false => texts::arguments_not_json(&e.message, e.offset),
            })?;
            (value, false)
        }
        Some(value) => (value, true),
    };
    let (value, untouched) = parsed;
    if !value.is_object() {
        return Err(texts::arguments_not_object(value.kind()));
    }
    if untouched && !value.depth_within(json::MAX_DEPTH + wrapping) {
        return Err(texts::arguments_too_deep(json::MAX_DEPTH));
    }
    if untouched && value.json_code_points() > MAX_ARGUMENTS_CHARS {
        return Err(texts::arguments_too_large(MAX_ARGUMENTS_CHARS));
    }
    if let Some(number) = out_of_range_number(&value, json::MAX_DEPTH + wrapping) {
        return Err(texts::arguments_number_out_of_range(number));
    }
    Ok((value, untouched))
}

/// A number of `value` too large for a 64-bit float (`1E400`), which JavaScript reads as
/// `Infinity` and writes as `null`: better refused than passed as another number. Only numbers
/// with an exponent or over 300 characters are parsed to tell.
fn out_of_range_number(value: &Value, depth: usize) -> Option<&str> {
    match value {
        Value::Number(n) if n.len() > 300 || n.bytes().any(|b| b == b'e' || b == b'E') => {
            crate::float::parse_f64(n).is_some_and(|x| x.is_infinite()).then_some(&**n)
        }
        Value::Array(items) if depth > 0 => items.iter().find_map(|v| out_of_range_number(v, depth - 1)),
        Value::Object(members) if depth > 0 => members.iter().find_map(|(_, v)| out_of_range_number(v, depth - 1)),
        _ => None,
    }
}

/// The limit a search call asks for: a number or numeric text; anything else is the default.
fn requested_limit(arguments: &Value) -> Option<usize> {
    let limit = arguments.get("limit")?;
    let number = match limit {
        Value::String(s) => crate::float::parse_f64(s.trim()),
        other => other.as_f64(),
    }?;
    (number.is_finite() && number >= 0.0).then_some(number as usize)
}

/// The searches `{query, limit?}` or `{queries: [...], limit?}` ask for and whether they are a
/// batch, or the reject's text when there is nothing to search or more than
/// [`MAX_BATCH_QUERIES`] entries (SPEC §6.2: the limit named, none silently dropped).
pub(crate) fn searches(
    shelf: &dyn Prepared,
    arguments: &Value,
    bindings: Option<&Bindings>,
) -> Result<(Vec<SearchResult>, bool), String> {
    let limit = requested_limit(arguments);
    let search = |query: &&str| shelf.search(&sent_name_query(shelf, query, bindings), limit);
    let queries = arguments.get("queries").or_else(|| arguments.get("query").filter(|q| q.as_array().is_some()));
    if let Some(queries) = queries.and_then(Value::as_array) {
        if queries.len() as u64 > MAX_BATCH_QUERIES {
            let search = &shelf.options().bridge_names.search;
            return Err(texts::batch_too_many(search, "queries", queries.len(), MAX_BATCH_QUERIES));
        }
        let texts: Vec<&str> = queries.iter().filter_map(Value::as_str).filter(|q| !q.trim().is_empty()).collect();
        if texts.is_empty() {
            let usage = texts::batch_queries_usage(MAX_BATCH_QUERIES);
            return Err(texts::bridge_usage(&shelf.options().bridge_names.search, &usage));
        }
        return Ok((texts.iter().map(search).collect(), true));
    }
    let query = arguments.get("query").and_then(Value::as_str).unwrap_or("");
    let result = search(&query);
    match result.error {
        Some(error) => Err(error),
        None => Ok((alloc::vec![result], false)),
    }
}

/// A native search's query as searched: a name the request sent (a provider name, or the name
/// the conversation binds) becomes the tool's name, so that searching it loads that tool.
fn sent_name_query<'q>(
    shelf: &dyn Prepared,
    query: &'q str,
    bindings: Option<&Bindings>,
) -> alloc::borrow::Cow<'q, str> {
    use alloc::borrow::Cow;
    let Some(bindings) = bindings else { return Cow::Borrowed(query) };
    let catalog = shelf.catalog();
    let trimmed = query.trim();
    if trimmed.is_empty() || catalog.get(trimmed).is_some() {
        return Cow::Borrowed(query);
    }
    let at = match bindings.get(trimmed) {
        Some(Target::Tool(at)) => Some(at),
        _ => tool_names(catalog, &shelf.options().bridge_names.search).index_of(trimmed),
    };
    match at.and_then(|at| catalog.tools.get(at)) {
        Some(tool) => Cow::Owned(tool.name.clone()),
        None => Cow::Borrowed(query),
    }
}

/// A search answered natively: the tool_result's content blocks (Anthropic) or the input item
/// to append after the `tool_search_call` (Responses).
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// `[{"type": "tool_reference", "tool_name"}, ..., {"type": "text", "text"}?]`.
    Blocks(Value),
    /// `{"type": "tool_search_output", "call_id", "execution", "status", "tools"}`.
    Item(Value),
}

impl Answer {
    /// The key the JS result holds it under (`content` or `item`), and the value.
    pub fn member(&self) -> (&'static str, &Value) {
        match self {
            Answer::Blocks(blocks) => ("content", blocks),
            Answer::Item(item) => ("item", item),
        }
    }
}
