//! Every query of every labelled set against the default index, top 10 with exact scores (as
//! bits), one line per query: a fingerprint of the ranking, for checking that an optimisation of
//! the index changes no result (`cargo run --release --example search_dump > a.txt`, change,
//! run again, `diff`).

#[path = "../tests/common/catalogs.rs"]
mod catalogs;

use std::collections::BTreeMap;

use catalogs::{keyword_queries, load_catalog, shipped_queries, Tool};
use toolshelf::search::{SearchConfig, SearchIndex};

fn main() {
    let mut sets = vec![("keyword", keyword_queries())];
    for set in ["toolbench", "bfcl", "metatool"] {
        sets.push((set, shipped_queries(set)));
    }
    let mut catalogs: BTreeMap<String, (Vec<Tool>, SearchIndex)> = BTreeMap::new();
    for (set, queries) in &sets {
        for q in queries {
            let (_, index) = catalogs.entry(q.catalog.clone()).or_insert_with(|| {
                let tools = load_catalog(&q.catalog);
                let index = SearchIndex::build(tools.iter().map(Tool::fields), SearchConfig::default());
                (tools, index)
            });
            let hits: Vec<String> =
                index.search(&q.query, 10).iter().map(|h| format!("{}:{:x}", h.doc, h.score.to_bits())).collect();
            println!("{set}\t{}\t{}", q.query.replace(['\n', '\t'], " "), hits.join(" "));
        }
    }
}
