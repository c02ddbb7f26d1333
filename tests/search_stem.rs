//! Stemming: our Porter2 against the Snowball project's reference implementation.
//!
//! The reference pairs (`tests/data/stem-reference.json`, `[word, stem]`) were produced by the
//! Snowball reference stemmer (`snowballstemmer` 2.2.0, English): the words of the Snowball sample vocabulary around `consign`/`knack`, the examples
//! of the algorithm's description, its exception lists, and every 40th word of the test catalogs'
//! vocabulary. (All 9,534 distinct words of the catalogs were checked once and agreed.)
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

use toolshelf::json::{self, Value};
use toolshelf::search::stem::stem;

/// `tests/data/stem-reference.json`: `[word, stem]` pairs.
fn reference() -> Vec<(String, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/stem-reference.json");
    let pairs = json::parse(&std::fs::read_to_string(&path).expect("stem-reference.json")).expect("it parses");
    let text = |v: &Value| v.as_str().expect("a string").to_string();
    pairs
        .as_array()
        .expect("a list")
        .iter()
        .map(|p| (text(&p.as_array().unwrap()[0]), text(&p.as_array().unwrap()[1])))
        .collect()
}

fn check(word: &str, expected: &str) {
    assert_eq!(stem(word), expected, "stem({word:?})");
}

#[test]
fn snowball_reference_pairs() {
    let pairs = reference();
    assert!(pairs.len() > 400);
    for (word, expected) in &pairs {
        check(word, expected);
    }
}

#[test]
fn inputs_outside_the_token_alphabet_come_back_unchanged() {
    check("", "");
    check("a", "a");
    check("is", "is");
    check("Running", "Running");
    check("naïve", "naïve");
    check("re-run", "re-run");
    check("2010", "2010");
    check("v2", "v2");
}

#[test]
fn words_tool_catalogs_use() {
    check("refunds", "refund");
    check("charges", "charg");
    check("repositories", "repositori");
    check("repository", "repositori");
    check("notifications", "notif");
    check("creating", "creat");
    check("created", "creat");
    check("webhooks", "webhook");
    check("subscriptions", "subscript");
}
