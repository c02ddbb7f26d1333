//! Writes the `snapshot` fuzz target's seeds (fuzz/seeds/snapshot/) in this crate's snapshot
//! format: run it again after a change of the format (`SNAPSHOT_VERSION`), so that the seeds, which
//! tests/snapshot_hostile.rs also replays, reach the checks behind the version rather than stop
//! at it.
//!
//! `cargo run --profile native --example snapshot_seeds`

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::Path;
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
    let seeds = [
        ("empty", shelf("[]", "null").snapshot()),
        ("small", shelf(SMALL, r#"{"qualify":true}"#).snapshot()),
        ("mixed", shelf(MIXED, r#"{"qualify":true,"defer":["read_file"]}"#).snapshot()),
        ("updated", updated.snapshot()),
        ("linear-held", shelf(&linear, r#"{"contextLength":100000}"#).snapshot()),
        ("linear-without-toolbox", shelf(&linear, "null").snapshot_without_toolbox()),
    ];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/snapshot");
    for (name, bytes) in seeds {
        // Each seed loads (the one without its toolbox, with it).
        let toolbox = (name == "linear-without-toolbox").then(|| linear.clone());
        Shelf::from_snapshot(bytes.clone(), toolbox, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        std::fs::write(dir.join(name), &bytes).unwrap();
        println!("{name}: {} bytes", bytes.len());
    }
}
