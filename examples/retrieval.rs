//! Retrieval benchmark of `toolshelf::search`: recall@1, recall@5 and MRR@10 per catalog and per
//! query set, for the default ranking and its ablations.
//!
//! `cargo run --profile native --example retrieval` prints the markdown tables of docs/search.md.
//! `-- --misses` also lists the keyword queries whose answer is not in the top 5 (default config);
//! `-- --only model-even,model-odd` measures the model set's halves by query index parity.
//! `-- --explain CATALOG QUERY TOOL` shows why a tool does or does not answer a query.
//!
//! Metrics: for the keyword set every listed tool is an acceptable answer, so recall@k is the share
//! of queries with an acceptable tool in the top k. For the shipped natural-language sets the
//! listed tools are all needed, so recall@k is the mean share of them in the top k. MRR@10 is the
//! mean reciprocal rank of the first relevant tool within the top 10 (0 when none).

#[path = "../tests/common/catalogs.rs"]
mod catalogs;

use std::collections::BTreeMap;

use catalogs::{
    absent_queries, keyword_queries, load_catalog, model_queries, shipped_queries, AbsentQuery, LabelledQuery, Metrics,
    Tool,
};
use toolshelf::search::{SearchConfig, SearchIndex};

/// Hits looked at per query (MRR@10).
const DEPTH: usize = 10;

fn configs() -> Vec<(&'static str, SearchConfig)> {
    let all = all_configs();
    match std::env::var("CONFIGS") {
        Ok(only) => all.into_iter().filter(|(label, _)| only.split(',').any(|o| o == *label)).collect(),
        Err(_) => all,
    }
}

fn all_configs() -> Vec<(&'static str, SearchConfig)> {
    let d = SearchConfig::default();
    vec![
        ("default", d),
        ("no stemming", SearchConfig { stemming: false, ..d }),
        ("no camelCase split", SearchConfig { split_camel: false, ..d }),
        ("name weight 1", SearchConfig { name_weight: 1, ..d }),
        ("name weight 3", SearchConfig { name_weight: 3, ..d }),
        ("first sentence weight 1", SearchConfig { summary_weight: 1.0, ..d }),
        ("first sentence weight 2.5", SearchConfig { summary_weight: 2.5, ..d }),
        ("parameter weight 0.5", SearchConfig { param_weight: 0.5, ..d }),
        ("BM25 b 0.75", SearchConfig { length_norm: 0.75, ..d }),
        ("BM25 b 0.3", SearchConfig { length_norm: 0.3, ..d }),
        ("parameter descriptions not indexed", SearchConfig { param_text_weight: 0.0, ..d }),
        ("parameter description weight 0.25", SearchConfig { param_text_weight: 0.25, ..d }),
        ("parameter description weight 1", SearchConfig { param_text_weight: 1.0, ..d }),
        ("no stop or filler words", SearchConfig { stopwords: false, ..d }),
        ("no synonyms", SearchConfig { synonyms: false, ..d }),
        ("no variants", SearchConfig { variants: false, ..d }),
        ("variant weight 0.5", SearchConfig { variant_weight: 0.5, ..d }),
        ("variant weight 0.9", SearchConfig { variant_weight: 0.9, ..d }),
        ("no rescue", SearchConfig { rescue: false, ..d }),
        ("HTML indexed", SearchConfig { strip_html: false, ..d }),
        ("no REST list names", SearchConfig { rest_names: false, ..d }),
        ("no name bonus", SearchConfig { name_bonus: 0.0, ..d }),
        ("name bonus 1", SearchConfig { name_bonus: 1.0, ..d }),
        ("name cover by term count (not idf)", SearchConfig { name_cover_by_idf: false, ..d }),
        ("no coordination", SearchConfig { coordination: 0.0, ..d }),
        ("coordination 0.5", SearchConfig { coordination: 0.5, ..d }),
        ("values searched as words", SearchConfig { values: false, ..d }),
        (
            "neither (name cover by count, no coordination)",
            SearchConfig { name_cover_by_idf: false, coordination: 0.0, ..d },
        ),
        ("partial only marked (not ranked after)", SearchConfig { full_first: false, ..d }),
        ("distinctive share 0.2", SearchConfig { distinctive_share: 0.2, ..d }),
        ("no server boost", SearchConfig { server_boost: 0.0, ..d }),
        ("server boost 0.25", SearchConfig { server_boost: 0.25, ..d }),
        ("server boost 1", SearchConfig { server_boost: 1.0, ..d }),
        ("plain BM25", SearchConfig::PLAIN_BM25),
    ]
}

/// Runs `queries` (grouped by catalog) under `config`; returns metrics per catalog.
fn run(
    config: SearchConfig,
    queries: &[LabelledQuery],
    any_of: bool,
    catalogs: &BTreeMap<String, Vec<Tool>>,
    mut on_query: impl FnMut(&LabelledQuery, &[&Tool]),
) -> BTreeMap<String, Metrics> {
    let mut per_catalog: BTreeMap<String, Metrics> = BTreeMap::new();
    let mut indexes: BTreeMap<&str, SearchIndex> = BTreeMap::new();
    for query in queries {
        let tools = &catalogs[&query.catalog];
        let index = indexes
            .entry(query.catalog.as_str())
            .or_insert_with(|| SearchIndex::build(tools.iter().map(Tool::fields), config));
        let ranked: Vec<&Tool> = index.search(&query.query, DEPTH).iter().map(|h| &tools[h.doc]).collect();
        per_catalog.entry(query.catalog.clone()).or_default().add(&ranked, query, any_of);
        on_query(query, &ranked);
    }
    per_catalog
}

fn total(per_catalog: &BTreeMap<String, Metrics>) -> Metrics {
    per_catalog.values().fold(Metrics::default(), |a, m| Metrics {
        queries: a.queries + m.queries,
        recall_1: a.recall_1 + m.recall_1,
        recall_5: a.recall_5 + m.recall_5,
        rr: a.rr + m.rr,
        empty: a.empty + m.empty,
    })
}

fn load_catalogs(queries: &[LabelledQuery], into: &mut BTreeMap<String, Vec<Tool>>) {
    for q in queries {
        if !into.contains_key(&q.catalog) {
            into.insert(q.catalog.clone(), load_catalog(&q.catalog));
        }
    }
}

const HEADER: &str = "| | queries | recall@1 | recall@5 | MRR@10 | empty |\n|---|---|---|---|---|---|";

/// `--explain CATALOG QUERY TOOL`: prints why TOOL does or does not answer QUERY.
fn explain(args: &[String]) {
    let [catalog, query, tool] = args else { panic!("--explain CATALOG QUERY TOOL") };
    let tools = load_catalog(catalog);
    let index = SearchIndex::build(tools.iter().map(Tool::fields), SearchConfig::default());
    let top: Vec<&str> = index.search(query, 5).iter().map(|h| tools[h.doc].name.as_str()).collect();
    println!("top 5: {top:?}");
    for doc in (0..tools.len()).filter(|&d| tools[d].name == *tool) {
        println!("{:#?}", index.explain(query, doc));
    }
}

/// The absent-service set under `config`: how many queries name every missing word among the
/// unknown words, how many have no match marked full, how many are answered with nothing.
fn absent_row(
    label: &str,
    config: SearchConfig,
    queries: &[AbsentQuery],
    catalogs: &BTreeMap<String, Vec<Tool>>,
) -> String {
    let mut indexes: BTreeMap<&str, SearchIndex> = BTreeMap::new();
    let (mut named, mut none_full, mut empty) = (0, 0, 0);
    for q in queries {
        let tools = &catalogs[&q.catalog];
        let index = indexes
            .entry(q.catalog.as_str())
            .or_insert_with(|| SearchIndex::build(tools.iter().map(Tool::fields), config));
        let ranked = index.rank(&q.query, 5);
        let unknown: Vec<String> = ranked.unknown_words.iter().map(|w| w.to_lowercase()).collect();
        let all_named = q.unknown.iter().all(|w| unknown.contains(&w.to_lowercase()));
        named += usize::from(all_named);
        none_full += usize::from(ranked.hits.iter().all(|h| h.partial));
        empty += usize::from(ranked.hits.is_empty());
        if !all_named && std::env::var_os("MISSES").is_some() {
            eprintln!("ABSENT-MISS [{}] {:?} unknown {:?} want {:?}", q.catalog, q.query, unknown, q.unknown);
        }
    }
    let n = queries.len().max(1) as f64;
    format!("| {label} | {} | {:.3} | {:.3} | {} |", queries.len(), named as f64 / n, none_full as f64 / n, empty)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--explain") {
        return explain(&args[at + 1..]);
    }
    // `--only SET,SET`: just those sets; `--misses`: list the misses of the default ranking.
    let only: Option<Vec<String>> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|at| args.get(at + 1))
        .map(|v| v.split(',').map(String::from).collect());
    let wanted = |set: &str| only.as_ref().is_none_or(|o| o.iter().any(|s| s == set));
    let show_misses = args.iter().any(|a| a == "--misses");
    let mut sets: Vec<(&str, Vec<LabelledQuery>, bool)> = Vec::new();
    if wanted("keyword") {
        sets.push(("keyword", keyword_queries(), true));
    }
    if wanted("model") {
        sets.push(("model", model_queries(), true));
    }
    // The model set's halves by query index parity (asked for by name only): variant entries are
    // chosen on the even half and judged on the odd one.
    for (set, parity) in [("model-even", 0), ("model-odd", 1)] {
        if only.as_ref().is_some_and(|o| o.iter().any(|s| s == set)) {
            let half = model_queries().into_iter().enumerate().filter(|(i, _)| i % 2 == parity).map(|(_, q)| q);
            sets.push((set, half.collect(), true));
        }
    }
    for set in ["toolbench", "bfcl", "metatool"] {
        if wanted(set) {
            sets.push((set, shipped_queries(set), false));
        }
    }
    let absent = if wanted("absent") { absent_queries() } else { Vec::new() };
    let mut catalogs = BTreeMap::new();
    for (_, queries, _) in &sets {
        load_catalogs(queries, &mut catalogs);
    }
    for q in &absent {
        catalogs.entry(q.catalog.clone()).or_insert_with(|| load_catalog(&q.catalog));
    }

    for (set, queries, any_of) in sets.iter().filter(|(_, _, any_of)| *any_of) {
        println!("## {set} set, default ranking, per catalog\n\n{HEADER}");
        let default = run(SearchConfig::default(), queries, *any_of, &catalogs, |q, ranked| {
            let found = ranked.iter().take(5).any(|t| q.is_relevant(t));
            if show_misses && !found {
                let top: Vec<&str> = ranked.iter().take(5).map(|t| t.name.as_str()).collect();
                eprintln!("MISS {set} [{}] {:?} -> {:?}", q.catalog, q.query, top);
            }
        });
        for (catalog, m) in &default {
            println!("{}", m.row(catalog));
        }
        println!("{}\n", total(&default).row("**all**"));
    }

    println!("## Every query set, default ranking and ablations\n");
    for (set, queries, any_of) in &sets {
        println!("### {set} ({} queries)\n\n{HEADER}", queries.len());
        for (label, config) in configs() {
            let per_catalog = run(config, queries, *any_of, &catalogs, |q, ranked| {
                if show_misses && !any_of && label == "default" && !ranked.iter().take(5).any(|t| q.is_relevant(t)) {
                    let top: Vec<&str> = ranked.iter().take(5).map(|t| t.name.as_str()).collect();
                    eprintln!("MISS {set} {:?} want {:?} -> {top:?}", q.query, q.relevant);
                }
            });
            println!("{}", total(&per_catalog).row(label));
        }
        println!();
    }
    if !absent.is_empty() {
        println!("### absent services ({} queries)\n", absent.len());
        println!("| | queries | missing word named | no match full | empty |\n|---|---|---|---|---|");
        for (label, config) in configs() {
            println!("{}", absent_row(label, config, &absent, &catalogs));
        }
    }
}
