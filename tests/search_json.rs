//! The search result the package's `Shelf.search` builds from the binding's texts
//! (`Shelf::search_found`'s, each match its tool's index, score bits and `partial`, and each hit
//! tool's `Shelf::match_summary`, as `pkg-template/api.js` puts them together) is byte for byte
//! `Shelf::search`'s `to_value().to_json()`, on every real catalog, for its labelled queries and
//! for the odd ones: an empty query (servers and an error), names, no match, unknown words,
//! escapes and lone surrogates, every limit.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::catalogs::{catalog_names, keyword_queries, model_queries};
use toolshelf::{json, Shelf, Value};

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
                let found = shelf.search_found(query, limit);
                assert_eq!(found.clone().into_result(shelf.catalog()), result, "{name}: {query:?}, limit {limit:?}");
                let written = composed(&shelf, &found.to_json());
                assert_eq!(written, result.to_value().to_json(), "{name}: {query:?}, limit {limit:?}");
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared} results compared");
}

/// The result as `pkg-template/api.js` builds it: `search_found`'s JSON with each match
/// `[tool, high, low, partial]` replaced by the tool's summary, a copy of its `required`, the
/// score (from its bits) and `partial`, in that order; written as JSON text.
fn composed(shelf: &Shelf, found: &str) -> String {
    let Ok(Value::Object(mut members)) = json::parse(found) else { panic!("{found}: an object") };
    for (key, value) in members.iter_mut().filter(|(key, _)| key == "matches") {
        let Value::Array(hits) = value else { panic!("{key}: an array") };
        for hit in hits.iter_mut() {
            let [tool, high, low, partial] = hit.as_array().unwrap_or(&[]) else {
                panic!("{found}: a hit is [tool, high, low, partial]")
            };
            let tool = tool.as_f64().map(|t| t as usize).unwrap_or(usize::MAX);
            let score = match (high.as_f64(), low.as_f64()) {
                (Some(high), Some(low)) => Value::float(f64::from_bits(((high as u64) << 32) | low as u64)),
                _ => Value::Null,
            };
            let summary = shelf.match_summary(tool).unwrap_or_else(|| panic!("{found}: tool {tool} has a summary"));
            let Ok(Value::Object(mut object)) = json::parse(&summary) else { panic!("{summary}: an object") };
            object.push(("score".into(), score));
            object.push(("partial".into(), partial.clone()));
            *hit = Value::Object(object);
        }
    }
    Value::Object(members).to_json()
}
