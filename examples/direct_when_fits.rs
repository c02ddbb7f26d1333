//! What `directWhenFits` saves where a toolbox is small: each server of `livemcptool-70servers`
//! alone (plus the direct tool `read_file`), as an agent with one small MCP server attached has it,
//! for Anthropic and OpenAI Responses, at a 200K context (a 10,000-token budget). Deterministic
//! bytes, no timings.
//!
//! Per server, the agent does the model-phrased tasks of `tests/data/queries-model.json` whose tool
//! the server holds, in one session (simulated in `tests/common/session.rs`): through the bridge
//! (search, describe, call: four requests a task; and without describe, three) and with every tool
//! sent as it is (`directWhenFits`, tier 0: the tool called at once, two requests a task). A
//! session's cost is the compact JSON bytes of every request's tools array plus history, and the
//! context tokens (`contextTokens` plus the history's code points / 4), summed. Every server is
//! also counted by its first request alone (the tools array: bridge with listing, or everything).
//!
//! `cargo run --profile native --example direct_when_fits`

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/common/session.rs"]
mod session;

use session::{bridge_session, direct_session, in_format, tasks, Cost, Provider};
use toolshelf::json::{self, Value};
use toolshelf::Shelf;

const CATALOG: &str = "livemcptool-70servers";

/// Sums of one way of working over the servers with tasks.
#[derive(Default)]
struct Sum {
    bytes: u64,
    tokens: u64,
    requests: usize,
}

impl Sum {
    fn add(&mut self, cost: &Cost) {
        self.bytes += cost.bytes;
        self.tokens += cost.context_tokens;
        self.requests += cost.requests;
    }
}

/// The buckets of servers by the tokens of their deferred tools: up to each bound.
const BUCKETS: [u64; 3] = [1_000, 2_500, 10_000];

/// One server's figures: its deferred tokens, the first requests' bytes (direct, bridge) and,
/// when it has tasks, the three sessions (bridge, bridge without describe, direct).
struct Row {
    tokens: u64,
    first: (usize, usize),
    sessions: Option<(usize, Cost, Cost, Cost)>,
}

fn main() {
    let mut servers: Vec<(String, Vec<Value>)> = Vec::new();
    for (server, tool) in common::catalog(CATALOG) {
        match servers.iter_mut().find(|(s, _)| *s == server) {
            Some((_, list)) => list.push(tool),
            None => servers.push((server, vec![tool])),
        }
    }
    println!("| provider | deferred tokens | servers (fit) | with tasks | tasks | requests bridge (no describe) / direct | bytes direct / bridge (no describe) | tokens direct / bridge (no describe) | first request direct / bridge, median (range) | sessions cheaper direct than bridge (no describe) |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for provider in Provider::ALL {
        let rows: Vec<Row> = servers.iter().map(|(server, tools)| row(server, tools, provider)).collect();
        let mut low = 0;
        for high in BUCKETS {
            let bucket: Vec<&Row> = rows.iter().filter(|r| r.tokens > low && r.tokens <= high).collect();
            print_bucket(provider, &format!("{low}–{high}"), &bucket);
            low = high;
        }
        let all: Vec<&Row> = rows.iter().collect();
        print_bucket(provider, "all", &all);
    }
}

fn row(server: &str, tools: &[Value], provider: Provider) -> Row {
    let toolbox = toolbox_of(server, tools, provider);
    let bridged = Shelf::new(&toolbox, &json::parse(r#"{"contextLength":200000}"#).unwrap()).unwrap();
    let options = json::parse(r#"{"contextLength":200000,"directWhenFits":true}"#).unwrap();
    let sent = Shelf::new(&toolbox, &options).unwrap();
    let (a, b) = (sent.assemble(), bridged.assemble());
    assert_eq!(a.facts.tier, 0, "{server}: every server of the catalog fits a 10,000-token budget");
    let tasks = tasks(&bridged, CATALOG, usize::MAX);
    let sessions = (!tasks.is_empty()).then(|| {
        (
            tasks.len(),
            bridge_session(&bridged, provider, &tasks, true),
            bridge_session(&bridged, provider, &tasks, false),
            direct_session(&sent, provider, &tasks),
        )
    });
    Row { tokens: b.facts.deferred_tokens, first: (a.facts.request_bytes, b.facts.request_bytes), sessions }
}

fn print_bucket(provider: Provider, label: &str, rows: &[&Row]) {
    let (mut bridge, mut lean, mut direct) = (Sum::default(), Sum::default(), Sum::default());
    let (mut with_tasks, mut task_count, mut cheaper) = (0, 0, 0);
    let mut first: Vec<f64> = rows.iter().map(|r| r.first.0 as f64 / r.first.1 as f64).collect();
    for (n, b, l, d) in rows.iter().filter_map(|r| r.sessions.as_ref()) {
        with_tasks += 1;
        task_count += n;
        cheaper += usize::from(d.bytes < l.bytes);
        bridge.add(b);
        lean.add(l);
        direct.add(d);
    }
    first.sort_by(f64::total_cmp);
    let median = first.get(first.len() / 2).copied().unwrap_or(f64::NAN);
    let (low, high) = (first.first().copied().unwrap_or(f64::NAN), first.last().copied().unwrap_or(f64::NAN));
    println!(
        "| {} | {label} | {} | {with_tasks} | {task_count} | {} ({}) / {} | {:.2} ({:.2}) | {:.2} ({:.2}) | {median:.2} ({low:.2}–{high:.2}) | {cheaper} / {with_tasks} |",
        provider.format(),
        rows.len(),
        bridge.requests,
        lean.requests,
        direct.requests,
        direct.bytes as f64 / bridge.bytes as f64,
        direct.bytes as f64 / lean.bytes as f64,
        direct.tokens as f64 / bridge.tokens as f64,
        direct.tokens as f64 / lean.tokens as f64,
    );
}

/// One server's toolbox in `provider`'s format, with the direct tool `read_file`.
fn toolbox_of(server: &str, tools: &[Value], provider: Provider) -> Value {
    let defs = tools.iter().map(|t| in_format(t, provider)).collect();
    let direct = in_format(&common::openai_tool("read_file", "Read a file."), provider);
    Value::object([("tools", Value::Array(vec![direct])), ("servers", Value::object([(server, Value::Array(defs))]))])
}
