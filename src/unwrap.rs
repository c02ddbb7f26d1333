//! unwrap (SPEC §7): from the model's tool call, in any provider's shape, to the real call, a local
//! answer (search, describe) or a reject that tells the model how to recover.

use crate::bridge::{MAX_BATCH_NAMES, MAX_BATCH_QUERIES};
use crate::catalog::Catalog;
use crate::catalog::Tool;
use crate::describe::closest_names;
use crate::describe::Described;
use crate::error::{Error, ErrorCode};
use crate::find::batch_model_value;
use crate::find::SearchResult;
use crate::json::{self, Value};
use crate::options::Options;
use crate::texts;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

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
    },
    /// A search answered in the provider's native shape (SPEC §11): the `tool_result` content
    /// blocks (Anthropic) or the `tool_search_output` item (Responses).
    Loaded {
        /// The blocks or the item.
        answer: crate::native::Answer,
        /// The provider's call id.
        id: Option<String>,
    },
}

impl Unwrapped {
    /// The JS shape: `{kind: "call", name, server?, tool?, arguments, id?, viaBridge}` or
    /// `{kind: "answer" | "reject", content, id?}`.
    pub fn to_value(&self) -> Value {
        let mut members: Vec<(&str, Value)> = Vec::new();
        let id = match self {
            Unwrapped::Call(call) => {
                members.push(("kind", Value::str("call")));
                members.push(("name", Value::str(call.name.as_str())));
                if let Some(server) = &call.server {
                    members.push(("server", Value::str(server.as_str())));
                }
                if let Some(tool) = &call.tool {
                    members.push(("tool", Value::str(tool.as_str())));
                }
                members.push(("arguments", call.arguments.clone()));
                &call.id
            }
            Unwrapped::Answer { content, id } | Unwrapped::Reject { content, id, .. } => {
                let kind = if matches!(self, Unwrapped::Answer { .. }) { "answer" } else { "reject" };
                members.push(("kind", Value::str(kind)));
                members.push(("content", Value::str(content.as_str())));
                if let Unwrapped::Reject { item: Some(item), .. } = self {
                    members.push(("item", item.clone()));
                }
                id
            }
            Unwrapped::Loaded { answer, id } => {
                let (key, value) = answer.member();
                members.push(("kind", Value::str("answer")));
                members.push((key, value.clone()));
                id
            }
        };
        if let Some(id) = id {
            members.push(("id", Value::str(id.as_str())));
        }
        if let Unwrapped::Call(call) = self {
            members.push(("viaBridge", Value::Bool(call.via_bridge)));
        }
        Value::object(members)
    }
}

/// The parts every provider's call shape carries.
struct Parts<'a> {
    name: Option<&'a str>,
    arguments: Option<&'a Value>,
    /// Where `arguments` is.
    sent_at: Option<SentAt>,
    id: Option<String>,
}

/// Reads `{name, arguments}`, OpenAI Chat `tool_calls[i]`, a Responses `function_call`, an Anthropic
/// `tool_use` block, or Gemini's `{name, args}`.
fn parts(call: &Value) -> Result<Parts<'_>, Error> {
    if !call.is_object() {
        let message = format!("call: expected a tool call object, got {}", call.kind());
        return Err(Error::new(ErrorCode::InvalidCall, message));
    }
    let id_of = |key: &str| call.get(key).and_then(Value::as_str).map(String::from);
    let function = call.get("function").filter(|f| f.is_object());
    let holder = function.unwrap_or(call);
    let name = holder.get("name").and_then(Value::as_str);
    let found = ["arguments", "input", "args"].into_iter().find_map(|k| Some((k, holder.get(k)?)));
    let sent_at = found.map(|(key, _)| SentAt { in_function: function.is_some(), key });
    let arguments = found.map(|(_, value)| value);
    let id = match call.get("type").and_then(Value::as_str) {
        Some("function_call") => id_of("call_id").or_else(|| id_of("id")),
        _ => id_of("id").or_else(|| id_of("call_id")),
    };
    Ok(Parts { name, arguments, sent_at, id })
}

/// Arguments as a JSON object: absent, `null` and blank text count as `{}`; text is parsed.
pub(crate) fn arguments_object(raw: Option<&Value>) -> Result<(Value, bool), String> {
    let parsed = match raw {
        None | Some(Value::Null) => return Ok((Value::Object(Vec::new()), false)),
        Some(Value::String(text)) if text.trim().is_empty() => return Ok((Value::Object(Vec::new()), false)),
        Some(Value::String(text)) => {
            // No more code points than bytes: count them only when the bytes are over.
            if text.len() > MAX_ARGUMENTS_CHARS && text.chars().count() > MAX_ARGUMENTS_CHARS {
                return Err(texts::arguments_too_large(MAX_ARGUMENTS_CHARS));
            }
            let value = json::parse(text).map_err(|e| texts::arguments_not_json(&e.message, e.offset))?;
            (value, false)
        }
        Some(value) => (value.clone(), true),
    };
    let (value, untouched) = parsed;
    if !value.is_object() {
        return Err(texts::arguments_not_object(value.kind()));
    }
    if untouched && value.json_code_points() > MAX_ARGUMENTS_CHARS {
        return Err(texts::arguments_too_large(MAX_ARGUMENTS_CHARS));
    }
    Ok((value, untouched))
}

/// Unwraps one call against the shelf's toolbox.
pub fn unwrap(shelf: &dyn Prepared, call: &Value) -> Result<Unwrapped, Error> {
    let parts = parts(call)?;
    if call.get("type").and_then(Value::as_str) == Some("tool_search_call") {
        return Ok(crate::native::search_call(shelf, call));
    }
    let id = parts.id.clone();
    let reject = |content: String| Unwrapped::Reject { content, id: id.clone(), item: None };
    let names = &shelf.options().bridge_names;
    let Some(name) = parts.name.map(str::trim).filter(|n| !n.is_empty()) else {
        return Ok(reject(texts::missing_name(names)));
    };
    let arguments = match arguments_object(parts.arguments) {
        Ok(arguments) => arguments,
        Err(reason) => return Ok(reject(texts::bad_arguments(name, &reason))),
    };
    let result = if name == names.search {
        answer_search(shelf, &arguments.0)
    } else if name == names.describe {
        answer_describe(shelf, &arguments.0)
    } else if name == names.call {
        through_bridge(shelf, arguments.0)
    } else if let Some(namespace) = call.get("namespace").and_then(Value::as_str) {
        in_namespace(shelf, namespace, name, arguments.0)
    } else {
        let (arguments, untouched) = arguments;
        direct_call(shelf, name, arguments, parts.sent_at.filter(|_| untouched))
    };
    Ok(match result {
        Outcome::Call(mut call) => {
            call.id = id;
            Unwrapped::Call(call)
        }
        Outcome::Answer(content) => Unwrapped::Answer { content, id },
        Outcome::Reject(content) => Unwrapped::Reject { content, id, item: None },
        Outcome::Loaded(answer) => Unwrapped::Loaded { answer, id },
    })
}

enum Outcome {
    Call(Call),
    Answer(String),
    Reject(String),
    Loaded(crate::native::Answer),
}

/// A Responses `function_call` with a `namespace` (a tool loaded by a `tool_search_output`):
/// that server's tool, validated as any deferred tool's call.
fn in_namespace(shelf: &dyn Prepared, namespace: &str, name: &str, arguments: Value) -> Outcome {
    match crate::native::in_namespace(shelf.catalog(), shelf.options(), namespace, name) {
        Ok(tool) if tool.deferred => checked_call(shelf, tool, arguments, false),
        Ok(tool) => Outcome::Call(call_of(tool, arguments, false, None)),
        Err(reject) => Outcome::Reject(reject),
    }
}

/// A call by the tool's own name (not through `tool_call`).
fn direct_call(shelf: &dyn Prepared, name: &str, arguments: Value, untouched: Option<SentAt>) -> Outcome {
    match shelf.catalog().lookup(name) {
        Some(tool) if tool.deferred => checked_call(shelf, tool, arguments, false),
        Some(tool) => Outcome::Call(call_of(tool, arguments, false, untouched)),
        None => unknown(shelf, name),
    }
}

/// `tool_call {name, arguments}`. Arguments sent flat beside `name` are accepted too.
fn through_bridge(shelf: &dyn Prepared, mut outer: Value) -> Outcome {
    let names = &shelf.options().bridge_names;
    let Some(inner) = outer.get("name").and_then(Value::as_str).map(str::trim).filter(|n| !n.is_empty()) else {
        return Outcome::Reject(texts::bridge_usage(&names.call, "{\"name\": <tool name>, \"arguments\": {...}}"));
    };
    let inner = inner.to_string();
    if names.contains(&inner) {
        return Outcome::Reject(texts::bridge_inside_call(&inner, names));
    }
    let raw = match &mut outer {
        Value::Object(members) if !members.iter().any(|(k, _)| k == "arguments") => {
            members.retain(|(k, _)| k != "name");
            Some(outer.clone())
        }
        _ => outer.get("arguments").cloned(),
    };
    let arguments = match arguments_object(raw.as_ref()) {
        Ok((arguments, _)) => arguments,
        Err(reason) => return Outcome::Reject(texts::bad_arguments(&inner, &reason)),
    };
    match shelf.catalog().lookup(&inner) {
        Some(tool) if tool.deferred => checked_call(shelf, tool, arguments, true),
        Some(_) => Outcome::Reject(texts::direct_through_call(&inner, names)),
        None => unknown(shelf, &inner),
    }
}

fn unknown(shelf: &dyn Prepared, name: &str) -> Outcome {
    let closest = closest_names(shelf.catalog(), name);
    Outcome::Reject(texts::unknown_tool(name, &closest, &shelf.options().bridge_names))
}

/// A deferred tool's call, after validating (and coercing) its arguments against its schema.
fn checked_call(shelf: &dyn Prepared, tool: &Tool, mut arguments: Value, via_bridge: bool) -> Outcome {
    if let Some(schema) = tool.schema(shelf.catalog().format) {
        if let Err(violation) = crate::schema::validate(&schema, &mut arguments) {
            let schema_text = violation.schema.to_json();
            let message = texts::invalid_arguments(
                &tool.name,
                &violation.path,
                &violation.message,
                violation.keyword,
                &schema_text,
            );
            return Outcome::Reject(message);
        }
    }
    Outcome::Call(call_of(tool, arguments, via_bridge, None))
}

fn call_of(tool: &Tool, arguments: Value, via_bridge: bool, untouched: Option<SentAt>) -> Call {
    Call {
        name: tool.name.clone(),
        server: tool.server.clone(),
        tool: tool.server.as_ref().map(|_| tool.own_name.clone()),
        arguments,
        id: None,
        via_bridge,
        untouched,
    }
}

/// The limit a search call asks for: a number or numeric text; anything else is the default.
fn requested_limit(arguments: &Value) -> Option<usize> {
    let limit = arguments.get("limit")?;
    let number = match limit {
        Value::String(s) => s.trim().parse::<f64>().ok(),
        other => other.as_f64(),
    }?;
    (number.is_finite() && number >= 0.0).then_some(number as usize)
}

/// `tool_search {query}` or `{queries: [...]}`, answered locally: as the bridge's JSON, or as
/// Anthropic's `tool_reference` blocks in native mode (SPEC §11).
fn answer_search(shelf: &dyn Prepared, arguments: &Value) -> Outcome {
    let (results, batched) = match searches(shelf, arguments) {
        Ok(searched) => searched,
        Err(reject) => return Outcome::Reject(reject),
    };
    let native = crate::native::Protocol::in_force(shelf.catalog(), shelf.options());
    match (native, &results[..]) {
        (Some(crate::native::Protocol::Anthropic), _) => Outcome::Loaded(crate::native::reference_blocks(&results)),
        (_, [result]) if !batched => Outcome::Answer(result.model_value().to_json()),
        _ => Outcome::Answer(batch_model_value(&results).to_json()),
    }
}

/// The searches `{query, limit?}` or `{queries: [...], limit?}` ask for (at most
/// [`MAX_BATCH_QUERIES`] queries) and whether they are a batch, or the reject's text when there
/// is nothing to search.
pub(crate) fn searches(shelf: &dyn Prepared, arguments: &Value) -> Result<(Vec<SearchResult>, bool), String> {
    let limit = requested_limit(arguments);
    let queries = arguments.get("queries").or_else(|| arguments.get("query").filter(|q| q.as_array().is_some()));
    if let Some(queries) = queries.and_then(Value::as_array) {
        let texts: Vec<&str> = queries.iter().filter_map(Value::as_str).filter(|q| !q.trim().is_empty()).collect();
        if texts.is_empty() {
            let usage = texts::batch_queries_usage(MAX_BATCH_QUERIES);
            return Err(texts::bridge_usage(&shelf.options().bridge_names.search, &usage));
        }
        let take = texts.iter().take(MAX_BATCH_QUERIES as usize);
        return Ok((take.map(|q| shelf.search(q, limit)).collect(), true));
    }
    let query = arguments.get("query").and_then(Value::as_str).unwrap_or("");
    let result = shelf.search(query, limit);
    match result.error {
        Some(error) => Err(error),
        None => Ok((alloc::vec![result], false)),
    }
}

/// `tool_describe {name}` or `{names: [...]}`, answered locally.
fn answer_describe(shelf: &dyn Prepared, arguments: &Value) -> Outcome {
    let names = &shelf.options().bridge_names;
    let batch = arguments.get("names").or_else(|| arguments.get("name").filter(|n| n.as_array().is_some()));
    if let Some(list) = batch.and_then(Value::as_array) {
        let wanted: Vec<&str> = list.iter().filter_map(Value::as_str).take(MAX_BATCH_NAMES as usize).collect();
        if wanted.is_empty() {
            let usage = texts::batch_names_usage(MAX_BATCH_NAMES);
            return Outcome::Reject(texts::bridge_usage(&names.describe, &usage));
        }
        return Outcome::Answer(describe_batch(shelf, &wanted).to_json());
    }
    let Some(name) = arguments.get("name").and_then(Value::as_str).map(str::trim).filter(|n| !n.is_empty()) else {
        return Outcome::Reject(texts::bridge_usage(&names.describe, "{\"name\": <exact tool name>}"));
    };
    match describe_one(shelf, name) {
        Ok(described) => Outcome::Answer(described.to_json()),
        Err(message) => Outcome::Reject(message),
    }
}

/// One name's describe: the tool as JSON, or why not.
fn describe_one(shelf: &dyn Prepared, name: &str) -> Result<Value, String> {
    if let Some(described) = shelf.describe(name) {
        return Ok(described.to_value());
    }
    let names = &shelf.options().bridge_names;
    if shelf.catalog().get(name).is_some() || names.contains(name) {
        return Err(texts::describe_direct(name));
    }
    Err(texts::describe_unknown(name, &closest_names(shelf.catalog(), name), names))
}

/// `{tools: [...found], not_found: [names], errors: [{name, error}]}`.
fn describe_batch(shelf: &dyn Prepared, wanted: &[&str]) -> Value {
    let (mut found, mut not_found, mut errors) = (Vec::new(), Vec::new(), Vec::new());
    for name in wanted {
        match describe_one(shelf, name.trim()) {
            Ok(described) => found.push(described),
            Err(message) => {
                if shelf.catalog().get(name.trim()).is_none() {
                    not_found.push(Value::str(*name));
                }
                errors.push(Value::object([("name", Value::str(*name)), ("error", Value::String(message))]));
            }
        }
    }
    Value::object([
        ("tools", Value::Array(found)),
        ("not_found", Value::Array(not_found)),
        ("errors", Value::Array(errors)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arguments' bound counts code points whether they come as text or as an object.
    #[test]
    fn the_arguments_bound_counts_code_points_both_ways() {
        let text = |inner: &str| Value::String(format!(r#"{{"a":"{inner}"}}"#));
        let object = |inner: &str| Value::object([("a", Value::str(inner))]);
        let fits = "é".repeat(MAX_ARGUMENTS_CHARS - 8); // 8 code points of `{"a":""}` around it
        let over = "é".repeat(MAX_ARGUMENTS_CHARS - 7);
        assert!(fits.len() > MAX_ARGUMENTS_CHARS, "more bytes than the bound: counted as code points");
        assert!(arguments_object(Some(&text(&fits))).is_ok());
        assert!(arguments_object(Some(&object(&fits))).is_ok());
        for raw in [text(&over), object(&over)] {
            let error = arguments_object(Some(&raw)).unwrap_err();
            assert!(error.ends_with("code points"), "{error}");
        }
    }
}
