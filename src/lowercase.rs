//! Lowercasing exactly as `str::to_lowercase` and `char::to_lowercase` do it, the final-sigma rule
//! included, from small tables of runs (`lowercase/tables.rs`, written from the toolchain's own
//! functions by `examples/lowercase_tables.rs`) instead of core's: its table of every lowercase
//! pair and the case properties it links cost 11 KB gzip of the `.wasm`. The tests compare every
//! code point, and strings built around `Σ`, with the toolchain's functions.
//!
//! Layer 0 of ARCHITECTURE.md's Layers: imports only nothing.

mod tables;

use alloc::string::String;
use tables::{LOWER_RUNS, SIGMA_BLOCK, SIGMA_RUNS, SIGMA_STARTS};

/// A run's first character in [`LOWER_RUNS`].
const START_BITS: u32 = 0x1_ffff;
/// The final-sigma class of a cased character that is not case-ignorable.
const CASED: u32 = 1;
/// The final-sigma class of a case-ignorable character, which the rule looks past.
const IGNORABLE: u32 = 2;

/// `text.to_lowercase()`.
pub(crate) fn lowercase(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_lowercase(&mut out, text);
    out
}

/// Appends `text.to_lowercase()` to `out`: ASCII text copied whole and lowercased in place, other
/// text character by character.
pub(crate) fn push_lowercase(out: &mut String, text: &str) {
    if text.is_ascii() {
        let start = out.len();
        out.push_str(text);
        if let Some(pushed) = out.get_mut(start..) {
            pushed.make_ascii_lowercase();
        }
        return;
    }
    for (at, c) in text.char_indices() {
        if c == 'Σ' {
            out.push(sigma(text, at));
            continue;
        }
        let (first, second) = lowercase_char(c);
        out.push(first);
        if let Some(second) = second {
            out.push(second);
        }
    }
}

/// `c.to_lowercase()` as an iterator of its one or two characters.
pub(crate) fn lowercase_chars(c: char) -> impl Iterator<Item = char> {
    let (first, second) = lowercase_char(c);
    core::iter::once(first).chain(second)
}

/// `c.to_lowercase()`: one character, and a second for U+0130 (`İ` → `i` + U+0307) alone.
fn lowercase_char(c: char) -> (char, Option<char>) {
    if c.is_ascii() {
        (c.to_ascii_lowercase(), None)
    } else if c == '\u{130}' {
        ('i', Some('\u{307}'))
    } else {
        (lower(c), None)
    }
}

/// The one-character lowercase of a character other than U+0130 (itself when it has none).
fn lower(c: char) -> char {
    let code = u32::from(c);
    let after = LOWER_RUNS.partition_point(|&(packed, _)| (packed & START_BITS) <= code);
    let Some(&(packed, delta)) = after.checked_sub(1).and_then(|at| LOWER_RUNS.get(at)) else { return c };
    let offset = code - (packed & START_BITS);
    let (len, stride) = (((packed >> 17) & 0x7f) + 1, (packed >> 24) + 1);
    if offset % stride != 0 || offset / stride >= len {
        return c;
    }
    char::from_u32(code.wrapping_add_signed(delta)).unwrap_or(c)
}

/// The lowercase of the `Σ` at byte `at` of `text`: `ς` at a word's end (a cased character before
/// it and none after, looking past case-ignorable ones), else `σ`.
fn sigma(text: &str, at: usize) -> char {
    let before = text.get(..at).unwrap_or_default().chars().rev();
    let after = text.get(at + 'Σ'.len_utf8()..).unwrap_or_default().chars();
    if cased_past_ignorable(before) && !cased_past_ignorable(after) {
        'ς'
    } else {
        'σ'
    }
}

/// Whether the first character that is not case-ignorable is cased.
fn cased_past_ignorable(chars: impl Iterator<Item = char>) -> bool {
    chars.map(sigma_class).find(|&class| class != IGNORABLE) == Some(CASED)
}

/// The final-sigma rule's class of `c`: 0 other, [`CASED`] or [`IGNORABLE`]. The run holding `c`
/// is found from the last block starting at or before it, in at most `SIGMA_BLOCK` steps.
fn sigma_class(c: char) -> u32 {
    let code = u32::from(c);
    let block = SIGMA_STARTS.partition_point(|&start| start <= code).saturating_sub(1);
    let mut end = SIGMA_STARTS.get(block).copied().unwrap_or(0);
    for &run in SIGMA_RUNS.get(block * SIGMA_BLOCK..).unwrap_or_default().iter().take(SIGMA_BLOCK) {
        end += u32::from(run >> 2);
        if code < end {
            return u32::from(run & 3);
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::vec::Vec;

    #[test]
    fn every_character_lowercases_as_the_toolchains_char_to_lowercase() {
        for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
            let ours: Vec<char> = lowercase_chars(c).collect();
            let theirs: Vec<char> = c.to_lowercase().collect();
            assert_eq!(ours, theirs, "U+{:04X}", u32::from(c));
        }
    }

    /// The classes read back from `str::to_lowercase` as examples/lowercase_tables.rs reads them.
    #[test]
    fn every_characters_sigma_class_is_the_toolchains() {
        let final_after = |text: String| text.to_lowercase().ends_with('ς');
        for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32).filter(|&c| c != 'Σ') {
            let theirs = if final_after(format!("{c}Σ")) {
                CASED
            } else if final_after(format!("A{c}Σ")) {
                IGNORABLE
            } else {
                0
            };
            assert_eq!(sigma_class(c), theirs, "U+{:04X}", u32::from(c));
        }
        assert_eq!(sigma_class('Σ'), CASED);
    }

    #[test]
    fn strings_lowercase_as_the_toolchains_str_to_lowercase() {
        // Cased, case-ignorable (apostrophe, combining acute, U+00AD, U+E0100), uncased, İ, and Σ.
        let parts =
            ["Σ", "A", "a", "'", "\u{301}", "\u{ad}", "\u{e0100}", " ", "1", "İ", "ς", "Ω", "ß", "ǅ", "中", "-"];
        let mut state = 0x853c_49e6_748f_ea9bu64;
        for _ in 0..30_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 7) as usize;
            let text: String =
                (0..len).map(|i| parts[((state >> (8 + 5 * i)) % parts.len() as u64) as usize]).collect();
            assert_eq!(lowercase(&text), text.to_lowercase(), "{text:?}");
        }
        for text in
            ["", "ΣΑΣ", "ΌΣΟΣ", "Σ", "AΣ", "AΣ'", "A'Σ", "A\u{301}Σ b", "Hello WORLD", "İSTANBUL", "ΣΣ", "a.Σ.b"]
        {
            assert_eq!(lowercase(text), text.to_lowercase(), "{text:?}");
        }
    }
}
