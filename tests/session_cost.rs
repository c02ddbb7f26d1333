//! SPEC §14 "Cost is counted and bounded", over whole simulated sessions (the simulation of
//! `tests/common/session.rs`, which `examples/session_cost.rs` prints): on rest-apis-flat-3400 and
//! livemcptool-70servers, for Anthropic and Responses, with default options and the first five
//! model-phrased tasks of each catalog,
//! - a native session sends no more bytes (tools array + history, every request) than the bridge
//!   session doing the same work (search, describe, call);
//! - a native search for a tool's exact name loads that one tool;
//! - Anthropic: the `contextTokens` of the request after a search grow by at least the token
//!   estimates of the tools it newly loaded (the context pays for loaded tools).
//!
//! `cargo run --profile native --example session_cost` prints the figures.
#![cfg(not(target_arch = "wasm32"))]

mod common;
#[path = "common/session.rs"]
mod session;

use session::{Bench, Outcome, Provider, CATALOGS};
use std::sync::OnceLock;
use toolshelf::json::Value;

const TASKS: usize = 5;

/// The sessions of every catalog and provider, run once for all the tests of this file.
fn outcomes() -> &'static [Outcome] {
    static OUTCOMES: OnceLock<Vec<Outcome>> = OnceLock::new();
    OUTCOMES.get_or_init(|| {
        let mut all = Vec::new();
        for catalog in CATALOGS {
            for provider in Provider::ALL {
                all.push(Bench::new(catalog, provider, &Value::object::<&str>([])).run(TASKS));
            }
        }
        all
    })
}

fn label(o: &Outcome) -> String {
    format!("{} {}", o.catalog, o.provider.format())
}

/// The simulation is what it says (this holds today): five tasks per catalog, each session's
/// requests as the rounds it describes, every task's tool found, every search answered.
#[test]
fn the_sessions_are_the_described_rounds() {
    for o in outcomes() {
        let l = label(o);
        assert_eq!(o.tasks.len(), TASKS, "{l}");
        assert_eq!(o.bridge.requests, 4 * TASKS, "{l}: search, describe, call, closing text");
        assert_eq!(o.bridge_no_describe.requests, 3 * TASKS, "{l}");
        assert_eq!(o.native.requests, 3 * TASKS + o.native.re_searches, "{l}: search, call, closing text");
        assert_eq!(o.native.misses, 0, "{l}: every task's tool loaded, at the latest by its exact name");
        assert_eq!(o.native.searches.len(), TASKS + o.native.re_searches, "{l}");
        assert!(o.native.searches.iter().all(|&n| n > 0), "{l}: {:?}", o.native.searches);
        assert!(o.bridge.bytes > o.bridge_no_describe.bytes, "{l}");
    }
}

/// With default options a native session never costs more bytes than the bridge's (SPEC §14).
#[test]
fn a_native_session_costs_no_more_than_the_bridge() {
    let over: Vec<String> = outcomes()
        .iter()
        .filter(|o| o.native.bytes > o.bridge.bytes)
        .map(|o| {
            format!(
                "{}: native {} bytes > bridge {} bytes (×{:.2}; loads per search {:?})",
                label(o),
                o.native.bytes,
                o.bridge.bytes,
                o.ratio(),
                o.native.searches
            )
        })
        .collect();
    assert!(over.is_empty(), "native sessions over the bridge's bytes:\n{}", over.join("\n"));
}

/// A native search for a tool's exact name loads exactly that tool (SPEC §14), both providers.
#[test]
fn an_exact_name_search_loads_exactly_that_tool() {
    let mut wrong = Vec::new();
    for o in outcomes() {
        for (name, loaded) in &o.exact {
            if loaded.len() != 1 || loaded[0] != *name {
                wrong.push(format!("{}: {name} loads {} tools: {loaded:?}", label(o), loaded.len()));
            }
        }
    }
    assert!(wrong.is_empty(), "exact-name searches loading other than the one tool:\n{}", wrong.join("\n"));
}

/// Anthropic: the request after a search carries the tools it loaded, and its `contextTokens`
/// count them: they grow by at least the new tools' token estimates (SPEC §14).
#[test]
fn anthropic_context_tokens_count_the_loaded_tools() {
    let mut short = Vec::new();
    for o in outcomes().iter().filter(|o| o.provider == Provider::Anthropic) {
        for g in &o.native.growth {
            if g.grew < g.new_tokens as i64 {
                short.push(format!(
                    "{}: {:?} loaded {} tools ({} new tokens), contextTokens grew {}",
                    label(o),
                    g.query,
                    g.loaded,
                    g.new_tokens,
                    g.grew
                ));
            }
        }
    }
    assert!(short.is_empty(), "contextTokens not counting loaded tools:\n{}", short.join("\n"));
}
