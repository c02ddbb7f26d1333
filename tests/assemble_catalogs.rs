//! assemble over the real catalogs: the ladder of SPEC §10 with our catalogs, the tiers, the
//! per-server levels, the budget bound, and pass-through of direct tools.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{grouped, grouped_with, openai_name, openai_tool, options};
use toolshelf::json::{self, Value};
use toolshelf::Shelf;

/// The ladder of `tests/data/assemble-cases.json` (shared with the JS tests): each case's tier,
/// form and server levels, and the listing within budget.
#[test]
fn the_ladder_of_real_catalogs() {
    let cases = common::assemble_cases();
    assert!(cases.len() >= 15);
    for case in &cases {
        let shelf =
            Shelf::new(&grouped(&case.catalogs), &case.options).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let a = shelf.assemble();
        assert_eq!((a.facts.tier, a.facts.form.as_str()), (case.tier, case.form.as_str()), "{}", case.name);
        for (server, level) in &case.levels {
            let found = a
                .facts
                .servers
                .iter()
                .find(|s| s.name == *server)
                .unwrap_or_else(|| panic!("{}: no server {server}", case.name));
            assert_eq!(found.level.as_str(), level, "{}: {server}", case.name);
        }
        let forced = case.options.get("listing").and_then(Value::as_str) == Some("on");
        assert!(forced || a.facts.listing_tokens <= a.facts.budget_tokens, "{}: listing over budget", case.name);
        assert!(a.facts.warnings.is_empty(), "{}: {:?}", case.name, a.facts.warnings);
    }
}

#[test]
fn same_tool_name_on_two_servers_is_an_error_with_qualify_false() {
    let toolbox = grouped(&["github-mcp-server", "linear-mcp-official"]);
    for off in [r#"{"qualify":false}"#, r#"{"qualify":"no"}"#, r#"{"qualify":0}"#] {
        let err = Shelf::new(&toolbox, &options(off)).unwrap_err();
        assert_eq!(err.code.as_str(), "duplicate_tool", "{off}");
        assert!(err.message.contains("servers.linear[") && err.message.contains("servers.github["), "{}", err.message);
        assert!(err.message.contains("\"list_issues\""), "{}", err.message);
    }
}

/// The names two or more tools of the toolbox share, each once, in order.
fn shared_names(toolbox: &Value) -> Vec<String> {
    let mut names: Vec<String> = toolbox
        .get("servers")
        .and_then(Value::as_object)
        .unwrap()
        .iter()
        .flat_map(|(_, tools)| tools.as_array().unwrap().iter().map(|t| openai_name(t).to_string()))
        .collect();
    names.sort();
    let mut shared: Vec<String> = names.windows(2).filter(|w| w[0] == w[1]).map(|w| w[0].clone()).collect();
    shared.dedup();
    shared
}

/// `qualify: auto` (short names, SPEC §2.2): GitHub and Linear both offer `list_issues`; attached together
/// they assemble, the clashing tools (and only they) are named `mcp__<server>__<tool>`, one
/// warning says so, and every call reaches the right server under its own name.
#[test]
fn github_and_linear_assemble_without_options() {
    let toolbox = grouped(&["github-mcp-server", "linear-mcp-official"]);
    let shared = shared_names(&toolbox);
    assert!(shared.contains(&"list_issues".to_string()), "{shared:?}");
    let shelf = Shelf::new(&toolbox, &options(r#"{"qualify":"auto"}"#)).unwrap();
    let a = shelf.assemble();
    let warning: Vec<&String> = a.facts.warnings.iter().filter(|w| w.starts_with("qualify: ")).collect();
    assert_eq!(warning.len(), 1, "{:?}", a.facts.warnings);
    assert!(warning[0].contains("\"list_issues\"") && warning[0].contains("qualify: false"), "{}", warning[0]);
    let catalog = shelf.catalog();
    for tool in &catalog.tools {
        let clashed = shared.contains(&tool.own_name);
        assert_eq!(tool.renamed, clashed, "{}", tool.name);
        let server = tool.server.as_deref().unwrap();
        let expected = if clashed { format!("mcp__{server}__{}", tool.own_name) } else { tool.own_name.clone() };
        assert_eq!(tool.name, expected);
        // Through the bridge, under the name the model sees: the real tool, on its server.
        let call =
            json::parse(&format!(r#"{{"name":"tool_call","arguments":{{"name":"{}","arguments":{{}}}}}}"#, tool.name))
                .unwrap();
        match shelf.unwrap(&call).unwrap() {
            toolshelf::Unwrapped::Call(c) => {
                assert_eq!((c.server.as_deref(), c.tool.as_deref()), (Some(server), Some(tool.own_name.as_str())));
            }
            toolshelf::Unwrapped::Reject { content, .. } => {
                assert!(content.contains("not invoked"), "{content}")
            }
            other => panic!("{}: {other:?}", tool.name),
        }
    }
    // The shared own name is ambiguous: a reject that offers both qualified names.
    let ambiguous = json::parse(r#"{"name":"tool_call","arguments":{"name":"list_issues","arguments":{}}}"#).unwrap();
    let toolshelf::Unwrapped::Reject { content, .. } = shelf.unwrap(&ambiguous).unwrap() else {
        panic!("an ambiguous own name must be rejected")
    };
    assert!(content.contains("mcp__github__list_issues") && content.contains("mcp__linear__list_issues"), "{content}");
}

/// `qualify: true` renames every grouped deferred tool; a tool's own name, when no other tool
/// has it, still reaches it (through the bridge, called directly, and described).
#[test]
fn a_qualified_tool_answers_to_its_own_name_when_unambiguous() {
    let shelf = Shelf::new(&grouped(&["linear-mcp-official"]), &options(r#"{"qualify":true}"#)).unwrap();
    assert!(shelf.assemble().facts.warnings.is_empty());
    for tool in &shelf.catalog().tools {
        assert!(tool.renamed && tool.name.starts_with("mcp__linear__"), "{}", tool.name);
        let via_bridge =
            format!(r#"{{"name":"tool_call","arguments":{{"name":"{}","arguments":{{}}}}}}"#, tool.own_name);
        let direct = format!(r#"{{"name":"{}","arguments":{{}}}}"#, tool.own_name);
        for call in [via_bridge, direct] {
            match shelf.unwrap(&json::parse(&call).unwrap()).unwrap() {
                toolshelf::Unwrapped::Call(c) => {
                    assert_eq!((c.name.as_str(), c.tool.as_deref()), (tool.name.as_str(), Some(tool.own_name.as_str())))
                }
                toolshelf::Unwrapped::Reject { content, .. } => {
                    assert!(content.contains(&tool.name) && content.contains("not invoked"), "{content}")
                }
                other => panic!("{call}: {other:?}"),
            }
        }
        assert_eq!(shelf.describe(&tool.own_name).map(|d| d.name), Some(tool.name.clone()));
    }
}

#[test]
fn auto_qualifies_a_deferred_tool_that_a_direct_tool_shadows_and_never_two_direct_tools() {
    let linear = common::catalog("linear-mcp-official");
    let (_, first) = &linear[0];
    let name = openai_name(first).to_string();
    let shelf = Shelf::new(
        &grouped_with(vec![openai_tool(&name, "Mine.")], &["linear-mcp-official"]),
        &options(r#"{"qualify":"auto"}"#),
    )
    .unwrap();
    let names: Vec<&str> = shelf.catalog().tools.iter().map(|t| t.name.as_str()).collect();
    assert!(names.contains(&name.as_str()) && names.contains(&format!("mcp__linear__{name}").as_str()));
    assert_eq!(names.iter().filter(|n| n.starts_with("mcp__")).count(), 1, "only the clashing tool is renamed");
    let direct = json::parse(&format!(r#"{{"name":"{name}","arguments":{{}}}}"#)).unwrap();
    let toolshelf::Unwrapped::Call(call) = shelf.unwrap(&direct).unwrap() else { panic!() };
    assert!(!call.via_bridge && call.server.is_none(), "the name itself is the direct tool's: {call:?}");
    for qualify in ["null", r#"{"qualify":true}"#, r#"{"qualify":"auto"}"#] {
        let two = grouped_with(vec![openai_tool("a", "One."), openai_tool("a", "Two.")], &["linear-mcp-official"]);
        assert_eq!(Shelf::new(&two, &options(qualify)).unwrap_err().code.as_str(), "duplicate_tool", "{qualify}");
    }
}

#[test]
fn listing_text_matches_the_levels() {
    let shelf = Shelf::new(
        &grouped(&["github-mcp-server", "linear-mcp-official", "cloudflare-api-2024-08"]),
        &options(r#"{"contextLength":200000,"qualify":true}"#),
    )
    .unwrap();
    let a = shelf.assemble();
    let search = a.tools.iter().find(|t| openai_name(t) == "tool_search").unwrap();
    let text = search.get("function").and_then(|f| f.get("description")).and_then(Value::as_str).unwrap();
    assert!(text.starts_with("Search 1688 deferred tools"), "{text}");
    assert!(
        text.contains("\nmcp__linear__* (38 tools):\n- "),
        "the prefix of the shown names heads the server: {text}"
    );
    assert!(text.contains("\n- save_issue: Create or update a Linear issue.\n"), "{text}");
    // A server at summary is named as it is: a count needs a search before any name.
    assert!(text.contains("\ncloudflare: 1533 tools, not listed"), "{text}");
    assert!(!text.contains("dns-records-for-a-zone"), "a summarized server lists no names");
    // Servers in code-point order: cloudflare, github, linear.
    let at = |heading: &str| text.find(heading).unwrap_or_else(|| panic!("{heading}: {text}"));
    let (c, g, l) = (at("\ncloudflare:"), at("\nmcp__github__* ("), at("\nmcp__linear__* ("));
    assert!(c < g && g < l);
    // Tools within a server in code-point order.
    let linear = text.get(l..).unwrap_or_default();
    let lines: Vec<&str> = linear.lines().skip(2).take_while(|l| l.starts_with("- ")).collect();
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert_eq!(lines.len(), 38);
}

#[test]
fn direct_tools_come_first_then_the_bridge() {
    let direct = vec![openai_tool("read_file", "Read a file."), openai_tool("write_file", "Write a file.")];
    let shelf =
        Shelf::new(&grouped_with(direct.clone(), &["linear-mcp-official"]), &options(r#"{"contextLength":200000}"#))
            .unwrap();
    let a = shelf.assemble();
    let names: Vec<&str> = a.tools.iter().map(openai_name).collect();
    assert_eq!(names, ["read_file", "write_file", "tool_search", "tool_describe", "tool_call"]);
    assert_eq!(a.tools[..2], direct[..], "direct tools pass through untouched");
}

#[test]
fn no_deferred_tool_gives_tier_0_and_the_input_unchanged() {
    let text = r#"[{"type":"function","function":{"name":"a","description":"Ünïcode \"quoted\"\n","parameters":{"type":"object","properties":{"n":{"type":"number","maximum":1.5e3}}}}},{"type":"function","function":{"name":"b","parameters":{}}}]"#;
    let shelf = Shelf::from_json(text, "").unwrap();
    let layout = shelf.layout();
    assert_eq!((layout.facts.tier, layout.facts.form.as_str(), layout.facts.deferred_count), (0, "none", 0));
    // Compact input whose numbers are written as JavaScript writes them comes back byte for byte;
    // 1.5e3 is written 1500 by JSON.stringify, so it is the one difference.
    assert_eq!(layout.tools_json(), text.replace("1.5e3", "1500"));
}

#[test]
fn enabled_off_passes_everything_through_in_input_order() {
    let direct = vec![openai_tool("read_file", "Read a file.")];
    let toolbox = grouped_with(direct, &["linear-mcp-official", "github-mcp-server"]);
    let a = Shelf::new(&toolbox, &options(r#"{"enabled":"off","qualify":true}"#)).unwrap().assemble();
    assert_eq!((a.facts.tier, a.facts.deferred_count), (0, 38 + 117));
    assert_eq!(a.tools.len(), 1 + 38 + 117);
    let names: Vec<&str> = a.tools.iter().map(openai_name).collect();
    assert_eq!(names[0], "read_file");
    assert!(names[1].starts_with("mcp__linear__") && names[39].starts_with("mcp__github__"), "{names:?}");
    let linear = common::catalog("linear-mcp-official");
    assert_eq!(names[1], format!("mcp__linear__{}", openai_name(&linear[0].1)));
}

#[test]
fn flat_lists_use_the_mcp_prefix_convention() {
    let tools: Vec<Value> = common::catalog("linear-mcp-official")
        .into_iter()
        .take(5)
        .map(|(_, t)| {
            let name = format!("mcp__linear__{}", openai_name(&t));
            toolshelf::Format::OpenAi.renamed(&t, &name)
        })
        .chain([openai_tool("bash", "Run a command.")])
        .collect();
    let a = Shelf::new(&Value::Array(tools), &options(r#"{"contextLength":200000}"#)).unwrap().assemble();
    assert_eq!((a.facts.tier, a.facts.deferred_count), (1, 5));
    assert_eq!(a.facts.servers[0].name, "linear");
    assert_eq!(openai_name(&a.tools[0]), "bash");
    let shelf = Shelf::new(&Value::Array(vec![openai_tool("mcp__x__y", "d")]), &Value::Null).unwrap();
    let tool = shelf.catalog().get("mcp__x__y").unwrap();
    assert_eq!((tool.server.as_deref(), tool.own_name.as_str()), (Some("x"), "y"));
}

#[test]
fn always_load_and_defer_move_tools_across_the_line() {
    let direct = vec![openai_tool("read_file", "Read a file."), openai_tool("web_fetch", "Fetch a page.")];
    let toolbox = grouped_with(direct, &["linear-mcp-official", "github-mcp-server"]);
    let opts = options(r#"{"alwaysLoad":["linear"],"defer":["web_fetch","nope"],"qualify":true,"alwaysLoad ":1}"#);
    let a = Shelf::new(&toolbox, &opts).unwrap().assemble();
    assert_eq!(a.facts.deferred_count, 117 + 1);
    let servers: Vec<&str> = a.facts.servers.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(servers, ["builtin", "github"]);
    assert_eq!(a.tools.len(), 1 + 38 + 3);
    assert_eq!(openai_name(&a.tools[0]), "read_file");
    assert_eq!(a.facts.warnings.len(), 2, "{:?}", a.facts.warnings); // "nope", and the unknown option name
}

#[test]
fn bridge_tools_follow_the_toolbox_format() {
    let linear = common::catalog("linear-mcp-official");
    for (format, schema_key) in [
        ("openai", ""),
        ("responses", "parameters"),
        ("anthropic", "input_schema"),
        ("mcp", "inputSchema"),
        ("gemini", "parameters"),
    ] {
        let tools: Vec<Value> = linear
            .iter()
            .map(|(_, t)| {
                let f = t.get("function").unwrap();
                let schema = f.get("parameters").unwrap().clone();
                match format {
                    "openai" => t.clone(),
                    _ => toolshelf::Format::from_name(format).unwrap().tool(
                        f.get("name").unwrap().as_str().unwrap(),
                        f.get("description").and_then(Value::as_str).unwrap_or(""),
                        schema,
                    ),
                }
            })
            .collect();
        let toolbox = Value::object([("servers", Value::object([("linear", Value::Array(tools))]))]);
        let a = Shelf::new(&toolbox, &options(r#"{"contextLength":200000}"#)).unwrap().assemble();
        assert_eq!(a.tools.len(), 3, "{format}");
        for tool in &a.tools {
            assert_eq!(
                toolshelf::Format::detect(tool).map(|f| f.as_str()),
                Some(format),
                "{format}: {}",
                tool.to_json()
            );
            if !schema_key.is_empty() {
                assert!(tool.get(schema_key).is_some(), "{format}");
            }
        }
    }
}

#[test]
fn bridge_names_are_configurable() {
    let a = Shelf::new(&grouped(&["linear-mcp-official"]), &options(r#"{"bridgeNames":{"call":"invoke_tool"}}"#))
        .unwrap()
        .assemble();
    let names: Vec<&str> = a.tools.iter().map(openai_name).collect();
    assert_eq!(names, ["tool_search", "tool_describe", "invoke_tool"]);
    let describe = a.tools[1].to_json();
    assert!(describe.contains("calling it with invoke_tool"), "{describe}");
}

#[test]
fn batch_mode_changes_the_search_and_describe_shapes() {
    let a = Shelf::new(&grouped(&["linear-mcp-official"]), &options(r#"{"batch":true}"#)).unwrap().assemble();
    let schema = |i: usize| a.tools[i].get("function").unwrap().get("parameters").unwrap().to_json();
    assert!(
        schema(0).contains(r#""queries":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":7}"#),
        "{}",
        schema(0)
    );
    assert!(
        schema(1).contains(r#""names":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":10}"#),
        "{}",
        schema(1)
    );
    assert!(schema(2).contains(r#""required":["name","arguments"]"#));
}

#[test]
fn facts_serialize_with_camel_case_keys() {
    let a = Shelf::new(&grouped(&["linear-mcp-official"]), &options(r#"{"contextLength":200000}"#)).unwrap().assemble();
    let v = a.to_value();
    let keys: Vec<&str> = v.as_object().unwrap().iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "tools",
            "tier",
            "form",
            "deferredCount",
            "deferredTokens",
            "budgetTokens",
            "listingTokens",
            "servers",
            "fingerprint",
            "mode",
            "contextTokens",
            "requestBytes",
            "warnings"
        ]
    );
    assert_eq!(v.get("mode").unwrap().as_str(), Some("bridge"));
    let json = toolshelf::Value::Array(a.tools.clone()).to_json();
    assert_eq!(a.facts.request_bytes, json.len());
    assert_eq!(a.facts.context_tokens, json.chars().count().div_ceil(4) as u64);
    assert_eq!(v.get("budgetTokens").unwrap().to_json(), "10000");
    assert_eq!(v.get("fingerprint").unwrap().as_str().unwrap().len(), 16);
    let sizes: u64 = common::catalog("linear-mcp-official")
        .iter()
        .map(|(_, t)| t.to_json().chars().count().div_ceil(4) as u64)
        .sum();
    assert_eq!(a.facts.deferred_tokens, sizes);
    let text = json::parse(&v.to_json()).unwrap();
    assert_eq!(text, v);
}

#[test]
fn qualified_names_are_names_every_provider_accepts() {
    let toolbox = grouped(&["livemcptool-70servers", "cloudflare-api-2024-08"]);
    let a = Shelf::new(&toolbox, &options(r#"{"enabled":"off","qualify":true}"#)).unwrap().assemble();
    assert_eq!(a.tools.len(), 527 + 1533);
    let bad: Vec<&str> = a.tools.iter().map(openai_name).filter(|n| !toolshelf::options::is_tool_name(n)).collect();
    assert!(bad.is_empty(), "{} invalid names, e.g. {:?}", bad.len(), &bad[..bad.len().min(3)]);
}
