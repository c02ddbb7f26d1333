//! The embedding texts of a catalog's deferred tools (SPEC §12), one JSON line `{"key","text"}`
//! per tool in `Shelf::embedding_texts` order, for the model pipeline (`scripts/embed`) to embed:
//! `cargo run --profile native --example embedding_texts -- tests/data/catalogs/X.json.gz`.
//! A file is `.json` or `.json.gz`: a test catalog (`[{server, tool}]`, as `tests/data/catalogs`
//! holds, read as a grouped toolbox with the servers in first-seen order, as the native tests
//! read it) or a toolbox.

use std::io::{Read, Write};

use toolshelf::json::{self, Value};
use toolshelf::Shelf;

fn main() {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for path in std::env::args().skip(1) {
        let shelf = Shelf::new(&toolbox(&read_text(&path)), &Value::Null).unwrap_or_else(|e| panic!("{path}: {e}"));
        for (key, text) in shelf.embedding_texts() {
            let line = Value::Object(vec![("key".into(), Value::String(key)), ("text".into(), Value::String(text))]);
            if writeln!(out, "{}", line.to_json()).is_err() {
                return; // stdout closed (`| head`)
            }
        }
    }
}

/// The file's text, gunzipped when its name ends in `.gz`.
fn read_text(path: &str) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    if !path.ends_with(".gz") {
        return String::from_utf8(bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut text).unwrap_or_else(|e| panic!("{path}: {e}"));
    text
}

/// A test catalog as a grouped toolbox (what `tests/common/mod.rs::grouped` builds); any other
/// JSON as it is.
fn toolbox(text: &str) -> Value {
    let value = json::parse(text).unwrap_or_else(|e| panic!("not JSON: {e:?}"));
    let Value::Array(entries) = &value else { return value };
    let mut servers: Vec<(String, Value)> = Vec::new();
    for entry in entries {
        let (Some(server), Some(tool)) = (entry.get("server").and_then(Value::as_str), entry.get("tool")) else {
            return value;
        };
        match servers.iter_mut().find(|(s, _)| s == server) {
            Some((_, Value::Array(list))) => list.push(tool.clone()),
            _ => servers.push((server.to_string(), Value::Array(vec![tool.clone()]))),
        }
    }
    Value::Object(vec![("servers".into(), Value::Object(servers))])
}
