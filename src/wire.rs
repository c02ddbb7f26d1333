//! Provider names (layer: below the catalog): the names and namespaces a request sends must match
//! `^[a-zA-Z0-9_-]{1,64}$` (Anthropic tools, OpenAI functions and namespaces), while MCP names may
//! hold `.`, `/`, spaces and more. Each scope of names (a request's tools, a search answer's
//! namespaces, one namespace's functions) gets a deterministic, collision-free provider name per
//! name, which maps back.
//!
//! Layer 2 of ARCHITECTURE.md's Layers: imports only `error`, `hash`, `float`, `swar`, `lowercase`, `json`.

use alloc::string::String;
use alloc::vec::Vec;

/// Most code points of a name every provider accepts.
pub const MAX_NAME: usize = 64;

/// Whether `name` is one every provider accepts as it is: 1 to 64 ASCII letters, digits, `-`, `_`.
pub fn is_valid(name: &str) -> bool {
    (1..=MAX_NAME).contains(&name.len()) && safe_prefix_length(name) == name.len()
}

/// The provider name of an invalid `name`: every run of other characters one `_`, cut to leave
/// room for `_` and 8 hex digits of a hash of the whole name (with `salt` > 0 mixed in, to step
/// past a name already taken). Always valid.
fn made_name(name: &str, salt: u32) -> String {
    let mut out = String::with_capacity(MAX_NAME);
    push_safe(&mut out, name);
    out.truncate(MAX_NAME - 9);
    let mut hash = crate::hash::fnv1a(name.as_bytes());
    if salt > 0 {
        hash = crate::hash::fnv1a(&[hash.to_le_bytes(), u64::from(salt).to_le_bytes()].concat());
    }
    out.push('_');
    crate::hash::push_hex(&mut out, hash >> 32, 8);
    out
}

/// The provider name made of `name` alone (what [`Names`] gives it when nothing else in its
/// scope takes that name).
pub fn made(name: &str) -> String {
    made_name(name, 0)
}

/// Longest server part a shown name keeps as it is ([`server_part`]).
const MAX_SERVER_PART: usize = 32;

/// Characters of an unclean server name kept before its hash ([`server_part`]).
const HASHED_SERVER_KEEPS: usize = 20;

/// The name a server's tool is shown under (SPEC §16): `mcp__<S>__<T>`, a pure function of
/// (server, tool), every provider accepts it, and no two (server, tool) pairs share it. `S` is
/// [`server_part`] and `T` [`tool_part`]: `mcp__github__create_issue` for plain names; others end
/// their part with `-` and 8 hex digits of a hash (a plain part never ends so). `S` holds no
/// `__` and never ends with `_`, so the first `__` after `mcp__` ends it.
pub fn tool_name(server: &str, tool: &str) -> String {
    let mut name = String::with_capacity(MAX_NAME);
    push_tool_name(&mut name, server, tool);
    name
}

/// Writes [`tool_name`] into `name`, which is empty.
pub fn push_tool_name(name: &mut String, server: &str, tool: &str) {
    name.push_str("mcp__");
    push_server_part(name, server);
    name.push_str("__");
    let room = MAX_NAME.saturating_sub(name.len());
    push_tool_part(name, server, tool, room);
}

/// The server's part of its tools' names, also its Responses namespace: the server's name when
/// it is plain (ASCII letters, digits and `-`, single `_` between them, at most 32 characters,
/// not ending like a hash); otherwise its plain characters (each other run one `_`), cut to 20,
/// then `-` and 8 hex digits of a hash of the whole name.
pub fn server_part(server: &str) -> String {
    let mut part = String::with_capacity(MAX_SERVER_PART);
    push_server_part(&mut part, server);
    part
}

fn push_server_part(out: &mut String, server: &str) {
    if is_plain_server(server) {
        out.push_str(server);
        return;
    }
    let start = out.len();
    push_collapsed(out, server, HASHED_SERVER_KEEPS);
    if out.len() == start {
        out.push('s');
    }
    out.push('-');
    crate::hash::push_hex(out, crate::hash::fnv1a(server.as_bytes()) >> 32, 8);
}

/// The tool's part of its name, also its function name inside its server's Responses namespace:
/// the tool's own name when every provider accepts it, it fits `room` and it does not end like a
/// hash; otherwise its plain characters (each other run one `_`, "t" if none), cut to fit, then
/// `-` and 8 hex digits of a hash of (server, tool).
pub fn tool_part(server: &str, tool: &str) -> String {
    let mut part = String::with_capacity(MAX_NAME);
    let room = MAX_NAME - 7 - server_part(server).len();
    push_tool_part(&mut part, server, tool, room);
    part
}

fn push_tool_part(out: &mut String, server: &str, tool: &str, room: usize) {
    if !tool.is_empty() && tool.len() <= room && safe_prefix_length(tool) == tool.len() && !ends_like_hash(tool) {
        out.push_str(tool);
        return;
    }
    let start = out.len();
    push_collapsed(out, tool, room.saturating_sub(9));
    if out.len() == start {
        out.push('t');
    }
    let pair = [server.as_bytes(), &[0], tool.as_bytes()].concat();
    out.push('-');
    crate::hash::push_hex(out, crate::hash::fnv1a(&pair) >> 32, 8);
}

/// A server name kept as it is in [`server_part`]: 1 to 32 ASCII letters, digits and `-`, with
/// single `_` between them (none first, last or doubled), not ending like a hash.
fn is_plain_server(server: &str) -> bool {
    (1..=MAX_SERVER_PART).contains(&server.len())
        && safe_prefix_length(server) == server.len()
        && !server.starts_with('_')
        && !server.ends_with('_')
        && crate::swar::find(server.as_bytes(), b"__").is_none()
        && !ends_like_hash(server)
}

/// `text` cut at its first `__`: what is before it and what is after it (in a shown name
/// `mcp__<server>__<tool>`, the first `__` after the prefix ends the server's part).
pub fn split_at_separator(text: &str) -> Option<(&str, &str)> {
    let at = crate::swar::find(text.as_bytes(), b"__")?;
    Some((text.get(..at)?, text.get(at + 2..)?))
}

/// Whether `text` ends with `-` and 8 lowercase hex digits, the tail of a hashed part.
pub fn ends_like_hash(text: &str) -> bool {
    let bytes = text.as_bytes();
    let Some(tail) = bytes.len().checked_sub(9).and_then(|at| bytes.get(at..)) else { return false };
    tail.first() == Some(&b'-') && tail.iter().skip(1).all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Pushes the ASCII letters, digits and `-` of `text`, each run of other characters one `_`,
/// with no `_` first or last, at most `most` characters.
fn push_collapsed(out: &mut String, text: &str, most: usize) {
    let start = out.len();
    let mut gap = false;
    for c in text.chars() {
        if out.len() - start >= most {
            break;
        }
        if c.is_ascii_alphanumeric() || c == '-' {
            if gap && out.len() > start {
                out.push('_');
            }
            gap = false;
            out.push(c);
        } else {
            gap = true;
        }
    }
    // A `_` is only pushed before a kept character: the cut to `most` alone can leave one last.
    out.truncate(start + most.min(out.len() - start));
    while out.len() > start && out.ends_with('_') {
        out.pop();
    }
}

/// Provider names of one scope: each valid name is its own; each other name gets one made of it ([`made`]),
/// made again with a salt while it is taken (by a valid name of the scope, a name in `taken`, or
/// another made name: the one whose original comes first in code-point order keeps it), so no
/// two names of the scope share a provider name. Holds only the names that changed.
#[derive(Clone, Debug, Default)]
pub struct Names {
    /// `(index of the name in the scope, provider name)`, in index order.
    by_index: Vec<(usize, String)>,
    /// The same pairs by provider name, for [`Names::index_of`].
    by_made: Keyed,
}

impl Names {
    /// The provider names of `names` (unique within the scope, as given by index), with `taken`
    /// holding names the scope also uses that are not in `names` (e.g. the search tool's).
    pub fn of<'a>(names: impl Iterator<Item = &'a str>, taken: &[&str]) -> Names {
        Names::of_slice(&names.collect::<Vec<&str>>(), taken)
    }

    /// [`Names::of`] of names in a slice (one copy of the code, whatever the iterator).
    #[inline(never)]
    fn of_slice(names: &[&str], taken: &[&str]) -> Names {
        let mut by_index: Vec<(usize, String)> =
            names.iter().enumerate().filter(|(_, n)| !is_valid(n)).map(|(i, n)| (i, made_name(n, 0))).collect();
        if by_index.is_empty() {
            return Names::default();
        }
        // Names every made one must avoid: the scope's valid names and `taken`.
        let mut kept: Vec<(&str, usize)> = names.iter().filter(|n| is_valid(n)).map(|n| (*n, 0)).collect();
        kept.extend(taken.iter().map(|n| (*n, 0)));
        crate::swar::sort_names(&mut kept);
        let mut salt = 0u32;
        while let Some(clashing) = clashes(&by_index, names, &kept) {
            salt += 1;
            for at in clashing {
                if let Some((i, made)) = by_index.get_mut(at) {
                    *made = made_name(names.get(*i).copied().unwrap_or_default(), salt);
                }
            }
        }
        let by_made = Keyed::of(by_index.iter().map(|(i, made)| (made.clone(), *i)).collect());
        Names { by_index, by_made }
    }

    /// The provider name of the scope's name at `index` (`name` itself when it is valid).
    pub fn of_index<'a>(&'a self, index: usize, name: &'a str) -> &'a str {
        match self.by_index.binary_search_by(|(i, _)| i.cmp(&index)) {
            Ok(at) => self.by_index.get(at).map_or(name, |(_, made)| made.as_str()),
            Err(_) => name,
        }
    }

    /// The index of the name whose provider name is `made`, when it is a made one.
    pub fn index_of(&self, made: &str) -> Option<usize> {
        self.by_made.find(made).next()
    }
}

/// Strings each standing for an index, found by string in O(log n): what a lookup of names made
/// for a whole catalog needs (sorted once, by the crate's one sort of names).
#[derive(Clone, Debug, Default)]
pub struct Keyed {
    /// `(key, index)` pairs.
    pairs: Vec<(String, usize)>,
    /// Positions in `pairs`, in code-point order of keys (then position).
    order: Vec<usize>,
}

impl Keyed {
    /// The pairs, to be found by key.
    pub fn of(pairs: Vec<(String, usize)>) -> Keyed {
        let mut order: Vec<(&str, usize)> = pairs.iter().enumerate().map(|(at, (k, _))| (k.as_str(), at)).collect();
        crate::swar::sort_names(&mut order);
        let order = order.into_iter().map(|(_, at)| at).collect();
        Keyed { pairs, order }
    }

    /// The indexes whose key is `key`.
    pub fn find<'a>(&'a self, key: &'a str) -> impl Iterator<Item = usize> + 'a {
        let key_at = |at: &usize| self.pairs.get(*at).map_or("", |(k, _)| k.as_str());
        let first =
            self.order.partition_point(|at| crate::swar::compare(key_at(at).as_bytes(), key.as_bytes()).is_lt());
        let run = self.order.iter().skip(first).take_while(move |at| key_at(at) == key);
        run.filter_map(|at| self.pairs.get(*at).map(|(_, i)| *i))
    }
}

/// The positions in `made` of the made names that are taken: equal to a kept name, or to a made
/// name of an original earlier in code-point order. `None` when none is.
fn clashes(made: &[(usize, String)], names: &[&str], kept: &[(&str, usize)]) -> Option<Vec<usize>> {
    // (made name, position in `made`), sorted; equal made names then in position order, which
    // for the sort below is the originals' code-point order.
    let mut order: Vec<(&str, usize)> = made.iter().enumerate().map(|(at, (_, m))| (m.as_str(), at)).collect();
    crate::swar::sort_names(&mut order);
    let mut clashing = Vec::new();
    for (k, &(name, at)) in order.iter().enumerate() {
        let taken = crate::swar::last_named(kept, name).is_some();
        let earlier = order.iter().take(k).rev().take_while(|(n, _)| *n == name).any(|&(_, other)| {
            let original = |p: usize| made.get(p).and_then(|(i, _)| names.get(*i)).copied().unwrap_or_default();
            original(other) < original(at)
        });
        let later_first = order.iter().skip(k + 1).take_while(|(n, _)| *n == name).any(|&(_, other)| {
            let original = |p: usize| made.get(p).and_then(|(i, _)| names.get(*i)).copied().unwrap_or_default();
            original(other) < original(at)
        });
        if taken || earlier || later_first {
            clashing.push(at);
        }
    }
    (!clashing.is_empty()).then_some(clashing)
}

/// Pushes `text` with every character but ASCII letters, digits, `-` and `_` written as one `_`:
/// runs of those characters in one copy each.
pub fn push_safe(name: &mut String, text: &str) {
    let mut rest = text;
    loop {
        let run = safe_prefix_length(rest);
        name.push_str(rest.get(..run).unwrap_or_default());
        let mut after = rest.get(run..).unwrap_or_default().chars();
        if after.next().is_none() {
            return;
        }
        name.push('_');
        rest = after.as_str();
    }
}

/// The bytes a provider name keeps as they are: ASCII letters, digits, `-` and `_`.
const SAFE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = matches!(b as u8, b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_');
        b += 1;
    }
    table
};

/// The length of the leading ASCII letters, digits, `-` and `_` of `text`.
fn safe_prefix_length(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut length = 0;
    while bytes.get(length).is_some_and(|&b| SAFE[usize::from(b)]) {
        length += 1;
    }
    length
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_names_stay_and_others_become_valid_and_distinct() {
        let scope = ["list_issues", "user-profile/update", "user-profile.update", "Github.Get File", "查询"];
        let names = Names::of(scope.iter().copied(), &["tool_search"]);
        let made: Vec<&str> = scope.iter().enumerate().map(|(i, n)| names.of_index(i, n)).collect();
        assert_eq!(made[0], "list_issues");
        assert!(made.iter().all(|n| is_valid(n)), "{made:?}");
        let mut distinct = made.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), scope.len());
        assert!(made[1].starts_with("user-profile_update_"));
        for (i, n) in made.iter().enumerate().skip(1) {
            assert_eq!(names.index_of(n), Some(i));
        }
        assert_eq!(names.index_of("list_issues"), None);
    }

    #[test]
    fn a_made_name_steps_past_a_taken_one() {
        let first = made_name("a.b", 0);
        let scope = ["a.b", first.as_str()];
        let names = Names::of(scope.iter().copied(), &[]);
        assert_eq!(names.of_index(1, &first), first);
        let other = names.of_index(0, "a.b");
        assert_ne!(other, first);
        assert!(is_valid(other));
    }

    #[test]
    fn long_names_are_cut_with_a_hash() {
        let long = "x".repeat(100);
        let names = Names::of([long.as_str()].into_iter(), &[]);
        let made = names.of_index(0, &long);
        assert_eq!(made.len(), MAX_NAME);
        assert!(is_valid(made));
    }
}
