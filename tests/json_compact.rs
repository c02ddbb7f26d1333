//! The toolbox reader, given the toolbox's text, keeps each def's range of it and reads only an
//! outline of the def (its top levels) when the parser says that range is the def's compact JSON.
//! Checked here: every def of every real catalog, written as `JSON.stringify` writes it, is
//! recognised so (and a re-spaced copy is not); and reading from the text gives exactly what reading
//! the parsed toolbox gives, tool by tool and error by error, on the real catalogs and odd texts.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::catalogs::catalog_names;
use toolshelf::catalog::Catalog;
use toolshelf::json::Reader;
use toolshelf::Options;

#[test]
fn every_real_def_in_compact_json_is_recognised() {
    let mut defs = 0;
    for name in catalog_names() {
        for (server, def) in common::catalog(&name) {
            let text = def.to_json();
            let (read, end, compact) = Reader::new(&text).value_with_text(0).unwrap();
            assert!(compact, "{name}/{server}: {text:.200}");
            assert_eq!((end, &read), (text.len(), &def), "{name}/{server}");
            let (_, end, compact) = Reader::new(&text).outline_with_text(0, 4).unwrap();
            assert!(compact && end == text.len(), "outline of {name}/{server}: {text:.200}");
            let spaced = text.replacen(':', ": ", 1);
            assert!(!Reader::new(&spaced).value_with_text(0).unwrap().2, "{name}/{server}: {spaced:.200}");
            defs += 1;
        }
    }
    assert!(defs > 15_000, "{defs} defs read");
}

/// What a reader keeps of each tool, as text to compare.
fn tools_of(catalog: &Catalog) -> Vec<String> {
    catalog
        .tools
        .iter()
        .map(|t| {
            let outline = (catalog.parameter_names(t), catalog.required_names(t));
            format!(
                "{} {:?} {} {} {} {:?} {}",
                t.name,
                t.server,
                t.description,
                t.size,
                t.def_json.as_str(),
                outline,
                t.deferred
            )
        })
        .collect()
}

/// Reading `toolbox` from its text (outlines and kept ranges) and from the parsed toolbox give the
/// same tools, or the same error.
fn same_reading(toolbox: &str, options: &str) {
    let options = Options::parse_json(options).options;
    let from_text = Catalog::parse_text(toolbox.to_string(), &options);
    let parsed = Catalog::parse_json(toolbox, &options);
    match (from_text, parsed) {
        (Ok(a), Ok(b)) => assert_eq!(tools_of(&a), tools_of(&b), "{toolbox:.300}"),
        (Err(a), Err(b)) => assert_eq!((a.code, a.message), (b.code, b.message), "{toolbox:.300}"),
        (a, b) => panic!("{toolbox:.300}: from the text {:?}, parsed {:?}", a.map(|_| ()), b.map(|_| ())),
    }
}

#[test]
fn reading_from_the_text_is_reading_the_parsed_toolbox() {
    for name in catalog_names() {
        let toolbox = common::grouped(&[name.as_str()]).to_json();
        same_reading(&toolbox, "{}");
        same_reading(&toolbox, r#"{"qualify":true}"#);
    }
    let schema = r#"{"type":"object","properties":{"a":{"type":"string","description":"x","enum":["p","q"]},"b":{"type":"object","properties":{"c":{"type":"integer","minimum":1}}}},"required":["a"]}"#;
    let formats = [
        format!(r#"{{"type":"function","function":{{"name":"t","description":"d","parameters":{schema}}}}}"#),
        format!(r#"{{"type":"function","name":"t","description":"d","parameters":{schema}}}"#),
        format!(r#"{{"name":"t","description":"d","input_schema":{schema}}}"#),
        format!(r#"{{"name":"t","description":"d","inputSchema":{schema}}}"#),
        format!(r#"{{"name":"t","description":"d","parameters":{schema}}}"#),
    ];
    let odd_schemas = [
        r#"{"type":"object","properties":{"a":{"description":"1.0 is \u00e9","default":1.0}}}"#,
        r#"{"type":"object","properties":{"a":{"x":1,"x":2},"b":{"enum":[1e3,-0,0.5]}}}"#,
        r#"{"type":"object","properties":{"a":{"description":"\ud800 lone, \ud83d\ude00 pair, \/ slash, \u001f"}}}"#,
        r#"{"type":"object", "properties": {"a": {"type": "string"}}}"#,
        r#"{"type":"object","properties":{"a":{"deep":[[[[{"x":[1,{"y":"z"}]}]]]]}},"required":["a","a"]}"#,
        r#"{"type":"object","properties":{"a":{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k3":17}}}"#,
        "{\"type\":\"object\",\"properties\":{\"a\":{\"t\":\"\u{100000} \u{10FFFF}\"}}}",
        r#"{"type":"object","properties":{"a":{"t":"bad \x escape"}}}"#,
        r#"{"type":"object","properties":{"a":{"t":[1,]}}}"#,
        r#"{"type":"object","properties":{"a":{"t":01}}}"#,
        r#"[1,2]"#,
    ];
    for def in &formats {
        for shape in
            [format!("[{def}]"), format!(r#"{{"servers":{{"s":[{def}]}}}}"#), format!(r#"{{"tools":[{def}]}}"#)]
        {
            same_reading(&shape, "{}");
            same_reading(&shape, r#"{"format":"anthropic"}"#);
            same_reading(&shape.replace(schema, r#"{"type":"object"}"#), "{}");
            for odd in odd_schemas {
                same_reading(&shape.replace(schema, odd), "{}");
            }
        }
    }
    for odd in [
        r#"[{"name":"t","description":"d"}]"#,
        r#"[{"description":"no name"}]"#,
        "[1]",
        r#"{"servers":{"s":[{"name":"t"} ,  {"name":"u"}]}}"#,
    ] {
        same_reading(odd, "{}");
    }
}

/// The offsets in compact JSON `text` where a value starts: the start, and after each `[`, `:` and
/// `,` outside strings.
fn value_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let (mut starts, mut in_string, mut i) = (vec![0], false, 0);
    while i < bytes.len() {
        match (in_string, bytes[i]) {
            (true, b'\\') => i += 1,
            (_, b'"') => in_string = !in_string,
            (false, b'[' | b':' | b',') => starts.push(i + 1),
            _ => {}
        }
        i += 1;
    }
    starts
}

/// The index build skips what it does not read of a def's text trusting it to be JSON
/// (`Reader::skip_trusted`): from every value's start in the first defs of every real catalog (and
/// odd strings), it ends where the checking skip ends.
#[test]
fn a_trusted_skip_ends_where_a_checked_one_does() {
    let mut texts: Vec<String> = vec![
        r#"["a\"b\\",{"k":[1,-2.5e3,true,null,{"x":"}]{["}],"y":"\u00e9\\\""},"é😀",[]]"#.into(),
        "\"\u{10FFFF}\u{100000}x\"".into(),
    ];
    for name in catalog_names() {
        texts.extend(common::catalog(&name).into_iter().take(150).map(|(_, def)| def.to_json()));
    }
    let mut compared = 0;
    for text in &texts {
        for start in value_starts(text) {
            let rest = &text[start..];
            let mut checked = Reader::new(rest);
            if checked.peek().is_none_or(|b| b == b']') || checked.skip(0).is_err() {
                continue; // not a value's start: an empty array's end
            }
            let mut trusted = Reader::new(rest);
            trusted.skip_trusted().unwrap();
            assert_eq!(trusted.offset(), checked.offset(), "{:.120}", rest);
            compared += 1;
        }
    }
    assert!(compared > 50_000, "{compared} values skipped both ways");
}
