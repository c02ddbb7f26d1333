//! Speed of `toolshelf::search` on the 3,397-tool rest-apis-flat-3400 catalog (cloudflare, twilio
//! and stripe concatenated): index build time, and query latency p50/p95/p99 over the keyword
//! queries of tests/data/queries-keyword.json.
//!
//! `cargo run --release --example search_speed`. Build: median of 15 builds. Latency: every query
//! run 200 times per round, 5 rounds; each percentile is the median over the rounds.

#[path = "../tests/common/catalogs.rs"]
mod catalogs;

use std::hint::black_box;
use std::time::{Duration, Instant};

use catalogs::{keyword_queries, load_catalog, Tool};
use toolshelf::search::{SearchConfig, SearchIndex};

const BUILDS: usize = 15;
const ROUNDS: usize = 5;
const REPEATS: usize = 200;
const LIMIT: usize = 5;

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs.get(xs.len() / 2).copied().unwrap_or_default()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(rank).copied().unwrap_or_default()
}

fn micros(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

fn main() {
    let tools = load_catalog("rest-apis-flat-3400");
    let d = SearchConfig::default();
    // SPEED_CONFIG picks an ablation, to see what each part of the analysis costs.
    let config = match std::env::var("SPEED_CONFIG").as_deref() {
        Ok("no-param-text") => SearchConfig { param_text_weight: 0.0, ..d },
        Ok("no-html") => SearchConfig { strip_html: false, ..d },
        Ok("no-rest") => SearchConfig { rest_names: false, ..d },
        Ok("no-variants") => SearchConfig { variants: false, ..d },
        Ok("plain") => SearchConfig::PLAIN_BM25,
        Ok("name-count") => SearchConfig { name_cover_by_idf: false, coordination: 0.0, ..d },
        _ => d,
    };
    let build = || SearchIndex::build(tools.iter().map(Tool::fields), config);
    let build_times: Vec<Duration> = (0..BUILDS)
        .map(|_| {
            let start = Instant::now();
            black_box(build());
            start.elapsed()
        })
        .collect();
    let index = build();
    println!("catalog: rest-apis-flat-3400, {} tools", index.len());
    println!("index build: {:.2} ms (median of {BUILDS})", median(build_times).as_secs_f64() * 1e3);

    let queries: Vec<String> = keyword_queries().into_iter().map(|q| q.query).collect();
    let mut p50s = Vec::new();
    let mut p95s = Vec::new();
    let mut p99s = Vec::new();
    for _ in 0..ROUNDS {
        let mut times = Vec::with_capacity(queries.len() * REPEATS);
        for query in &queries {
            for _ in 0..REPEATS {
                let start = Instant::now();
                black_box(index.search(black_box(query), LIMIT));
                times.push(start.elapsed());
            }
        }
        times.sort();
        p50s.push(percentile(&times, 0.50));
        p95s.push(percentile(&times, 0.95));
        p99s.push(percentile(&times, 0.99));
    }
    println!(
        "query latency over {} keyword queries, limit {LIMIT} (median of {ROUNDS} rounds × {REPEATS} repeats): \
         p50 {}, p95 {}, p99 {}",
        queries.len(),
        micros(median(p50s)),
        micros(median(p95s)),
        micros(median(p99s))
    );
}
