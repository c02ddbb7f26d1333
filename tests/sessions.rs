//! SPEC §14, conversations correct across turns, through the Rust API: a model-based property test
//! drives random sessions (attach, detach, replace, clashing servers, odd names, searches, calls of
//! loaded, unloaded and detached tools, deep and malformed history) in both modes and both
//! providers, and after every step checks the request with the validators of
//! `tests/common/providers.rs` and the routing against the model's own bookkeeping; then one
//! deterministic test per known regression, and the validators' own tests.
#![cfg(not(target_arch = "wasm32"))]

mod common;
#[path = "common/session_model.rs"]
mod session_model;

use common::providers::{anthropic_request, responses_request};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use session_model::*;
use toolshelf::json::Value;
use toolshelf::Shelf;

// ---------------------------------------------------------------------------------------------
// Strategies and the property tests
// ---------------------------------------------------------------------------------------------

fn pick(huge: bool) -> BoxedStrategy<(u8, u16)> {
    // 9–12: the hostile servers of SPEC §16 (forged names and descriptions, sanitise-alike names).
    let small = prop_oneof![16 => (0u8..6, Just(0u16)), 1 => (6u8..8, Just(0u16)), 4 => (9u8..13, Just(0u16))];
    if huge {
        prop_oneof![3 => small, 1 => (Just(8u8), 0u16..2000)].boxed()
    } else {
        small.boxed()
    }
}

fn step(huge: bool) -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => pick(huge).prop_map(|(p, e)| Step::Attach(p, e)),
        2 => any::<u8>().prop_map(Step::Detach),
        1 => (any::<u8>(), any::<u8>()).prop_map(|(i, seed)| Step::Replace(i, seed)),
        6 => (any::<u8>(), 0u8..3).prop_map(|(i, k)| Step::Search(i, k)),
        5 => (any::<u8>(), any::<bool>()).prop_map(|(i, d)| Step::CallLoaded(i, d)),
        2 => any::<u8>().prop_map(Step::CallUnloaded),
        3 => any::<u8>().prop_map(Step::CallDetached),
        1 => Just(Step::CallDirect),
        1 => any::<u8>().prop_map(Step::Describe),
        1 => (200u16..5000, 0u8..4).prop_map(|(d, k)| Step::DeepJunk(d, k)),
        1 => (0u8..8).prop_map(Step::Malformed),
        1 => Just(Step::UserText),
        1 => Just(Step::Fresh),
        1 => any::<u8>().prop_map(Step::ShadowDirect),
        1 => Just(Step::SwitchMode),
        1 => Just(Step::PreviousResponse),
    ]
}

fn script(huge: bool) -> impl Strategy<Value = Script> {
    let initial = prop::collection::vec(pick(false), 0..3);
    let steps = prop::collection::vec(step(huge), 1..if huge { 10 } else { 28 });
    let pins = prop_oneof![4 => Just(0u8), 1 => 1u8..4];
    let ids = prop_oneof![2 => Just(0u8), 1 => 1u8..3];
    (initial, steps, 0u16..2000, pins, any::<bool>(), ids).prop_map(
        move |(mut initial, steps, n, pins, hostile, ids)| {
            if huge {
                initial.push((8, n));
            }
            Script { initial, steps, pins, hostile, ids }
        },
    )
}

/// [`run`] as a proptest case.
fn run_case(provider: Provider, mode: Mode, script: &Script) -> Result<(), TestCaseError> {
    run(provider, mode, script).map_err(TestCaseError::fail)
}

/// `cases` sessions, or `PROPTEST_CASES` of them when set (a longer hunt than CI's).
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(cases);
    ProptestConfig { cases, failure_persistence: None, max_shrink_iters: 2048, ..ProptestConfig::default() }
}

/// Sessions per provider and mode (four tests), each of up to 27 steps: about a second a test.
const CASES: u32 = 400;

proptest! {
    #![proptest_config(config(CASES))]

    #[test]
    fn sessions_bridge_anthropic(script in script(false)) {
        run_case(Provider::Anthropic, Mode::Bridge, &script)?;
    }

    #[test]
    fn sessions_bridge_responses(script in script(false)) {
        run_case(Provider::Responses, Mode::Bridge, &script)?;
    }

    #[test]
    fn sessions_native_anthropic(script in script(false)) {
        run_case(Provider::Anthropic, Mode::Native, &script)?;
    }

    #[test]
    fn sessions_native_responses(script in script(false)) {
        run_case(Provider::Responses, Mode::Native, &script)?;
    }
}

proptest! {
    #![proptest_config(config(4))]

    /// A server of 10,001 to 12,000 tools beside small ones (Anthropic's 10,000-tool limit).
    #[test]
    fn sessions_with_a_huge_server(script in script(true), native in any::<bool>(), anthropic in any::<bool>()) {
        let provider = if anthropic { Provider::Anthropic } else { Provider::Responses };
        run_case(provider, if native { Mode::Native } else { Mode::Bridge }, &script)?;
    }
}

// ---------------------------------------------------------------------------------------------
// The known regressions, one deterministic test each (SPEC §14)
// ---------------------------------------------------------------------------------------------

const GITHUB: &[(&str, &str)] = &[
    ("list_issues", "[K1] List issues in a GitHub repository."),
    ("create_issue", "[K2] Create an issue in a GitHub repository."),
];
const LINEAR: &[(&str, &str)] =
    &[("list_issues", "[K3] List issues in a Linear team."), ("update_issue", "[K4] Update a Linear issue.")];
const SLACK: &[(&str, &str)] = &[("post_message", "[K5] Post a message to a Slack channel.")];

/// A grouped toolbox in `provider`'s format: `read_file` direct, then each server's tools.
fn toolbox_of(provider: Provider, servers: &[(&str, &[(&str, &str)])]) -> Value {
    let direct = def(provider, "read_file", "Read a file from the workspace.", path_schema());
    let servers = servers.iter().map(|(server, tools)| {
        let defs = tools.iter().map(|(name, description)| def(provider, name, description, query_schema()));
        (server.to_string(), Value::Array(defs.collect()))
    });
    obj([("tools", Value::Array(vec![direct])), ("servers", Value::Object(servers.collect()))])
}

fn shelf_of(provider: Provider, mode: Mode, servers: &[(&str, &[(&str, &str)])]) -> Shelf {
    Shelf::new(&toolbox_of(provider, servers), &options(mode)).unwrap()
}

fn context_of(provider: Provider, history: &[Value]) -> Value {
    let key = if provider == Provider::Anthropic { "messages" } else { "input" };
    obj([(key, Value::Array(history.to_vec()))])
}

fn unwrapped(shelf: &Shelf, call: &Value, provider: Provider, history: &[Value]) -> Value {
    let context = context_of(provider, history);
    shelf.unwrap_with(call, &context).unwrap_or_else(|e| panic!("unwrap_with({}): {e}", call.to_json())).to_value()
}

/// The next request's tools for `history`, checked with the provider's validator.
fn next_tools(shelf: &Shelf, provider: Provider, history: &[Value], when: &str) -> Vec<Value> {
    let tools = shelf.assemble_with(&context_of(provider, history)).tools;
    if let Err(e) = validate(provider, &Value::Array(tools.clone()), &Value::Array(history.to_vec())) {
        panic!("{when}: the provider would refuse the request: {e}");
    }
    tools
}

fn def_named<'a>(tools: &'a [Value], name: &str) -> Option<&'a Value> {
    tools.iter().find(|t| text(t, "name") == Some(name))
}

fn tag(def: &Value) -> Option<usize> {
    text(def, "description").and_then(tag_of)
}

/// The `tool_reference` names of a native Anthropic search answer.
fn references(u: &Value) -> Vec<String> {
    let blocks = u.get("content").and_then(Value::as_array).unwrap_or(&[]);
    blocks
        .iter()
        .filter(|b| text(b, "type") == Some("tool_reference"))
        .filter_map(|b| text(b, "tool_name"))
        .map(String::from)
        .collect()
}

fn assert_routes(u: &Value, server: &str, tool: &str, what: &str) {
    let routed = (text(u, "kind"), text(u, "server"), text(u, "tool").or(text(u, "name")));
    assert_eq!(routed, (Some("call"), Some(server), Some(tool)), "{what}: {}", u.to_json());
}

fn assert_unavailable(u: &Value, what: &str) {
    assert_eq!(text(u, "kind"), Some("reject"), "{what}: a call of a detached tool must be a reject: {}", u.to_json());
    assert_eq!(text(u, "code"), Some("unavailable_tool"), "{what}: {}", u.to_json());
}

/// What the agent appends after `call` answered by `u` (the tool result / output items).
fn reply(provider: Provider, call: &Value, u: &Value) -> Vec<Value> {
    let kind = text(u, "kind").unwrap_or("");
    let content = match kind {
        "call" => s("ok: the tool ran"),
        _ => u.get("content").cloned().unwrap_or_else(|| s("")),
    };
    match provider {
        Provider::Anthropic => vec![tool_result(text(call, "id").unwrap(), content, kind == "reject")],
        Provider::Responses => match u.get("item") {
            Some(item) => vec![item.clone()],
            None => vec![output(text(call, "call_id").unwrap(), content.as_str().unwrap_or(""))],
        },
    }
}

/// The model's search in the shape the request offered (`native` or bridge).
fn search_of(provider: Provider, native: bool, id: &str, query: &str) -> Value {
    let arguments = obj([("query", s(query))]);
    match (provider, native) {
        (Provider::Anthropic, _) => tool_use(id, "tool_search", arguments),
        (Provider::Responses, true) => search_call(id, query),
        (Provider::Responses, false) => function_call(id, None, "tool_search", arguments.to_json()),
    }
}

/// Appends the model's `call` and the agent's reply; returns unwrap's answer.
fn turn(shelf: &Shelf, provider: Provider, history: &mut Vec<Value>, call: Value) -> Value {
    history.push(if provider == Provider::Anthropic { assistant(call.clone()) } else { call.clone() });
    let u = unwrapped(shelf, &call, provider, history);
    history.extend(reply(provider, &call, &u));
    u
}

/// Regression 1: GitHub's `list_issues` loaded by a search (as `mcp__github__list_issues`), then
/// Linear (with its own `list_issues`) attached: the next native Anthropic request still defines
/// the loaded name (its `tool_reference` resolves) as GitHub's tool, and a call of it goes to
/// GitHub, also after Linear is detached again.
#[test]
fn regression_1_attaching_a_clashing_server_keeps_the_loaded_name() {
    let p = Provider::Anthropic;
    let mut shelf = shelf_of(p, Mode::Native, &[("github", GITHUB)]);
    let mut history = vec![user_text("Which issues are open?")];
    let u = turn(&shelf, p, &mut history, tool_use("toolu_01", "tool_search", obj([("query", s("list_issues"))])));
    assert!(
        references(&u).iter().any(|r| r == "mcp__github__list_issues"),
        "the search loads list_issues: {}",
        u.to_json()
    );
    shelf.update(&toolbox_of(p, &[("github", GITHUB), ("linear", LINEAR)])).unwrap();
    let tools = next_tools(&shelf, p, &history, "after Linear was attached");
    let loaded = def_named(&tools, "mcp__github__list_issues").map(tag);
    assert_eq!(loaded, Some(Some(1)), "list_issues is still GitHub's tool in the array");
    let call = tool_use("toolu_02", "mcp__github__list_issues", obj([("query", s("open"))]));
    let u = turn(&shelf, p, &mut history, call);
    assert_routes(&u, "github", "list_issues", "list_issues after Linear was attached");
    shelf.update(&toolbox_of(p, &[("github", GITHUB)])).unwrap();
    next_tools(&shelf, p, &history, "after Linear was detached again");
    let u =
        turn(&shelf, p, &mut history, tool_use("toolu_03", "mcp__github__list_issues", obj([("query", s("closed"))])));
    assert_routes(&u, "github", "list_issues", "list_issues after Linear was detached again");
}

/// Regression 2 (native Anthropic): with GitHub and Linear attached the model loads
/// `mcp__github__list_issues`; Linear is detached: the referenced name is still defined (as
/// GitHub's tool) and a call of it goes to GitHub.
#[test]
fn regression_2_detaching_the_clashing_server_keeps_the_qualified_name() {
    let p = Provider::Anthropic;
    let mut shelf = shelf_of(p, Mode::Native, &[("github", GITHUB), ("linear", LINEAR)]);
    let mut history = vec![user_text("Which issues are open?")];
    // The exact own name: both servers' list_issues load (a search loads one tool by default).
    let u = turn(&shelf, p, &mut history, tool_use("toolu_01", "tool_search", obj([("query", s("list_issues"))])));
    let refs = references(&u);
    assert!(refs.iter().any(|r| r == "mcp__github__list_issues"), "the search loads GitHub's tool: {refs:?}");
    shelf.update(&toolbox_of(p, &[("github", GITHUB)])).unwrap();
    let tools = next_tools(&shelf, p, &history, "after Linear was detached");
    let loaded = def_named(&tools, "mcp__github__list_issues").map(tag);
    assert_eq!(loaded, Some(Some(1)), "mcp__github__list_issues is still GitHub's tool in the array");
    let call = tool_use("toolu_02", "mcp__github__list_issues", obj([("query", s("open"))]));
    let u = turn(&shelf, p, &mut history, call);
    assert_routes(&u, "github", "list_issues", "mcp__github__list_issues after Linear was detached");
}

/// Regression 2 (bridge, both formats): after Linear is detached, `tool_call` of the qualified
/// name the model saw in the search answer routes to GitHub's `list_issues`.
#[test]
fn regression_2_bridge_qualified_name_after_the_clash_is_gone() {
    for p in [Provider::Anthropic, Provider::Responses] {
        let mut shelf = shelf_of(p, Mode::Bridge, &[("github", GITHUB), ("linear", LINEAR)]);
        let mut history = vec![user_text("Which issues are open?")];
        let u = turn(&shelf, p, &mut history, search_of(p, false, "call_01", "list issues"));
        let content = text(&u, "content").unwrap_or("");
        assert!(content.contains("mcp__github__list_issues"), "{p:?}: the answer names it: {content}");
        shelf.update(&toolbox_of(p, &[("github", GITHUB)])).unwrap();
        next_tools(&shelf, p, &history, "after Linear was detached");
        let inner = obj([("name", s("mcp__github__list_issues")), ("arguments", obj([("query", s("open"))]))]);
        let call = match p {
            Provider::Anthropic => tool_use("call_02", "tool_call", inner),
            Provider::Responses => function_call("call_02", None, "tool_call", inner.to_json()),
        };
        let u = turn(&shelf, p, &mut history, call);
        assert_routes(&u, "github", "list_issues", &format!("{p:?}: tool_call mcp__github__list_issues"));
    }
}

/// Regression 3 (native Anthropic): the history references GitHub's `list_issues`; GitHub is
/// detached: the array carries a deferred stand-in under that name (the reference resolves), a
/// warning says so, and a call of it is a reject with code `unavailable_tool`.
#[test]
fn regression_3_a_detached_referenced_tool_is_unavailable_not_dangling() {
    let p = Provider::Anthropic;
    let mut shelf = shelf_of(p, Mode::Native, &[("github", GITHUB), ("slack", SLACK)]);
    let mut history = vec![user_text("Which issues are open?")];
    let u = turn(&shelf, p, &mut history, tool_use("toolu_01", "tool_search", obj([("query", s("list_issues"))])));
    assert!(references(&u).iter().any(|r| r == "mcp__github__list_issues"), "{}", u.to_json());
    shelf.update(&toolbox_of(p, &[("slack", SLACK)])).unwrap();
    let assembly = shelf.assemble_with(&context_of(p, &history));
    assert!(!assembly.facts.warnings.is_empty(), "a warning says list_issues is no longer available");
    let tools = next_tools(&shelf, p, &history, "after GitHub was detached");
    let stand_in = def_named(&tools, "mcp__github__list_issues").expect("a stand-in for list_issues");
    assert_eq!(stand_in.get("defer_loading"), Some(&Value::Bool(true)), "{}", stand_in.to_json());
    let description = text(stand_in, "description");
    assert_ne!(
        description,
        Some(GITHUB[0].1),
        "the stand-in says the tool is no longer available: {}",
        stand_in.to_json()
    );
    let u =
        turn(&shelf, p, &mut history, tool_use("toolu_02", "mcp__github__list_issues", obj([("query", s("open"))])));
    assert_unavailable(&u, "list_issues after GitHub was detached");
}

/// Regression 7 (native Anthropic, a tool pinned by `alwaysLoad`): the history loaded Linear's
/// `list_issues`; Linear is detached and GitHub, whose `list_issues` is kept direct, attached: the
/// stand-in keeps Linear's name (a call of it is unavailable) and GitHub's tool goes by its own
/// shown name, which routes to GitHub; no two tools share a name.
#[test]
fn regression_7_a_pinned_tool_never_takes_a_name_the_conversation_gave_another() {
    let p = Provider::Anthropic;
    let pinned = parse(r#"{"mode":"native","contextLength":200000,"alwaysLoad":["github/list_issues"]}"#);
    let mut shelf = Shelf::new(&toolbox_of(p, &[("linear", LINEAR)]), &pinned).unwrap();
    let mut history = vec![user_text("Which issues are open?")];
    let u = turn(&shelf, p, &mut history, tool_use("toolu_01", "tool_search", obj([("query", s("list_issues"))])));
    assert!(references(&u).iter().any(|r| r == "mcp__linear__list_issues"), "{}", u.to_json());
    shelf.update(&toolbox_of(p, &[("github", GITHUB)])).unwrap();
    let tools = next_tools(&shelf, p, &history, "after Linear was swapped for GitHub");
    let stand_in = def_named(&tools, "mcp__linear__list_issues").expect("the referenced name is still defined");
    assert_eq!(stand_in.get("defer_loading"), Some(&Value::Bool(true)), "{}", stand_in.to_json());
    let github = def_named(&tools, "mcp__github__list_issues").expect("GitHub's pinned tool, qualified");
    assert_eq!((tag(github), github.get("defer_loading")), (Some(1), None), "{}", github.to_json());
    let u =
        turn(&shelf, p, &mut history, tool_use("toolu_02", "mcp__linear__list_issues", obj([("query", s("open"))])));
    assert_unavailable(&u, "list_issues after Linear was detached");
    let call = tool_use("toolu_03", "mcp__github__list_issues", obj([("query", s("open"))]));
    let u = turn(&shelf, p, &mut history, call);
    assert_routes(&u, "github", "list_issues", "the pinned tool by its qualified name");
    next_tools(&shelf, p, &history, "after the pinned tool was called");
}

/// Regression 3 (native Responses): GitHub's namespace loaded by a `tool_search_output`, GitHub
/// detached: a call in that namespace is a reject with code `unavailable_tool`.
#[test]
fn regression_3_responses_detached_namespace_is_unavailable() {
    let p = Provider::Responses;
    let mut shelf = shelf_of(p, Mode::Native, &[("github", GITHUB), ("slack", SLACK)]);
    let mut history = vec![user_text("Which issues are open?")];
    let u = turn(&shelf, p, &mut history, search_call("call_01", "list_issues"));
    let item = u.get("item").unwrap_or_else(|| panic!("an output item: {}", u.to_json()));
    let space = item.get("tools").and_then(Value::as_array).and_then(|t| t.first()).expect("a namespace");
    let namespace = text(space, "name").unwrap().to_string();
    shelf.update(&toolbox_of(p, &[("slack", SLACK)])).unwrap();
    next_tools(&shelf, p, &history, "after GitHub was detached");
    let call = function_call("call_02", Some(&namespace), "list_issues", r#"{"query":"open"}"#.into());
    let u = turn(&shelf, p, &mut history, call);
    assert_unavailable(&u, "github.list_issues after GitHub was detached");
}

/// Regression 3 (bridge, both formats): a name seen in a search answer, its server detached:
/// `tool_call` of it is a reject with code `unavailable_tool`.
#[test]
fn regression_3_bridge_detached_tool_is_unavailable() {
    for p in [Provider::Anthropic, Provider::Responses] {
        let mut shelf = shelf_of(p, Mode::Bridge, &[("github", GITHUB), ("slack", SLACK)]);
        let mut history = vec![user_text("Which issues are open?")];
        let u = turn(&shelf, p, &mut history, search_of(p, false, "call_01", "list_issues"));
        assert!(text(&u, "content").is_some_and(|c| c.contains("\"list_issues\"")), "{}", u.to_json());
        shelf.update(&toolbox_of(p, &[("slack", SLACK)])).unwrap();
        next_tools(&shelf, p, &history, "after GitHub was detached");
        let inner = obj([("name", s("list_issues")), ("arguments", obj([("query", s("open"))]))]);
        let call = match p {
            Provider::Anthropic => tool_use("call_02", "tool_call", inner),
            Provider::Responses => function_call("call_02", None, "tool_call", inner.to_json()),
        };
        let u = turn(&shelf, p, &mut history, call);
        assert_unavailable(&u, &format!("{p:?}: tool_call list_issues after GitHub was detached"));
    }
}

/// MCP tool names the providers refuse: `/`, `.`, spaces.
const ODD: &[(&str, &str)] = &[
    ("user-profile/update", "[K1] Update the user profile."),
    ("Github.Get File", "[K2] Get one file from GitHub by its path."),
    ("events.search", "[K3] Search events by keyword."),
    ("list_issues", "[K4] List issues in the tracker."),
];

/// Regression 4 (native Anthropic): every name sent is valid, with or without history, and a call
/// of the sent name routes back to the server-side name.
#[test]
fn regression_4_odd_tool_names_native_anthropic() {
    let p = Provider::Anthropic;
    let shelf = shelf_of(p, Mode::Native, &[("odd", ODD)]);
    let first = vec![user_text("Update my profile.")];
    let all = shelf.assemble().tools;
    if let Err(e) = anthropic_request(&Value::Array(all.clone()), &Value::Array(first.clone())) {
        panic!("assemble() without history: {e}");
    }
    for (k, (own, _)) in ODD.iter().enumerate() {
        let mut history = first.clone();
        let u = turn(&shelf, p, &mut history, tool_use("toolu_01", "tool_search", obj([("query", s(own))])));
        let tools = next_tools(&shelf, p, &history, &format!("after a search for {own}"));
        let sent = references(&u)
            .into_iter()
            .find(|r| def_named(&tools, r).and_then(tag) == Some(k + 1))
            .unwrap_or_else(|| panic!("the search for {own} loads it: {}", u.to_json()));
        let u = turn(&shelf, p, &mut history, tool_use("toolu_02", &sent, obj([("query", s("x"))])));
        assert_routes(&u, "odd", own, &format!("calling {own} as {sent}"));
    }
}

/// Regression 4 (native Responses): every function name in the `tool_search_output` is valid, and a
/// call of it (in its namespace) routes back to the server-side name.
#[test]
fn regression_4_odd_tool_names_native_responses() {
    let p = Provider::Responses;
    let shelf = shelf_of(p, Mode::Native, &[("odd", ODD)]);
    for (k, (own, _)) in ODD.iter().enumerate() {
        let mut history = vec![user_text("Update my profile.")];
        let u = turn(&shelf, p, &mut history, search_call("call_01", own));
        next_tools(&shelf, p, &history, &format!("after a search for {own}"));
        let item = u.get("item").unwrap_or_else(|| panic!("an output item: {}", u.to_json()));
        let spaces = item.get("tools").and_then(Value::as_array).unwrap_or(&[]);
        let (namespace, name) = spaces
            .iter()
            .flat_map(|space| {
                space.get("tools").and_then(Value::as_array).unwrap_or(&[]).iter().map(move |f| (space, f))
            })
            .find(|(_, f)| tag(f) == Some(k + 1))
            .map(|(space, f)| (text(space, "name").unwrap().to_string(), text(f, "name").unwrap().to_string()))
            .unwrap_or_else(|| panic!("the search for {own} loads it: {}", item.to_json()));
        let call = function_call("call_02", Some(&namespace), &name, r#"{"query":"x"}"#.into());
        let u = turn(&shelf, p, &mut history, call);
        assert_routes(&u, "odd", own, &format!("calling {own} as {namespace}.{name}"));
    }
}

/// Regression 4 (odd server names, both providers natively): a clash qualifies names with server
/// names holding spaces, `@`, `.` and 80 characters; every name and namespace sent is valid and
/// routes back to its server.
#[test]
fn regression_4_odd_server_names_native() {
    let servers: &[(&str, &[(&str, &str)])] = &[
        (
            "Ant Design Components",
            &[
                ("list_issues", "[K1] List issues of the design system."),
                ("list-components", "[K2] List the components."),
            ],
        ),
        (
            "playwright@1.2",
            &[("list_issues", "[K3] List browser test issues."), ("browser_navigate", "[K4] Navigate to a URL.")],
        ),
        (LONG_SERVER, &[("query", "[K5] Run a warehouse query.")]),
    ];
    let owners = [
        (1, 0, "list_issues"),
        (2, 0, "list-components"),
        (3, 1, "list_issues"),
        (4, 1, "browser_navigate"),
        (5, 2, "query"),
    ];
    let p = Provider::Anthropic;
    let shelf = shelf_of(p, Mode::Native, servers);
    let first = vec![user_text("What is broken?")];
    let all = shelf.assemble().tools;
    if let Err(e) = anthropic_request(&Value::Array(all.clone()), &Value::Array(first.clone())) {
        panic!("Anthropic, assemble() without history: {e}");
    }
    for (k, server, own) in owners {
        let sent = all.iter().find(|d| tag(d) == Some(k)).and_then(|d| text(d, "name")).unwrap().to_string();
        let mut history = first.clone();
        let u = turn(&shelf, p, &mut history, tool_use("toolu_01", &sent, obj([("query", s("x"))])));
        assert_routes(&u, servers[server].0, own, &format!("Anthropic: calling {own} as {sent}"));
    }
    let p = Provider::Responses;
    let shelf = shelf_of(p, Mode::Native, servers);
    for (k, server, own) in owners {
        let mut history = first.clone();
        let u = turn(&shelf, p, &mut history, search_call("call_01", own));
        next_tools(&shelf, p, &history, &format!("Responses: after a search for {own}"));
        let spaces = u.get("item").and_then(|i| i.get("tools")).and_then(Value::as_array).unwrap_or(&[]);
        let found = spaces.iter().find_map(|space| {
            let functions = space.get("tools").and_then(Value::as_array).unwrap_or(&[]);
            let f = functions.iter().find(|f| tag(f) == Some(k))?;
            Some((text(space, "name")?.to_string(), text(f, "name")?.to_string()))
        });
        let (namespace, name) =
            found.unwrap_or_else(|| panic!("Responses: the search for {own} loads K{k}: {}", u.to_json()));
        let call = function_call("call_02", Some(&namespace), &name, r#"{"query":"x"}"#.into());
        let u = turn(&shelf, p, &mut history, call);
        assert_routes(&u, servers[server].0, own, &format!("Responses: calling {own} as {namespace}.{name}"));
    }
}

/// Regression 5: over 10,000 deferred Anthropic tools in native mode, without history: assemble
/// falls back to the bridge (with a warning), and unwrap answers a search in that mode too (a
/// string, not `tool_reference` blocks the array could not resolve).
#[test]
fn regression_5_over_the_anthropic_limit_unwrap_follows_the_bridge_fallback() {
    let p = Provider::Anthropic;
    let defs: Vec<Value> = (0..10_050)
        .map(|i| {
            def(p, &format!("get_record_{i}"), &format!("[K{i}] Get record number {i} of the ledger."), query_schema())
        })
        .collect();
    let toolbox = obj([
        ("tools", Value::Array(vec![def(p, "read_file", "Read a file.", path_schema())])),
        ("servers", obj([("ledger", Value::Array(defs))])),
    ]);
    let shelf = Shelf::new(&toolbox, &options(Mode::Native)).unwrap();
    let assembly = shelf.assemble();
    assert_eq!(assembly.facts.mode.as_str(), "bridge", "over 10,000 deferred tools: the bridge");
    assert!(!assembly.facts.warnings.is_empty(), "a warning says why");
    let first = vec![user_text("Find record 17.")];
    if let Err(e) = anthropic_request(&Value::Array(assembly.tools), &Value::Array(first)) {
        panic!("assemble() without history: {e}");
    }
    let call = tool_use("toolu_01", "tool_search", obj([("query", s("get record 17"))]));
    let u = shelf.unwrap(&call).unwrap().to_value();
    assert!(
        text(&u, "content").is_some(),
        "the request was assembled in bridge mode, so the search answer is bridge-shaped (text): {}",
        u.to_json().chars().take(300).collect::<String>()
    );
}

/// Regression 6: a history holding a tool_use input (or Responses arguments) nested ~500 levels,
/// under a direct and a deferred tool's name, and malformed deep parts: assemble_with and
/// unwrap_with keep working, in both modes and both providers.
#[test]
fn regression_6_a_deep_history_never_breaks_the_conversation() {
    for p in [Provider::Anthropic, Provider::Responses] {
        for mode in [Mode::Native, Mode::Bridge] {
            let label = format!("{p:?} {}", mode.as_str());
            let shelf = shelf_of(p, mode, &[("github", GITHUB)]);
            let mut history = vec![user_text("Read the notes, then list the issues.")];
            for (id, name) in [("call_d1", "read_file"), ("call_d2", "list_issues")] {
                match p {
                    Provider::Anthropic => history.push(assistant(tool_use(id, name, deep_object(500)))),
                    Provider::Responses => history.push(function_call(id, None, name, deep_text(500))),
                }
                history.push(if p == Provider::Anthropic {
                    tool_result(id, s("done"), false)
                } else {
                    output(id, "done")
                });
            }
            next_tools(&shelf, p, &history, &format!("{label}: with a deep history"));
            let native = mode == Mode::Native;
            let u = turn(&shelf, p, &mut history, search_of(p, native, "call_s", "list_issues"));
            assert_ne!(text(&u, "kind"), Some("reject"), "{label}: the search: {}", u.to_json());
            next_tools(&shelf, p, &history, &format!("{label}: after the search"));
            let inner = obj([("query", s("open"))]);
            let call = match (p, native) {
                (Provider::Anthropic, true) => tool_use("call_c", "list_issues", inner),
                (Provider::Anthropic, false) => {
                    tool_use("call_c", "tool_call", obj([("name", s("list_issues")), ("arguments", inner)]))
                }
                (Provider::Responses, true) => function_call("call_c", None, "list_issues", inner.to_json()),
                (Provider::Responses, false) => function_call(
                    "call_c",
                    None,
                    "tool_call",
                    obj([("name", s("list_issues")), ("arguments", inner)]).to_json(),
                ),
            };
            let u = turn(&shelf, p, &mut history, call);
            assert_routes(&u, "github", "list_issues", &label);
            // Malformed deep parts (refused by the provider whatever toolshelf does): still no error.
            let mut broken = history.clone();
            broken.push(obj([("role", s("user")), ("content", deep_array(3000))]));
            broken.push(obj([("type", s("tool_search_output")), ("tools", Value::Array(vec![deep_array(3000)]))]));
            let context = context_of(p, &broken);
            let _ = shelf.assemble_with(&context);
            let again = tool_use("call_x", "list_issues", obj([("query", s("x"))]));
            assert!(shelf.unwrap_with(&again, &context).is_ok(), "{label}: unwrap_with with malformed deep parts");
            broken.into_iter().for_each(dismantle);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The validators themselves
// ---------------------------------------------------------------------------------------------

const ANTHROPIC_TOOLS: &str = r#"[
  {"name":"read_file","description":"Read.","input_schema":{"type":"object"}},
  {"name":"tool_search","description":"Search.","input_schema":{"type":"object"}},
  {"name":"list_issues","description":"List.","input_schema":{"type":"object"},"defer_loading":true}
]"#;

const ANTHROPIC_MESSAGES: &str = r#"[
  {"role":"user","content":"Which issues are open?"},
  {"role":"assistant","content":[{"type":"text","text":"Searching."},{"type":"tool_use","id":"t1","name":"tool_search","input":{"query":"issues"}}]},
  {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"tool_reference","tool_name":"list_issues"},{"type":"text","text":"hint"}]}]},
  {"role":"user","content":"Also, be quick."},
  {"role":"assistant","content":[{"type":"tool_use","id":"t2","name":"list_issues","input":{}},{"type":"tool_use","id":"t3","name":"read_file","input":{"path":"a"}}]},
  {"role":"user","content":[{"type":"tool_result","tool_use_id":"t3","content":"file"},{"type":"tool_result","tool_use_id":"t2"},{"type":"text","text":"thanks"}]},
  {"role":"user","content":[{"type":"tool_reference","tool_name":"list_issues"}]}
]"#;

/// Replaces the first occurrence of `from` in `base` (which must hold it).
fn edited(base: &str, from: &str, to: &str) -> Value {
    assert!(base.contains(from), "{from}");
    parse(&base.replacen(from, to, 1))
}

#[test]
fn validator_anthropic_accepts_a_good_request() {
    anthropic_request(&parse(ANTHROPIC_TOOLS), &parse(ANTHROPIC_MESSAGES)).unwrap();
    let server_tool = r#"[{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"},
        {"name":"a-b_C9","input_schema":{"type":"object"},"defer_loading":true}]"#;
    anthropic_request(&parse(server_tool), &parse("[]")).unwrap();
}

#[test]
fn validator_anthropic_refuses_bad_requests() {
    let (tools, messages) = (ANTHROPIC_TOOLS, ANTHROPIC_MESSAGES);
    let long = "x".repeat(65);
    let many = format!("[{}]", vec![r#"{"name":"a","input_schema":{}}"#; 10_001].join(","));
    let cases: Vec<(&str, Value, Value, &str)> = vec![
        ("a dot in a name", edited(tools, "read_file", "read.file"), parse(messages), "should match pattern"),
        ("a space in a name", edited(tools, "read_file", "read file"), parse(messages), "should match pattern"),
        ("65 characters", edited(tools, "read_file", &long), parse(messages), "should match pattern"),
        (
            "no input_schema",
            edited(tools, r#""input_schema":{"type":"object"}}"#, r#""x":1}"#),
            parse(messages),
            "input_schema",
        ),
        ("a name twice", edited(tools, "read_file", "tool_search"), parse(messages), "unique"),
        (
            "all deferred",
            parse(r#"[{"name":"a","input_schema":{},"defer_loading":true}]"#),
            parse("[]"),
            "All tools have defer_loading",
        ),
        (
            "cache_control",
            edited(tools, r#""defer_loading":true"#, r#""defer_loading":true,"cache_control":{"type":"ephemeral"}"#),
            parse(messages),
            "cache_control",
        ),
        (
            "input_examples",
            edited(tools, r#""description":"Read.""#, r#""input_examples":[{}]"#),
            parse(messages),
            "input_examples",
        ),
        ("over 10,000 tools", parse(&many), parse("[]"), "over the limit"),
        (
            "a dangling reference in a tool_result",
            parse(tools),
            edited(messages, r#""tool_name":"list_issues"},{"type":"text""#, r#""tool_name":"gone"},{"type":"text""#),
            "no corresponding tool definition",
        ),
        (
            "a dangling top-level reference",
            parse(tools),
            edited(
                messages,
                r#"[{"type":"tool_reference","tool_name":"list_issues"}]}"#,
                r#"[{"type":"tool_reference","tool_name":"gone"}]}"#,
            ),
            "no corresponding tool definition",
        ),
        (
            "a reference to a loaded tool",
            parse(tools),
            edited(
                messages,
                r#""tool_name":"list_issues"},{"type":"text""#,
                r#""tool_name":"read_file"},{"type":"text""#,
            ),
            "defer_loading",
        ),
        (
            "a reference without a name",
            parse(tools),
            edited(messages, r#""tool_name":"list_issues"},{"type":"text""#, r#""name":"list_issues"},{"type":"text""#),
            "tool_name",
        ),
        (
            "a tool_use block in a tool_result",
            parse(tools),
            edited(
                messages,
                r#"{"type":"text","text":"hint"}"#,
                r#"{"type":"tool_use","id":"z","name":"a","input":{}}"#,
            ),
            "not allowed",
        ),
        (
            "tool_result content an object",
            parse(tools),
            edited(messages, r#""content":"file""#, r#""content":{"text":"file"}"#),
            "tool_result content is",
        ),
        (
            "a tool_use without its result",
            parse(tools),
            edited(messages, r#"{"type":"tool_result","tool_use_id":"t2"},"#, ""),
            "without tool_result blocks",
        ),
        (
            "a result of no tool_use",
            parse(tools),
            edited(
                messages,
                r#"{"type":"tool_result","tool_use_id":"t2"}"#,
                r#"{"type":"tool_result","tool_use_id":"t2"},{"type":"tool_result","tool_use_id":"t9"}"#,
            ),
            "unexpected `tool_use_id`",
        ),
        (
            "text before a result",
            parse(tools),
            edited(
                messages,
                r#"[{"type":"tool_result","tool_use_id":"t3""#,
                r#"[{"type":"text","text":"first"},{"type":"tool_result","tool_use_id":"t3""#,
            ),
            "FIRST",
        ),
        (
            "a message between use and result",
            parse(tools),
            edited(
                messages,
                r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1""#,
                r#"{"role":"user","content":"wait"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1""#,
            ),
            "FIRST",
        ),
        (
            "a system message",
            parse(tools),
            edited(messages, r#""role":"user","content":"Which"#, r#""role":"system","content":"Which"#),
            "neither user nor assistant",
        ),
        (
            "content a number",
            parse(tools),
            edited(messages, r#""content":"Which issues are open?""#, r#""content":42"#),
            "neither a string nor an array",
        ),
        (
            "input not an object",
            parse(tools),
            edited(messages, r#""input":{"path":"a"}"#, r#""input":"a""#),
            "not an object",
        ),
    ];
    for (label, tools, messages, wanted) in cases {
        match anthropic_request(&tools, &messages) {
            Ok(()) => panic!("{label}: accepted"),
            Err(e) => assert!(e.contains(wanted), "{label}: {e}"),
        }
    }
}

const RESPONSES_TOOLS: &str = r#"[
  {"type":"function","name":"read_file","description":"Read.","parameters":{"type":"object"}},
  {"type":"tool_search","execution":"client","description":"Search.","parameters":{"type":"object"}},
  {"type":"namespace","name":"crm","description":"CRM.","tools":[{"type":"function","name":"list_orders","defer_loading":true}]}
]"#;

const RESPONSES_INPUT: &str = r#"[
  {"role":"user","content":"Which issues are open?"},
  {"type":"tool_search_call","call_id":"s1","execution":"client","arguments":{"query":"issues"}},
  {"type":"tool_search_output","call_id":"s1","execution":"client","status":"completed","tools":[
    {"type":"namespace","name":"github","description":"GitHub tools.","tools":[
      {"type":"function","name":"list_issues","description":"List.","parameters":{"type":"object"}},
      {"type":"function","name":"create_issue","description":"Create.","parameters":{"type":"object"}}]},
    {"type":"namespace","name":"linear","description":"Linear tools.","tools":[
      {"type":"function","name":"list_issues","description":"List.","parameters":{"type":"object"}}]}]},
  {"type":"function_call","call_id":"c1","namespace":"github","name":"list_issues","arguments":"{}"},
  {"type":"function_call","call_id":"c2","name":"read_file","arguments":"{\"path\":\"a\"}"},
  {"type":"function_call_output","call_id":"c2","output":"file"},
  {"type":"function_call_output","call_id":"c1","output":"3 issues"}
]"#;

#[test]
fn validator_responses_accepts_a_good_request() {
    responses_request(&parse(RESPONSES_TOOLS), &parse(RESPONSES_INPUT)).unwrap();
    responses_request(&parse("[]"), &s("just text")).unwrap();
}

#[test]
fn validator_responses_refuses_bad_requests() {
    let (tools, input) = (RESPONSES_TOOLS, RESPONSES_INPUT);
    let (f65, f129) = ("f".repeat(65), "f".repeat(129));
    let cases: Vec<(&str, Value, Value, &str)> = vec![
        ("a dot in a function name", edited(tools, "read_file", "read.file"), parse(input), "does not match pattern"),
        ("a 65-character function", edited(tools, "read_file", &f65), parse(input), "does not match pattern"),
        (
            "no tool_search for a client call",
            edited(
                tools,
                r#""execution":"client","description":"Search.""#,
                r#""execution":"server","description":"Search.""#,
            ),
            parse(input),
            "without a client tool_search tool",
        ),
        (
            "deferred functions without tool_search",
            parse(r#"[{"type":"function","name":"a","defer_loading":true}]"#),
            parse("[]"),
            "without a tool_search tool",
        ),
        (
            "a function_call without output",
            parse(tools),
            edited(
                input,
                r#"{"type":"function_call_output","call_id":"c1","output":"3 issues"}"#,
                r#"{"role":"user","content":"?"}"#,
            ),
            "No function_call_output",
        ),
        (
            "a tool_search_call without output",
            parse(tools),
            parse(r#"[{"type":"tool_search_call","call_id":"s1","execution":"client","arguments":{}}]"#),
            "No tool_search_output",
        ),
        (
            "an output of no call",
            parse(tools),
            edited(input, r#""call_id":"c2","output""#, r#""call_id":"c9","output""#),
            "No tool call found",
        ),
        (
            "a search output of no call",
            parse(tools),
            edited(input, r#""tool_search_output","call_id":"s1""#, r#""tool_search_output","call_id":"s9""#),
            "No tool call found",
        ),
        (
            "a space in a namespace",
            parse(tools),
            edited(input, r#""name":"github""#, r#""name":"Git Hub""#),
            "namespace name",
        ),
        ("an empty namespace", parse(tools), edited(input, r#""name":"github""#, r#""name":"""#), "namespace name"),
        (
            "a 65-character namespace",
            parse(tools),
            edited(input, r#""name":"github""#, &format!(r#""name":"{f65}""#)),
            "namespace name",
        ),
        (
            "a namespace in tools with a dot",
            edited(tools, r#""name":"crm""#, r#""name":"c.rm""#),
            parse(input),
            "namespace name",
        ),
        (
            "a namespace without description",
            parse(tools),
            edited(input, r#","description":"GitHub tools.""#, ""),
            "without a description",
        ),
        (
            "a slash in a namespaced function",
            parse(tools),
            edited(input, r#""name":"create_issue""#, r#""name":"user-profile/update""#),
            "function name",
        ),
        (
            "a 129-character namespaced function",
            parse(tools),
            edited(input, r#""name":"create_issue""#, &format!(r#""name":"{f129}""#)),
            "function name",
        ),
        (
            "a namespace twice in one output",
            parse(tools),
            edited(input, r#""name":"linear""#, r#""name":"github""#),
            "twice in one tool_search_output",
        ),
        (
            "a function twice in a namespace",
            parse(tools),
            edited(input, r#""name":"create_issue""#, r#""name":"list_issues""#),
            "twice in one namespace",
        ),
        (
            "string arguments missing",
            parse(tools),
            edited(input, r#""arguments":"{}""#, r#""arguments":{}"#),
            "string arguments",
        ),
        ("an item that is a number", parse(tools), parse("[42]"), "an item is"),
    ];
    for (label, tools, input, wanted) in cases {
        match responses_request(&tools, &input) {
            Ok(()) => panic!("{label}: accepted"),
            Err(e) => assert!(e.contains(wanted), "{label}: {e}"),
        }
    }
}
