//! FNV-1a, 64 bits: the one hash of the crate (fingerprints, the suffix of long qualified names),
//! and its hex digits.
//!
//! Layer 0 of ARCHITECTURE.md's Layers: imports only nothing.

use alloc::string::String;

/// FNV-1a, 64 bits, over `bytes`.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.iter().fold(OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

/// FNV-1a's step over 64-bit little-endian words rather than bytes, in four lanes (words
/// `4k + lane`; four independent chains of multiplications run side by side), the lanes and the
/// length folded in at the end: for the checksum of a snapshot and the fingerprint of a toolbox
/// text, megabytes each. Not FNV-1a's values.
pub(crate) fn fnv1a_words(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    // Four words at a time in four locals (a lane indexed per word kept the lanes in memory: a
    // load and a store per word, a third of a snapshot's load in wasm); then the words left, each
    // into the lane its place gives, as one word at a time would.
    let (mut a, mut b, mut c, mut d) = (OFFSET, OFFSET ^ 1, OFFSET ^ 2, OFFSET ^ 3);
    let word = |chunk: &[u8]| u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
    let blocks = bytes.chunks_exact(32);
    let tail = blocks.remainder();
    for block in blocks {
        a = (a ^ word(block.get(..8).unwrap_or_default())).wrapping_mul(PRIME);
        b = (b ^ word(block.get(8..16).unwrap_or_default())).wrapping_mul(PRIME);
        c = (c ^ word(block.get(16..24).unwrap_or_default())).wrapping_mul(PRIME);
        d = (d ^ word(block.get(24..).unwrap_or_default())).wrapping_mul(PRIME);
    }
    let mut lanes = [a, b, c, d];
    let words = tail.chunks_exact(8);
    let rest = words.remainder();
    let mut k = 0usize;
    for chunk in words {
        let lane = &mut lanes[k & 3];
        *lane = (*lane ^ word(chunk)).wrapping_mul(PRIME);
        k += 1;
    }
    if !rest.is_empty() {
        let mut buf = [0u8; 8];
        buf.iter_mut().zip(rest).for_each(|(b, r)| *b = *r);
        let lane = &mut lanes[k & 3];
        *lane = (*lane ^ u64::from_le_bytes(buf)).wrapping_mul(PRIME);
    }
    let folded = lanes.iter().fold(OFFSET, |h, &lane| (h ^ lane).wrapping_mul(PRIME));
    (folded ^ bytes.len() as u64).wrapping_mul(PRIME)
}

/// Pushes the low `digits` hex digits of `value`, lowercase, most significant first, zero-padded
/// (`format!("{value:0digits$x}")` when `value` has no more digits than that).
pub(crate) fn push_hex(out: &mut String, value: u64, digits: u32) {
    // Written into a buffer and pushed once: a `push` per digit is a call each in the `.wasm`.
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digits = digits.min(16) as usize;
    let mut buf = [b'0'; 16];
    for (i, slot) in buf.iter_mut().take(digits).enumerate() {
        let nibble = (value >> (4 * (digits - 1 - i))) & 0xf;
        *slot = HEX.get(nibble as usize).copied().unwrap_or(b'0');
    }
    out.push_str(core::str::from_utf8(buf.get(..digits).unwrap_or_default()).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_and_hex_digits() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        let mut short = String::new();
        push_hex(&mut short, 0x0abc_def0_1234_5678, 8);
        assert_eq!(short, "12345678");
    }
}
