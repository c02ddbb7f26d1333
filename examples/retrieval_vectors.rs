//! Retrieval with the caller's embeddings (SPEC §12): lexical against hybrid on every labelled set
//! (recall@1, recall@5, MRR@10, empty answers; the absent-service set's named words and full
//! matches), and the fusion's ablation (weights, candidates, reciprocal-rank fusion, int8 against
//! f32 similarities, full matches first or not, similarity alone), from the committed
//! all-MiniLM-L6-v2 fixtures (tests/data/embeddings/, made by scripts/embed).
//!
//! `cargo run --profile native --example retrieval_vectors` prints the markdown tables of
//! docs/search.md ("Semantic retrieval"); `-- --only model,absent` some sets only. The model set is
//! also reported by halves (query index even / odd), so that a choice is seen to hold on both.
//! Metrics as examples/retrieval.rs: any listed tool answers for the keyword and model sets, the
//! mean share of the listed tools for the shipped sets.

#[path = "../tests/common/catalogs.rs"]
mod catalogs;
#[path = "../tests/support/embeddings.rs"]
mod embeddings;

use std::collections::BTreeMap;

use catalogs::{
    absent_queries, keyword_queries, load_catalog, model_queries, shipped_queries, LabelledQuery, Metrics, Tool,
};
use toolshelf::embed::{embedding_key, nearest, Embeddings, Fusion};
use toolshelf::search::{Hit, SearchConfig, SearchIndex};

/// Hits looked at per query (MRR@10).
const DEPTH: usize = 10;

/// One way of ranking.
#[derive(Clone, Copy)]
enum Method {
    Lexical,
    /// The shipped fusion with these parameters (int8 similarities).
    Weighted(Fusion),
    /// The same with f32 similarities of the fixture vectors (no query quantisation).
    WeightedF32(Fusion),
    /// The same over an index that only marks partial matches (not ranked after full ones).
    WeightedUnordered(Fusion),
    /// Reciprocal-rank fusion of the lexical ranking (top 100) and the `candidates` most similar.
    Rrf {
        k: f64,
        candidates: usize,
    },
    /// Similarity alone, exact names first.
    VectorOnly,
    /// The shipped fusion with the similarity normalised by `norm` (emulated here).
    Trial {
        norm: Norm,
        fusion: Fusion,
    },
}

/// How a trial turns a similarity into the [0, 1] share it weighs.
#[derive(Clone, Copy)]
enum Norm {
    /// The cosine itself (below 0: 0).
    Raw,
    /// Over the best similarity.
    OverBest,
}

fn methods() -> Vec<(String, Method)> {
    let d = Fusion::default();
    let mut out = vec![("lexical".to_string(), Method::Lexical)];
    let label = format!("hybrid (default: {} leaders, lexical {}, {} nearest)", d.leaders, d.lexical, d.candidates);
    out.push((label, Method::Weighted(d)));
    for leaders in [0, 1, 2, 5] {
        out.push((format!("{leaders} leaders"), Method::Weighted(Fusion { leaders, ..d })));
    }
    for lexical in [0.3, 0.7, 0.9] {
        out.push((format!("lexical weight {lexical}"), Method::Weighted(Fusion { lexical, ..d })));
    }
    for candidates in [10, 50] {
        out.push((format!("{candidates} nearest"), Method::Weighted(Fusion { candidates, ..d })));
    }
    out.push(("0 leaders, lexical weight 0.3".into(), Method::Weighted(Fusion { leaders: 0, lexical: 0.3, ..d })));
    out.push(("0 leaders, lexical weight 0.7".into(), Method::Weighted(Fusion { leaders: 0, lexical: 0.7, ..d })));
    for (name, norm) in [("raw cosine", Norm::Raw), ("cosine over the best", Norm::OverBest)] {
        out.push((format!("similarity as {name} (not min-max)"), Method::Trial { norm, fusion: d }));
    }
    out.push(("f32 similarities (no int8)".into(), Method::WeightedF32(d)));
    out.push(("partial only marked (not after full)".into(), Method::WeightedUnordered(d)));
    out.push(("reciprocal-rank fusion k 60".into(), Method::Rrf { k: 60.0, candidates: d.candidates }));
    out.push(("reciprocal-rank fusion k 10".into(), Method::Rrf { k: 10.0, candidates: d.candidates }));
    out.push(("similarity only".into(), Method::VectorOnly));
    match std::env::var("METHODS") {
        Ok(only) => out.into_iter().filter(|(label, _)| only.split(',').any(|o| label.starts_with(o))).collect(),
        Err(_) => out,
    }
}

/// A catalog prepared for every method.
struct Prepared {
    tools: Vec<Tool>,
    index: SearchIndex,
    unordered: SearchIndex,
    embeddings: Embeddings,
    /// The fixture vectors as f32, unit length, contiguous (0 rows for a tool without one).
    rows: Vec<f32>,
    dim: usize,
}

fn key_number(key: &str) -> u64 {
    u64::from_str_radix(key, 16).expect("a key")
}

fn prepare(name: &str, vectors: &embeddings::Vectors) -> Prepared {
    let tools = load_catalog(name);
    let index = SearchIndex::build(tools.iter().map(Tool::fields), SearchConfig::default());
    let unordered = SearchIndex::build(
        tools.iter().map(Tool::fields),
        SearchConfig { full_first: false, ..SearchConfig::default() },
    );
    let keys: Vec<String> = tools.iter().map(Tool::embedding_key).collect();
    let mut embeddings =
        Embeddings::empty(&vectors.model, vectors.dim, keys.iter().map(|k| key_number(k)).collect()).unwrap();
    let mut rows = vec![0.0f32; tools.len() * vectors.dim];
    let mut missing = 0;
    for (doc, key) in keys.iter().enumerate() {
        match vectors.get(key) {
            Some(v) => {
                embeddings.set(doc, &v, key).unwrap();
                let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
                for (to, x) in rows[doc * vectors.dim..(doc + 1) * vectors.dim].iter_mut().zip(&v) {
                    *to = x / norm;
                }
            }
            None => missing += 1,
        }
    }
    if missing > 0 {
        eprintln!("{name}: {missing} of {} tools have no fixture vector", tools.len());
    }
    Prepared { tools, index, unordered, embeddings, rows, dim: vectors.dim }
}

impl Prepared {
    fn f32_similarities(&self, query: &[f32]) -> Vec<f32> {
        let norm = query.iter().map(|x| x * x).sum::<f32>().sqrt();
        self.rows
            .chunks_exact(self.dim)
            .map(|row| {
                if row.iter().all(|&x| x == 0.0) {
                    f32::NEG_INFINITY
                } else {
                    row.iter().zip(query).map(|(a, b)| a * b).sum::<f32>() / norm
                }
            })
            .collect()
    }

    /// The top hits of `query` (with its vector) under `method`, and the unknown words.
    fn rank(&self, method: Method, query: &str, vector: &[f32]) -> (Vec<Hit>, Vec<String>) {
        let ranked = match method {
            Method::Lexical => self.index.rank(query, DEPTH),
            Method::Weighted(f) => {
                let sims = self.embeddings.similarities(vector).unwrap();
                self.index.rank_fused(query, DEPTH, Some((&sims, &f)))
            }
            Method::WeightedF32(f) => {
                let sims = self.f32_similarities(vector);
                self.index.rank_fused(query, DEPTH, Some((&sims, &f)))
            }
            Method::WeightedUnordered(f) => {
                let sims = self.embeddings.similarities(vector).unwrap();
                self.unordered.rank_fused(query, DEPTH, Some((&sims, &f)))
            }
            Method::Rrf { k, candidates } => return self.reciprocal_rank(query, vector, k, candidates),
            Method::VectorOnly => return self.reciprocal_rank(query, vector, -1.0, DEPTH),
            Method::Trial { norm, fusion } => return self.trial(query, vector, norm, fusion),
        };
        (ranked.hits, ranked.unknown_words)
    }

    /// A weighted fusion with another normalisation, keeping the shipped rules.
    fn trial(&self, query: &str, vector: &[f32], norm: Norm, fusion: Fusion) -> (Vec<Hit>, Vec<String>) {
        let (w, candidates) = (fusion.lexical, fusion.candidates);
        let lexical = self.index.rank(query, 1000);
        let sims = self.embeddings.similarities(vector).unwrap();
        let near = nearest(&sims, candidates);
        let best = near.first().map_or(1.0, |n| n.0);
        let lower = query.trim().to_lowercase();
        let top = lexical.hits.iter().fold(0.0f64, |m, h| m.max(h.score));
        let mut fused: BTreeMap<usize, (bool, bool, f64)> = BTreeMap::new();
        for hit in &lexical.hits {
            let exact = self.tools[hit.doc].name.to_lowercase() == lower;
            fused.insert(hit.doc, (exact, !hit.partial, if top > 0.0 { hit.score / top } else { 0.0 }));
        }
        for &(_, doc) in &near {
            fused.entry(doc).or_insert((false, false, 0.0));
        }
        let mut list: Vec<(usize, (bool, bool, f64))> = fused
            .into_iter()
            .map(|(doc, (exact, full, lex))| {
                let sim = f64::from(sims[doc]).max(0.0);
                let share = match norm {
                    Norm::Raw => sim,
                    Norm::OverBest => sim / f64::from(best).max(1e-9),
                };
                (doc, (exact, full, w * lex + (1.0 - w) * share))
            })
            .collect();
        list.sort_by(|a, b| {
            (b.1 .0, b.1 .1).cmp(&(a.1 .0, a.1 .1)).then(b.1 .2.total_cmp(&a.1 .2)).then(a.0.cmp(&b.0))
        });
        let leaders = fusion.leaders;
        let lead: Vec<usize> = lexical.hits.iter().take(leaders).map(|h| h.doc).collect();
        let mut hits: Vec<Hit> = lexical.hits.iter().take(leaders).copied().collect();
        hits.extend(list.into_iter().filter(|(doc, _)| !lead.contains(doc)).map(|(doc, (_, full, score))| Hit {
            doc,
            score,
            partial: !full,
        }));
        hits.truncate(DEPTH);
        (hits, lexical.unknown_words)
    }

    /// Reciprocal-rank fusion (`k` < 0: the similarity ranking alone), with the rules the shipped
    /// fusion keeps: exact names first, full matches before partial, a tool only similar partial.
    fn reciprocal_rank(&self, query: &str, vector: &[f32], k: f64, candidates: usize) -> (Vec<Hit>, Vec<String>) {
        let lexical = self.index.rank(query, 100);
        let sims = self.embeddings.similarities(vector).unwrap();
        let near = nearest(&sims, candidates);
        let lower = query.trim().to_lowercase();
        let mut fused: BTreeMap<usize, (bool, bool, f64)> = BTreeMap::new(); // doc → (exact, full, score)
        for (rank, hit) in lexical.hits.iter().enumerate() {
            let exact = self.tools[hit.doc].name.to_lowercase() == lower;
            let score = if k < 0.0 { 0.0 } else { 1.0 / (k + rank as f64 + 1.0) };
            fused.insert(hit.doc, (exact, !hit.partial && k >= 0.0, score));
        }
        for (rank, &(_, doc)) in near.iter().enumerate() {
            let add = if k < 0.0 { 1.0 / (rank as f64 + 1.0) } else { 1.0 / (k + rank as f64 + 1.0) };
            fused.entry(doc).or_insert((false, false, 0.0)).2 += add;
        }
        let mut list: Vec<(usize, (bool, bool, f64))> = fused.into_iter().collect();
        list.retain(|(_, (exact, _, score))| *exact || *score > 0.0);
        list.sort_by(|a, b| {
            (b.1 .0, b.1 .1).cmp(&(a.1 .0, a.1 .1)).then(b.1 .2.total_cmp(&a.1 .2)).then(a.0.cmp(&b.0))
        });
        let hits =
            list.into_iter().take(DEPTH).map(|(doc, (_, full, score))| Hit { doc, score, partial: !full }).collect();
        (hits, lexical.unknown_words)
    }
}

const HEADER: &str = "| | queries | recall@1 | recall@5 | MRR@10 | empty |\n|---|---|---|---|---|---|";

struct Bench {
    tools: embeddings::Vectors,
    catalogs: BTreeMap<String, Prepared>,
}

impl Bench {
    fn catalog(&mut self, name: &str) -> &Prepared {
        if !self.catalogs.contains_key(name) {
            let prepared = prepare(name, &self.tools);
            self.catalogs.insert(name.to_string(), prepared);
        }
        &self.catalogs[name]
    }

    fn measure(
        &mut self,
        method: Method,
        queries: &[LabelledQuery],
        vectors: &embeddings::Vectors,
        any_of: bool,
    ) -> Metrics {
        let mut m = Metrics::default();
        for q in queries {
            let vector =
                vectors.get(&embedding_key(&q.query)).unwrap_or_else(|| panic!("no query vector: {:?}", q.query));
            let prepared = self.catalog(&q.catalog);
            let (hits, _) = prepared.rank(method, &q.query, &vector);
            let ranked: Vec<&Tool> = hits.iter().map(|h| &prepared.tools[h.doc]).collect();
            m.add(&ranked, q, any_of);
        }
        m
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let only: Option<Vec<String>> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|at| args.get(at + 1))
        .map(|v| v.split(',').map(String::from).collect());
    let wanted = |set: &str| only.as_ref().is_none_or(|o| o.iter().any(|s| s == set));
    let mut bench = Bench { tools: embeddings::read("tools"), catalogs: BTreeMap::new() };
    let mut sets: Vec<(String, Vec<LabelledQuery>, bool, &str)> = Vec::new();
    if wanted("keyword") {
        sets.push(("keyword".into(), keyword_queries(), true, "keyword"));
    }
    if wanted("model") {
        let all = model_queries();
        for (label, parity) in [("model, even half", 0), ("model, odd half", 1)] {
            let half = all.iter().enumerate().filter(|(i, _)| i % 2 == parity).map(|(_, q)| q.clone());
            sets.push((label.into(), half.collect(), true, "model"));
        }
        sets.push(("model".into(), all, true, "model"));
    }
    for set in ["toolbench", "bfcl", "metatool"] {
        if wanted(set) {
            sets.push((set.into(), shipped_queries(set), false, set));
        }
    }
    let methods = methods();
    for (label, queries, any_of, fixture) in &sets {
        let vectors = embeddings::read(&format!("queries-{fixture}"));
        println!("### {label} ({} queries)\n\n{HEADER}", queries.len());
        for (name, method) in &methods {
            println!("{}", bench.measure(*method, queries, &vectors, *any_of).row(name));
        }
        println!();
    }
    if wanted("absent") {
        let absent = absent_queries();
        let vectors = embeddings::read("queries-absent");
        println!("### absent services ({} queries)\n", absent.len());
        println!("| | queries | missing word named | no match full | empty |\n|---|---|---|---|---|");
        for (name, method) in &methods {
            let (mut named, mut none_full, mut empty) = (0, 0, 0);
            for q in &absent {
                let vector = vectors.get(&embedding_key(&q.query)).expect("a query vector");
                let (hits, unknown) = bench.catalog(&q.catalog).rank(*method, &q.query, &vector);
                let unknown: Vec<String> = unknown.iter().map(|w| w.to_lowercase()).collect();
                named += usize::from(q.unknown.iter().all(|w| unknown.contains(&w.to_lowercase())));
                none_full += usize::from(hits.iter().all(|h| h.partial));
                empty += usize::from(hits.is_empty());
            }
            let n = absent.len().max(1) as f64;
            println!("| {name} | {} | {:.3} | {:.3} | {empty} |", absent.len(), named as f64 / n, none_full as f64 / n);
        }
    }
}
