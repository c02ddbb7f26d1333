//! Runs the keyword query set (`tests/data/queries-keyword.json`) natively and prints each search
//! result as JSON, so the JS tests can check that wasm in every runtime ranks and scores alike.
//! `cargo run --release --example search_fixtures > target/native-search.json`

#[path = "../tests/common/mod.rs"]
mod common;

use toolshelf::json::{self, Value};
use toolshelf::Shelf;

/// The limit every query is searched with: more than the default, so ranks past 5 are compared too.
const LIMIT: usize = 10;

fn main() {
    let text = std::fs::read_to_string(common::data_dir().join("queries-keyword.json")).unwrap();
    let queries = json::parse(&text).unwrap();
    let mut shelves: Vec<(String, Shelf)> = Vec::new();
    let results: Vec<Value> = queries
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            let catalog = q.get("catalog").and_then(Value::as_str).unwrap();
            let query = q.get("query").and_then(Value::as_str).unwrap();
            if !shelves.iter().any(|(name, _)| name == catalog) {
                let shelf = Shelf::new(&common::grouped(&[catalog]), &Value::Null).expect(catalog);
                shelves.push((catalog.to_string(), shelf));
            }
            let shelf = &shelves.iter().find(|(name, _)| name == catalog).unwrap().1;
            let result = shelf.search(query, Some(LIMIT)).to_value();
            Value::object([("catalog", Value::str(catalog)), ("query", Value::str(query)), ("result", result)])
        })
        .collect();
    println!("{}", Value::Array(results).to_json());
}
