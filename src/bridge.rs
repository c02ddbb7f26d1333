//! The three bridge tools of SPEC §6 (`tool_search`, `tool_describe`, `tool_call`), in the default
//! or batched shapes, written in the toolbox's format.
//!
//! Layer 5 of ARCHITECTURE.md's Layers: imports only the rooms of the layers below.

use crate::format::Format;
use crate::json::Value;
use crate::options::Options;
use crate::texts;
use alloc::vec::Vec;

/// Most queries in one batched search (SPEC §6.2).
pub const MAX_BATCH_QUERIES: u64 = 7;
/// Most names in one batched describe (SPEC §6.2).
pub const MAX_BATCH_NAMES: u64 = 10;

/// The bridge tools, in order search, describe, call.
pub fn bridge_tools(format: Format, options: &Options, deferred: usize, listing: &str) -> [Value; 3] {
    let names = &options.bridge_names;
    [
        format.tool(
            &names.search,
            &texts::search_description(deferred, options.batch, listing),
            search_schema(options),
        ),
        format.tool(
            &names.describe,
            &texts::describe_description(names, options.batch),
            describe_schema(options.batch),
        ),
        format.tool(&names.call, &texts::call_description(names), call_schema()),
    ]
}

fn object_schema(properties: Vec<(&str, Value)>, required: &[&str]) -> Value {
    Value::object([
        ("type", Value::str("object")),
        ("properties", Value::object(properties)),
        ("required", Value::strings(required)),
    ])
}

fn string_type() -> Value {
    Value::object([("type", Value::str("string"))])
}

fn string_list(max_items: u64) -> Value {
    Value::object([
        ("type", Value::str("array")),
        ("items", string_type()),
        ("minItems", Value::uint(1)),
        ("maxItems", Value::uint(max_items)),
    ])
}

pub(crate) fn search_schema(options: &Options) -> Value {
    let limit = Value::object([
        ("type", Value::str("integer")),
        ("minimum", Value::uint(1)),
        ("maximum", Value::uint(options.max_search_limit as u64)),
    ]);
    if options.batch {
        object_schema(alloc::vec![("queries", string_list(MAX_BATCH_QUERIES)), ("limit", limit)], &["queries"])
    } else {
        object_schema(alloc::vec![("query", string_type()), ("limit", limit)], &["query"])
    }
}

fn describe_schema(batch: bool) -> Value {
    if batch {
        object_schema(alloc::vec![("names", string_list(MAX_BATCH_NAMES))], &["names"])
    } else {
        object_schema(alloc::vec![("name", string_type())], &["name"])
    }
}

fn call_schema() -> Value {
    object_schema(
        alloc::vec![("name", string_type()), ("arguments", Value::object([("type", Value::str("object"))]))],
        &["name", "arguments"],
    )
}
