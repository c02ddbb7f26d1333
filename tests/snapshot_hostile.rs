//! Hostile snapshots (SPEC §8, §13), in the manner of tests/hostile.rs: every truncation and every
//! flipped byte of a real snapshot is `invalid_snapshot` (the checksum), and with the checksum made
//! right again (bytes written to deceive) loads or is refused without a panic; counts that claim
//! more than the bytes hold are refused before any allocation; the fuzz target's seeds replay; and
//! loading grows no faster than n·log n from n to 10n in each dimension of a snapshot (tools, one
//! server's tools, servers, a description's length, a schema's properties), measured against a
//! linear yardstick as tests/hostile.rs measures.
#![cfg(not(target_arch = "wasm32"))]

mod common;
#[path = "../fuzz/snapshot_check.rs"]
mod snapshot_check;

use snapshot_check::{with_checksum, TRAILER};
use std::path::Path;
use std::time::{Duration, Instant};
use toolshelf::json::{self, Value};
use toolshelf::{ErrorCode, Shelf};

fn small_snapshot() -> Vec<u8> {
    let toolbox =
        common::grouped_with(vec![common::openai_tool("read_file", "Read a file.")], &["linear-mcp-official"]);
    let shelf = Shelf::from_json_text(toolbox.to_json(), r#"{"contextLength":100000}"#).unwrap();
    shelf.snapshot()
}

fn refused(bytes: Vec<u8>) -> String {
    match Shelf::from_snapshot(bytes, None, None) {
        Ok(_) => panic!("loaded"),
        Err(e) => {
            assert_eq!(e.code, ErrorCode::InvalidSnapshot, "{e}");
            e.message
        }
    }
}

#[test]
fn every_truncation_is_refused_with_a_reason() {
    let bytes = small_snapshot();
    for len in (0..bytes.len()).step_by(7).chain(bytes.len() - TRAILER..bytes.len()) {
        let message = refused(bytes[..len].to_vec());
        assert!(message.starts_with("snapshot: "), "{message}");
    }
    // The same bytes with a byte more at either end.
    let mut longer = vec![b' '];
    longer.extend_from_slice(&bytes);
    assert!(refused(longer).contains("truncated or corrupt"));
}

#[test]
fn every_flipped_byte_is_refused_and_deceiving_bytes_never_panic() {
    let bytes = small_snapshot();
    let mut loaded_anyway = 0;
    for at in (0..bytes.len()).step_by(13) {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x5a;
        let message = refused(flipped.clone());
        assert!(
            ["checksum", "trailer", "version", "flags", "truncated"].iter().any(|r| message.contains(r)),
            "byte {at}: {message}"
        );
        if at < bytes.len() - TRAILER {
            // With the checksum right: loads (the flip said something else that holds) or is
            // refused; never a panic, and a shelf loaded answers (the fuzz target's check).
            let deceiving = with_checksum(&flipped);
            if Shelf::from_snapshot(deceiving.clone(), None, None).is_ok() {
                loaded_anyway += 1;
            }
            snapshot_check::snapshot(&deceiving);
        }
    }
    eprintln!("{loaded_anyway} flips with a right checksum loaded (a string's bytes changed)");
}

#[test]
fn a_foreign_version_and_foreign_bytes_are_named() {
    let mut bytes = small_snapshot();
    let at = bytes.len() - TRAILER + 8;
    let foreign = toolshelf::SNAPSHOT_VERSION + 1;
    bytes[at..at + 4].copy_from_slice(&foreign.to_le_bytes());
    let expected = format!("format version {foreign}; this toolshelf reads version {}", toolshelf::SNAPSHOT_VERSION);
    assert!(refused(bytes).contains(&expected));
    assert!(refused(b"{\"servers\":{}}".repeat(10)).contains("not a toolshelf snapshot"));
    assert!(refused(Vec::new()).contains("truncated"));
}

/// A payload of one count that claims four billion items, then nothing: refused, no allocation.
#[test]
fn counts_beyond_the_bytes_are_refused_before_allocating() {
    let bytes = small_snapshot();
    let payload_start = bytes.len() - TRAILER - payload_len(&bytes);
    // The options' flag and length come first: a string length of u32::MAX.
    let mut huge = bytes.clone();
    huge[payload_start + 1..payload_start + 5].copy_from_slice(&u32::MAX.to_le_bytes());
    let message = refused(with_checksum(&huge));
    assert!(message.contains("malformed"), "{message}");
    // Every 4-byte window of the payload read as u32::MAX, checksum right: never a panic (nor an
    // allocation the size of the claim, which would abort the test process).
    for at in (payload_start..bytes.len() - TRAILER - 4).step_by(5) {
        let mut claim = bytes.clone();
        claim[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let _ = Shelf::from_snapshot(with_checksum(&claim), None, None);
    }
}

fn payload_len(bytes: &[u8]) -> usize {
    let at = bytes.len() - 16;
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize
}

#[test]
fn the_fuzz_seeds_replay() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/snapshot");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(!files.is_empty(), "{}: no seeds", dir.display());
    for path in files {
        let data = std::fs::read(&path).unwrap();
        let result = std::panic::catch_unwind(|| snapshot_check::snapshot(&data));
        assert!(result.is_ok(), "seed {}", path.display());
    }
}

/// The toolbox of tests/js/snapshot.test.mjs's forged snapshots, with descriptions that hold
/// braces (a path template, an empty object's text) as real ones do.
fn braced_toolbox() -> String {
    let tool = |name: &str, description: &str| common::openai_tool(name, description).to_json();
    format!(
        r#"{{"tools":[{},{}],"servers":{{"gh":[{},{},{}],"linear":[{},{}],"a b":[{}]}}}}"#,
        tool("read_file", "Read a file at /repos/{owner}/{repo}."),
        tool("mcp__gh__merge", "Merge; options {} are ignored."),
        tool("create_issue", "Create an issue."),
        tool("tool_search", "Mine."),
        tool("list_issues", "List issues."),
        tool("create_issue", "Create a Linear issue."),
        tool("list_teams", "List teams."),
        tool("tool_call", "Left out."),
    )
}

/// Where the payload holds the def range `(start, end)` (after the byte that says a def is a
/// range of the text): the offset of `start`.
fn range_field(bytes: &[u8], (start, end): (usize, usize)) -> usize {
    let mut field = vec![0u8];
    field.extend_from_slice(&(start as u32).to_le_bytes());
    field.extend_from_slice(&(end as u32).to_le_bytes());
    let at = bytes.windows(field.len()).position(|w| w == field.as_slice()).expect("the range is in the payload");
    at + 1
}

/// A tool's def range forged (the checksum made right) to any other range of the toolbox's text is
/// refused: the whole toolbox from its start, the def with the comma after it, two defs, an object
/// inside the def, braces inside a description (`{owner}`, and `{}`, which is an object's text),
/// the def cut short at an inner object's end or at a brace in its description (the load steps over
/// each def by its stored range), another tool's def, two tools' defs swapped. A load that checked
/// a range only to be within the text (and the def's size to fit it) would take each of these: a
/// def that is no JSON (the first three, `{owner}`) as `null` in the assembly
/// (tests/js/snapshot.test.mjs's forged snapshots), another tool's def as a second tool of that
/// name.
#[test]
fn a_def_range_that_is_not_the_def_at_its_place_is_refused() {
    let text = braced_toolbox();
    let shelf = Shelf::from_json_text(text.clone(), r#"{"contextLength":3000}"#).unwrap();
    let bytes = shelf.snapshot();
    let loaded = Shelf::from_snapshot(bytes.clone(), None, None).expect("the snapshot as written loads");
    assert_eq!(loaded.assemble().to_value().to_json(), shelf.assemble().to_value().to_json());
    let def = |name: &str| {
        let def = common::openai_tool(name, "").to_json();
        let head = &def[..def.find(r#","description""#).unwrap()];
        let start = text.find(head).unwrap();
        let end = start + text[start..].find("}}}").unwrap() + 3;
        assert!(json::parse(&text[start..end]).unwrap().is_object());
        (start, end)
    };
    let (read_file, merge, create_issue) = (def("read_file"), def("mcp__gh__merge"), def("create_issue"));
    let inside = |from: (usize, usize), what: &str| {
        let at = from.0 + text[from.0..from.1].find(what).unwrap();
        (at, at + what.len())
    };
    let parameters =
        inside(read_file, r#"{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}"#);
    let forged = [
        ("the toolbox from its start", read_file, (0, read_file.1)),
        ("the def and the comma after it", read_file, (read_file.0, read_file.1 + 1)),
        ("two defs", read_file, (read_file.0, merge.1)),
        ("the def's parameters", read_file, parameters),
        ("{owner} in a description", read_file, inside(read_file, "{owner}")),
        ("{} in a description", merge, inside(merge, "{}")),
        ("the def cut at its parameters' end", read_file, (read_file.0, parameters.1)),
        ("the def cut at a brace in its description", merge, (merge.0, inside(merge, "{}").1)),
        ("another tool's def", merge, read_file),
        ("a server tool's def as another's", create_issue, read_file),
    ];
    for (what, from, to) in forged {
        let mut bytes = bytes.clone();
        let at = range_field(&bytes, from);
        bytes[at..at + 4].copy_from_slice(&(to.0 as u32).to_le_bytes());
        bytes[at + 4..at + 8].copy_from_slice(&(to.1 as u32).to_le_bytes());
        // The def's size (code points, after its range) made to fit the forged range.
        let size = u32::from_le_bytes(bytes[at + 8..at + 12].try_into().unwrap()).min((to.1 - to.0) as u32);
        bytes[at + 8..at + 12].copy_from_slice(&size.to_le_bytes());
        let message = refused(with_checksum(&bytes));
        assert!(message.contains("malformed"), "{what}: {message}");
    }
    // Two direct tools' defs swapped.
    let mut bytes = bytes.clone();
    let (a, b) = (range_field(&bytes, read_file), range_field(&bytes, merge));
    let (first, second) = (bytes[a..a + 8].to_vec(), bytes[b..b + 8].to_vec());
    bytes[a..a + 8].copy_from_slice(&second);
    bytes[b..b + 8].copy_from_slice(&first);
    assert!(refused(with_checksum(&bytes)).contains("malformed"));
}

/// Bytes forged inside a def (the toolbox's text, which the load trusts and does not parse, nor
/// check for UTF-8): the def goes into a request as a def of its tool's name and description with
/// no parameters, never as a def named otherwise (here a bridge tool's name), as one that is no
/// JSON, or as bytes that are not UTF-8.
#[test]
fn a_def_forged_inside_goes_out_as_its_tool() {
    let text = braced_toolbox();
    let shelf = Shelf::from_json_text(text.clone(), r#"{"contextLength":3000}"#).unwrap();
    let bytes = shelf.snapshot();
    let name = |t: &Value| {
        let holder = t.get("function").unwrap_or(t);
        holder.get("name").and_then(Value::as_str).unwrap_or_default().to_string()
    };
    let forgeries: [(&str, &str, &[u8]); 3] = [
        ("named as a bridge tool", r#""name":"read_file""#, br#""name":"tool_call""#),
        ("no JSON", r#""description":"Read a file"#, br#""description" "Read a file"#),
        ("not UTF-8", r#""description":"Read a file"#, b"\"description\":\"Read a \xfeile"),
    ];
    for (what, from, to) in forgeries {
        let mut forged = bytes.clone();
        // The snapshot starts with the toolbox's text.
        let at = text.find(from).unwrap();
        forged[at..at + to.len()].copy_from_slice(to);
        let loaded = Shelf::from_snapshot(with_checksum(&forged), None, None).expect(what);
        assert_eq!(loaded.toolbox_text().is_none(), what == "not UTF-8", "{what}");
        // Search reads the stored index and names, never the forged def: it answers as before.
        for query in ["create issue", "list teams", "read file", "merge"] {
            assert_eq!(loaded.search(query, Some(5)), shelf.search(query, Some(5)), "{what}: {query}");
        }
        let again = Shelf::from_snapshot(loaded.snapshot(), None, None).expect("its snapshot loads");
        assert_eq!(again.snapshot(), loaded.snapshot(), "{what}");
        let assembly = loaded.assemble().to_value();
        let tools = assembly.get("tools").and_then(Value::as_array).unwrap();
        let mut names: Vec<String> = tools.iter().map(name).collect();
        let read_file = tools.iter().find(|t| name(t) == "read_file").unwrap_or_else(|| panic!("{what}: {names:?}"));
        let function = read_file.get("function").unwrap();
        assert_eq!(function.get("description").and_then(Value::as_str), Some("Read a file at /repos/{owner}/{repo}."));
        assert_eq!(function.get("parameters").map(Value::to_json).as_deref(), Some(r#"{"type":"object"}"#), "{what}");
        names.sort();
        let count = names.len();
        names.dedup();
        assert_eq!(names.len(), count, "{what}: a name twice");
    }
}

/// A toolbox whose text repeats a server's key (`JSON.parse` keeps the key's first place and its
/// last list) has its defs in another order than its tools: its snapshot holds each def as a text
/// of its own, and loads into a shelf that answers as a new one.
#[test]
fn a_toolbox_text_with_a_repeated_key_loads_from_its_snapshot() {
    let tool = |name: &str| common::openai_tool(name, "A tool.").to_json();
    let text = format!(
        r#"{{"servers":{{"gh":[{}],"linear":[{}],"gh":[{},{}]}},"tools":[{}]}}"#,
        tool("old_one"),
        tool("list_teams"),
        tool("create_issue"),
        tool("list_issues"),
        tool("read_file")
    );
    let shelf = Shelf::from_json_text(text, r#"{"contextLength":3000}"#).unwrap();
    let loaded = Shelf::from_snapshot(shelf.snapshot(), None, None).expect("loads");
    assert_eq!(loaded.assemble().to_value().to_json(), shelf.assemble().to_value().to_json());
    for query in ["create issue", "list", "old one"] {
        assert_eq!(
            loaded.search(query, Some(5)).to_value().to_json(),
            shelf.search(query, Some(5)).to_value().to_json()
        );
    }
    assert!(loaded.catalog().get("mcp__gh__old_one").is_none());
}

// ------------------------------------------------------------------ growth

/// Most a case may grow from n to 10n over the yardstick's growth (tests/hostile.rs's bound).
const MAX_EXCESS: f64 = 4.0;

fn tool(name: &str, description: &str, properties: usize) -> String {
    let props: Vec<String> =
        (0..properties).map(|i| format!(r#""p_{i}":{{"type":"string","description":"Field {i}."}}"#)).collect();
    format!(
        r#"{{"name":{},"description":{},"inputSchema":{{"type":"object","properties":{{{}}},"required":["p_0"]}}}}"#,
        Value::str(name).to_json(),
        Value::str(description).to_json(),
        props.join(",")
    )
}

/// A snapshot of `toolbox` (JSON text) and the bytes it takes.
fn snapshot_of(toolbox: String) -> Vec<u8> {
    Shelf::from_json_text(toolbox, "").unwrap().snapshot()
}

fn many_tools(n: usize) -> Vec<u8> {
    let tools: Vec<String> =
        (0..n).map(|i| tool(&format!("tool_{i}"), &format!("Does thing {i} with widget {}.", i % 97), 2)).collect();
    snapshot_of(format!(r#"{{"servers":{{"s":[{}]}}}}"#, tools.join(",")))
}

fn many_servers(n: usize) -> Vec<u8> {
    let servers: Vec<String> = (0..n).map(|i| format!(r#""server_{i}":[{}]"#, tool("t", "A tool.", 1))).collect();
    snapshot_of(format!(r#"{{"servers":{{{}}}}}"#, servers.join(",")))
}

fn long_description(n: usize) -> Vec<u8> {
    let words: Vec<String> = (0..n).map(|i| format!("word{i}")).collect();
    snapshot_of(format!(r#"{{"servers":{{"s":[{}]}}}}"#, tool("t", &words.join(" "), 1)))
}

fn wide_schema(n: usize) -> Vec<u8> {
    snapshot_of(format!(r#"{{"servers":{{"s":[{}]}}}}"#, tool("t", "A tool.", n)))
}

fn load_time(bytes: &[u8]) -> Duration {
    (0..5)
        .map(|_| {
            let copy = bytes.to_vec();
            let start = Instant::now();
            let shelf = Shelf::from_snapshot(copy, None, None).unwrap();
            let elapsed = start.elapsed();
            drop(shelf);
            elapsed
        })
        .min()
        .unwrap()
}

fn yardstick(bytes: usize) -> Duration {
    let items = (bytes / 24).max(1);
    let text =
        format!("[{}]", (0..items).map(|i| format!(r#"{{"key":{i},"v":"x{i}"}}"#)).collect::<Vec<_>>().join(","));
    (0..5)
        .map(|_| {
            let start = Instant::now();
            drop(std::hint::black_box(json::parse(&text).unwrap()));
            start.elapsed()
        })
        .min()
        .unwrap()
}

/// A dimension, its n, and the snapshot of size n in it.
type Case = (&'static str, usize, fn(usize) -> Vec<u8>);

#[test]
fn loading_grows_at_most_n_log_n_in_every_dimension() {
    let cases: [Case; 4] = [
        ("tools on one server", 500, many_tools),
        ("servers", 500, many_servers),
        ("a description's words", 5_000, long_description),
        ("a schema's properties", 2_000, wide_schema),
    ];
    let mut failures = Vec::new();
    for (name, n, make) in cases {
        let (small, large) = (make(n), make(10 * n));
        let mut best = f64::MAX;
        for _ in 0..3 {
            let case = load_time(&large).as_secs_f64() / load_time(&small).as_secs_f64().max(1e-7);
            let yard = yardstick(large.len()).as_secs_f64() / yardstick(small.len()).as_secs_f64().max(1e-7);
            best = best.min(case / yard.max(1.0));
            eprintln!(
                "{name}: n = {n} ({} bytes) to 10n ({} bytes): ×{case:.1}, yardstick ×{yard:.1}",
                small.len(),
                large.len()
            );
            if best <= MAX_EXCESS {
                break;
            }
        }
        if best > MAX_EXCESS {
            failures.push(format!("{name}: ×{best:.1} over the yardstick"));
        }
    }
    assert!(failures.is_empty(), "grew faster than n·log n: {failures:?}");
}
