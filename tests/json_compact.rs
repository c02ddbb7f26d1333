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
            let outline = catalog.schema_outline(t).map(|o| o.to_json());
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
