//! Bytes eight at a time in a `u64` (SWAR; the wasm build has no SIMD): the JSON parser's search
//! for a string's end, the listing's search for a word's end, and the comparison of tool names.
//!
//! Layer 0 of ARCHITECTURE.md's Layers: imports only nothing.

use core::cmp::Ordering;

/// `0x01` in every byte of a word.
const ONES: u64 = 0x0101_0101_0101_0101;
/// `0x80` in every byte of a word.
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The bytes of `word` below `n` (at most `0x80`), flagged by their high bit: `(x - n…) & !x & 0x80…`.
/// A byte above a flagged one may be flagged wrongly (the borrow), never one below it, so the
/// lowest flag is exact.
#[inline(always)] // a few instructions: a call would cost more at the `.wasm`'s opt-level "z"
pub(crate) fn below(word: u64, n: u8) -> u64 {
    word.wrapping_sub(ONES * u64::from(n)) & !word & HIGHS
}

/// The bytes of `word` equal to `b`, flagged as by [`below`] (the lowest flag is exact).
#[inline(always)]
pub(crate) fn equal(word: u64, b: u8) -> u64 {
    below(word ^ (ONES * u64::from(b)), 1)
}

/// The bytes of `word` that are not ASCII (`0x80` and above), flagged by their high bit (exactly).
#[inline(always)]
pub(crate) fn non_ascii(word: u64) -> u64 {
    word & HIGHS
}

/// The length of the longest prefix of `bytes` in which no byte stops the scan: eight bytes at a
/// time while `stops` (masks as [`below`] makes them, lowest flag exact) flags none of a word's,
/// then byte by byte with `stop` for the last fewer than eight.
///
/// An index loop, not `chunks_exact`: at the `.wasm`'s opt-level "z" the iterator's `next` stayed
/// a call per word, 7% of preparing a toolbox in V8.
#[inline(always)]
pub(crate) fn prefix_length(bytes: &[u8], stops: impl Fn(u64) -> u64, stop: impl Fn(u8) -> bool) -> usize {
    let mut offset = 0;
    while let Some(word) = word_at(bytes, offset) {
        let mask = stops(word);
        if mask != 0 {
            return offset + (mask.trailing_zeros() / 8) as usize;
        }
        offset += 8;
    }
    let rest = bytes.get(offset..).unwrap_or_default();
    offset + rest.iter().position(|&b| stop(b)).unwrap_or(rest.len())
}

/// The eight bytes of `bytes` at `at` as a little-endian word, if there are eight.
#[inline(always)]
fn word_at(bytes: &[u8], at: usize) -> Option<u64> {
    let eight: [u8; 8] = bytes.get(at..at.checked_add(8)?)?.try_into().ok()?;
    Some(u64::from_le_bytes(eight))
}

/// `a == b`, eight bytes at a time, the last fewer than eight as one word too (the wasm build's
/// `memcmp` goes byte by byte; a toolbox's defs are compared with their compact JSON, megabytes in
/// all, and the index build compares every word it meets with the one its hash finds).
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut at = 0;
    while let (Some(x), Some(y)) = (word_at(a, at), word_at(b, at)) {
        if x != y {
            return false;
        }
        at += 8;
    }
    tail_word(a.get(at..).unwrap_or_default()) == tail_word(b.get(at..).unwrap_or_default())
}

/// The first eight bytes of `bytes` (fewer: zeros above them) as a little-endian word.
#[inline(always)]
pub(crate) fn tail_word(bytes: &[u8]) -> u64 {
    bytes.iter().take(8).rev().fold(0, |word, &b| word << 8 | u64::from(b))
}

/// A 64-bit hash of `bytes`, eight bytes at a time (a multiply and a rotate a word, where FNV-1a
/// multiplies once a byte), then mixed: for the index build's hash maps of words, whose low bits
/// pick a slot. No secret: [`crate::search`]'s map bounds every probe, whatever collides.
pub(crate) fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = K ^ bytes.len() as u64;
    let mut at = 0;
    while let Some(word) = word_at(bytes, at) {
        h = (h ^ word).wrapping_mul(K).rotate_left(23);
        at += 8;
    }
    h ^= tail_word(bytes.get(at..).unwrap_or_default());
    // MurmurHash3's finalizer: every input bit reaches the low bits.
    h = (h ^ h >> 33).wrapping_mul(0xff51_afd7_ed55_8ccd);
    h = (h ^ h >> 33).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ h >> 33
}

/// The offset of the first `needle` in `haystack` (an empty needle is at 0), for the short
/// needles of the core (`__`, a `_meta` key), where `str::find` would link core's two-way
/// searcher (kilobytes of `.wasm`): eight places at a time, those whose byte is the needle's first
/// and whose byte a needle's length on is its last compared in full (a def's text holds a key's
/// first and last letters far more often than the key). Linear in the haystack for such needles.
pub(crate) fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let last = haystack.len().checked_sub(needle.len())?;
    let (Some(&first), Some(&end)) = (needle.first(), needle.last()) else { return Some(0) };
    let tail = needle.len() - 1;
    let matches = |at: usize| haystack.get(at..at + needle.len()) == Some(needle);
    let mut at = 0;
    while let (Some(starts), Some(ends)) = (word_at(haystack, at), word_at(haystack, at + tail)) {
        // Flags that may be wrong above a right one: each is compared, lowest first.
        let mut places = equal(starts, first) & equal(ends, end);
        while places != 0 {
            let place = at + (places.trailing_zeros() / 8) as usize;
            if matches(place) {
                return Some(place);
            }
            places &= places - 1;
        }
        at += 8;
    }
    (at..=last).find(|&place| matches(place))
}

/// The offset of the first `needle` in `haystack`, in time linear in both (Knuth–Morris–Pratt,
/// stepping eight bytes at a time to the needle's first byte when no match is under way): for a
/// needle of any length (a query), where `str::find` would link core's two-way searcher
/// (kilobytes of `.wasm`). On UTF-8, a match of a whole UTF-8 needle starts at a character.
pub(crate) fn find_linear(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    // `border[i]`: the length of the longest proper prefix of `needle[..=i]` that ends it too.
    let mut border = alloc::vec![0usize; needle.len()];
    let mut k = 0;
    for (i, b) in needle.iter().enumerate().skip(1) {
        while k > 0 && needle.get(k) != Some(b) {
            k = border.get(k - 1).copied().unwrap_or(0);
        }
        if needle.get(k) == Some(b) {
            k += 1;
        }
        if let Some(slot) = border.get_mut(i) {
            *slot = k;
        }
    }
    let first = needle.first().copied().unwrap_or(0);
    let (mut k, mut i) = (0, 0);
    loop {
        if k == 0 {
            // No match under way: on to the next byte that may start one, eight bytes at a time.
            let rest = haystack.get(i..).unwrap_or_default();
            i += prefix_length(rest, |word| equal(word, first), |b| b == first);
        }
        let b = haystack.get(i)?;
        while k > 0 && needle.get(k) != Some(b) {
            k = border.get(k - 1).copied().unwrap_or(0);
        }
        if needle.get(k) == Some(b) {
            k += 1;
        }
        if k == needle.len() {
            return Some(i + 1 - k);
        }
        i += 1;
    }
}

/// Sorts `(name, position)` pairs by name in code-point order ([`compare`]), then position: the one
/// sort every name lookup of the core shares (each sort instantiated is kilobytes of `.wasm`).
pub(crate) fn sort_names(order: &mut [(&str, usize)]) {
    order.sort_unstable_by(|a, b| compare(a.0.as_bytes(), b.0.as_bytes()).then(a.1.cmp(&b.1)));
}

/// In `order` sorted by [`sort_names`], the position of the last pair named `name`, if any.
pub(crate) fn last_named(order: &[(&str, usize)], name: &str) -> Option<usize> {
    let end = order.partition_point(|(k, _)| compare(k.as_bytes(), name.as_bytes()).is_le());
    order.get(end.checked_sub(1)?).filter(|(k, _)| *k == name).map(|(_, at)| *at)
}

/// In `order` sorted by [`sort_names`], the pairs named `name` (in position order).
pub(crate) fn all_named<'o, 'n>(order: &'o [(&'n str, usize)], name: &str) -> &'o [(&'n str, usize)] {
    let start = order.partition_point(|(k, _)| compare(k.as_bytes(), name.as_bytes()).is_lt());
    let end = order.partition_point(|(k, _)| compare(k.as_bytes(), name.as_bytes()).is_le());
    order.get(start..end).unwrap_or_default()
}

/// `a.cmp(b)`, byte order (for UTF-8, code-point order), eight bytes at a time (the first byte
/// that differs found in the words' XOR): the wasm build's `memcmp` goes byte by byte, and names
/// sorted together often share long prefixes (`mcp__cloudflare__…`).
pub(crate) fn compare(a: &[u8], b: &[u8]) -> Ordering {
    let mut at = 0;
    while let (Some(x), Some(y)) = (word_at(a, at), word_at(b, at)) {
        if x != y {
            // Little-endian words: the first differing byte is the lowest one that differs.
            let shift = (x ^ y).trailing_zeros() / 8 * 8;
            return ((x >> shift) & 0xff).cmp(&((y >> shift) & 0xff));
        }
        at += 8;
    }
    // The last few bytes one by one (a slice comparison would call the build's `memcmp`).
    let shorter = a.len().min(b.len());
    while at < shorter {
        let (x, y) = (a.get(at), b.get(at));
        if x != y {
            return x.cmp(&y);
        }
        at += 1;
    }
    a.len().cmp(&b.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn compare_is_byte_order() {
        let texts = [
            "",
            "a",
            "b",
            "ab",
            "abcdefgh",
            "abcdefgi",
            "abcdefghi",
            "abcdefgh\u{0}",
            "abcdefg",
            "mcp__cloudflare__a",
            "mcp__cloudflare__b",
            "mcp__cloudflare__",
            "mcp__cloudflarf",
            "é",
            "e\u{301}",
            "日本",
            "😀",
            "\u{7f}",
            "\u{80}",
            "0123456789abcdef0",
            "0123456789abcdef",
            "0123456789abcdeg",
        ];
        for a in texts {
            for b in texts {
                assert_eq!(compare(a.as_bytes(), b.as_bytes()), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }

    /// `same` is `==` for every pair of prefixes of texts that differ in one byte at each place,
    /// around the eight-byte words' edges; `hash` of equal texts is equal, and its low bits differ
    /// between texts that differ in one byte (what picks a slot of the index build's map).
    #[test]
    fn same_is_equality_and_hash_spreads() {
        let base: vec::Vec<u8> = (0u8..40).map(|i| b'a' + i % 26).collect();
        for len in 0..base.len() {
            let a = &base[..len];
            let copy = a.to_vec(); // equal bytes elsewhere in memory
            assert!(same(a, &copy) && hash(a) == hash(&copy));
            for at in 0..len {
                let mut b = a.to_vec();
                b[at] ^= 0x20;
                assert!(!same(a, &b), "{len} {at}");
                assert_ne!(hash(a), hash(&b), "{len} {at}");
            }
            assert!(!same(a, &base[..len + 1]));
        }
        // Short words in a 4,096-slot table: no slot holds many (a sequence of names as the
        // catalogs number them: `param1`, `param2`…).
        let mut slots = vec![0u32; 4096];
        for i in 0..2048 {
            slots[(hash(alloc::format!("param{i}").as_bytes()) & 4095) as usize] += 1;
        }
        assert!(slots.iter().all(|&n| n <= 8), "fullest slot {:?}", slots.iter().max());
    }

    /// Every stopping byte at every place in runs of other bytes, followed by bytes of every kind.
    fn check(stops: impl Fn(u64) -> u64 + Copy, stop: impl Fn(u8) -> bool + Copy) {
        let naive = |bytes: &[u8]| bytes.iter().position(|&b| stop(b)).unwrap_or(bytes.len());
        let all: vec::Vec<u8> = (0..=255).collect();
        let (ends, fills): (vec::Vec<u8>, vec::Vec<u8>) = all.iter().partition(|&&b| stop(b));
        let fills: vec::Vec<u8> = fills.iter().step_by(7).chain(fills.first()).chain(fills.last()).copied().collect();
        let after: vec::Vec<u8> = all.iter().step_by(5).chain(&ends).copied().collect();
        for len in 0..20 {
            for &fill in &fills {
                let plain = vec![fill; len];
                assert_eq!(prefix_length(&plain, stops, stop), len, "{plain:?}");
                for at in 0..len {
                    for &end in &ends {
                        for &after in &after {
                            let mut bytes = plain.clone();
                            bytes[at] = end;
                            if let Some(b) = bytes.get_mut(at + 1) {
                                *b = after;
                            }
                            assert_eq!(prefix_length(&bytes, stops, stop), naive(&bytes), "{bytes:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn string_ends_are_found_at_every_place() {
        check(|w| equal(w, b'"') | equal(w, b'\\') | below(w, 0x20), |b| b == b'"' || b == b'\\' || b < 0x20);
    }

    #[test]
    fn word_ends_are_found_at_every_place() {
        check(|w| below(w, 0x21) | non_ascii(w), |b| b <= 0x20 || b >= 0x80);
    }

    #[test]
    fn both_searches_find_what_str_find_finds() {
        // Every text of up to 12 bytes and needle of up to 4 over a two-letter alphabet (the
        // overlaps that make a naive search backtrack and a border table matter, and places
        // in and after the words `find` reads eight at a time), then UTF-8 and long runs.
        let words = |len: usize| {
            (0..1u32 << len).map(move |bits| {
                (0..len).map(|i| if bits >> i & 1 == 1 { 'b' } else { 'a' }).collect::<alloc::string::String>()
            })
        };
        for text in (0..=12).flat_map(words) {
            for needle in (0..=4).flat_map(words) {
                assert_eq!(find_linear(text.as_bytes(), needle.as_bytes()), text.find(&needle), "{text:?} {needle:?}");
                assert_eq!(find(text.as_bytes(), needle.as_bytes()), text.find(&needle), "{text:?} {needle:?}");
            }
        }
        let long = "a".repeat(3000) + "ab" + &"a".repeat(50);
        let texts = ["mcp__gh__list", "é日本😀é", "ééé", "mcp___x", "__", "_", "", long.as_str()];
        let needles = ["__", "é", "日本😀", "😀é", "_", "", "x", "aaab", "aab", long.get(2900..).unwrap_or_default()];
        for text in texts {
            for needle in needles {
                assert_eq!(find_linear(text.as_bytes(), needle.as_bytes()), text.find(needle), "{text:?} {needle:?}");
                assert_eq!(find(text.as_bytes(), needle.as_bytes()), text.find(needle), "{text:?} {needle:?}");
            }
        }
    }
}
