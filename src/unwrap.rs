//! unwrap (SPEC §7): from the model's tool call, in any provider's shape, to the real call, a local
//! answer (search, describe) or a reject that tells the model how to recover.
//!
//! Layer 11 of ARCHITECTURE.md's Layers: imports only the rooms of the layers below.

use crate::bridge::MAX_BATCH_NAMES;
use crate::catalog::Tool;
use crate::conversation::{tool_names, Bindings, History, Target};
use crate::describe::closest_names;
use crate::dialect::{arguments_object, searches};
pub use crate::dialect::{Call, Prepared, SentAt, Unwrapped};
use crate::error::{Error, ErrorCode};
use crate::find::batch_model_value;
use crate::json::{self, Value};
use crate::schema::Verdict;
use crate::texts;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

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
        Outcome::Ambiguous(content) => Unwrapped::Reject { content, id, item: None, code: Some("ambiguous_tool") },
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
    /// A short name several tools answer to (the reject's text).
    Ambiguous(String),
    Loaded(crate::native::Answer),
}

/// A Responses `function_call` with a `namespace` (a tool loaded by a `tool_search_output`):
/// that server's tool, validated as any deferred tool's call.
fn in_namespace(shelf: &dyn Prepared, namespace: &str, name: &str, arguments: Value, talk: &Conversation) -> Outcome {
    use crate::native::Miss;
    match crate::native::in_namespace(shelf.catalog(), shelf.options(), namespace, name, talk.bindings.as_ref()) {
        Ok(tool) if is_checked(tool) => checked_call(shelf, tool, arguments, false),
        Ok(tool) => Outcome::Call(call_of(tool, arguments, false, None)),
        Err(Miss::Unavailable) => Outcome::Unavailable(String::from(name)),
        Err(Miss::Unknown(reject)) => Outcome::Reject(reject),
    }
}

/// The tool a call names (SPEC §7, §16): the tool of that name, provider name or shown qualified
/// form (a name identifies its tool by itself); else the one tool whose own name it is (several:
/// ambiguous, the candidates named); else unavailable when the history used the name or it is a
/// qualified form of a server no longer attached.
enum Named<'a> {
    Tool(&'a Tool),
    Ambiguous(Vec<&'a str>),
    Unavailable,
    Unknown,
}

fn named<'a>(shelf: &'a dyn Prepared, name: &str, talk: &Conversation) -> Named<'a> {
    let catalog = shelf.catalog();
    if let Some(tool) = catalog.get(name) {
        return Named::Tool(tool);
    }
    let wire = tool_names(catalog, &shelf.options().bridge_names.search);
    let exact = wire.index_of(name).or_else(|| crate::conversation::qualified_form(catalog, name));
    if let Some(tool) = exact.and_then(|at| catalog.tools.get(at)) {
        return Named::Tool(tool);
    }
    let mut own: Vec<&Tool> = catalog.own_named(name).into_iter().filter_map(|at| catalog.tools.get(at)).collect();
    if own.is_empty() && crate::wire::ends_like_hash(name) {
        // A Responses function's name without its namespace: the tool part of a shown name.
        let parted = |t: &&Tool| t.server.as_deref().is_some_and(|s| crate::wire::tool_part(s, &t.own_name) == name);
        own = catalog.tools.iter().filter(parted).collect();
    }
    match (&own[..], meant_by_history(catalog, talk, name, &own)) {
        ([], _) => {}
        (_, Meant::Gone) => return Named::Unavailable,
        ([tool], Meant::Present) => return Named::Tool(tool),
        _ => return Named::Ambiguous(own.iter().map(|t| t.name.as_str()).collect()),
    }
    let gone = talk.bindings.as_ref().and_then(|b| b.get(name)) == Some(Target::Gone);
    if gone || of_server_gone(catalog, name) {
        return Named::Unavailable;
    }
    Named::Unknown
}

/// What a short form meant, by the history.
enum Meant {
    /// One of the tools that now answer to it, as far as the history tells.
    Present,
    /// Only tools that are gone.
    Gone,
    /// Both a tool that is gone and one that is not: the model cannot be taken to mean either.
    Both,
}

/// What the short form `name`, which the tools `own` now answer to, meant. Gone: the history
/// showed the function `name` only in namespaces none of `own` is in (Responses), or used a shown
/// name `mcp__<server>__<name>` no tool answers to any more and showed none of `own` by any name
/// (GitHub's `list_issues` loaded, GitHub detached, Linear's `list_issues` left). Both: the
/// function `name` shown in such a namespace and in one of `own`'s, or a history of only new
/// items (`previous_response_id`: the model may have been shown it for another tool before).
fn meant_by_history(catalog: &crate::catalog::Catalog, talk: &Conversation, name: &str, own: &[&Tool]) -> Meant {
    let Some(bindings) = &talk.bindings else { return Meant::Present };
    let in_space = |space: &str, t: &&Tool| {
        t.server.as_deref().is_some_and(|server| space == server || space == crate::wire::server_part(server))
    };
    let (mut present, mut gone) = (false, false);
    for space in bindings.namespaces_of(name) {
        if own.iter().any(|t| in_space(space, t)) {
            present = true;
        } else {
            gone = true;
        }
    }
    let is_own = |at: usize| catalog.tools.get(at).is_some_and(|t| own.iter().any(|o| core::ptr::eq(*o, t)));
    // The short form itself (the call being unwrapped is in the history) shows nothing.
    present |= bindings.all().any(|(used, target)| used != name && matches!(target, Target::Tool(at) if is_own(at)));
    gone |= !present
        && bindings.all().any(|(used, target)| {
            target == Target::Gone
                && used
                    .strip_prefix("mcp__")
                    .and_then(crate::wire::split_at_separator)
                    .is_some_and(|(_, part)| part == name)
        });
    match (present, gone) {
        // Only the new items of a stored conversation: the model may have been shown the short
        // form for another tool before them.
        _ if bindings.partial => Meant::Both,
        (true, true) => Meant::Both,
        (false, true) => Meant::Gone,
        _ => Meant::Present,
    }
}

/// Whether `name` has the shown form `mcp__<server>__<tool>` of a server the toolbox no longer
/// holds.
fn of_server_gone(catalog: &crate::catalog::Catalog, name: &str) -> bool {
    let Some((part, tool)) = name.strip_prefix("mcp__").and_then(crate::wire::split_at_separator) else { return false };
    !part.is_empty() && !tool.is_empty() && !catalog.servers.iter().any(|s| crate::wire::server_part(&s.name) == part)
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
        Named::Tool(tool) if is_checked(tool) => checked_call(shelf, tool, arguments, false),
        Named::Tool(tool) => Outcome::Call(call_of(tool, arguments, false, untouched)),
        Named::Ambiguous(candidates) => Outcome::Ambiguous(texts::ambiguous_name(name, &candidates)),
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
        Named::Ambiguous(candidates) => Outcome::Ambiguous(texts::ambiguous_name(&inner, &candidates)),
        Named::Unavailable => Outcome::Unavailable(inner),
        Named::Unknown => unknown(shelf, &inner),
    }
}

fn unknown(shelf: &dyn Prepared, name: &str) -> Outcome {
    let closest = closest_names(shelf.catalog(), name);
    Outcome::Reject(texts::unknown_tool(name, &closest, &shelf.options().bridge_names))
}

/// Whether a call of `tool` is validated here: a deferred tool's, and a server's tool kept direct
/// (`alwaysLoad`: its MCP server gets what it would get through the bridge). The caller's own
/// direct tools are theirs to validate, and their arguments come back untouched.
fn is_checked(tool: &Tool) -> bool {
    tool.deferred || tool.server.is_some()
}

/// A checked tool's call ([`is_checked`]), after validating (and coercing) its arguments against
/// its schema.
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
        _ => match &results[..] {
            [result] if !batched => Outcome::Answer(result.model_value().to_json()),
            _ => Outcome::Answer(batch_model_value(&results).to_json()),
        },
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
        Named::Ambiguous(candidates) => return Err(texts::ambiguous_name(name, &candidates)),
        _ => return describe_named(shelf, name),
    };
    match shelf.describe(&tool.name) {
        Some(described) => Ok(described.to_value()),
        None => describe_named(shelf, name),
    }
}

/// [`describe_one`] of a name that is no deferred tool's.
fn describe_named(shelf: &dyn Prepared, name: &str) -> Result<Value, String> {
    if let Some(described) = shelf.describe(name) {
        return Ok(described.to_value());
    }
    let (catalog, names) = (shelf.catalog(), &shelf.options().bridge_names);
    let named = catalog.get(name).or_else(|| {
        let direct = catalog
            .lookup(name)
            .or_else(|| crate::conversation::qualified_form(catalog, name).and_then(|i| catalog.tools.get(i)));
        direct.filter(|t| !t.deferred)
    });
    match named {
        Some(tool) => Err(texts::describe_direct(&tool.name)),
        None if names.contains(name) => Err(texts::describe_direct(name)),
        None => Err(texts::describe_unknown(name, &closest_names(catalog, name), names)),
    }
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
    use crate::dialect::MAX_ARGUMENTS_CHARS;

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
