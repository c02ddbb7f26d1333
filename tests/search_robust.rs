//! Odd input never panics and gives sensible, bounded answers: empty and whitespace queries,
//! very long queries, unicode, punctuation, control characters, empty toolboxes, odd limits.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

use toolshelf::search::{DocFields, SearchConfig, SearchIndex, Verdict, MAX_QUERY_CHARS};

fn shelf() -> SearchIndex {
    let docs = [
        ("create_issue", "github", "Create a new issue.", vec!["title"]),
        ("获取天气", "weather", "获取天气预报 (weather forecast)", vec!["城市"]),
        ("", "", "", vec![]),
        ("___", "-", "!!!", vec!["", "_"]),
        ("mcp__x__", "x", "prefix only", vec![]),
        ("Ünïcødé_Tool", "ü", "naïve café façade", vec!["ß"]),
    ];
    let fields = docs.iter().map(|(name, server, description, params)| DocFields {
        name,
        own: "",
        server,
        description,
        params: params.iter().map(|&p| p.into()).collect(),
        param_descriptions: Vec::new(),
        hints: Vec::new(),
    });
    SearchIndex::build(fields, SearchConfig::default())
}

/// `query` runs through search (limits 0, 1, 10, huge) and explain (every doc and one past the
/// end) without panicking; the hits returned are at most the expected count.
fn check(query: &str, max_hits: usize) {
    let index = shelf();
    for limit in [0, 1, 10, usize::MAX] {
        let hits = index.search(query, limit);
        assert!(hits.len() <= limit.min(max_hits), "{query:?} limit {limit}: {hits:?}");
        assert!(hits.iter().all(|h| h.doc < index.len() && h.score.is_finite() && h.score >= 0.0));
    }
    for doc in 0..=index.len() {
        let why = index.explain(query, doc);
        assert!(why.score.is_finite());
        if doc == index.len() {
            assert_eq!(why.verdict, Verdict::NoSuchDoc);
        }
    }
}

#[test]
fn odd_queries() {
    check("", 0);
    check("   \t\n ", 0);
    check("?!.,;:-_/", 0);
    check("___", 1);
    check("\u{0}\u{1}\u{7f}", 0);
    check("🦀🦀🦀", 0);
    check("获取天气", 1);
    check("ünïcødé_tool", 1);
    check("naïve café", 1);
    check("a", 1);
    check("the of and to", 0);
    check("create issue create issue issue", 1);
    check("mcp__x__", 1);
    check("mcp____", 1);
    check("\u{feff}create\u{200b}issue", 1);
}

#[test]
fn very_long_queries() {
    check(&"create issue ".repeat(1_000), 1);
    check(&"x".repeat(10_000), 0);
    check(&"é".repeat(10_000), 0);
    check(&"a_".repeat(5_000), 1);
    check(&"Word".repeat(2_500), 0);
    check(&"1a".repeat(5_000), 0);
}

#[test]
fn only_the_first_thousand_code_points_count() {
    let index = shelf();
    let padding = "é".repeat(MAX_QUERY_CHARS - 6);
    let inside = format!("{padding} issue");
    let outside = format!("{padding}      issue");
    assert_eq!(index.search(&inside, 5).len(), 1);
    assert_eq!(index.search(&outside, 5).len(), 0);
}

#[test]
fn empty_toolbox() {
    let index = SearchIndex::build(Vec::<DocFields<'_>>::new(), SearchConfig::default());
    assert!(index.is_empty());
    assert_eq!(index.len(), 0);
    assert_eq!(index.search("anything", 10), []);
    assert_eq!(index.search("", usize::MAX), []);
    assert_eq!(index.explain("anything", 0).verdict, Verdict::NoSuchDoc);
}

#[test]
fn every_config_handles_odd_input() {
    let docs = [DocFields {
        name: "a_B-c.d:e/f9G",
        own: "",
        server: "S",
        description: "<p>Ünï 💥 &amp; <a href=\"x",
        params: vec!["x".into()],
        param_descriptions: vec!["<b".into(), "&#".into()],
        hints: Vec::new(),
    }];
    for full_first in [true, false] {
        for config in [
            SearchConfig { full_first, ..SearchConfig::default() },
            SearchConfig { full_first, ..SearchConfig::PLAIN_BM25 },
        ] {
            let index = SearchIndex::build(docs.clone(), config);
            for query in ["", "b", "f 9 g", "💥", "a_B-c.d:e/f9G", "who am i", &"z".repeat(20_000)] {
                let hits = index.search(query, usize::MAX);
                assert!(hits.len() <= 1);
                let why = index.explain(query, 0);
                assert!(why.score.is_finite() && why.score >= 0.0, "{query:?}: {why:?}");
            }
            assert_eq!(index.search("a_b-c.d:e/f9g", 3).len(), 1, "{config:?}");
        }
    }
}
