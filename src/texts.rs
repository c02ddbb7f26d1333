//! Every sentence the model reads from toolshelf, in one place: the listing's framing and blocks and
//! the bridge tools' descriptions. Each word here is paid on every request, so they stay short.
//!
//! Layer 4 of ARCHITECTURE.md's Layers: imports only the rooms of the layers below.

use crate::options::BridgeNames;
use alloc::format;
use alloc::string::String;
use core::fmt::Write as _;

/// The sentence before the listing (SPEC §3.4).
pub fn listing_framing(names: &BridgeNames) -> String {
    format!(
        "Deferred tools by server (a tool's full name is its server's prefix, mcp__<server>__, then its name). Each tool named below exists: load it with {} (no search needed), then run it with {}. \
         For a server shown only as a count, use {} first; never say a capability is missing, or use a generic tool instead, without searching.\n",
        names.describe, names.call, names.search
    )
}

fn tool_count(n: usize) -> String {
    if n == 1 {
        String::from("1 tool")
    } else {
        format!("{n} tools")
    }
}

/// A server at level full: a header line, then `- name: short description` per tool.
pub fn full_block(server: &str, tools: &[(&str, &str)]) -> String {
    let mut block = String::from("\n");
    push_data(&mut block, server);
    let _ = write!(block, " ({}):", tool_count(tools.len()));
    for (name, short) in tools {
        block.push_str("\n- ");
        push_data(&mut block, name);
        if !short.is_empty() {
            block.push_str(": ");
            block.push_str(short);
        }
    }
    block
}

/// A server at level names: one line with every name.
pub fn names_block<'a>(server: &str, names: impl Iterator<Item = &'a str>, count: usize) -> String {
    let mut block = String::from("\n");
    push_data(&mut block, server);
    let _ = write!(block, " ({}): ", tool_count(count));
    for (i, name) in names.enumerate() {
        if i > 0 {
            block.push_str(", ");
        }
        push_data(&mut block, name);
    }
    block
}

/// A server at level summary: its name and tool count.
pub fn summary_block(server: &str, count: usize) -> String {
    let mut block = String::from("\n");
    push_data(&mut block, server);
    let _ = write!(block, ": {}, not listed", tool_count(count));
    block
}

/// Pushes third-party text (a name, a server, a description) into a line of toolshelf's own
/// text as data (SPEC §16): every control character and line or paragraph separator becomes a
/// space, so it can neither end the line nor start one of toolshelf's.
pub fn push_data(out: &mut String, text: &str) {
    if !text.chars().any(breaks_lines) {
        out.push_str(text);
        return;
    }
    out.extend(text.chars().map(|c| if breaks_lines(c) { ' ' } else { c }));
}

/// A character that may end a line or otherwise control how text is shown.
fn breaks_lines(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// The search tool's description: what it does, then the listing (if any).
pub fn search_description(deferred: usize, batch: bool, listing: &str) -> String {
    let count = if deferred == 1 { String::from("1 deferred tool") } else { format!("{deferred} deferred tools") };
    let mut text = format!("Search {count} in plain words: service, action, object (e.g. \"github create issue\")");
    if batch {
        text.push_str("; several queries at once, one per tool you need");
    }
    text.push_str(". Returns names, descriptions and required parameters.");
    if !listing.is_empty() {
        let _ = write!(text, "\n\n{listing}");
    }
    text
}

/// The describe tool's description (fixed: it never depends on the listing).
pub fn describe_description(names: &BridgeNames, batch: bool) -> String {
    if batch {
        format!(
            "Load deferred tools' full descriptions and parameter schemas by exact names, before calling them with {}.",
            names.call
        )
    } else {
        format!(
            "Load a deferred tool's full description and parameter schema by exact name, before calling it with {}.",
            names.call
        )
    }
}

/// The call tool's description (fixed: it never depends on the listing).
pub fn call_description(names: &BridgeNames) -> String {
    format!("Run a deferred tool by exact name, with arguments matching its schema (from {}).", names.describe)
}

/// A search without a query.
pub fn query_required() -> String {
    String::from("query is required: give keywords, e.g. \"github create issue\".")
}

/// Added to a search answer whose query has words no tool holds: the matches lack them.
pub fn unknown_words_hint(words: &[String]) -> String {
    format!(
        "No tool mentions {}: the matches are for the other words (partial). If that service or word is what the task needs, tell the user it is not available rather than substituting another tool.",
        words.join(", ")
    )
}

/// Added to a search answer when nothing matched.
pub fn no_match_hint() -> String {
    String::from(
        "No tool matched. The servers' tools above remain available: search again with the service name \
         plus an action and an object (e.g. \"github create issue\").",
    )
}

/// Whether `description` is one [`search_description`] writes (an assembly given back as input).
pub fn is_search_description(description: &str) -> bool {
    description.starts_with("Search ")
        && crate::swar::find(description.as_bytes(), b" in plain words: service, action, object").is_some()
}

/// For the caller: a real tool named like a bridge tool was left out.
pub fn bridge_named_tool_left_out(path: &str, name: &str) -> String {
    format!(
        "{path}: the tool \"{name}\" was left out: a bridge tool has that name (bridgeNames); rename the tool or choose other bridgeNames"
    )
}

/// For the caller: `count` tools look like `own` format, not the `forced` one.
pub fn format_misread(forced: &str, count: usize, own: &str, first: &str) -> String {
    format!(
        "format: forced to {forced}, but {count} tool(s) are shaped as {own} (first at {first}): read as {forced}, their schemas may be missed (then their calls are not validated)"
    )
}

/// The model sent a call without a tool name.
pub fn missing_name(names: &BridgeNames) -> String {
    format!(
        "The tool call has no tool name, so nothing was run. Call a tool by its exact name; for a deferred tool use {} with {{\"name\", \"arguments\"}}.",
        names.call
    )
}

/// The model sent arguments that are not a JSON object.
pub fn bad_arguments(tool: &str, reason: &str) -> String {
    format!("{tool} was not run: {reason}. Send the arguments as a JSON object.")
}

/// Why arguments are not usable (the `reason` of [`bad_arguments`]): larger than `limit` code points.
pub fn arguments_too_large(limit: usize) -> String {
    format!("the arguments are larger than {limit} code points")
}

/// Why arguments are not usable: a number out of a 64-bit float's range.
pub fn arguments_number_out_of_range(number: &str) -> String {
    let shown: String = number.chars().take(40).collect();
    format!("the number {shown} is out of range (at most about 1.8e308)")
}

/// Why arguments are not usable: nested deeper than `limit` levels.
pub fn arguments_too_deep(limit: usize) -> String {
    format!("the arguments nest deeper than {limit} levels")
}

/// For the agent: `tool`'s arguments passed without being judged in full.
pub fn arguments_unjudged(tool: &str) -> String {
    format!(
        "arguments of {tool} not fully validated: its schema costs more to check than the validator's work bound; passed as sent (fail-open)"
    )
}

/// Why arguments are not usable: not valid JSON (`message` at byte `offset`).
pub fn arguments_not_json(message: &str, offset: usize) -> String {
    format!("the arguments are not valid JSON ({message} at byte {offset})")
}

/// Why arguments are not usable: JSON of another `kind` than an object.
pub fn arguments_not_object(kind: &str) -> String {
    format!("the arguments must be a JSON object, got {kind}")
}

/// The usage of a batched search: 1 to `most` non-empty queries.
pub fn batch_queries_usage(most: u64) -> String {
    format!("{{\"queries\": [<keywords>, ...]}} with 1 to {most} non-empty queries")
}

/// The usage of a batched describe: 1 to `most` names.
pub fn batch_names_usage(most: u64) -> String {
    format!("{{\"names\": [<tool name>, ...]}} with 1 to {most} names")
}

/// A batched search or describe of more `what` (queries, names) than it takes: the limit named,
/// nothing run (none silently dropped).
pub fn batch_too_many(bridge: &str, what: &str, sent: usize, most: u64) -> String {
    format!(
        "{bridge} takes at most {most} {what} at once; {sent} were sent. Nothing was run: send at most {most}, the rest in another call."
    )
}

/// A bridge tool named inside `tool_call`.
pub fn bridge_inside_call(inner: &str, names: &BridgeNames) -> String {
    format!("{inner} is a bridge tool: call it directly, not through {}. Nothing was run.", names.call)
}

/// A direct tool sent through `tool_call`.
pub fn direct_through_call(inner: &str, names: &BridgeNames) -> String {
    format!("{inner} is already in your tools list: call it directly, not through {}. Nothing was run.", names.call)
}

/// A name outside the toolbox, with the closest names.
pub fn unknown_tool(name: &str, closest: &[&str], names: &BridgeNames) -> String {
    let mut text = format!("There is no tool named \"{name}\", so nothing was run.");
    push_suggestions(&mut text, closest);
    let _ = write!(text, " Use {} to find the right tool.", names.search);
    text
}

/// A short name several tools answer to (SPEC §16): nothing runs, the candidates are named.
pub fn ambiguous_name(name: &str, candidates: &[&str]) -> String {
    let what =
        if candidates.len() > 1 { "names several tools" } else { "may name a tool this conversation used before" };
    format!("\"{name}\" {what}, so nothing was run. Call the one you mean by its full name: {}.", candidates.join(", "))
}

/// describe for a direct tool.
pub fn describe_direct(name: &str) -> String {
    format!("{name} is already in your tools list with its full schema: call it directly.")
}

/// describe for a name outside the deferred tools.
pub fn describe_unknown(name: &str, closest: &[&str], names: &BridgeNames) -> String {
    let mut text = format!("There is no deferred tool named \"{name}\".");
    push_suggestions(&mut text, closest);
    let _ = write!(text, " Use {} to find it.", names.search);
    text
}

fn push_suggestions(text: &mut String, closest: &[&str]) {
    if !closest.is_empty() {
        text.push_str(" Closest names: ");
        text.push_str(&closest.join(", "));
        text.push('.');
    }
}

/// Most code points of the failing schema a reject quotes (about 2,000 tokens): 1.5% of the real
/// catalogs' whole parameter schemas are longer (the longest 45 KB), and a hostile one of a
/// million `enum` values would otherwise fill the model's context.
pub const MAX_SCHEMA_CHARS: usize = 8_000;

/// Arguments that fail the tool's schema; `schema` (the failing one, as JSON, at least its first
/// [`MAX_SCHEMA_CHARS`] code points) is quoted whole up to [`MAX_SCHEMA_CHARS`] code points, and
/// cut after them with a note of how much of its `schema_chars` was left out.
pub fn invalid_arguments(
    tool: &str,
    path: &str,
    message: &str,
    keyword: &str,
    schema: &str,
    schema_chars: usize,
) -> String {
    let mut text = format!(
        "{tool} was not invoked: invalid arguments. {message} ({keyword} at {path}). \
         Fix the arguments and call again. Schema at {path}: "
    );
    let kept = crate::json::cut_chars(schema, MAX_SCHEMA_CHARS);
    let kept_chars = crate::json::code_points(kept);
    if kept.len() == schema.len() && kept_chars >= schema_chars {
        text.push_str(schema);
    } else {
        let left_out = schema_chars.saturating_sub(kept_chars);
        let _ = write!(text, "{kept}… ({left_out} more characters of schema left out)");
    }
    text
}

/// A bridge call whose own arguments are unusable (e.g. a describe without a name).
pub fn bridge_usage(bridge: &str, usage: &str) -> String {
    format!("{bridge} needs {usage}. Nothing was run.")
}

/// The warning when `qualify: auto` renamed the deferred tools whose name another tool also has
/// (`names`, in order, each once; `renamed` tools in all).
pub fn qualified_clashes(names: &[String], renamed: usize) -> String {
    const SHOWN: usize = 5;
    let shares = if renamed == 1 { "deferred tool shares its" } else { "deferred tools share their" };
    let mut text = format!("qualify: {renamed} {shares} name with another tool (");
    for (i, name) in names.iter().take(SHOWN).enumerate() {
        let _ = write!(text, "{}\"{name}\"", if i > 0 { ", " } else { "" });
    }
    if names.len() > SHOWN {
        let _ = write!(text, " and {} more", names.len() - SHOWN);
    }
    text.push_str("), so they are named mcp__<server>__<tool> (the name the model sees); qualify: false makes this an error, true qualifies every deferred tool");
    text
}

/// The sentence before the listing in native mode (SPEC §11): a search for exact names loads them.
pub fn native_listing_framing(names: &BridgeNames) -> String {
    format!(
        "Deferred tools by server (a tool's full name is its server's prefix, mcp__<server>__, then its name). Each tool named below exists: load it with {0} for its full name (several full names in one search load them all), then call it directly. \
         For a server shown only as a count, use {0} first; never say a capability is missing, or use a generic tool instead, without searching.\n",
        names.search
    )
}

/// The native search tool's description (SPEC §11): what it does, then the listing (if any).
pub fn native_search_description(deferred: usize, batch: bool, listing: &str) -> String {
    let count = if deferred == 1 { String::from("1 deferred tool") } else { format!("{deferred} deferred tools") };
    let mut text = format!("Search {count} in plain words: service, action, object (e.g. \"github create issue\")");
    if batch {
        text.push_str("; several queries at once, one per tool you need");
    }
    text.push_str(". Loads the matching tools, which you then call directly.");
    if !listing.is_empty() {
        let _ = write!(text, "\n\n{listing}");
    }
    text
}

/// A namespace's description in a Responses `tool_search_output`: the server, and the query words
/// no tool holds (there is no other place for them in the item).
pub fn namespace_description(server: &str, unknown: &[String]) -> String {
    let mut text = format!("Tools of the {server} server.");
    if !unknown.is_empty() {
        let _ = write!(text, " {}", unknown_words_hint(unknown));
    }
    text
}

/// The text block of an Anthropic search answer when nothing matched: the hint and the servers.
pub fn native_no_match(servers: &[(String, usize)]) -> String {
    let mut text = String::from("No tool matched. Servers: ");
    for (i, (name, count)) in servers.iter().enumerate() {
        let _ = write!(text, "{}{name} ({})", if i > 0 { ", " } else { "" }, tool_count(*count));
    }
    text.push_str(
        ". Their tools remain available: search again with the service name plus an action and an object (e.g. \"github create issue\").",
    );
    text
}

/// Code points of a description in the list of matches a native answer did not load.
const UNLOADED_DESCRIPTION_CHARS: usize = 120;

/// The matches a native Anthropic answer named without loading them (`loadMaxTokens`): each with
/// its description cut short, and how to load one.
pub fn native_unloaded<'a>(matches: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let mut text = String::from("Also matching, not loaded (search an exact name to load it):");
    for (i, (name, description)) in matches.enumerate() {
        text.push_str(if i > 0 { "; " } else { " " });
        push_data(&mut text, name);
        let cut = crate::json::cut_chars(description, UNLOADED_DESCRIPTION_CHARS);
        if !cut.is_empty() {
            text.push_str(": ");
            push_data(&mut text, cut.trim_end());
        }
        if cut.len() < description.len() {
            text.push('…');
        }
    }
    text
}

/// A namespaced call whose namespace is no server of the toolbox.
pub fn unknown_namespace(namespace: &str, servers: &[&str], names: &BridgeNames) -> String {
    let mut text = format!("There is no namespace \"{namespace}\", so nothing was run. Namespaces: ");
    text.push_str(&servers.join(", "));
    let _ = write!(text, ". Use {} to load the right tool.", names.search);
    text
}

/// A namespaced call naming a tool its server does not hold.
pub fn not_in_namespace(name: &str, namespace: &str, closest: &[&str], names: &BridgeNames) -> String {
    let mut text = format!("The {namespace} namespace has no tool named \"{name}\", so nothing was run.");
    push_suggestions(&mut text, closest);
    let _ = write!(text, " Use {} to load the right tool.", names.search);
    text
}

/// A `tool_search_call` whose arguments cannot be read: nothing was searched.
pub fn search_call_unreadable(reason: &str, names: &BridgeNames) -> String {
    format!("{} was not run: {reason}. Send {{\"query\": <keywords>}} as a JSON object.", names.search)
}

/// The warning when `mode: native` meets a format without native tool search.
pub fn native_needs_format(format: &str) -> String {
    format!("mode: native needs the anthropic or responses format, not {format}; using the bridge")
}

/// The warning when an Anthropic toolbox has more deferred tools than the API accepts in one request.
pub fn native_over_limit(deferred: usize, limit: usize) -> String {
    format!(
        "mode: native: {deferred} deferred tools are over the API's limit of {limit} a request; using the bridge (assemble with messages to send only the loaded ones)"
    )
}

/// An assembly's warning: parts of the history given that are not messages or items (skipped).
pub fn history_parts_skipped(count: usize) -> String {
    format!("messages: {count} part(s) of the history are not message objects; skipped")
}

/// An assembly's warning: a `tool_reference` block without a tool name (skipped).
pub fn history_reference_unreadable() -> String {
    String::from("messages: a tool_reference block has no tool_name; skipped")
}

/// An assembly's warning: a `tool_search_output` item without a tools array (skipped).
pub fn history_output_unreadable() -> String {
    String::from("messages: a tool_search_output item has no tools array; skipped")
}

/// An assembly's warning: tools the history references that the toolbox no longer holds.
pub fn history_tools_unavailable(names: &[&str]) -> String {
    format!(
        "messages: the conversation references {} tool(s) the toolbox no longer holds ({}); sent as unavailable stand-ins, and calls to them are rejected",
        names.len(),
        names.join(", ")
    )
}

/// The description of a stand-in for a tool the conversation loaded and the toolbox no longer
/// holds (what the model reads in place of its definition).
pub fn unavailable_description(names: &BridgeNames) -> String {
    format!(
        "No longer available: its server was detached or no longer offers this tool. Do not call it; use {} to find what is available now.",
        names.search
    )
}

/// A reject (code `unavailable_tool`): a call to a tool the conversation knew that the toolbox
/// no longer holds.
pub fn unavailable_tool(name: &str, names: &BridgeNames) -> String {
    format!(
        "The tool \"{name}\" is no longer available (its server was detached or no longer offers it), so nothing was run. Use {} to find what is available now.",
        names.search
    )
}
