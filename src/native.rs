//! Native tool search (SPEC §11), every provider rule in one place: Anthropic's `defer_loading`
//! tools loaded by `tool_reference` blocks, and OpenAI Responses' client `tool_search` answered by
//! a `tool_search_output` item of per-server namespaces. The listing and the ranking stay ours.

use crate::assemble::Slot;
use crate::catalog::{Catalog, Server, Tool};
use crate::find::{Match, SearchResult};
use crate::format::Format;
use crate::json::Value;
use crate::options::{Mode, Options};
use crate::texts;
use crate::unwrap::{Prepared, Unwrapped};
use alloc::string::String;
use alloc::vec::Vec;

/// Most deferred tools the Anthropic API takes in one request (SPEC §11).
pub const ANTHROPIC_MAX_DEFERRED: usize = 10_000;

/// A provider protocol with its own deferred loading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Anthropic Messages: deferred tools with `defer_loading`, loaded by `tool_reference` blocks.
    Anthropic,
    /// OpenAI Responses: a client `tool_search` tool, answered by a `tool_search_output` item.
    Responses,
}

impl Protocol {
    /// The protocol a tool format speaks natively, if any.
    pub fn of(format: Format) -> Option<Protocol> {
        match format {
            Format::Anthropic => Some(Protocol::Anthropic),
            Format::Responses => Some(Protocol::Responses),
            _ => None,
        }
    }

    /// The protocol unwrap answers in: `mode: native` and a format that has one.
    pub fn in_force(catalog: &Catalog, options: &Options) -> Option<Protocol> {
        if options.mode == Mode::Native {
            Protocol::of(catalog.format)
        } else {
            None
        }
    }

    /// The protocol an assembly uses, pushing a warning when native was asked for and cannot be:
    /// another format, or more deferred Anthropic tools than a request takes without `messages`.
    pub fn for_assembly(
        catalog: &Catalog,
        options: &Options,
        loaded: Option<&Loaded>,
        warnings: &mut Vec<String>,
    ) -> Option<Protocol> {
        if options.mode != Mode::Native {
            return None;
        }
        let Some(protocol) = Protocol::of(catalog.format) else {
            warnings.push(texts::native_needs_format(catalog.format.as_str()));
            return None;
        };
        let deferred = catalog.deferred().count();
        if protocol == Protocol::Anthropic && loaded.is_none() && deferred > ANTHROPIC_MAX_DEFERRED {
            warnings.push(texts::native_over_limit(deferred, ANTHROPIC_MAX_DEFERRED));
            return None;
        }
        Some(protocol)
    }

    /// The tools after the direct ones: Anthropic's search tool then its deferred tools (all, or
    /// with `loaded` only those the conversation references); Responses' `tool_search`. The
    /// second value is how many of them the model's context pays for (those before the deferred).
    pub fn tools<'a>(
        self,
        catalog: &'a Catalog,
        options: &Options,
        listing: &str,
        loaded: Option<&Loaded>,
    ) -> (Vec<Slot<'a>>, usize) {
        let deferred = catalog.deferred().count();
        let description = texts::native_search_description(deferred, options.batch, listing);
        let schema = crate::bridge::search_schema(options);
        match self {
            Protocol::Anthropic => {
                let mut slots =
                    alloc::vec![Slot::Made(Format::Anthropic.tool(&options.bridge_names.search, &description, schema))];
                let carried = sorted_deferred(catalog).filter(|tool| loaded.is_none_or(|l| l.names(&tool.name)));
                slots.extend(carried.map(|tool| Slot::Made(deferred_def(catalog, tool))));
                (slots, 1)
            }
            Protocol::Responses => {
                let search = Value::object([
                    ("type", Value::str("tool_search")),
                    ("execution", Value::str("client")),
                    ("description", Value::String(description)),
                    ("parameters", schema),
                ]);
                (alloc::vec![Slot::Made(search)], 1)
            }
        }
    }
}

/// The deferred tools in a stable order: servers by name, each server's tools by name.
fn sorted_deferred(catalog: &Catalog) -> impl Iterator<Item = &Tool> {
    catalog.servers.iter().flat_map(|server| server.tools.iter().filter_map(|&i| catalog.tools.get(i)))
}

/// A deferred tool as Anthropic takes it: its def (qualified name as in bridge mode) with
/// `"defer_loading": true` and no `cache_control` (the API refuses a deferred tool with one).
fn deferred_def(catalog: &Catalog, tool: &Tool) -> Value {
    let def = tool.def();
    let def = if tool.renamed { catalog.format.renamed(&def, &tool.name) } else { def };
    match def {
        Value::Object(mut members) => {
            members.retain(|(key, _)| key != "cache_control" && key != "defer_loading");
            members.push((String::from("defer_loading"), Value::Bool(true)));
            Value::Object(members)
        }
        other => other,
    }
}

/// The deferred tools an Anthropic conversation has loaded: the names of its `tool_reference`
/// blocks (inside `tool_result` blocks, or at a message's top level), borrowed from the
/// conversation and sorted (with `swar::sort_names`, the one sort of names the `.wasm` holds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loaded<'a>(Vec<(&'a str, usize)>);

impl<'a> Loaded<'a> {
    /// From `{messages}` or the messages array itself; `None` when `context` holds no messages.
    pub fn of(context: &'a Value) -> Option<Loaded<'a>> {
        let messages = match context {
            Value::Array(messages) => messages,
            other => other.get("messages")?.as_array()?,
        };
        let mut names: Vec<(&str, usize)> = Vec::new();
        for content in messages.iter().filter_map(|m| m.get("content")).filter_map(Value::as_array) {
            for block in content {
                push_reference(block, &mut names);
                if block.get("type").and_then(Value::as_str) == Some("tool_result") {
                    let inner = block.get("content").and_then(Value::as_array).into_iter().flatten();
                    inner.for_each(|b| push_reference(b, &mut names));
                }
            }
        }
        crate::swar::sort_names(&mut names);
        Some(Loaded(names))
    }

    /// Whether the conversation references `name`.
    pub fn names(&self, name: &str) -> bool {
        crate::swar::last_named(&self.0, name).is_some()
    }
}

fn push_reference<'a>(block: &'a Value, names: &mut Vec<(&'a str, usize)>) {
    if block.get("type").and_then(Value::as_str) == Some("tool_reference") {
        if let Some(name) = block.get("tool_name").and_then(Value::as_str) {
            names.push((name, names.len()));
        }
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

/// Anthropic's answer to a search (one result, or one per batched query): a `tool_reference`
/// block per match in rank order (each tool once), then one text block only when a query has
/// unknown words or no match, or when `load_max_tokens` left matches unloaded.
///
/// With `load_max_tokens`, references stop once the next one would load more definition tokens
/// than that (a referenced tool's definition enters the context, and stays in every later
/// request's `tools`); each query's top match and every tool a query names exactly still load.
/// The matches left out are named, with their descriptions cut short, so one more search of an
/// exact name loads the one the model wants.
pub fn reference_blocks(catalog: &Catalog, results: &[SearchResult], load_max_tokens: Option<u64>) -> Answer {
    // At most 7 queries of 50 matches: a list is enough to see a tool twice.
    let mut seen: Vec<&str> = Vec::new();
    let mut blocks = Vec::new();
    let mut unloaded: Vec<&Match> = Vec::new();
    let mut spent = 0u64;
    for result in results {
        let named = crate::find::named_tools(catalog, &result.query).is_some();
        for (rank, m) in result.matches.iter().enumerate() {
            if seen.contains(&m.name.as_str()) {
                continue;
            }
            seen.push(m.name.as_str());
            let cost = catalog.get(&m.name).map_or(0, Tool::tokens);
            let asked = rank == 0 || named;
            if asked || load_max_tokens.is_none_or(|most| spent + cost <= most) {
                spent += cost;
                blocks.push(Value::object([
                    ("type", Value::str("tool_reference")),
                    ("tool_name", Value::str(m.name.as_str())),
                ]));
            } else {
                unloaded.push(m);
            }
        }
    }
    let mut notes: Vec<String> = results.iter().filter_map(|r| note(r, results.len() > 1)).collect();
    if !unloaded.is_empty() {
        notes.push(texts::native_unloaded(unloaded.iter().map(|m| (m.name.as_str(), m.description.as_str()))));
    }
    if !notes.is_empty() {
        blocks.push(Value::object([("type", Value::str("text")), ("text", Value::String(notes.join("\n")))]));
    }
    Answer::Blocks(Value::Array(blocks))
}

/// What a result says beside its references: the unknown-words hint, or the no-match hint with
/// the servers; prefixed by the query in a batch.
fn note(result: &SearchResult, batched: bool) -> Option<String> {
    let unknown = (!result.unknown_words.is_empty()).then(|| texts::unknown_words_hint(&result.unknown_words));
    let unmatched = result.servers.as_deref().map(texts::native_no_match);
    let text = match (unknown, unmatched) {
        (Some(unknown), Some(unmatched)) => alloc::format!("{unknown} {unmatched}"),
        (Some(text), None) | (None, Some(text)) => text,
        (None, None) => return None,
    };
    Some(if batched { alloc::format!("{}: {text}", result.query) } else { text })
}

/// Responses' answer to a `tool_search_call`: the matches as functions with their full
/// parameters, one namespace per server in rank order of its best match; the unknown words of
/// the queries that found a namespace's tools in its description.
pub fn search_output(catalog: &Catalog, results: &[SearchResult], call_id: Option<&str>) -> Answer {
    let namespaces = namespaces_of(catalog, results).into_iter().map(|space| {
        Value::object([
            ("type", Value::str("namespace")),
            ("name", Value::str(space.server)),
            ("description", Value::String(texts::namespace_description(space.server, &space.unknown))),
            ("tools", Value::Array(space.tools.iter().map(|t| namespace_function(catalog, t)).collect())),
        ])
    });
    Answer::Item(output_item(call_id, namespaces.collect()))
}

/// One server's matches in a `tool_search_output`.
struct Namespace<'a> {
    server: &'a str,
    /// Its matched tools, in rank order.
    tools: Vec<&'a Tool>,
    /// The unknown words of the queries that found them.
    unknown: Vec<String>,
}

/// The results' matches grouped per server, servers in order of their first match, each tool once.
/// At most 7 queries of 50 matches: lists are enough to see a tool or a server twice.
fn namespaces_of<'a>(catalog: &'a Catalog, results: &[SearchResult]) -> Vec<Namespace<'a>> {
    let mut seen: Vec<&str> = Vec::new();
    let mut spaces: Vec<Namespace<'a>> = Vec::new();
    for result in results {
        for tool in result.matches.iter().filter_map(|m| catalog.get(&m.name).filter(|t| t.deferred)) {
            if seen.contains(&tool.name.as_str()) {
                continue;
            }
            seen.push(tool.name.as_str());
            let server = tool.server.as_deref().unwrap_or_default();
            if !spaces.iter().any(|space| space.server == server) {
                spaces.push(Namespace { server, tools: Vec::new(), unknown: Vec::new() });
            }
            if let Some(space) = spaces.iter_mut().find(|space| space.server == server) {
                space.tools.push(tool);
                let words =
                    result.unknown_words.iter().filter(|w| !space.unknown.contains(w)).cloned().collect::<Vec<_>>();
                space.unknown.extend(words);
            }
        }
    }
    spaces
}

/// A `tool_search_output` item with `tools` (empty for a reject: the call still needs its output).
pub fn output_item(call_id: Option<&str>, tools: Vec<Value>) -> Value {
    Value::object([
        ("type", Value::str("tool_search_output")),
        ("call_id", call_id.map_or(Value::Null, Value::str)),
        ("execution", Value::str("client")),
        ("status", Value::str("completed")),
        ("tools", Value::Array(tools)),
    ])
}

/// The output item a `tool_search_call` still needs when it cannot be read at all (nested too
/// deep to parse): no tools, its call's id; `None` for any other call.
pub fn unread_search_output(call: &Value) -> Option<Value> {
    if call.get("type").and_then(Value::as_str) != Some("tool_search_call") {
        return None;
    }
    let text = |key: &str| call.get(key).and_then(Value::as_str);
    Some(output_item(text("call_id").or_else(|| text("id")), Vec::new()))
}

/// A deferred tool as a function of its namespace: the caller's def under the tool's own name
/// (the namespace tells servers apart), not deferred again; a def of another format than
/// Responses' written as a Responses function.
fn namespace_function(catalog: &Catalog, tool: &Tool) -> Value {
    let def = if catalog.format == Format::Responses {
        catalog.format.renamed(&tool.def(), &tool.own_name)
    } else {
        let schema = tool.schema(catalog.format).unwrap_or_else(|| Value::object([("type", Value::str("object"))]));
        Format::Responses.tool(&tool.own_name, &tool.description, schema)
    };
    match def {
        Value::Object(mut members) => {
            members.retain(|(key, _)| key != "defer_loading");
            Value::Object(members)
        }
        other => other,
    }
}

/// The tool a Responses `function_call` with a `namespace` names: that server's tool of that
/// own name (or of that qualified name); otherwise the reject's text.
pub fn in_namespace<'a>(
    catalog: &'a Catalog,
    options: &Options,
    namespace: &str,
    name: &str,
) -> Result<&'a Tool, String> {
    let names = &options.bridge_names;
    let Some(server) = server(catalog, namespace.trim()) else {
        let servers: Vec<&str> = catalog.servers.iter().map(|s| s.name.as_str()).collect();
        return Err(texts::unknown_namespace(namespace, &servers, names));
    };
    let tools = || server.tools.iter().filter_map(|&i| catalog.tools.get(i));
    if let Some(tool) = tools().find(|t| t.own_name == name || t.name == name) {
        return Ok(tool);
    }
    let closest: Vec<&str> =
        crate::describe::closest_names(catalog, name).into_iter().filter(|n| tools().any(|t| t.name == *n)).collect();
    Err(texts::not_in_namespace(name, namespace, &closest, names))
}

/// The server named `name` (servers are in code-point order of names).
fn server<'a>(catalog: &'a Catalog, name: &str) -> Option<&'a Server> {
    let at = catalog.servers.binary_search_by(|s| s.name.as_str().cmp(name)).ok()?;
    catalog.servers.get(at)
}

/// A Responses `tool_search_call` item answered: the `tool_search_output` item of the matches, or
/// a reject (arguments unreadable, no query) that still carries an output item without tools.
pub fn search_call(shelf: &dyn Prepared, call: &Value) -> Unwrapped {
    let text = |key: &str| call.get(key).and_then(Value::as_str);
    let call_id = text("call_id").or_else(|| text("id"));
    let id = call_id.map(String::from);
    let reject =
        |content: String| Unwrapped::Reject { content, id: id.clone(), item: Some(output_item(call_id, Vec::new())) };
    let names = &shelf.options().bridge_names;
    let arguments = match crate::unwrap::arguments_object(call.get("arguments").cloned(), 0) {
        Ok((arguments, _)) => arguments,
        Err(reason) => return reject(texts::search_call_unreadable(&reason, names)),
    };
    match crate::unwrap::searches(shelf, &arguments) {
        Ok((results, _)) => Unwrapped::Loaded { answer: search_output(shelf.catalog(), &results, call_id), id },
        Err(content) => reject(content),
    }
}
