//! Turning tool names, descriptions and queries into search terms: word splitting for every
//! naming style (`snake_case`, `kebab-case`, `camelCase`, `dotted.paths`, `v2010`), lowercasing,
//! stop words, stemming, a small table of folded synonyms, HTML left out of descriptions, and
//! the query side's filler words and variants (how models phrase a request).
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
            // The run as text (its bounds are ASCII, so char boundaries): slicing checks two
            // bytes where `from_utf8` of its bytes would check them all.
            let at = run.as_ptr() as usize - text.as_ptr() as usize;
            let word = |range: core::ops::Range<usize>| text.get(at + range.start..at + range.end).unwrap_or_default();
            // Most runs are one plain word ("the", "Creates"): a letter, then lowercase letters
            // only, holds no boundary; one that starts lowercase is visited as it is.
            if run.first().is_some_and(u8::is_ascii_alphabetic)
                && run.get(1..).unwrap_or_default().iter().all(u8::is_ascii_lowercase)
            {
                if run.first().is_some_and(u8::is_ascii_lowercase) {
                    visit(word(0..run.len()));
                } else {
                    lowercase_into(word(0..run.len()), buf);
                    visit(buf);
                }
                continue;
            }
            let next_boundary = |from: usize| (from..run.len()).find(|&i| is_boundary(run, i, self.split_camel));
            let mut boundary = next_boundary(1);
            if whole_runs && boundary.is_some() {
                lowercase_into(word(0..run.len()), buf);
                visit(buf);
            }
            let mut start = 0;
            while let Some(end) = boundary {
                lowercase_into(word(start..end), buf);
                visit(buf);
                start = end;
                boundary = next_boundary(end + 1);
            }
            lowercase_into(word(start..run.len()), buf);
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
    query_words(text, split_camel).into_iter().map(|(_, word)| word).collect()
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
fn lowercase_into(word: &str, buf: &mut String) {
    buf.clear();
    buf.push_str(word);
    buf.make_ascii_lowercase();
}

/// The name without a leading `mcp__<server>__` prefix (MCP clients' namespacing), whose words
/// would otherwise be indexed in every tool of the server.
pub fn strip_mcp_prefix(name: &str) -> &str {
    let Some(rest) = name.strip_prefix("mcp__") else {
        return name;
    };
    match crate::wire::split_at_separator(rest) {
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

/// The words of `text` as [`words`] gives them, each with the text it was written as (a query's
/// unknown words are reported as written).
pub fn query_words(text: &str, split_camel: bool) -> Vec<(&str, String)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let Some(start) = (at..bytes.len()).find(|&i| bytes.get(i).is_some_and(u8::is_ascii_alphanumeric)) else {
            break;
        };
        let end = (start..bytes.len()).find(|&i| !bytes.get(i).is_some_and(u8::is_ascii_alphanumeric));
        let end = end.unwrap_or(bytes.len());
        let run = bytes.get(start..end).unwrap_or_default();
        let mut piece = 0;
        for i in 1..=run.len() {
            if i == run.len() || is_boundary(run, i, split_camel) {
                if let Some(written) = text.get(start + piece..start + i) {
                    out.push((written, written.to_ascii_lowercase()));
                }
                piece = i;
            }
        }
        at = end;
    }
    out
}

/// Query words that say how a request is phrased, not what it asks for ("what are my zones",
/// "I need to see ..."): dropped from queries only (a description's "all" or "own" is text).
/// Pieces of contractions ("what's" → `what` `s`) are here too.
const FILLER: [&str; 94] = [
    "able",
    "actually",
    "additionally",
    "all",
    "also",
    "am",
    "any",
    "anyone",
    "anything",
    "assist",
    "been",
    "being",
    "certain",
    "could",
    "curious",
    "currently",
    "d",
    "did",
    "doing",
    "done",
    "every",
    "everything",
    "exist",
    "exists",
    "give",
    "got",
    "has",
    "have",
    "having",
    "hello",
    "help",
    "hey",
    "hi",
    "information",
    "interested",
    "just",
    "kindly",
    "know",
    "let",
    "lets",
    "like",
    "ll",
    "looking",
    "m",
    "maybe",
    "mine",
    "myself",
    "need",
    "needs",
    "now",
    "ok",
    "okay",
    "own",
    "particular",
    "please",
    "pls",
    "plz",
    "provide",
    "re",
    "really",
    "s",
    "should",
    "some",
    "someone",
    "something",
    "specific",
    "stuff",
    "sure",
    "t",
    "tell",
    "thank",
    "thanks",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "those",
    "up",
    "using",
    "ve",
    "via",
    "wanna",
    "want",
    "was",
    "were",
    "when",
    "where",
    "who",
    "why",
    "wondering",
    "would",
    "your",
];

/// Whether a lowercase query word is filler ([`FILLER`]).
pub(crate) fn is_filler(word: &str) -> bool {
    FILLER.binary_search(&word).is_ok()
}

/// Words by which a query speaks of its asker ("who am I"): when they are all a query has, they
/// ask for the current user, in the words catalogs use for that.
pub(crate) const SELF_WORDS: [&str; 6] = ["am", "i", "me", "mine", "my", "myself"];

/// Whether a query asks who its asker is ("who am I logged in as on github", "which account am I
/// using"): it says "am I" (a statement says "I am").
pub(crate) fn asks_identity(words: &[(&str, String)]) -> bool {
    words.windows(2).any(|w| matches!(w, [(_, am), (_, i)] if am == "am" && i == "i"))
}

/// What the current user is called in tool descriptions (`get_me`: "the authenticated user").
pub(crate) const SELF_VARIANTS: &[&str] = &["authenticated", "current", "viewer", "profile"];

/// How models write a request against how catalogs name the same thing: a query word (left, as
/// its term) also finds the words on the right, at a lower weight. A variant of several words
/// ("pull request") needs them all. Each entry earns its place on a labelled query (docs/search.md).
pub(crate) const VARIANTS: &[(&str, &[&str])] = &[
    ("pr", &["pull request"]),
    ("repo", &["repository"]),
    ("db", &["database"]),
    ("ticket", &["issue"]),
    ("bug", &["issue"]),
    ("sprint", &["cycle"]),
    ("tag", &["label"]),
    ("open", &["create"]),
    ("start", &["create", "run"]),
    ("spin", &["create"]),
    ("kick", &["run", "trigger"]),
    ("show", &["list", "get"]),
    ("see", &["list", "get"]),
    ("look", &["search", "get"]),
    ("find", &["search"]),
    ("wipe", &["delete"]),
    ("kill", &["delete", "stop"]),
    ("tear", &["delete"]),
    ("cancel", &["delete", "stop"]),
    ("change", &["update"]),
    ("reply", &["comment"]),
    ("teammate", &["user", "member"]),
    ("pay", &["payment", "charge"]),
    ("client", &["customer"]),
    ("tls", &["ssl", "certificate"]),
    ("sms", &["message"]),
    ("ship", &["deploy", "release"]),
    ("latest", &["recent", "list"]),
    ("approve", &["review"]),
    ("nuke", &["delete"]),
    ("bookmark", &["star"]),
    ("leak", &["secret"]),
    ("inbox", &["notification"]),
    ("access", &["collaborator", "permission"]),
    ("group", &["team"]),
    ("note", &["comment"]),
    ("state", &["status"]),
    ("health", &["status"]),
    ("chargeback", &["dispute"]),
    ("suspicious", &["fraud", "review"]),
    ("dollar", &["currency", "exchange"]),
    ("euro", &["currency", "exchange"]),
    ("estimate", &["quote"]),
    ("tier", &["price", "plan"]),
    ("url", &["link"]),
    ("clear", &["purge", "delete"]),
    ("flush", &["purge"]),
    ("revert", &["rollback"]),
    ("captcha", &["turnstile", "challenge"]),
    ("history", &["audit", "log"]),
    ("inference", &["ai", "model"]),
    ("function", &["script", "worker"]),
    ("serverless", &["function", "worker"]),
    ("hourly", &["cron", "schedule"]),
    ("preprint", &["arxiv", "paper"]),
    ("remember", &["memory", "observation"]),
    ("press", &["click"]),
    ("printable", &["pdf"]),
    ("syntax", &["validate"]),
    ("story", &["issue", "work item"]),
    ("mongo", &["mongodb"]),
    ("google", &["search"]),
    ("grep", &["search code"]),
    ("instance", &["project"]),
    ("make", &["create"]),
    ("people", &["user"]),
    ("billing", &["invoice", "subscription"]),
    ("land", &["merge"]),
    ("favorite", &["star"]),
    ("worth", &["price"]),
    ("umbrella", &["weather", "forecast"]),
    ("board", &["project"]),
    ("visa", &["card"]),
    ("pick", &["choose", "select"]),
    ("shopper", &["customer"]),
];

/// What a value written in a query is: an argument of the call, not a word to search for.
#[derive(Clone, Copy, PartialEq, Eq)]
#[cfg_attr(test, derive(Debug))]
pub(crate) enum QueryValue {
    /// `42`, `#7`, `$50`, `12.5%`: not searched.
    Number,
    /// An issue key, `ENG-123`: its letters are a team or project, not a word.
    Key,
    /// `203.0.113.7`.
    Ip,
    /// `bob@example.com`.
    Email,
    /// `https://example.com/a`, `www.example.com`.
    Url,
    /// `example.com`, `api.example.com` (a common top-level domain last).
    Domain,
    /// `~/app/config.yaml`, `/etc/hosts`, `./src`.
    Path,
}

impl QueryValue {
    /// The word catalogs use for what holds such a value (none for a number).
    pub(crate) fn kind_word(self) -> Option<&'static str> {
        Some(match self {
            QueryValue::Number => return None,
            QueryValue::Key => "issue",
            QueryValue::Ip => "ip",
            QueryValue::Email => "email",
            QueryValue::Url => "url",
            QueryValue::Domain => "domain",
            QueryValue::Path => "file",
        })
    }
}

/// Common top-level domains: `x.com` is a domain, `Node.js` a name.
const DOMAIN_ENDINGS: [&str; 16] =
    ["ai", "app", "co", "com", "de", "dev", "edu", "fr", "gov", "info", "io", "me", "net", "org", "uk", "xyz"];

/// The values written in a query ([`QueryValue`]), each with the byte range of its token
/// (whitespace-separated, surrounding punctuation and a final `'s` left out).
pub(crate) fn query_values(text: &str) -> Vec<(core::ops::Range<usize>, QueryValue)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let end = (at..bytes.len()).find(|&i| bytes.get(i).is_some_and(u8::is_ascii_whitespace)).unwrap_or(bytes.len());
        let (mut from, mut to) = (at, end);
        while from < to && bytes.get(from).is_some_and(|b| b"(\"'`[".contains(b)) {
            from += 1;
        }
        while to > from && bytes.get(to - 1).is_some_and(|b| b")\"'`],.;:?!".contains(b)) {
            to -= 1;
        }
        if to >= from + 2 && bytes.get(to - 2..to) == Some(b"'s") {
            to -= 2;
        }
        if let Some(value) = bytes.get(from..to).and_then(value_of) {
            found.push((from..to, value));
        }
        at = end + 1;
    }
    found
}

/// What a token is, if it is a value (a token of letters alone never is: most are).
fn value_of(token: &[u8]) -> Option<QueryValue> {
    if token.is_empty() || token.iter().all(u8::is_ascii_alphabetic) {
        return None;
    }
    let starts = |prefix: &[u8]| token.get(..prefix.len()).is_some_and(|b| b.eq_ignore_ascii_case(prefix));
    if starts(b"http://") || starts(b"https://") || starts(b"www.") {
        return Some(QueryValue::Url);
    }
    if starts(b"/") || starts(b"~/") || starts(b"./") || starts(b"../") {
        return Some(QueryValue::Path);
    }
    let count = |byte: u8| token.iter().filter(|&&b| b == byte).count();
    if let Some(at) = token.iter().position(|&b| b == b'@') {
        return (at > 0 && count(b'@') == 1 && token.get(at..).is_some_and(|d| d.contains(&b'.')))
            .then_some(QueryValue::Email);
    }
    let body = token.strip_prefix(b"#").or(token.strip_prefix(b"$")).unwrap_or(token);
    let body = body.strip_suffix(b"%").unwrap_or(body);
    if body.iter().any(u8::is_ascii_digit) && body.iter().all(|b| b.is_ascii_digit() || *b == b',' || *b == b'.') {
        let ip = body.len() == token.len()
            && count(b'.') == 3
            && body.split(|&b| b == b'.').all(|p| (1..=3).contains(&p.len()));
        return Some(if ip { QueryValue::Ip } else { QueryValue::Number });
    }
    if let Some(dash) = token.iter().position(|&b| b == b'-') {
        let (letters, digits) = (token.get(..dash).unwrap_or_default(), token.get(dash + 1..).unwrap_or_default());
        if letters.len() >= 2
            && letters.iter().all(u8::is_ascii_alphabetic)
            && !digits.is_empty()
            && digits.iter().all(u8::is_ascii_digit)
        {
            return Some(QueryValue::Key);
        }
    }
    let dot = token.iter().rposition(|&b| b == b'.')?;
    let ending = token.get(dot + 1..).unwrap_or_default();
    let labels = token.get(..dot).unwrap_or_default();
    let well_formed = labels
        .split(|&b| b == b'.')
        .all(|l| !l.is_empty() && l.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'-'));
    (well_formed && DOMAIN_ENDINGS.iter().any(|d| d.as_bytes().eq_ignore_ascii_case(ending)))
        .then_some(QueryValue::Domain)
}

/// A description without its HTML: tags (`<p>`, `</a>`, `<a href="...">`) and character
/// references (`&amp;`, `&#39;`) become spaces, so their words are not indexed. Borrowed when
/// there is nothing to strip.
pub(crate) fn strip_html(text: &str) -> alloc::borrow::Cow<'_, str> {
    if !text.bytes().any(|b| b == b'<' || b == b'&') {
        return alloc::borrow::Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut at = 0;
    while at < bytes.len() {
        let skip = match bytes.get(at) {
            Some(b'<') => markup_end(bytes, at, b'>', |b| b.is_ascii_alphabetic() || b == b'/' || b == b'!'),
            Some(b'&') => markup_end(bytes, at, b';', |b| b.is_ascii_alphabetic() || b == b'#'),
            _ => None,
        };
        match skip {
            Some(end) => {
                out.push_str(text.get(copied..at).unwrap_or_default());
                out.push(' ');
                at = end;
                copied = end;
            }
            None => at += 1,
        }
    }
    out.push_str(text.get(copied..).unwrap_or_default());
    alloc::borrow::Cow::Owned(out)
}

/// Longest tag or character reference [`strip_html`] removes, in bytes.
const MAX_MARKUP: usize = 256;

/// The end (past `close`) of markup opening at `bytes[at]`, if the next byte fits `starts` and
/// `close` comes within [`MAX_MARKUP`] bytes before another opening byte.
fn markup_end(bytes: &[u8], at: usize, close: u8, starts: impl Fn(u8) -> bool) -> Option<usize> {
    if !bytes.get(at + 1).copied().is_some_and(starts) {
        return None;
    }
    let open = bytes.get(at).copied()?;
    let window = bytes.get(at + 1..(at + MAX_MARKUP).min(bytes.len()))?;
    let end = window
        .iter()
        .position(|&b| b == close || b == open || (close == b';' && !b.is_ascii_alphanumeric() && b != b'#'))?;
    (window.get(end) == Some(&close)).then_some(at + 2 + end)
}

/// Where the first sentence of a description ends: at `.`, `!` or `?` followed by whitespace, or
/// at a line break, whichever comes first (the whole text when neither does).
pub(crate) fn first_sentence_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        match bytes.get(at) {
            Some(b'\n') if at > 0 => return at,
            Some(b'.' | b'!' | b'?') if bytes.get(at + 1).is_none_or(u8::is_ascii_whitespace) && at > 0 => {
                return at + 1
            }
            _ => {}
        }
        at += 1;
    }
    bytes.len()
}

/// Whether a tool name reads as a REST read of a whole collection (`zones-get`, `GetCustomers`,
/// `accounts-0-members-get`): a `get` first or last, and the word before or after it a plural
/// noun, not a path parameter (`zones-0-get`) or a singular (`GetCustomersCustomer`). Such a tool
/// lists, so its name also holds `list`.
pub(crate) fn lists_a_collection(words: &[String]) -> bool {
    let (Some(first), Some(last)) = (words.first(), words.last()) else {
        return false;
    };
    let object = if last == "get" && words.len() >= 2 {
        words.get(words.len() - 2)
    } else if first == "get" && words.len() >= 2 {
        words.last()
    } else {
        None
    };
    object.is_some_and(|w| is_plural(w))
}

fn is_plural(word: &str) -> bool {
    word.len() > 3
        && word.ends_with('s')
        && !["ss", "us", "is"].iter().any(|end| word.ends_with(end))
        && word.bytes().all(|b| b.is_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopwords_are_sorted_for_binary_search() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(FILLER.windows(2).all(|w| w[0] < w[1]), "{:?}", FILLER.windows(2).find(|w| w[0] >= w[1]));
    }

    #[test]
    fn query_words_keep_their_text() {
        let words = query_words("Send Gmail e-mail viaAPI", true);
        let written: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
        assert_eq!(written, ["Send", "Gmail", "e", "mail", "via", "API"]);
        assert_eq!(words[1].1, "gmail");
    }

    #[test]
    fn values_are_told_from_words() {
        let kinds = |q: &str| -> Vec<(String, QueryValue)> {
            query_values(q).into_iter().map(|(r, v)| (String::from(&q[r]), v)).collect()
        };
        assert_eq!(kinds("close issue #7 now"), [("#7".into(), QueryValue::Number)]);
        assert_eq!(kinds("reassign ENG-123 to Sara"), [("ENG-123".into(), QueryValue::Key)]);
        assert_eq!(kinds("ban 203.0.113.7, please"), [("203.0.113.7".into(), QueryValue::Ip)]);
        assert_eq!(kinds("who owns example.com?"), [("example.com".into(), QueryValue::Domain)]);
        assert_eq!(kinds("point api.example.com's record"), [("api.example.com".into(), QueryValue::Domain)]);
        assert_eq!(kinds("mail bob@example.com"), [("bob@example.com".into(), QueryValue::Email)]);
        assert_eq!(kinds("open (https://x.io/a)"), [("https://x.io/a".into(), QueryValue::Url)]);
        assert_eq!(kinds("show ~/app/config.yaml"), [("~/app/config.yaml".into(), QueryValue::Path)]);
        assert_eq!(kinds("bill $50 now"), [("$50".into(), QueryValue::Number)]);
        assert!(kinds("deploy my Node.js app to api_v2010 and zones-get").is_empty());
    }

    #[test]
    fn html_is_left_out() {
        assert_eq!(strip_html("<p>Returns a <a href=\"x\">list</a> &amp; more</p>"), " Returns a  list    more ");
        assert_eq!(strip_html("a < b and c > d"), "a < b and c > d");
        assert_eq!(strip_html("AT&T rocks"), "AT&T rocks");
    }

    #[test]
    fn collections_are_told_from_items() {
        let w = |s: &str| words(s, true);
        assert!(lists_a_collection(&w("zones-get")));
        assert!(lists_a_collection(&w("GetCustomers")));
        assert!(lists_a_collection(&w("accounts-0-members-get")));
        assert!(!lists_a_collection(&w("zones-0-get")));
        assert!(!lists_a_collection(&w("GetCustomersCustomer")));
        assert!(!lists_a_collection(&w("get_status")));
        assert!(!lists_a_collection(&w("zones-post")));
    }
}
