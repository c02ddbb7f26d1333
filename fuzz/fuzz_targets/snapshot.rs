//! Bytes as a snapshot: Shelf::from_snapshot never panics (see fuzz/snapshot_check.rs).
#![no_main]

#[path = "../snapshot_check.rs"]
mod snapshot_check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| snapshot_check::snapshot(data));
