//! The check of the `snapshot` fuzz target (fuzz/fuzz_targets/snapshot.rs), also replayed over
//! fuzz/seeds/snapshot/ by tests/snapshot_hostile.rs: bytes loaded as a snapshot, as they are and
//! with the trailer's checksum made right for them (so that mutations reach the checks behind
//! the checksum), never panic; a shelf they load answers every operation without a panic, and
//! its own snapshot loads again.
#![allow(dead_code)]

use toolshelf::json::Value;
use toolshelf::Shelf;

/// The trailer's size: magic, version, flags, text length, payload length, checksum.
pub const TRAILER: usize = 40;

/// The snapshot checksum as src/hash.rs computes it (FNV-1a's step over 64-bit little-endian
/// words in four lanes, folded with the length).
pub fn checksum(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let word = |chunk: &[u8]| {
        let mut buf = [0u8; 8];
        buf[..chunk.len()].copy_from_slice(chunk);
        u64::from_le_bytes(buf)
    };
    let mut lanes = [OFFSET, OFFSET ^ 1, OFFSET ^ 2, OFFSET ^ 3];
    let whole = bytes.len() / 32 * 32;
    for block in bytes[..whole].chunks(32) {
        for (lane, chunk) in lanes.iter_mut().zip(block.chunks(8)) {
            *lane = (*lane ^ word(chunk)).wrapping_mul(PRIME);
        }
    }
    for (lane, chunk) in lanes.iter_mut().zip(bytes[whole..].chunks(8)) {
        *lane = (*lane ^ word(chunk)).wrapping_mul(PRIME);
    }
    let folded = lanes.iter().fold(OFFSET, |h, &lane| (h ^ lane).wrapping_mul(PRIME));
    (folded ^ bytes.len() as u64).wrapping_mul(PRIME)
}

/// `bytes` (at least a trailer's worth) with the trailer's checksum that of the bytes before it.
pub fn with_checksum(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let at = out.len() - TRAILER;
    let sum = checksum(&out[..at]);
    out[at + TRAILER - 8..].copy_from_slice(&sum.to_le_bytes());
    out
}

pub fn snapshot(data: &[u8]) {
    exercise(data.to_vec());
    if data.len() >= TRAILER {
        exercise(with_checksum(data));
    }
}

fn exercise(bytes: Vec<u8>) {
    let Ok(shelf) = Shelf::from_snapshot(bytes, None, None) else { return };
    let _ = shelf.assemble().to_value().to_json();
    let names: Vec<String> = shelf.catalog().tools.iter().take(8).map(|t| t.name.clone()).collect();
    for query in ["create issue", "x", ""].iter().map(|q| q.to_string()).chain(names.iter().cloned()) {
        let _ = shelf.search(&query, Some(5)).to_value().to_json();
    }
    for name in &names {
        let _ = shelf.describe(name).map(|d| d.to_value().to_json());
        let call = Value::object([
            ("name", Value::str("tool_call")),
            ("arguments", Value::object([("name", Value::str(name.as_str()))])),
        ]);
        let _ = shelf.unwrap(&call);
    }
    let again = shelf.snapshot();
    let reloaded = Shelf::from_snapshot(again.clone(), None, None).expect("a loaded shelf's snapshot loads");
    assert!(reloaded.snapshot() == again, "a snapshot of a reloaded shelf is the same bytes");
}
