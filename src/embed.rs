//! Semantic retrieval (SPEC §12): what of a deferred tool is embedded (`embedding_text`, its
//! `key`), the vectors a shelf holds for its deferred tools ([`Embeddings`]) and the fusion of a
//! query vector's similarities with the lexical ranking.

use crate::catalog::Tool;
use crate::error::{Error, ErrorCode};
use crate::find::SearchResult;
use crate::hash;
use crate::search::{tokenize, Hit};
use crate::shelf::Shelf;
use alloc::string::String;
use alloc::vec::Vec;

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

/// Most dimensions of one vector (bge-m3 and OpenAI's large model have 1,024 and 3,072).
pub const MAX_DIMENSIONS: usize = 4_096;

/// The vectors of a shelf's deferred tools (document `d` is the `d`-th deferred tool), all of one
/// model and one dimension, stored contiguous as int8: each vector is made unit length, then
/// scaled so that its largest component is ±127 (`scales[d]` is that factor's inverse; 0 when the
/// tool has no vector). A query is quantised the same way, and a similarity is one integer dot
/// product times the two scales: exact, the same on every platform, and a loop the compiler
/// vectorises.
#[derive(Clone, Debug, PartialEq)]
pub struct Embeddings {
    model: String,
    dimensions: usize,
    /// The key of each document's embedding text ([`embedding_key`] as a number).
    keys: Vec<u64>,
    values: Vec<i8>,
    scales: Vec<f32>,
}

/// An `invalid_embeddings` error.
fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidEmbeddings, message)
}

/// The key's number (its 16 hex digits), `None` for anything else.
pub(crate) fn key_number(key: &str) -> Option<u64> {
    (key.len() == 16).then(|| u64::from_str_radix(key, 16).ok()).flatten()
}

impl Embeddings {
    /// No vectors yet for documents keyed `keys`, of `model` and `dimensions`.
    pub fn empty(model: &str, dimensions: usize, keys: Vec<u64>) -> Result<Embeddings, Error> {
        if model.trim().is_empty() {
            return Err(invalid("embeddings need a model name (a non-empty string)"));
        }
        if dimensions == 0 || dimensions > MAX_DIMENSIONS {
            return Err(invalid(alloc::format!("a vector of {dimensions} dimensions (1..={MAX_DIMENSIONS})")));
        }
        let values = alloc::vec![0i8; keys.len().saturating_mul(dimensions)];
        let scales = alloc::vec![0.0f32; keys.len()];
        Ok(Embeddings { model: String::from(model), dimensions, keys, values, scales })
    }

    /// The model name.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// The dimension of every vector.
    pub fn dimensions(&self) -> usize {
        self.dimensions
    }

    /// How many documents have a vector.
    pub fn count(&self) -> usize {
        self.scales.iter().filter(|&&s| s > 0.0).count()
    }

    /// Checks that `model` and `dimensions` are this set's.
    pub fn check(&self, model: &str, dimensions: usize) -> Result<(), Error> {
        if model != self.model || dimensions != self.dimensions {
            let held = (&self.model, self.dimensions);
            return Err(invalid(alloc::format!(
                "vectors of {model:?} with {dimensions} dimensions, but this shelf's are {:?} with {}",
                held.0,
                held.1
            )));
        }
        Ok(())
    }

    /// Stores `vector` (of [`Embeddings::dimensions`] components) as document `doc`'s.
    /// `what` names the vector in an error.
    pub fn set(&mut self, doc: usize, vector: &[f32], what: &dyn Fn() -> String) -> Result<(), Error> {
        let (row, scale) =
            quantised(vector, self.dimensions).map_err(|reason| invalid(alloc::format!("{}: {reason}", what())))?;
        let start = doc.saturating_mul(self.dimensions);
        let (Some(slot), Some(s)) = (self.values.get_mut(start..start + self.dimensions), self.scales.get_mut(doc))
        else {
            return Ok(());
        };
        slot.copy_from_slice(&row);
        *s = scale;
        Ok(())
    }

    /// `(key, document)` of every document, sorted by key.
    pub fn sorted_keys(&self) -> Vec<(u64, u32)> {
        let mut sorted: Vec<(u64, u32)> = self.keys.iter().enumerate().map(|(d, &k)| (k, d as u32)).collect();
        sorted.sort_unstable();
        sorted
    }

    /// This set carried over to documents keyed `keys` (a shelf's deferred tools after an update):
    /// a document keeps the vector of a document of the same key, any other has none.
    pub fn rekeyed(&self, keys: Vec<u64>) -> Embeddings {
        let sorted = self.sorted_keys();
        let mut next = Embeddings {
            model: self.model.clone(),
            dimensions: self.dimensions,
            values: alloc::vec![0i8; keys.len().saturating_mul(self.dimensions)],
            scales: alloc::vec![0.0f32; keys.len()],
            keys,
        };
        let dims = self.dimensions;
        for doc in 0..next.keys.len() {
            let key = next.keys.get(doc).copied().unwrap_or_default();
            let old = sorted.get(sorted.partition_point(|&(k, _)| k < key)).filter(|&&(k, _)| k == key);
            let Some(&(_, old)) = old else { continue };
            let old = old as usize;
            let (Some(from), Some(&scale)) = (self.values.get(old * dims..old * dims + dims), self.scales.get(old))
            else {
                continue;
            };
            if let (Some(to), Some(s)) = (next.values.get_mut(doc * dims..doc * dims + dims), next.scales.get_mut(doc))
            {
                to.copy_from_slice(from);
                *s = scale;
            }
        }
        next
    }

    /// The cosine similarity of `query` with every document's vector, in document order
    /// (`f32::NEG_INFINITY` for a document without one).
    pub fn similarities(&self, query: &[f32]) -> Result<Vec<f32>, Error> {
        if query.len() != self.dimensions {
            return Err(invalid(alloc::format!(
                "a query vector of {} dimensions, but this shelf's vectors ({:?}) have {}",
                query.len(),
                self.model,
                self.dimensions
            )));
        }
        let (q, q_scale) = quantised(query, self.dimensions)
            .map_err(|reason| invalid(alloc::format!("the query vector: {reason}")))?;
        let mut out = Vec::with_capacity(self.scales.len());
        for (row, &scale) in self.values.chunks_exact(self.dimensions).zip(&self.scales) {
            let similarity = if scale > 0.0 { dot(row, &q) as f32 * scale * q_scale } else { f32::NEG_INFINITY };
            out.push(similarity);
        }
        Ok(out)
    }
}

/// The integer dot product of two int8 vectors: one flat loop the compiler vectorises.
fn dot(a: &[i8], b: &[i8]) -> i32 {
    let mut sum = 0i32;
    for (x, y) in a.iter().zip(b) {
        sum += i32::from(*x) * i32::from(*y);
    }
    sum
}

/// `vector` made unit length and scaled to int8 (largest component ±127), and the factor back.
fn quantised(vector: &[f32], dimensions: usize) -> Result<(Vec<i8>, f32), String> {
    if vector.len() != dimensions {
        return Err(alloc::format!("{} dimensions, not {dimensions}", vector.len()));
    }
    if vector.iter().any(|x| !x.is_finite()) {
        return Err(String::from("a component that is not a finite number"));
    }
    let norm = vector.iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>().sqrt();
    let largest = vector.iter().fold(0.0f64, |m, &x| m.max(f64::from(x).abs()));
    if norm == 0.0 || largest == 0.0 {
        return Err(String::from("a zero vector (no direction to compare)"));
    }
    let to_int = 127.0 / largest;
    let row = vector.iter().map(|&x| (f64::from(x) * to_int).round() as i8).collect();
    Ok((row, (largest / 127.0 / norm) as f32))
}

/// How a query's similarities are fused with the lexical ranking (SPEC §12): each candidate's
/// lexical score over the best lexical score, weighted `lexical`, plus its similarity over the
/// range of the best `candidates` similarities (the `candidates`-th is 0, the best 1), weighted
/// `1 − lexical`, over the union of the lexical hits and the `candidates` most similar tools.
/// The measurements behind the defaults are in docs/search.md.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fusion {
    /// The weight of the lexical score (0..=1).
    pub lexical: f64,
    /// How many of the most similar tools join the candidates.
    pub candidates: usize,
    /// Reciprocal-rank fusion with this `k` in place of weighted scores (the ablation; 0 = off).
    pub rrf_k: f64,
}

impl Default for Fusion {
    fn default() -> Fusion {
        Fusion { lexical: 0.5, candidates: 20, rrf_k: 0.0 }
    }
}

impl Fusion {
    /// `hits` (the lexical candidates, exact names marked) fused with `similarities` (per
    /// document): every lexical hit keeps its verdict (exact, full or partial), and a tool only
    /// similar is a partial match.
    pub fn fuse(&self, mut hits: Vec<(bool, Hit)>, similarities: &[f32]) -> Vec<(bool, Hit)> {
        let nearest = nearest(similarities, self.candidates.max(1));
        let (Some(&best), Some(&floor)) =
            (nearest.first().and_then(|&d| similarities.get(d)), nearest.last().and_then(|&d| similarities.get(d)))
        else {
            return hits;
        };
        let mut is_hit = alloc::vec![false; similarities.len()];
        for (_, hit) in &hits {
            if let Some(h) = is_hit.get_mut(hit.doc) {
                *h = true;
            }
        }
        for &doc in &nearest {
            if is_hit.get(doc) == Some(&false) {
                hits.push((false, Hit { doc, score: 0.0, partial: true }));
            }
        }
        if self.rrf_k > 0.0 {
            self.reciprocal_ranks(&mut hits, &nearest);
            return hits;
        }
        let top = hits.iter().filter(|(exact, _)| !exact).fold(0.0f64, |m, (_, h)| m.max(h.score));
        let range = f64::from(best - floor).max(f64::EPSILON);
        let lexical = self.lexical.clamp(0.0, 1.0);
        for (_, hit) in hits.iter_mut() {
            let sim = similarities.get(hit.doc).copied().unwrap_or(f32::NEG_INFINITY);
            let near = if sim.is_finite() { (f64::from(sim - floor) / range).clamp(0.0, 1.0) } else { 0.0 };
            let lex = if top > 0.0 { hit.score / top } else { 0.0 };
            hit.score = lexical * lex + (1.0 - lexical) * near;
        }
        hits
    }

    /// Reciprocal-rank fusion: `1/(k + lexical rank) + 1/(k + similarity rank)`, a list's term 0
    /// for a tool not in it.
    fn reciprocal_ranks(&self, hits: &mut [(bool, Hit)], nearest: &[usize]) {
        let mut lexical: Vec<usize> =
            (0..hits.len()).filter(|&i| hits.get(i).is_some_and(|(_, h)| h.score > 0.0)).collect();
        let score = |i: usize| hits.get(i).map_or(0.0, |(_, h)| h.score);
        lexical.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
        let mut fused = alloc::vec![0.0f64; hits.len()];
        for (rank, &i) in lexical.iter().enumerate() {
            if let Some(f) = fused.get_mut(i) {
                *f += 1.0 / (self.rrf_k + rank as f64 + 1.0);
            }
        }
        for (i, (_, hit)) in hits.iter_mut().enumerate() {
            if let Some(rank) = nearest.iter().position(|&d| d == hit.doc) {
                if let Some(f) = fused.get_mut(i) {
                    *f += 1.0 / (self.rrf_k + rank as f64 + 1.0);
                }
            }
            hit.score = fused.get(i).copied().unwrap_or(0.0);
        }
    }
}

/// The `k` documents most similar (with a vector), most similar first; ties by document.
fn nearest(similarities: &[f32], k: usize) -> Vec<usize> {
    let mut docs: Vec<usize> =
        (0..similarities.len()).filter(|&d| similarities.get(d).is_some_and(|s| s.is_finite())).collect();
    let sim = |d: usize| similarities.get(d).copied().unwrap_or(f32::NEG_INFINITY);
    let order = |a: &usize, b: &usize| sim(*b).total_cmp(&sim(*a)).then(a.cmp(b));
    if docs.len() > k {
        docs.select_nth_unstable_by(k - 1, order);
        docs.truncate(k);
    }
    docs.sort_unstable_by(order);
    docs
}

/// The vectors a caller gives [`Shelf::set_embeddings`]: `dimensions` components per vector,
/// one after another in `values`, in the order of [`Shelf::embedding_texts`] or of `keys`.
#[derive(Clone, Copy, Debug)]
pub struct Vectors<'a> {
    /// The model's name; every vector of a shelf has one.
    pub model: &'a str,
    /// Components per vector.
    pub dimensions: usize,
    /// The vectors' components, contiguous.
    pub values: &'a [f32],
    /// The key of each vector ([`Shelf::embedding_texts`]); `None`: one vector per deferred
    /// tool, in order.
    pub keys: Option<&'a [String]>,
}

impl Shelf {
    /// The key of each deferred tool's embedding text, as numbers, in order.
    pub(crate) fn embedding_keys(&self) -> Vec<u64> {
        self.catalog.deferred().map(|t| hash::fnv1a(embedding_text(t).as_bytes())).collect()
    }

    /// Sets the deferred tools' vectors (SPEC §12). In texts order (no `keys`) there must be one
    /// per deferred tool, and they replace every vector the shelf held, whatever their model; by
    /// key, they are added to the shelf's (of the same model and dimension), a key no deferred
    /// tool has is ignored, and a tool without a vector is ranked lexically. `update` keeps the
    /// vectors of the tools whose text is unchanged. On error the shelf is unchanged.
    pub fn set_embeddings(&mut self, vectors: Vectors<'_>) -> Result<(), Error> {
        let Vectors { model, dimensions, values, keys } = vectors;
        let given = values.len().checked_div(dimensions).unwrap_or(0);
        if dimensions == 0 || given.saturating_mul(dimensions) != values.len() {
            return Err(invalid(alloc::format!("{} numbers are not vectors of {dimensions} dimensions", values.len())));
        }
        let rows = values.chunks_exact(dimensions);
        let embeddings = match keys {
            None => {
                let mut next = Embeddings::empty(model, dimensions, self.embedding_keys())?;
                if given != next.keys.len() {
                    return Err(invalid(alloc::format!(
                        "{given} vectors for {} deferred tools (in embeddingTexts order)",
                        next.keys.len()
                    )));
                }
                for (doc, row) in rows.enumerate() {
                    next.set(doc, row, &|| alloc::format!("vector {doc}"))?;
                }
                next
            }
            Some(keys) => {
                if keys.len() != given {
                    return Err(invalid(alloc::format!("{} keys for {given} vectors", keys.len())));
                }
                let mut next = match &self.embeddings {
                    Some(held) => {
                        held.check(model, dimensions)?;
                        held.clone()
                    }
                    None => Embeddings::empty(model, dimensions, self.embedding_keys())?,
                };
                let sorted = next.sorted_keys();
                for (key, row) in keys.iter().zip(rows) {
                    let number = key_number(key)
                        .ok_or_else(|| invalid(alloc::format!("{key:?} is not a key (16 hex digits)")))?;
                    let start = sorted.partition_point(|&(k, _)| k < number);
                    for &(_, doc) in sorted.get(start..).unwrap_or(&[]).iter().take_while(|&&(k, _)| k == number) {
                        next.set(doc as usize, row, &|| alloc::format!("the vector of {key}"))?;
                    }
                }
                next
            }
        };
        self.embeddings = Some(embeddings);
        Ok(())
    }

    /// Drops every vector: searches are lexical again.
    pub fn clear_embeddings(&mut self) {
        self.embeddings = None;
    }

    /// The vectors the shelf holds.
    pub fn embeddings(&self) -> Option<&Embeddings> {
        self.embeddings.as_ref()
    }

    /// [`Shelf::search`] with the query's embedding fused into the ranking (SPEC §12). Without a
    /// vector, the lexical search. A vector of another dimension than the shelf's, or one given
    /// to a shelf without vectors, is `invalid_embeddings`.
    pub fn search_with_vector(
        &self,
        query: &str,
        limit: Option<usize>,
        vector: Option<&[f32]>,
    ) -> Result<SearchResult, Error> {
        self.search_fused(query, limit, vector, &Fusion::default())
    }

    /// [`Shelf::search_with_vector`] with another fusion (for the measurements).
    pub fn search_fused(
        &self,
        query: &str,
        limit: Option<usize>,
        vector: Option<&[f32]>,
        fusion: &Fusion,
    ) -> Result<SearchResult, Error> {
        let Some(vector) = vector else { return Ok(self.search(query, limit)) };
        let embeddings = self
            .embeddings
            .as_ref()
            .ok_or_else(|| invalid("a query vector for a shelf without embeddings (setEmbeddings first)"))?;
        let similarities = embeddings.similarities(vector)?;
        let (index, documents) = self.prepared_index();
        let limit = limit.unwrap_or(self.options.search_default_limit).clamp(1, self.options.max_search_limit);
        Ok(crate::find::search(&self.catalog, index, documents, query, limit, Some((&similarities, fusion))))
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
