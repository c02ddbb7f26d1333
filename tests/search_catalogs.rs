//! The search over the real catalogs: the keyword query set is valid and answered, the gmail
//! example of SPEC §4, and results that do not depend on the order tools are given in.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

#[path = "common/catalogs.rs"]
mod catalogs;

use std::collections::{BTreeMap, BTreeSet};

use catalogs::{keyword_queries, load_catalog, Tool};
use toolshelf::search::{SearchConfig, SearchIndex};

fn build(tools: &[Tool], config: SearchConfig) -> SearchIndex {
    SearchIndex::build(tools.iter().map(Tool::fields), config)
}

fn hit_names<'t>(tools: &'t [Tool], index: &SearchIndex, query: &str, limit: usize) -> Vec<&'t str> {
    index.search(query, limit).iter().map(|h| tools[h.doc].name.as_str()).collect()
}

#[test]
fn keyword_set_names_exist_in_their_catalogs() {
    let queries = keyword_queries();
    assert!(queries.len() >= 150, "{} queries", queries.len());
    let catalogs: BTreeSet<&str> = queries.iter().map(|q| q.catalog.as_str()).collect();
    assert!(catalogs.len() >= 4, "{catalogs:?}");
    let mut seen = BTreeSet::new();
    for catalog in catalogs {
        let names: BTreeSet<String> = load_catalog(catalog).into_iter().map(|t| t.name).collect();
        for q in queries.iter().filter(|q| q.catalog == catalog) {
            assert!(!q.relevant.is_empty() && !q.query.trim().is_empty(), "{q:?}");
            assert!(seen.insert((catalog, q.query.as_str())), "duplicate query {q:?}");
            for (_, name) in &q.relevant {
                assert!(names.contains(name), "{catalog}: {name:?} (query {:?}) is not a tool", q.query);
            }
        }
    }
}

/// Recall@5 of the default ranking over the keyword set stays at or above the target.
#[test]
fn keyword_set_recall_at_5() {
    let queries = keyword_queries();
    let mut catalogs: BTreeMap<&str, (Vec<Tool>, SearchIndex)> = BTreeMap::new();
    let mut found = 0;
    for q in &queries {
        let (tools, index) = catalogs.entry(q.catalog.as_str()).or_insert_with(|| {
            let tools = load_catalog(&q.catalog);
            let index = build(&tools, SearchConfig::default());
            (tools, index)
        });
        found += usize::from(index.search(&q.query, 5).iter().any(|h| q.is_relevant(&tools[h.doc])));
    }
    let recall = found as f64 / queries.len() as f64;
    assert!(recall >= 0.95, "recall@5 = {recall:.3}");
}

#[test]
fn gmail_query_finds_nothing_in_a_catalog_without_gmail() {
    let tools = load_catalog("cloudflare-api-2024-08");
    assert!(tools.iter().all(|t| !t.name.contains("gmail") && !t.description.to_lowercase().contains("gmail")));
    let gated = build(&tools, SearchConfig::default());
    assert_eq!(hit_names(&tools, &gated, "send gmail email", 5), Vec::<&str>::new());
    // Without the gate the same query returns unrelated email tools: the gate is what stops them.
    let open = build(&tools, SearchConfig { gate: false, ..SearchConfig::default() });
    let unrelated = hit_names(&tools, &open, "send gmail email", 5);
    assert_eq!(unrelated.len(), 5);
    assert!(unrelated.iter().filter(|n| n.contains("email")).count() >= 4, "{unrelated:?}");
    // And the catalog's own email tools are found when asked for by what it has.
    let routing = hit_names(&tools, &gated, "enable email routing", 1);
    assert_eq!(routing, ["email-routing-settings-enable-email-routing"]);
}

/// A fixed permutation (multiplicative step coprime with the length).
fn shuffled(tools: &[Tool]) -> Vec<Tool> {
    let n = tools.len();
    let step = (1..n).rev().find(|s| gcd(*s, n) == 1 && *s > n / 3).unwrap_or(1);
    (0..n).map(|i| tools[(i * step + 7) % n].clone()).collect()
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn results_do_not_depend_on_input_order() {
    let queries = keyword_queries();
    for catalog in ["github-mcp-server", "livemcptool-70servers", "stripe-api-2022-04"] {
        let tools = load_catalog(catalog);
        let mixed = shuffled(&tools);
        assert_ne!(tools[0].name, mixed[0].name);
        let a = build(&tools, SearchConfig::default());
        let b = build(&mixed, SearchConfig::default());
        let texts = queries.iter().filter(|q| q.catalog == catalog).map(|q| q.query.as_str());
        for query in texts.chain(["search", "get", "create", "list", "read_file", "x"]) {
            let left: Vec<(&str, &str, u64)> = a
                .search(query, 20)
                .iter()
                .map(|h| (&*tools[h.doc].name, &*tools[h.doc].server, h.score.to_bits()))
                .collect();
            let right: Vec<(&str, &str, u64)> = b
                .search(query, 20)
                .iter()
                .map(|h| (&*mixed[h.doc].name, &*mixed[h.doc].server, h.score.to_bits()))
                .collect();
            assert_eq!(left, right, "{catalog}: {query:?}");
        }
    }
}

#[test]
fn a_name_on_two_servers_puts_both_first() {
    let tools = load_catalog("livemcptool-70servers");
    let index = build(&tools, SearchConfig::default());
    let hits = index.search("read_file", 10);
    let first_two: BTreeSet<(&str, &str)> =
        hits.iter().take(2).map(|h| (tools[h.doc].name.as_str(), tools[h.doc].server.as_str())).collect();
    assert_eq!(first_two, BTreeSet::from([("read_file", "desktop-commander"), ("read_file", "filesystem")]));
    assert!(hits.iter().skip(2).all(|h| tools[h.doc].name != "read_file"));
}
