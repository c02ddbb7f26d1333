//! Provider names (layer: below the catalog): the names and namespaces a request sends must match
//! `^[a-zA-Z0-9_-]{1,64}$` (Anthropic tools, OpenAI functions and namespaces), while MCP names may
//! hold `.`, `/`, spaces and more. Each scope of names (a request's tools, a search answer's
//! namespaces, one namespace's functions) gets a deterministic, collision-free provider name per
//! name, which maps back.

use alloc::collections::BTreeSet;
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

/// Provider names of one scope: each valid name is its own; each other name (in code-point
/// order) gets [`made_name`], stepped past any name already taken, so no two names of the scope
/// share a provider name. Holds only the names that changed.
#[derive(Clone, Debug, Default)]
pub struct Names {
    /// `(provider name, index of the name in the scope)`, sorted by provider name.
    made: Vec<(String, usize)>,
    /// `(index in the scope, provider name)`, sorted by index.
    by_index: Vec<(usize, String)>,
}

impl Names {
    /// The provider names of `names` (unique within the scope, as given by index), with `taken`
    /// holding names the scope also uses that are not in `names` (e.g. the search tool's).
    pub fn of<'a>(names: impl Iterator<Item = &'a str>, taken: &[&str]) -> Names {
        let names: Vec<&str> = names.collect();
        let mut used: BTreeSet<&str> = names.iter().copied().filter(|n| is_valid(n)).collect();
        used.extend(taken.iter().copied());
        let mut invalid: Vec<(&str, usize)> =
            names.iter().enumerate().filter(|(_, n)| !is_valid(n)).map(|(i, n)| (*n, i)).collect();
        if invalid.is_empty() {
            return Names::default();
        }
        invalid.sort_unstable();
        let mut made_set: BTreeSet<String> = BTreeSet::new();
        let mut by_index = Vec::with_capacity(invalid.len());
        for (name, at) in invalid {
            let mut salt = 0;
            let mut made = made_name(name, salt);
            while used.contains(made.as_str()) || made_set.contains(&made) {
                salt += 1;
                made = made_name(name, salt);
            }
            made_set.insert(made.clone());
            by_index.push((at, made));
        }
        let mut made: Vec<(String, usize)> = by_index.iter().map(|(i, n)| (n.clone(), *i)).collect();
        made.sort_unstable();
        by_index.sort_unstable();
        Names { made, by_index }
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
        let at = self.made.binary_search_by(|(n, _)| n.as_str().cmp(made)).ok()?;
        self.made.get(at).map(|(_, i)| *i)
    }

    /// True when every name of the scope is its own provider name.
    pub fn all_valid(&self) -> bool {
        self.made.is_empty()
    }
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
        let distinct: BTreeSet<&str> = made.iter().copied().collect();
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
