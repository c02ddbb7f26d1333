//! Retrieval benchmark of `toolshelf::search`: recall@1, recall@5 and MRR@10 per catalog and per
//! query set, for the default ranking and its ablations.
//!
//! `cargo run --release --example retrieval` prints the markdown tables of docs/search.md.
//! `-- --misses` also lists the keyword queries whose answer is not in the top 5 (default config);
//! `-- --explain CATALOG QUERY TOOL` shows why a tool does or does not answer a query.
//!
//! Metrics: for the keyword set every listed tool is an acceptable answer, so recall@k is the share
//! of queries with an acceptable tool in the top k. For the shipped natural-language sets the
//! listed tools are all needed, so recall@k is the mean share of them in the top k. MRR@10 is the
//! mean reciprocal rank of the first relevant tool within the top 10 (0 when none).

#[path = "../tests/common/catalogs.rs"]
mod catalogs;

use std::collections::BTreeMap;

use catalogs::{keyword_queries, load_catalog, shipped_queries, LabelledQuery, Tool};
use toolshelf::search::{SearchConfig, SearchIndex};

/// Hits looked at per query (MRR@10).
const DEPTH: usize = 10;

fn configs() -> Vec<(&'static str, SearchConfig)> {
    let d = SearchConfig::default();
    vec![
        ("default", d),
        ("no stemming", SearchConfig { stemming: false, ..d }),
        ("no camelCase split", SearchConfig { split_camel: false, ..d }),
        ("no gate", SearchConfig { gate: false, ..d }),
        ("name weight 1", SearchConfig { name_weight: 1, ..d }),
        ("name weight 3", SearchConfig { name_weight: 3, ..d }),
        ("parameter weight 1", SearchConfig { param_weight: 1.0, ..d }),
        ("parameter weight 0.25", SearchConfig { param_weight: 0.25, ..d }),
        ("no stop words", SearchConfig { stopwords: false, ..d }),
        ("no synonyms", SearchConfig { synonyms: false, ..d }),
        ("no rescue", SearchConfig { rescue: false, ..d }),
        ("plain BM25", SearchConfig::PLAIN_BM25),
    ]
}

/// Running sums of the three metrics (plus queries answered with nothing).
#[derive(Default, Clone, Copy)]
struct Metrics {
    queries: usize,
    recall_1: f64,
    recall_5: f64,
    rr: f64,
    empty: usize,
}

impl Metrics {
    fn add(&mut self, ranked: &[&Tool], query: &LabelledQuery, any_of: bool) {
        let relevant_in = |k: usize| ranked.iter().take(k).filter(|t| query.is_relevant(t)).count();
        let recall = |k: usize| {
            let found = relevant_in(k) as f64;
            if any_of {
                found.min(1.0)
            } else {
                found / query.relevant.len().max(1) as f64
            }
        };
        self.queries += 1;
        self.recall_1 += recall(1);
        self.recall_5 += recall(5);
        self.rr += ranked.iter().position(|t| query.is_relevant(t)).map_or(0.0, |i| 1.0 / (i + 1) as f64);
        self.empty += usize::from(ranked.is_empty());
    }

    fn row(&self, label: &str) -> String {
        let n = self.queries.max(1) as f64;
        format!(
            "| {label} | {} | {:.3} | {:.3} | {:.3} | {} |",
            self.queries,
            self.recall_1 / n,
            self.recall_5 / n,
            self.rr / n,
            self.empty
        )
    }
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--explain") {
        return explain(&args[at + 1..]);
    }
    let show_misses = std::env::args().any(|a| a == "--misses");
    let keyword = keyword_queries();
    let shipped: Vec<(&str, Vec<LabelledQuery>)> =
        ["toolbench", "bfcl", "metatool"].into_iter().map(|s| (s, shipped_queries(s))).collect();
    let mut catalogs = BTreeMap::new();
    load_catalogs(&keyword, &mut catalogs);
    for (_, queries) in &shipped {
        load_catalogs(queries, &mut catalogs);
    }

    println!("## Keyword set (tests/data/queries-keyword.json), default ranking, per catalog\n\n{HEADER}");
    let default = run(SearchConfig::default(), &keyword, true, &catalogs, |q, ranked| {
        let found = ranked.iter().take(5).any(|t| q.is_relevant(t));
        if show_misses && !found {
            let top: Vec<&str> = ranked.iter().take(5).map(|t| t.name.as_str()).collect();
            eprintln!("MISS [{}] {:?} -> {:?}", q.catalog, q.query, top);
        }
    });
    for (catalog, m) in &default {
        println!("{}", m.row(catalog));
    }
    println!("{}", total(&default).row("**all**"));

    println!("\n## Every query set, default ranking and ablations\n");
    let mut sets: Vec<(&str, &[LabelledQuery], bool)> = vec![("keyword", &keyword, true)];
    sets.extend(shipped.iter().map(|(name, q)| (*name, q.as_slice(), false)));
    for (set, queries, any_of) in sets {
        println!("### {set} ({} queries)\n\n{HEADER}", queries.len());
        for (label, config) in configs() {
            let per_catalog = run(config, queries, any_of, &catalogs, |_, _| {});
            println!("{}", total(&per_catalog).row(label));
        }
        println!();
    }
}
