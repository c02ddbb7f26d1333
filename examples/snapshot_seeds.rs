//! Writes the snapshot fuzz targets' seeds (fuzz/seeds/snapshot/ and fuzz/seeds/snapshot_forged/)
//! in this crate's snapshot format: run it again after a change of the format
//! (`SNAPSHOT_VERSION`), so that the seeds, which tests/snapshot_hostile.rs and
//! tests/fuzz_replay.rs also replay, reach the checks behind the version rather than stop at it.
//!
//! `cargo run --profile native --example snapshot_seeds`

// The `snapshot_forged` check, to keep the inputs that load; it brings tests/common/providers.rs a
// second time (the session model's), harmless here.
#[allow(clippy::duplicate_mod)]
#[path = "../fuzz/checks.rs"]
mod checks;
#[path = "../tests/common/mod.rs"]
mod common;

use std::path::Path;
use toolshelf::embed::Vectors;
use toolshelf::Shelf;

/// A server `s` of one MCP tool with a required parameter.
const SMALL: &str = r#"{"servers":{"s":[{"name":"t","description":"A tool.","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}]}}"#;

/// `SMALL` with a second server attached.
const UPDATED: &str = r#"{"servers":{"s":[{"name":"t","description":"A tool.","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}],"t":[{"name":"other","description":"Other.","inputSchema":{"type":"object"}}]}}"#;

/// A direct tool named in the `mcp__` form, two deferred tools, a bridge-named tool (dropped) and
/// a server name with a space.
const MIXED: &str = r#"{"tools":[{"type":"function","function":{"name":"mcp__gh__merge","description":"Merge.","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}],"servers":{"gh":[{"type":"function","function":{"name":"create_issue","description":"Create an issue.","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}},{"type":"function","function":{"name":"list_issues","description":"List issues.","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}],"a b":[{"type":"function","function":{"name":"tool_search","description":"dropped","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}]}}"#;

fn main() {
    let linear = common::grouped_with(vec![common::openai_tool("read_file", "Read a file.")], &["linear-mcp-official"])
        .to_json();
    let shelf = |toolbox: &str, options: &str| Shelf::from_json_text(toolbox.to_string(), options).unwrap();
    let mut updated = shelf(SMALL, "null");
    updated.update_keeping_text(UPDATED.to_string(), Some(&["s".to_string()])).unwrap();
    // Vectors for every deferred tool (a hybrid shelf), one a tool without (by key, none given).
    let mut hybrid = shelf(MIXED, r#"{"qualify":true}"#);
    let texts = hybrid.embedding_texts();
    let values: Vec<f32> = (0..texts.len() * 8).map(|i| ((i * 7919) % 23) as f32 - 11.0).collect();
    hybrid.set_embeddings(Vectors { model: "seed-model", dimensions: 8, values: &values, keys: None }).unwrap();
    let mut partly = shelf(&linear, "null");
    let keys: Vec<String> = partly.embedding_texts().into_iter().take(3).map(|(key, _)| key).collect();
    let three: Vec<f32> = (0..24).map(|i| (i % 5) as f32 - 2.0).collect();
    partly.set_embeddings(Vectors { model: "m", dimensions: 8, values: &three, keys: Some(&keys) }).unwrap();
    let from_value =
        Shelf::new(&toolshelf::json::parse(MIXED).unwrap(), &toolshelf::json::parse("null").unwrap()).unwrap();
    let seeds = [
        ("empty", shelf("[]", "null").snapshot()),
        ("flat", shelf(r#"[{"name":"a","parameters":{}},{"name":"tool_call","parameters":{}}]"#, "null").snapshot()),
        ("small", shelf(SMALL, r#"{"qualify":true}"#).snapshot()),
        ("mixed", shelf(MIXED, r#"{"qualify":true,"defer":["read_file"]}"#).snapshot()),
        ("updated", updated.snapshot()),
        ("linear-held", shelf(&linear, r#"{"contextLength":100000}"#).snapshot()),
        ("linear-without-toolbox", shelf(&linear, "null").snapshot_without_toolbox()),
        ("hybrid", hybrid.snapshot()),
        ("linear-some-vectors", partly.snapshot()),
        ("from-value", from_value.snapshot()),
    ];
    // A fuzz find, kept: the flat snapshot with a byte of its held text (the quote before
    // `parameters`) made 0xf7 and its checksum made right, a held text that is not UTF-8.
    let flat = seeds.iter().find(|(name, _)| *name == "flat").map(|(_, bytes)| bytes.clone());
    let mut not_utf8 = flat.expect("the flat seed");
    not_utf8[13] = 0xf7;
    let not_utf8 = checks::snapshot_check::with_checksum(&not_utf8);
    let seeds = seeds.into_iter().chain([("utf8-held-text-forged", not_utf8)]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    for (name, bytes) in seeds {
        // Each seed loads (the one without its toolbox, with it).
        let toolbox = (name == "linear-without-toolbox").then(|| linear.clone());
        Shelf::from_snapshot(bytes.clone(), toolbox, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        std::fs::write(root.join("snapshot").join(name), &bytes).unwrap();
        println!("{name}: {} bytes", bytes.len());
    }
    // `snapshot_forged`'s inputs are changes to its own snapshots (fuzz/checks.rs): of inputs made
    // by a seeded generator, the first that load and the first that are refused, for each of its
    // snapshots. (The fuzzer's finds kept beside them, named otherwise, stay.)
    let dir = root.join("snapshot_forged");
    std::fs::create_dir_all(&dir).unwrap();
    for old in std::fs::read_dir(&dir).unwrap() {
        let path = old.unwrap().path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.ends_with("-loads") || name.ends_with("-refused") {
            std::fs::remove_file(&path).unwrap();
        }
    }
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut kept = std::collections::BTreeSet::new();
    for i in 0..20_000u32 {
        let mut data = vec![(i % 8) as u8];
        for _ in 0..1 + i % 40 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            data.push((x >> 24) as u8);
        }
        let loads = checks::snapshot_forged_loads(&data);
        if kept.insert((data[0], loads)) {
            let name = format!("{}-{}", data[0], if loads { "loads" } else { "refused" });
            std::fs::write(dir.join(&name), &data).unwrap();
        }
    }
    println!("snapshot_forged: {} seeds", kept.len());
}
