//! The listing of SPEC §3.4: what is on the shelf, per server at one of three levels (full, names,
//! summary), fitted greedily to a token budget, and the short descriptions its full lines carry.
//!
//! Layer 8 of ARCHITECTURE.md's Layers: imports only the rooms of the layers below.

use crate::catalog::{Catalog, Tool};
use crate::options::Switch;
use crate::swar;
use crate::texts;
use alloc::borrow::Cow;
use alloc::collections::BinaryHeap;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Reverse;

/// Most code points of a short description, the `…` included.
pub const SHORT_MAX: usize = 60;

/// How much of one server the listing shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// One line per tool: name and short description.
    Full,
    /// One line with every name.
    Names,
    /// One line: the server and its tool count.
    Summary,
    /// Not shown (no listing).
    Hidden,
}

impl Level {
    /// `"full"`, `"names"`, `"summary"` or `"hidden"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Full => "full",
            Level::Names => "names",
            Level::Summary => "summary",
            Level::Hidden => "hidden",
        }
    }

    fn lower(self) -> Level {
        match self {
            Level::Full => Level::Names,
            _ => Level::Summary,
        }
    }
}

/// The listing's overall form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// No listing.
    None,
    /// Every server at full.
    Full,
    /// Every server at names.
    Names,
    /// Servers at different levels.
    Mixed,
    /// Every server at summary.
    Groups,
}

impl Form {
    /// `"none"`, `"full"`, `"names"`, `"mixed"` or `"groups"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Form::None => "none",
            Form::Full => "full",
            Form::Names => "names",
            Form::Mixed => "mixed",
            Form::Groups => "groups",
        }
    }
}

/// A fitted listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// The text as the model reads it (framing and server blocks); empty for [`Form::None`].
    pub text: String,
    /// The form.
    pub form: Form,
    /// One level per server of [`Catalog::servers`], same order.
    pub levels: Vec<Level>,
}

impl Listing {
    /// `ceil(code points / 4)`.
    pub fn tokens(&self) -> u64 {
        self.text.chars().count().div_ceil(4) as u64
    }
}

/// `mcp__<S>__` when every one of a server's `tools` goes by its shown name; `None` otherwise
/// (`qualify` other than `true`).
fn shown_prefix(server: &str, tools: &[&Tool]) -> Option<String> {
    let prefix = alloc::format!("mcp__{}__", crate::wire::server_part(server));
    let all = tools.iter().all(|t| t.name.strip_prefix(prefix.as_str()).is_some_and(|rest| !rest.is_empty()));
    (all && !tools.is_empty()).then_some(prefix)
}

/// Fits the listing of `catalog`'s servers into `budget` tokens (SPEC §3.4).
///
/// Every server starts at full; while the listing is over budget, the server whose block is
/// longest (ties: the smaller name) goes down one level. When even every server at summary is over
/// budget there is no listing, unless `mode` is [`Switch::On`], which keeps the summary lines.
/// A server whose tools all go by their shown names (`mcp__<S>__<T>`, SPEC §16) is headed by
/// that prefix (`mcp__github__*`) and lists each tool by the rest of its name, so the full name
/// is shown once per server, not once per tool; a server at summary is named as it is.
/// `framing` is the sentence before the server blocks (it says how a listed tool is loaded).
pub fn fit(catalog: &Catalog, budget: u64, mode: Switch, framing: String) -> Listing {
    let servers = catalog.servers.len();
    if mode == Switch::Off || servers == 0 {
        return none(servers);
    }
    let blocks: Vec<[String; 3]> = catalog
        .servers
        .iter()
        .map(|server| {
            let tools: Vec<&Tool> = server.tools.iter().filter_map(|&i| catalog.tools.get(i)).collect();
            let shorts = Shorts::of(tools.iter().map(|t| t.description.as_str()));
            let prefix = shown_prefix(&server.name, &tools);
            let cut = prefix.as_ref().map_or(0, String::len);
            let lines: Vec<(&str, &str)> =
                tools.iter().zip(shorts.iter()).map(|(t, s)| (t.name.get(cut..).unwrap_or(&t.name), s)).collect();
            let heading =
                prefix.as_deref().map_or(Cow::Borrowed(server.name.as_str()), |p| Cow::Owned(alloc::format!("{p}*")));
            [
                texts::full_block(&heading, &lines),
                texts::names_block(&heading, lines.iter().map(|(n, _)| *n), lines.len()),
                // A server shown only as a count is searched before its tools are named, so its
                // line names the server as it is, not the prefix (as cheap as short names').
                texts::summary_block(&server.name, lines.len()),
            ]
        })
        .collect();
    let lengths: Vec<[usize; 3]> = blocks.iter().map(|b| [0, 1, 2].map(|l| b[l].chars().count())).collect();
    let Some(levels) = fit_levels(&lengths, framing.chars().count(), budget, mode) else {
        return none(servers);
    };
    let mut text = framing;
    for (block, level) in blocks.iter().zip(&levels) {
        text.push_str(&block[*level as usize]);
    }
    Listing { form: form_of(&levels), text, levels }
}

fn none(servers: usize) -> Listing {
    Listing { text: String::new(), form: Form::None, levels: alloc::vec![Level::Hidden; servers] }
}

/// The greedy fit over block lengths (code points) per server and level.
///
/// The servers not yet at summary wait in a heap by their current block's length (ties: the
/// first, the smaller name), so each step costs log(servers), not a scan of every server.
fn fit_levels(lengths: &[[usize; 3]], framing: usize, budget: u64, mode: Switch) -> Option<Vec<Level>> {
    let mut levels = alloc::vec![Level::Full; lengths.len()];
    let mut total = framing + lengths.iter().map(|l| l[0]).sum::<usize>();
    let mut lowerable: BinaryHeap<(usize, Reverse<usize>)> =
        lengths.iter().enumerate().map(|(i, l)| (l[0], Reverse(i))).collect();
    while total.div_ceil(4) as u64 > budget {
        let Some((current, Reverse(i))) = lowerable.pop() else {
            return (mode == Switch::On).then_some(levels);
        };
        let (Some(level), Some(length)) = (levels.get_mut(i), lengths.get(i)) else { continue };
        *level = level.lower();
        let lowered = length[*level as usize];
        total = total - current + lowered;
        if *level != Level::Summary {
            lowerable.push((lowered, Reverse(i)));
        }
    }
    Some(levels)
}

fn form_of(levels: &[Level]) -> Form {
    let all = |level: Level| levels.iter().all(|l| *l == level);
    if all(Level::Full) {
        Form::Full
    } else if all(Level::Names) {
        Form::Names
    } else if all(Level::Summary) {
        Form::Groups
    } else {
        Form::Mixed
    }
}

/// The first sentence of `description`, whitespace collapsed, cut at a word boundary to at most
/// [`SHORT_MAX`] code points with `…` when cut.
///
/// Word by word, stopping at the first sentence end or once over [`SHORT_MAX`] code points: in the
/// collapsed text a sentence end (a terminator followed by a space or the end) can only be a
/// word's last character, so the words read up to the first one that `ends_sentence` are the
/// first sentence; and when the words read are over the limit, more words would be cut away.
#[cfg(test)] // the listing pushes them into one buffer per server (`push_short_description`)
pub fn short_description(description: &str) -> String {
    let mut text = String::with_capacity(description.len().min(4 * SHORT_MAX));
    push_short_description(&mut text, description);
    text
}

/// Appends the [`short_description`] of `description` to `out`.
fn push_short_description(out: &mut String, description: &str) {
    let start = out.len();
    let mut code_points = 0;
    // The words read and not yet copied: a stretch of `description` whose words are one space apart,
    // so that it is copied as it is (usually the whole short description in one copy).
    let mut stretch: Option<(usize, usize)> = None;
    for word in (Words { text: description, at: 0 }) {
        stretch = match stretch {
            None => Some((word.start, word.end)),
            Some((from, to)) => {
                code_points += 1; // the space before the word
                if word.start == to + 1 && description.as_bytes().get(to) == Some(&b' ') {
                    Some((from, word.end))
                } else {
                    out.push_str(description.get(from..to).unwrap_or_default());
                    out.push(' ');
                    Some((word.start, word.end))
                }
            }
        };
        code_points += word.code_points;
        let bytes = description.as_bytes().get(word.start..word.end).unwrap_or_default();
        if ends_sentence(bytes) || code_points > SHORT_MAX {
            break;
        }
    }
    if let Some((from, to)) = stretch {
        out.push_str(description.get(from..to).unwrap_or_default());
    }
    if code_points > SHORT_MAX {
        cut_at_word(out, start, SHORT_MAX);
    }
}

/// The short descriptions of a server's tools, in one buffer rather than a `String` each.
struct Shorts {
    /// The short descriptions, one after the other.
    text: String,
    /// Where each ends in `text`.
    ends: Vec<usize>,
}

impl Shorts {
    /// The short descriptions of `descriptions`.
    fn of<'a>(descriptions: impl ExactSizeIterator<Item = &'a str>) -> Shorts {
        let mut shorts = Shorts { text: String::with_capacity(descriptions.len() * SHORT_MAX), ends: Vec::new() };
        shorts.ends.reserve_exact(descriptions.len());
        for description in descriptions {
            push_short_description(&mut shorts.text, description);
            shorts.ends.push(shorts.text.len());
        }
        shorts
    }

    /// Each short description, in order.
    fn iter(&self) -> impl Iterator<Item = &str> {
        let starts = core::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(start, &end)| self.text.get(start..end).unwrap_or_default())
    }
}

/// The words of a text, as [`str::split_whitespace`] gives them, found by byte scans (eight ASCII
/// bytes at a time) rather than decoding every character as the standard iterator does.
struct Words<'a> {
    /// The text.
    text: &'a str,
    /// Where the last word given ends.
    at: usize,
}

/// A word of a text: where it is and its code points.
struct Word {
    /// Its first byte.
    start: usize,
    /// The byte after its last.
    end: usize,
    /// Its length in code points.
    code_points: usize,
}

impl Iterator for Words<'_> {
    type Item = Word;

    fn next(&mut self) -> Option<Word> {
        let start = whitespace_end(self.text, self.at);
        let (end, code_points) = word_end(self.text, start);
        self.at = end;
        (end > start).then_some(Word { start, end, code_points })
    }
}

/// Where the whitespace ([`char::is_whitespace`]) of `text` from byte `at` ends.
fn whitespace_end(text: &str, mut at: usize) -> usize {
    while let Some((true, char_length)) = char_kind(text, at) {
        at += char_length;
    }
    at
}

/// Where the characters of `text` from byte `at` that are not whitespace end, and how many they
/// are: ASCII from `!` to DEL eight bytes at a time, any other character by [`char_kind`].
fn word_end(text: &str, mut at: usize) -> (usize, usize) {
    let stops = |word| swar::below(word, 0x21) | swar::non_ascii(word);
    let mut code_points = 0;
    loop {
        let rest = text.as_bytes().get(at..).unwrap_or_default();
        let ascii = swar::prefix_length(rest, stops, |b| !(0x21..0x80).contains(&b));
        at += ascii;
        code_points += ascii;
        match char_kind(text, at) {
            Some((false, char_length)) => {
                at += char_length;
                code_points += 1;
            }
            _ => return (at, code_points),
        }
    }
}

/// Whether the character at byte `at` of `text` is whitespace ([`char::is_whitespace`]), and its
/// length in bytes; `None` at the end. ASCII is told from its byte, without decoding.
// Called for every gap and word end: always inlined, whatever the profile's inlining threshold.
#[inline(always)]
fn char_kind(text: &str, at: usize) -> Option<(bool, usize)> {
    match *text.as_bytes().get(at)? {
        b @ 0..=0x7f => Some((matches!(b, b'\t'..=b'\r' | b' '), 1)),
        _ => non_ascii_kind(text, at),
    }
}

/// [`char_kind`] for a character that is not ASCII.
fn non_ascii_kind(text: &str, at: usize) -> Option<(bool, usize)> {
    text.get(at..)?.chars().next().map(|c| (c.is_whitespace(), c.len_utf8()))
}

/// Whether a sentence ends with `word`: it ends with `.`, `!` or `?`, and is not `e.g.`, `i.e.` or
/// `etc.` (in any case, after an opening bracket or quote).
fn ends_sentence(word: &[u8]) -> bool {
    match word.last() {
        Some(b'!' | b'?') => true,
        Some(b'.') => {
            let opening = word.iter().take_while(|b| matches!(b, b'(' | b'[' | b'"' | b'\'')).count();
            let word = word.get(opening..).unwrap_or_default();
            !["e.g.", "i.e.", "etc."].iter().any(|a| word.eq_ignore_ascii_case(a.as_bytes()))
        }
        _ => false,
    }
}

/// Leaves the text of `out` from `start` as it is when it has at most `max` code points; else cuts
/// it to fewer than `max` at the last word boundary (or at `max - 1` when there is none), drops
/// trailing separators and adds `…`.
fn cut_at_word(out: &mut String, start: usize, max: usize) {
    let text = out.get(start..).unwrap_or_default();
    // `limit` is where the max-th code point starts; one more code point means over the limit.
    let (Some(limit), Some(_)) = (code_point_offset(text, max.saturating_sub(1)), code_point_offset(text, max)) else {
        return;
    };
    let head = text.get(..crate::json::mark_safe_end(text, limit)).unwrap_or_default();
    let ends_on_word = text.as_bytes().get(limit) == Some(&b' ');
    let cut = match head.rfind(' ') {
        Some(space) if space > 0 && !ends_on_word => head.get(..space).unwrap_or_default(),
        _ => head,
    };
    let kept = cut.trim_end_matches([' ', ',', ';', ':', '-']).len();
    out.truncate(start + kept);
    out.push('…');
}

/// The byte offset where code point `n` (from 0) of `text` starts, if `text` has that many.
fn code_point_offset(text: &str, n: usize) -> Option<usize> {
    match text.as_bytes().get(..=n) {
        Some(head) if head.is_ascii() => Some(n), // one byte per code point so far
        _ => text.char_indices().nth(n).map(|(i, _)| i),
    }
}

/// The first version of [`short_description`], which collapsed up to 960 bytes of words: the
/// reference its early stop is checked against.
#[cfg(test)]
mod reference {
    use super::SHORT_MAX;
    use alloc::string::String;

    pub fn short_description_reference(description: &str) -> String {
        let collapsed = collapse_whitespace_reference(description);
        let sentence = first_sentence(&collapsed);
        cut_at_word_reference(sentence, SHORT_MAX)
    }

    fn collapse_whitespace_reference(text: &str) -> String {
        let mut out = String::with_capacity(text.len().min(4 * SHORT_MAX * 4));
        for word in text.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
            if out.len() > 16 * SHORT_MAX {
                break; // enough text to find a short first sentence; never scan a huge description
            }
        }
        out
    }

    fn cut_at_word_reference(text: &str, max: usize) -> String {
        if text.chars().count() <= max {
            return String::from(text);
        }
        let limit = text.char_indices().nth(max - 1).map_or(text.len(), |(i, _)| i);
        let head = &text[..limit];
        let ends_on_word = text[limit..].starts_with(' ');
        let cut = match head.rfind(' ') {
            Some(space) if space > 0 && !ends_on_word => &head[..space],
            _ => head,
        };
        let mut out = String::from(cut.trim_end_matches([' ', ',', ';', ':', '-']));
        out.push('…');
        out
    }

    /// Up to and including the first `.`, `!` or `?` followed by a space or the end, skipping the
    /// dots of `e.g.`, `i.e.` and `etc.`.
    fn first_sentence(text: &str) -> &str {
        let bytes = text.as_bytes();
        for (i, &b) in bytes.iter().enumerate() {
            if !matches!(b, b'.' | b'!' | b'?') {
                continue;
            }
            let at_end = matches!(bytes.get(i + 1), None | Some(b' '));
            if at_end && !(b == b'.' && ends_with_abbreviation(&text[..=i])) {
                return &text[..=i];
            }
        }
        text
    }

    fn ends_with_abbreviation(text: &str) -> bool {
        let word = text.rsplit(' ').next().unwrap_or(text).trim_start_matches(['(', '[', '"', '\'']);
        ["e.g.", "i.e.", "etc."].iter().any(|a| word.eq_ignore_ascii_case(a))
    }
}

#[cfg(test)]
mod tests {
    use super::reference::short_description_reference;
    use super::*;

    fn check(description: &str, expected: &str) {
        let short = short_description(description);
        assert_eq!(short, expected, "{description:?}");
        assert_eq!(short, short_description_reference(description), "{description:?}");
        assert!(short.chars().count() <= SHORT_MAX);
    }

    #[test]
    fn short_descriptions() {
        check("", "");
        check("Create an issue.", "Create an issue.");
        check("Create an issue. Then more.", "Create an issue.");
        check("Create an issue! Then more.", "Create an issue!");
        check("Is it open? Then more.", "Is it open?");
        check("Use a file, e.g. ci.yaml. Then more.", "Use a file, e.g. ci.yaml.");
        check("Lists things, i.e. everything. More.", "Lists things, i.e. everything.");
        check("Lists A, B, etc. as well. More.", "Lists A, B, etc. as well.");
        check("Version 1.2 is out. More", "Version 1.2 is out.");
        check("  Get\n  details\tabout   it.\nMore", "Get details about it.");
        check("No full stop at all", "No full stop at all");
        check(
            "Retrieve the details of an existing charge that has previously been created by you",
            "Retrieve the details of an existing charge that has…",
        );
        check(&"x".repeat(100), &("x".repeat(59) + "…"));
        check("éééé ".repeat(20).as_str(), "éééé éééé éééé éééé éééé éééé éééé éééé éééé éééé éééé éééé…");
    }

    #[test]
    fn greedy_fit_lowers_the_longest_block_first() {
        // framing 0; server a: 40/20/10, b: 400/100/10 → budget 20 tokens = 80 code points.
        let lengths = [[40, 20, 10], [400, 100, 10]];
        let levels = fit_levels(&lengths, 0, 20, Switch::Auto).unwrap();
        assert_eq!(levels, [Level::Full, Level::Summary]);
        let levels = fit_levels(&lengths, 0, 35, Switch::Auto).unwrap();
        assert_eq!(levels, [Level::Full, Level::Names]);
        assert_eq!(fit_levels(&lengths, 0, 4, Switch::Auto), None);
        assert_eq!(fit_levels(&lengths, 0, 4, Switch::On).unwrap(), [Level::Summary, Level::Summary]);
        // ties: the smaller name (earlier index) goes first
        let levels = fit_levels(&[[100, 50, 10], [100, 50, 10]], 0, 38, Switch::Auto).unwrap();
        assert_eq!(levels, [Level::Names, Level::Full]);
    }
}

/// The early stop of [`short_description`] checked against the first version on random
/// descriptions and on every description of the test catalogs (native only: proptest and flate2
/// are native dev-dependencies).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::reference::short_description_reference;
    use super::{short_description, Shorts};
    use alloc::string::String;
    use alloc::vec::Vec;
    use proptest::prelude::*;
    use std::io::Read;

    /// Words, sentence ends, abbreviations, every kind of whitespace, multi-byte letters: joined
    /// with nothing between them, so ends and spaces fall anywhere.
    fn piece() -> impl Strategy<Value = String> {
        let fixed = prop::sample::select(alloc::vec![
            "Create",
            "an",
            "issue",
            "x",
            "Version",
            "1.2",
            "a.b",
            "é",
            "日本語",
            "ÄÖÜß",
            "😀",
            "ẞig",
            "naïve",
            ".",
            "!",
            "?",
            "...",
            "e.g.",
            "E.G.",
            "(e.g.",
            "i.e.",
            "etc.",
            "etc.,",
            "\"etc.",
            "[i.e.",
            "Mr.",
            ",",
            ";",
            ":",
            "-",
            "—",
            "…",
            " ",
            " ",
            " ",
            "  ",
            "\t",
            "\n",
            "\r\n",
            "\u{a0}",
            "\u{85}",
            "\u{2003}",
            "\u{2028}",
            "\u{3000}",
            "\u{feff}",
            "\u{200b}",
        ])
        .prop_map(String::from);
        prop_oneof![
            6 => fixed,
            2 => "[a-zA-Z]{1,12}",
            1 => "[a-zé日.!? ]{1,30}",
            1 => "[a-z]{40,90}",
        ]
    }

    fn description() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => prop::collection::vec(piece(), 0..40),
            1 => prop::collection::vec(piece(), 100..500),
        ]
        .prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        #[test]
        fn early_stop_changes_no_short_description(description in description()) {
            prop_assert_eq!(short_description(&description), short_description_reference(&description));
        }

        #[test]
        fn shorts_in_one_buffer_are_the_short_descriptions(descriptions in prop::collection::vec(description(), 0..6)) {
            let shorts = Shorts::of(descriptions.iter().map(String::as_str));
            let each: Vec<String> = descriptions.iter().map(|d| short_description_reference(d)).collect();
            prop_assert_eq!(shorts.iter().collect::<Vec<_>>(), each);
        }
    }

    #[test]
    fn early_stop_changes_no_short_description_of_the_test_catalogs() {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/catalogs");
        let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        paths.retain(|p| p.to_string_lossy().ends_with(".json.gz") && !p.to_string_lossy().contains("queries-"));
        paths.sort();
        assert!(paths.len() >= 10, "{}: {paths:?}", dir.display());
        let mut checked = 0;
        for path in paths {
            let mut text = String::new();
            flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap()).read_to_string(&mut text).unwrap();
            let catalog = crate::json::parse(&text).unwrap();
            for entry in catalog.as_array().unwrap() {
                let function = entry.get("tool").and_then(|t| t.get("function"));
                let description = function.and_then(|f| f.get("description")).and_then(|d| d.as_str());
                let description = description.unwrap_or_default();
                assert_eq!(short_description(description), short_description_reference(description), "{path:?}");
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
