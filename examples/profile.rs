//! One unit of work at a time, for profilers (`valgrind --tool=callgrind`, `perf`): each mode does
//! its work once (or `-- MODE N` times) and nothing else, so the profile shows only that work.
//!
//! - `build`: index build over rest-apis-flat-3400 (3,397 tools), from the tools' fields;
//! - `prepare`: `Shelf::from_json_text` + first search on the same catalog (what `new Shelf` + the
//!   first search do in wasm, less the JS side);
//! - `assemble`: `Shelf::from_json` + layout of GitHub + Linear + Stripe + Cloudflare (2,105
//!   tools, `qualify`), dropped after (what a stateless assemble does in wasm);
//! - `queries`: the 202 keyword queries, once each, on a prebuilt rest-apis-flat-3400 index (or
//!   the catalog named after N);
//! - `common`: a search for a word every one of 50,000 tools holds (tests/hostile.rs's shape).
//!
//! `cargo build --release --example profile` then e.g.
//! `valgrind --tool=callgrind target/release/examples/profile build` and `callgrind_annotate`.

#[path = "../tests/common/mod.rs"]
mod common;

use common::catalogs;

use std::hint::black_box;
use std::time::Instant;

use catalogs::{keyword_queries, load_catalog, Tool};
use toolshelf::search::{SearchConfig, SearchIndex};
use toolshelf::Shelf;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("build", String::as_str);
    let times: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(1);
    let start;
    match mode {
        "build" => {
            let tools = load_catalog("rest-apis-flat-3400");
            start = Instant::now();
            for _ in 0..times {
                black_box(SearchIndex::build(tools.iter().map(Tool::fields), SearchConfig::default()));
            }
        }
        "prepare" => {
            let text = common::grouped(&["rest-apis-flat-3400"]).to_json();
            start = Instant::now();
            for _ in 0..times {
                // As the binding does: the text taken, each def's compact JSON a range of it.
                let shelf = Shelf::from_json_text(text.clone(), r#"{"contextLength":200000}"#).unwrap();
                black_box(shelf.search("create customer", None));
            }
        }
        "assemble" => {
            let names = ["github-mcp-server", "linear-mcp-official", "stripe-api-2022-04", "cloudflare-api-2024-08"];
            let text = common::grouped(&names).to_json();
            start = Instant::now();
            for _ in 0..times {
                let shelf = Shelf::from_json(&text, r#"{"contextLength":200000,"qualify":true}"#).unwrap();
                black_box(shelf.layout().facts.fingerprint);
            }
        }
        "queries" => {
            let tools = load_catalog(args.get(3).map_or("rest-apis-flat-3400", String::as_str));
            let index = SearchIndex::build(tools.iter().map(Tool::fields), SearchConfig::default());
            let queries = keyword_queries();
            start = Instant::now();
            for _ in 0..times {
                for q in &queries {
                    black_box(index.search(&q.query, 5));
                }
            }
        }
        "common" => {
            // A word every one of 50,000 tools holds (the hostile suite's search shape).
            let shelf = Shelf::from_json(&many_tools(50_000), "").unwrap();
            shelf.search("warm the index", None);
            start = Instant::now();
            for _ in 0..times {
                black_box(shelf.search("number", None));
            }
        }
        other => panic!("unknown mode {other}: build, prepare, assemble, queries or common"),
    }
    eprintln!("{mode} × {times}: {:.2} ms each", start.elapsed().as_secs_f64() * 1e3 / times as f64);
}

/// `n` tools on one server, each holding "number" (as tests/hostile.rs makes them).
fn many_tools(n: usize) -> String {
    let words = ["create", "list", "update", "delete", "get", "issue", "repo", "user", "file", "branch"];
    let schema = r#"{"type":"object","properties":{"id":{"type":"string"}}}"#;
    let tools: Vec<String> = (0..n)
        .map(|i| {
            let (a, b) = (words[i % 10], words[(i / 10) % 10]);
            format!(
                r#"{{"type":"function","function":{{"name":"{a}_{b}_{i}","description":"{a} the {b} number {i}. More text.","parameters":{schema}}}}}"#
            )
        })
        .collect();
    format!(r#"{{"servers":{{"s":[{}]}}}}"#, tools.join(","))
}
