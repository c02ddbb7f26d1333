//! The Snowball English ("Porter2") stemmer, for the lowercase ASCII tokens the search indexes.
//!
//! Written from the algorithm's published definition (snowballstem.org, `english.sbl`, the
//! revision with the `gener`/`commun`/`arsen` prefixes) and checked word for word against the
//! Snowball project's reference implementation over every token of the test catalogs (see the
//! tests in `tests/search_stem.rs`). Our own because no small, maintained `no_std` crate stems
//! English alone; this is a few hundred lines with no tables beyond the suffix lists.
//!
//! Tokens reach the stemmer as `[a-z0-9]+`, so the algorithm's apostrophe handling is left out.
//! Any other input (uppercase, non-ASCII) is returned unchanged rather than mangled.

use alloc::string::String;
use alloc::vec::Vec;

/// The stem of `word`, a lowercase ASCII alphanumeric token. Other input comes back unchanged.
pub fn stem(word: &str) -> String {
    let is_token = word.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if word.len() <= 2 || !is_token {
        return String::from(word);
    }
    if let Some(special) = exceptional_form(word) {
        return String::from(special);
    }
    let mut w = Word::new(word.as_bytes());
    w.step_1a();
    if !is_exception_after_1a(&w.b) {
        w.step_1b();
        w.step_1c();
        // Steps 2, 3 and 5 change only a suffix in R1, step 4 one in R2: none can when the
        // region is empty (a short word), so none is tried.
        if w.r1 < w.b.len() {
            w.step_2();
        }
        if w.r1 < w.b.len() {
            w.step_3();
        }
        if w.r2 < w.b.len() {
            w.step_4();
        }
        if w.r1 < w.b.len() {
            w.step_5();
        }
    }
    w.finish()
}

/// Words the algorithm stems by a fixed table (`exception1` in `english.sbl`).
fn exceptional_form(word: &str) -> Option<&'static str> {
    Some(match word {
        "skis" => "ski",
        "skies" | "sky" => "sky",
        "dying" => "die",
        "lying" => "lie",
        "tying" => "tie",
        "idly" => "idl",
        "gently" => "gentl",
        "ugly" => "ugli",
        "early" => "earli",
        "only" => "onli",
        "singly" => "singl",
        "news" => "news",
        "howe" => "howe",
        "atlas" => "atlas",
        "cosmos" => "cosmos",
        "bias" => "bias",
        "andes" => "andes",
        _ => return None,
    })
}

/// Words left as they are after step 1a (`exception2` in `english.sbl`).
fn is_exception_after_1a(b: &[u8]) -> bool {
    const WORDS: [&[u8]; 8] =
        [b"inning", b"outing", b"canning", b"herring", b"earring", b"proceed", b"exceed", b"succeed"];
    WORDS.contains(&b)
}

/// `a e i o u y` are vowels; a `y` marked as consonant is stored as `Y` and is not.
fn is_vowel(c: u8) -> bool {
    matches!(c, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

/// Letters that may precede a deleted `li` (step 2).
fn is_valid_li(c: u8) -> bool {
    matches!(c, b'c' | b'd' | b'e' | b'g' | b'h' | b'k' | b'm' | b'n' | b'r' | b't')
}

/// A word being stemmed: its bytes and the starts of its regions R1 and R2.
struct Word {
    b: Vec<u8>,
    r1: usize,
    r2: usize,
}

impl Word {
    fn new(word: &[u8]) -> Word {
        let mut b = word.to_vec();
        mark_consonant_ys(&mut b);
        let r1 = region_1_start(&b);
        let r2 = next_region_start(&b, r1);
        Word { b, r1, r2 }
    }

    /// The stem, its consonant `Y`s lowercase again (the bytes stay ASCII: one allocation, no
    /// character-by-character push).
    fn finish(mut self) -> String {
        for c in &mut self.b {
            if *c == b'Y' {
                *c = b'y';
            }
        }
        String::from_utf8(self.b).unwrap_or_default()
    }

    /// Whether the word ends with `suffix`; the last bytes compared first, inline (each step
    /// tries a dozen suffixes, most of which end in another letter: at the `.wasm`'s opt-level a
    /// slice comparison is a call).
    #[inline(always)]
    fn ends_with(&self, suffix: &[u8]) -> bool {
        suffix.last().is_none_or(|last| self.b.last() == Some(last)) && self.b.ends_with(suffix)
    }

    /// Start of `suffix` (assumed present at the end).
    fn suffix_start(&self, suffix: &[u8]) -> usize {
        self.b.len() - suffix.len()
    }

    fn in_r1(&self, suffix: &[u8]) -> bool {
        self.suffix_start(suffix) >= self.r1
    }

    fn in_r2(&self, suffix: &[u8]) -> bool {
        self.suffix_start(suffix) >= self.r2
    }

    fn replace_suffix(&mut self, suffix: &[u8], with: &[u8]) {
        let start = self.suffix_start(suffix);
        self.b.truncate(start);
        self.b.extend_from_slice(with);
    }

    /// The longest of `suffixes` the word ends with.
    fn longest_suffix<'s>(&self, suffixes: &[&'s [u8]]) -> Option<&'s [u8]> {
        suffixes.iter().copied().filter(|s| self.ends_with(s)).max_by_key(|s| s.len())
    }

    fn has_vowel_in(&self, range_end: usize) -> bool {
        self.b.get(..range_end).is_some_and(|p| p.iter().any(|&c| is_vowel(c)))
    }

    /// Step 1a: plurals (`sses`, `ied`, `ies`, `s`).
    fn step_1a(&mut self) {
        let Some(suffix) = self.longest_suffix(&[b"sses", b"ied", b"ies", b"us", b"ss", b"s"]) else {
            return;
        };
        match suffix {
            b"sses" => self.replace_suffix(suffix, b"ss"),
            b"ied" | b"ies" => {
                let with: &[u8] = if self.suffix_start(suffix) > 1 { b"i" } else { b"ie" };
                self.replace_suffix(suffix, with);
            }
            b"s" => {
                // Delete if a vowel occurs before the letter preceding the `s`.
                let start = self.suffix_start(suffix);
                if start >= 1 && self.has_vowel_in(start - 1) {
                    self.b.truncate(start);
                }
            }
            _ => {} // `us`, `ss`: unchanged
        }
    }

    /// Step 1b: `eed`, `ed`, `ing` and their `-ly` forms.
    fn step_1b(&mut self) {
        let suffixes: [&[u8]; 6] = [b"eed", b"eedly", b"ed", b"edly", b"ing", b"ingly"];
        let Some(suffix) = self.longest_suffix(&suffixes) else {
            return;
        };
        if suffix == b"eed" || suffix == b"eedly" {
            if self.in_r1(suffix) {
                self.replace_suffix(suffix, b"ee");
            }
            return;
        }
        let start = self.suffix_start(suffix);
        if !self.has_vowel_in(start) {
            return;
        }
        self.b.truncate(start);
        self.tidy_after_1b();
    }

    /// After removing `ed`/`ing`: restore an `e`, or undouble a final consonant.
    fn tidy_after_1b(&mut self) {
        const DOUBLES: [&[u8]; 9] = [b"bb", b"dd", b"ff", b"gg", b"mm", b"nn", b"pp", b"rr", b"tt"];
        if self.ends_with(b"at") || self.ends_with(b"bl") || self.ends_with(b"iz") {
            self.b.push(b'e');
        } else if DOUBLES.iter().any(|d| self.ends_with(d)) {
            self.b.pop();
        } else if self.b.len() == self.r1 && ends_in_short_syllable(&self.b) {
            self.b.push(b'e');
        }
    }

    /// Step 1c: a final `y` after a consonant (not the first letter) becomes `i`.
    fn step_1c(&mut self) {
        let n = self.b.len();
        if n < 3 {
            return;
        }
        let last = self.b.get(n - 1).copied();
        let before = self.b.get(n - 2).copied().unwrap_or(b'a');
        if matches!(last, Some(b'y' | b'Y')) && !is_vowel(before) {
            if let Some(c) = self.b.last_mut() {
                *c = b'i';
            }
        }
    }

    /// Step 2: derivational suffixes in R1 (`ational` → `ate`, `izer` → `ize`, ...).
    fn step_2(&mut self) {
        const RULES: [(&[u8], &[u8]); 24] = [
            (b"tional", b"tion"),
            (b"enci", b"ence"),
            (b"anci", b"ance"),
            (b"abli", b"able"),
            (b"entli", b"ent"),
            (b"izer", b"ize"),
            (b"ization", b"ize"),
            (b"ational", b"ate"),
            (b"ation", b"ate"),
            (b"ator", b"ate"),
            (b"alism", b"al"),
            (b"aliti", b"al"),
            (b"alli", b"al"),
            (b"fulness", b"ful"),
            (b"ousli", b"ous"),
            (b"ousness", b"ous"),
            (b"iveness", b"ive"),
            (b"iviti", b"ive"),
            (b"biliti", b"ble"),
            (b"bli", b"ble"),
            (b"ogi", b"og"),
            (b"fulli", b"ful"),
            (b"lessli", b"less"),
            (b"li", b""),
        ];
        let Some((suffix, with)) = self.longest_rule(&RULES) else {
            return;
        };
        if !self.in_r1(suffix) {
            return;
        }
        let start = self.suffix_start(suffix);
        let before = start.checked_sub(1).and_then(|i| self.b.get(i)).copied();
        let allowed = match suffix {
            b"ogi" => before == Some(b'l'),
            b"li" => before.is_some_and(is_valid_li),
            _ => true,
        };
        if allowed {
            self.replace_suffix(suffix, with);
        }
    }

    /// Step 3: more derivational suffixes in R1 (`alize` → `al`, `ful` → ``, ...).
    fn step_3(&mut self) {
        const RULES: [(&[u8], &[u8]); 9] = [
            (b"tional", b"tion"),
            (b"ational", b"ate"),
            (b"alize", b"al"),
            (b"icate", b"ic"),
            (b"iciti", b"ic"),
            (b"ical", b"ic"),
            (b"ful", b""),
            (b"ness", b""),
            (b"ative", b""),
        ];
        let Some((suffix, with)) = self.longest_rule(&RULES) else {
            return;
        };
        let allowed = self.in_r1(suffix) && (suffix != b"ative" || self.in_r2(suffix));
        if allowed {
            self.replace_suffix(suffix, with);
        }
    }

    /// Step 4: suffixes deleted when in R2 (`ment`, `ance`, `ion` after `s`/`t`, ...).
    fn step_4(&mut self) {
        const SUFFIXES: [&[u8]; 18] = [
            b"al", b"ance", b"ence", b"er", b"ic", b"able", b"ible", b"ant", b"ement", b"ment", b"ent", b"ism", b"ate",
            b"iti", b"ous", b"ive", b"ize", b"ion",
        ];
        let Some(suffix) = self.longest_suffix(&SUFFIXES) else {
            return;
        };
        if !self.in_r2(suffix) {
            return;
        }
        let start = self.suffix_start(suffix);
        if suffix == b"ion" {
            let before = start.checked_sub(1).and_then(|i| self.b.get(i)).copied();
            if !matches!(before, Some(b's' | b't')) {
                return;
            }
        }
        self.b.truncate(start);
    }

    /// Step 5: a final `e` (in R2, or in R1 after no short syllable) and a final `ll` in R2.
    fn step_5(&mut self) {
        if self.ends_with(b"e") {
            let start = self.suffix_start(b"e");
            let stem = self.b.get(..start).unwrap_or(&[]);
            if self.in_r2(b"e") || (self.in_r1(b"e") && !ends_in_short_syllable(stem)) {
                self.b.truncate(start);
            }
        } else if self.ends_with(b"ll") && self.in_r2(b"l") {
            self.b.pop();
        }
    }

    fn longest_rule<'s>(&self, rules: &[(&'s [u8], &'s [u8])]) -> Option<(&'s [u8], &'s [u8])> {
        rules.iter().copied().filter(|(s, _)| self.ends_with(s)).max_by_key(|(s, _)| s.len())
    }
}

/// Marks an initial `y`, and a `y` after a vowel, as a consonant (`Y`).
fn mark_consonant_ys(b: &mut [u8]) {
    for i in 0..b.len() {
        let after_vowel = i > 0 && b.get(i - 1).copied().is_some_and(is_vowel);
        if let Some(c) = b.get_mut(i) {
            if *c == b'y' && (i == 0 || after_vowel) {
                *c = b'Y';
            }
        }
    }
}

/// R1 starts after the first non-vowel following a vowel, or after one of three fixed prefixes.
fn region_1_start(b: &[u8]) -> usize {
    for prefix in [&b"gener"[..], b"commun", b"arsen"] {
        if b.starts_with(prefix) {
            return prefix.len();
        }
    }
    next_region_start(b, 0)
}

/// The position after the first non-vowel that follows a vowel, searching from `from`.
fn next_region_start(b: &[u8], from: usize) -> usize {
    let tail = b.get(from..).unwrap_or(&[]);
    let first_vowel = tail.iter().position(|&c| is_vowel(c));
    let Some(v) = first_vowel else { return b.len() };
    match tail.get(v..).unwrap_or(&[]).iter().position(|&c| !is_vowel(c)) {
        Some(nv) => from + v + nv + 1,
        None => b.len(),
    }
}

/// A short syllable ends the word: consonant–vowel–consonant (last not `w`, `x` or `Y`), or a
/// vowel then a consonant at the very start.
fn ends_in_short_syllable(b: &[u8]) -> bool {
    match *b {
        [.., c1, v, c2] if !is_vowel(c1) && is_vowel(v) && !is_vowel(c2) => !matches!(c2, b'w' | b'x' | b'Y'),
        [v, c] => is_vowel(v) && !is_vowel(c),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::stem;

    fn check(word: &str, expected: &str) {
        assert_eq!(stem(word), expected, "stem({word:?})");
    }

    #[test]
    fn steps() {
        check("caresses", "caress");
        check("ponies", "poni");
        check("ties", "tie");
        check("cats", "cat");
        check("gas", "gas");
        check("agreed", "agre");
        check("hopping", "hop");
        check("hoped", "hope");
        check("filing", "file");
        check("cry", "cri");
        check("by", "by");
        check("relational", "relat");
        check("generate", "generat");
        check("communication", "communic");
        check("skies", "sky");
        check("inning", "inning");
        check("Running", "Running");
        check("", "");
    }
}
