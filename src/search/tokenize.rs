//! Turning tool names, descriptions and queries into search terms: word splitting for every
//! naming style (`snake_case`, `kebab-case`, `camelCase`, `dotted.paths`, `v2010`), lowercasing,
//! stop words, stemming and a small table of folded synonyms.
//!
//! Documents and queries go through the same analysis, so whatever a name is split into, a
//! query written in another style meets it.

use alloc::string::String;
use alloc::vec::Vec;

use super::stem::stem;
use super::SearchConfig;

/// Options of the analysis, taken from [`SearchConfig`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Analyzer {
    split_camel: bool,
    stemming: bool,
    stopwords: bool,
    synonyms: bool,
}

impl Analyzer {
    pub(crate) fn new(config: &SearchConfig) -> Analyzer {
        Analyzer {
            split_camel: config.split_camel,
            stemming: config.stemming,
            stopwords: config.stopwords,
            synonyms: config.synonyms,
        }
    }

    /// The words of a document field, in text order (repeats kept), each lowercased into `buf`
    /// and handed to `visit` (no allocation per word; the build analyses each distinct word once
    /// with [`Analyzer::term`]). With `whole_runs`, a run split into several words is also
    /// visited whole, before its parts, so the query "github" meets a description's "GitHub"
    /// (names need not: their runs are what the name rule matches).
    pub(crate) fn document_words(&self, text: &str, whole_runs: bool, buf: &mut String, mut visit: impl FnMut(&str)) {
        // Runs are found on bytes: every byte of a non-ASCII character is a separator too.
        for run in text.as_bytes().split(|b| !b.is_ascii_alphanumeric()).filter(|r| !r.is_empty()) {
            let next_boundary = |from: usize| (from..run.len()).find(|&i| is_boundary(run, i, self.split_camel));
            let mut boundary = next_boundary(1);
            if whole_runs && boundary.is_some() {
                lowercase_into(run, buf);
                visit(buf);
            }
            let mut start = 0;
            while let Some(end) = boundary {
                lowercase_into(run.get(start..end).unwrap_or_default(), buf);
                visit(buf);
                start = end;
                boundary = next_boundary(end + 1);
            }
            lowercase_into(run.get(start..).unwrap_or_default(), buf);
            visit(buf);
        }
    }

    /// The term of one lowercase word, or `None` for a stop word.
    pub(crate) fn term(&self, word: &str) -> Option<String> {
        if self.stopwords && is_stopword(word) {
            return None;
        }
        let term = if self.stemming { stem(word) } else { String::from(word) };
        Some(if self.synonyms { fold_synonym(&term).map_or(term, String::from) } else { term })
    }

    /// Whether words are split at case changes.
    pub(crate) fn splits_camel(&self) -> bool {
        self.split_camel
    }
}

/// The lowercase ASCII words of `text`.
///
/// Every character that is not an ASCII letter or digit separates words (so `_ - . : /`, spaces,
/// punctuation and non-ASCII text all do). Inside a run of letters and digits, a word also ends
/// between a letter and a digit and, when `split_camel` is set, at a case change:
/// `PostChargesChargeRefunds` → `post charges charge refunds`, `HTMLParser` → `html parser`,
/// `api_v2010_CreateMessage` → `api v 2010 create message`.
pub fn words(text: &str, split_camel: bool) -> Vec<String> {
    runs(text).flat_map(|run| split_run(run.as_bytes(), split_camel)).collect()
}

/// The runs of ASCII letters and digits in `text`.
fn runs(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|r| !r.is_empty())
}

/// Splits one run of ASCII letters and digits at its internal word boundaries, lowercased.
fn split_run(run: &[u8], split_camel: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..run.len() {
        if is_boundary(run, i, split_camel) {
            push_lowercase(run.get(start..i), &mut out);
            start = i;
        }
    }
    push_lowercase(run.get(start..), &mut out);
    out
}

/// Whether a word starts at `run[i]` (never at 0).
fn is_boundary(run: &[u8], i: usize, split_camel: bool) -> bool {
    let (Some(&prev), Some(&cur)) = (run.get(i.wrapping_sub(1)), run.get(i)) else {
        return false;
    };
    if prev.is_ascii_digit() != cur.is_ascii_digit() {
        return true;
    }
    if !split_camel {
        return false;
    }
    let next_is_lower = run.get(i + 1).is_some_and(u8::is_ascii_lowercase);
    // `aB` starts a word at B; so does the last capital of an acronym before a lowercase word
    // (`HTMLParser`: the P).
    (prev.is_ascii_lowercase() && cur.is_ascii_uppercase())
        || (prev.is_ascii_uppercase() && cur.is_ascii_uppercase() && next_is_lower)
}

/// `word` (ASCII letters and digits) lowercased into `buf`, replacing what it held.
fn lowercase_into(word: &[u8], buf: &mut String) {
    buf.clear();
    buf.push_str(core::str::from_utf8(word).unwrap_or_default());
    buf.make_ascii_lowercase();
}

fn push_lowercase(word: Option<&[u8]>, out: &mut Vec<String>) {
    if let Some(w) = word.filter(|w| !w.is_empty()) {
        out.push(w.iter().map(|&b| char::from(b.to_ascii_lowercase())).collect());
    }
}

/// The name without a leading `mcp__<server>__` prefix (MCP clients' namespacing), whose words
/// would otherwise be indexed in every tool of the server.
pub fn strip_mcp_prefix(name: &str) -> &str {
    let Some(rest) = name.strip_prefix("mcp__") else {
        return name;
    };
    match rest.split_once("__") {
        Some((server, tool)) if !server.is_empty() && !tool.is_empty() => tool,
        _ => name,
    }
}

/// English function words that carry no meaning for finding a tool ("how do I list the issues
/// of my repo"). Kept short on purpose: words like `all`, `new` or `get` stay searchable.
const STOPWORDS: [&str; 44] = [
    "a", "about", "an", "and", "are", "as", "at", "be", "by", "can", "could", "do", "does", "for", "from", "how", "i",
    "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or", "our", "please", "should", "so", "that",
    "the", "this", "to", "us", "we", "what", "which", "will", "with", "would", "you",
];

fn is_stopword(word: &str) -> bool {
    STOPWORDS.binary_search(&word).is_ok()
}

/// Folds a (stemmed) verb onto the one most tool catalogs use for the same action, so "add a
/// webhook" meets `create_webhook` and "remove member" meets `delete_member`. The table is small
/// and limited to pairs measured to help (docs/search.md); it works on stems and on unstemmed
/// words alike.
fn fold_synonym(term: &str) -> Option<&'static str> {
    Some(match term {
        "add" | "new" | "create" => "creat",
        "remov" | "remove" | "delete" => "delet",
        "edit" | "modifi" | "modify" | "update" => "updat",
        "retriev" | "retrieve" => "get",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopwords_are_sorted_for_binary_search() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
    }
}
