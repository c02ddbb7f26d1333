//! describe (SPEC §5): a deferred tool's whole description and schema; and the closest names to a
//! name that is not in the toolbox, for messages that help the model recover from a typo.
//!
//! Layer 8 of ARCHITECTURE.md's Layers: imports only the rooms of the layers below.

use crate::catalog::Catalog;
use crate::distance::edit_distance_in;
use crate::json::Value;
use alloc::string::String;
use alloc::vec::Vec;

/// How many names a "did you mean" suggestion offers.
pub const MAX_SUGGESTIONS: usize = 3;
/// Names are compared on at most this many code points (bounds the edit-distance work).
const COMPARE_MAX: usize = 96;

/// A deferred tool as the model loads it.
#[derive(Clone, Debug, PartialEq)]
pub struct Described {
    /// The name the model knows.
    pub name: String,
    /// Its server.
    pub server: String,
    /// The whole description.
    pub description: String,
    /// The whole parameters schema (`{}` when the tool has none).
    pub parameters: Value,
}

impl Described {
    /// `{name, server, description, parameters}` as JSON, what the model reads.
    pub fn to_value(&self) -> Value {
        Value::object([
            ("name", Value::str(self.name.as_str())),
            ("server", Value::str(self.server.as_str())),
            ("description", Value::str(self.description.as_str())),
            ("parameters", self.parameters.clone()),
        ])
    }
}

/// The deferred tool named `name` (trimmed), or `None` for a direct tool or an unknown name.
pub fn describe(catalog: &Catalog, name: &str) -> Option<Described> {
    let tool = catalog.lookup(name.trim()).filter(|t| t.deferred)?;
    Some(Described {
        name: tool.name.clone(),
        server: tool.server.clone().unwrap_or_default(),
        description: tool.description.clone(),
        parameters: tool.schema(catalog.format).unwrap_or_else(|| Value::Object(Vec::new())),
    })
}

/// Up to three tool names closest to `wanted`: names that end with it (or whose own name it ends
/// with) first, then by edit distance; only names within a distance of about a third of the
/// length. Ties by name.
pub fn closest_names<'a>(catalog: &'a Catalog, wanted: &str) -> Vec<&'a str> {
    let wanted = lowercase_prefix(wanted.trim());
    if wanted.is_empty() {
        return Vec::new();
    }
    let limit = (wanted.len() / 3).max(2);
    // Buffers reused for every tool: the comparison allocates nothing per tool.
    let mut scratch = Scratch::default();
    // The closest few by (distance, name), kept in order as they come: what a stable sort of all
    // of them would put first, without a sort instantiated for it in the `.wasm`.
    let mut closest: Vec<(usize, &str)> = Vec::with_capacity(MAX_SUGGESTIONS + 1);
    for tool in &catalog.tools {
        lowercase_prefix_into(&tool.name, &mut scratch.name);
        lowercase_prefix_into(&tool.own_name, &mut scratch.own);
        let suffix = ends_with(&scratch.name, &wanted) || ends_with(&wanted, &scratch.own);
        // A typo of the tool's own name (the listing shows it after the server's prefix) counts as
        // one of its shown name.
        let distance =
            if suffix { 0 } else { scratch.edit_distance(&wanted, limit).min(scratch.own_distance(&wanted, limit)) };
        if distance <= limit {
            keep_closest(&mut closest, (distance, tool.name.as_str()));
        }
    }
    closest.into_iter().map(|(_, name)| name).collect()
}

/// Puts `scored` into `closest` (sorted, at most [`MAX_SUGGESTIONS`]) after every pair not
/// greater, dropping what falls past the end.
fn keep_closest<'a>(closest: &mut Vec<(usize, &'a str)>, scored: (usize, &'a str)) {
    let at = closest.partition_point(|kept| *kept <= scored);
    if at < MAX_SUGGESTIONS {
        closest.insert(at, scored);
        closest.truncate(MAX_SUGGESTIONS);
    }
}

/// The first [`COMPARE_MAX`] code points, lowercased, as chars.
fn lowercase_prefix(s: &str) -> Vec<char> {
    let mut out = Vec::new();
    lowercase_prefix_into(s, &mut out);
    out
}

/// [`lowercase_prefix`] into `out`, replacing what it held.
fn lowercase_prefix_into(s: &str, out: &mut Vec<char>) {
    out.clear();
    out.extend(s.chars().take(COMPARE_MAX).flat_map(crate::lowercase::lowercase_chars).take(COMPARE_MAX));
}

/// True when `whole` ends with a non-empty `part`.
fn ends_with(whole: &[char], part: &[char]) -> bool {
    !part.is_empty() && whole.ends_with(part)
}

/// The buffers of one [`closest_names`] pass: a tool's name and own name, and two rows of the
/// edit distance table.
#[derive(Default)]
struct Scratch {
    name: Vec<char>,
    own: Vec<char>,
    previous: Vec<usize>,
    current: Vec<usize>,
}

impl Scratch {
    /// [`edit_distance`] between `a` and the name in `self.name`, in the reused rows.
    fn edit_distance(&mut self, a: &[char], limit: usize) -> usize {
        edit_distance_in(a, &self.name, limit, &mut self.previous, &mut self.current)
    }

    fn own_distance(&mut self, a: &[char], limit: usize) -> usize {
        edit_distance_in(a, &self.own, limit, &mut self.previous, &mut self.current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `keep_closest` over every candidate gives what a stable sort of all of them, cut to
    /// [`MAX_SUGGESTIONS`], gives (ties and repeats included).
    #[test]
    fn keeping_the_closest_is_sorting_and_cutting() {
        let names = ["a", "b", "ab", "ba", "b", "c", "aa"];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for len in 0..40 {
            let scored: Vec<(usize, &str)> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    ((state % 4) as usize, names[(state >> 8) as usize % names.len()])
                })
                .collect();
            let mut sorted = scored.clone();
            sorted.sort();
            sorted.truncate(MAX_SUGGESTIONS);
            let mut closest = Vec::new();
            for pair in scored {
                keep_closest(&mut closest, pair);
            }
            assert_eq!(closest, sorted);
        }
    }

    #[test]
    fn edit_distances() {
        use crate::distance::edit_distance;
        let d = |a: &str, b: &str| edit_distance(&lowercase_prefix(a), &lowercase_prefix(b), 10);
        assert_eq!(d("create_issue", "create_issue"), 0);
        assert_eq!(d("create_isue", "create_issue"), 1);
        assert_eq!(d("list_isues", "list_issues"), 1);
        // A typo of a server tool's own name finds its shown name.
        let toolbox = r#"{"servers":{"filesystem":[{"name":"read_text_file","description":"Read.","inputSchema":{"type":"object"}}]}}"#;
        let catalog = Catalog::parse_json(toolbox, &crate::options::Options::default()).unwrap();
        assert_eq!(closest_names(&catalog, "read_text_fil"), ["mcp__filesystem__read_text_file"]);
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(edit_distance(&lowercase_prefix("abcdefgh"), &lowercase_prefix("zzzzzzzz"), 2), 3);
    }
}
