//! What a whole agent session costs in native mode against bridge mode (SPEC §11, §14 "Cost is
//! counted and bounded"): deterministic bytes, no timings.
//!
//! An agent does the same tasks twice, once per mode, on `rest-apis-flat-3400` (3,397 tools,
//! 3 servers) and `livemcptool-70servers` (70 servers), for Anthropic and OpenAI Responses, plus
//! one direct tool `read_file`. A task is one of the first N (5, then 8) model-phrased queries of
//! `tests/data/queries-model.json` set on the catalog whose relevant tool the catalog holds. The
//! session (simulated in `tests/common/session.rs`, shared with `tests/session_cost.rs`):
//! - bridge (`{"mode":"bridge"}`): per task a request, `tool_search`, its answer; a request,
//!   `tool_describe`, its answer; a request, `tool_call`, a fixed 200-byte result; a request for the
//!   model's closing text. Also without the describe round (`bridge−d`).
//! - native (`{"mode":"native"}` plus OPTIONS): per task a request, the native search, its answer
//!   (`tool_reference` blocks / a `tool_search_output` item); one more search for the exact name
//!   when the tool needed was not loaded; a request, the tool called by name, the fixed result;
//!   a request for the closing text.
//!
//! Every request is `shelf.assemble_with(history)`'s tools array plus the history (Anthropic
//! `messages`, Responses `input` items); the cost of a session is the compact JSON bytes of both,
//! summed over its requests (`KB`), and the context tokens (`contextTokens` plus the history's
//! code points / 4, summed: `ktok`). `native/bridge` is the byte ratio (≤ 1.0 is SPEC §14's rule,
//! against the bridge with describe). `loads` lists what each native search loaded (tool_reference
//! blocks / functions in namespaces; `+r` counts exact-name re-searches, `miss` tasks whose tool
//! was never loaded); `exact` what a native search of each task's exact tool name loads (1 is the rule).
//!
//! `cargo run --profile native --example session_cost [-- [OPTIONS] [--json] [--history]]`
//! - OPTIONS: a JSON object of native options, e.g. `'{"loadMaxTokens":500}'` or `'{"loadLimit":1}'`
//!   (unknown options only warn);
//! - `--json`: the figures as one JSON array instead of the table;
//! - `--history`: instead, the time of `shelf.assemble_with` on a history of 10,000 and of 100,000
//!   messages (Anthropic: user text, `tool_use`, `tool_result` with text and with `tool_reference`
//!   blocks; Responses: the same turns as input items, `tool_search_output` included), native mode
//!   on rest-apis-flat-3400, references cycling over the same 40 tools: the median of 7 runs after
//!   a warm-up, and the ratio 100k / 10k (SPEC §14: at most ~10), beside the same ratio for
//!   `json::parse` of the history's text. Times are printed, never asserted.

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/common/session.rs"]
mod session;

use session::{Bench, Cost, Outcome, Provider, CATALOGS};
use std::hint::black_box;
use std::time::{Duration, Instant};
use toolshelf::json::{self, Value};
use toolshelf::Shelf;

const TASKS: [usize; 2] = [5, 8];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let as_json = args.iter().any(|a| a == "--json");
    let history = args.iter().any(|a| a == "--history");
    let options = match args.iter().find(|a| !a.starts_with("--")) {
        Some(text) => json::parse(text).unwrap_or_else(|e| panic!("OPTIONS: not JSON: {e:?}")),
        None => Value::object::<&str>([]),
    };
    if history {
        history_timings(as_json);
        return;
    }
    let mut outcomes = Vec::new();
    for catalog in CATALOGS {
        for provider in Provider::ALL {
            let bench = Bench::new(catalog, provider, &options);
            for n in TASKS {
                outcomes.push(bench.run(n));
            }
        }
    }
    if as_json {
        println!("{}", Value::Array(outcomes.iter().map(outcome_json).collect()).to_json());
        return;
    }
    println!("native options: {}", session::merged_options(r#"{"mode":"native"}"#, &options).to_json());
    println!(
        "{:<22} {:<9} {:>2} | {:>13} {:>13} {:>13} | {:>12} {:>9} | loads per native search; exact-name loads",
        "catalog", "provider", "N", "bridge KB/ktok", "bridge−d", "native", "native/bridge", "/bridge−d"
    );
    for o in &outcomes {
        let cell = |c: &Cost| format!("{:.1}/{:.1}", c.bytes as f64 / 1024.0, c.context_tokens as f64 / 1000.0);
        let loads: Vec<String> = o.native.searches.iter().map(usize::to_string).collect();
        let exact: Vec<String> = o.exact.iter().map(|(_, loaded)| loaded.len().to_string()).collect();
        println!(
            "{:<22} {:<9} {:>2} | {:>13} {:>13} {:>13} | {:>12.2} {:>9.2} | {} (+r {}, miss {}); exact {}",
            o.catalog,
            o.provider.format(),
            o.tasks.len(),
            cell(&o.bridge),
            cell(&o.bridge_no_describe),
            cell(&o.native),
            o.ratio(),
            o.native.bytes as f64 / o.bridge_no_describe.bytes as f64,
            loads.join(","),
            o.native.re_searches,
            o.native.misses,
            exact.join(","),
        );
    }
    println!();
    println!("tokens ratio native/bridge (context: contextTokens + history/4):");
    for o in &outcomes {
        let grew: Vec<String> = o.native.growth.iter().map(|g| format!("{}≥{}", g.grew, g.new_tokens)).collect();
        println!(
            "  {} {} N={}: {:.2}; requests {} / {} / {}; largest request KB {:.1} / {:.1}; \
             contextTokens growth per search ≥ new loads: {}",
            o.catalog,
            o.provider.format(),
            o.tasks.len(),
            o.native.context_tokens as f64 / o.bridge.context_tokens as f64,
            o.bridge.requests,
            o.bridge_no_describe.requests,
            o.native.requests,
            o.bridge.max_request as f64 / 1024.0,
            o.native.max_request as f64 / 1024.0,
            grew.join(" "),
        );
    }
}

fn cost_json(c: &Cost) -> Value {
    Value::object([
        ("requests", Value::uint(c.requests as u64)),
        ("bytes", Value::uint(c.bytes)),
        ("toolsBytes", Value::uint(c.tools_bytes)),
        ("contextTokens", Value::uint(c.context_tokens)),
        ("maxRequestBytes", Value::uint(c.max_request)),
        ("searches", Value::Array(c.searches.iter().map(|&n| Value::uint(n as u64)).collect())),
        ("reSearches", Value::uint(c.re_searches as u64)),
        ("misses", Value::uint(c.misses as u64)),
        (
            "growth",
            Value::Array(
                c.growth
                    .iter()
                    .map(|g| {
                        Value::object([
                            ("query", Value::str(g.query.as_str())),
                            ("loaded", Value::uint(g.loaded as u64)),
                            ("newTokens", Value::uint(g.new_tokens)),
                            ("grew", Value::float(g.grew as f64)),
                        ])
                    })
                    .collect(),
            ),
        ),
    ])
}

fn outcome_json(o: &Outcome) -> Value {
    Value::object([
        ("catalog", Value::str(o.catalog.as_str())),
        ("provider", Value::str(o.provider.format())),
        ("tasks", Value::Array(o.tasks.iter().map(|t| Value::str(t.query.as_str())).collect())),
        ("bridge", cost_json(&o.bridge)),
        ("bridgeNoDescribe", cost_json(&o.bridge_no_describe)),
        ("native", cost_json(&o.native)),
        ("ratio", Value::float(o.ratio())),
        (
            "exactNameLoads",
            Value::Array(
                o.exact
                    .iter()
                    .map(|(name, loaded)| {
                        Value::object([("name", Value::str(name.as_str())), ("loads", Value::strings(loaded))])
                    })
                    .collect(),
            ),
        ),
    ])
}

const RUNS: usize = 7;

/// The median of `RUNS` timings of `work`, after one run to warm up.
fn median(mut work: impl FnMut()) -> Duration {
    work();
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[RUNS / 2]
}

/// A history of `n` messages (Anthropic) or input items (Responses), in turns of six: the user's
/// text, a search call, its answer (tool_reference blocks / a tool_search_output with two
/// namespaced functions), a call of a loaded tool, its text result, the model's text. Every
/// reference names one of 40 tools (the same ones at any length).
fn history(provider: Provider, names: &[(String, String, String)], n: usize) -> Value {
    let mut items = Vec::with_capacity(n);
    // The references cycle over 40 tools, so both histories load the same tools and the ratio is
    // the history's reading.
    let pick = |k: usize| &names[(k * 7919) % names.len().min(40)];
    let filler = "x".repeat(160);
    for i in 0..n {
        let turn = i / 6;
        let text = match (provider, i % 6) {
            (_, 0) => format!(r#"{{"role":"user","content":"Task {turn}: look into the account and report back."}}"#),
            (Provider::Anthropic, 1) => format!(
                r#"{{"role":"assistant","content":[{{"type":"text","text":"Searching."}},{{"type":"tool_use","id":"toolu_{turn}a","name":"tool_search","input":{{"query":"task {turn} tools"}}}}]}}"#
            ),
            (Provider::Anthropic, 2) => {
                let refs: Vec<String> = (0..3)
                    .map(|k| format!(r#"{{"type":"tool_reference","tool_name":"{}"}}"#, pick(turn * 3 + k).0))
                    .collect();
                format!(
                    r#"{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_{turn}a","content":[{}]}}]}}"#,
                    refs.join(",")
                )
            }
            (Provider::Anthropic, 3) => format!(
                r#"{{"role":"assistant","content":[{{"type":"tool_use","id":"toolu_{turn}b","name":"{}","input":{{"id":"{turn}"}}}}]}}"#,
                pick(turn * 3).0
            ),
            (Provider::Anthropic, 4) => format!(
                r#"{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_{turn}b","content":[{{"type":"text","text":"{filler}"}}]}}]}}"#
            ),
            (Provider::Anthropic, _) => {
                format!(r#"{{"role":"assistant","content":[{{"type":"text","text":"Task {turn} done."}}]}}"#)
            }
            (Provider::Responses, 1) => format!(
                r#"{{"type":"tool_search_call","call_id":"call_{turn}a","execution":"client","arguments":{{"query":"task {turn} tools"}}}}"#
            ),
            (Provider::Responses, 2) => {
                let spaces: Vec<String> = (0..2)
                    .map(|k| {
                        let (_, server, own) = pick(turn * 3 + k);
                        format!(
                            r#"{{"type":"namespace","name":"{server}","description":"","tools":[{{"type":"function","name":"{own}","description":"A tool.","parameters":{{"type":"object","properties":{{"id":{{"type":"string"}}}}}}}}]}}"#
                        )
                    })
                    .collect();
                format!(
                    r#"{{"type":"tool_search_output","call_id":"call_{turn}a","execution":"client","status":"completed","tools":[{}]}}"#,
                    spaces.join(",")
                )
            }
            (Provider::Responses, 3) => {
                let (_, server, own) = pick(turn * 3);
                format!(
                    r#"{{"type":"function_call","call_id":"call_{turn}b","namespace":"{server}","name":"{own}","arguments":"{{\"id\":\"{turn}\"}}"}}"#
                )
            }
            (Provider::Responses, 4) => {
                format!(r#"{{"type":"function_call_output","call_id":"call_{turn}b","output":"{filler}"}}"#)
            }
            (Provider::Responses, _) => format!(r#"{{"role":"assistant","content":"Task {turn} done."}}"#),
        };
        items.push(text);
    }
    json::parse(&format!("[{}]", items.join(","))).unwrap()
}

fn history_timings(as_json: bool) {
    let mut rows = Vec::new();
    for provider in Provider::ALL {
        let box_ = session::toolbox("rest-apis-flat-3400", provider);
        let shelf = Shelf::new(&box_, &json::parse(r#"{"mode":"native"}"#).unwrap()).unwrap();
        let names: Vec<(String, String, String)> = shelf
            .catalog()
            .deferred()
            .map(|t| (t.name.clone(), t.server.clone().unwrap_or_default(), t.own_name.clone()))
            .collect();
        let key = match provider {
            Provider::Anthropic => "messages",
            Provider::Responses => "input",
        };
        let mut times = Vec::new();
        for n in [10_000, 100_000] {
            let messages = history(provider, &names, n);
            let text = messages.to_json();
            let context = Value::object([(key, messages)]);
            let carried = shelf.assemble_with(&context).tools.len();
            let assemble = median(|| drop(black_box(shelf.assemble_with(&context))));
            let parse = median(|| drop(black_box(json::parse(&text).unwrap())));
            times.push((n, text.len(), carried, assemble, parse));
        }
        rows.push((provider, times));
    }
    if as_json {
        let rows = rows.iter().map(|(provider, times)| {
            let runs = times.iter().map(|(n, bytes, carried, assemble, parse)| {
                Value::object([
                    ("messages", Value::uint(*n as u64)),
                    ("bytes", Value::uint(*bytes as u64)),
                    ("tools", Value::uint(*carried as u64)),
                    ("assembleMs", Value::float(assemble.as_secs_f64() * 1e3)),
                    ("parseMs", Value::float(parse.as_secs_f64() * 1e3)),
                ])
            });
            let ratio = times[1].3.as_secs_f64() / times[0].3.as_secs_f64();
            let yardstick = times[1].4.as_secs_f64() / times[0].4.as_secs_f64();
            Value::object([
                ("provider", Value::str(provider.format())),
                ("runs", Value::Array(runs.collect())),
                ("ratio", Value::float(ratio)),
                ("parseRatio", Value::float(yardstick)),
            ])
        });
        println!("{}", Value::Array(rows.collect()).to_json());
        return;
    }
    println!("assemble_with on a long history (native, rest-apis-flat-3400; median of {RUNS} after a warm-up)");
    for (provider, times) in &rows {
        for (n, bytes, carried, assemble, parse) in times {
            println!(
                "  {:<9} {:>7} messages ({:>5.1} MB, {carried} tools carried): assemble_with {:>8.2} ms; \
                 json::parse of it {:>8.2} ms",
                provider.format(),
                n,
                *bytes as f64 / 1e6,
                assemble.as_secs_f64() * 1e3,
                parse.as_secs_f64() * 1e3
            );
        }
        println!(
            "  {:<9} ratio 100k/10k: assemble_with ×{:.1}, json::parse ×{:.1}",
            provider.format(),
            times[1].3.as_secs_f64() / times[0].3.as_secs_f64(),
            times[1].4.as_secs_f64() / times[0].4.as_secs_f64()
        );
    }
}
