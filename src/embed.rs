//! Semantic retrieval (SPEC §12): what of a deferred tool is embedded (`embedding_text`, its
//! `key`), the vectors a shelf holds for its deferred tools ([`Embeddings`]) and the fusion of a
//! query vector's similarities with the lexical ranking.

use crate::catalog::Tool;
use crate::hash;
use crate::search::tokenize;
use alloc::string::String;

/// Longest description embedded, in code points (MiniLM reads 256 word pieces).
pub const MAX_EMBEDDED_DESCRIPTION_CHARS: usize = 800;

/// The text embedded for a deferred tool: `[server words " "] name words ": " description`.
///
/// Name words are the tool's own (unqualified) name split as the search splits names (separators,
/// case changes, letter/digit), lowercased, joined by single spaces; the same for the server name
/// when there is one. The description is stripped of HTML as the search strips it, its whitespace
/// runs collapsed to one space, trimmed and cut to [`MAX_EMBEDDED_DESCRIPTION_CHARS`] code points.
/// `github create issue: Create a new issue in a GitHub repository.`
pub fn embedding_text(tool: &Tool) -> String {
    embedding_text_of(tool.server.as_deref(), &tool.own_name, &tool.description)
}

/// [`embedding_text`] of a tool's parts: its server (if any), own name and description.
pub fn embedding_text_of(server: Option<&str>, own_name: &str, description: &str) -> String {
    let mut text = String::new();
    if let Some(server) = server {
        push_words(&mut text, server);
    }
    push_words(&mut text, tokenize::strip_mcp_prefix(own_name));
    text.push_str(": ");
    push_description(&mut text, description);
    text
}

/// The key of an embedding text: 16 lowercase hex digits of FNV-1a 64 of its UTF-8 bytes.
pub fn embedding_key(text: &str) -> String {
    let mut key = String::with_capacity(16);
    hash::push_hex(&mut key, hash::fnv1a(text.as_bytes()), 16);
    key
}

/// Pushes the words of `name`, lowercased, each after a space when `text` already holds some.
fn push_words(text: &mut String, name: &str) {
    for word in tokenize::words(name, true) {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(&word);
    }
}

/// Pushes `description` without HTML, whitespace runs as one space, trimmed, cut.
fn push_description(text: &mut String, description: &str) {
    let stripped = tokenize::strip_html(description);
    let mut pending_space = false;
    let mut count = 0;
    for c in stripped.chars() {
        if c.is_whitespace() {
            pending_space = count > 0;
            continue;
        }
        if count >= MAX_EMBEDDED_DESCRIPTION_CHARS {
            break;
        }
        if pending_space {
            if count + 1 >= MAX_EMBEDDED_DESCRIPTION_CHARS {
                break;
            }
            text.push(' ');
            count += 1;
            pending_space = false;
        }
        text.push(c);
        count += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_is_server_and_name_words_then_the_description() {
        let text = embedding_text_of(Some("github"), "create_issue", "Create a new issue\n in a GitHub repository. ");
        assert_eq!(text, "github create issue: Create a new issue in a GitHub repository.");
        assert_eq!(embedding_text_of(None, "getHTMLPage", "<p>Fetch &amp; read</p>"), "get html page: Fetch read");
        assert_eq!(embedding_key("a"), "af63dc4c8601ec8c");
    }

    #[test]
    fn the_description_is_cut_to_its_length_without_a_trailing_space() {
        let long = "ab ".repeat(1000);
        let text = embedding_text_of(None, "x", &long);
        let description = text.strip_prefix("x: ").unwrap();
        assert!(description.chars().count() <= MAX_EMBEDDED_DESCRIPTION_CHARS);
        assert!(!description.ends_with(' ') && description.starts_with("ab ab"));
    }
}
