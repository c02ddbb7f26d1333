//! Property test of `Shelf::update` (SPEC §15): for random toolboxes and random sequences of
//! updates (servers attached, detached, renamed and reordered; tools added, removed, changed,
//! reordered and copied; tools left out of the deferred set: bridge names, custom `bridgeNames`,
//! an assembly's own bridge tools fed back; direct tools; every format; bridge and native mode),
//! an updated shelf answers byte for byte as a new shelf of the same toolbox, and refuses what a
//! new shelf refuses with the same error, unchanged. Each update is made three ways: with the
//! toolbox as a value ([`Shelf::update`]), as the JS `Shelf.update` sends it (each def that is the
//! very same object as last time written as its index in its server's last list, a list of only
//! such defs left empty and kept: [`Shelf::update_keeping_text`]), and as a whole text.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use proptest::prelude::*;
use toolshelf::json::{self, Value};
use toolshelf::{Format, Shelf};

/// A small deterministic generator (xorshift64*), so that a failing seed replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// A tool def and its identity: the JS object it stands for (a def changed is a new object).
#[derive(Clone, Debug)]
struct Def {
    id: u64,
    value: Value,
}

/// A toolbox as the caller holds it: direct tools (when it has the key) and servers' lists.
#[derive(Clone, Debug)]
struct Toolbox {
    direct: Option<Vec<Def>>,
    servers: Vec<(String, Vec<Def>)>,
}

impl Toolbox {
    fn value(&self) -> Value {
        let mut members = Vec::new();
        if let Some(direct) = &self.direct {
            members.push(("tools".to_string(), Value::Array(direct.iter().map(|d| d.value.clone()).collect())));
        }
        let servers = self
            .servers
            .iter()
            .map(|(s, defs)| (s.clone(), Value::Array(defs.iter().map(|d| d.value.clone()).collect())));
        members.push(("servers".to_string(), Value::Object(servers.collect())));
        Value::Object(members)
    }

    /// The text `Shelf.update` in pkg-template/api.js sends after `last` (the toolbox it last
    /// took), and the servers it names in `keep`.
    fn js_update_text(&self, last: &Toolbox) -> (String, Vec<String>) {
        let mut keep = Vec::new();
        let mut servers = Vec::new();
        for (name, defs) in &self.servers {
            let before = last.servers.iter().rev().find(|(n, _)| n == name).map(|(_, l)| l);
            let list = match before {
                Some(before) if before.len() == defs.len() && before.iter().zip(defs).all(|(a, b)| a.id == b.id) => {
                    keep.push(name.clone());
                    Vec::new()
                }
                Some(before) => defs
                    .iter()
                    .map(|d| match before.iter().rposition(|b| b.id == d.id) {
                        Some(at) => Value::uint(at as u64),
                        None => d.value.clone(),
                    })
                    .collect(),
                None => defs.iter().map(|d| d.value.clone()).collect(),
            };
            servers.push((name.clone(), Value::Array(list)));
        }
        let mut members = Vec::new();
        if let Some(direct) = &self.direct {
            members.push(("tools".to_string(), Value::Array(direct.iter().map(|d| d.value.clone()).collect())));
        }
        members.push(("servers".to_string(), Value::Object(servers)));
        (Value::Object(members).to_json(), keep)
    }
}

const SERVERS: [&str; 7] = ["gh", "linear", "a b", "x.y", "builtin", "s", "stripe"];
const NAMES: [&str; 14] = [
    "create_issue",
    "list_items",
    "search_docs",
    "get",
    "tool_search",
    "tool_call",
    "tool_describe",
    "find_tools",
    "run_tool",
    "show_tool",
    " padded ",
    "mcp__gh__merge",
    "refund_charge",
    "a.b/c d",
];
const DESCRIPTIONS: [&str; 6] = [
    "Create an issue in a repository.",
    "List every item, e.g. projects and teams",
    "",
    "Ünïcode déscription with a \"quote\" and <b>HTML</b>",
    "Search the documentation for a page.",
    "Refund a charge to the customer's card.",
];
const OPTIONS: [&str; 15] = [
    "{}",
    r#"{"qualify":true}"#,
    r#"{"qualify":false}"#,
    r#"{"mode":"native"}"#,
    r#"{"mode":"native","contextLength":2000}"#,
    r#"{"bridgeNames":{"search":"find_tools","call":"run_tool","describe":"show_tool"}}"#,
    r#"{"contextLength":2000,"batch":true}"#,
    r#"{"contextLength":1000000}"#,
    r#"{"alwaysLoad":["gh"],"contextLength":4000}"#,
    r#"{"defer":["get","create_issue"]}"#,
    r#"{"alwaysLoad":["linear/get","x.y/a.b/c d","create_issue"],"defer":["gh/create_issue"]}"#,
    r#"{"alwaysLoad":["gh"],"defer":["gh/get"],"mode":"native","contextLength":3000}"#,
    r#"{"directWhenFits":true,"contextLength":200000}"#,
    r#"{"format":"anthropic"}"#,
    r#"{"mode":"native","bridgeNames":["find_tools","show_tool","run_tool"],"contextLength":3000}"#,
];

/// What makes defs: the format and the options' own bridge tools (an assembly fed back).
struct Maker {
    format: Format,
    bridge_defs: Vec<Value>,
    next_id: u64,
}

impl Maker {
    fn new(format: Format, options: &str) -> Maker {
        let tiny = Value::object([(
            "servers",
            Value::object([(
                "s",
                Value::Array(vec![format.tool("t", "T.", Value::object([("type", Value::str("object"))]))]),
            )]),
        )]);
        let assembled = Shelf::from_json(&tiny.to_json(), options).map(|s| s.assemble().to_value());
        let tools = assembled.ok().and_then(|a| a.get("tools").and_then(Value::as_array).map(<[_]>::to_vec));
        let bridge_defs =
            tools.unwrap_or_default().into_iter().filter(|t| format.fields(t).name != Some("t")).collect();
        Maker { format, bridge_defs, next_id: 0 }
    }

    fn def(&mut self, rng: &mut Rng) -> Def {
        self.next_id += 1;
        if !self.bridge_defs.is_empty() && rng.chance(8) {
            return Def { id: self.next_id, value: rng.pick(&self.bridge_defs).clone() };
        }
        let name = *rng.pick(&NAMES);
        let description = *rng.pick(&DESCRIPTIONS);
        let mut schema = vec![("type".to_string(), Value::str("object"))];
        if rng.chance(60) {
            let p = *rng.pick(&["path", "query", "id"]);
            let property = Value::object([("type", Value::str("string")), ("description", Value::str("The thing."))]);
            schema.push(("properties".into(), Value::object([(p, property)])));
            if rng.chance(50) {
                schema.push(("required".into(), Value::strings([p])));
            }
        }
        let value = self.format.tool(name, description, Value::Object(schema));
        Def { id: self.next_id, value }
    }

    /// `def` as a new object (the same JSON).
    fn copy(&mut self, def: &Def) -> Def {
        self.next_id += 1;
        Def { id: self.next_id, value: def.value.clone() }
    }

    fn list(&mut self, rng: &mut Rng, most: usize) -> Vec<Def> {
        (0..rng.below(most + 1)).map(|_| self.def(rng)).collect()
    }

    fn toolbox(&mut self, rng: &mut Rng) -> Toolbox {
        let direct = rng.chance(50).then(|| self.list(rng, 2));
        let mut servers: Vec<(String, Vec<Def>)> = Vec::new();
        for _ in 0..rng.below(4) + 1 {
            let name = rng.pick(&SERVERS).to_string();
            if !servers.iter().any(|(s, _)| *s == name) {
                let list = self.list(rng, 5);
                servers.push((name, list));
            }
        }
        Toolbox { direct, servers }
    }

    /// `toolbox` with one random change.
    fn change(&mut self, rng: &mut Rng, toolbox: &Toolbox) -> Toolbox {
        let mut next = toolbox.clone();
        let n = next.servers.len();
        match rng.below(13) {
            0 => {
                let name = rng.pick(&SERVERS).to_string();
                if !next.servers.iter().any(|(s, _)| *s == name) {
                    let list = self.list(rng, 4);
                    next.servers.push((name, list));
                }
            }
            1 if n > 0 => {
                next.servers.remove(rng.below(n));
            }
            2 => next.servers.reverse(),
            3 if n > 0 => {
                let list = &mut next.servers[rng.below(n)].1;
                if !list.is_empty() {
                    let at = rng.below(list.len());
                    list[at] = self.def(rng);
                }
            }
            4 if n > 0 => {
                let list = &mut next.servers[rng.below(n)].1;
                if list.len() > 1 {
                    let (a, b) = (rng.below(list.len()), rng.below(list.len()));
                    list.swap(a, b);
                }
            }
            5 if n > 0 => {
                let def = self.def(rng);
                let list = &mut next.servers[rng.below(n)].1;
                let at = rng.below(list.len() + 1);
                list.insert(at, def);
            }
            6 if n > 0 => {
                let list = &mut next.servers[rng.below(n)].1;
                if !list.is_empty() {
                    list.remove(rng.below(list.len()));
                }
            }
            7 if n > 0 => {
                let at = rng.below(n);
                let name = rng.pick(&SERVERS).to_string();
                if !next.servers.iter().any(|(s, _)| *s == name) {
                    next.servers[at].0 = name;
                }
            }
            8 if n > 0 => {
                let list = &mut next.servers[rng.below(n)].1;
                if !list.is_empty() {
                    let at = rng.below(list.len());
                    list[at] = self.copy(&list[at].clone());
                }
            }
            9 if n > 1 => {
                // The same object in another server's list.
                let from = rng.below(n);
                let to = rng.below(n);
                if let Some(def) = next.servers[from].1.first().cloned() {
                    next.servers[to].1.push(def);
                }
            }
            10 => {
                next.direct = match &next.direct {
                    Some(_) if rng.chance(50) => None,
                    _ => Some(self.list(rng, 2)),
                };
            }
            11 => {
                // Every def in another format (a format change).
                let format = *rng.pick(&Format::ALL);
                let rewrite = |def: &Def, id: u64| {
                    let fields = self.format.fields(&def.value);
                    let schema = fields.schema.cloned().unwrap_or(Value::Null);
                    let value = format.tool(fields.name.unwrap_or("x"), fields.description.unwrap_or(""), schema);
                    Def { id, value }
                };
                let mut id = self.next_id;
                let mut fresh = |def: &Def| {
                    id += 1;
                    rewrite(def, id)
                };
                next.direct = next.direct.as_ref().map(|list| list.iter().map(&mut fresh).collect());
                next.servers =
                    next.servers.iter().map(|(s, list)| (s.clone(), list.iter().map(&mut fresh).collect())).collect();
                self.next_id = id;
                self.format = format;
            }
            _ => {
                // Nothing changed: the same objects again.
            }
        }
        next
    }
}

/// Every answer of a shelf as JSON text: the assembly, searches, and the describe and unwraps of
/// every tool name (and of names it does not have).
fn answers(shelf: &Shelf) -> Vec<String> {
    let mut out = vec![shelf.assemble().to_value().to_json()];
    let mut names: Vec<String> = shelf.catalog().tools.iter().map(|t| t.name.clone()).collect();
    names.extend(["tool_search", "create", "nothing_here"].map(String::from));
    for query in
        ["create issue", "list", "docs search", "refund", "x", ""].iter().map(|q| q.to_string()).chain(names.clone())
    {
        out.push(shelf.search(&query, Some(5)).to_value().to_json());
    }
    for name in &names {
        out.push(shelf.describe(name).map(|d| d.to_value().to_json()).unwrap_or_default());
        let call = Value::object([
            ("name", Value::str("tool_call")),
            (
                "arguments",
                Value::object([
                    ("name", Value::str(name.as_str())),
                    ("arguments", Value::object([("path", Value::str("p"))])),
                ]),
            ),
        ]);
        out.push(format!("{:?}", shelf.unwrap(&call).map(|u| u.to_value().to_json())));
        let direct = Value::object([
            ("name", Value::str(name.as_str())),
            ("arguments", Value::object([("id", Value::str("1"))])),
        ]);
        out.push(format!("{:?}", shelf.unwrap(&direct).map(|u| u.to_value().to_json())));
    }
    let search = Value::object([
        ("name", Value::str(shelf.options().bridge_names.search.as_str())),
        ("arguments", Value::object([("query", Value::str("create issue"))])),
    ]);
    out.push(format!("{:?}", shelf.unwrap(&search).map(|u| u.to_value().to_json())));
    out
}

/// Asserts `got == expected`, showing the first answer that differs.
#[track_caller]
fn same(got: &[String], expected: &[String], context: &str) {
    if let Some(at) = (0..got.len().max(expected.len())).find(|&i| got.get(i) != expected.get(i)) {
        panic!("answer {at} differs: {context}\n got: {:?}\nwant: {:?}", got.get(at), expected.get(at));
    }
}

/// One random session: a toolbox, then `steps` updates, each checked three ways.
fn session(seed: u64, steps: usize) {
    let mut rng = Rng(seed | 1);
    let options_text = *rng.pick(&OPTIONS);
    let options = json::parse(options_text).unwrap();
    let mut maker = Maker::new(*rng.pick(&Format::ALL), options_text);
    let mut wanted = maker.toolbox(&mut rng);
    // The first toolbox a new shelf accepts (a few tries), else a session of one failed start.
    let mut tries = 0;
    while Shelf::new(&wanted.value(), &options).is_err() && tries < 5 {
        wanted = maker.toolbox(&mut rng);
        tries += 1;
    }
    let Ok(mut by_value) = Shelf::new(&wanted.value(), &options) else { return };
    let mut by_js = Shelf::from_json_text(wanted.value().to_json(), options_text).unwrap();
    let mut by_text = Shelf::from_json_text(wanted.value().to_json(), options_text).unwrap();
    let mut last = wanted.clone();
    for step in 0..steps {
        let next = maker.change(&mut rng, &last);
        let value = next.value();
        let text = value.to_json();
        let fresh = Shelf::from_json(&text, options_text);
        let context = format!("seed {seed}, step {step}, options {options_text}, toolbox {text}");
        let before = answers(&by_value);
        let (js_text, keep) = next.js_update_text(&last);
        // A shelf loaded from a snapshot of the last toolbox, updated as the JS side updates one
        // (its lists those of the toolbox the snapshot holds).
        let mut by_loaded = Shelf::from_snapshot(by_text.snapshot(), None, None).unwrap();
        let results = [
            by_value.update(&value),
            by_js.update_keeping_text(js_text.clone(), Some(&keep)),
            by_text.update_keeping_text(text.clone(), None),
            by_loaded.update_keeping_text(js_text.clone(), Some(&keep)),
        ];
        match fresh {
            Ok(fresh) => {
                let expected = answers(&fresh);
                for (way, (result, shelf)) in ["value", "js", "text", "loaded, then js"]
                    .iter()
                    .zip(results.iter().zip([&by_value, &by_js, &by_text, &by_loaded]))
                {
                    assert!(result.is_ok(), "{way}: {:?}; sent {js_text} keeping {keep:?}; {context}", result);
                    same(&answers(shelf), &expected, &format!("{way}: {context}"));
                }
                // Snapshots: of the value path as of a new shelf of the value; of the text path as
                // of a new shelf of the text; the JS path's (its toolbox given anew, as the
                // binding does) loads into a shelf answering the same.
                let new_of_value = Shelf::new(&value, &options).unwrap();
                assert!(by_value.snapshot() == new_of_value.snapshot(), "value snapshot: {context}");
                let new_of_text = Shelf::from_json_text(text.clone(), options_text).unwrap();
                assert!(by_text.snapshot() == new_of_text.snapshot(), "text snapshot: {context}");
                let loaded = Shelf::from_snapshot(by_js.snapshot(), None, None).unwrap();
                same(&answers(&loaded), &expected, &format!("js snapshot: {context}"));
                last = next;
            }
            Err(error) => {
                for (way, result) in ["value", "js", "text", "loaded, then js"].iter().zip(&results) {
                    assert_eq!(result.as_ref().err(), Some(&error), "{way}: {context}");
                }
                same(&answers(&by_value), &before, &format!("a failed update changed the shelf: {context}"));
                same(&answers(&by_js), &before, &format!("a failed update changed the shelf: {context}"));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn an_updated_shelf_answers_as_a_new_one(seed in any::<u64>()) {
        session(seed, 6);
    }
}
