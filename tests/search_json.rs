//! The search result's JSON text as the binding returns it (`SearchResult::to_json`, written
//! straight into one string) is byte for byte `to_value().to_json()`, on every real catalog, for
//! its labelled queries and for the odd ones: an empty query (servers and an error), names, no
//! match, unknown words, escapes and lone surrogates, every limit.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::catalogs::{catalog_names, keyword_queries, model_queries};
use toolshelf::Shelf;

/// Queries every catalog is searched with, beside its labelled ones.
const QUERIES: [&str; 12] = [
    "",
    "   ",
    "create issue",
    "list_issues get_me",
    "zzzzqqq",
    "gmail send",
    "who am I",
    "the \"quoted\" \\ back\tslash",
    "ünïcödé 東京 \u{10FFFF}\u{100000}",
    "#7 ENG-123 example.com 203.0.113.7",
    "x",
    "a b c d e f g h i j k l m n o p",
];

#[test]
fn the_written_result_is_the_value_written() {
    let mut names = catalog_names();
    names.push("rest-apis-flat-3400".into());
    let labelled: Vec<_> = keyword_queries().into_iter().chain(model_queries()).collect();
    let mut compared = 0;
    for name in &names {
        let toolbox = common::grouped_with(vec![common::openai_tool("read_file", "Read a file.")], &[name]);
        let Ok(shelf) = Shelf::from_json_text(toolbox.to_json(), r#"{"qualify":true,"maxSearchLimit":50}"#) else {
            panic!("{name}: a qualified toolbox is a shelf");
        };
        let own = labelled.iter().filter(|q| q.catalog == *name).take(60).map(|q| q.query.as_str());
        let first_names: Vec<String> = shelf.catalog().tools.iter().take(3).map(|t| t.name.clone()).collect();
        let named = first_names.join(" ");
        for query in QUERIES.iter().copied().chain(own).chain([named.as_str()]) {
            for limit in [None, Some(1), Some(50)] {
                let result = shelf.search(query, limit);
                assert_eq!(result.to_json(), result.to_value().to_json(), "{name}: {query:?}, limit {limit:?}");
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared} results compared");
}
