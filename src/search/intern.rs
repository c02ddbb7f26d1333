//! A string → number map for building the index: open addressing with [`swar::hash`], no `std`
//! needed. The build looks every word of every tool up here (to analyse each distinct word once,
//! and to number each distinct term), so this is on the hot path: a `BTreeMap<String, _>` costs a
//! dozen string comparisons per lookup and an owned key per insert, this one hash and usually one
//! comparison. The hash is no secret (the index is deterministic, and keyless), so words written
//! to collide (a hostile server's descriptions) would make probes long and the build quadratic: a
//! probe stops after [`MAX_PROBE`] slots, and a key that finds no free slot by then is kept in an
//! ordered map instead, so every lookup costs at most that many comparisons and a logarithmic
//! search.

use crate::swar;
use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

/// Strings (copied once, on insert) mapped to `u32`s.
#[derive(Clone, Debug, Default)]
pub(crate) struct StrMap {
    /// `0` = empty, else 1 + an index into `entries`. Its length is 0 or a power of two, and at
    /// least twice the number of entries, so a probe always ends at an empty slot. (Keeping half
    /// of each key's hash beside its slot, to compare fewer keys, was measured: no faster in V8,
    /// and the slots' doubled size raised a prepared 3,397-tool Shelf's memory by 0.2 MiB.)
    slots: Vec<u32>,
    entries: Vec<(Box<str>, u32)>,
    /// The keys whose probe found no free slot in [`MAX_PROBE`] (only crafted collisions do, or
    /// once in a great while a long run), each with 1 + its index into `entries`.
    overflow: BTreeMap<Box<str>, u32>,
}

/// Slots a probe looks at before a key goes to the overflow map. At most half the slots are
/// taken, so honest keys' probes are short (linear probing at half load: 2.5 slots on average for a
/// key not there); only runs of crafted or freak collisions reach it (no key of the real catalogs'
/// builds in `examples/search_dump` does).
const MAX_PROBE: usize = 64;

fn hash(key: &str) -> u64 {
    swar::hash(key.as_bytes())
}

impl StrMap {
    /// The value of `key`, if present.
    pub(crate) fn get(&self, key: &str) -> Option<u32> {
        let mask = self.slots.len().checked_sub(1)?;
        let mut at = (hash(key) as usize) & mask;
        for _ in 0..MAX_PROBE {
            let slot = *self.slots.get(at)?;
            let (stored, value) = self.entries.get((slot as usize).checked_sub(1)?)?;
            if swar::same(stored.as_bytes(), key.as_bytes()) {
                return Some(*value);
            }
            at = (at + 1) & mask;
        }
        // `MAX_PROBE` slots taken, none `key`'s (nothing is ever removed): the key is in the
        // overflow map if anywhere.
        let index = *self.overflow.get(key)?;
        self.entries.get((index as usize).checked_sub(1)?).map(|(_, value)| *value)
    }

    /// How many keys it holds.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Maps `key` to `value`; callers `get` first, so `key` is not present yet.
    pub(crate) fn insert(&mut self, key: &str, value: u32) {
        if (self.entries.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        self.entries.push((key.into(), value));
        self.place(key, self.entries.len() as u32);
    }

    /// Puts `index` (1 + the key's place in `entries`) in the first free slot of `key`'s probe,
    /// or in the overflow map when the probe's first [`MAX_PROBE`] slots are taken.
    fn place(&mut self, key: &str, index: u32) {
        let mask = self.slots.len().wrapping_sub(1);
        let mut at = (hash(key) as usize) & mask;
        for _ in 0..MAX_PROBE {
            let Some(slot) = self.slots.get_mut(at) else { break };
            if *slot == 0 {
                *slot = index;
                return;
            }
            at = (at + 1) & mask;
        }
        self.overflow.insert(key.into(), index);
    }

    fn grow(&mut self) {
        self.slots = vec![0; (self.slots.len() * 2).max(64)];
        self.overflow = BTreeMap::new();
        let entries = core::mem::take(&mut self.entries);
        for (i, (key, _)) in entries.iter().enumerate() {
            self.place(key, i as u32 + 1);
        }
        self.entries = entries;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::vec::Vec;

    #[test]
    fn finds_what_was_inserted_and_nothing_else() {
        let mut map = StrMap::default();
        assert_eq!(map.get("a"), None);
        for i in 0..1000u32 {
            map.insert(&format!("word{i}"), i);
        }
        map.insert("", 5000);
        for i in 0..1000u32 {
            assert_eq!(map.get(&format!("word{i}")), Some(i));
        }
        assert_eq!(map.get(""), Some(5000));
        assert_eq!(map.get("word1000"), None);
        assert_eq!(map.get("word"), None);
    }

    /// Keys that all probe from one slot (as crafted collisions do): past [`MAX_PROBE`] they go to
    /// the overflow map, and every one is still found, through every growth.
    #[test]
    fn colliding_keys_overflow_and_are_found() {
        let mut map = StrMap::default();
        // Each key's hash, masked to the table, is the same slot: keys chosen by search.
        let mut keys = Vec::new();
        let mut i = 0u32;
        while keys.len() < 300 {
            let key = format!("k{i}");
            if hash(&key) & 0xfff == 0x123 {
                keys.push(key);
            }
            i += 1;
        }
        for (n, key) in keys.iter().enumerate() {
            assert_eq!(map.get(key), None);
            map.insert(key, n as u32);
        }
        assert!(!map.overflow.is_empty(), "300 keys of one slot: some past the probe's end");
        for (n, key) in keys.iter().enumerate() {
            assert_eq!(map.get(key), Some(n as u32), "{key}");
        }
        assert_eq!(map.get("k-none"), None);
        assert_eq!(map.len(), 300);
    }
}
