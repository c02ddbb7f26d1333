//! Every programmer error of SPEC §8 that a toolbox can raise, each with its stable code and the
//! path in its message; and the bounds (depth, tool count) as errors, never a hang or a panic.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

use toolshelf::Shelf;

fn check(toolbox: &str, options: &str, code: &str, message_part: &str) {
    let err = Shelf::from_json(toolbox, options).expect_err(toolbox);
    assert_eq!(err.code.as_str(), code, "{toolbox}: {}", err.message);
    assert!(err.message.contains(message_part), "{toolbox}: {:?} lacks {message_part:?}", err.message);
}

const T: &str = r#"{"type":"function","function":{"name":"a","parameters":{}}}"#;

#[test]
fn invalid_toolbox() {
    check("42", "", "invalid_toolbox", "toolbox: expected a list of tools or {tools, servers}, got a number");
    check("not json", "", "invalid_toolbox", "toolbox: expected a JSON value at byte 0");
    check("[", "", "invalid_toolbox", "at byte 1");
    check(r#"{"toolz":[]}"#, "", "invalid_toolbox", r#"toolbox: unknown key "toolz""#);
    check(r#"{"tools":{}}"#, "", "invalid_toolbox", "tools: expected a list of tools, got an object");
    check(
        r#"{"servers":[]}"#,
        "",
        "invalid_toolbox",
        "servers: expected an object of server name → tools, got an array",
    );
    check(
        r#"{"servers":{"github":{}}}"#,
        "",
        "invalid_toolbox",
        "servers.github: expected a list of tools, got an object",
    );
    check(r#"{"servers":{"":[]}}"#, "", "invalid_toolbox", "servers: a server name is empty");
}

#[test]
fn invalid_tool() {
    check(r#"[1]"#, "", "invalid_tool", "[0]: a tool must be an object, got a number");
    check(
        &format!(r#"{{"servers":{{"github":[{T},{{"type":"function","function":{{"description":"x"}}}}]}}}}"#),
        "",
        "invalid_tool",
        r#"servers.github[1]: a tool in openai format needs a non-empty string "name""#,
    );
    check(
        &format!(r#"{{"tools":[{T},{{"type":"function","function":{{"name":"  "}}}}]}}"#),
        "",
        "invalid_tool",
        "tools[1]: ",
    );
    check(r#"[{"name":5,"input_schema":{}}]"#, "", "invalid_tool", "[0]: a tool in anthropic format needs");
}

#[test]
fn duplicate_tool() {
    check(&format!(r#"[{T},{T}]"#), "", "duplicate_tool", r#"[1]: duplicate tool name "a", also at [0]"#);
    let grouped = format!(r#"{{"tools":[{T}],"servers":{{"s":[{T}]}}}}"#);
    check(
        &grouped,
        r#"{"qualify":false}"#,
        "duplicate_tool",
        "servers.s[0]: duplicate tool name \"a\", also at tools[0]",
    );
    assert!(Shelf::from_json(&grouped, r#"{"qualify":true}"#).is_ok(), "qualify cures the clash");
    assert!(Shelf::from_json(&grouped, "").is_ok(), "qualify: auto (the default) cures the clash");
    let two_servers = format!(r#"{{"servers":{{"x":[{T}],"y":[{T}]}}}}"#);
    check(
        &two_servers,
        r#"{"qualify":false}"#,
        "duplicate_tool",
        "servers.y[0]: duplicate tool name \"a\", also at servers.x[0]",
    );
    // A name qualify makes can still clash with a tool already so named: an error, never a silent pick.
    let made = format!(
        r#"{{"tools":[{T}, {{"type":"function","function":{{"name":"mcp__s__a"}}}}],"servers":{{"s":[{T}]}}}}"#
    );
    check(&made, "", "duplicate_tool", "duplicate tool name \"mcp__s__a\"");
}

#[test]
fn mixed_formats() {
    check(
        r#"[{"name":"a","input_schema":{}},{"name":"b","inputSchema":{}}]"#,
        "",
        "mixed_formats",
        "[1]: a tool in mcp format, but [0] is in anthropic format",
    );
    check(
        &format!(r#"{{"tools":[{T}],"servers":{{"s":[{{"name":"b","parameters":{{}}}}]}}}}"#),
        "",
        "mixed_formats",
        "servers.s[0]: a tool in gemini format, but tools[0] is in openai format",
    );
}

#[test]
fn forced_format_reads_every_tool_that_way() {
    // Detected as gemini, but forced to mcp: the name is read at the top level either way.
    let shelf = Shelf::from_json(r#"[{"name":"a","parameters":{}}]"#, r#"{"format":"mcp"}"#).unwrap();
    assert_eq!(shelf.catalog().format.as_str(), "mcp");
    check(
        r#"[{"type":"function","function":{"name":"a"}}]"#,
        r#"{"format":"anthropic"}"#,
        "invalid_tool",
        "[0]: a tool in anthropic format needs",
    );
}

#[test]
fn bounds_are_errors_not_hangs() {
    let deep = format!("[{}{}]", "[".repeat(200), "]".repeat(200));
    check(&deep, "", "too_large", "nesting is deeper than 128 levels");
    let many = format!("[{}]", vec![r#"{"name":"x"}"#; 100_001].join(","));
    check(&many, "", "too_large", "toolbox: 100001 tools, more than 100000");
}

#[test]
fn fifty_thousand_tools_are_accepted() {
    let tools: Vec<String> =
        (0..50_000).map(|i| format!(r#"{{"name":"mcp__s{}__t{i}","parameters":{{}}}}"#, i % 50)).collect();
    let shelf = Shelf::from_json(&format!("[{}]", tools.join(",")), r#"{"contextLength":200000}"#).unwrap();
    let a = shelf.assemble();
    assert_eq!((a.facts.deferred_count, a.facts.servers.len()), (50_000, 50));
    assert!(a.facts.listing_tokens <= a.facts.budget_tokens);
}

#[test]
fn odd_but_valid_toolboxes_are_not_errors() {
    for (toolbox, tier) in
        [("[]", 0), ("{}", 0), (r#"{"tools":null,"servers":null}"#, 0), (r#"{"servers":{"s":[]}}"#, 0)]
    {
        let a = Shelf::from_json(toolbox, "").unwrap().assemble();
        assert_eq!((a.facts.tier, a.tools.len()), (tier, 0), "{toolbox}");
    }
    // A deferred tool without a description is allowed.
    let a = Shelf::from_json(r#"{"servers":{"s":[{"name":"x","parameters":{}}]}}"#, "").unwrap().assemble();
    assert_eq!(a.facts.tier, 1);
    // Undetectable format: read gemini-style, with a warning.
    let a = Shelf::from_json(r#"{"servers":{"s":[{"name":"x"}]}}"#, "").unwrap().assemble();
    assert_eq!(a.facts.warnings.len(), 1, "{:?}", a.facts.warnings);
}
