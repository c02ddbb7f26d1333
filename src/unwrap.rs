//! unwrap (SPEC §7): from the model's tool call, in any provider's shape, to the real call, a local
//! answer (search, describe) or a reject that tells the model how to recover.

use crate::bridge::{MAX_BATCH_NAMES, MAX_BATCH_QUERIES};
use crate::catalog::Catalog;
use crate::catalog::Tool;
use crate::conversation::{tool_names, Bindings, History, Target};
use crate::describe::closest_names;
use crate::describe::Described;
use crate::error::{Error, ErrorCode};
use crate::find::batch_model_value;
use crate::find::SearchResult;
use crate::json::{self, Value};
use crate::options::Options;
use crate::schema::Verdict;
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
        answer: crate::native::Answer,
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

/// Unwraps a call given as JSON text. A call whose text nests deeper than the parser allows
/// (its arguments do: the call itself adds two or three levels) is a reject the model can act on,
/// like the same arguments sent as JSON text, not an error: its name and id are read from an
/// outline of its top levels.
pub fn unwrap_text(shelf: &dyn Prepared, text: &str, history: Option<&History>) -> Result<Unwrapped, Error> {
    let error = match json::parse_deeper(text, CALL_LEVELS) {
        Ok(call) => return unwrap_owned(shelf, call, history),
        Err(error) => error,
    };
    let outline = match error.too_deep {
        true => json::parse_deeper(&json::shallow_text(text, CALL_LEVELS), CALL_LEVELS).ok(),
        false => None,
    };
    let Some(call) = outline.filter(Value::is_object) else {
        return Err(crate::catalog::input_error(error, "call", ErrorCode::InvalidCall));
    };
    let parts = parts(&call)?;
    let name = parts.name.map(str::trim).filter(|n| !n.is_empty()).unwrap_or("the tool");
    let shown = shown_name(name, parts.arguments, &shelf.options().bridge_names);
    let content = texts::bad_arguments(shown, &texts::arguments_too_deep(json::MAX_DEPTH));
    Ok(Unwrapped::Reject { content, id: parts.id, item: crate::native::unread_search_output(&call), code: None })
}

/// Levels a call's shape may add around its arguments: the call, `function` or `input`, and
/// `tool_call`'s own `arguments` (so arguments may nest [`json::MAX_DEPTH`] levels in any shape).
const CALL_LEVELS: usize = 3;

/// Unwraps one call against the shelf's toolbox; with the conversation's `history`, names route
/// by what it bound (SPEC §14).
pub fn unwrap(shelf: &dyn Prepared, call: &Value, history: Option<&History>) -> Result<Unwrapped, Error> {
    unwrap_owned(shelf, call.clone(), history)
}

/// What unwrap knows of the conversation: whether a history was given, and what it binds.
struct Conversation {
    history: bool,
    bindings: Option<Bindings>,
}

impl Conversation {
    fn of(shelf: &dyn Prepared, history: Option<&History>) -> Conversation {
        let bindings = history.map(|history| {
            let catalog = shelf.catalog();
            Bindings::of(history, catalog, &tool_names(catalog, &shelf.options().bridge_names.search))
        });
        Conversation { history: history.is_some(), bindings }
    }
}

/// [`unwrap`], taking the call: its arguments are moved into the result, never copied (a copy of
/// an array of 600,000 numbers is 600,000 allocations).
fn unwrap_owned(shelf: &dyn Prepared, mut call: Value, history: Option<&History>) -> Result<Unwrapped, Error> {
    let parts = parts(&call)?;
    let conversation = Conversation::of(shelf, history);
    if call.get("type").and_then(Value::as_str) == Some("tool_search_call") {
        return Ok(crate::native::search_call(shelf, &call, conversation.bindings.as_ref()));
    }
    let (id, sent_at) = (parts.id.clone(), parts.sent_at);
    let namespace = call.get("namespace").and_then(Value::as_str).map(String::from);
    let reject = |content: String| Unwrapped::Reject { content, id: id.clone(), item: None, code: None };
    let names = &shelf.options().bridge_names;
    let Some(name) = parts.name.map(str::trim).filter(|n| !n.is_empty()).map(String::from) else {
        return Ok(reject(texts::missing_name(names)));
    };
    let shown = String::from(shown_name(&name, parts.arguments, names));
    let raw = sent_at.and_then(|at| take_arguments(&mut call, at));
    let wrapping = usize::from(name == names.call);
    let arguments = match arguments_object(raw, wrapping) {
        Ok(arguments) => arguments,
        Err(reason) => return Ok(reject(texts::bad_arguments(&shown, &reason))),
    };
    let result = if name == names.search {
        answer_search(shelf, &arguments.0, &conversation)
    } else if name == names.describe {
        answer_describe(shelf, &arguments.0, &conversation)
    } else if name == names.call {
        through_bridge(shelf, arguments.0, &conversation)
    } else if let Some(namespace) = &namespace {
        in_namespace(shelf, namespace, &name, arguments.0, &conversation)
    } else {
        let (arguments, untouched) = arguments;
        direct_call(shelf, &name, arguments, sent_at.filter(|_| untouched), &conversation)
    };
    Ok(match result {
        Outcome::Call(mut call) => {
            call.id = id;
            Unwrapped::Call(call)
        }
        Outcome::Answer(content) => Unwrapped::Answer { content, id },
        Outcome::Reject(content) => Unwrapped::Reject { content, id, item: None, code: None },
        Outcome::Unavailable(name) => {
            let content = texts::unavailable_tool(&name, names);
            Unwrapped::Reject { content, id, item: None, code: Some("unavailable_tool") }
        }
        Outcome::Loaded(answer) => Unwrapped::Loaded { answer, id },
    })
}

/// Moves the arguments out of the call, from where [`parts`] found them.
fn take_arguments(call: &mut Value, at: SentAt) -> Option<Value> {
    let holder = match at.in_function {
        true => member_mut(call, "function")?,
        false => call,
    };
    member_mut(holder, at.key).map(|v| core::mem::replace(v, Value::Null))
}

/// The member `key` of an object (the last, as [`Value::get`] reads it).
fn member_mut<'v>(value: &'v mut Value, key: &str) -> Option<&'v mut Value> {
    let Value::Object(members) = value else { return None };
    members.iter_mut().rev().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// The tool a call's unusable arguments are for: `tool_call`'s inner tool when it names one.
fn shown_name<'a>(name: &'a str, arguments: Option<&'a Value>, names: &crate::options::BridgeNames) -> &'a str {
    let inner = arguments.and_then(|a| a.get("name")).and_then(Value::as_str).map(str::trim);
    match inner {
        Some(inner) if name == names.call && !inner.is_empty() => inner,
        _ => name,
    }
}

enum Outcome {
    Call(Call),
    Answer(String),
    Reject(String),
    /// A call to a tool the conversation knew that the toolbox no longer holds (its name).
    Unavailable(String),
    Loaded(crate::native::Answer),
}

/// A Responses `function_call` with a `namespace` (a tool loaded by a `tool_search_output`):
/// that server's tool, validated as any deferred tool's call.
fn in_namespace(shelf: &dyn Prepared, namespace: &str, name: &str, arguments: Value, talk: &Conversation) -> Outcome {
    use crate::native::Miss;
    match crate::native::in_namespace(shelf.catalog(), shelf.options(), namespace, name, talk.bindings.as_ref()) {
        Ok(tool) if tool.deferred => checked_call(shelf, tool, arguments, false),
        Ok(tool) => Outcome::Call(call_of(tool, arguments, false, None)),
        Err(Miss::Unavailable) => Outcome::Unavailable(String::from(name)),
        Err(Miss::Unknown(reject)) => Outcome::Reject(reject),
    }
}

/// The tool a call names (SPEC §7 and §14): the tool of that name, or of that provider name, or
/// the deferred tool whose qualified form it is; with a history, what the history bound the
/// name to (a name gone is unavailable); else the one deferred tool of that own name.
enum Named<'a> {
    Tool(&'a Tool),
    Unavailable,
    Unknown,
}

fn named<'a>(shelf: &'a dyn Prepared, name: &str, talk: &Conversation) -> Named<'a> {
    let catalog = shelf.catalog();
    let bound = talk.bindings.as_ref().and_then(|b| b.get(name));
    if let (None, Some(tool)) = (bound, catalog.get(name)) {
        return Named::Tool(tool);
    }
    let at = match bound {
        Some(Target::Tool(at)) => Some(at),
        Some(Target::Gone) => return Named::Unavailable,
        None => {
            let wire = tool_names(catalog, &shelf.options().bridge_names.search);
            wire.index_of(name).or_else(|| crate::conversation::qualified_form(catalog, name))
        }
    };
    match at.and_then(|at| catalog.tools.get(at)).or_else(|| catalog.lookup(name)) {
        Some(tool) => Named::Tool(tool),
        None => Named::Unknown,
    }
}

/// A call by the tool's own name (not through `tool_call`).
fn direct_call(
    shelf: &dyn Prepared,
    name: &str,
    arguments: Value,
    untouched: Option<SentAt>,
    talk: &Conversation,
) -> Outcome {
    match named(shelf, name, talk) {
        Named::Tool(tool) if tool.deferred => checked_call(shelf, tool, arguments, false),
        Named::Tool(tool) => Outcome::Call(call_of(tool, arguments, false, untouched)),
        Named::Unavailable => Outcome::Unavailable(String::from(name)),
        Named::Unknown => unknown(shelf, name),
    }
}

/// `tool_call {name, arguments}`. Arguments sent flat beside `name` are accepted too.
fn through_bridge(shelf: &dyn Prepared, mut outer: Value, talk: &Conversation) -> Outcome {
    let names = &shelf.options().bridge_names;
    let Some(inner) = outer.get("name").and_then(Value::as_str).map(str::trim).filter(|n| !n.is_empty()) else {
        return Outcome::Reject(texts::bridge_usage(&names.call, "{\"name\": <tool name>, \"arguments\": {...}}"));
    };
    let inner = inner.to_string();
    if names.contains(&inner) {
        return Outcome::Reject(texts::bridge_inside_call(&inner, names));
    }
    let raw = match member_mut(&mut outer, "arguments") {
        Some(arguments) => Some(core::mem::replace(arguments, Value::Null)),
        None => {
            if let Value::Object(members) = &mut outer {
                members.retain(|(k, _)| k != "name");
            }
            Some(outer)
        }
    };
    let arguments = match arguments_object(raw, 0) {
        Ok((arguments, _)) => arguments,
        Err(reason) => return Outcome::Reject(texts::bad_arguments(&inner, &reason)),
    };
    match named(shelf, &inner, talk) {
        Named::Tool(tool) if tool.deferred => checked_call(shelf, tool, arguments, true),
        Named::Tool(_) => Outcome::Reject(texts::direct_through_call(&inner, names)),
        Named::Unavailable => Outcome::Unavailable(inner),
        Named::Unknown => unknown(shelf, &inner),
    }
}

fn unknown(shelf: &dyn Prepared, name: &str) -> Outcome {
    let closest = closest_names(shelf.catalog(), name);
    Outcome::Reject(texts::unknown_tool(name, &closest, &shelf.options().bridge_names))
}

/// A deferred tool's call, after validating (and coercing) its arguments against its schema.
fn checked_call(shelf: &dyn Prepared, tool: &Tool, mut arguments: Value, via_bridge: bool) -> Outcome {
    let mut warnings = Vec::new();
    if let Some(schema) = tool.schema(shelf.catalog().format) {
        match crate::schema::judge(&schema, &mut arguments).0 {
            Verdict::Valid => {}
            Verdict::Unjudged => warnings.push(texts::arguments_unjudged(&tool.name)),
            Verdict::Invalid(violation) => {
                let schema_text = violation.schema.to_json();
                let message = texts::invalid_arguments(
                    &tool.name,
                    &violation.path,
                    &violation.message,
                    violation.keyword,
                    &schema_text,
                    violation.schema_chars,
                );
                return Outcome::Reject(message);
            }
        }
    }
    let mut call = call_of(tool, arguments, via_bridge, None);
    call.warnings = warnings;
    Outcome::Call(call)
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
        warnings: Vec::new(),
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

/// `tool_search {query}` or `{queries: [...]}`, answered locally: as the bridge's JSON, or as
/// Anthropic's `tool_reference` blocks in native mode (SPEC §11).
fn answer_search(shelf: &dyn Prepared, arguments: &Value, talk: &Conversation) -> Outcome {
    let native = crate::native::Protocol::in_force(shelf.catalog(), shelf.options(), talk.history);
    let bindings = talk.bindings.as_ref().filter(|_| native.is_some());
    let (results, batched) = match searches(shelf, arguments, bindings) {
        Ok(searched) => searched,
        Err(reject) => return Outcome::Reject(reject),
    };
    match (native, &results[..]) {
        (Some(crate::native::Protocol::Anthropic), _) => Outcome::Loaded(crate::native::reference_blocks(
            shelf.catalog(),
            shelf.options(),
            &results,
            talk.bindings.as_ref(),
        )),
        _ => {
            let results = named_as_bound(shelf, talk, results);
            match &results[..] {
                [result] if !batched => Outcome::Answer(result.model_value().to_json()),
                _ => Outcome::Answer(batch_model_value(&results).to_json()),
            }
        }
    }
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

/// A bridge answer's matches under the names the conversation knows them by (SPEC §14): a tool
/// whose name the history gave another tool is shown by its qualified name.
fn named_as_bound(shelf: &dyn Prepared, talk: &Conversation, mut results: Vec<SearchResult>) -> Vec<SearchResult> {
    let Some(bindings) = &talk.bindings else { return results };
    let catalog = shelf.catalog();
    for m in results.iter_mut().flat_map(|r| r.matches.iter_mut()) {
        if let Some(at) = catalog.index_of(&m.name) {
            let name = bindings.name_for(catalog, at, &m.name);
            if name != m.name {
                m.name = name.into_owned();
            }
        }
    }
    results
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

/// `tool_describe {name}` or `{names: [...]}`, answered locally (more than [`MAX_BATCH_NAMES`]
/// names: a reject naming the limit).
fn answer_describe(shelf: &dyn Prepared, arguments: &Value, talk: &Conversation) -> Outcome {
    let names = &shelf.options().bridge_names;
    let batch = arguments.get("names").or_else(|| arguments.get("name").filter(|n| n.as_array().is_some()));
    if let Some(list) = batch.and_then(Value::as_array) {
        if list.len() as u64 > MAX_BATCH_NAMES {
            return Outcome::Reject(texts::batch_too_many(&names.describe, "names", list.len(), MAX_BATCH_NAMES));
        }
        let wanted: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
        if wanted.is_empty() {
            let usage = texts::batch_names_usage(MAX_BATCH_NAMES);
            return Outcome::Reject(texts::bridge_usage(&names.describe, &usage));
        }
        return Outcome::Answer(describe_batch(shelf, &wanted, talk).to_json());
    }
    let Some(name) = arguments.get("name").and_then(Value::as_str).map(str::trim).filter(|n| !n.is_empty()) else {
        return Outcome::Reject(texts::bridge_usage(&names.describe, "{\"name\": <exact tool name>}"));
    };
    match describe_one(shelf, name, talk) {
        Ok(described) => Outcome::Answer(described.to_json()),
        Err(message) => Outcome::Reject(message),
    }
}

/// One name's describe: the tool as JSON, or why not.
fn describe_one(shelf: &dyn Prepared, name: &str, talk: &Conversation) -> Result<Value, String> {
    let names = &shelf.options().bridge_names;
    let tool = match named(shelf, name, talk) {
        Named::Tool(tool) if tool.deferred => tool,
        Named::Unavailable => return Err(texts::unavailable_tool(name, names)),
        _ => return describe_named(shelf, name),
    };
    match shelf.describe(&tool.name) {
        Some(mut described) => {
            if let Some(bindings) = &talk.bindings {
                let at = shelf.catalog().index_of(&tool.name).unwrap_or_default();
                described.name = bindings.name_for(shelf.catalog(), at, &tool.name).into_owned();
            }
            Ok(described.to_value())
        }
        None => describe_named(shelf, name),
    }
}

/// [`describe_one`] of a name that is no deferred tool's.
fn describe_named(shelf: &dyn Prepared, name: &str) -> Result<Value, String> {
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
fn describe_batch(shelf: &dyn Prepared, wanted: &[&str], talk: &Conversation) -> Value {
    let (mut found, mut not_found, mut errors) = (Vec::new(), Vec::new(), Vec::new());
    for name in wanted {
        match describe_one(shelf, name.trim(), talk) {
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
        assert!(arguments_object(Some(text(&fits)), 0).is_ok());
        assert!(arguments_object(Some(object(&fits)), 0).is_ok());
        for raw in [text(&over), object(&over)] {
            let error = arguments_object(Some(raw), 0).unwrap_err();
            assert!(error.ends_with("code points"), "{error}");
        }
    }
}
