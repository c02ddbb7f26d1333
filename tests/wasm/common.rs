//! Boundary tests of the JS binding (`src/wasm.rs`), one body shared by `tests/wasm_node.rs` and
//! `tests/wasm_browser.rs` (serde-wasm-bindgen's layout): the same assertions run in Node and in
//! headless Chromium. Each calls an exported binding function with a small inline toolbox and checks
//! the JSON text it returns, or the JS `Error` it throws (`name` ToolshelfError, a stable `code`).
//!
//! What these add to the native tests: the core built for wasm32 (no std float or hashing helpers
//! behind our back), errors built with `js_sys` in a real JS engine, and the same fingerprint in
//! every engine (the constant below is also what the native build and the Node package give).

use js_sys::Reflect;
use toolshelf::json::{self, Value};
use toolshelf::wasm::{ShelfHandle, TextRoom};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

/// One direct tool (`read_file`) and two deferred ones on server `linear`, OpenAI Chat format.
const TOOLBOX: &str = r#"{"tools":[{"type":"function","function":{"name":"read_file","description":"Read a file.","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}],
"servers":{"linear":[
 {"type":"function","function":{"name":"create_issue","description":"Create a new issue in Linear.","parameters":{"type":"object","properties":{"title":{"type":"string"},"count":{"type":"integer"}},"required":["title"]}}},
 {"type":"function","function":{"name":"list_issues","description":"List issues in Linear.","parameters":{"type":"object","properties":{"team":{"type":"string"}}}}}]}}"#;

/// `TOOLBOX` with the deferred tools in the other order: must change no byte of any answer.
const TOOLBOX_SHUFFLED: &str = r#"{"tools":[{"type":"function","function":{"name":"read_file","description":"Read a file.","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}],
"servers":{"linear":[
 {"type":"function","function":{"name":"list_issues","description":"List issues in Linear.","parameters":{"type":"object","properties":{"team":{"type":"string"}}}}},
 {"type":"function","function":{"name":"create_issue","description":"Create a new issue in Linear.","parameters":{"type":"object","properties":{"title":{"type":"string"},"count":{"type":"integer"}},"required":["title"]}}}]}}"#;

const OPTIONS: &str = r#"{"contextLength":200000}"#;

// One-shot calls through a fresh `ShelfHandle`, the binding's only entry (the JS stateless
// functions do the same, and free it before returning).
fn assemble_json(toolbox: &str, options: &str) -> Result<String, JsValue> {
    ShelfHandle::new(room(toolbox), toolbox.len(), options).map(|s| s.assemble())
}

fn search_json(toolbox: &str, query: &str, options: &str, limit: Option<u32>) -> Result<String, JsValue> {
    ShelfHandle::new(room(toolbox), toolbox.len(), options).map(|s| s.search(query, limit))
}

fn describe_json(toolbox: &str, name: &str, options: &str) -> Result<String, JsValue> {
    ShelfHandle::new(room(toolbox), toolbox.len(), options).map(|s| s.describe(name))
}

fn unwrap_json(toolbox: &str, call: &str, options: &str) -> Result<String, JsValue> {
    ShelfHandle::new(room(toolbox), toolbox.len(), options)?.unwrap(call)
}

/// The toolbox's text in a [`TextRoom`], as the JS side writes it there.
fn room(text: &str) -> TextRoom {
    TextRoom::of(text.as_bytes().to_vec())
}

fn parse(text: &str) -> Value {
    json::parse(text).unwrap_or_else(|e| panic!("the binding returned invalid JSON ({e:?}): {text}"))
}

/// The value at a dotted path such as `tools.1.function.name` (numbers index arrays).
fn at<'a>(value: &'a Value, path: &str) -> &'a Value {
    path.split('.').fold(value, |v, key| {
        let next = match key.parse::<usize>() {
            Ok(i) => v.as_array().and_then(|a| a.get(i)),
            Err(_) => v.get(key),
        };
        next.unwrap_or_else(|| panic!("no {path} in {}", value.to_json()))
    })
}

fn text_at<'a>(value: &'a Value, path: &str) -> &'a str {
    at(value, path).as_str().unwrap_or_else(|| panic!("{path} is not a string in {}", value.to_json()))
}

/// The `code` of a thrown ToolshelfError, after checking it is a real JS `Error` with that name
/// (so `instanceof Error` holds in JS and stack traces work).
fn error_code(thrown: JsValue) -> String {
    let error: js_sys::Error = thrown.dyn_into().expect("a JS Error, not a string or plain object");
    assert_eq!(String::from(error.name()), "ToolshelfError");
    assert!(!String::from(error.message()).is_empty(), "the message says where");
    Reflect::get(&error, &JsValue::from_str("code")).unwrap().as_string().expect("a string `code`")
}

#[wasm_bindgen_test]
fn assemble_gives_places_for_given_tools_and_the_bridge() {
    let a = parse(&assemble_json(TOOLBOX, OPTIONS).unwrap());
    // The direct tool comes back as its place in the toolbox, for the JS side to swap in the caller's object.
    assert_eq!(at(&a, "tools.0").to_json(), "[null,0]");
    let names: Vec<&str> = (1..4).map(|i| text_at(&a, &format!("tools.{i}.function.name"))).collect();
    assert_eq!(names, ["tool_search", "tool_describe", "tool_call"]);
    assert!(text_at(&a, "tools.1.function.description").contains("- create_issue: Create a new issue in Linear."));
    assert_eq!(at(&a, "tier").as_f64(), Some(1.0));
    assert_eq!(text_at(&a, "form"), "full");
    assert_eq!(text_at(&a, "servers.0.level"), "full");
    assert_eq!(at(&a, "deferredCount").as_f64(), Some(2.0));
    assert_eq!(at(&a, "warnings").as_array().map(<[Value]>::len), Some(0));
    // The binding's fingerprint is the core's (the JS tests compare the core across runtimes:
    // native fixtures against Node, Chromium and workerd).
    let core = toolshelf::Shelf::from_json(TOOLBOX, OPTIONS).unwrap().layout().facts.fingerprint;
    assert_eq!(text_at(&a, "fingerprint"), core);
    assert!(core.len() == 16 && core.bytes().all(|b| b.is_ascii_hexdigit()));
}

#[wasm_bindgen_test]
fn update_keeps_the_named_servers_and_answers_as_a_new_handle() {
    // Tier 0 (`enabled: off`) shows every tool: the direct one as its place `[null, i]`.
    let options = r#"{"enabled":"off"}"#;
    let mut handle = ShelfHandle::new(room(TOOLBOX), TOOLBOX.len(), options).unwrap();
    let two_servers = TOOLBOX.replace(
        r#""servers":{"#,
        r#""servers":{"jira":[{"type":"function","function":{"name":"open_ticket","parameters":{}}}],"#,
    );
    // What the JS side sends when `linear` holds the same objects: its list empty, its name kept.
    let kept = two_servers.split(r#""linear":["#).next().unwrap().to_string() + r#""linear":[]}}"#;
    handle.update(room(&kept), kept.len(), r#"["linear"]"#).unwrap();
    let fresh = ShelfHandle::new(room(&two_servers), two_servers.len(), options).unwrap();
    assert_eq!(handle.assemble(), fresh.assemble());
    // Under the default names (SPEC §16) a server's tool goes as its def renamed, not as its place.
    assert_eq!(text_at(&parse(&handle.assemble()), "tools.2.function.name"), "mcp__linear__create_issue");
    assert_eq!(handle.search("issue", None), fresh.search("issue", None));
    // A failed update is the same ToolshelfError, and leaves the handle as it was.
    assert_eq!(error_code(handle.update(room("[1]"), 3, "[]").unwrap_err()), "invalid_tool");
    assert_eq!(handle.assemble(), fresh.assemble());
}

#[wasm_bindgen_test]
fn assemble_is_deterministic_and_order_independent() {
    let first = assemble_json(TOOLBOX, OPTIONS).unwrap();
    assert_eq!(assemble_json(TOOLBOX, OPTIONS).unwrap(), first);
    assert_eq!(assemble_json(TOOLBOX_SHUFFLED, OPTIONS).unwrap(), first);
}

/// Bridge tools come out in the toolbox's format: `(format, one deferred tool in it, path to the
/// search tool's name, a key only that format's tool has)`.
const FORMATS: &[(&str, &str, &str, &str)] = &[
    (
        "openai",
        r#"{"type":"function","function":{"name":"t","parameters":{}}}"#,
        "tools.0.function.name",
        "tools.0.function.parameters",
    ),
    ("responses", r#"{"type":"function","name":"t","parameters":{}}"#, "tools.0.name", "tools.0.type"),
    ("anthropic", r#"{"name":"t","input_schema":{}}"#, "tools.0.name", "tools.0.input_schema"),
    ("mcp", r#"{"name":"t","inputSchema":{}}"#, "tools.0.name", "tools.0.inputSchema"),
    ("gemini", r#"{"name":"t","parameters":{}}"#, "tools.0.name", "tools.0.parameters"),
];

#[wasm_bindgen_test]
fn bridge_tools_come_out_in_each_format() {
    for (format, tool, name_path, own_key) in FORMATS {
        let a = parse(&assemble_json(&format!(r#"{{"servers":{{"s":[{tool}]}}}}"#), "{}").unwrap());
        assert_eq!(text_at(&a, name_path), "tool_search", "{format}");
        at(&a, own_key);
        assert_eq!(at(&a, "warnings").as_array().map(<[Value]>::len), Some(0), "{format}: {}", a.to_json());
    }
}

/// Options cross as JSON text too: `(options, path, expected JSON of the value there)`.
const OPTION_CASES: &[(&str, &str, &str)] = &[
    (r#"{"enabled":"off"}"#, "tools.0", "[null,0]"),
    (r#"{"enabled":"off"}"#, "tools.2.function.name", r#""mcp__linear__list_issues""#),
    (r#"{"enabled":"off","qualify":"auto"}"#, "tools", r#"[[null,0],["linear",0],["linear",1]]"#),
    (r#"{"enabled":"off"}"#, "tier", "0"),
    (r#"{"bridgeNames":{"call":"invoke_tool"}}"#, "tools.3.function.name", r#""invoke_tool""#),
    (r#"{"bridge_names":["s","d","c"]}"#, "tools.2.function.name", r#""d""#),
    (r#"{"listing":"off"}"#, "form", r#""none""#),
    (r#"{"contextLength":"200000"}"#, "budgetTokens", "10000"),
    ("null", "warnings", "[]"),
    (r#""not an object""#, "warnings.0", r#""options must be an object; using the defaults""#),
];

#[wasm_bindgen_test]
fn options_are_read_from_json_text() {
    for (options, path, expected) in OPTION_CASES {
        let a = parse(&assemble_json(TOOLBOX, options).unwrap());
        assert_eq!(at(&a, path).to_json(), *expected, "{options} at {path}");
    }
}

/// Programmer errors: `(toolbox, code)`. Every entry point that takes a toolbox must throw it.
const TOOLBOX_ERRORS: &[(&str, &str)] = &[
    ("42", "invalid_toolbox"),
    ("{", "invalid_toolbox"),
    (r#"{"servers":[]}"#, "invalid_toolbox"),
    (r#"[{"type":"function","function":{}}]"#, "invalid_tool"),
    (r#"[{"name":"a","parameters":{}},{"name":"a","parameters":{}}]"#, "duplicate_tool"),
    (r#"[{"name":"a","input_schema":{}},{"name":"b","inputSchema":{}}]"#, "mixed_formats"),
];

#[wasm_bindgen_test]
fn toolbox_errors_throw_the_same_code_from_every_entry_point() {
    for (toolbox, code) in TOOLBOX_ERRORS {
        let thrown = [
            assemble_json(toolbox, "{}").unwrap_err(),
            search_json(toolbox, "issue", "{}", None).unwrap_err(),
            describe_json(toolbox, "a", "{}").unwrap_err(),
            unwrap_json(toolbox, r#"{"name":"a"}"#, "{}").unwrap_err(),
            ShelfHandle::new(room(toolbox), toolbox.len(), "{}").err().expect("ShelfHandle::new fails"),
        ];
        for (entry, error) in thrown.into_iter().enumerate() {
            assert_eq!(error_code(error), *code, "{toolbox} (entry point {entry})");
        }
    }
}

#[wasm_bindgen_test]
fn bounds_are_errors_not_crashes() {
    // 200 nested arrays: past the depth bound of 128, so too_large rather than a stack overflow.
    let deep = format!(r#"[{{"name":"a","parameters":{}{}}}]"#, "[".repeat(200), "]".repeat(200));
    assert_eq!(error_code(assemble_json(&deep, "{}").unwrap_err()), "too_large");
    // And the instance still answers afterwards (a panic would have aborted it).
    assert!(assemble_json(TOOLBOX, OPTIONS).is_ok());
}

/// Calls unwrap cannot read: `(call JSON text, code)`. Model mistakes are answers, not errors.
const CALL_ERRORS: &[(&str, &str)] =
    &[("null", "invalid_call"), (r#""tool_call""#, "invalid_call"), ("[1]", "invalid_call"), ("{", "invalid_call")];

#[wasm_bindgen_test]
fn unreadable_calls_throw_invalid_call() {
    let shelf = ShelfHandle::new(room(TOOLBOX), TOOLBOX.len(), OPTIONS).unwrap();
    for (call, code) in CALL_ERRORS {
        assert_eq!(error_code(unwrap_json(TOOLBOX, call, OPTIONS).unwrap_err()), *code, "{call}");
        assert_eq!(error_code(shelf.unwrap(call).unwrap_err()), *code, "{call} (ShelfHandle)");
    }
}

/// `(query, limit, expected names of the matches, whether the no-match server list is present)`.
const SEARCHES: &[(&str, Option<u32>, &[&str], bool)] = &[
    // Every tool sharing a word is a match (SPEC §4): list_issues comes second, partial.
    ("create issue", None, &["mcp__linear__create_issue", "mcp__linear__list_issues"], false),
    ("linear issues", None, &["mcp__linear__list_issues", "mcp__linear__create_issue"], false),
    ("linear issues", Some(1), &["mcp__linear__list_issues"], false),
    ("CREATE_ISSUE", None, &["mcp__linear__create_issue", "mcp__linear__list_issues"], false),
    ("send gmail email", None, &[], true),
    ("read_file", None, &[], true), // direct tools are not on the shelf
];

fn match_names(result: &Value) -> Vec<&str> {
    at(result, "matches").as_array().unwrap().iter().map(|m| text_at(m, "name")).collect()
}

#[wasm_bindgen_test]
fn search_finds_deferred_tools_only() {
    for (query, limit, expected, no_match) in SEARCHES {
        let r = parse(&search_json(TOOLBOX, query, OPTIONS, *limit).unwrap());
        assert_eq!(match_names(&r), *expected, "{query}");
        assert_eq!(r.get("servers").is_some(), *no_match, "{query}: {}", r.to_json());
        assert_eq!(at(&r, "totalAvailable").as_f64(), Some(2.0));
    }
    let hit = parse(&search_json(TOOLBOX, "create issue", OPTIONS, None).unwrap());
    assert_eq!(at(&hit, "matches.0.required").to_json(), r#"["title"]"#);
    assert_eq!(at(&hit, "matches.0.partial").to_json(), "false");
    assert_eq!(at(&hit, "matches.1.partial").to_json(), "true");
    let absent = parse(&search_json(TOOLBOX, "create jira issue", OPTIONS, None).unwrap());
    assert_eq!(at(&absent, "unknownWords").to_json(), r#"["jira"]"#);
    assert_eq!(text_at(&hit, "matches.0.server"), "linear");
    assert!(at(&hit, "matches.0.score").as_f64().unwrap() > 0.0);
}

#[wasm_bindgen_test]
fn an_empty_query_is_a_model_error_not_a_throw() {
    let r = parse(&search_json(TOOLBOX, "   ", OPTIONS, None).unwrap());
    assert!(text_at(&r, "error").starts_with("query is required"));
    assert_eq!(match_names(&r), Vec::<&str>::new());
}

#[wasm_bindgen_test]
fn describe_loads_deferred_tools_and_nothing_else() {
    let d = parse(&describe_json(TOOLBOX, "create_issue", OPTIONS).unwrap());
    assert_eq!(text_at(&d, "server"), "linear");
    assert_eq!(text_at(&d, "description"), "Create a new issue in Linear.");
    assert_eq!(at(&d, "parameters.required").to_json(), r#"["title"]"#);
    for name in ["read_file", "nope", ""] {
        assert_eq!(describe_json(TOOLBOX, name, OPTIONS).unwrap(), "null", "{name}");
    }
}

/// `(call JSON text, expected kind, [(path, expected JSON)])`.
type UnwrapCase = (&'static str, &'static str, &'static [(&'static str, &'static str)]);

/// One call of each provider's shape, and each kind of answer.
const UNWRAPS: &[UnwrapCase] = &[
    (
        r#"{"name":"tool_call","arguments":{"name":"create_issue","arguments":{"title":"x","count":"3"}}}"#,
        "call",
        &[
            ("server", r#""linear""#),
            ("tool", r#""create_issue""#),
            ("arguments", r#"{"title":"x","count":3}"#),
            ("viaBridge", "true"),
        ],
    ),
    (
        r#"{"id":"c1","type":"function","function":{"name":"tool_call","arguments":"{\"name\":\"create_issue\",\"arguments\":{\"title\":5}}"}}"#,
        "reject",
        &[("id", r#""c1""#)],
    ),
    (r#"{"type":"tool_use","id":"t1","name":"tool_search","input":{"query":"issue"}}"#, "answer", &[("id", r#""t1""#)]),
    (
        r#"{"type":"function_call","call_id":"r1","name":"tool_describe","arguments":"{\"name\":\"list_issues\"}"}"#,
        "answer",
        &[("id", r#""r1""#)],
    ),
    // A direct tool with object arguments: untouched, so the JS side hands back the caller's object
    // (and the boundary does not write it).
    (
        r#"{"name":"read_file","arguments":{"path":"a"}}"#,
        "call",
        &[("viaBridge", "false"), ("untouched", r#""arguments""#), ("arguments", "null")],
    ),
    (
        r#"{"type":"tool_use","id":"t2","name":"read_file","input":{"path":"a"}}"#,
        "call",
        &[("untouched", r#""input""#), ("arguments", "null")],
    ),
    (
        r#"{"id":"c2","type":"function","function":{"name":"read_file","arguments":{"path":"a"}}}"#,
        "call",
        &[("untouched", r#""function.arguments""#)],
    ),
    (r#"{"name":"tool_call","arguments":{"name":"read_file","arguments":{}}}"#, "reject", &[]),
    (r#"{"name":"tool_call","arguments":{"name":"nope","arguments":{}}}"#, "reject", &[]),
    (r#"{"name":""}"#, "reject", &[]),
];

#[wasm_bindgen_test]
fn unwrap_reads_every_provider_shape() {
    for (call, kind, checks) in UNWRAPS {
        let u = parse(&unwrap_json(TOOLBOX, call, OPTIONS).unwrap());
        assert_eq!(text_at(&u, "kind"), *kind, "{call}: {}", u.to_json());
        for (path, expected) in *checks {
            assert_eq!(at(&u, path).to_json(), *expected, "{call} at {path}");
        }
    }
}

#[wasm_bindgen_test]
fn a_search_answer_is_the_snake_case_json_the_model_reads() {
    let u = parse(
        &unwrap_json(TOOLBOX, r#"{"name":"tool_search","arguments":{"query":"create issue"}}"#, OPTIONS).unwrap(),
    );
    let content = parse(text_at(&u, "content"));
    assert_eq!(at(&content, "total_available").as_f64(), Some(2.0));
    assert_eq!(text_at(&content, "matches.0.name"), "mcp__linear__create_issue");
    assert!(content.get("totalAvailable").is_none() && at(&content, "matches.0").get("score").is_none());
}

/// `TOOLBOX` as Anthropic tools.
const ANTHROPIC_TOOLBOX: &str = r#"{"tools":[{"name":"read_file","description":"Read a file.","input_schema":{"type":"object"}}],
"servers":{"linear":[{"name":"create_issue","description":"Create a new issue in Linear.","input_schema":{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}}]}}"#;

/// Native mode through the binding: the search answer's content is blocks (not text), and
/// `assemble_with` the conversation carries the referenced deferred tool.
#[wasm_bindgen_test]
fn native_answers_and_assemble_with_cross_the_binding() {
    let options = r#"{"mode":"native"}"#;
    let handle = ShelfHandle::new(room(ANTHROPIC_TOOLBOX), ANTHROPIC_TOOLBOX.len(), options).unwrap();
    let u = parse(
        &handle
            .unwrap(r#"{"type":"tool_use","id":"t","name":"tool_search","input":{"query":"create issue"}}"#)
            .unwrap(),
    );
    // The reference alone: its name identifies the tool by itself (SPEC §16).
    assert_eq!(at(&u, "content").to_json(), r#"[{"type":"tool_reference","tool_name":"mcp__linear__create_issue"}]"#);
    let context = format!(
        r#"{{"messages":[{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t","content":{}}}]}}]}}"#,
        at(&u, "content").to_json()
    );
    let with = parse(&handle.assemble_with(&context).unwrap());
    assert_eq!(text_at(&with, "mode"), "native");
    assert_eq!(text_at(&with, "tools.2.name"), "mcp__linear__create_issue");
    let none = parse(&handle.assemble_with(r#"{"messages":[]}"#).unwrap());
    assert_eq!(at(&none, "tools").as_array().map(<[Value]>::len), Some(2));
    assert_eq!(error_code(handle.assemble_with("{").unwrap_err()), "invalid_toolbox");
}

/// Numbers the core writes (json::js_number_text) read as JS writes them: `String(x)` for a
/// spread of magnitudes, halfway ties of the last digit (where round-half-even decides), and
/// random bit patterns.
#[wasm_bindgen_test]
fn numbers_are_written_as_js_writes_them() {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut values =
        vec![0.1, 1e21, 1e-7, 123456789012345680000.0, 5e-324, f64::MAX, 2787802916184.9062, -0.5, 1.5e300];
    for _ in 0..20_000 {
        let bits = next();
        values.push(f64::from_bits(bits));
        values.push((bits % 1_000_000) as f64 / 1000.0);
        values.push((bits >> 11) as f64 / 1e3);
    }
    for x in values.into_iter().filter(|x| x.is_finite()) {
        let js = String::from(js_sys::Number::from(x).to_string_with_radix(10).unwrap());
        let js = if js == "-0" { String::from("0") } else { js };
        assert_eq!(Value::float(x).to_json(), js, "{}", x.to_bits());
    }
}
