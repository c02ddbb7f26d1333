//! Speed of a snapshot (SPEC §13) against a new Shelf, native: new Shelf + first search, snapshot
//! load (toolbox held; toolbox given) + first search, and the load's parts. Ratios are what the
//! issue's targets are about (≤ 0.1× held, ≤ 0.3× given); the package's figures in wasm are
//! `scripts/bench --workerd` and the snapshot rows of `scripts/bench`.
//!
//! `cargo run --profile native --example snapshot_speed [CATALOG…]` (default: the 3,397-tool REST
//! catalog). Each figure is the median of 15 runs.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};
use toolshelf::Shelf;

const RUNS: usize = 15;

fn median(mut f: impl FnMut() -> Duration) -> f64 {
    let mut xs: Vec<Duration> = (0..RUNS).map(|_| f()).collect();
    xs.sort();
    xs[RUNS / 2].as_secs_f64() * 1e3
}

/// The time `f` takes, not counting the drop of what it returns.
fn time<T>(f: impl FnOnce() -> T) -> Duration {
    let start = Instant::now();
    let kept = black_box(f());
    let elapsed = start.elapsed();
    drop(kept);
    elapsed
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let names: Vec<&str> =
        if args.is_empty() { vec!["rest-apis-flat-3400"] } else { args.iter().map(String::as_str).collect() };
    let text = common::grouped(&names).to_json();
    let options = r#"{"contextLength":200000,"qualify":"auto"}"#;
    let query = "list the zones of my account";
    let shelf = Shelf::from_json_text(text.clone(), options).unwrap();
    let held = shelf.snapshot();
    let without = shelf.snapshot_without_toolbox();
    println!(
        "{} tools, toolbox {:.1} MB, snapshot {:.1} MB ({:.1} MB without the toolbox)",
        shelf.catalog().tools.len(),
        text.len() as f64 / 1e6,
        held.len() as f64 / 1e6,
        without.len() as f64 / 1e6
    );
    if let Ok(loads) = std::env::var("SNAPSHOT_LOOP") {
        // For a profiler (`SNAPSHOT_LOOP=N`, 200 when not a number): loads only.
        for _ in 0..loads.parse().unwrap_or(200) {
            black_box(Shelf::from_snapshot(held.clone(), None, None).unwrap().search(query, None));
        }
        return;
    }
    let fresh = median(|| {
        let t = text.clone();
        time(|| Shelf::from_json_text(t, options).unwrap().search(query, None))
    });
    let copy = median(|| time(|| held.clone()));
    let load_held = median(|| {
        let bytes = held.clone();
        time(|| Shelf::from_snapshot(bytes, None, None).unwrap().search(query, None))
    });
    let load_given = median(|| {
        let (bytes, t) = (without.clone(), text.clone());
        time(|| Shelf::from_snapshot(bytes, Some(t), None).unwrap().search(query, None))
    });
    let write = median(|| time(|| shelf.snapshot()));
    println!("new Shelf + first search        {fresh:8.2} ms");
    println!("copy of the snapshot's bytes    {copy:8.2} ms");
    println!("load (toolbox held) + search    {load_held:8.2} ms  {:.3}×", load_held / fresh);
    println!("load (toolbox given) + search   {load_given:8.2} ms  {:.3}×", load_given / fresh);
    println!("snapshot() of a prepared shelf  {write:8.2} ms");
}
