//! Semantic retrieval (SPEC §12): what of a deferred tool is embedded (`embedding_text`, its
//! `key`), the vectors a shelf holds for its deferred tools ([`Embeddings`]) and the fusion of a
//! query vector's similarities with the lexical ranking.

use super::intern::StrMap;
use super::{tokenize, Hit};
use crate::catalog::Tool;
use crate::error::{Error, ErrorCode};
use crate::hash;
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
pub(crate) fn push_words(text: &mut String, name: &str) {
    for word in tokenize::words(name, true) {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(&word);
    }
}

/// Pushes `description` without HTML, whitespace runs as one space, trimmed, cut.
pub(crate) fn push_description(text: &mut String, description: &str) {
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
    pub(crate) model: String,
    pub(crate) dimensions: usize,
    /// The key of each document's embedding text ([`embedding_key`] as a number).
    pub(crate) keys: Vec<u64>,
    pub(crate) values: Vec<i8>,
    pub(crate) scales: Vec<f32>,
}

/// An `invalid_embeddings` error.
pub(crate) fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidEmbeddings, message)
}

/// `invalid_embeddings`: "`given` `what` `wanted`" ("3 vectors for 4").
pub(crate) fn counts(what: &str, given: usize, wanted: usize) -> Error {
    invalid(alloc::format!("{given} {what} {wanted}"))
}

/// `invalid_embeddings`: "`what`: `reason`".
pub(crate) fn named(what: &str, reason: &str) -> Error {
    invalid(alloc::format!("{what}: {reason}"))
}

/// Why `vector` has no direction to compare (empty, a component NaN or infinite, all zero), or
/// `None`: the first component at fault is named.
pub(crate) fn unusable(vector: &[f32]) -> Option<String> {
    if vector.is_empty() {
        return Some(String::from("empty"));
    }
    for (i, x) in vector.iter().enumerate() {
        if x.is_nan() {
            return Some(alloc::format!("component {i} is NaN"));
        }
        if x.is_infinite() {
            return Some(alloc::format!("component {i} is infinite"));
        }
    }
    vector.iter().all(|&x| x == 0.0).then(|| String::from("all zero (no direction to compare)"))
}

/// `text`'s first `most` code points.
pub(crate) fn cut(text: &str, most: usize) -> &str {
    text.char_indices().nth(most).map_or(text, |(end, _)| text.get(..end).unwrap_or(text))
}

/// A query or model as a message names it: JSON-quoted, cut to 80 code points.
pub(crate) fn quoted(text: &str) -> String {
    crate::json::Value::str(cut(text, 80)).to_json()
}

/// How an error names vector `i`: by its key (`vector 0123456789abcdef`), or its place.
pub(crate) fn vector_name(keys: Option<&[String]>, i: usize) -> String {
    match keys.and_then(|k| k.get(i)) {
        Some(key) => alloc::format!("vector {}", cut(key, 40)),
        None => alloc::format!("vector {i}"),
    }
}

/// The keys' map to the first document of each (texts, and so keys, may repeat).
pub(crate) fn key_map(keys: &[u64]) -> StrMap {
    let mut map = StrMap::default();
    let mut hex = String::new();
    for (doc, &key) in keys.iter().enumerate() {
        hex.clear();
        hash::push_hex(&mut hex, key, 16);
        if map.get(&hex).is_none() {
            map.insert(&hex, doc as u32);
        }
    }
    map
}

impl Embeddings {
    /// No vectors yet for documents keyed `keys`, of `model` and `dimensions`.
    pub fn empty(model: &str, dimensions: usize, keys: Vec<u64>) -> Result<Embeddings, Error> {
        if model.trim().is_empty() {
            return Err(invalid("embeddings need a model name"));
        }
        if dimensions == 0 || dimensions > MAX_DIMENSIONS {
            return Err(invalid(alloc::format!("{dimensions} dimensions: a vector has 1 to {MAX_DIMENSIONS}")));
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

    /// A vector of `dimensions` is of this set's dimension, else `invalid_embeddings`.
    fn check_dimensions(&self, dimensions: usize) -> Result<(), Error> {
        if dimensions == self.dimensions {
            return Ok(());
        }
        Err(counts("dimensions, but the shelf's vectors have", dimensions, self.dimensions))
    }

    /// Why a query vector cannot be compared with this set's (another dimension, empty, not
    /// finite, all zero), or `Ok`.
    pub fn check_query(&self, query: &[f32]) -> Result<(), String> {
        if query.len() != self.dimensions {
            return Err(alloc::format!("{} dimensions, but the shelf's vectors have {}", query.len(), self.dimensions));
        }
        unusable(query).map_or(Ok(()), Err)
    }

    /// Stores `vector` as document `doc`'s (`at` names it in an error): made unit length and
    /// quantised; `invalid_embeddings` for a vector of another dimension, not finite or zero.
    pub fn set(&mut self, doc: usize, vector: &[f32], at: &str) -> Result<(), Error> {
        let (row, scale) = quantised(vector).map_err(|reason| named(at, &reason))?;
        self.check_dimensions(row.len())?;
        self.put(doc, &row, scale);
        Ok(())
    }

    /// Writes document `doc`'s row and scale (nothing for a document out of range).
    fn put(&mut self, doc: usize, row: &[i8], scale: f32) {
        let start = doc.saturating_mul(self.dimensions);
        if let (Some(slot), Some(s)) = (self.values.get_mut(start..start + self.dimensions), self.scales.get_mut(doc)) {
            slot.copy_from_slice(row);
            *s = scale;
        }
    }

    /// Document `doc`'s row and scale.
    fn row(&self, doc: usize) -> (&[i8], f32) {
        let start = doc.saturating_mul(self.dimensions);
        (self.values.get(start..start + self.dimensions).unwrap_or(&[]), self.scales.get(doc).copied().unwrap_or(0.0))
    }

    /// This set carried over to documents keyed `keys` (a shelf's deferred tools after an update):
    /// a document keeps the vector of a document of the same key, any other has none.
    pub fn rekeyed(&self, keys: Vec<u64>) -> Embeddings {
        let map = key_map(&self.keys);
        let values = alloc::vec![0i8; keys.len().saturating_mul(self.dimensions)];
        let scales = alloc::vec![0.0f32; keys.len()];
        let mut next = Embeddings { model: self.model.clone(), dimensions: self.dimensions, keys, values, scales };
        let mut hex = String::new();
        for doc in 0..next.keys.len() {
            hex.clear();
            hash::push_hex(&mut hex, next.keys.get(doc).copied().unwrap_or(0), 16);
            if let Some(old) = map.get(&hex) {
                let (row, scale) = self.row(old as usize);
                next.put(doc, row, scale);
            }
        }
        next
    }

    /// The cosine similarity of `query` with every document's vector, in document order
    /// (`f32::NEG_INFINITY` for a document without one).
    pub fn similarities(&self, query: &[f32]) -> Result<Vec<f32>, Error> {
        self.check_dimensions(query.len())?;
        let (q, q_scale) = quantised(query).map_err(|reason| named("the query vector", &reason))?;
        let mut out = Vec::with_capacity(self.scales.len());
        for (row, &scale) in self.values.chunks_exact(self.dimensions).zip(&self.scales) {
            out.push(if scale > 0.0 { dot(row, &q) as f32 * scale * q_scale } else { f32::NEG_INFINITY });
        }
        Ok(out)
    }
}

/// What a snapshot holds of a shelf's vectors (`crate::shelf::snapshot`): as stored, int8 rows and a
/// scale each; the keys are the shelf's to make again from its tools.
impl Embeddings {
    /// The model, the dimension, the rows one after another and each document's scale.
    pub(crate) fn stored(&self) -> (&str, usize, &[i8], &[f32]) {
        (&self.model, self.dimensions, &self.values, &self.scales)
    }

    /// Vectors as [`Embeddings::stored`] gave them, for documents keyed `keys`, if they are what
    /// some vectors given to `Shelf::set_embeddings` store: a model name, 1 to
    /// [`MAX_DIMENSIONS`] dimensions, a row and a scale per document, and each row either none
    /// (zeros, scale 0) or a vector quantised ([`quantised`]: its largest component ±127, none
    /// −128, and its scale the inverse of the norm of the vector it was made from, which is
    /// within rounding of the row's own norm). Else what does not hold.
    pub(crate) fn of_stored(
        model: String,
        dimensions: usize,
        keys: Vec<u64>,
        values: Vec<i8>,
        scales: Vec<f32>,
    ) -> Result<Embeddings, &'static str> {
        if model.trim().is_empty() {
            return Err("no model name");
        }
        if dimensions == 0 || dimensions > MAX_DIMENSIONS {
            return Err("a dimension out of range");
        }
        if scales.len() != keys.len() || values.len() != keys.len().saturating_mul(dimensions) {
            return Err("not a vector for each deferred tool");
        }
        // A row's components are off the vector's by at most half a unit each, so its norm is
        // within half the square root of the dimension of 127·|v|/max|v| = 1/scale.
        let slack = 0.5 * square_root(dimensions as f64) + 1e-3;
        for (row, &scale) in values.chunks_exact(dimensions).zip(&scales) {
            let largest = row.iter().map(|&x| i32::from(x).abs()).max().unwrap_or(0);
            let norm = square_root(row.iter().map(|&x| f64::from(i32::from(x) * i32::from(x))).sum::<f64>());
            let fits = if scale == 0.0 {
                largest == 0
            } else {
                let inverse = 1.0 / f64::from(scale);
                scale.is_finite()
                    && scale > 0.0
                    && largest == 127
                    && !row.contains(&i8::MIN)
                    && (norm - slack..=norm + slack).contains(&inverse)
            };
            if !fits {
                return Err("a vector that is not one quantised");
            }
        }
        Ok(Embeddings { model, dimensions, keys, values, scales })
    }
}

/// The integer dot product of two int8 vectors: in wasm SIMD, sixteen components a step, when the
/// build enables `simd128` (every target runtime has it); else one flat loop. Plain `while` loops:
/// at the `.wasm`'s opt-level "z" an iterator adapter or a closure is a call per step.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) fn dot(a: &[i8], b: &[i8]) -> i32 {
    use core::arch::wasm32::*;
    let n = a.len().min(b.len());
    let mut acc = i32x4_splat(0);
    let mut i = 0;
    while i + 16 <= n {
        let (Some(x), Some(y)) = (sixteen(a, i), sixteen(b, i)) else { break };
        let low = i32x4_dot_i16x8(i16x8_extend_low_i8x16(x), i16x8_extend_low_i8x16(y));
        let high = i32x4_dot_i16x8(i16x8_extend_high_i8x16(x), i16x8_extend_high_i8x16(y));
        acc = i32x4_add(acc, i32x4_add(low, high));
        i += 16;
    }
    let lanes = i32x4_extract_lane::<0>(acc) + i32x4_extract_lane::<1>(acc);
    lanes + i32x4_extract_lane::<2>(acc) + i32x4_extract_lane::<3>(acc) + dot_from(a, b, i)
}

/// `v[at..at + 16]` as a vector (one `v128.load`: the compiler folds the lanes).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
pub(crate) fn sixteen(v: &[i8], at: usize) -> Option<core::arch::wasm32::v128> {
    let &[a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p] = <&[i8; 16]>::try_from(v.get(at..at + 16)?).ok()?;
    Some(core::arch::wasm32::i8x16(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p))
}

/// The integer dot product of two int8 vectors: one flat loop.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub(crate) fn dot(a: &[i8], b: &[i8]) -> i32 {
    dot_from(a, b, 0)
}

/// The dot product of `a[from..]` and `b[from..]`, one component a step.
#[inline(always)]
pub(crate) fn dot_from(a: &[i8], b: &[i8], from: usize) -> i32 {
    let mut sum = 0i32;
    let mut i = from;
    while let (Some(&x), Some(&y)) = (a.get(i), b.get(i)) {
        sum += i32::from(x) * i32::from(y);
        i += 1;
    }
    sum
}

/// `vector` made unit length and scaled to int8 (largest component ±127), and the factor back;
/// why not ([`unusable`]) for a vector with no direction.
pub(crate) fn quantised(vector: &[f32]) -> Result<(Vec<i8>, f32), String> {
    if let Some(reason) = unusable(vector) {
        return Err(reason);
    }
    // In f64, the squares of float32's smallest and largest components neither underflow nor
    // overflow: a vector with one nonzero component has a norm.
    let norm = square_root(vector.iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>());
    let largest = vector.iter().fold(0.0f64, |m, &x| m.max(f64::from(x).abs()));
    if !(norm > 0.0 && largest > 0.0 && norm.is_finite()) {
        return Err(String::from("all zero (no direction to compare)"));
    }
    let to_int = 127.0 / largest;
    // Rounded half away from zero (`as` truncates toward zero; `f64::round` needs std).
    let row = vector.iter().map(|&x| (f64::from(x) * to_int + if x < 0.0 { -0.5 } else { 0.5 }) as i8).collect();
    Ok((row, (largest / 127.0 / norm) as f32))
}

/// The square root of `x` (≥ 0, finite) by Newton's method from the exponent halved (`f64::sqrt`
/// needs std): six steps reach full precision from a start within a factor of two.
pub(crate) fn square_root(x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    let mut r = f64::from_bits((x.to_bits() >> 1) + (1023u64 << 51));
    for _ in 0..6 {
        r = 0.5 * (r + x / r);
    }
    r
}

/// How a query's similarities are fused with the lexical ranking (SPEC §12): the lexical
/// ranking's first `leaders` stay first, in its order; the other candidates (the union of the
/// lexical hits and the `candidates` most similar tools) follow by a weighted score, each's
/// lexical score over the best lexical score weighted `lexical`, plus its similarity over the
/// range of the `candidates` best similarities (the `candidates`-th is 0, the best 1) weighted
/// `1 − lexical`; full matches still before partial ones. The measurements behind the defaults
/// (and against reciprocal-rank fusion) are in docs/search.md.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fusion {
    /// How many of the lexical ranking's first stay first.
    pub leaders: usize,
    /// The weight of the lexical score (0..=1).
    pub lexical: f64,
    /// How many of the most similar tools join the candidates (at most [`MAX_CANDIDATES`]).
    pub candidates: usize,
}

/// Most similar tools one search takes as candidates.
pub const MAX_CANDIDATES: usize = 100;

impl Default for Fusion {
    fn default() -> Fusion {
        Fusion { leaders: 3, lexical: 0.5, candidates: 20 }
    }
}

impl Fusion {
    /// `hits` (the lexical candidates, exact names marked) fused with `similarities` (per
    /// document): every lexical hit keeps its verdict (exact, full or partial), and a tool only
    /// similar is a partial match.
    pub fn fuse(&self, mut hits: Vec<(bool, Hit)>, similarities: &[f32]) -> Vec<(bool, Hit)> {
        let nearest = nearest(similarities, self.candidates.clamp(1, MAX_CANDIDATES));
        let (Some(&(best, _)), Some(&(floor, _))) = (nearest.first(), nearest.last()) else {
            return hits;
        };
        let mut is_hit = alloc::vec![false; similarities.len()];
        for (_, hit) in &hits {
            if let Some(h) = is_hit.get_mut(hit.doc) {
                *h = true;
            }
        }
        for &(_, doc) in &nearest {
            if is_hit.get(doc) == Some(&false) {
                hits.push((false, Hit { doc, score: 0.0, partial: true }));
            }
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
}

/// The `k` documents most similar (among those with a vector), most similar first (ties by
/// document), with their similarity: one pass keeping a sorted list of `k` (`k` is small).
pub fn nearest(similarities: &[f32], k: usize) -> Vec<(f32, usize)> {
    let mut best: Vec<(f32, usize)> = Vec::with_capacity(k + 1);
    for (doc, &sim) in similarities.iter().enumerate() {
        if !sim.is_finite() || (best.len() == k && best.last().is_some_and(|&(s, _)| s >= sim)) {
            continue;
        }
        let at = best.iter().position(|&(s, _)| s < sim).unwrap_or(best.len());
        best.insert(at, (sim, doc));
        best.truncate(k);
    }
    best
}

/// What `Shelf::set_embeddings` left the shelf with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stored {
    /// Deferred tools with a vector.
    pub stored: usize,
    /// Deferred tools without one (ranked lexically).
    pub missing: usize,
    /// The keys given that no deferred tool has (ignored), in the order given.
    pub unknown_keys: Vec<String>,
}

/// The vectors a caller gives `Shelf::set_embeddings`: `dimensions` components per vector,
/// one after another in `values`, in the order of `Shelf::embedding_texts` or of `keys`.
#[derive(Clone, Copy, Debug)]
pub struct Vectors<'a> {
    /// The model's name; every vector of a shelf has one.
    pub model: &'a str,
    /// Components per vector.
    pub dimensions: usize,
    /// The vectors' components, contiguous.
    pub values: &'a [f32],
    /// The key of each vector (`Shelf::embedding_texts`); `None`: one vector per deferred
    /// tool, in order.
    pub keys: Option<&'a [String]>,
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
