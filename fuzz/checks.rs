//! The properties each fuzz target checks, one function per target. Shared by the cargo-fuzz
//! targets (`fuzz/fuzz_targets/*.rs`) and by `tests/fuzz_replay.rs`, which replays the committed
//! seeds and any crash inputs kept in `fuzz/seeds/<target>/` under plain `cargo test`.
#![allow(dead_code)]

use std::sync::OnceLock;
use toolshelf::json;
use toolshelf::options::Switch;
use toolshelf::schema::validate;
use toolshelf::{Form, Shelf, Unwrapped};

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
