//! The properties each fuzz target checks, one function per target. Shared by the cargo-fuzz
//! targets (`fuzz/fuzz_targets/*.rs`) and by `tests/fuzz_replay.rs`, which replays the committed
//! seeds and any crash inputs kept in `fuzz/seeds/<target>/` under plain `cargo test`.
#![allow(dead_code)]

use std::sync::OnceLock;
use toolshelf::conversation::History;
use toolshelf::json;
use toolshelf::options::Switch;
use toolshelf::schema::validate;
use toolshelf::{Form, Shelf, Unwrapped};

#[path = "snapshot_check.rs"]
pub mod snapshot_check;

#[path = "../tests/common/providers.rs"]
pub(crate) mod providers;

#[path = "../tests/common/session_model.rs"]
mod session_model;

/// What the session model (`tests/common/session_model.rs`) finds beside it, as in
/// `tests/sessions.rs`: the providers' validators and the real catalogs it attaches (Linear's and
/// GitHub's, embedded, so the fuzz target reads no files).
mod common {
    pub(crate) use super::providers;
    use toolshelf::json::{self, Value};

    /// `(server, tool def)` entries of the catalog `name` (`tests/common/mod.rs`'s `catalog`).
    pub fn catalog(name: &str) -> Vec<(String, Value)> {
        use std::io::Read;
        let gz: &[u8] = match name {
            "linear-mcp-official" => include_bytes!("../tests/data/catalogs/linear-mcp-official.json.gz"),
            "github-mcp-server" => include_bytes!("../tests/data/catalogs/github-mcp-server.json.gz"),
            _ => panic!("{name}: not embedded"),
        };
        let mut text = String::new();
        flate2::read::GzDecoder::new(gz).read_to_string(&mut text).expect("an embedded catalog");
        let Ok(Value::Array(entries)) = json::parse(&text) else { panic!("{name}: not an array") };
        let field = |e: &Value, key: &str| e.get(key).cloned().unwrap_or(Value::Null);
        entries.iter().map(|e| (field(e, "server").as_str().unwrap_or("").to_string(), field(e, "tool"))).collect()
    }
}

/// `json_parse`: whatever parses writes back to text that parses to the same value.
pub fn json_parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    history_read_item_by_item(text);
    let Ok(value) = json::parse(text) else { return };
    let written = value.to_json();
    let again = json::parse(&written).expect("to_json output parses");
    assert_eq!(again, value, "re-parse of {written}");
    assert_eq!(again.to_json(), written);
    assert_eq!(value.json_code_points(), written.chars().count());
    // A text the reader calls compact is the value's compact JSON, byte for byte (the toolbox
    // reader then keeps it instead of writing and comparing), and compact JSON is called compact
    // unless it holds a plane-16 character.
    let mut reader = json::Reader::new(text);
    if let Ok((_, end, true)) = reader.value_with_text(0) {
        let start = text.len() - text.trim_start_matches([' ', '\n', '\r', '\t']).len();
        assert_eq!(&text[start..end], written, "called compact");
    }
    let (_, end, compact) = json::Reader::new(&written).value_with_text(0).expect("to_json output parses");
    assert_eq!(end, written.len());
    assert!(compact || written.chars().any(|c| c >= '\u{100000}'), "compact JSON not called compact: {written}");
}

/// A history's text, read item by item, reads what the whole value of its outline (cut at eight
/// levels) holds, and fails where a parse of that outline fails, at the same byte.
fn history_read_item_by_item(text: &str) {
    let names = toolshelf::options::BridgeNames::default();
    let read = History::read_text(text, &names, "context");
    match json::parse(&json::shallow_text(text, 8)) {
        Ok(value) => assert_eq!(read.expect("a history that parses is read"), History::read_present(&value, &names)),
        Err(e) => {
            let expected = format!("context: {} at byte {}", e.message, e.offset);
            assert_eq!(read.expect_err("a history that does not parse is an error").message, expected);
        }
    }
}

/// Splits at the first NUL byte into two UTF-8 texts.
fn split_nul(data: &[u8]) -> Option<(&str, &str)> {
    let split = data.iter().position(|b| *b == 0)?;
    Some((std::str::from_utf8(&data[..split]).ok()?, std::str::from_utf8(&data[split + 1..]).ok()?))
}

/// `validate`: a schema and arguments (split at the first NUL): validation never panics, a
/// rejection leaves the arguments as they were, and accepted arguments stay accepted as they are.
pub fn validate_twice(data: &[u8]) {
    let Some((schema, args)) = split_nul(data) else { return };
    let (Ok(schema), Ok(args)) = (json::parse(schema), json::parse(args)) else { return };
    let mut checked = args.clone();
    match validate(&schema, &mut checked) {
        Ok(()) => {
            let mut again = checked.clone();
            assert!(validate(&schema, &mut again).is_ok(), "accepted arguments rejected on a second look");
            assert_eq!(again, checked, "coerced twice");
        }
        Err(violation) => {
            assert_eq!(checked, args, "a rejected call was changed");
            assert!(violation.path.starts_with("arguments") && !violation.message.is_empty());
        }
    }
}

/// `toolbox`: a toolbox, options and a query (split at NULs): preparing, assembling and searching
/// never panic; the listing stays within its budget unless forced on; every hit can be described.
pub fn toolbox(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut parts = text.splitn(3, '\0');
    let (toolbox, options) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let query = parts.next().unwrap_or("create issue");
    // Read from its text (outlines of compact defs, their ranges kept), as the binding reads it,
    // the toolbox gives what the parsed toolbox gives: the same layout and search, or the same error.
    let from_text = Shelf::from_json_text(toolbox.to_string(), options);
    let shelf = match (Shelf::from_json(toolbox, options), from_text) {
        (Ok(shelf), Ok(other)) => {
            assert_eq!(shelf.layout().facts.fingerprint, other.layout().facts.fingerprint);
            assert_eq!(shelf.search(query, None), other.search(query, None));
            shelf
        }
        (Err(a), Err(b)) => return assert_eq!((a.code, a.message), (b.code, b.message)),
        (a, b) => panic!("parsed: {:?}, from the text: {:?}", a.err(), b.err()),
    };
    let layout = shelf.layout();
    let forced = shelf.options().listing == Switch::On;
    assert!(forced || layout.facts.form == Form::None || layout.facts.listing_tokens <= layout.facts.budget_tokens);
    assert_eq!(layout.facts.fingerprint.len(), 16);
    let result = shelf.search(query, None);
    assert!(result.matches.len() <= shelf.options().max_search_limit);
    for m in &result.matches {
        assert!(shelf.describe(&m.name).is_some(), "a hit that cannot be described: {}", m.name);
    }
}

const UNWRAP_TOOLBOX: &str = r##"{"tools":[{"name":"bash","description":"Run a command.","input_schema":{"type":"object","properties":{"command":{"type":"string","minLength":1}},"required":["command"]}}],
"servers":{"github":[
 {"name":"create_issue","description":"Create an issue.","input_schema":{"type":"object","properties":{"owner":{"type":"string"},"repo":{"type":"string"},"title":{"type":"string","maxLength":256},"labels":{"type":"array","items":{"type":"string"},"maxItems":5},"state":{"enum":["open","closed"]}},"required":["owner","repo","title"],"additionalProperties":false}},
 {"name":"search_code","description":"Search code.","input_schema":{"type":"object","properties":{"query":{"type":"string"},"page":{"type":"integer","minimum":1},"perPage":{"type":"number","maximum":100},"opts":{"$ref":"#/$defs/opts"}},"$defs":{"opts":{"anyOf":[{"type":"null"},{"type":"object","properties":{"deep":{"type":"boolean"},"next":{"$ref":"#/$defs/opts"}}}]}}}}],
 "linear":[{"name":"save_issue","description":"Create or update an issue.","input_schema":{"type":"object","properties":{"id":{"type":"string","nullable":true},"priority":{"oneOf":[{"type":"integer","minimum":0,"maximum":4},{"type":"string","enum":["urgent","high"]}]}},"allOf":[{"required":["id"]}]}}]}}"##;

fn unwrap_shelf() -> &'static Shelf {
    static SHELF: OnceLock<Shelf> = OnceLock::new();
    SHELF.get_or_init(|| Shelf::from_json(UNWRAP_TOOLBOX, r#"{"qualify":true}"#).expect("fixed toolbox"))
}

/// `unwrap`: a model's tool call (any bytes) against a fixed toolbox: never a panic; only a
/// non-object call is an error; a call names a tool of the toolbox with object arguments; answers
/// are JSON.
pub fn unwrap(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(call) = json::parse(text) else { return };
    let shelf = unwrap_shelf();
    match shelf.unwrap(&call) {
        Ok(Unwrapped::Call(c)) => {
            assert!(c.arguments.is_object());
            assert!(shelf.catalog().get(&c.name).is_some());
        }
        Ok(Unwrapped::Answer { content, .. }) => assert!(json::parse(&content).is_ok(), "answers are JSON"),
        Ok(Unwrapped::Reject { content, .. }) => assert!(!content.is_empty()),
        Ok(Unwrapped::Loaded { answer, .. }) => {
            let (_, value) = answer.member();
            assert!(value.is_object() || value.as_array().is_some(), "native answers are blocks or an item");
        }
        Err(e) => assert!(!call.is_object() && e.code.as_str() == "invalid_call"),
    }
}

/// `schema_shapes`: the bytes choose an amplifying schema (definitions that are `anyOf`s/`allOf`s
/// of many `$ref`s to each other, long `type` lists, big `enum`s and `const`s, wide `properties`,
/// `items` and `additionalProperties` through `$ref`) and arguments (wide, deep, long keys and
/// strings) for it, sized by the bytes up to thousands: validation ends (libFuzzer's per-input time
/// limit is the check that work stays bounded), never panics, judges alike twice, and its message
/// and path stay short whatever the sizes.
pub fn schema_shapes(data: &[u8]) {
    let mut bytes = data.iter().copied();
    let mut next = move || bytes.next().unwrap_or(0);
    let defs: Vec<String> = (0..4).map(|d| shape_def(d, &mut next)).collect();
    let schema = format!(
        r##"{{"$defs":{{"d0":{},"d1":{},"d2":{},"d3":{}}},"$ref":"#/$defs/d{}"}}"##,
        defs[0],
        defs[1],
        defs[2],
        defs[3],
        next() % 4
    );
    let args = shape_args(&mut next);
    let (Ok(schema), Ok(args)) = (json::parse(&schema), json::parse(&args)) else { return };
    let mut first = args.clone();
    let verdict = toolshelf::schema::judge(&schema, &mut first).0;
    let mut second = args.clone();
    assert_eq!(toolshelf::schema::judge(&schema, &mut second).0, verdict, "judged alike twice");
    if let toolshelf::schema::Verdict::Invalid(violation) = verdict {
        assert_eq!(first, args, "a rejected call was changed");
        assert!(violation.message.chars().count() <= 2_000, "message of {} characters", violation.message.len());
        assert!(violation.path.chars().count() <= 10_000, "path of {} characters", violation.path.len());
    }
}

/// A definition of [`schema_shapes`]: its kind and size from the bytes.
fn shape_def(own: u8, next: &mut impl FnMut() -> u8) -> String {
    let kind = next() % 9;
    let n = usize::from(next()) * 16 + usize::from(next() % 16);
    let target = next() % 4;
    let refs = |n: usize, target: u8| vec![format!(r##"{{"$ref":"#/$defs/d{target}"}}"##); n.max(1)].join(",");
    const TYPES: [&str; 7] = ["null", "boolean", "number", "integer", "string", "array", "object"];
    match kind {
        0 => format!(r#"{{"anyOf":[{}]}}"#, refs(n, target)),
        1 => format!(r#"{{"allOf":[{}]}}"#, refs(n.min(64), target)),
        2 => {
            let names: Vec<String> =
                (0..n.max(1)).map(|i| format!("\"{}\"", TYPES[(i + usize::from(own)) % 7])).collect();
            format!(r#"{{"type":[{}]}}"#, names.join(","))
        }
        3 => {
            let values: Vec<String> =
                (0..n).map(|i| if i % 3 == 0 { format!("\"v{i}\"") } else { i.to_string() }).collect();
            format!(r#"{{"enum":[{}]}}"#, values.join(","))
        }
        4 => {
            let members: Vec<String> = (0..n).map(|i| format!(r#""k{i}":{i}"#)).collect();
            format!(r#"{{"const":{{{}}}}}"#, members.join(","))
        }
        5 => format!(r#"{{"const":"{}"}}"#, "c".repeat(n * 10)),
        6 => {
            let members: Vec<String> =
                (0..n.min(2_000)).map(|i| format!(r##""k{i}":{{"$ref":"#/$defs/d{target}"}}"##)).collect();
            format!(
                r##"{{"type":"object","properties":{{{}}},"additionalProperties":{{"$ref":"#/$defs/d{target}"}}}}"##,
                members.join(",")
            )
        }
        7 => format!(r##"{{"type":"array","items":{{"$ref":"#/$defs/d{target}"}}}}"##),
        _ => format!(r#"{{"oneOf":[{},{{"type":["string","null"],"maxLength":3}}]}}"#, refs(n, target)),
    }
}

/// Arguments of [`schema_shapes`]: wide, deep, long or plain, from the bytes.
fn shape_args(next: &mut impl FnMut() -> u8) -> String {
    let n = usize::from(next()) * 16;
    match next() % 7 {
        0 => "\"hello\"".to_string(),
        1 => format!("\"{}\"", "k".repeat(n * 100)),
        2 => format!("{{{}}}", (0..n).map(|i| format!(r#""k{i}":{i}"#)).collect::<Vec<_>>().join(",")),
        3 => format!("{}1{}", "[".repeat(n % 200), "]".repeat(n % 200)),
        4 => format!(r#"{{"{}":"x"}}"#, "k".repeat(n * 100)),
        5 => format!("[{}]", vec!["\"42\""; n].join(",")),
        _ => format!("{{{}}}", (0..n).map(|i| format!(r#""k{i}":"{i}""#)).collect::<Vec<_>>().join(",")),
    }
}

/// The `native_calls` shelves: a small real catalog (five tools each of Linear's and GitHub's MCP
/// servers, `list_issues` in both, and a direct tool) in native mode, Anthropic and Responses,
/// each with the default and the batched search shape.
fn native_shelves() -> &'static [Shelf; 4] {
    static SHELVES: OnceLock<[Shelf; 4]> = OnceLock::new();
    SHELVES.get_or_init(|| {
        let anthropic = include_str!("native-anthropic.json");
        let responses = include_str!("native-responses.json");
        let shelf = |toolbox: &str, options: &str| Shelf::from_json(toolbox, options).expect("fixed toolbox");
        [
            shelf(anthropic, r#"{"mode":"native"}"#),
            shelf(anthropic, r#"{"mode":"native","batch":true}"#),
            shelf(responses, r#"{"mode":"native"}"#),
            shelf(responses, r#"{"mode":"native","batch":true}"#),
        ]
    })
}

/// `native_calls`: the first byte picks a native shelf and whether the rest is a call's JSON
/// (high bit) or the choices of one built by [`native_call`] (an Anthropic `tool_use`, a Responses
/// `tool_search_call` or `function_call` with or without `namespace`, arguments as an object, as
/// JSON text, garbage or missing, ids of any type). Unwrap, of the call's JSON text as the binding
/// gives it (a call nested too deep to parse read from its outline) and of the parsed call alike,
/// never panics and gives a call of a catalog tool (of the namespace's server when one routed it),
/// an answer in the provider's shape (SPEC §11) or a reject with a message (a `tool_search_call`'s
/// with its output item); only a call that is not an object (or text too deep to read) is an error.
pub fn native_calls(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else { return };
    let shelf = &native_shelves()[usize::from(first % 4)];
    let text = if first & 0x80 != 0 {
        let Ok(text) = std::str::from_utf8(rest) else { return };
        text.to_string()
    } else {
        native_call(&mut Bytes(rest)).to_json()
    };
    let outcome = shelf.unwrap_json(&text);
    let call = match json::parse(&text) {
        Ok(call) => {
            assert_eq!(shelf.unwrap(&call), outcome, "the text and the parsed call unwrap alike");
            call
        }
        // What the binding reads: the call's levels around arguments at the depth limit; of a
        // call too deep even so, its outline; of text that is no JSON, nothing.
        Err(_) => match json::parse_deeper(&text, 3) {
            Ok(call) => call,
            Err(e) if e.too_deep => json::parse_deeper(&json::shallow_text(&text, 3), 3).unwrap_or(json::Value::Null),
            Err(_) => json::Value::Null,
        },
    };
    check_native_outcome(shelf, &call, outcome, first % 4 >= 2);
}

/// What [`native_calls`] requires of one unwrap's outcome.
fn check_native_outcome(
    shelf: &Shelf,
    call: &json::Value,
    outcome: Result<Unwrapped, toolshelf::Error>,
    responses: bool,
) {
    match outcome {
        Ok(Unwrapped::Call(c)) => check_native_call(shelf, call, &c, responses),
        Ok(Unwrapped::Loaded { answer, .. }) => match answer {
            toolshelf::native::Answer::Blocks(blocks) => check_reference_blocks(shelf, &blocks),
            toolshelf::native::Answer::Item(item) => check_search_output(shelf, call, &item),
        },
        Ok(Unwrapped::Answer { content, .. }) => assert!(!content.is_empty(), "an empty answer"),
        Ok(Unwrapped::Reject { content, item, .. }) => {
            assert!(!content.is_empty(), "a reject without a message");
            let search_call = call.get("type").and_then(json::Value::as_str) == Some("tool_search_call");
            if search_call && responses {
                let item = item.expect("a rejected tool_search_call still has its output item");
                assert_eq!(item.get("tools").and_then(json::Value::as_array).map(<[_]>::len), Some(0));
                check_search_output(shelf, call, &item);
            }
        }
        // Not an object; or text that is no JSON, too deep to read even its outline (`too_large`,
        // SPEC §8's depth bound).
        Err(e) => assert!(
            !call.is_object() && ["invalid_call", "too_large"].contains(&e.code.as_str()),
            "{}: {}",
            e.code.as_str(),
            e.message
        ),
    }
}

/// A call of a catalog tool with object arguments; through a namespace, that server's tool.
fn check_native_call(shelf: &Shelf, call: &json::Value, c: &toolshelf::Call, responses: bool) {
    assert!(c.arguments.is_object(), "arguments {}", c.arguments.to_json());
    let tool = shelf.catalog().get(&c.name).unwrap_or_else(|| panic!("{} is no tool of the catalog", c.name));
    assert_eq!(c.server, tool.server);
    if tool.deferred {
        assert_eq!(c.tool.as_deref(), Some(tool.own_name.as_str()));
    }
    let namespace = call.get("namespace").and_then(json::Value::as_str);
    if let (true, Some("function_call"), Some(namespace)) =
        (responses, call.get("type").and_then(json::Value::as_str), namespace)
    {
        assert_eq!(c.server.as_deref(), Some(namespace.trim()), "routed out of its namespace");
    }
}

/// Anthropic's search answer: `tool_reference` blocks of deferred tools, each once, then at most
/// one text block.
fn check_reference_blocks(shelf: &Shelf, blocks: &json::Value) {
    let blocks = blocks.as_array().expect("blocks are an array");
    let mut seen = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        match block.get("type").and_then(json::Value::as_str) {
            Some("tool_reference") => {
                let name = block.get("tool_name").and_then(json::Value::as_str).expect("a tool_name");
                assert!(shelf.catalog().get(name).is_some_and(|t| t.deferred), "a reference to {name}");
                assert!(!seen.contains(&name), "{name} referenced twice");
                seen.push(name);
            }
            Some("text") => assert!(
                i + 1 == blocks.len() && block.get("text").and_then(json::Value::as_str).is_some_and(|t| !t.is_empty())
            ),
            other => panic!("a block of type {other:?}"),
        }
    }
}

/// Responses' search answer: a client `tool_search_output` echoing the call's id, with namespaces
/// of servers holding functions of their own tools (each once).
fn check_search_output(shelf: &Shelf, call: &json::Value, item: &json::Value) {
    let text = |v: &json::Value, key: &str| v.get(key).and_then(json::Value::as_str).map(str::to_string);
    assert_eq!(text(item, "type").as_deref(), Some("tool_search_output"));
    assert_eq!(text(item, "execution").as_deref(), Some("client"));
    let id = text(call, "call_id").or_else(|| text(call, "id"));
    assert_eq!(text(item, "call_id"), id, "the output echoes the call's id");
    let mut seen = Vec::new();
    for space in item.get("tools").and_then(json::Value::as_array).expect("tools") {
        assert_eq!(text(space, "type").as_deref(), Some("namespace"));
        let server = text(space, "name").expect("a namespace name");
        for f in space.get("tools").and_then(json::Value::as_array).expect("a namespace's tools") {
            let name = text(f, "name").expect("a function name");
            let found = shelf
                .catalog()
                .tools
                .iter()
                .any(|t| t.deferred && t.server.as_deref() == Some(server.as_str()) && t.own_name == name);
            assert!(found, "{server}.{name} is no tool of that server");
            assert!(f.get("parameters").is_some_and(json::Value::is_object), "{name} without parameters");
            assert!(!seen.contains(&(server.clone(), name.clone())), "{server}.{name} twice");
            seen.push((server.clone(), name));
        }
    }
}

/// The bytes [`native_call`] reads its choices from (zeros once they run out).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let Some((&b, rest)) = self.0.split_first() else { return 0 };
        self.0 = rest;
        b
    }

    /// Up to `n` bytes as text (invalid UTF-8 replaced).
    fn text(&mut self, n: usize) -> String {
        let n = n.min(self.0.len());
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        String::from_utf8_lossy(head).into_owned()
    }
}

/// Names a native call may hold: the search tool's, the bridge's others, the catalog's (own and
/// qualified), near misses, empty.
const NATIVE_NAMES: [&str; 16] = [
    "tool_search",
    "tool_call",
    "tool_describe",
    "list_issues",
    "mcp__linear__list_issues",
    "mcp__github__list_issues",
    "get_issue",
    "create_issue",
    "search_code",
    "bash",
    "delete_repository",
    "save_comment",
    "get_isue",
    "mcp__linear__get_issue",
    "",
    " list_teams ",
];

/// A call built from the bytes' choices: its shape, name, namespace, arguments and ids.
fn native_call(b: &mut Bytes) -> json::Value {
    use json::Value;
    let kind = b.next() % 6;
    let pick = b.next();
    let name = if pick < 224 { Value::str(NATIVE_NAMES[usize::from(pick % 16)]) } else { native_scalar(b) };
    let arguments = native_arguments(b);
    let mut members: Vec<(&str, Value)> = match kind {
        0 => vec![("type", Value::str("tool_use")), ("name", name), ("input", arguments)],
        1 => {
            vec![("type", Value::str("tool_search_call")), ("execution", native_execution(b)), ("arguments", arguments)]
        }
        2 => vec![("type", Value::str("function_call")), ("name", name), ("arguments", arguments)],
        3 => vec![
            ("type", Value::str("tool_search_call")),
            ("arguments", arguments),
            ("status", Value::str("completed")),
        ],
        4 => vec![("name", name), ("arguments", arguments)],
        _ => vec![
            ("type", Value::str("function")),
            ("function", Value::object([("name", name), ("arguments", arguments)])),
        ],
    };
    if b.next() < 43 {
        members.retain(|(key, _)| *key != "arguments" && *key != "input"); // no arguments at all
    }
    match b.next() % 8 {
        0 => {}
        1 => members.push(("namespace", Value::str("linear"))),
        2 => members.push(("namespace", Value::str("github"))),
        3 => members.push(("namespace", Value::str(" github "))),
        4 => members.push(("namespace", Value::str("nowhere"))),
        5 => members.push(("namespace", native_scalar(b))),
        6 => members.push(("namespace", Value::str(""))),
        _ => members.push(("namespace", Value::str("builtin"))),
    }
    for key in ["call_id", "id"] {
        match b.next() % 4 {
            0 => {}
            1 => members.push((key, Value::str(format!("call_{}", b.next())))),
            2 => members.push((key, Value::Null)),
            _ => members.push((key, native_scalar(b))),
        }
    }
    Value::object(members)
}

/// `execution` of a `tool_search_call`: client, server or any other value.
fn native_execution(b: &mut Bytes) -> json::Value {
    match b.next() % 4 {
        0 | 1 => json::Value::str("client"),
        2 => json::Value::str("server"),
        _ => native_scalar(b),
    }
}

/// A value of any kind from the bytes: null, a boolean, a number, a string, an empty container.
fn native_scalar(b: &mut Bytes) -> json::Value {
    use json::Value;
    match b.next() % 7 {
        0 => Value::Null,
        1 => Value::Bool(b.next() & 1 == 1),
        2 => Value::Number(b.next().to_string().into()),
        3 => Value::Number("-1e300".into()),
        4 => Value::Array(Vec::new()),
        5 => Value::object(Vec::<(String, Value)>::new()),
        _ => {
            let n = usize::from(b.next() % 24);
            Value::String(b.text(n))
        }
    }
}

/// Arguments: a search's (`query`, `limit`, batched `queries`) or a tool's fields, as an object or
/// as JSON text, cut JSON text, garbage, another kind of value, deeply nested, or null.
fn native_arguments(b: &mut Bytes) -> json::Value {
    use json::Value;
    let n = usize::from(b.next() % 32);
    let word = b.text(n);
    let object = match b.next() % 6 {
        0 => Value::object([("query", Value::String(word))]),
        1 => Value::object([("query", Value::String(word)), ("limit", native_scalar(b))]),
        2 => Value::object([("queries", Value::Array(vec![Value::String(word), native_scalar(b)]))]),
        3 => Value::object([("owner", Value::str("o")), ("repo", Value::str("r")), ("title", Value::String(word))]),
        4 => Value::object([("id", native_scalar(b)), ("limit", Value::String(word))]),
        _ => Value::object([(word, native_scalar(b))]),
    };
    match b.next() % 8 {
        0 | 1 => object,
        2 => Value::String(object.to_json()),
        3 => {
            let text = object.to_json();
            Value::String(text.chars().take(text.chars().count() / 2).collect())
        }
        4 => native_scalar(b),
        5 => Value::String(format!("{}{}", "[".repeat(200), "]".repeat(200))),
        6 => json::parse(&format!("{}1{}", "[".repeat(120), "]".repeat(120))).unwrap_or(Value::Null),
        _ => Value::Null,
    }
}

// ---------------------------------------------------------------------------------------------
// `snapshot_forged`: a real snapshot's fields changed and its checksum made right (bytes written
// to deceive), loaded. The layout parsed here is format 7's (src/shelf/snapshot.rs): a change of the
// format changes `Forged::parse` with it.

/// A snapshot's field, as `Forged::parse` reads it.
#[derive(Clone, Debug)]
enum Field {
    U8(u8),
    U32(u32),
    U64(u64),
    /// The length of the string or the count of the array that follows (written from it unless
    /// `Forged::raw_lengths`).
    Len(u32),
    /// A string's bytes (or the rows of the vectors).
    Bytes(Vec<u8>),
    /// Numbers of 32 bits (an array's items, `per` numbers an item).
    U32s(Vec<u32>, usize),
    /// The index's occurrences: a tool number and a frequency each, the numbers written in
    /// `doc_bytes` bytes (2 or 4).
    Postings(Vec<u32>, usize),
}

/// A snapshot as fields: the toolbox's text, the payload's fields, the trailer's flags.
#[derive(Clone, Debug)]
struct Forged {
    text: Vec<u8>,
    fields: Vec<Field>,
    /// The first field of the search index (the fields before it are the options, which toolbox,
    /// and the catalog).
    index_at: usize,
    flags: u32,
    /// Lengths and counts written as the fields say, not from the bytes and items they count.
    raw_lengths: bool,
    /// The checksum left as it was (not made right).
    stale_checksum: Option<u64>,
}

/// Little-endian reads of a payload.
struct Cursor<'a>(&'a [u8], usize);

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let out = self.0.get(self.1..self.1.checked_add(n)?)?;
        self.1 += n;
        Some(out)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4).map(|b| u32::from_le_bytes(b.try_into().unwrap()))
    }
    fn u64(&mut self) -> Option<u64> {
        self.take(8).map(|b| u64::from_le_bytes(b.try_into().unwrap()))
    }
}

impl Forged {
    /// The fields of a format-6 snapshot.
    fn parse(bytes: &[u8]) -> Option<Forged> {
        let trailer = bytes.len().checked_sub(40)?;
        let mut t = Cursor(&bytes[trailer..], 8);
        let (_version, flags, text_len, payload_len) = (t.u32()?, t.u32()?, t.u64()? as usize, t.u64()? as usize);
        let text_len = if flags & 1 != 0 { text_len } else { 0 };
        let text = bytes.get(..text_len)?.to_vec();
        let mut c = Cursor(bytes.get(text_len..text_len + payload_len)?, 0);
        let mut fields = Vec::new();
        let string = |c: &mut Cursor<'_>, fields: &mut Vec<Field>| -> Option<()> {
            let n = c.u32()?;
            fields.push(Field::Len(n));
            fields.push(Field::Bytes(c.take(n as usize)?.to_vec()));
            Some(())
        };
        let opt_string = |c: &mut Cursor<'_>, fields: &mut Vec<Field>| -> Option<()> {
            let has = c.u8()?;
            fields.push(Field::U8(has));
            if has == 1 {
                string(c, fields)?;
            }
            Some(())
        };
        let strings = |c: &mut Cursor<'_>, fields: &mut Vec<Field>| -> Option<()> {
            let n = c.u32()?;
            fields.push(Field::U32(n));
            (0..n).try_for_each(|_| string(c, fields))
        };
        let u32s = |c: &mut Cursor<'_>, fields: &mut Vec<Field>, per: usize| -> Option<()> {
            let n = c.u32()?;
            fields.push(Field::Len(n));
            let items = (0..n as usize * per).map(|_| c.u32()).collect::<Option<Vec<u32>>>()?;
            fields.push(Field::U32s(items, per));
            Some(())
        };
        let u8s = |c: &mut Cursor<'_>, fields: &mut Vec<Field>, n: usize| -> Option<()> {
            (0..n).try_for_each(|_| c.u8().map(|b| fields.push(Field::U8(b))))
        };
        // Options.
        opt_string(&mut c, &mut fields)?;
        // Which toolbox.
        let which = c.u8()?;
        fields.push(Field::U8(which));
        match which {
            1 => {
                fields.push(Field::U64(c.u64()?));
                fields.push(Field::U64(c.u64()?));
            }
            2 => string(&mut c, &mut fields)?,
            _ => {}
        }
        // The catalog: format, warnings, lists, then every def's tool.
        u8s(&mut c, &mut fields, 1)?;
        strings(&mut c, &mut fields)?;
        let lists = c.u32()?;
        fields.push(Field::U32(lists));
        for _ in 0..lists {
            opt_string(&mut c, &mut fields)?;
            fields.push(Field::U32(c.u32()?));
        }
        let tools = c.u32()?;
        fields.push(Field::U32(tools));
        for _ in 0..tools {
            // Name; server (0 none, 1 its list's, 2 a name that follows); own name (1: one follows);
            // description; def; size; origin; flags, format, detected.
            string(&mut c, &mut fields)?;
            let server = c.u8()?;
            fields.push(Field::U8(server));
            if server == 2 {
                string(&mut c, &mut fields)?;
            }
            opt_string(&mut c, &mut fields)?;
            string(&mut c, &mut fields)?;
            let def = c.u8()?;
            fields.push(Field::U8(def));
            match def {
                0 => (0..2).try_for_each(|_| c.u32().map(|n| fields.push(Field::U32(n))))?,
                _ => string(&mut c, &mut fields)?,
            }
            fields.push(Field::U32(c.u32()?));
            u8s(&mut c, &mut fields, 4)?;
        }
        // The catalog's orders: by name, by own name, each server's name and tools.
        u32s(&mut c, &mut fields, 1)?;
        u32s(&mut c, &mut fields, 1)?;
        let servers = c.u32()?;
        fields.push(Field::U32(servers));
        for _ in 0..servers {
            string(&mut c, &mut fields)?;
            u32s(&mut c, &mut fields, 1)?;
        }
        // The index: terms, postings (the lists' ends, the width of a tool number, the pairs),
        // names, name docs, name terms, name starts, servers of tools, server count, tie ranks,
        // name weights.
        let index_at = fields.len();
        string(&mut c, &mut fields)?;
        u32s(&mut c, &mut fields, 1)?;
        u32s(&mut c, &mut fields, 1)?;
        let doc_bytes = c.u8()?;
        fields.push(Field::U8(doc_bytes));
        let n = c.u32()?;
        fields.push(Field::Len(n));
        let mut pairs = Vec::new();
        for _ in 0..n {
            let doc = match doc_bytes {
                2 => u32::from(u16::from_le_bytes(c.take(2)?.try_into().unwrap())),
                _ => c.u32()?,
            };
            pairs.extend([doc, c.u32()?]);
        }
        fields.push(Field::Postings(pairs, if doc_bytes == 2 { 2 } else { 4 }));
        string(&mut c, &mut fields)?;
        (0..5).try_for_each(|_| u32s(&mut c, &mut fields, 1))?;
        fields.push(Field::U32(c.u32()?));
        u32s(&mut c, &mut fields, 1)?;
        u32s(&mut c, &mut fields, 1)?;
        // The embeddings.
        let vectors = c.u8()?;
        fields.push(Field::U8(vectors));
        if vectors == 1 {
            string(&mut c, &mut fields)?;
            let dims = c.u32()?;
            let count = c.u32()?;
            fields.push(Field::U32(dims));
            fields.push(Field::U32(count));
            fields.push(Field::Bytes(c.take(dims as usize * count as usize)?.to_vec()));
            fields.push(Field::U32s((0..count).map(|_| c.u32()).collect::<Option<Vec<u32>>>()?, 1));
        }
        (c.1 == c.0.len()).then_some(Forged { text, fields, index_at, flags, raw_lengths: false, stale_checksum: None })
    }

    /// Whether this snapshot holds the same toolbox text, options and catalog as `other`: only
    /// its index, vectors or trailer may differ.
    fn same_catalog(&self, other: &Forged) -> bool {
        let head = |f: &Forged| format!("{:?}", &f.fields[..f.index_at.min(f.fields.len())]);
        self.text == other.text && self.index_at == other.index_at && head(self) == head(other)
    }

    /// The bytes: each length and count written from what it counts (unless `raw_lengths`), the
    /// trailer's lengths and checksum made right (unless `stale_checksum`).
    fn bytes(&self) -> Vec<u8> {
        let mut out = self.text.clone();
        for (i, field) in self.fields.iter().enumerate() {
            match (field, self.fields.get(i + 1)) {
                (Field::Len(_), Some(Field::Bytes(b))) if !self.raw_lengths => {
                    out.extend((b.len() as u32).to_le_bytes())
                }
                (Field::Len(_), Some(Field::U32s(items, per))) if !self.raw_lengths => {
                    out.extend(((items.len() / per) as u32).to_le_bytes())
                }
                (Field::Len(_), Some(Field::Postings(items, _))) if !self.raw_lengths => {
                    out.extend(((items.len() / 2) as u32).to_le_bytes())
                }
                (Field::Len(n) | Field::U32(n), _) => out.extend(n.to_le_bytes()),
                (Field::U8(n), _) => out.push(*n),
                (Field::U64(n), _) => out.extend(n.to_le_bytes()),
                (Field::Bytes(b), _) => out.extend(b),
                (Field::U32s(items, _), _) => items.iter().for_each(|n| out.extend(n.to_le_bytes())),
                (Field::Postings(items, doc_bytes), _) => {
                    for pair in items.chunks(2) {
                        let (doc, freq) = (pair[0], pair.get(1).copied().unwrap_or(0));
                        match doc_bytes {
                            2 => out.extend((doc as u16).to_le_bytes()),
                            _ => out.extend(doc.to_le_bytes()),
                        }
                        out.extend(freq.to_le_bytes());
                    }
                }
            }
        }
        let payload = out.len() - self.text.len();
        let sum = crate_checksum(&out);
        out.extend(b"tshelf\x00\x01");
        out.extend(toolshelf::SNAPSHOT_VERSION.to_le_bytes());
        out.extend(self.flags.to_le_bytes());
        out.extend((self.text.len() as u64).to_le_bytes());
        out.extend((payload as u64).to_le_bytes());
        out.extend(self.stale_checksum.unwrap_or(sum).to_le_bytes());
        out
    }

    /// The options' text, and the text the catalog is read from (the toolbox held, or given, or
    /// the defs'), as the fields say.
    fn texts(&self, given: Option<&str>) -> (Option<String>, Option<String>) {
        let string = |at: usize| match self.fields.get(at) {
            Some(Field::Bytes(b)) => String::from_utf8(b.clone()).ok(),
            _ => None,
        };
        let options = match self.fields.first() {
            Some(Field::U8(1)) => string(2),
            _ => None,
        };
        let which_at = if matches!(self.fields.first(), Some(Field::U8(1))) { 3 } else { 1 };
        let toolbox = match self.fields.get(which_at) {
            Some(Field::U8(0)) => String::from_utf8(self.text.clone()).ok(),
            Some(Field::U8(1)) => given.map(String::from),
            Some(Field::U8(2)) => string(which_at + 2),
            _ => None,
        };
        (options, toolbox)
    }
}

/// The snapshot checksum (fuzz/snapshot_check.rs's).
fn crate_checksum(bytes: &[u8]) -> u64 {
    snapshot_check::checksum(bytes)
}

/// The shelves whose snapshots are forged, and the toolbox text a snapshot without it is loaded
/// with: small and qualified; bridge-named tools left out and a `defer`; the same with vectors;
/// one of a value (its defs' text) in native mode with some vectors; one without its toolbox; a
/// flat list; native mode with clashing names; the hybrid one without its toolbox.
fn forged_bases() -> &'static [(Vec<u8>, Option<String>)] {
    static BASES: OnceLock<Vec<(Vec<u8>, Option<String>)>> = OnceLock::new();
    BASES.get_or_init(|| {
        use toolshelf::embed::Vectors;
        const SMALL: &str = r#"{"servers":{"s":[{"name":"t","description":"A tool.","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}},{"name":"u","description":"Another tool to list things.","inputSchema":{"type":"object"}}],"r":[{"name":"t","description":"Same name.","inputSchema":{"type":"object"}}]}}"#;
        const MIXED: &str = r#"{"tools":[{"type":"function","function":{"name":"mcp__gh__merge","description":"Merge.","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}},{"type":"function","function":{"name":"read_file","description":"Read.","parameters":{"type":"object"}}}],"servers":{"gh":[{"type":"function","function":{"name":"create_issue","description":"Create an issue.","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}},{"type":"function","function":{"name":"tool_search","description":"mine","parameters":{"type":"object"}}},{"type":"function","function":{"name":"list_issues","description":"List issues.","parameters":{"type":"object"}}}],"a b":[{"type":"function","function":{"name":"tool_call","description":"dropped","parameters":{"type":"object"}}}]}}"#;
        const FLAT: &str = r#"[{"name":"a","description":"A.","parameters":{"type":"object"}},{"name":"tool_call","description":"x","parameters":{}},{"name":"mcp__s__b","description":"B tool.","parameters":{"type":"object","properties":{"q":{"type":"string"}}}}]"#;
        let shelf = |toolbox: &str, options: &str| Shelf::from_json_text(toolbox.to_string(), options).unwrap();
        let vectors = |shelf: &mut Shelf, every: usize| {
            let keys: Vec<String> =
                shelf.embedding_texts().into_iter().step_by(every).map(|(key, _)| key).collect();
            let values: Vec<f32> = (0..keys.len() * 6).map(|i| ((i * 31) % 13) as f32 - 6.0).collect();
            shelf.set_embeddings(Vectors { model: "m", dimensions: 6, values: &values, keys: Some(&keys) }).unwrap();
        };
        let mut hybrid = shelf(MIXED, r#"{"defer":["read_file"]}"#);
        vectors(&mut hybrid, 1);
        let mut value = Shelf::new(&json::parse(MIXED).unwrap(), &json::parse(r#"{"mode":"native"}"#).unwrap()).unwrap();
        vectors(&mut value, 2);
        vec![
            (shelf(SMALL, r#"{"qualify":true}"#).snapshot(), None),
            (shelf(MIXED, r#"{"defer":["read_file"],"contextLength":2000}"#).snapshot(), None),
            (hybrid.snapshot(), None),
            (value.snapshot(), None),
            (shelf(SMALL, "null").snapshot_without_toolbox(), Some(SMALL.to_string())),
            (shelf(FLAT, r#"{"bridgeNames":{"call":"tool_call"}}"#).snapshot(), None),
            (shelf(SMALL, r#"{"mode":"native","qualify":"auto","batch":true}"#).snapshot(), None),
            (hybrid.snapshot_without_toolbox(), Some(MIXED.to_string())),
        ]
    })
}

/// The name of each tool of an assembly (its format's name field, or `name`), for uniqueness.
/// Every tool is an object, unless `trusted_defs` (a forged snapshot's catalog, whose def texts a
/// load takes as they are: SPEC §13) holds a def that is not one.
fn assembled_names(assembly: &json::Value, trusted_defs: &[toolshelf::catalog::Tool]) -> Vec<String> {
    let tools = assembly.get("tools").and_then(json::Value::as_array).map(<[_]>::to_vec).unwrap_or_default();
    let all_objects = trusted_defs.iter().all(|tool| tool.def().is_object());
    tools
        .iter()
        .map(|t| {
            assert!(t.is_object() || !all_objects, "an assembled tool that is not an object: {}", t.to_json());
            let name = t.get("function").and_then(|f| f.get("name")).or_else(|| t.get("name"));
            name.and_then(json::Value::as_str).unwrap_or_default().to_string()
        })
        .collect()
}

/// Every answer of a shelf that does not rank (which the index's arrays decide): the assembly,
/// describe and unwrap of every tool name and of one no tool has, as JSON text.
fn unranked_answers(shelf: &Shelf) -> Vec<String> {
    let mut out = vec![shelf.assemble().to_value().to_json()];
    let mut names: Vec<String> = shelf.catalog().tools.iter().map(|t| t.name.clone()).collect();
    names.push("no_such_tool".into());
    for name in &names {
        out.push(shelf.describe(name).map(|d| d.to_value().to_json()).unwrap_or_default());
        let call = json::Value::object([
            ("name", json::Value::str("tool_call")),
            ("arguments", json::Value::object([("name", json::Value::str(name.as_str()))])),
        ]);
        out.push(format!("{:?}", shelf.unwrap(&call).map(|u| u.to_value().to_json())));
    }
    out
}

/// `snapshot_forged`: the first byte picks a real snapshot, the rest are changes to its fields
/// (a length or count, an index, a string's bytes, two items swapped, a flag, the toolbox's text,
/// a name copied over another), after which its checksum is made right. SPEC §13 trusts the
/// toolbox a well-formed snapshot carries (its catalog is not checked against its text), so the
/// check is what the load promises of any bytes: loading never panics; a shelf it loads answers
/// every operation without a panic, with names the snapshot holds: the assembly's tools objects
/// with unique names; searches (what the index's arrays rank) name deferred tools each once with
/// finite scores, with vectors too; describe and unwrap of every name and of one no tool has. When
/// the forgery left the toolbox's text, the options and the catalog as they were (only the index,
/// the vectors or the trailer changed), assemble, describe and unwrap are byte for byte the
/// unforged shelf's. Its snapshot loads into the same bytes again; an update to its own toolbox's
/// text is accepted when a new shelf of that text is, and answers as that new shelf. Else the load
/// is `invalid_snapshot`.
pub fn snapshot_forged(data: &[u8]) {
    snapshot_forged_loads(data);
}

/// [`snapshot_forged`], and whether the forged bytes loaded.
pub fn snapshot_forged_loads(data: &[u8]) -> bool {
    let bases = forged_bases();
    let mut bytes = data.iter().copied();
    let mut next = move || bytes.next().unwrap_or(0);
    let (base, given) = &bases[usize::from(next()) % bases.len()];
    let Some(original) = Forged::parse(base) else { panic!("a base snapshot that does not parse") };
    let mut forged = original.clone();
    for _ in 0..usize::from(next() % 8) + 1 {
        forge_one(&mut forged, &mut next);
    }
    let bytes = forged.bytes();
    let loaded = Shelf::from_snapshot(bytes.clone(), given.clone(), None);
    let shelf = match loaded {
        Err(e) => {
            assert_eq!(e.code.as_str(), "invalid_snapshot", "{e}");
            assert!(e.message.starts_with("snapshot: ") && e.message.len() > 12, "{e}");
            return false;
        }
        Ok(shelf) => shelf,
    };
    // The texts as the bytes written say (the fields' lengths may not be those parsed). A held
    // toolbox text that is not UTF-8 loads (the load checks each def's range as it is read): the
    // shelf then hands back no text of it, and there is no toolbox to compare a new shelf of.
    let written = Forged::parse(&bytes).expect("bytes that load parse");
    let (options, toolbox) = written.texts(given.as_deref());
    let options = options.expect("a loaded snapshot holds options");
    assert!(toolbox.is_some() || shelf.toolbox_text().is_none(), "a toolbox's text that is not UTF-8, handed back");
    let answers = unranked_answers(&shelf);
    if written.same_catalog(&original) {
        let unforged = Shelf::from_snapshot(base.clone(), given.clone(), None).expect("a base snapshot loads");
        assert_eq!(answers, unranked_answers(&unforged), "answers as the unforged shelf");
    }
    let names = assembled_names(&shelf.assemble().to_value(), &shelf.catalog().tools);
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "assembled names repeat: {names:?}");
    let deferred: Vec<&str> = shelf.catalog().deferred().map(|t| t.name.as_str()).collect();
    let dims = shelf.embeddings().map(|e| e.dimensions());
    for query in ["create issue", "t", "list things", "", "mcp__gh__merge"] {
        let mut results = vec![shelf.search(query, Some(20))];
        if let Some(dims) = dims {
            let vector: Vec<f32> = (0..dims).map(|i| (i % 3) as f32 - 1.0).collect();
            let vector = if vector.iter().all(|&x| x == 0.0) { vec![1.0; dims] } else { vector };
            results.push(shelf.search_with_vector(query, Some(20), Some(&vector)).expect("a vector of its dimension"));
        }
        for result in results {
            let mut seen = Vec::new();
            for m in &result.matches {
                assert!(deferred.contains(&m.name.as_str()), "a match that is no deferred tool: {}", m.name);
                assert!(!seen.contains(&m.name), "a match twice: {}", m.name);
                assert!(m.score.is_finite(), "a score not finite");
                seen.push(m.name.clone());
            }
            let _ = result.to_value().to_json();
        }
    }
    if let Some(e) = shelf.embeddings() {
        assert_eq!(shelf.embedding_texts().len(), deferred.len());
        assert!(e.count() <= deferred.len());
    }
    // Its snapshot loads, into the same bytes again.
    let again = shelf.snapshot();
    let reloaded = Shelf::from_snapshot(again.clone(), given.clone(), None).expect("a loaded shelf's snapshot loads");
    assert!(reloaded.snapshot() == again, "a snapshot of a reloaded shelf is the same bytes");
    // An update to its own toolbox's text: whole, as a new shelf of it answers; and with each
    // server's defs as their indexes (the loaded tools kept), without a panic.
    let Some(toolbox) = toolbox else { return true };
    let Ok(fresh) = Shelf::from_json_text(toolbox.clone(), &options) else { return true };
    let mut whole = Shelf::from_snapshot(again.clone(), given.clone(), None).unwrap();
    whole.update_keeping_text(toolbox.clone(), None).expect("its own toolbox, whole");
    assert_eq!(unranked_answers(&whole), unranked_answers(&fresh));
    if let Ok(json::Value::Object(members)) = json::parse(&toolbox) {
        let members = members.into_iter().map(|(key, value)| match (key.as_str(), value) {
            ("servers", json::Value::Object(servers)) => {
                let servers = servers.into_iter().map(|(name, list)| {
                    let n = list.as_array().map_or(0, <[_]>::len);
                    (name, json::Value::Array((0..n).map(|i| json::Value::uint(i as u64)).collect()))
                });
                (key, json::Value::Object(servers.collect()))
            }
            (_, value) => (key, value),
        });
        let refs = json::Value::Object(members.collect()).to_json();
        let mut by_refs = Shelf::from_snapshot(again, given.clone(), None).unwrap();
        if by_refs.update_keeping_text(refs, Some(&[])).is_ok() {
            let _ = unranked_answers(&by_refs);
        }
    }
    true
}

/// One change to a field, its kind and place read from `next`.
fn forge_one(forged: &mut Forged, next: &mut impl FnMut() -> u8) {
    let pick = |n: usize, next: &mut dyn FnMut() -> u8| (usize::from(next()) << 8 | usize::from(next())) % n.max(1);
    let interesting = |next: &mut dyn FnMut() -> u8, around: u32| -> u32 {
        match next() % 8 {
            0 => 0,
            1 => 1,
            2 => around.wrapping_sub(1),
            3 => around.wrapping_add(1),
            4 => u32::MAX,
            5 => around / 2,
            6 => u32::from(next()),
            _ => u32::from_le_bytes([next(), next(), next(), next()]),
        }
    };
    let n = forged.fields.len();
    match next() % 12 {
        // A number: an interesting value, or a small step.
        0 | 1 => {
            let at = pick(n, next);
            let delta = i64::from(next() % 7) - 3;
            match &mut forged.fields[at] {
                Field::U32(x) | Field::Len(x) => {
                    *x = if next() % 2 == 0 { interesting(next, *x) } else { (i64::from(*x) + delta) as u32 }
                }
                Field::U64(x) => *x = u64::from(interesting(next, *x as u32)),
                Field::U8(x) => *x = next() % 4,
                _ => {}
            }
        }
        // An array's item: an interesting value, or two items swapped.
        2 | 3 => {
            let at = pick(n, next);
            if let Field::U32s(items, _) | Field::Postings(items, _) = &mut forged.fields[at] {
                if !items.is_empty() {
                    let (i, j) = (pick(items.len(), next), pick(items.len(), next));
                    if next() % 2 == 0 {
                        items[i] = interesting(next, items[i]);
                    } else {
                        items.swap(i, j);
                    }
                }
            }
        }
        // A string's byte, or a byte of the toolbox's text.
        4 | 5 => {
            let at = pick(n + 1, next);
            let bytes = match forged.fields.get_mut(at) {
                Some(Field::Bytes(b)) => b,
                _ => &mut forged.text,
            };
            if !bytes.is_empty() {
                let i = pick(bytes.len(), next);
                bytes[i] = match next() % 4 {
                    0 => bytes[i].wrapping_add(1),
                    1 => b'"',
                    2 => 0xff,
                    _ => next(),
                };
            }
        }
        // A string cut or grown.
        6 => {
            let at = pick(n + 1, next);
            let bytes = match forged.fields.get_mut(at) {
                Some(Field::Bytes(b)) => b,
                _ => &mut forged.text,
            };
            if next() % 2 == 0 {
                bytes.truncate(pick(bytes.len() + 1, next));
            } else {
                bytes.extend(std::iter::repeat_n(next(), usize::from(next() % 9)));
            }
        }
        // Two spans of a string swapped (of the toolbox's text: parts of two defs).
        7 => {
            let at = pick(n + 1, next);
            let bytes = match forged.fields.get_mut(at) {
                Some(Field::Bytes(b)) => b,
                _ => &mut forged.text,
            };
            let len = usize::from(next() % 32) + 1;
            if bytes.len() > 2 * len {
                let i = pick(bytes.len() - 2 * len, next);
                let j = i + len + pick(bytes.len() - 2 * len - i + 1, next);
                let (a, b) = bytes.split_at_mut(j);
                a[i..i + len].swap_with_slice(&mut b[..len]);
            }
        }
        // A name copied over another (valid JSON, a duplicate name), in a text.
        8 => {
            let at = pick(n + 1, next);
            let bytes = match forged.fields.get_mut(at) {
                Some(Field::Bytes(b)) => b,
                _ => &mut forged.text,
            };
            copy_a_name(bytes, usize::from(next()), usize::from(next()));
        }
        // The lengths written as the fields say; the checksum left stale; the trailer's flags.
        9 => forged.raw_lengths = !forged.raw_lengths,
        10 => forged.stale_checksum = Some(u64::from(next())),
        _ => forged.flags ^= 1 << (next() % 3),
    }
}

/// In JSON text, the `a`-th `"name":"…"` string's value written in place of the `b`-th's.
fn copy_a_name(text: &mut Vec<u8>, a: usize, b: usize) {
    let key = b"\"name\":\"";
    let starts: Vec<usize> =
        text.windows(key.len()).enumerate().filter(|(_, w)| *w == key).map(|(i, _)| i + key.len()).collect();
    if starts.len() < 2 {
        return;
    }
    let end_of = |text: &[u8], from: usize| text[from..].iter().position(|&c| c == b'"').map(|e| from + e);
    let (from, to) = (starts[a % starts.len()], starts[b % starts.len()]);
    let (Some(from_end), Some(to_end)) = (end_of(text, from), end_of(text, to)) else { return };
    let name = text[from..from_end].to_vec();
    text.splice(to..to_end, name);
}

/// `sessions`: the bytes as a session script of `tests/common/session_model.rs` (see
/// [`session_script`]), run with the property test's checks (`tests/sessions.rs`): after every step
/// the next request is one the provider takes, and every name keeps the tool it was shown with.
/// Any violation panics with the steps that led to it.
pub fn sessions(data: &[u8]) {
    let (provider, mode, script) = session_script(data);
    if let Err(e) = session_model::run(provider, mode, &script) {
        panic!("{provider:?} {} session: {e}", mode.as_str());
    }
}

/// Steps of a fuzzed script at most (the property test draws up to 27).
const SESSION_STEPS: usize = 48;

/// Decodes any bytes into a script (missing bytes read as zeros; the script ends with the bytes).
///
/// The first byte: bit 0 the provider (Anthropic, Responses), bit 1 the mode (bridge, native),
/// bits 2–3 the number of servers attached at the start (modulo 3, each then one byte: a server of
/// the pool); bits 4–5 the `pins` of
/// [`session_model::pinned_options`] (`directWhenFits`, a pinned tool); bit 6 a hostile session
/// (`Script::hostile`); bit 7 reused call ids (`Script::ids` 1, or 2 with bit 2). Then up to
/// [`SESSION_STEPS`] steps, each an opcode byte (below 232: modulo 29, weighted as the property
/// test's strategy; 232 and above: the steps of SPEC §16) and its operands:
///
/// | opcode | step | operands |
/// |---|---|---|
/// | 0–3 | `Attach` | a pool byte (see [`session_pick`]) |
/// | 4–5 | `Detach` | index |
/// | 6 | `Replace` | index, seed |
/// | 7–12 | `Search` | index, kind (modulo 3) |
/// | 13–17 | `CallLoaded` | index, bit 0: by its own name |
/// | 18–19 | `CallUnloaded` | index |
/// | 20–22 | `CallDetached` | index |
/// | 23 | `CallDirect` | |
/// | 24 | `Describe` | index |
/// | 25 | `DeepJunk` | depth (two bytes, big-endian: 200 + n mod 4,800), kind (modulo 4) |
/// | 26 | `Malformed` | kind (modulo 8) |
/// | 27 | `UserText` | |
/// | 28 | `Fresh` | |
/// | 232–239 | `ShadowDirect` | index |
/// | 240–247 | `SwitchMode` | |
/// | 248–255 | `PreviousResponse` | |
pub fn session_script(data: &[u8]) -> (session_model::Provider, session_model::Mode, session_model::Script) {
    use session_model::{Mode, Provider, Script, Step};
    let mut b = Bytes(data);
    let header = b.next();
    let provider = if header & 1 == 0 { Provider::Anthropic } else { Provider::Responses };
    let mode = if header & 2 == 0 { Mode::Bridge } else { Mode::Native };
    let initial: Vec<(u8, u16)> = (0..(header >> 2 & 3) % 3).map(|_| (session_pick(b.next()), 0)).collect();
    let mut steps = Vec::new();
    while !b.0.is_empty() && steps.len() < SESSION_STEPS {
        let op = b.next();
        let step = match op {
            232..=239 => Step::ShadowDirect(b.next()),
            240..=247 => Step::SwitchMode,
            248..=255 => Step::PreviousResponse,
            _ => session_step(op % 29, &mut b),
        };
        steps.push(step);
    }
    let ids = if header & 0x80 == 0 { 0 } else { 1 + (header >> 2 & 1) };
    (provider, mode, Script { initial, steps, pins: header >> 4 & 3, hostile: header & 0x40 != 0, ids })
}

/// Steps 0–28 of [`session_script`]'s table, from the opcode and its operands.
fn session_step(op: u8, b: &mut Bytes) -> session_model::Step {
    use session_model::Step;
    match op {
        0..=3 => Step::Attach(session_pick(b.next()), 0),
        4 | 5 => Step::Detach(b.next()),
        6 => Step::Replace(b.next(), b.next()),
        7..=12 => Step::Search(b.next(), b.next() % 3),
        13..=17 => Step::CallLoaded(b.next(), b.next() & 1 == 1),
        18 | 19 => Step::CallUnloaded(b.next()),
        20..=22 => Step::CallDetached(b.next()),
        23 => Step::CallDirect,
        24 => Step::Describe(b.next()),
        25 => {
            let n = u16::from_be_bytes([b.next(), b.next()]);
            Step::DeepJunk(200 + n % 4_800, b.next() % 4)
        }
        26 => Step::Malformed(b.next() % 8),
        27 => Step::UserText,
        _ => Step::Fresh,
    }
}

/// A server of the session model's pool from a byte, weighted as the property test's strategy
/// (16 to 1; bytes 238 and above the hostile servers 9–12 of SPEC §16): mostly the small synthetic servers (0–5: GitHub-like, Linear-like, odd names, an
/// 80-character name, non-ASCII), now and then the real Linear (6) and GitHub (7) catalogs. Never
/// the huge server of 10,001+ tools (8): under the fuzzer's instrumentation a session with it
/// takes about half a second to start and as much a step (milliseconds without it), so that even
/// three steps went over libFuzzer's 5 s an input on a loaded machine; the property test's
/// `sessions_with_a_huge_server` and regression 5 of `tests/sessions.rs` drive it.
fn session_pick(byte: u8) -> u8 {
    // 238 and above: the hostile servers of SPEC §16 (9–12).
    if byte >= 238 {
        return 9 + byte % 4;
    }
    match byte % 17 {
        16 => 6 + byte / 17 % 2,
        n => n % 6,
    }
}
