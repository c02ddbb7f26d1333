//! Every sentence the model reads from toolshelf, in one place: the listing's framing and blocks and
//! the bridge tools' descriptions. Each word here is paid on every request, so they stay short.

use crate::options::BridgeNames;
use alloc::format;
use alloc::string::String;
use core::fmt::Write as _;

/// The sentence before the listing (SPEC §3.4).
pub fn listing_framing(names: &BridgeNames) -> String {
    format!(
        "Deferred tools by server. Each tool named below exists: load it with {} (no search needed), then run it with {}. \
         For a server shown only as a count, use {} first; never say a capability is missing, or use a generic tool instead, without searching.",
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
pub fn full_block(server: &str, tools: &[(&str, String)]) -> String {
    let mut block = format!("\n{server} ({}):", tool_count(tools.len()));
    for (name, short) in tools {
        block.push_str("\n- ");
        block.push_str(name);
        if !short.is_empty() {
            block.push_str(": ");
            block.push_str(short);
        }
    }
    block
}

/// A server at level names: one line with every name.
pub fn names_block<'a>(server: &str, names: impl Iterator<Item = &'a str>, count: usize) -> String {
    let mut block = format!("\n{server} ({}): ", tool_count(count));
    for (i, name) in names.enumerate() {
        if i > 0 {
            block.push_str(", ");
        }
        block.push_str(name);
    }
    block
}

/// A server at level summary: its name and tool count.
pub fn summary_block(server: &str, count: usize) -> String {
    format!("\n{server}: {}, not listed", tool_count(count))
}

/// The search tool's description: what it does, then the listing (if any).
pub fn search_description(deferred: usize, batch: bool, listing: &str) -> String {
    let count = if deferred == 1 { String::from("1 deferred tool") } else { format!("{deferred} deferred tools") };
    let mut text = format!("Search {count} by keywords: service, action, object (e.g. \"github create issue\")");
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
