//! The properties each fuzz target checks, one function per target. Shared by the cargo-fuzz
//! targets (`fuzz/fuzz_targets/*.rs`) and by `tests/fuzz_replay.rs`, which replays the committed
//! seeds and any crash inputs kept in `fuzz/seeds/<target>/` under plain `cargo test`.
#![allow(dead_code)]

use std::sync::OnceLock;
use toolshelf::json;
use toolshelf::options::Switch;
use toolshelf::schema::validate;
use toolshelf::{Form, Shelf, Unwrapped};

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
/// the pool); bits 4–7 are unused. Then up to [`SESSION_STEPS`] steps, each an opcode byte
/// (modulo 29, weighted as the property test's strategy) and its operands:
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
pub fn session_script(data: &[u8]) -> (session_model::Provider, session_model::Mode, session_model::Script) {
    use session_model::{Mode, Provider, Script, Step};
    let mut b = Bytes(data);
    let header = b.next();
    let provider = if header & 1 == 0 { Provider::Anthropic } else { Provider::Responses };
    let mode = if header & 2 == 0 { Mode::Bridge } else { Mode::Native };
    let initial: Vec<(u8, u16)> = (0..(header >> 2 & 3) % 3).map(|_| (session_pick(b.next()), 0)).collect();
    let mut steps = Vec::new();
    while !b.0.is_empty() && steps.len() < SESSION_STEPS {
        let step = match b.next() % 29 {
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
        };
        steps.push(step);
    }
    (provider, mode, Script { initial, steps })
}

/// A server of the session model's pool from a byte, weighted as the property test's strategy
/// (16 to 1): mostly the small synthetic servers (0–5: GitHub-like, Linear-like, odd names, an
/// 80-character name, non-ASCII), now and then the real Linear (6) and GitHub (7) catalogs. Never
/// the huge server of 10,001+ tools (8): under the fuzzer's instrumentation a session with it
/// takes about half a second to start and as much a step (milliseconds without it), so that even
/// three steps went over libFuzzer's 5 s an input on a loaded machine; the property test's
/// `sessions_with_a_huge_server` and regression 5 of `tests/sessions.rs` drive it.
fn session_pick(byte: u8) -> u8 {
    match byte % 17 {
        16 => 6 + byte / 17 % 2,
        n => n % 6,
    }
}
