//! The floors of semantic retrieval (SPEC §12) with the committed all-MiniLM-L6-v2 fixtures
//! (tests/data/embeddings/): hybrid search against lexical on every labelled set, as
//! examples/retrieval_vectors.rs measures it (docs/search.md, "Semantic retrieval").
#![cfg(not(target_arch = "wasm32"))]

#[path = "common/catalogs.rs"]
mod catalogs;
#[path = "support/embeddings.rs"]
mod embeddings;

use std::collections::BTreeMap;

use catalogs::{absent_queries, keyword_queries, load_catalog, model_queries, shipped_queries, LabelledQuery, Tool};
use toolshelf::embed::{embedding_key, Embeddings, Fusion};
use toolshelf::search::{Ranked, SearchConfig, SearchIndex};

/// A catalog's tools, index and vectors (document `d` is tool `d`).
struct Prepared {
    tools: Vec<Tool>,
    index: SearchIndex,
    embeddings: Embeddings,
}

struct Bench {
    tools: embeddings::Vectors,
    catalogs: BTreeMap<String, Prepared>,
}

impl Bench {
    fn new() -> Bench {
        Bench { tools: embeddings::read("tools"), catalogs: BTreeMap::new() }
    }

    fn catalog(&mut self, name: &str) -> &Prepared {
        let vectors = &self.tools;
        self.catalogs.entry(name.to_string()).or_insert_with(|| {
            let tools = load_catalog(name);
            let index = SearchIndex::build(tools.iter().map(Tool::fields), SearchConfig::default());
            let keys: Vec<String> = tools.iter().map(Tool::embedding_key).collect();
            let numbers = keys.iter().map(|k| u64::from_str_radix(k, 16).unwrap()).collect();
            let mut embeddings = Embeddings::empty(&vectors.model, vectors.dim, numbers).unwrap();
            for (doc, key) in keys.iter().enumerate() {
                let vector = vectors.get(key).unwrap_or_else(|| panic!("{name}: no fixture vector for {key}"));
                embeddings.set(doc, &vector, key).unwrap();
            }
            Prepared { tools, index, embeddings }
        })
    }

    /// The lexical and the hybrid ranking of `query` in `catalog`.
    fn rank(&mut self, catalog: &str, query: &str, vector: &[f32]) -> (Ranked, Ranked, &[Tool]) {
        let prepared = self.catalog(catalog);
        let similarities = prepared.embeddings.similarities(vector).unwrap();
        let lexical = prepared.index.rank(query, 10);
        let hybrid = prepared.index.rank_fused(query, 10, Some((&similarities, &Fusion::default())));
        (lexical, hybrid, &prepared.tools)
    }

    /// Recall@1 and recall@5, lexical then hybrid, and the hybrid's empty answers.
    fn recall(&mut self, queries: &[LabelledQuery], fixture: &str, any_of: bool) -> ([f64; 4], usize) {
        let vectors = embeddings::read(fixture);
        let (mut sums, mut empty) = ([0.0; 4], 0);
        for q in queries {
            let vector = vectors.get(&embedding_key(&q.query)).unwrap_or_else(|| panic!("no vector for {:?}", q.query));
            let (lexical, hybrid, tools) = self.rank(&q.catalog, &q.query, &vector);
            let share = |ranked: &Ranked, k: usize| {
                let found = ranked.hits.iter().take(k).filter(|h| q.is_relevant(&tools[h.doc])).count() as f64;
                if any_of {
                    found.min(1.0)
                } else {
                    found / q.relevant.len().max(1) as f64
                }
            };
            let row = [share(&lexical, 1), share(&lexical, 5), share(&hybrid, 1), share(&hybrid, 5)];
            sums.iter_mut().zip(row).for_each(|(s, r)| *s += r);
            empty += usize::from(hybrid.hits.is_empty());
        }
        (sums.map(|s| s / queries.len().max(1) as f64), empty)
    }
}

/// Keyword set: recall@5 ≥ 0.99 and recall@1 no lower than lexical.
#[test]
fn keyword_set_holds_its_recall() {
    let ([lex_1, _, hyb_1, hyb_5], empty) = Bench::new().recall(&keyword_queries(), "queries-keyword", true);
    assert!(hyb_5 >= 0.99 && hyb_1 >= lex_1, "recall@1 {hyb_1:.3} (lexical {lex_1:.3}), recall@5 {hyb_5:.3}");
    assert_eq!(empty, 0);
}

/// Model-phrased set: measured 0.785 (lexical 0.773), both halves above lexical; 0.80 is out of
/// reach with MiniLM (docs/search.md). The floor here is the measured figure less 0.01, and never
/// below lexical.
#[test]
fn model_phrased_set_gains_on_lexical() {
    let mut bench = Bench::new();
    let all = model_queries();
    let ([_, lex_5, _, hyb_5], _) = bench.recall(&all, "queries-model", true);
    assert!(hyb_5 >= 0.775 && hyb_5 >= lex_5, "recall@5 {hyb_5:.3} (lexical {lex_5:.3})");
    for parity in [0, 1] {
        let half: Vec<LabelledQuery> =
            all.iter().enumerate().filter(|(i, _)| i % 2 == parity).map(|(_, q)| q.clone()).collect();
        let ([_, lex_5, _, hyb_5], _) = bench.recall(&half, "queries-model", true);
        assert!(hyb_5 >= lex_5, "half {parity}: recall@5 {hyb_5:.3} (lexical {lex_5:.3})");
    }
}

/// Task sentences of public benchmarks: recall@5 ≥ 0.74 on ToolBench and MetaTool, none empty.
#[test]
fn benchmark_sets_reach_their_floors() {
    let mut bench = Bench::new();
    for set in ["toolbench", "metatool"] {
        let ([_, lex_5, _, hyb_5], empty) = bench.recall(&shipped_queries(set), &format!("queries-{set}"), false);
        assert!(hyb_5 >= 0.74, "{set}: recall@5 {hyb_5:.3} (lexical {lex_5:.3})");
        assert_eq!(empty, 0, "{set}");
    }
}

/// Absent services: ≥ 95% name the missing word, and no match is ever full.
#[test]
fn absent_services_stay_named_and_partial() {
    let mut bench = Bench::new();
    let vectors = embeddings::read("queries-absent");
    let queries = absent_queries();
    let mut named = 0;
    for q in &queries {
        let vector = vectors.get(&embedding_key(&q.query)).expect("a query vector");
        let (lexical, hybrid, _) = bench.rank(&q.catalog, &q.query, &vector);
        assert_eq!(hybrid.unknown_words, lexical.unknown_words, "{:?}", q.query);
        assert!(hybrid.hits.iter().all(|h| h.partial), "{:?}: a full match", q.query);
        let unknown: Vec<String> = hybrid.unknown_words.iter().map(|w| w.to_lowercase()).collect();
        named += usize::from(q.unknown.iter().all(|w| unknown.contains(&w.to_lowercase())));
    }
    assert!(named as f64 >= 0.95 * queries.len() as f64, "{named} of {}", queries.len());
}
