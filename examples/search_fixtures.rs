//! Runs the keyword query set (`tests/data/queries-keyword.json`) natively and prints each search
//! result as JSON, so the JS tests can check that wasm in every runtime ranks and scores alike.
//! `cargo run --release --example search_fixtures > target/native-search.json`

#[path = "../tests/common/mod.rs"]
mod common;

use toolshelf::json::{self, Value};
use toolshelf::Shelf;

/// The limit every query is searched with: more than the default, so ranks past 5 are compared too.
const LIMIT: usize = 10;
/// Options of a catalog with several servers: `qualify`, since the 70 servers share tool names
/// (`search`, …). A one-server catalog is searched with the defaults, so both naming modes are compared.
const MANY_SERVERS: &str = r#"{"qualify":true}"#;

fn main() {
    let text = std::fs::read_to_string(common::data_dir().join("queries-keyword.json")).unwrap();
    let queries = json::parse(&text).unwrap();
    let mut shelves: Vec<(String, Value, Shelf)> = Vec::new();
    let results: Vec<Value> = queries
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            let catalog = q.get("catalog").and_then(Value::as_str).unwrap();
            let query = q.get("query").and_then(Value::as_str).unwrap();
            if !shelves.iter().any(|(name, _, _)| name == catalog) {
                let toolbox = common::grouped(&[catalog]);
                let servers = toolbox.get("servers").and_then(Value::as_object).map_or(0, <[_]>::len);
                let options = if servers > 1 { json::parse(MANY_SERVERS).unwrap() } else { Value::Null };
                let shelf = Shelf::new(&toolbox, &options).expect(catalog);
                shelves.push((catalog.to_string(), options, shelf));
            }
            let (_, options, shelf) = shelves.iter().find(|(name, _, _)| name == catalog).unwrap();
            let result = shelf.search(query, Some(LIMIT)).to_value();
            let limit = Value::uint(LIMIT as u64);
            let fields = [("catalog", Value::str(catalog)), ("options", options.clone()), ("query", Value::str(query))];
            Value::object(fields.into_iter().chain([("limit", limit), ("result", result)]))
        })
        .collect();
    println!("{}", Value::Array(results).to_json());
}
