//! Native tool search (SPEC §11) over the real catalogs: Anthropic's tools array (search tool,
//! every deferred tool with `defer_loading`, none with `cache_control`) and its `tool_reference`
//! answers, `assemble_with` carrying only the referenced tools; Responses' client `tool_search`
//! and its `tool_search_output` namespaces, namespaced calls; the fallbacks and warnings; the
//! calls of `tests/data/native-cases.json`; shuffle stability.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::catalogs::{absent_queries, catalog_names, keyword_queries};
use common::{data_dir, options};
use toolshelf::json::{self, Value};
use toolshelf::native::Answer;
use toolshelf::{Shelf, Unwrapped};

/// The catalogs every check runs on: each real catalog, the 3,397-tool REST union, GitHub + Linear.
fn catalogs() -> Vec<String> {
    let mut names = catalog_names();
    names.push("rest-apis-flat-3400".into());
    names.push("github-mcp-server+linear-mcp-official".into());
    names
}

/// A catalog's tool (OpenAI Chat format) in `format`: `anthropic` or `responses`.
fn in_format(tool: &Value, format: &str) -> Value {
    let f = tool.get("function").unwrap();
    let name = f.get("name").unwrap().clone();
    let description = f.get("description").cloned().unwrap_or(Value::str(""));
    let schema = f.get("parameters").cloned().unwrap_or(json::parse(r#"{"type":"object"}"#).unwrap());
    match format {
        "anthropic" => Value::object([("name", name), ("description", description), ("input_schema", schema)]),
        _ => Value::object([
            ("type", Value::str("function")),
            ("name", name),
            ("description", description),
            ("parameters", schema),
        ]),
    }
}

/// The toolbox of catalog `name` (`a+b` a union) in `format`, one direct tool first; `reversed`
/// reverses the servers and each server's tools (a shuffle).
fn toolbox(name: &str, format: &str, reversed: bool) -> Value {
    let mut servers: Vec<(String, Vec<Value>)> = Vec::new();
    for part in name.split('+') {
        for (server, tool) in common::catalog(part) {
            let def = in_format(&tool, format);
            match servers.iter_mut().find(|(s, _)| *s == server) {
                Some((_, list)) => list.push(def),
                None => servers.push((server, vec![def])),
            }
        }
    }
    if reversed {
        servers.reverse();
        servers.iter_mut().for_each(|(_, list)| list.reverse());
    }
    let direct = in_format(&common::openai_tool("read_file", "Read a file."), format);
    let servers = servers.into_iter().map(|(s, list)| (s, Value::Array(list)));
    Value::object([("tools", Value::Array(vec![direct])), ("servers", Value::Object(servers.collect()))])
}

fn native_shelf(toolbox: &Value, extra: &str) -> Shelf {
    Shelf::new(toolbox, &options(&format!(r#"{{"mode":"native","contextLength":200000{extra}}}"#))).unwrap()
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or_else(|| panic!("{key} in {}", value.to_json()))
}

/// The queries of the data sets for `catalog` (keyword and absent), a few per catalog.
fn queries_for(catalog: &str) -> Vec<String> {
    let parts: Vec<&str> = catalog.split('+').collect();
    let keyword = keyword_queries().into_iter().filter(|q| parts.contains(&q.catalog.as_str())).map(|q| q.query);
    let absent = absent_queries().into_iter().filter(|q| parts.contains(&q.catalog.as_str())).map(|q| q.query);
    let mut queries: Vec<String> = keyword.take(6).chain(absent.take(3)).collect();
    queries.push("zzqx wibble".into()); // nothing matches
    queries
}

/// Anthropic: direct tools, the search tool (never deferred), then every deferred tool with
/// `defer_loading: true`, no `cache_control`, in a stable order; the context pays no more than
/// the bridge's assembly; shuffled input gives the same bytes.
#[test]
fn anthropic_tools_array_on_every_catalog() {
    for name in catalogs() {
        let given = toolbox(&name, "anthropic", false);
        let shelf = native_shelf(&given, "");
        let a = shelf.assemble();
        assert_eq!(a.facts.mode.as_str(), "native", "{name}");
        assert!(a.facts.warnings.iter().all(|w| !w.starts_with("mode")), "{name}: {:?}", a.facts.warnings);
        assert_eq!(text(&a.tools[0], "name"), "read_file");
        let search = &a.tools[1];
        assert_eq!(text(search, "name"), "tool_search", "{name}");
        assert!(search.get("defer_loading").is_none() && search.get("input_schema").is_some());
        let description = text(search, "description");
        assert!(description.contains("(several full names in one search load them all)"), "{name}: {description}");
        let deferred = &a.tools[2..];
        assert_eq!(deferred.len(), a.facts.deferred_count, "{name}: every deferred tool is sent");
        let mut expected: Vec<&str> =
            shelf.catalog().tools.iter().filter(|t| t.deferred).map(|t| t.name.as_str()).collect();
        let mut sent: Vec<&str> = deferred.iter().map(|t| text(t, "name")).collect();
        for tool in deferred {
            assert_eq!(tool.get("defer_loading"), Some(&Value::Bool(true)), "{name}");
            assert!(tool.get("cache_control").is_none() && tool.get("input_schema").is_some(), "{name}");
        }
        expected.sort_unstable();
        sent.sort_unstable();
        assert_eq!(sent, expected, "{name}");
        let bridge = Shelf::new(&given, &options(r#"{"contextLength":200000}"#)).unwrap().assemble();
        assert_eq!(bridge.facts.listing_tokens > 0, a.facts.listing_tokens > 0, "{name}: same listing");
        assert!(
            a.facts.context_tokens <= bridge.facts.context_tokens,
            "{name}: {} > {}",
            a.facts.context_tokens,
            bridge.facts.context_tokens
        );
        let json = Value::Array(a.tools.clone()).to_json();
        assert_eq!(a.facts.request_bytes, json.len());
        let paid = Value::Array(a.tools[..2].to_vec()).to_json();
        assert_eq!(a.facts.context_tokens, paid.chars().count().div_ceil(4) as u64, "{name}");
        let shuffled = native_shelf(&toolbox(&name, "anthropic", true), "").assemble();
        assert_eq!(Value::Array(shuffled.tools).to_json(), json, "{name}: shuffle-stable");
        assert_eq!(shuffled.facts.fingerprint, a.facts.fingerprint);
    }
}

/// A search's `tool_reference` blocks: one per match in rank order, each a tool the array holds;
/// a text block only with unknown words or no match. `assemble_with` the conversation then
/// carries exactly the referenced tools after an unchanged prefix.
#[test]
fn anthropic_search_answers_and_loaded_tools_on_every_catalog() {
    for name in catalogs() {
        // Every match loads (`loadLimit` at its most); the default bound is tests/session_cost.rs'.
        let shelf = native_shelf(&toolbox(&name, "anthropic", false), r#","loadLimit":50"#);
        let empty = shelf.assemble_with(&options(r#"{"messages":[]}"#));
        assert_eq!(empty.tools.len(), 2, "{name}: no message references a tool yet");
        let prefix = Value::Array(empty.tools.clone()).to_json();
        let mut messages: Vec<Value> = Vec::new();
        let mut referenced: Vec<String> = Vec::new();
        for (turn, query) in queries_for(&name).iter().enumerate() {
            let id = format!("toolu_{turn}");
            let call = Value::object([
                ("type", Value::str("tool_use")),
                ("id", Value::str(id.as_str())),
                ("name", Value::str("tool_search")),
                ("input", Value::object([("query", Value::str(query.as_str()))])),
            ]);
            let Unwrapped::Loaded { answer: Answer::Blocks(blocks), id: got } = shelf.unwrap(&call).unwrap() else {
                panic!("{name}: {query}: not blocks")
            };
            assert_eq!(got.as_deref(), Some(id.as_str()));
            let result = shelf.search(query, None);
            let blocks = blocks.as_array().unwrap();
            let names: Vec<&str> =
                blocks.iter().filter(|b| text(b, "type") == "tool_reference").map(|b| text(b, "tool_name")).collect();
            let ranked: Vec<&str> = result.matches.iter().map(|m| m.name.as_str()).collect();
            assert_eq!(names, ranked, "{name}: {query}: references in rank order");
            let texts: Vec<&Value> = blocks.iter().filter(|b| text(b, "type") == "text").collect();
            // A text block with unknown words, no match, or tools loaded under names that do not
            // say their server (it names each one's server, SPEC §14).
            let unqualified = names.iter().any(|n| !n.starts_with("mcp__"));
            let noted = !result.unknown_words.is_empty() || result.matches.is_empty() || unqualified;
            assert_eq!(texts.len(), usize::from(noted), "{name}: {query}");
            for loaded in names.iter().filter(|n| !n.starts_with("mcp__")) {
                let server = &result.matches.iter().find(|m| m.name == *loaded).unwrap().server;
                let pair = format!("{}:{}", Value::str(*loaded).to_json(), Value::str(server.as_str()).to_json());
                assert!(text(texts[0], "text").contains(&pair), "{name}: {query}: {pair}");
            }
            assert_eq!(blocks.len(), names.len() + texts.len());
            if let Some(block) = texts.first() {
                let note = text(block, "text");
                assert!(result.unknown_words.iter().all(|w| note.contains(w.as_str())), "{note}");
            }
            referenced.extend(names.iter().map(|n| n.to_string()));
            messages.push(json::parse(&format!(r#"{{"role":"assistant","content":[{}]}}"#, call.to_json())).unwrap());
            let result_block = format!(
                r#"{{"type":"tool_result","tool_use_id":"{id}","content":{}}}"#,
                Value::Array(blocks.to_vec()).to_json()
            );
            messages.push(json::parse(&format!(r#"{{"role":"user","content":[{result_block}]}}"#)).unwrap());
            let context = Value::object([("messages", Value::Array(messages.clone()))]);
            let a = shelf.assemble_with(&context);
            assert_eq!(Value::Array(a.tools[..2].to_vec()).to_json(), prefix[..prefix.len() - 1].to_string() + "]");
            let mut carried: Vec<&str> = a.tools[2..].iter().map(|t| text(t, "name")).collect();
            carried.sort_unstable();
            let mut wanted: Vec<&str> = referenced.iter().map(String::as_str).collect();
            wanted.sort_unstable();
            wanted.dedup();
            assert_eq!(carried, wanted, "{name}: turn {turn}");
            let whole = Value::Array(a.tools.clone()).to_json();
            assert_eq!(
                a.facts.context_tokens,
                whole.chars().count().div_ceil(4) as u64,
                "{name}: loaded tools enter the context (SPEC §14)"
            );
        }
    }
}

/// Responses: direct tools then the client `tool_search`; a `tool_search_call` is answered by a
/// `tool_search_output` echoing its `call_id`, the matches grouped per server in rank order of
/// each namespace's best match, functions under their own names with their whole parameters;
/// each loaded function is routed by `namespace`.
#[test]
fn responses_search_output_on_every_catalog() {
    for name in catalogs() {
        let given = toolbox(&name, "responses", false);
        // Every match loads (`loadLimit` at its most); the default bound is tests/session_cost.rs'.
        let shelf = native_shelf(&given, r#","loadLimit":50"#);
        let a = shelf.assemble();
        assert_eq!(a.tools.len(), 2, "{name}: deferred tools are not sent");
        let search = &a.tools[1];
        assert_eq!((text(search, "type"), text(search, "execution")), ("tool_search", "client"));
        let keys: Vec<&str> = search.as_object().unwrap().iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["type", "execution", "description", "parameters"]);
        assert_eq!(a.facts.context_tokens, Value::Array(a.tools.clone()).to_json().chars().count().div_ceil(4) as u64);
        let shuffled = native_shelf(&toolbox(&name, "responses", true), "").assemble();
        assert_eq!(shuffled.facts.fingerprint, a.facts.fingerprint, "{name}");
        for (i, query) in queries_for(&name).iter().enumerate() {
            let call_id = format!("call_{i}");
            let arguments = Value::object([("query", Value::str(query.as_str()))]).to_json();
            let call = Value::object([
                ("type", Value::str("tool_search_call")),
                ("call_id", Value::str(call_id.as_str())),
                ("execution", Value::str("client")),
                ("arguments", Value::String(arguments)),
            ]);
            let Unwrapped::Loaded { answer: Answer::Item(item), .. } = shelf.unwrap(&call).unwrap() else {
                panic!("{name}: {query}: not an item")
            };
            assert_eq!((text(&item, "type"), text(&item, "call_id")), ("tool_search_output", call_id.as_str()));
            assert_eq!((text(&item, "execution"), text(&item, "status")), ("client", "completed"));
            let result = shelf.search(query, None);
            let spaces = item.get("tools").unwrap().as_array().unwrap();
            let mut order: Vec<&str> = Vec::new();
            for m in &result.matches {
                if !order.contains(&m.server.as_str()) {
                    order.push(m.server.as_str());
                }
            }
            let got: Vec<&str> = spaces.iter().map(|n| text(n, "name")).collect();
            assert_eq!(got, order, "{name}: {query}: namespaces in rank order of their best match");
            let mut loaded = 0;
            for space in spaces {
                assert_eq!(text(space, "type"), "namespace");
                let description = text(space, "description");
                assert!(result.unknown_words.iter().all(|w| description.contains(w.as_str())), "{description}");
                for function in space.get("tools").unwrap().as_array().unwrap() {
                    loaded += 1;
                    let own = text(function, "name");
                    let tool = shelf
                        .catalog()
                        .tools
                        .iter()
                        .find(|t| {
                            t.server.as_deref().is_some_and(|server| {
                                toolshelf::wire::server_part(server) == text(space, "name")
                                    && toolshelf::wire::tool_part(server, &t.own_name) == own
                            })
                        })
                        .unwrap_or_else(|| panic!("{name}: {own}"));
                    assert_eq!(function.get("parameters"), tool.def().get("parameters"), "{name}: whole parameters");
                    assert_eq!(text(function, "type"), "function");
                    let routed = Value::object([
                        ("type", Value::str("function_call")),
                        ("call_id", Value::str("fc")),
                        ("namespace", Value::str(text(space, "name"))),
                        ("name", Value::str(own)),
                        ("arguments", Value::str("{}")),
                    ]);
                    match shelf.unwrap(&routed).unwrap() {
                        Unwrapped::Call(c) => {
                            assert_eq!((c.name.as_str(), c.tool.as_deref()), (tool.name.as_str(), Some(own)))
                        }
                        Unwrapped::Reject { content, .. } => {
                            assert!(content.starts_with(&format!("{} was not invoked", tool.name)), "{content}")
                        }
                        other => panic!("{name}: {own}: {other:?}"),
                    }
                }
            }
            assert_eq!(loaded, result.matches.len(), "{name}: {query}");
        }
    }
}

/// The calls of `tests/data/native-cases.json`: routing, validation and every bad input is a
/// reject (with an output item for a `tool_search_call`), never an error.
#[test]
fn the_native_cases() {
    let cases = json::parse(&std::fs::read_to_string(data_dir().join("native-cases.json")).unwrap()).unwrap();
    let parts: Vec<&str> =
        cases.get("catalogs").unwrap().as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    let catalog = parts.join("+");
    for case in cases.get("calls").unwrap().as_array().unwrap() {
        let label = text(case, "name");
        let shelf = native_shelf(&toolbox(&catalog, text(case, "format"), false), "");
        let got = shelf.unwrap(case.get("call").unwrap()).unwrap_or_else(|e| panic!("{label}: {e}"));
        let value = got.to_value();
        assert_eq!(text(&value, "kind"), text(case, "kind"), "{label}: {}", value.to_json());
        if let Some(contains) = case.get("contains").and_then(Value::as_str) {
            assert!(text(&value, "content").contains(contains), "{label}: {}", value.to_json());
        }
        if case.get("item").is_some() {
            let item = value.get("item").unwrap_or_else(|| panic!("{label}: no item"));
            let call_id = text(case.get("call").unwrap(), "call_id");
            assert_eq!((text(item, "type"), text(item, "call_id")), ("tool_search_output", call_id), "{label}");
            assert_eq!(item.get("tools").unwrap().as_array().unwrap().len(), 0);
        }
        for key in ["server", "tool", "arguments"] {
            if let Some(expected) = case.get(key) {
                assert_eq!(value.get(key), Some(expected), "{label}: {key}");
            }
        }
    }
}

/// Batched search in both modes: one answer for every query's matches, each tool once.
#[test]
fn batched_search_in_both_native_protocols() {
    let name = "github-mcp-server+linear-mcp-official";
    let queries = r#"["github create issue","linear list projects","send a gmail"]"#;
    let anthropic = native_shelf(&toolbox(name, "anthropic", false), r#","batch":true,"loadLimit":50"#);
    let schema = anthropic.assemble().tools[1].get("input_schema").unwrap().to_json();
    assert!(schema.contains(r#""queries""#), "{schema}");
    let call =
        json::parse(&format!(r#"{{"type":"tool_use","id":"t","name":"tool_search","input":{{"queries":{queries}}}}}"#))
            .unwrap();
    let Unwrapped::Loaded { answer: Answer::Blocks(blocks), .. } = anthropic.unwrap(&call).unwrap() else { panic!() };
    let blocks = blocks.as_array().unwrap();
    let mut names: Vec<&str> = blocks.iter().filter_map(|b| b.get("tool_name")).filter_map(Value::as_str).collect();
    let mut expected: Vec<String> = Vec::new();
    for q in ["github create issue", "linear list projects", "send a gmail"] {
        for m in anthropic.search(q, None).matches {
            if !expected.contains(&m.name) {
                expected.push(m.name);
            }
        }
    }
    assert_eq!(names, expected.iter().map(String::as_str).collect::<Vec<_>>());
    let note = text(blocks.last().unwrap(), "text");
    assert!(note.starts_with("send a gmail: ") && note.contains("gmail"), "{note}");
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), expected.len(), "each tool once");
    let responses = native_shelf(&toolbox(name, "responses", false), r#","batch":true,"loadLimit":50"#);
    let call = json::parse(&format!(
        r#"{{"type":"tool_search_call","call_id":"c","execution":"client","arguments":{{"queries":{queries}}}}}"#
    ))
    .unwrap();
    let Unwrapped::Loaded { answer: Answer::Item(item), .. } = responses.unwrap(&call).unwrap() else { panic!() };
    let functions: usize = item
        .get("tools")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.get("tools").unwrap().as_array().unwrap().len())
        .sum();
    assert_eq!(functions, expected.len());
}

/// More queries than a batched search takes (SPEC §6.2: 7) is a reject naming the limit in both
/// native protocols, as through the bridge: nothing searched, nothing loaded, none silently dropped.
#[test]
fn a_batched_search_of_more_than_seven_queries_is_a_reject_in_both_native_protocols() {
    let name = "github-mcp-server+linear-mcp-official";
    let eight = r#"["create issue","list issues","get me","list projects","search code","merge pull request","list teams","update issue"]"#;
    let anthropic = native_shelf(&toolbox(name, "anthropic", false), r#","batch":true"#);
    let call =
        json::parse(&format!(r#"{{"type":"tool_use","id":"t","name":"tool_search","input":{{"queries":{eight}}}}}"#))
            .unwrap();
    let Unwrapped::Reject { content, .. } = anthropic.unwrap(&call).unwrap() else { panic!("not a reject") };
    assert!(content.contains("at most 7 queries") && content.contains("8 were sent"), "{content}");
    let responses = native_shelf(&toolbox(name, "responses", false), r#","batch":true"#);
    let call = json::parse(&format!(
        r#"{{"type":"tool_search_call","call_id":"c","execution":"client","arguments":{{"queries":{eight}}}}}"#
    ))
    .unwrap();
    let Unwrapped::Reject { content, item: Some(item), .. } = responses.unwrap(&call).unwrap() else {
        panic!("not a reject with its output item")
    };
    assert!(content.contains("at most 7 queries"), "{content}");
    assert_eq!(item.get("tools").and_then(Value::as_array).map(<[Value]>::len), Some(0));
}

/// A search of several exact names (as the native framing tells the model) loads them all, in
/// the order named, whatever the limit; one unknown word makes it an ordinary search.
#[test]
fn a_search_of_exact_names_loads_them_all() {
    let shelf = native_shelf(&toolbox("rest-apis-flat-3400", "anthropic", false), "");
    let names: Vec<String> =
        shelf.catalog().tools.iter().filter(|t| t.deferred).step_by(397).map(|t| t.name.clone()).collect();
    assert!(names.len() >= 8);
    let query = names.join(" ");
    let got: Vec<String> = shelf.search(&query, Some(2)).matches.into_iter().map(|m| m.name).collect();
    assert_eq!(got, names);
    let with_commas: Vec<String> = shelf.search(&names.join(", "), None).matches.into_iter().map(|m| m.name).collect();
    assert_eq!(with_commas, names);
    let mixed = format!("{} frobnicate", names[0]);
    assert_eq!(shelf.search(&mixed, None).matches.first().map(|m| m.name.as_str()), Some(names[0].as_str()));
    assert!(shelf.search(&mixed, None).unknown_words.contains(&"frobnicate".to_string()));
}

/// Formats without native search, and over 10,000 deferred Anthropic tools without messages:
/// the bridge, with a warning, never an error. Tier 0 is the same in both modes.
#[test]
fn fallbacks_are_warnings() {
    let openai = common::grouped(&["linear-mcp-official"]);
    let a = Shelf::new(&openai, &options(r#"{"mode":"native"}"#)).unwrap().assemble();
    assert_eq!(a.facts.mode.as_str(), "bridge");
    assert!(a.facts.warnings.iter().any(|w| w.contains("not openai")), "{:?}", a.facts.warnings);
    assert_eq!(a.tools.len(), 3);
    let many: Vec<Value> = (0..10_001)
        .map(|i| {
            json::parse(&format!(r#"{{"name":"t{i}","description":"Tool {i}.","input_schema":{{"type":"object"}}}}"#))
                .unwrap()
        })
        .collect();
    let big = Value::object([("servers", Value::object([("s", Value::Array(many))]))]);
    let shelf = native_shelf(&big, "");
    let a = shelf.assemble();
    assert_eq!(a.facts.mode.as_str(), "bridge");
    assert!(a.facts.warnings.iter().any(|w| w.contains("10000")), "{:?}", a.facts.warnings);
    let with = shelf.assemble_with(&options(
        r#"{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":[{"type":"tool_reference","tool_name":"t7"}]}]}]}"#,
    ));
    assert_eq!(with.facts.mode.as_str(), "native");
    let names: Vec<&str> = with.tools.iter().map(|t| text(t, "name")).collect();
    assert_eq!(names, ["tool_search", "t7"]);
    let direct_only =
        Value::object([("tools", Value::Array(vec![in_format(&common::openai_tool("a", "A."), "anthropic")]))]);
    let native = native_shelf(&direct_only, "").assemble();
    let bridge = Shelf::new(&direct_only, &options(r#"{"contextLength":200000}"#)).unwrap().assemble();
    assert_eq!((native.facts.tier, Value::Array(native.tools).to_json()), (0, Value::Array(bridge.tools).to_json()));
}

/// Best of five runs of `work`.
fn best(mut work: impl FnMut()) -> std::time::Duration {
    (0..5)
        .map(|_| {
            let start = std::time::Instant::now();
            work();
            start.elapsed()
        })
        .min()
        .unwrap()
}

/// Hostile shapes of the native paths (SPEC §8): a conversation of n `tool_reference` blocks, a
/// namespaced call into a server of n tools, a search of n exact names, n deferred tools to
/// write with `defer_loading`. None panics, and each grows from n to 10n no faster than parsing as
/// many bytes of JSON does, within a generous factor (ratios of timings, never absolute times).
#[test]
fn hostile_native_inputs_grow_no_faster_than_n_log_n() {
    let toolbox = |n: usize| {
        let tools: Vec<String> = (0..n)
            .map(|i| {
                format!(r#"{{"name":"tool_{i}","description":"Tool number {i}.","input_schema":{{"type":"object"}}}}"#)
            })
            .collect();
        json::parse(&format!(
            r#"{{"tools":[{{"name":"d","input_schema":{{"type":"object"}}}}],"servers":{{"s":[{}]}}}}"#,
            tools.join(",")
        ))
        .unwrap()
    };
    let conversation = |n: usize| {
        let refs: Vec<String> =
            (0..n).map(|i| format!(r#"{{"type":"tool_reference","tool_name":"tool_{}"}}"#, (i * 7919) % n)).collect();
        format!(
            r#"{{"messages":[{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"x","content":[{}]}}]}}]}}"#,
            refs.join(",")
        )
    };
    let (small, large) = (1_000, 10_000); // 10,000: the most Anthropic takes without messages
    let shelves = [native_shelf(&toolbox(small), ""), native_shelf(&toolbox(large), "")];
    let contexts = [json::parse(&conversation(small)).unwrap(), json::parse(&conversation(large)).unwrap()];
    let texts = [conversation(small), conversation(large)];
    let yardstick = best(|| drop(json::parse(&texts[1]).unwrap())).as_secs_f64()
        / best(|| drop(json::parse(&texts[0]).unwrap())).as_secs_f64();
    let growth = |f: &dyn Fn(usize)| best(|| f(1)).as_secs_f64() / best(|| f(0)).as_secs_f64();
    let with_messages =
        growth(&|i| assert_eq!(shelves[i].assemble_with(&contexts[i]).tools.len(), [small, large][i] + 2));
    let namespaced = growth(&|i| {
        let call = format!(
            r#"{{"type":"function_call","call_id":"c","namespace":"s","name":"tool_{}","arguments":"{{}}"}}"#,
            [small, large][i] - 1
        );
        assert!(matches!(shelves[i].unwrap(&json::parse(&call).unwrap()), Ok(Unwrapped::Call(_))));
    });
    let everything = growth(&|i| assert_eq!(shelves[i].assemble().facts.mode.as_str(), "native"));
    for (what, ratio) in [
        ("assemble_with n references", with_messages),
        ("namespaced call", namespaced),
        ("every deferred tool", everything),
    ] {
        assert!(
            ratio <= 10.0 * yardstick.max(1.0) * 4.0,
            "{what}: ×{ratio:.1} from n to 10n (yardstick ×{yardstick:.1})"
        );
    }
    let names: Vec<String> = (0..60).map(|i| format!("tool_{i}")).collect();
    assert_eq!(shelves[0].search(&names[..50].join(" "), None).matches.len(), 50);
    assert!(shelves[0].search(&names.join(" "), None).matches.len() <= 20, "more than 50 names: an ordinary search");
}

/// `loadMaxTokens` (Anthropic): an answer references its matches in rank order while their
/// definitions fit the budget, always the top match and every tool named exactly; each match left
/// out is named in the text block, still in rank order; the same query without the option
/// references every match. Over every catalog, on its labelled queries.
#[test]
fn load_max_tokens_bounds_what_one_search_loads() {
    for name in catalogs() {
        let box_ = toolbox(&name, "anthropic", false);
        let bounded = native_shelf(&box_, r#","loadMaxTokens":600,"loadLimit":50"#);
        for query in queries_for(&name) {
            let result = bounded.search(&query, None);
            let call = Value::object([
                ("type", Value::str("tool_use")),
                ("id", Value::str("toolu_1")),
                ("name", Value::str("tool_search")),
                ("input", Value::object([("query", Value::str(query.as_str()))])),
            ]);
            let Unwrapped::Loaded { answer: Answer::Blocks(blocks), .. } = bounded.unwrap(&call).unwrap() else {
                panic!("{name}: {query}: not blocks")
            };
            let blocks = blocks.as_array().unwrap();
            let loaded: Vec<&str> =
                blocks.iter().filter(|b| text(b, "type") == "tool_reference").map(|b| text(b, "tool_name")).collect();
            let note = blocks.iter().find(|b| text(b, "type") == "text").map_or("", |b| text(b, "text"));
            let tokens = |n: &str| bounded.catalog().get(n).unwrap().tokens();
            let mut spent = 0;
            for (rank, m) in result.matches.iter().enumerate() {
                let fits = spent + tokens(&m.name) <= 600;
                if rank == 0 || fits {
                    assert!(loaded.contains(&m.name.as_str()), "{name}: {query}: {} should load", m.name);
                    spent += tokens(&m.name);
                } else {
                    assert!(!loaded.contains(&m.name.as_str()), "{name}: {query}: {} is over the budget", m.name);
                    assert!(note.contains(&format!(" {}", m.name)), "{name}: {query}: {} is named: {note}", m.name);
                }
            }
            let in_rank: Vec<&str> =
                result.matches.iter().map(|m| m.name.as_str()).filter(|n| loaded.contains(n)).collect();
            assert_eq!(loaded, in_rank, "{name}: {query}: references in rank order");
        }
    }
    let shelf = native_shelf(&toolbox("rest-apis-flat-3400", "anthropic", false), r#","loadMaxTokens":100"#);
    let names: Vec<String> =
        shelf.catalog().tools.iter().filter(|t| t.deferred).step_by(397).map(|t| t.name.clone()).collect();
    let call = json::parse(&format!(
        r#"{{"type":"tool_use","id":"t","name":"tool_search","input":{{"query":"{}"}}}}"#,
        names.join(" ")
    ))
    .unwrap();
    let Unwrapped::Loaded { answer: Answer::Blocks(blocks), .. } = shelf.unwrap(&call).unwrap() else { panic!() };
    let blocks = blocks.as_array().unwrap();
    let loaded: Vec<&str> =
        blocks.iter().filter(|b| text(b, "type") == "tool_reference").map(|b| text(b, "tool_name")).collect();
    assert_eq!(loaded, names, "tools named exactly load whatever the budget");
}

/// A `tool_search_call` nested too deep to parse (read from its outline) is a reject that still
/// carries its output item, as one with unreadable arguments does.
#[test]
fn a_search_call_too_deep_to_parse_keeps_its_output_item() {
    let shelf = native_shelf(&toolbox("linear-mcp-official", "responses", false), "");
    let deep = format!("{}1{}", "[".repeat(140), "]".repeat(140));
    let call = format!(
        r#"{{"type":"tool_search_call","call_id":"call_deep","execution":"client","arguments":{{"query":{deep}}}}}"#
    );
    let Ok(Unwrapped::Reject { item: Some(item), .. }) = shelf.unwrap_json(&call) else {
        panic!("a reject with its item")
    };
    assert_eq!(
        item.to_json(),
        r#"{"type":"tool_search_output","call_id":"call_deep","execution":"client","status":"completed","tools":[]}"#
    );
}

/// A namespaced call may name the tool by its qualified form whatever the toolbox calls it now
/// (a name learned while two servers clashed; SPEC §14).
#[test]
fn a_namespaced_call_takes_the_qualified_form() {
    let shelf = native_shelf(&toolbox("linear-mcp-official", "responses", false), "");
    let call = json::parse(
        r#"{"type":"function_call","call_id":"c","namespace":"linear","name":"mcp__linear__list_issues","arguments":"{}"}"#,
    )
    .unwrap();
    match shelf.unwrap(&call).unwrap() {
        Unwrapped::Call(c) => {
            assert_eq!((c.server.as_deref(), c.tool.as_deref()), (Some("linear"), Some("list_issues")))
        }
        Unwrapped::Reject { content, .. } => assert!(content.contains("list_issues was not invoked"), "{content}"),
        other => panic!("{other:?}"),
    }
}
