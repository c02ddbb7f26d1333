//! Hostile input (SPEC §8): for each shape of input that could make work grow faster
//! than n·log n (a wide arguments object, a schema with n properties, n tools on one server, an
//! array of n objects, a long enum, many `anyOf` branches, `$ref`s into wide definitions, long
//! strings, a long query, n servers, long option lists …), the cost at 10n is at most a generous
//! multiple of the cost at n, over every public entry (`Shelf::new`, `assemble`, `search`,
//! `describe`, `unwrap`, `validate`). Ratios of timings taken in this process, the best of several
//! repetitions, never an absolute time: a case's growth is divided by that of a linear yardstick
//! (parsing as many bytes of JSON) measured alongside, which the machine's load and caches slow as
//! much; n·log n comes out near 1, quadratic near 5–10, and the bound is 4. The same shapes through
//! the npm package, against `JSON.parse`: `scripts/bench --hostile` (bench/hostile.mjs);
//! docs/hostile.md.
// Native only, as every test here but tests/wasm_*.rs.
#![cfg(not(target_arch = "wasm32"))]

use std::rc::Rc;
use std::time::{Duration, Instant};
use toolshelf::json::{self, Value};
use toolshelf::{schema, Shelf};

/// Most a case may grow from n to 10n, over the growth of the yardstick (parsing as many bytes of
/// JSON, linear) on the same machine at the same time: n·log n gives about 1 (up to 3 where
/// sorting strings scattered over a large heap misses the caches); quadratic, 5 to 10.
const MAX_EXCESS: f64 = 4.0;

/// A case: makes its input at size n (not timed) and returns the work to time.
type Case = (&'static str, usize, fn(usize) -> Work);

/// The work to time, and the bytes of its input (the yardstick parses as many).
struct Work {
    run: Box<dyn FnMut()>,
    bytes: usize,
}

fn work(bytes: usize, run: impl FnMut() + 'static) -> Work {
    Work { run: Box::new(run), bytes }
}

fn keys(n: usize) -> String {
    (0..n).map(|i| format!("\"key_{i}\":{i}")).collect::<Vec<_>>().join(",")
}

fn properties(n: usize) -> String {
    (0..n).map(|i| format!("\"key_{i}\":{{\"type\":\"integer\"}}")).collect::<Vec<_>>().join(",")
}

fn tool(name: &str, description: &str, schema: &str) -> String {
    format!(r#"{{"name":{},"description":{},"inputSchema":{schema}}}"#, quote(name), quote(description))
}

fn quote(s: &str) -> String {
    Value::str(s).to_json()
}

/// A toolbox with one server `s` holding one tool `t` with `schema`.
fn one_tool(schema: &str) -> Shelf {
    let toolbox = format!(r#"{{"servers":{{"s":[{}]}}}}"#, tool("t", "A tool.", schema));
    Shelf::from_json(&toolbox, "").unwrap()
}

fn call(arguments: &str) -> String {
    format!(r#"{{"name":"tool_call","arguments":{{"name":"t","arguments":{arguments}}}}}"#)
}

/// The toolbox text of n tools on one server, varied names and descriptions.
fn many_tools(n: usize) -> String {
    let words = ["create", "list", "update", "delete", "get", "issue", "repo", "user", "file", "branch"];
    let tools: Vec<String> = (0..n)
        .map(|i| {
            let (a, b) = (words[i % 10], words[(i / 10) % 10]);
            let schema = r#"{"type":"object","properties":{"id":{"type":"string"}}}"#;
            tool(&format!("{a}_{b}_{i}"), &format!("{a} the {b} number {i}. More text."), schema)
        })
        .collect();
    format!(r#"{{"servers":{{"s":[{}]}}}}"#, tools.join(","))
}

fn unwrap_case(shelf: Shelf, call: String, schema_bytes: usize) -> Work {
    work(call.len() + schema_bytes, move || {
        let call = json::parse(&call).unwrap();
        std::hint::black_box(shelf.unwrap(&call).unwrap());
    })
}

fn validate_case(schema: String, args: String) -> Work {
    let bytes = schema.len() + args.len();
    let schema = json::parse(&schema).unwrap();
    work(bytes, move || {
        let mut args = json::parse(&args).unwrap();
        std::hint::black_box(schema::validate(&schema, &mut args).is_ok());
    })
}

const CASES: &[Case] = &[
    ("parse: an object of n keys", 100_000, |n| {
        let text = format!("{{{}}}", keys(n));
        work(text.len(), move || drop(std::hint::black_box(json::parse(&text).unwrap())))
    }),
    ("parse: an object of n keys, each twice", 10_000, |n| {
        let text = format!("{{{},{}}}", keys(n), keys(n));
        work(text.len(), move || drop(std::hint::black_box(json::parse(&text).unwrap())))
    }),
    ("unwrap: tool_call whose arguments object has n keys", 10_000, |n| {
        unwrap_case(one_tool(r#"{"type":"object"}"#), call(&format!("{{{}}}", keys(n))), 0)
    }),
    ("unwrap: n keys against a schema of n properties", 5_000, |n| {
        let schema = format!(r#"{{"type":"object","properties":{{{}}},"additionalProperties":false}}"#, properties(n));
        unwrap_case(one_tool(&schema), call(&format!("{{{}}}", keys(n))), schema.len())
    }),
    ("Shelf::new + describe: a tool whose schema has n properties", 10_000, |n| {
        let toolbox = format!(
            r#"{{"servers":{{"s":[{}]}}}}"#,
            tool("t", "A tool.", &format!(r#"{{"type":"object","properties":{{{}}}}}"#, properties(n)))
        );
        work(toolbox.len(), move || {
            let shelf = Shelf::from_json(&toolbox, "").unwrap();
            std::hint::black_box(shelf.describe("t").unwrap());
        })
    }),
    ("Shelf::new + search: n tools on one server", 2_000, |n| {
        let toolbox = many_tools(n);
        work(toolbox.len(), move || {
            let shelf = Shelf::from_json(&toolbox, "").unwrap();
            std::hint::black_box(shelf.search("update the issue", None));
        })
    }),
    ("Shelf::new + assemble: n tools on one server", 2_000, |n| {
        let toolbox = many_tools(n);
        work(toolbox.len(), move || drop(std::hint::black_box(Shelf::from_json(&toolbox, "").unwrap().assemble())))
    }),
    ("assemble: n servers of one tool (listing fit)", 3_000, |n| {
        let servers: Vec<String> =
            (0..n).map(|i| format!(r#""server{i}":[{}]"#, tool(&format!("t{i}"), "A tool.", "{}"))).collect();
        let toolbox = format!(r#"{{"servers":{{{}}}}}"#, servers.join(","));
        work(toolbox.len(), move || drop(std::hint::black_box(Shelf::from_json(&toolbox, "").unwrap().assemble())))
    }),
    ("assemble: n servers, alwaysLoad and defer listing n names", 1_000, |n| {
        let servers: Vec<String> =
            (0..n).map(|i| format!(r#""server{i}":[{}]"#, tool(&format!("t{i}"), "A tool.", "{}"))).collect();
        let direct: Vec<String> = (0..n).map(|i| tool(&format!("d{i}"), "A tool.", "{}")).collect();
        let toolbox = format!(r#"{{"tools":[{}],"servers":{{{}}}}}"#, direct.join(","), servers.join(","));
        let always: Vec<String> = (0..n).step_by(2).map(|i| format!("\"server{i}\"")).collect();
        let defer: Vec<String> = (0..n).map(|i| format!("\"d{i}\"")).collect();
        let options = format!(r#"{{"alwaysLoad":[{}],"defer":[{}]}}"#, always.join(","), defer.join(","));
        work(toolbox.len() + options.len(), move || {
            drop(std::hint::black_box(Shelf::from_json(&toolbox, &options).unwrap().assemble()))
        })
    }),
    ("assemble: a description of n characters", 100_000, |n| {
        let description = "word ".repeat(n / 5);
        let toolbox = format!(r#"{{"servers":{{"s":[{}]}}}}"#, tool("t", &description, "{}"));
        work(toolbox.len(), move || drop(std::hint::black_box(Shelf::from_json(&toolbox, "").unwrap().assemble())))
    }),
    ("search: a query of n characters", 100_000, |n| {
        let shelf = Shelf::from_json(&many_tools(200), "").unwrap();
        shelf.search("warm the index", None);
        let query = "update issue ".repeat(n / 13);
        work(query.len(), move || drop(std::hint::black_box(shelf.search(&query, None))))
    }),
    ("unwrap: tool_describe of an unknown name among n tools (closest names)", 2_000, |n| {
        let toolbox = many_tools(n);
        let shelf = Shelf::from_json(&toolbox, "").unwrap();
        let call = r#"{"name":"tool_describe","arguments":{"name":"updte_issue_7"}}"#.to_string();
        unwrap_case(shelf, call, toolbox.len())
    }),
    ("unwrap: arguments holding an array of n small objects", 5_000, |n| {
        let schema = r#"{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"}},"required":["a"]}}}}"#;
        let items: Vec<String> = (0..n).map(|i| format!(r#"{{"a":{i},"b":"x{i}"}}"#)).collect();
        unwrap_case(one_tool(schema), call(&format!(r#"{{"items":[{}]}}"#, items.join(","))), 0)
    }),
    ("validate: a long enum", 20_000, |n| {
        let values: Vec<String> = (0..n).map(|i| format!("\"v{i}\"")).collect();
        validate_case(format!(r#"{{"enum":[{}]}}"#, values.join(",")), r#""nope""#.into())
    }),
    ("validate: n anyOf branches", 5_000, |n| {
        let branches: Vec<String> = (0..n).map(|i| format!(r#"{{"type":"object","required":["k{i}"]}}"#)).collect();
        validate_case(format!(r#"{{"anyOf":[{}]}}"#, branches.join(",")), r#"{"x":1}"#.into())
    }),
    ("validate: n items, each a $ref into n definitions", 2_000, |n| {
        let defs: Vec<String> = (0..n).map(|i| format!(r#""d{i}":{{"type":"integer"}}"#)).collect();
        let schema = format!(
            r##"{{"definitions":{{{}}},"type":"array","items":{{"$ref":"#/definitions/d{}"}}}}"##,
            defs.join(","),
            n - 1
        );
        let items: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        validate_case(schema, format!("[{}]", items.join(",")))
    }),
    ("validate: a $ref chain through n definitions", 2_000, |n| {
        let defs: Vec<String> =
            (0..n).map(|i| format!(r##""d{i}":{{"$ref":"#/definitions/d{}"}}"##, (i + 1) % n)).collect();
        validate_case(format!(r##"{{"definitions":{{{}}},"$ref":"#/definitions/d0"}}"##, defs.join(",")), "1".into())
    }),
    ("validate: n required names against n keys", 5_000, |n| {
        let names: Vec<String> = (0..n).map(|i| format!("\"key_{i}\"")).collect();
        validate_case(format!(r#"{{"type":"object","required":[{}]}}"#, names.join(",")), format!("{{{}}}", keys(n)))
    }),
    ("validate: const and enum of a wide object", 5_000, |n| {
        let object = format!("{{{}}}", keys(n));
        let reversed =
            format!("{{{}}}", (0..n).rev().map(|i| format!("\"key_{i}\":{i}")).collect::<Vec<_>>().join(","));
        validate_case(format!(r#"{{"const":{object},"enum":[{object}]}}"#), reversed)
    }),
    ("validate: a string of n characters against maxLength", 200_000, |n| {
        validate_case(r#"{"type":"string","maxLength":10}"#.into(), quote(&"é".repeat(n)))
    }),
];

/// Amplifying schemas: what a malicious MCP server could publish to make one call's validation
/// cost far more than its input. Each grows with n in both of its dimensions.
const SCHEMA_CASES: &[Case] = &[
    ("unwrap: anyOf of n $refs to anyOf of n $refs to a type list of 25n names", 60, |n| {
        let names: Vec<&str> = (0..25 * n).map(|i| if i % 2 == 0 { "\"boolean\"" } else { "\"null\"" }).collect();
        let schema = nested_ref_fan_out(n, &format!(r#"{{"type":[{}]}}"#, names.join(",")));
        unwrap_case(one_tool(&schema), call(r#"{"v":"hello"}"#), schema.len())
    }),
    ("unwrap: a key of 1,000·n characters under additionalProperties: anyOf of n $refs", 100, |n| {
        let refs = vec![r##"{"$ref":"#/$defs/d"}"##; n].join(",");
        let schema = format!(
            r#"{{"type":"object","additionalProperties":{{"anyOf":[{refs}]}},"$defs":{{"d":{{"type":"integer"}}}}}}"#
        );
        let key = "k".repeat(1000 * n);
        unwrap_case(one_tool(&schema), call(&format!(r#"{{"{key}":"x"}}"#)), schema.len())
    }),
    ("validate: anyOf of n $refs to a const object of n keys, differing in the last", 1_000, |n| {
        let refs = vec![r##"{"$ref":"#/$defs/c"}"##; n].join(",");
        let schema = format!(r#"{{"anyOf":[{refs}],"$defs":{{"c":{{"const":{{{}}}}}}}}}"#, keys(n));
        let differing = format!("{{{},\"key_{}\":-1}}", keys(n - 1), n - 1);
        validate_case(schema, differing)
    }),
    ("validate: a type list of n nulls and string, an enum of n numbers, against \"x\"", 10_000, |n| {
        let types = vec!["\"null\""; n].join(",");
        let numbers: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        validate_case(format!(r#"{{"type":[{types},"string"],"enum":[{}]}}"#, numbers.join(",")), r#""x""#.into())
    }),
    ("validate: anyOf of n $refs to a list of n type names", 1_000, |n| {
        let refs = vec![r##"{"$ref":"#/$defs/t"}"##; n].join(",");
        let names: Vec<&str> = (0..n).map(|i| ["\"null\"", "\"boolean\"", "\"array\""][i % 3]).collect();
        validate_case(format!(r#"{{"anyOf":[{refs}],"$defs":{{"t":{{"type":[{}]}}}}}}"#, names.join(",")), "{}".into())
    }),
    ("validate: anyOf of n $refs to one string const of 100·n characters", 1_000, |n| {
        let refs = vec![r##"{"$ref":"#/$defs/c"}"##; n].join(",");
        let long = "c".repeat(100 * n);
        let schema = format!(r#"{{"anyOf":[{refs}],"$defs":{{"c":{{"const":"{long}"}}}}}}"#);
        validate_case(schema, format!("\"{}x\"", &long[1..]))
    }),
    ("Shelf::update_keeping: n servers, every one kept (as the JS Shelf.update sends them)", 2_000, |n| {
        let servers: Vec<String> =
            (0..n).map(|i| format!(r#""server{i}":[{}]"#, tool(&format!("t{i}"), "A tool.", "{}"))).collect();
        let toolbox = format!(r#"{{"servers":{{{}}}}}"#, servers.join(","));
        let emptied: Vec<String> = (0..n).map(|i| format!(r#""server{i}":[]"#)).collect();
        let emptied = json::parse(&format!(r#"{{"servers":{{{}}}}}"#, emptied.join(","))).unwrap();
        let keep: Vec<String> = (0..n).map(|i| format!("server{i}")).collect();
        let mut shelf = Shelf::from_json(&toolbox, "").unwrap();
        work(toolbox.len(), move || shelf.update_keeping(emptied.clone(), &keep).unwrap())
    }),
    ("Shelf::update: n servers, every one unchanged (compared def by def)", 2_000, |n| {
        let servers: Vec<String> =
            (0..n).map(|i| format!(r#""server{i}":[{}]"#, tool(&format!("t{i}"), "A tool.", "{}"))).collect();
        let text = format!(r#"{{"servers":{{{}}}}}"#, servers.join(","));
        let toolbox = json::parse(&text).unwrap();
        let mut shelf = Shelf::from_json(&text, "").unwrap();
        work(text.len(), move || shelf.update(&toolbox).unwrap())
    }),
    ("validate: an array of n items against a type list of n names", 2_000, |n| {
        let names: Vec<&str> = (0..n).map(|i| ["\"null\"", "\"boolean\"", "\"integer\""][i % 3]).collect();
        let items = vec!["1"; n].join(",");
        validate_case(format!(r#"{{"items":{{"type":[{}]}}}}"#, names.join(",")), format!("[{items}]"))
    }),
];

/// `anyOf` of n `$ref`s to a node whose `anyOf` holds n `$ref`s to `leaf`: n² paths to one leaf.
fn nested_ref_fan_out(n: usize, leaf: &str) -> String {
    let outer = vec![r##"{"$ref":"#/$defs/inner"}"##; n].join(",");
    let inner = vec![r##"{"$ref":"#/$defs/leaf"}"##; n].join(",");
    format!(
        r#"{{"type":"object","properties":{{"v":{{"anyOf":[{outer}]}}}},"$defs":{{"inner":{{"anyOf":[{inner}]}},"leaf":{leaf}}}}}"#
    )
}

/// Search shapes: many tools sharing an own name (the exact-name rule), and a word every tool
/// holds (the whole catalog goes through scoring and the top-k selection).
/// `n` distinct lowercase words whose FNV-1a 64 hashes (the index's word tables hash with it) agree
/// in their low 16 bits, as a hostile server can write them: the low bits of FNV-1a depend on the
/// low bits alone, so every 5-letter prefix takes the 4-letter suffix that leads it to one value
/// (found by running the steps backwards from that value).
fn colliding_words(n: usize) -> Vec<String> {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    const MASK: u64 = 0xffff;
    let fnv =
        |bytes: &[u8]| bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME));
    // PRIME's inverse modulo 2^64 (Newton's iteration doubles the correct bits: 3, 6, ..., 96).
    let inverse = (0..5).fold(PRIME, |inv, _| inv.wrapping_mul(2u64.wrapping_sub(PRIME.wrapping_mul(inv))));
    let target: u64 = 0x5a5a;
    let mut suffix_for: Vec<Option<[u8; 4]>> = vec![None; 1 << 16];
    for code in 0..26u32.pow(4) {
        let suffix: [u8; 4] = std::array::from_fn(|i| b'a' + (code / 26u32.pow(i as u32) % 26) as u8);
        let before = suffix.iter().rev().fold(target, |h, &b| (h.wrapping_mul(inverse) & MASK) ^ u64::from(b));
        suffix_for[before as usize] = Some(suffix);
    }
    let mut words = Vec::with_capacity(n);
    for code in 0u32.. {
        let prefix: [u8; 5] = std::array::from_fn(|i| b'a' + (code / 26u32.pow(i as u32) % 26) as u8);
        if let Some(suffix) = suffix_for[(fnv(&prefix) & MASK) as usize] {
            let word = [&prefix[..], &suffix[..]].concat();
            assert_eq!(fnv(&word) & MASK, target);
            words.push(String::from_utf8(word).unwrap());
            if words.len() == n {
                break;
            }
        }
    }
    words
}

const SEARCH_CASES: &[Case] = &[
    ("search: a query equal to the own name of n qualified tools (n servers)", 2_000, |n| {
        let servers: Vec<String> =
            (0..n).map(|i| format!(r#""server{i}":[{}]"#, tool("list_issues", "List issues.", "{}"))).collect();
        let toolbox = format!(r#"{{"servers":{{{}}}}}"#, servers.join(","));
        let shelf = Shelf::from_json(&toolbox, r#"{"qualify":true}"#).unwrap();
        shelf.search("warm the index", None);
        work(toolbox.len(), move || drop(std::hint::black_box(shelf.search("list_issues", None))))
    }),
    ("search: the first search (the index) over n description words whose hashes collide", 2_000, |n| {
        let words = colliding_words(n);
        let tools: Vec<String> =
            words.chunks(10).enumerate().map(|(i, w)| tool(&format!("t{i}"), &w.join(" "), "{}")).collect();
        let toolbox = format!(r#"{{"servers":{{"s":[{}]}}}}"#, tools.join(","));
        let bytes = toolbox.len();
        work(bytes, move || {
            let shelf = Shelf::from_json(&toolbox, "").unwrap();
            drop(std::hint::black_box(shelf.search("warm the index", None)));
        })
    }),
    ("search: a word every one of n tools holds", 5_000, |n| {
        let toolbox = many_tools(n);
        let shelf = Shelf::from_json(&toolbox, "").unwrap();
        shelf.search("warm the index", None);
        work(toolbox.len(), move || drop(std::hint::black_box(shelf.search("number", None))))
    }),
];

/// The best of `reps` timings of `work`.
fn best(work: &mut dyn FnMut(), reps: usize) -> Duration {
    (0..reps)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// The yardstick: parsing an array of small objects of about `bytes` bytes (linear work that
/// touches as much memory, so the machine's load and caches weigh on it as on the case).
fn yardstick(bytes: usize) -> Work {
    let items = (bytes / 24).max(1);
    let text =
        format!("[{}]", (0..items).map(|i| format!(r#"{{"key":{i},"v":"x{i}"}}"#)).collect::<Vec<_>>().join(","));
    work(text.len(), move || drop(std::hint::black_box(json::parse(&text).unwrap())))
}

/// The growth of one case from n to 10n, and that of the yardstick over the same input sizes:
/// the best timings of each, taken alternately.
fn growth(make: fn(usize) -> Work, n: usize) -> (f64, f64, Duration, Duration) {
    let (mut small, mut large) = (make(n), make(10 * n));
    let (mut yard_small, mut yard_large) = (yardstick(small.bytes), yardstick(large.bytes));
    let mut times = [Duration::MAX; 4];
    for round in 0..4 {
        for (i, w) in [&mut small, &mut large, &mut yard_small, &mut yard_large].into_iter().enumerate() {
            let reps = if i % 2 == 0 { 5 } else { 1 };
            let t = best(&mut w.run, reps);
            if round > 0 {
                times[i] = times[i].min(t); // round 0 warms up
            }
        }
    }
    let ratio = |a: Duration, b: Duration| b.as_secs_f64() / a.as_secs_f64().max(1e-7);
    (ratio(times[0], times[1]), ratio(times[2], times[3]), times[0], times[1])
}

#[test]
fn every_shape_grows_at_most_n_log_n() {
    check_growth(CASES);
}

#[test]
fn amplifying_schemas_grow_at_most_n_log_n() {
    check_growth(SCHEMA_CASES);
}

#[test]
fn search_shapes_grow_at_most_n_log_n() {
    check_growth(SEARCH_CASES);
}

fn check_growth(cases: &[Case]) {
    let mut failures = Vec::new();
    for (name, n, make) in cases {
        // A growth over the bound is measured again (twice at most): the machine is shared.
        let mut measured: Vec<(f64, f64, f64, Duration, Duration)> = Vec::new();
        while measured.len() < 3 && measured.last().is_none_or(|(excess, ..)| *excess > MAX_EXCESS) {
            let (case, yard, small, large) = growth(*make, *n);
            measured.push((case / yard.max(1.0), case, yard, small, large));
        }
        let (excess, case, yard, small, large) = measured.into_iter().min_by(|a, b| a.0.total_cmp(&b.0)).unwrap();
        eprintln!("{name}: n = {n}: {small:?}, 10n: {large:?}: ×{case:.1} (yardstick ×{yard:.1})");
        if excess > MAX_EXCESS {
            failures.push(format!(
                "{name}: ×{case:.1} from n = {n} to 10n ({small:?} → {large:?}), parsing as many bytes ×{yard:.1}"
            ));
        }
    }
    assert!(failures.is_empty(), "grew faster than n·log n:\n{}", failures.join("\n"));
}

/// The sorted lookups that replaced scans judge wide objects as the scans did: the right
/// property's schema, unknown and missing keys, `$ref`s into wide definitions, wide `const`s.
#[test]
fn wide_objects_are_judged_as_narrow_ones() {
    let n = 40;
    let typed = |i: usize| if i % 2 == 0 { r#"{"type":"integer"}"# } else { r#"{"type":"string"}"# };
    let props: Vec<String> = (0..n).map(|i| format!("\"key_{i}\":{}", typed(i))).collect();
    let required: Vec<String> = (0..n).map(|i| format!("\"key_{i}\"")).collect();
    let defs: Vec<String> = (0..n).map(|i| format!("\"d{i}\":{}", typed(i))).collect();
    let schema = json::parse(&format!(
        r##"{{"type":"object","properties":{{{},"refs":{{"type":"array","items":{{"$ref":"#/definitions/d7"}}}}}},"required":[{}],"additionalProperties":false,"definitions":{{{}}}}}"##,
        props.join(","),
        required.join(","),
        defs.join(",")
    ))
    .unwrap();
    let args = |skip: Option<usize>, bad: Option<usize>, extra: &str| {
        let members: Vec<String> = (0..n)
            .filter(|i| Some(*i) != skip)
            .map(|i| match (i % 2 == 0, Some(i) == bad) {
                (true, false) | (false, true) => format!("\"key_{i}\":{i}"),
                _ => format!("\"key_{i}\":\"s{i}\""),
            })
            .collect();
        json::parse(&format!("{{{}{extra}}}", members.join(","))).unwrap()
    };
    let check = |mut value: Value| schema::validate(&schema, &mut value).map_err(|v| (v.path, v.keyword));
    assert_eq!(check(args(None, None, "")), Ok(()));
    assert_eq!(check(args(None, Some(37), "")), Err(("arguments.key_37".into(), "type")));
    assert_eq!(check(args(None, Some(2), "")), Err(("arguments.key_2".into(), "type")));
    assert_eq!(check(args(Some(33), None, "")), Err(("arguments".into(), "required")));
    assert_eq!(check(args(None, None, r#","key_40":1"#)), Err(("arguments".into(), "additionalProperties")));
    assert_eq!(check(args(None, None, r#","refs":["a","b"]"#)), Ok(()), "d7 is a string");
    assert_eq!(check(args(None, None, r#","refs":["a",3]"#)), Err(("arguments.refs[1]".into(), "type")));
    let wide = |order: &mut dyn Iterator<Item = usize>, odd: usize| {
        format!(
            "{{{}}}",
            order.map(|i| format!("\"k{i}\":{}", if i == odd { 0 } else { i })).collect::<Vec<_>>().join(",")
        )
    };
    let constant = json::parse(&format!(r#"{{"const":{}}}"#, wide(&mut (1..=n), 0))).unwrap();
    let mut same = json::parse(&wide(&mut (1..=n).rev(), 0)).unwrap();
    let mut differs = json::parse(&wide(&mut (1..=n).rev(), 17)).unwrap();
    assert_eq!(schema::validate(&constant, &mut same), Ok(()));
    assert_eq!(schema::validate(&constant, &mut differs).map_err(|v| v.keyword), Err("const"));
}

/// A reject quotes the failing schema, but not a hostile one whole: an `enum` of 100,000 values
/// (1 MB) is cut to the first 8,000 code points, with the count of what was left out; the same
/// tool with 10 values is quoted whole.
#[test]
fn a_reject_quotes_a_long_schema_cut() {
    let reject = |values: usize| {
        let values: Vec<String> = (0..values).map(|i| format!("\"value_{i}\"")).collect();
        let schema =
            format!(r#"{{"type":"object","properties":{{"v":{{"type":"string","enum":[{}]}}}}}}"#, values.join(","));
        let shelf =
            Shelf::from_json(&format!(r#"{{"servers":{{"s":[{}]}}}}"#, tool("t", "A tool.", &schema)), "").unwrap();
        let call = json::parse(r#"{"name":"tool_call","arguments":{"name":"t","arguments":{"v":"nope"}}}"#).unwrap();
        match shelf.unwrap(&call).unwrap() {
            toolshelf::Unwrapped::Reject { content, .. } => content,
            other => panic!("expected a reject, got {other:?}"),
        }
    };
    let short = reject(10);
    assert!(short.ends_with(r#""value_8","value_9"]}"#), "{short}");
    let long = reject(100_000);
    let quoted = long.split_once("Schema at arguments.v: ").map(|(_, schema)| schema).unwrap_or_default();
    assert!(quoted.starts_with(r#"{"type":"string","enum":["value_0","value_1""#), "{long:.300}");
    let (cut, note) = quoted.split_once('…').expect("a cut schema is marked");
    assert_eq!(cut.chars().count(), 8_000);
    let values: Vec<String> = (0..100_000).map(|i| format!("\"value_{i}\"")).collect();
    let whole = format!(r#"{{"type":"string","enum":[{}]}}"#, values.join(",")).len();
    assert_eq!(note, format!(" ({} more characters of schema left out)", whole - 8_000));
}

/// The verdict on each amplifying schema is the right one, not merely a fast one:
/// each is judged in full (a reject naming the keyword), none passes for want of work.
#[test]
fn amplifying_schemas_are_judged_in_full() {
    let reject = |shelf: &Shelf, arguments: &str| match shelf.unwrap(&json::parse(&call(arguments)).unwrap()).unwrap() {
        toolshelf::Unwrapped::Reject { content, .. } => content,
        other => panic!("expected a reject, got {other:?}"),
    };
    // A 40 KB schema: 600 × 600 paths to a list of 1,500 types.
    let names: Vec<&str> = (0..1500).map(|i| if i % 2 == 0 { "\"boolean\"" } else { "\"null\"" }).collect();
    let shelf = one_tool(&nested_ref_fan_out(600, &format!(r#"{{"type":[{}]}}"#, names.join(","))));
    let content = reject(&shelf, r#"{"v":"hello"}"#);
    assert!(
        content.contains(r#"expected boolean or null, got string "hello" (anyOf at arguments.v)"#),
        "{content:.400}"
    );
    assert!(content.chars().count() < 10_000, "{} characters", content.chars().count());
    // A 2M-character key under additionalProperties: anyOf of 2,500 $refs.
    let refs = vec![r##"{"$ref":"#/$defs/d"}"##; 2500].join(",");
    let schema = format!(
        r#"{{"type":"object","additionalProperties":{{"anyOf":[{refs}]}},"$defs":{{"d":{{"type":"integer"}}}}}}"#
    );
    let content = reject(&one_tool(&schema), &format!(r#"{{"{}":"x"}}"#, "k".repeat(2_000_000)));
    assert!(content.contains("expected integer, got string \"x\""), "{content:.400}");
    assert!(content.contains(&format!("(anyOf at arguments[\"{}…\"])", "k".repeat(100))), "{content:.400}");
    assert!(content.chars().count() < 9_000, "the path cuts the key: {} characters", content.chars().count());
    // anyOf of n $refs to a list of n type names: the message names each type once.
    let n = 10_000;
    let refs = vec![r##"{"$ref":"#/$defs/t"}"##; n].join(",");
    let types: Vec<&str> = (0..n).map(|i| ["\"null\"", "\"boolean\"", "\"array\""][i % 3]).collect();
    let schema = format!(
        r#"{{"type":"object","properties":{{"v":{{"anyOf":[{refs}]}}}},"$defs":{{"t":{{"type":[{}]}}}}}}"#,
        types.join(",")
    );
    let content = reject(&one_tool(&schema), r#"{"v":{}}"#);
    assert!(content.contains("expected null, boolean or array, got object (anyOf at arguments.v)"), "{content:.300}");
    assert!(content.chars().count() < 10_000, "{} characters (was 67.5 MB)", content.chars().count());
    for (schema, value, keyword) in [
        // anyOf of n $refs to a const object of n keys, the argument differing in its last key
        (
            format!(
                r#"{{"anyOf":[{}],"$defs":{{"c":{{"const":{{{}}}}}}}}}"#,
                vec![r##"{"$ref":"#/$defs/c"}"##; n].join(","),
                keys(n)
            ),
            format!("{{{},\"key_{}\":-1}}", keys(n - 1), n - 1),
            "const",
        ),
        // a type list of n nulls and string, an enum of n numbers and one string
        (
            format!(
                r#"{{"type":[{},"string"],"enum":[{},"y"]}}"#,
                vec!["\"null\""; n].join(","),
                (0..n).map(|i| i.to_string()).collect::<Vec<_>>().join(",")
            ),
            r#""x""#.to_string(),
            "enum",
        ),
        // anyOf of n $refs to one long string const
        (
            format!(
                r#"{{"anyOf":[{}],"$defs":{{"c":{{"const":"{}"}}}}}}"#,
                vec![r##"{"$ref":"#/$defs/c"}"##; n].join(","),
                "c".repeat(100 * n)
            ),
            format!("\"{}x\"", "c".repeat(100 * n - 1)),
            "const",
        ),
    ] {
        let schema = json::parse(&schema).unwrap();
        let mut args = json::parse(&value).unwrap();
        let (verdict, _) = schema::judge(&schema, &mut args);
        match verdict {
            schema::Verdict::Invalid(violation) => assert_eq!(violation.keyword, keyword, "{violation}"),
            other => panic!("expected a {keyword} violation, got {other:?}"),
        }
    }
}

/// A violation found is a reject whatever the passes after it cost (600,000 ids before a bad
/// `mode` and an extra property are a reject, never a call): the passes never share one budget.
#[test]
fn a_violation_found_is_never_lost_to_the_work_bound() {
    let schema = r#"{"type":"object","properties":{"ids":{"type":"array","items":{"type":"integer"}},"mode":{"enum":["a","b"]}},"additionalProperties":false}"#;
    let shelf = one_tool(schema);
    for ids in [400_000, 600_000, 2_000_000] {
        let ids = vec!["1"; ids].join(",");
        for arguments in [
            format!(r#"{{"ids":[{ids}],"mode":"zzz","extra":1}}"#),
            format!(r#"{{"mode":"zzz","ids":[{ids}],"extra":1}}"#),
            format!(r#"{{"ids":[{ids}],"extra":1}}"#),
        ] {
            match shelf.unwrap(&json::parse(&call(&arguments)).unwrap()).unwrap() {
                toolshelf::Unwrapped::Reject { content, .. } => {
                    assert!(
                        content.contains("(enum at arguments.mode)")
                            || content.contains("(additionalProperties at arguments)"),
                        "{content:.300}"
                    )
                }
                other => panic!("{} ids: expected a reject, got a {:?}", ids.len() / 2, std::mem::discriminant(&other)),
            }
        }
    }
}

/// Arguments nested deeper than the parser reads are a reject in every provider shape, as the same
/// arguments sent as JSON text are (an Anthropic `tool_use` at 128 levels included, never a
/// `too_large` error); the call's id is carried through.
#[test]
fn deep_arguments_are_a_reject_in_every_shape() {
    let shelf = one_tool(r#"{"type":"object"}"#);
    let nested = |levels: usize| format!("{}1{}", r#"{"a":"#.repeat(levels), "}".repeat(levels));
    for levels in [json::MAX_DEPTH + 1, 1_000, 100_000] {
        let args = nested(levels);
        for call in [
            format!(r#"{{"type":"tool_use","id":"c1","name":"t","input":{args}}}"#),
            format!(r#"{{"type":"tool_use","id":"c1","name":"tool_call","input":{{"name":"t","arguments":{args}}}}}"#),
            format!(r#"{{"id":"c1","type":"function","function":{{"name":"t","arguments":{}}}}}"#, quote(&args)),
            format!(r#"{{"type":"function_call","call_id":"c1","name":"t","arguments":{args}}}"#),
        ] {
            match shelf.unwrap_json(&call) {
                Ok(toolshelf::Unwrapped::Reject { content, id, .. }) => {
                    assert_eq!(id.as_deref(), Some("c1"));
                    assert_eq!(content, "t was not run: the arguments nest deeper than 128 levels. Send the arguments as a JSON object.");
                }
                other => panic!("{levels} levels, {:.80}: {other:?}", call),
            }
        }
    }
    // At the bound, arguments are judged in every shape.
    let args = nested(json::MAX_DEPTH);
    for call in [
        format!(r#"{{"type":"tool_use","id":"c1","name":"t","input":{args}}}"#),
        format!(r#"{{"type":"tool_use","id":"c1","name":"tool_call","input":{{"name":"t","arguments":{args}}}}}"#),
        format!(r#"{{"id":"c1","type":"function","function":{{"name":"t","arguments":{}}}}}"#, quote(&args)),
    ] {
        assert!(matches!(shelf.unwrap_json(&call), Ok(toolshelf::Unwrapped::Call(_))), "{call:.80}");
    }
    assert_eq!(shelf.unwrap_json("[[[").map_err(|e| e.code.as_str()), Err("invalid_call"));
}

/// A call the validator cannot judge in full passes (fail-open) with a warning for the agent; one it
/// judges carries none.
#[test]
fn an_unjudged_call_passes_with_a_warning() {
    // Alternatives that both recurse: 2^60 paths, cut off by the evaluation depth.
    let schema = r##"{"type":"object","properties":{"v":{"anyOf":[{"type":"array","items":{"$ref":"#/properties/v"}},{"type":"array","items":{"$ref":"#/properties/v"}}]}}}"##;
    let shelf = one_tool(schema);
    let deep = format!("{}5{}", "[".repeat(100), "]".repeat(100));
    match shelf.unwrap(&json::parse(&call(&format!(r#"{{"v":{deep}}}"#))).unwrap()).unwrap() {
        toolshelf::Unwrapped::Call(call) => {
            assert_eq!(call.warnings.len(), 1, "{:?}", call.warnings);
            assert!(call.warnings[0].contains("not fully validated"), "{:?}", call.warnings);
        }
        other => panic!("expected a call, got {other:?}"),
    }
    match shelf.unwrap(&json::parse(&call(r#"{"v":[[]]}"#)).unwrap()).unwrap() {
        toolshelf::Unwrapped::Call(call) => assert!(call.warnings.is_empty(), "{:?}", call.warnings),
        other => panic!("expected a call, got {other:?}"),
    }
}

/// Edge cases of a toolbox and a call: a tool given twice, tools named as bridge tools, a forced
/// format, a name with spaces, numbers out of a float's range.
#[test]
fn edge_cases_of_names_formats_and_numbers() {
    let code = |toolbox: &str, options: &str| Shelf::from_json(toolbox, options).err().map(|e| e.code.as_str());
    // A flat mcp__gh__foo beside gh: [foo] is one real tool given twice, in every qualify mode.
    let twice = r#"{"tools":[{"name":"mcp__gh__foo","description":"x","input_schema":{"type":"object"}}],"servers":{"gh":[{"name":"foo","description":"y","input_schema":{"type":"object"}}]}}"#;
    for qualify in ["auto", "true", "false"] {
        assert_eq!(code(twice, &format!(r#"{{"qualify":"{qualify}"}}"#)), Some("duplicate_tool"), "qualify {qualify}");
    }
    // A real tool named like a bridge tool is left out with a warning; the bridge tools of an
    // assembly given back as input are left out silently (idempotence).
    let named_search = r#"{"tools":[{"name":"search","description":"Search the web.","input_schema":{"type":"object"}}],"servers":{"s":[{"name":"x","description":"X.","input_schema":{"type":"object"}}]}}"#;
    let shelf = Shelf::from_json(named_search, r#"{"bridgeNames":{"search":"search"}}"#).unwrap();
    let warnings = shelf.assemble().facts.warnings;
    assert!(warnings.iter().any(|w| w.starts_with("tools[0]: the tool \"search\" was left out")), "{warnings:?}");
    let assembly = Shelf::from_json(named_search, "").unwrap().assemble();
    let again = format!(
        r#"{{"tools":{},"servers":{{"s":[{{"name":"x","description":"X.","input_schema":{{"type":"object"}}}}]}}}}"#,
        Value::Array(assembly.tools.clone()).to_json()
    );
    let reassembled = Shelf::from_json(&again, "").unwrap().assemble();
    assert!(!reassembled.facts.warnings.iter().any(|w| w.contains("was left out")), "{:?}", reassembled.facts.warnings);
    assert_eq!(reassembled.tools, assembly.tools, "idempotent");
    // A forced format that is not the tools' own says so.
    let anthropic = r#"{"servers":{"s":[{"name":"t","description":"d","input_schema":{"type":"object","properties":{"a":{"type":"integer"}}}}]}}"#;
    let warnings = Shelf::from_json(anthropic, r#"{"format":"openai"}"#).unwrap().assemble().facts.warnings;
    assert!(
        warnings.iter().any(|w| w
            .starts_with("format: forced to openai, but 1 tool(s) are shaped as anthropic (first at servers.s[0])")),
        "{warnings:?}"
    );
    assert!(Shelf::from_json(anthropic, r#"{"format":"anthropic"}"#).unwrap().assemble().facts.warnings.is_empty());
    // A name with surrounding spaces: under short names (qualify auto) the model knows it trimmed;
    // under the default its shown name is a safe one; either way the server gets its own name.
    let spaced = one_tool_named(" spaced ", r#"{"qualify":"auto"}"#);
    for call in [
        r#"{"name":"tool_call","arguments":{"name":"spaced","arguments":{}}}"#,
        r#"{"name":" spaced ","arguments":{}}"#,
    ] {
        match spaced.unwrap(&json::parse(call).unwrap()).unwrap() {
            toolshelf::Unwrapped::Call(call) => {
                assert_eq!((call.name.as_str(), call.tool.as_deref()), ("spaced", Some(" spaced ")))
            }
            other => panic!("{other:?}"),
        }
    }
    let spaced = one_tool_named(" spaced ", "");
    let shown = toolshelf::wire::tool_name("s", " spaced ");
    assert!(toolshelf::wire::is_valid(&shown) && shown.starts_with("mcp__s__spaced"), "{shown}");
    for call in [
        format!(r#"{{"name":"tool_call","arguments":{{"name":"{shown}","arguments":{{}}}}}}"#),
        format!(r#"{{"name":"{shown}","arguments":{{}}}}"#),
    ] {
        match spaced.unwrap(&json::parse(&call).unwrap()).unwrap() {
            toolshelf::Unwrapped::Call(call) => {
                assert_eq!((call.name.as_str(), call.tool.as_deref()), (shown.as_str(), Some(" spaced ")))
            }
            other => panic!("{call}: {other:?}"),
        }
    }
    // A number out of a float's range is a reject, not the largest finite number.
    let shelf = one_tool(r#"{"type":"object","properties":{"n":{"type":"number"}}}"#);
    for text in ["1E400", "-1e999", &format!("1{}", "0".repeat(400))] {
        let call =
            format!(r#"{{"id":"c","type":"function","function":{{"name":"t","arguments":"{{\"n\": {text}}}"}}}}"#);
        match shelf.unwrap(&json::parse(&call).unwrap()).unwrap() {
            toolshelf::Unwrapped::Reject { content, .. } => assert!(content.contains("is out of range"), "{content}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    let call = r#"{"id":"c","type":"function","function":{"name":"t","arguments":"{\"n\": 1E300}"}}"#;
    assert!(matches!(shelf.unwrap(&json::parse(call).unwrap()).unwrap(), toolshelf::Unwrapped::Call(_)));
}

/// A toolbox with one tool named `name` on server `s`.
fn one_tool_named(name: &str, options: &str) -> Shelf {
    Shelf::from_json(&format!(r#"{{"servers":{{"s":[{}]}}}}"#, tool(name, "A tool.", r#"{"type":"object"}"#)), options)
        .unwrap()
}

/// A lone surrogate exactly at a cut (60 code points in the listing, 400 in a search's
/// descriptions, 1,000 of a query) never leaves half of its stand-in in the text the model reads.
#[test]
fn a_lone_surrogate_at_a_cut_stays_whole() {
    for at in 55..65 {
        let description = format!("{}\\ud800{} end.", "a".repeat(at), "b".repeat(10));
        let toolbox = format!(
            r#"{{"servers":{{"s":[{}]}}}}"#,
            tool("t", "x", "{}").replace("\"x\"", &format!("\"{description}\""))
        );
        let text = Value::Array(Shelf::from_json(&toolbox, "").unwrap().assemble().tools).to_json();
        assert!(!text.contains('\u{10FFFF}'), "listing cut at {at}");
    }
    for at in 395..405 {
        let description =
            format!("{}\\ud800{} end.", "a ".repeat(at / 2) + if at % 2 == 1 { "a" } else { "" }, "b".repeat(10));
        let toolbox = format!(
            r#"{{"servers":{{"s":[{}]}}}}"#,
            tool("a_tool", "x", "{}").replace("\"x\"", &format!("\"{description}\""))
        );
        let shelf = Shelf::from_json(&toolbox, "").unwrap();
        let answer =
            shelf.unwrap(&json::parse(r#"{"name":"tool_search","arguments":{"query":"a tool"}}"#).unwrap()).unwrap();
        let toolshelf::Unwrapped::Answer { content, .. } = answer else { panic!("{answer:?}") };
        assert!(!content.contains('\u{10FFFF}'), "description cut at {at}");
    }
    let shelf = one_tool_named("t", "");
    for at in 995..1005 {
        let query = format!("{}\\ud800 tail", "q".repeat(at));
        let call = format!(r#"{{"name":"tool_search","arguments":{{"query":"{query}"}}}}"#);
        let text = shelf.unwrap(&json::parse(&call).unwrap()).unwrap().to_value().to_json();
        assert!(!text.contains('\u{10FFFF}'), "query cut at {at}");
    }
}

// ---------------------------------------------------------------------------------------------
// Conversations (SPEC §14): 10× the messages costs at most ~10× the time
// ---------------------------------------------------------------------------------------------

/// Most `layout_with_text` (the binding's `assemble({messages})`) and `unwrap_json_with` may grow
/// from a history of n messages to one of 10n: SPEC §14 "10× the messages costs at most ~10× the
/// time", the issue's ×12. A ratio of this process's own timings (the best of several), never an
/// absolute time. Linear work itself (the yardstick, parsing as many bytes of JSON) grows ×10 to
/// ×18 from these histories' 0.3–3 MB to 3–33 MB on a loaded two-core machine (caches, a shared
/// CPU), so a growth over ×12 still passes within 1.2 times the yardstick's ([`allowed_growth`]).
const MAX_HISTORY_GROWTH: f64 = 12.0;

/// Messages of the shorter history of each case (the longer has ten times as many): enough that a
/// quadratic step would show (×100 against the yardstick's ×10), small enough that the eight cases
/// take seconds, not minutes. `examples/session_cost.rs --history` times 10,000 and 100,000
/// (Anthropic's limit per request).
const HISTORY_MESSAGES: usize = 2_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wire {
    Anthropic,
    Responses,
}

/// Servers and tools of the conversations' toolbox: 40 servers of 50 tools, some names on every
/// server (`list_items`, `get_item`: qualified by the clash), the rest their server's own.
const SERVERS: usize = 40;
const TOOLS_PER_SERVER: usize = 50;

/// `(server, own name)` of the toolbox's tool `i`.
fn conversation_tool(i: usize) -> (String, String) {
    let (server, j) = (i / TOOLS_PER_SERVER, i % TOOLS_PER_SERVER);
    let verbs = ["get", "list", "create", "update", "delete", "archive", "export", "sync"];
    let nouns = ["invoice", "ticket", "report", "shipment", "account", "ledger", "asset", "order"];
    let own = match j {
        0 => "list_items".to_string(),
        1 => "get_item".to_string(),
        _ => format!("{}_{}_{server}_{j}", verbs[j % 8], nouns[(j / 8) % 8]),
    };
    (format!("service{server}"), own)
}

/// The conversations' toolbox in the provider's format, a direct `read_file` first.
fn conversation_toolbox(wire: Wire) -> String {
    let schema = r#"{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}"#;
    let def = |name: &str, description: &str| match wire {
        Wire::Anthropic => {
            format!(r#"{{"name":{},"description":{},"input_schema":{schema}}}"#, quote(name), quote(description))
        }
        Wire::Responses => format!(
            r#"{{"type":"function","name":{},"description":{},"parameters":{schema}}}"#,
            quote(name),
            quote(description)
        ),
    };
    let servers: Vec<String> = (0..SERVERS)
        .map(|s| {
            let tools: Vec<String> = (0..TOOLS_PER_SERVER)
                .map(|j| {
                    let (server, own) = conversation_tool(s * TOOLS_PER_SERVER + j);
                    def(&own, &format!("{} of {server}, item {j}.", own.replace('_', " ")))
                })
                .collect();
            format!(r#""service{s}":[{}]"#, tools.join(","))
        })
        .collect();
    format!(r#"{{"tools":[{}],"servers":{{{}}}}}"#, def("read_file", "Read a file."), servers.join(","))
}

fn conversation_shelf(wire: Wire, native: bool) -> Shelf {
    let options = if native { r#"{"mode":"native","contextLength":200000}"# } else { r#"{"contextLength":200000}"# };
    Shelf::from_json(&conversation_toolbox(wire), options).unwrap()
}

/// Real bridge search answers (JSON text) of `limit` matches from a bridge shelf of the
/// toolbox, one per query of a set of 64.
fn bridge_answers(wire: Wire, limit: usize) -> Vec<String> {
    let shelf = conversation_shelf(wire, false);
    let verbs = ["get", "list", "create", "update", "delete", "archive", "export", "sync"];
    let nouns = ["invoice", "ticket", "report", "shipment", "account", "ledger", "asset", "order"];
    (0..64)
        .map(|q| {
            let arguments = format!(r#"{{"query":"{} {}","limit":{limit}}}"#, verbs[q % 8], nouns[q / 8]);
            let call = match wire {
                Wire::Anthropic => {
                    format!(r#"{{"type":"tool_use","id":"q","name":"tool_search","input":{arguments}}}"#)
                }
                Wire::Responses => format!(
                    r#"{{"type":"function_call","call_id":"q","name":"tool_search","arguments":{}}}"#,
                    quote(&arguments)
                ),
            };
            let answer = shelf.unwrap_json(&call).unwrap().to_value();
            let content = answer.get("content").and_then(Value::as_str).expect("a bridge answer").to_string();
            assert_eq!(content.matches("\"server\"").count(), limit, "{content}");
            content
        })
        .collect()
}

/// The history as the binding gets it: `{"messages": [...]}` or `{"input": [...]}`.
fn context_text(wire: Wire, items: &[String]) -> String {
    let key = if wire == Wire::Anthropic { "messages" } else { "input" };
    format!(r#"{{"{key}":[{}]}}"#, items.join(","))
}

/// A realistic history of `n` messages (Anthropic) or input items (Responses), in turns of
/// eight: the user's text; a native search and its answer (`tool_reference` blocks and a text /
/// a `tool_search_output` of two namespaces); a call of a loaded tool and its text result; a
/// bridge search and its answer as JSON text (five matches); the model's text. Every 1,000th turn
/// the loaded tool's input (arguments) is nested 500 deep, every 2,000th a malformed part too.
/// The loaded tools cycle over the first 400 of the toolbox, so both lengths load the same tools.
fn realistic_history(wire: Wire, n: usize, answers: &[String]) -> String {
    let filler = "The tool ran; here is what it found. ".repeat(4);
    let deep = format!("{}1{}", "{\"a\":".repeat(500), "}".repeat(500));
    let pick = |k: usize| conversation_tool((k * 7919) % 400);
    let mut items = Vec::with_capacity(n + n / 2000);
    for i in 0..n {
        let turn = i / 8;
        let answer = quote(&answers[turn % answers.len()]);
        let (server, own) = pick(turn);
        let clashing = own == "list_items" || own == "get_item";
        let name = if clashing { format!("mcp__{server}__{own}") } else { own.clone() };
        let deep_turn = turn % 125 == 0;
        let item = match (wire, i % 8) {
            (_, 0) => format!(r#"{{"role":"user","content":"Task {turn}: look into the account and report back."}}"#),
            (Wire::Anthropic, 1) => format!(
                r#"{{"role":"assistant","content":[{{"type":"text","text":"Searching."}},{{"type":"tool_use","id":"toolu_{turn}a","name":"tool_search","input":{{"query":"task {turn} tools"}}}}]}}"#
            ),
            (Wire::Anthropic, 2) => {
                let refs: Vec<String> = (0..3)
                    .map(|k| {
                        let (server, own) = pick(turn + k);
                        let clashing = own == "list_items" || own == "get_item";
                        let name = if clashing { format!("mcp__{server}__{own}") } else { own };
                        format!(r#"{{"type":"tool_reference","tool_name":"{name}"}}"#)
                    })
                    .collect();
                format!(
                    r#"{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_{turn}a","content":[{},{{"type":"text","text":"Loaded."}}]}}]}}"#,
                    refs.join(",")
                )
            }
            (Wire::Anthropic, 3) => {
                let input = if deep_turn { deep.clone() } else { format!(r#"{{"id":"{turn}"}}"#) };
                format!(
                    r#"{{"role":"assistant","content":[{{"type":"tool_use","id":"toolu_{turn}b","name":"{name}","input":{input}}}]}}"#
                )
            }
            (Wire::Anthropic, 4) => format!(
                r#"{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_{turn}b","content":[{{"type":"text","text":"{filler}"}}]}}]}}"#
            ),
            (Wire::Anthropic, 5) => format!(
                r#"{{"role":"assistant","content":[{{"type":"tool_use","id":"toolu_{turn}c","name":"tool_search","input":{{"query":"more for task {turn}"}}}}]}}"#
            ),
            (Wire::Anthropic, 6) => format!(
                r#"{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_{turn}c","content":{answer}}}]}}"#
            ),
            (Wire::Anthropic, _) => {
                format!(r#"{{"role":"assistant","content":[{{"type":"text","text":"Task {turn} done."}}]}}"#)
            }
            (Wire::Responses, 1) => format!(
                r#"{{"type":"tool_search_call","call_id":"call_{turn}a","execution":"client","arguments":{{"query":"task {turn} tools"}}}}"#
            ),
            (Wire::Responses, 2) => {
                let spaces: Vec<String> = (0..2)
                    .map(|k| {
                        let (server, own) = pick(turn + k);
                        format!(
                            r#"{{"type":"namespace","name":"{server}","description":"Tools of {server}.","tools":[{{"type":"function","name":"{own}","description":"A tool.","parameters":{{"type":"object","properties":{{"id":{{"type":"string"}}}}}}}}]}}"#
                        )
                    })
                    .collect();
                format!(
                    r#"{{"type":"tool_search_output","call_id":"call_{turn}a","execution":"client","status":"completed","tools":[{}]}}"#,
                    spaces.join(",")
                )
            }
            (Wire::Responses, 3) => {
                let arguments = if deep_turn { quote(&deep) } else { quote(&format!(r#"{{"id":"{turn}"}}"#)) };
                format!(
                    r#"{{"type":"function_call","call_id":"call_{turn}b","namespace":"{server}","name":"{own}","arguments":{arguments}}}"#
                )
            }
            (Wire::Responses, 4) => {
                format!(r#"{{"type":"function_call_output","call_id":"call_{turn}b","output":"{filler}"}}"#)
            }
            (Wire::Responses, 5) => format!(
                r#"{{"type":"function_call","call_id":"call_{turn}c","name":"tool_search","arguments":{}}}"#,
                quote(&format!(r#"{{"query":"more for task {turn}"}}"#))
            ),
            (Wire::Responses, 6) => {
                format!(r#"{{"type":"function_call_output","call_id":"call_{turn}c","output":{answer}}}"#)
            }
            (Wire::Responses, _) => format!(r#"{{"role":"assistant","content":"Task {turn} done."}}"#),
        };
        items.push(item);
        if deep_turn && i % 8 == 3 && turn % 250 == 0 {
            // A malformed deep part (the provider would refuse it; toolshelf skips it).
            let junk = match wire {
                Wire::Anthropic => format!(r#"{{"role":"user","content":{}}}"#, "[".repeat(3000) + &"]".repeat(3000)),
                Wire::Responses => format!(
                    r#"{{"type":"function_call","call_id":"junk_{turn}","name":"read_file","arguments":{deep}}}"#
                ),
            };
            items.push(junk);
        }
    }
    context_text(wire, &items)
}

/// A history of `n` messages that references `n` distinct tool names no toolbox holds: turns of a
/// search and its answer naming two of them (`tool_reference` blocks, whose stand-ins the
/// Anthropic array must carry; a Responses `tool_search_output` loading them in a namespace
/// each, and a call of one).
fn distinct_names_history(wire: Wire, n: usize) -> String {
    let mut items = Vec::with_capacity(n);
    for i in 0..n {
        let turn = i / 2;
        let (a, b) = (format!("gone_tool_{}", 2 * turn), format!("gone_tool_{}", 2 * turn + 1));
        let item = match (wire, i % 2) {
            (Wire::Anthropic, 0) => format!(
                r#"{{"role":"assistant","content":[{{"type":"tool_use","id":"toolu_{turn}","name":"tool_search","input":{{"query":"gone {turn}"}}}}]}}"#
            ),
            (Wire::Anthropic, _) => format!(
                r#"{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_{turn}","content":[{{"type":"tool_reference","tool_name":"{a}"}},{{"type":"tool_reference","tool_name":"{b}"}}]}}]}}"#
            ),
            (Wire::Responses, 0) => format!(
                r#"{{"type":"tool_search_output","call_id":"call_{turn}","execution":"client","status":"completed","tools":[{{"type":"namespace","name":"gone_{turn}","description":"Gone.","tools":[{{"type":"function","name":"{a}","description":"Gone."}}]}}]}}"#
            ),
            (Wire::Responses, _) => format!(
                r#"{{"type":"function_call","call_id":"call_{turn}","namespace":"gone_{turn}","name":"{b}","arguments":"{{}}"}}"#
            ),
        };
        items.push(item);
    }
    context_text(wire, &items)
}

/// A bridge conversation of `n` messages whose every tool result is a search answer of 20
/// matches (every name shown with its server: bindings to resolve on each server).
fn bridge_answers_history(wire: Wire, n: usize, answers: &[String]) -> String {
    let mut items = Vec::with_capacity(n);
    for i in 0..n {
        let turn = i / 2;
        let answer = quote(&answers[turn % answers.len()]);
        let arguments = format!(r#"{{"query":"task {turn}","limit":20}}"#);
        let item = match (wire, i % 2) {
            (Wire::Anthropic, 0) => format!(
                r#"{{"role":"assistant","content":[{{"type":"tool_use","id":"toolu_{turn}","name":"tool_search","input":{arguments}}}]}}"#
            ),
            (Wire::Anthropic, _) => format!(
                r#"{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_{turn}","content":{answer}}}]}}"#
            ),
            (Wire::Responses, 0) => format!(
                r#"{{"type":"function_call","call_id":"call_{turn}","name":"tool_search","arguments":{}}}"#,
                quote(&arguments)
            ),
            (Wire::Responses, _) => {
                format!(r#"{{"type":"function_call_output","call_id":"call_{turn}","output":{answer}}}"#)
            }
        };
        items.push(item);
    }
    context_text(wire, &items)
}

/// The call each case's `unwrap_json_with` unwraps: a loaded tool's (native), `tool_call` of a
/// tool an answer showed (bridge).
fn history_call(wire: Wire, native: bool) -> String {
    let (server, own) = conversation_tool(7);
    match (wire, native) {
        (Wire::Anthropic, true) => {
            format!(r#"{{"type":"tool_use","id":"toolu_x","name":"{own}","input":{{"id":"1"}}}}"#)
        }
        (Wire::Responses, true) => format!(
            r#"{{"type":"function_call","call_id":"call_x","namespace":"{server}","name":"{own}","arguments":"{{\"id\":\"1\"}}"}}"#
        ),
        (Wire::Anthropic, false) => format!(
            r#"{{"type":"tool_use","id":"toolu_x","name":"tool_call","input":{{"name":"{own}","arguments":{{"id":"1"}}}}}}"#
        ),
        (Wire::Responses, false) => format!(
            r#"{{"type":"function_call","call_id":"call_x","name":"tool_call","arguments":{}}}"#,
            quote(&format!(r#"{{"name":"{own}","arguments":{{"id":"1"}}}}"#))
        ),
    }
}

/// One history case: the shelf's mode, and the history at n messages.
type HistoryCase = (&'static str, Wire, bool, fn(Wire, usize) -> String);

const HISTORY_CASES: &[HistoryCase] = &[
    ("realistic history, native", Wire::Anthropic, true, |w, n| realistic_history(w, n, &bridge_answers(w, 5))),
    ("realistic history, native", Wire::Responses, true, |w, n| realistic_history(w, n, &bridge_answers(w, 5))),
    ("realistic history, bridge", Wire::Anthropic, false, |w, n| realistic_history(w, n, &bridge_answers(w, 5))),
    ("realistic history, bridge", Wire::Responses, false, |w, n| realistic_history(w, n, &bridge_answers(w, 5))),
    ("n distinct names referenced (stand-ins)", Wire::Anthropic, true, distinct_names_history),
    ("n distinct names loaded and called", Wire::Responses, true, distinct_names_history),
    ("every tool result a bridge answer of 20 matches", Wire::Anthropic, false, |w, n| {
        bridge_answers_history(w, n, &bridge_answers(w, 20))
    }),
    ("every tool result a bridge answer of 20 matches", Wire::Responses, false, |w, n| {
        bridge_answers_history(w, n, &bridge_answers(w, 20))
    }),
];

/// A history's work: `layout_with_text` (with the tools array written, as the binding sends it)
/// or `unwrap_json_with`.
fn history_work(shelf: &Rc<Shelf>, text: &Rc<String>, call: Option<&str>) -> Work {
    let (shelf, text) = (shelf.clone(), text.clone());
    let bytes = text.len();
    match call {
        None => work(bytes, move || {
            let layout = shelf.layout_with_text(&text).unwrap();
            drop(std::hint::black_box(layout.plan().to_json()));
        }),
        Some(call) => {
            let call = call.to_string();
            work(bytes, move || {
                drop(std::hint::black_box(shelf.unwrap_json_with(&call, Some(&text)).unwrap()));
            })
        }
    }
}

/// One entry's growth: the ratio 10n / n and the times at n and 10n.
type Growth = (f64, Duration, Duration);

/// The works a history case times: `layout_with_text` at n and 10n messages, `unwrap_json_with`
/// at n and 10n, and the yardstick (parsing as many bytes of JSON) at both sizes.
fn history_runs(shelf: &Rc<Shelf>, texts: &[Rc<String>; 2], call: &str) -> Vec<Work> {
    vec![
        history_work(shelf, &texts[0], None),
        history_work(shelf, &texts[1], None),
        history_work(shelf, &texts[0], Some(call)),
        history_work(shelf, &texts[1], Some(call)),
        yardstick(texts[0].len()),
        yardstick(texts[1].len()),
    ]
}

/// One more measurement of a history case: each of `runs` timed alternately over `rounds`, its
/// best time kept in `times` (the best over every measurement so far: a busy neighbour slows some
/// runs, not all). The ratios 10n / n of the two entries, then of the yardstick.
fn history_growth(runs: &mut [Work], times: &mut [Duration; 6], rounds: usize) -> ([Growth; 2], f64) {
    for _ in 0..rounds {
        for (i, (w, best_time)) in runs.iter_mut().zip(times.iter_mut()).enumerate() {
            *best_time = (*best_time).min(best(&mut w.run, if i % 2 == 0 { 2 } else { 1 }));
        }
    }
    let ratio = |a: Duration, b: Duration| b.as_secs_f64() / a.as_secs_f64().max(1e-7);
    let entry = |i: usize| (ratio(times[i], times[i + 1]), times[i], times[i + 1]);
    ([entry(0), entry(2)], ratio(times[4], times[5]))
}

/// The growth the bound allows: ×12, or (where the machine makes linear work itself grow over
/// ×10 from a few MB to tens of MB: caches, a shared CPU) 1.2 times the yardstick's growth over the
/// same bytes.
fn allowed_growth(yardstick: f64) -> f64 {
    MAX_HISTORY_GROWTH.max(yardstick * MAX_HISTORY_GROWTH / 10.0)
}

/// SPEC §14: `assemble({messages})` (`layout_with_text`) and `unwrap(call, {messages})`
/// (`unwrap_json_with`) on a history of 20,000 messages cost at most ×12 what they cost on one of
/// 2,000, for both providers: realistic conversations (native and bridge: user text, calls and
/// their results, native search answers, bridge answers as JSON text, a few deep and malformed
/// parts) and hostile ones (20,000 distinct names referenced, every result a 20-match answer).
#[test]
fn long_histories_grow_linearly() {
    let mut failures = Vec::new();
    for &(name, wire, native, make) in HISTORY_CASES {
        let shelf = Rc::new(conversation_shelf(wire, native));
        let texts = [Rc::new(make(wire, HISTORY_MESSAGES)), Rc::new(make(wire, 10 * HISTORY_MESSAGES))];
        let call = history_call(wire, native);
        // What each length gives (not timed): the array's tools and warnings, the call's outcome.
        let outcome: Vec<String> = texts
            .iter()
            .map(|text| {
                let layout = shelf.layout_with_text(text).unwrap();
                let u = shelf.unwrap_json_with(&call, Some(text)).unwrap().to_value();
                let kind = u.get("kind").and_then(Value::as_str).unwrap_or("?").to_string();
                format!("{} tools, {} warnings, {kind}", layout.slots.len(), layout.facts.warnings.len())
            })
            .collect();
        let mode = if native { "native" } else { "bridge" };
        eprintln!(
            "{wire:?} {mode}, {name}: {} messages ({:.1} MB): {}; 10×: {}",
            HISTORY_MESSAGES,
            texts[0].len() as f64 / 1e6,
            outcome[0],
            outcome[1]
        );
        // A round to warm up (its times dropped), two measured; a growth over the bound is measured
        // again (three times at most), each work's best time kept: the machine is shared.
        let mut runs = history_runs(&shelf, &texts, &call);
        history_growth(&mut runs, &mut [Duration::MAX; 6], 1);
        let mut times = [Duration::MAX; 6];
        let (mut entries, mut yard) = history_growth(&mut runs, &mut times, 2);
        for _ in 0..3 {
            if entries.iter().all(|e| e.0 <= allowed_growth(yard)) {
                break;
            }
            (entries, yard) = history_growth(&mut runs, &mut times, 2);
        }
        for (k, entry) in ["layout_with_text", "unwrap_json_with"].into_iter().enumerate() {
            let (ratio, small, large) = entries[k];
            let label = format!(
                "{entry}, {wire:?} {mode}, {name}: {small:?}, 10× ({:.1} MB): {large:?}: ×{ratio:.1} (yardstick ×{yard:.1})",
                texts[1].len() as f64 / 1e6
            );
            eprintln!("  {label}");
            if ratio > allowed_growth(yard) {
                failures.push(label);
            }
        }
    }
    assert!(failures.is_empty(), "histories 10 times longer cost over ×{MAX_HISTORY_GROWTH}:\n{}", failures.join("\n"));
}
