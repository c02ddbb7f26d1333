//! Replays the fuzz seeds (`fuzz/seeds/<target>/`) with the fuzz targets' own checks
//! (`fuzz/checks.rs`), so `cargo test` guards them without the nightly toolchain. A crash input the
//! fuzzer finds belongs in those folders: it then stays a regression test here.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../fuzz/checks.rs"]
mod checks;

use std::path::Path;

fn replay(target: &str, check: fn(&[u8]), at_least: usize) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= at_least, "{target}: {} seeds", files.len());
    for path in files {
        let data = std::fs::read(&path).unwrap();
        let result = std::panic::catch_unwind(|| check(&data));
        assert!(result.is_ok(), "{target}: seed {}", path.display());
    }
}

#[test]
fn json_parse_seeds() {
    replay("json_parse", checks::json_parse, 1);
}

#[test]
fn validate_seeds() {
    replay("validate", checks::validate_twice, 100);
}

#[test]
fn toolbox_seeds() {
    replay("toolbox", checks::toolbox, 2);
}

#[test]
fn unwrap_seeds() {
    replay("unwrap", checks::unwrap, 3);
}

#[test]
fn schema_shapes_seeds() {
    replay("schema_shapes", checks::schema_shapes, 7);
}

#[test]
fn native_calls_seeds() {
    replay("native_calls", checks::native_calls, 12);
}

#[test]
fn snapshot_forged_seeds() {
    replay("snapshot_forged", checks::snapshot_forged, 10);
}

#[test]
fn sessions_seeds() {
    replay("sessions", checks::sessions, 24);
}
