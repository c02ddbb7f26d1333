//! The exact-name guarantee: a query that is a tool's name in any form the model may have seen
//! (its shown name, its Responses function name, its own name when no other tool has it) returns
//! that tool first, over every tool of every bundled catalog, in bridge and native mode.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::catalogs::catalog_names;
use std::collections::HashMap;
use toolshelf::json::{self, Value};
use toolshelf::Shelf;

/// Every bundled catalog as one toolbox of servers, and the union the ladder's mixes make.
fn toolboxes() -> Vec<(String, Value)> {
    let mut names = catalog_names();
    names.push("github-mcp-server+linear-mcp-official".into());
    names.into_iter().map(|n| (n.clone(), common::grouped(&n.split('+').collect::<Vec<_>>()))).collect()
}

/// The forms of each deferred tool's name a model may type, each with the index of its tool.
fn forms(shelf: &Shelf) -> Vec<(String, usize)> {
    let tools = &shelf.catalog().tools;
    let mut own_count: HashMap<&str, usize> = HashMap::new();
    for t in tools {
        *own_count.entry(t.own_name.as_str()).or_default() += 1;
    }
    let mut forms = Vec::new();
    for (i, t) in tools.iter().enumerate().filter(|(_, t)| t.deferred) {
        let server = t.server.as_deref().unwrap();
        forms.push((t.name.clone(), i));
        let part = toolshelf::wire::tool_part(server, &t.own_name);
        if !own_count.contains_key(part.as_str())
            && tools
                .iter()
                .filter(|o| o.server.as_deref().is_some_and(|s| toolshelf::wire::tool_part(s, &o.own_name) == part))
                .count()
                == 1
        {
            forms.push((part, i));
        }
        if own_count[t.own_name.as_str()] == 1 && !t.own_name.trim().is_empty() {
            forms.push((t.own_name.clone(), i));
        }
    }
    forms
}

/// A toolbox of OpenAI Chat tools as Anthropic tools (the format native Anthropic search serves).
fn as_anthropic(toolbox: &Value) -> Value {
    let servers = toolbox.get("servers").and_then(Value::as_object).unwrap();
    let servers = servers.iter().map(|(server, tools)| {
        let tools = tools.as_array().unwrap().iter().map(|tool| {
            let f = tool.get("function").unwrap();
            let schema = f.get("parameters").cloned().unwrap_or_else(|| json::parse(r#"{"type":"object"}"#).unwrap());
            Value::object([
                ("name", f.get("name").unwrap().clone()),
                ("description", f.get("description").cloned().unwrap_or(Value::str(""))),
                ("input_schema", schema),
            ])
        });
        (server.as_str(), Value::Array(tools.collect()))
    });
    Value::object([("servers", Value::object(servers))])
}

#[test]
fn a_query_that_is_a_tools_name_finds_it_first() {
    for (name, toolbox) in toolboxes() {
        let shelf = Shelf::new(&toolbox, &common::options(r#"{"contextLength":200000}"#)).unwrap();
        let forms = forms(&shelf);
        let mut misses = Vec::new();
        for (query, i) in &forms {
            let want = &shelf.catalog().tools[*i].name;
            let first = shelf.search(query, Some(5)).matches.into_iter().next().map(|m| m.name);
            if first.as_ref() != Some(want) {
                misses.push(format!("{query:?} → {first:?} (want {want})"));
            }
        }
        assert!(
            misses.is_empty(),
            "{name}: {} of {} forms missed, e.g. {:?}",
            misses.len(),
            forms.len(),
            &misses[..misses.len().min(5)]
        );
    }
}

/// In native Anthropic mode a search of a name loads that tool: its `tool_reference` comes first
/// (every seventh form of every catalog: the ranking is the one tested above).
#[test]
fn a_native_search_of_a_tools_name_loads_it_first() {
    for (name, toolbox) in toolboxes() {
        let options = common::options(r#"{"mode":"native","contextLength":200000}"#);
        let shelf = Shelf::new(&as_anthropic(&toolbox), &options).unwrap();
        for (query, i) in forms(&shelf).iter().step_by(7) {
            let want = &shelf.catalog().tools[*i].name;
            let call = Value::object([
                ("type", Value::str("tool_use")),
                ("id", Value::str("t")),
                ("name", Value::str("tool_search")),
                ("input", Value::object([("query", Value::str(query))])),
            ]);
            let answer = shelf.unwrap(&call).unwrap().to_value();
            let first = answer.get("content").and_then(Value::as_array).and_then(|blocks| blocks.first());
            let loaded = first.and_then(|b| b.get("tool_name")).and_then(Value::as_str);
            assert_eq!(loaded, Some(want.as_str()), "{name}: {query:?}: {}", answer.to_json());
        }
    }
}
