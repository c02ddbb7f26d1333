//! Speed of stateless assemble on the GitHub + Linear + Stripe + Cloudflare toolbox (2,105 tools,
//! `qualify: true`), split into its stages: JSON parse, catalog, layout (listing + bridge +
//! fingerprint) and the plan JSON the binding returns; and the first search (index build).
//!
//! `cargo run --release --example assemble_speed [CATALOG…]`. Each figure is the median of 15 runs.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};
use toolshelf::json::{self, Value};
use toolshelf::options::Options;
use toolshelf::{Shelf, Slot};

const RUNS: usize = 15;

fn median(mut f: impl FnMut() -> Duration) -> f64 {
    let mut xs: Vec<Duration> = (0..RUNS).map(|_| f()).collect();
    xs.sort();
    xs[RUNS / 2].as_secs_f64() * 1e3
}

fn time<T>(f: impl FnOnce() -> T) -> Duration {
    let start = Instant::now();
    black_box(f());
    start.elapsed()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let names: Vec<&str> = if args.is_empty() {
        vec!["github-mcp-server", "linear-mcp-official", "stripe-api-2022-04", "cloudflare-api-2024-08"]
    } else {
        args.iter().map(String::as_str).collect()
    };
    let text = common::grouped(&names).to_json();
    let options_text = r#"{"contextLength":200000,"qualify":true}"#;
    let options = Options::parse_json(options_text).options;
    let toolbox = json::parse(&text).unwrap();
    let shelf = Shelf::from_json(&text, options_text).unwrap();
    println!("toolbox {names:?}: {} tools, {} bytes of JSON", shelf.catalog().tools.len(), text.len());
    let parse = median(|| time(|| json::parse(&text).unwrap()));
    let catalog = median(|| {
        let v = toolbox.clone();
        let start = Instant::now();
        black_box(toolshelf::catalog::Catalog::parse(v, &options).unwrap());
        start.elapsed()
    });
    let layout = median(|| time(|| shelf.layout()));
    let plan = median(|| {
        let layout = shelf.layout();
        time(|| {
            let plan = layout.slots.iter().map(|slot| match slot {
                Slot::Given(tool) => Value::uint(tool.position as u64),
                Slot::Made(def) => def.clone(),
            });
            layout.facts.to_value(Value::Array(plan.collect())).to_json()
        })
    });
    let whole = median(|| time(|| Shelf::from_json(&text, options_text).unwrap().layout().facts.fingerprint));
    let first_search = median(|| {
        let shelf = Shelf::from_json(&text, options_text).unwrap();
        time(|| shelf.search("create issue", None))
    });
    println!("json::parse        {parse:8.2} ms");
    println!("Catalog::parse     {catalog:8.2} ms (from a parsed Value)");
    println!("layout             {layout:8.2} ms (listing, bridge, fingerprint)");
    println!("plan JSON          {plan:8.2} ms");
    println!("from_json + layout {whole:8.2} ms (what assembleJson does, less the plan JSON)");
    println!("first search       {first_search:8.2} ms (index build + one query)");
}
