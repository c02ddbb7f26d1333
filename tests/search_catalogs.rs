//! The search over the real catalogs: the keyword query set is valid and answered, the gmail
//! example of SPEC §4, and results that do not depend on the order tools are given in.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

#[path = "common/catalogs.rs"]
mod catalogs;

use std::collections::{BTreeMap, BTreeSet};

use catalogs::{absent_queries, keyword_queries, load_catalog, model_queries, shipped_queries, LabelledQuery, Tool};
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

/// Recall@1 and recall@5 of the default ranking over `queries` (any listed tool answers, or the
/// mean share of the listed tools when `any_of` is false), and the queries answered with nothing.
fn recall(queries: &[LabelledQuery], any_of: bool) -> (f64, f64, usize) {
    recall_with(queries, any_of, SearchConfig::default())
}

/// [`recall`] under `config`.
fn recall_with(queries: &[LabelledQuery], any_of: bool, config: SearchConfig) -> (f64, f64, usize) {
    let mut catalogs: BTreeMap<&str, (Vec<Tool>, SearchIndex)> = BTreeMap::new();
    let (mut at_1, mut at_5, mut empty) = (0.0, 0.0, 0);
    for q in queries {
        let (tools, index) = catalogs.entry(q.catalog.as_str()).or_insert_with(|| {
            let tools = load_catalog(&q.catalog);
            let index = build(&tools, config);
            (tools, index)
        });
        let hits = index.search(&q.query, 5);
        empty += usize::from(hits.is_empty());
        let found = |k: usize| hits.iter().take(k).filter(|h| q.is_relevant(&tools[h.doc])).count() as f64;
        let share = |k: usize| if any_of { found(k).min(1.0) } else { found(k) / q.relevant.len().max(1) as f64 };
        at_1 += share(1);
        at_5 += share(5);
    }
    let n = queries.len().max(1) as f64;
    (at_1 / n, at_5 / n, empty)
}

/// The keyword set (SPEC §4): recall@5 ≥ 0.98, recall@1 ≥ 0.88, and a search
/// never strands the model.
#[test]
fn keyword_set_recall() {
    let (at_1, at_5, empty) = recall(&keyword_queries(), true);
    assert!(at_5 >= 0.98 && at_1 >= 0.88, "recall@1 {at_1:.3}, recall@5 {at_5:.3}");
    assert_eq!(empty, 0);
}

/// Requests phrased as models phrase them, in words that differ from the tools' own. The floor
/// is the measured value less a margin (docs/search.md).
#[test]
fn model_phrased_set_recall() {
    let queries = model_queries();
    assert!(queries.len() >= 150, "{} queries", queries.len());
    let (at_1, at_5, empty) = recall(&queries, true);
    assert!(at_5 >= MODEL_RECALL_5_FLOOR && at_1 >= 0.35, "recall@1 {at_1:.3}, recall@5 {at_5:.3}");
    assert_eq!(empty, 0, "a search never strands the model");
}

/// The second ranking pass (docs/search.md) earns its place: weighing name terms by idf and
/// coordination raise the model-phrased set's recall@5 and bfcl's, and leave toolbench's no lower.
#[test]
fn name_cover_by_idf_and_coordination_earn_their_place() {
    let first_pass = SearchConfig { name_cover_by_idf: false, coordination: 0.0, ..SearchConfig::default() };
    let model = model_queries();
    let (_, now, _) = recall(&model, true);
    let (_, before, _) = recall_with(&model, true, first_pass);
    assert!(now > before, "model set recall@5 {now:.3}, without {before:.3}");
    for set in ["toolbench", "bfcl"] {
        let queries = shipped_queries(set);
        let (_, now, _) = recall(&queries, false);
        let (_, before, _) = recall_with(&queries, false, first_pass);
        assert!(now >= before, "{set}: recall@5 {now:.3}, without {before:.3}");
    }
}

/// A query asking "am I" asks for the current user, whatever else it says.
#[test]
fn asking_who_i_am_finds_the_current_user() {
    let tools = load_catalog("github-mcp-server");
    let index = build(&tools, SearchConfig::default());
    for query in ["who am I logged in as on github", "who am I on github", "which account am I using"] {
        assert!(hit_names(&tools, &index, query, 5).contains(&"get_me"), "{query:?}");
    }
}

/// Values written in a query are arguments: never reported unknown nor required of a full match,
/// and an issue key or a domain asks for what holds it.
#[test]
fn values_are_arguments_not_words() {
    let github = load_catalog("github-mcp-server");
    let index = build(&github, SearchConfig::default());
    let ranked = index.rank("close issue #7", 5);
    assert!(ranked.unknown_words.is_empty() && !ranked.hits[0].partial, "{ranked:?}");
    let linear = load_catalog("linear-mcp-official");
    let index = build(&linear, SearchConfig::default());
    assert_eq!(index.rank("pull up ticket ENG-42", 5).unknown_words, ["ticket"]);
    assert!(hit_names(&linear, &index, "pull up ticket ENG-42", 5).contains(&"get_issue"));
    let words = build(&linear, SearchConfig { values: false, ..SearchConfig::default() });
    assert!(!hit_names(&linear, &words, "pull up ticket ENG-42", 5).contains(&"get_issue"));
    let tools = load_catalog("livemcptool-70servers");
    let index = build(&tools, SearchConfig::default());
    assert!(index.rank("who owns example.com", 5).unknown_words.is_empty());
    assert!(hit_names(&tools, &index, "who owns example.com", 5).contains(&"whois_domain"));
}

/// Measured recall@5 of the model-phrased set (docs/search.md) less 0.02.
const MODEL_RECALL_5_FLOOR: f64 = 0.75;

/// The shipped natural-language sets: toolbench ≥ 0.72 and bfcl ≥ 0.62 recall@5, empty answers
/// ≤ 1% (metatool's 21,111 queries run in the retrieval benchmark, not here).
#[test]
fn task_sentence_sets_recall() {
    for (set, floor) in [("toolbench", 0.72), ("bfcl", 0.62)] {
        let queries = shipped_queries(set);
        let (_, at_5, empty) = recall(&queries, false);
        assert!(at_5 >= floor, "{set}: recall@5 {at_5:.3}");
        assert!(empty * 100 <= queries.len(), "{set}: {empty} empty answers");
    }
}

/// Queries for a service the catalog lacks: ≥ 95% name every missing word as unknown, and no
/// match of any of them is marked full.
#[test]
fn absent_services_are_reported_unknown() {
    let queries = absent_queries();
    assert!(queries.len() >= 60, "{} queries", queries.len());
    let mut indexes: BTreeMap<&str, (Vec<Tool>, SearchIndex)> = BTreeMap::new();
    let mut named = 0;
    for q in &queries {
        let (tools, index) = indexes.entry(q.catalog.as_str()).or_insert_with(|| {
            let tools = load_catalog(&q.catalog);
            let index = build(&tools, SearchConfig::default());
            (tools, index)
        });
        let ranked = index.rank(&q.query, 5);
        let unknown: Vec<String> = ranked.unknown_words.iter().map(|w| w.to_lowercase()).collect();
        named += usize::from(q.unknown.iter().all(|w| unknown.contains(&w.to_lowercase())));
        assert!(!ranked.unknown_words.is_empty(), "{q:?}: nothing reported unknown");
        for hit in &ranked.hits {
            assert!(hit.partial, "{q:?}: {} is marked full", tools[hit.doc].name);
        }
    }
    assert!(named * 100 >= queries.len() * 95, "{named} of {} name every missing word", queries.len());
}

/// Every label of the model-phrased and absent-service sets names a real tool, and no query is
/// repeated (tests/data/check_query_sets.py checks the words of the absent set).
#[test]
fn model_and_absent_sets_are_well_formed() {
    let mut seen = BTreeSet::new();
    for q in model_queries() {
        let tools = load_catalog(&q.catalog);
        assert!(seen.insert((q.catalog.clone(), q.query.clone())), "duplicate {q:?}");
        for (server, name) in &q.relevant {
            let exists = tools.iter().any(|t| t.name == *name && server.as_ref().is_none_or(|s| *s == t.server));
            assert!(exists, "{}: {server:?} {name:?} (query {:?}) is not a tool", q.catalog, q.query);
        }
    }
    for q in absent_queries() {
        assert!(!q.unknown.is_empty(), "{q:?}");
        let lower = q.query.to_lowercase();
        assert!(q.unknown.iter().all(|w| lower.contains(&w.to_lowercase())), "{q:?}");
    }
}

#[test]
fn gmail_is_reported_unknown_in_a_catalog_without_gmail() {
    let tools = load_catalog("cloudflare-api-2024-08");
    assert!(tools.iter().all(|t| !t.name.contains("gmail") && !t.description.to_lowercase().contains("gmail")));
    let index = build(&tools, SearchConfig::default());
    let ranked = index.rank("send gmail email", 5);
    assert_eq!(ranked.unknown_words, ["gmail"]);
    // The email tools the catalog has still come, every one marked partial: the model sees that
    // Gmail is missing instead of silently getting another mail tool.
    assert_eq!(ranked.hits.len(), 5);
    assert!(ranked.hits.iter().all(|h| h.partial));
    // (Load balancer pools take a `notification_email` "to send health notifications to": they
    // hold both known words and rank among them.)
    assert!(ranked.hits.iter().filter(|h| tools[h.doc].name.contains("email")).count() >= 3);
    // And the catalog's own email tools are found, full, when asked for by what it has.
    let routing = index.rank("enable email routing", 1);
    assert_eq!(hit_names(&tools, &index, "enable email routing", 1), ["email-routing-settings-enable-email-routing"]);
    assert!(!routing.hits[0].partial && routing.unknown_words.is_empty());
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
