//! Native tool search (SPEC §11), every provider rule in one place: Anthropic's `defer_loading`
//! tools loaded by `tool_reference` blocks, and OpenAI Responses' client `tool_search` answered by
//! a `tool_search_output` item of per-server namespaces. The listing and the ranking stay ours.
//!
//! Layer 10 of ARCHITECTURE.md's Layers: imports only the rooms of the layers below.

use crate::catalog::{Catalog, Server, Tool};
use crate::conversation::{tool_names, Bindings, Target};
pub use crate::dialect::Answer;
use crate::dialect::{Prepared, Slot, Unwrapped};
use crate::find::SearchResult;
use crate::format::Format;
use crate::json::Value;
use crate::options::{Mode, Options};
use crate::texts;
use crate::wire::Names;
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

    /// The protocol unwrap answers in: the one [`Protocol::for_assembly`] uses for the same
    /// shelf, options and whether a history is given (SPEC §14: one mode per request).
    pub fn in_force(catalog: &Catalog, options: &Options, history: bool) -> Option<Protocol> {
        let protocol = Protocol::of(catalog.format).filter(|_| options.mode == Mode::Native)?;
        let over = protocol == Protocol::Anthropic && !history && catalog.deferred().count() > ANTHROPIC_MAX_DEFERRED;
        (!over).then_some(protocol)
    }

    /// The protocol an assembly uses, pushing a warning when native was asked for and cannot be:
    /// another format, or more deferred Anthropic tools than a request takes without `messages`.
    pub fn for_assembly(
        catalog: &Catalog,
        options: &Options,
        history: bool,
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
        if protocol == Protocol::Anthropic && !history && deferred > ANTHROPIC_MAX_DEFERRED {
            warnings.push(texts::native_over_limit(deferred, ANTHROPIC_MAX_DEFERRED));
            return None;
        }
        Some(protocol)
    }

    /// The tools after the direct ones: Anthropic's search tool then its deferred tools (all,
    /// or with `bindings` those the conversation references, under the names it references them
    /// by, and a stand-in for each it references that is gone); Responses' `tool_search`. The
    /// second value is how many of them the model's context pays for: all but the deferred
    /// tools no conversation has loaded. `wire`: the catalog's provider names ([`tool_names`]).
    pub fn tools<'a>(
        self,
        catalog: &'a Catalog,
        options: &Options,
        listing: &str,
        wire: &Names,
        bindings: Option<&Bindings>,
    ) -> (Vec<Slot<'a>>, usize) {
        let deferred = catalog.deferred().count();
        let description = texts::native_search_description(deferred, options.batch, listing);
        let schema = crate::bridge::search_schema(options);
        match self {
            Protocol::Anthropic => {
                let search = &options.bridge_names.search;
                let mut slots = alloc::vec![Slot::Made(Format::Anthropic.tool(search, &description, schema))];
                match bindings {
                    None => {
                        let named = sorted_deferred(catalog).map(|(i, tool)| (wire.of_index(i, &tool.name), tool));
                        slots.extend(named.map(|(name, tool)| Slot::Made(deferred_def(catalog, tool, name))));
                        (slots, 1)
                    }
                    Some(bindings) => {
                        slots.extend(referenced_defs(catalog, options, bindings).into_iter().map(Slot::Made));
                        let paid = slots.len();
                        (slots, paid)
                    }
                }
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

/// The deferred tools in a stable order, with their indexes: servers by name, each server's
/// tools by name.
fn sorted_deferred(catalog: &Catalog) -> impl Iterator<Item = (usize, &Tool)> {
    catalog.servers.iter().flat_map(|server| server.tools.iter().filter_map(|&i| Some((i, catalog.tools.get(i)?))))
}

/// The definitions an Anthropic conversation's `tool_reference` blocks need, in code-point order
/// of the names it references: each referenced deferred tool under that name, or a stand-in
/// when its tool is gone. A name no request may carry (the search tool's, a direct tool's, one
/// outside the provider's pattern) is left out.
fn referenced_defs(catalog: &Catalog, options: &Options, bindings: &Bindings) -> Vec<Value> {
    let sendable = |name: &str| crate::wire::is_valid(name) && name != options.bridge_names.search;
    let defs = bindings.referenced().filter(|(name, _)| sendable(name)).filter_map(|(name, target)| match target {
        Target::Tool(i) => catalog.tools.get(i).filter(|t| t.deferred).map(|tool| deferred_def(catalog, tool, name)),
        Target::Gone => Some(stand_in(name, options)),
    });
    defs.collect()
}

/// The definitions a request of any other mode or tier (the bridge, tier 0) needs for the
/// history's `tool_reference` blocks (SPEC §16: a switch of mode keeps every referenced tool
/// defined): each referenced name that no tool of `slots` has, as its tool's deferred def under
/// that name, or a stand-in when its tool is gone.
pub fn references_not_in<'a>(
    catalog: &Catalog,
    options: &Options,
    bindings: Option<&Bindings>,
    slots: &[Slot<'_>],
) -> Vec<Slot<'a>> {
    let Some(bindings) = bindings else { return Vec::new() };
    let names: Vec<String> = slots.iter().filter_map(Slot::name).collect();
    let mut defined: Vec<(&str, usize)> = names.iter().map(|n| (n.as_str(), 0)).collect();
    crate::swar::sort_names(&mut defined);
    let is_defined = |name: &str| crate::swar::last_named(&defined, name).is_some();
    let missing = bindings.referenced().filter(|(name, _)| crate::wire::is_valid(name) && !is_defined(name));
    let defs = missing.filter_map(|(name, target)| match target {
        Target::Tool(i) => catalog.tools.get(i).map(|tool| deferred_def(catalog, tool, name)),
        Target::Gone => Some(stand_in(name, options)),
    });
    defs.map(Slot::Made).collect()
}

/// The names of the referenced tools the toolbox no longer holds (for the assembly's warning).
pub fn gone_references(bindings: &Bindings) -> Vec<&str> {
    bindings
        .referenced()
        .filter(|(name, t)| *t == Target::Gone && crate::wire::is_valid(name))
        .map(|(n, _)| n)
        .collect()
}

/// A deferred tool as Anthropic takes it, under `name`: its def with `"defer_loading": true`
/// and no `cache_control` (the API refuses a deferred tool with one).
pub fn deferred_def(catalog: &Catalog, tool: &Tool, name: &str) -> Value {
    let def = tool.def();
    let def = if tool.renamed || name != tool.name { catalog.format.renamed(&def, name) } else { def };
    match def {
        Value::Object(mut members) => {
            members.retain(|(key, _)| key != "cache_control" && key != "defer_loading");
            members.push((String::from("defer_loading"), Value::Bool(true)));
            Value::Object(members)
        }
        other => other,
    }
}

/// The definition that keeps a reference to a tool that is gone valid: deferred, no
/// parameters, a description that says it is no longer available.
fn stand_in(name: &str, options: &Options) -> Value {
    let schema = Value::object([("type", Value::str("object"))]);
    match Format::Anthropic.tool(name, &texts::unavailable_description(&options.bridge_names), schema) {
        Value::Object(mut members) => {
            members.push((String::from("defer_loading"), Value::Bool(true)));
            Value::Object(members)
        }
        other => other,
    }
}

/// Which matches of a search answer load (SPEC §14): a query that is a tool's exact name loads
/// that tool alone; otherwise the top match, every tool a query names exactly, and then matches
/// in rank order while fewer than `loadLimit` tools and no more than `loadMaxTokens` of
/// definitions are loaded. Tools the conversation loaded already cost nothing and always load.
struct Loading<'o> {
    options: &'o Options,
    count: usize,
    spent: u64,
}

impl Loading<'_> {
    /// Whether the match at `rank` of a result loads.
    fn admits(&mut self, tool: &Tool, rank: usize, asked: bool, free: bool) -> bool {
        if free {
            return true;
        }
        let cost = tool.tokens();
        let within = self.count < self.options.load_limit
            && self.options.load_max_tokens.is_none_or(|most| self.spent + cost <= most);
        if rank == 0 || asked || within {
            self.count += 1;
            self.spent += cost;
            return true;
        }
        false
    }
}

/// The tools a query names exactly (its name, own name or provider name, case aside; several
/// when servers share the own name): a search for it loads those tools alone.
fn exact_tools(catalog: &Catalog, wire: &Names, result: &SearchResult) -> Vec<usize> {
    let query = result.query.trim();
    let same = |name: &str| name.eq_ignore_ascii_case(query);
    let exact = result.matches.iter().filter_map(|m| {
        let at = catalog.index_of(&m.name)?;
        let tool = catalog.tools.get(at)?;
        (same(&tool.name) || same(&tool.own_name) || wire.of_index(at, &tool.name) == query).then_some(at)
    });
    exact.collect()
}

/// Anthropic's answer to a search (one result, or one per batched query): a `tool_reference`
/// block per loaded match in rank order (each tool once, under the name the conversation
/// knows it by, or its provider name), then one text block: the unknown-words and no-match
/// hints, and the matches left unloaded (`loadLimit`, `loadMaxTokens`), named with their
/// descriptions cut short so one more search of an exact name loads the one the model wants.
/// Nothing of it is read back: a name identifies its tool by itself (SPEC §16).
pub fn reference_blocks(
    catalog: &Catalog,
    options: &Options,
    results: &[SearchResult],
    bindings: Option<&Bindings>,
) -> Answer {
    let wire = tool_names(catalog, &options.bridge_names.search);
    let loaded = bindings.map(|b| b.loaded_tools(catalog.tools.len())).unwrap_or_default();
    let mut loading = Loading { options, count: 0, spent: 0 };
    // At most 7 queries of 50 matches: a list is enough to see a tool twice.
    let mut seen: Vec<usize> = Vec::new();
    let mut blocks = Vec::new();
    let mut unloaded: Vec<(&str, &str)> = Vec::new();
    for result in results {
        let named = crate::find::named_tools(catalog, &result.query).is_some();
        let exact = exact_tools(catalog, &wire, result);
        for (rank, m) in result.matches.iter().enumerate() {
            let Some((at, tool)) = catalog.index_of(&m.name).and_then(|at| Some((at, catalog.tools.get(at)?))) else {
                continue;
            };
            if seen.contains(&at) {
                continue;
            }
            seen.push(at);
            let name = wire.of_index(at, &tool.name);
            if !exact.is_empty() && !exact.contains(&at) {
                continue;
            }
            if loading.admits(tool, rank, named || !exact.is_empty(), loaded.get(at).copied().unwrap_or(false)) {
                let name = Value::str(name);
                blocks.push(Value::object([("type", Value::str("tool_reference")), ("tool_name", name)]));
            } else {
                unloaded.push((name, m.description.as_str()));
            }
        }
    }
    let mut notes: Vec<String> = results.iter().filter_map(|r| note(r, results.len() > 1)).collect();
    if !unloaded.is_empty() {
        notes.push(texts::native_unloaded(unloaded.iter().copied()));
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

/// Responses' answer to a `tool_search_call`: the loaded matches (`loadLimit`, `loadMaxTokens`) as functions
/// with their full parameters, one namespace per server in rank order of its best match, each
/// under its provider name; the unknown words of the queries that found a namespace's tools in
/// its description, and the matches left unloaded named in the first namespace's.
pub fn search_output(
    catalog: &Catalog,
    options: &Options,
    results: &[SearchResult],
    call_id: Option<&str>,
    bindings: Option<&Bindings>,
) -> Answer {
    let (spaces, unloaded) = namespaces_of(catalog, options, results, bindings);
    let namespaces = spaces.iter().enumerate().map(|(n, space)| {
        let server = catalog.servers.get(space.server).map_or("", |s| s.name.as_str());
        let name = crate::wire::server_part(server);
        let mut description = texts::namespace_description(&name, &space.unknown);
        if n == 0 && !unloaded.is_empty() {
            description.push(' ');
            description.push_str(&texts::native_unloaded(unloaded.iter().map(|(n, d)| (n.as_str(), *d))));
        }
        let functions = space.tools.iter().filter_map(|&i| {
            let tool = catalog.tools.get(i)?;
            Some(namespace_function(catalog, tool, &crate::wire::tool_part(server, &tool.own_name)))
        });
        Value::object([
            ("type", Value::str("namespace")),
            ("name", Value::str(name)),
            ("description", Value::String(description)),
            ("tools", Value::Array(functions.collect())),
        ])
    });
    Answer::Item(output_item(call_id, namespaces.collect()))
}

/// One server's matches in a `tool_search_output`.
struct Namespace {
    /// The server's position in the catalog's servers.
    server: usize,
    /// Its loaded tools in rank order, by index in the catalog.
    tools: Vec<usize>,
    /// The unknown words of the queries that found them.
    unknown: Vec<String>,
}

/// The results' loaded matches grouped per server, servers in order of their first match, each
/// tool once; and the matches left unloaded (name to search, description). At most 7 queries of
/// 50 matches: lists are enough to see a tool or a server twice.
fn namespaces_of<'a>(
    catalog: &'a Catalog,
    options: &Options,
    results: &'a [SearchResult],
    bindings: Option<&Bindings>,
) -> (Vec<Namespace>, Vec<(String, &'a str)>) {
    let tools = tool_names(catalog, &options.bridge_names.search);
    let mut loading = Loading { options, count: 0, spent: 0 };
    let mut seen: Vec<usize> = Vec::new();
    let mut spaces: Vec<Namespace> = Vec::new();
    let mut unloaded = Vec::new();
    for result in results {
        let named = crate::find::named_tools(catalog, &result.query).is_some();
        let exact = exact_tools(catalog, &tools, result);
        for (rank, m) in result.matches.iter().enumerate() {
            let Some(at) = catalog.index_of(&m.name) else { continue };
            let Some(tool) = catalog.tools.get(at).filter(|t| t.deferred) else { continue };
            if seen.contains(&at) || (!exact.is_empty() && !exact.contains(&at)) {
                continue;
            }
            seen.push(at);
            let Some((s, server)) = server_of(catalog, tool) else { continue };
            let space_name = crate::wire::server_part(&server.name);
            let function = crate::wire::tool_part(&server.name, &tool.own_name);
            let free = bindings.is_some_and(|b| b.has_spaced(&space_name, &function));
            if !loading.admits(tool, rank, named || !exact.is_empty(), free) {
                unloaded.push((String::from(tools.of_index(at, &tool.name)), m.description.as_str()));
                continue;
            }
            if !spaces.iter().any(|space| space.server == s) {
                spaces.push(Namespace { server: s, tools: Vec::new(), unknown: Vec::new() });
            }
            if let Some(space) = spaces.iter_mut().find(|space| space.server == s) {
                space.tools.push(at);
                let words =
                    result.unknown_words.iter().filter(|w| !space.unknown.contains(w)).cloned().collect::<Vec<_>>();
                space.unknown.extend(words);
            }
        }
    }
    (spaces, unloaded)
}

/// A deferred tool's server and its position among the catalog's servers.
fn server_of<'a>(catalog: &'a Catalog, tool: &Tool) -> Option<(usize, &'a Server)> {
    let name = tool.server.as_deref()?;
    let at = catalog.servers.binary_search_by(|s| s.name.as_str().cmp(name)).ok()?;
    Some((at, catalog.servers.get(at)?))
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
fn namespace_function(catalog: &Catalog, tool: &Tool, name: &str) -> Value {
    let def = if catalog.format == Format::Responses {
        catalog.format.renamed(&tool.def(), name)
    } else {
        let schema = tool.schema(catalog.format).unwrap_or_else(|| Value::object([("type", Value::str("object"))]));
        Format::Responses.tool(name, &tool.description, schema)
    };
    match def {
        Value::Object(mut members) => {
            members.retain(|(key, _)| key != "defer_loading");
            Value::Object(members)
        }
        other => other,
    }
}

/// Why a namespaced call names no tool.
pub enum Miss {
    /// The conversation loaded or called it, and the toolbox no longer holds it.
    Unavailable,
    /// The reject's text: no such namespace, or no such tool in it.
    Unknown(String),
}

/// The tool a Responses `function_call` with a `namespace` names: that server's tool (the
/// namespace its server's name or provider name) of that own name, provider name or qualified
/// name; otherwise why not.
pub fn in_namespace<'a>(
    catalog: &'a Catalog,
    options: &Options,
    namespace: &str,
    name: &str,
    bindings: Option<&Bindings>,
) -> Result<&'a Tool, Miss> {
    let names = &options.bridge_names;
    let gone = || bindings.is_some_and(|b| b.has_spaced(namespace, name));
    let Some(server) = server(catalog, namespace.trim()) else {
        if gone() {
            return Err(Miss::Unavailable);
        }
        let servers: Vec<&str> = catalog.servers.iter().map(|s| s.name.as_str()).collect();
        return Err(Miss::Unknown(texts::unknown_namespace(namespace, &servers, names)));
    };
    let tools = || server.tools.iter().filter_map(|&i| catalog.tools.get(i));
    let qualified =
        |t: &Tool| name.starts_with("mcp__") && crate::catalog::qualified_name(&server.name, &t.own_name) == name;
    let function = |t: &Tool| crate::wire::tool_part(&server.name, &t.own_name) == name;
    if let Some(tool) = tools().find(|t| t.own_name == name || t.name == name || qualified(t) || function(t)) {
        return Ok(tool);
    }
    if gone() {
        return Err(Miss::Unavailable);
    }
    let closest: Vec<&str> =
        crate::describe::closest_names(catalog, name).into_iter().filter(|n| tools().any(|t| t.name == *n)).collect();
    Err(Miss::Unknown(texts::not_in_namespace(name, namespace, &closest, names)))
}

/// The server a namespace names: the one whose namespace (its part of its tools' shown names)
/// it is; else the server of that name.
fn server<'a>(catalog: &'a Catalog, name: &str) -> Option<&'a Server> {
    let shown = catalog.servers.iter().find(|s| crate::wire::server_part(&s.name) == name);
    shown.or_else(|| {
        catalog.servers.binary_search_by(|s| s.name.as_str().cmp(name)).ok().and_then(|at| catalog.servers.get(at))
    })
}

/// A Responses `tool_search_call` item answered: the `tool_search_output` item of the matches, or
/// a reject (arguments unreadable, no query) that still carries an output item without tools.
pub fn search_call(shelf: &dyn Prepared, call: &Value, bindings: Option<&Bindings>) -> Unwrapped {
    let text = |key: &str| call.get(key).and_then(Value::as_str);
    let call_id = text("call_id").or_else(|| text("id"));
    let id = call_id.map(String::from);
    let reject = |content: String| Unwrapped::Reject {
        content,
        id: id.clone(),
        item: Some(output_item(call_id, Vec::new())),
        code: None,
    };
    let names = &shelf.options().bridge_names;
    let arguments = match crate::dialect::arguments_object(call.get("arguments").cloned(), 0) {
        Ok((arguments, _)) => arguments,
        Err(reason) => return reject(texts::search_call_unreadable(&reason, names)),
    };
    match crate::dialect::searches(shelf, &arguments, bindings) {
        Ok((results, _)) => {
            let answer = search_output(shelf.catalog(), shelf.options(), &results, call_id, bindings);
            Unwrapped::Loaded { answer, id }
        }
        Err(content) => reject(content),
    }
}
