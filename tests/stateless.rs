//! The stateless free functions give exactly what a prepared `Shelf` gives (SPEC §0), for every
//! operation, over real catalogs and the shared keyword queries.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use toolshelf::json::{self, Value};
use toolshelf::Shelf;

#[test]
fn search_and_describe_match_the_prepared_shelf() {
    let toolbox = common::grouped(&["github-mcp-server", "linear-mcp-official", "stripe-api-2022-04"]);
    let options = common::options(r#"{"qualify":true,"searchDefaultLimit":7}"#);
    let shelf = Shelf::new(&toolbox, &options).unwrap();
    let queries =
        json::parse(&std::fs::read_to_string(common::data_dir().join("queries-keyword.json")).unwrap()).unwrap();
    let queries: Vec<&str> =
        queries.as_array().unwrap().iter().filter_map(|q| q.get("query").and_then(Value::as_str)).step_by(10).collect();
    assert!(queries.len() >= 20);
    for (i, query) in queries.iter().enumerate() {
        let limit = if i % 2 == 0 { None } else { Some(3) };
        let prepared = shelf.search(query, limit);
        assert_eq!(toolshelf::search(&toolbox, query, &options, limit).unwrap(), prepared, "{query}");
        assert!(prepared.matches.len() <= limit.unwrap_or(7), "{query}");
        for m in &prepared.matches {
            let described = toolshelf::describe(&toolbox, &m.name, &options).unwrap().expect("a hit is describable");
            assert_eq!(Some(&described), shelf.describe(&m.name).as_ref());
            assert_eq!(
                (described.server.as_str(), described.description.as_str()),
                (m.server.as_str(), m.description.as_str())
            );
        }
    }
    let assembled = toolshelf::assemble(&toolbox, &options).unwrap();
    assert_eq!(assembled.facts, shelf.assemble().facts);
}

#[test]
fn search_limits_and_empty_queries() {
    let shelf =
        Shelf::new(&common::grouped(&["github-mcp-server"]), &common::options(r#"{"maxSearchLimit":4}"#)).unwrap();
    assert_eq!(shelf.search("list", Some(100)).matches.len(), 4, "limit clamped to maxSearchLimit");
    assert_eq!(shelf.search("issue", Some(0)).matches.len(), 1, "limit clamped to at least 1");
    assert_eq!(shelf.search("issue", None).matches.len(), 4, "default limit clamped to maxSearchLimit");
    let empty = shelf.search("   ", None);
    assert!(empty.matches.is_empty() && empty.error.is_some() && empty.servers.is_some());
    let long = "issue ".repeat(1_000);
    assert_eq!(shelf.search(&long, None).query.chars().count(), 1_000, "queries are cut at 1,000 code points");
}
