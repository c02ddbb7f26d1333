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

/// The snapshot checksum (FNV-1a's step over 64-bit little-endian words, then the length), as
/// src/hash.rs computes it.
pub fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut words = bytes.chunks_exact(8);
    for word in words.by_ref() {
        h = (h ^ u64::from_le_bytes(word.try_into().unwrap())).wrapping_mul(PRIME);
    }
    let mut last = [0u8; 8];
    last[..words.remainder().len()].copy_from_slice(words.remainder());
    h = (h ^ u64::from_le_bytes(last)).wrapping_mul(PRIME);
    (h ^ bytes.len() as u64).wrapping_mul(PRIME)
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
