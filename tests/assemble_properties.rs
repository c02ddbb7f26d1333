//! Property tests of assemble: the listing never exceeds its budget; shuffling servers and tools
//! changes no byte; bridge tools already in the input change nothing; the describe and call bridge
//! tools do not depend on the listing.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use proptest::prelude::*;
use toolshelf::json::Value;
use toolshelf::Shelf;

/// A random toolbox: direct tools, then servers with tools (unique names), as (server, [(name, description)]).
#[derive(Clone, Debug)]
struct Toolbox {
    direct: Vec<String>,
    servers: Vec<(String, Vec<(String, String)>)>,
}

fn toolbox_strategy() -> impl Strategy<Value = Toolbox> {
    let description = prop::sample::select(vec![
        "",
        "Create an issue. Then more text.",
        "List every item in the workspace, e.g. projects, teams, cycles and documents",
        "Ünïcode déscription with a \"quote\"!",
        "x",
        "A very long description that goes on and on without any full stop so it must be cut at a word boundary somewhere",
    ]);
    let server = ("[a-z]{1,8}", prop::collection::vec(("[a-z_]{1,12}", description.prop_map(String::from)), 0..25));
    (prop::collection::vec("[a-z]{1,6}", 0..3), prop::collection::vec(server, 0..6)).prop_map(|(direct, servers)| {
        // Make every name unique across the toolbox by prefixing server and position.
        let direct = direct.into_iter().enumerate().map(|(i, n)| format!("d{i}_{n}")).collect();
        let mut seen = std::collections::BTreeSet::new();
        let servers = servers
            .into_iter()
            .filter(|(s, _)| seen.insert(s.clone()))
            .map(|(s, tools)| {
                let tools = tools.into_iter().enumerate().map(|(i, (n, d))| (format!("{s}_{i}_{n}"), d)).collect();
                (s, tools)
            })
            .collect();
        Toolbox { direct, servers }
    })
}

fn to_value(t: &Toolbox, extra_direct: &[Value]) -> Value {
    let mut direct: Vec<Value> = t.direct.iter().map(|n| common::openai_tool(n, "Direct tool.")).collect();
    direct.extend(extra_direct.iter().cloned());
    let servers = t
        .servers
        .iter()
        .map(|(s, tools)| {
            (s.clone(), Value::Array(tools.iter().map(|(n, d)| common::openai_tool(n, &d.replace('"', "'"))).collect()))
        })
        .collect();
    Value::object([("tools", Value::Array(direct)), ("servers", Value::Object(servers))])
}

fn shuffled(t: &Toolbox, seed: u64) -> Toolbox {
    let mut rng = seed;
    let mut next = move |n: usize| {
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((rng >> 33) as usize) % n.max(1)
    };
    let mut servers = t.servers.clone();
    for i in (1..servers.len()).rev() {
        servers.swap(i, next(i + 1));
    }
    for (_, tools) in &mut servers {
        for i in (1..tools.len()).rev() {
            tools.swap(i, next(i + 1));
        }
    }
    Toolbox { direct: t.direct.clone(), servers }
}

fn opts(context: u64, pct: u32, listing: &str) -> Value {
    common::options(&format!(r#"{{"contextLength":{context},"thresholdPct":{pct},"listing":"{listing}"}}"#))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn the_listing_never_exceeds_the_budget(t in toolbox_strategy(), context in 1u64..400_000, pct in 0u32..=100) {
        let a = Shelf::new(&to_value(&t, &[]), &opts(context, pct, "auto")).unwrap().assemble();
        prop_assert!(a.facts.listing_tokens <= a.facts.budget_tokens);
        let listing_is_text = a.facts.form != toolshelf::Form::None;
        prop_assert_eq!(listing_is_text, a.facts.listing_tokens > 0);
    }

    #[test]
    fn shuffling_servers_and_tools_changes_no_byte(t in toolbox_strategy(), context in 1u64..400_000, seed: u64) {
        let a = Shelf::new(&to_value(&t, &[]), &opts(context, 5, "auto")).unwrap().layout().tools_json();
        let b = Shelf::new(&to_value(&shuffled(&t, seed), &[]), &opts(context, 5, "auto")).unwrap().layout().tools_json();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn bridge_tools_in_the_input_change_nothing(t in toolbox_strategy(), context in 1u64..400_000) {
        let first = Shelf::new(&to_value(&t, &[]), &opts(context, 5, "auto")).unwrap().assemble();
        let bridge: Vec<Value> = if first.facts.tier == 0 { vec![] } else { first.tools[first.tools.len() - 3..].to_vec() };
        let again = Shelf::new(&to_value(&t, &bridge), &opts(context, 5, "auto")).unwrap().assemble();
        prop_assert_eq!(first.facts.fingerprint, again.facts.fingerprint);
        prop_assert_eq!(first.tools, again.tools);
    }

    #[test]
    fn describe_and_call_do_not_depend_on_the_listing(t in toolbox_strategy(), c1 in 1u64..400_000, c2 in 1u64..400_000) {
        let a = Shelf::new(&to_value(&t, &[]), &opts(c1, 5, "auto")).unwrap().assemble();
        let b = Shelf::new(&to_value(&t, &[]), &opts(c2, 100, "on")).unwrap().assemble();
        prop_assert_eq!(a.facts.tier == 0, b.facts.tier == 0);
        if a.facts.tier > 0 {
            let n = a.tools.len();
            prop_assert_eq!(&a.tools[n - 2..], &b.tools[n - 2..]);
        }
    }
}
