//! A shelf's embeddings (SPEC §12, the shelf's room): setting the vectors, a search with a query
//! vector, and unwrap with the vectors of a call's queries (what `unwrapAsync` embeds and passes).

use super::Shelf;
use crate::dialect::{Prepared, Unwrapped};
use crate::error::Error;
use crate::find::SearchResult;
use crate::hash;
use crate::search::embed::*;
use alloc::string::String;
use alloc::vec::Vec;

impl Shelf {
    /// The key of each deferred tool's embedding text, as numbers, in order.
    pub(crate) fn embedding_keys(&self) -> Vec<u64> {
        self.catalog.deferred().map(|t| hash::fnv1a(embedding_text(t).as_bytes())).collect()
    }

    /// Sets the deferred tools' vectors (SPEC §12, §15). In texts order (no `keys`) there must be
    /// one per deferred tool, and they replace every vector the shelf held, whatever their model;
    /// by key, they are added to the shelf's (of the same model and dimension), a key no deferred
    /// tool has is ignored (and reported in [`Stored::unknown_keys`]), and a tool without a vector
    /// is ranked lexically. `update` keeps the vectors of the tools whose text is unchanged.
    ///
    /// `invalid_embeddings`, naming the first bad one (`vector 3`, or `vector <key>`) and why: a
    /// blank model name; no vectors (unless the shelf has no deferred tools: then nothing is set);
    /// values that are not whole vectors; in texts order, not one per deferred tool; a vector
    /// empty, of more than [`MAX_DIMENSIONS`], with a NaN or infinite component, or all zero; a
    /// key that is not 16 hex digits; by key, another model or dimension than the vectors held, or
    /// no key of a deferred tool. On error the shelf is unchanged (no dimension fixed).
    pub fn set_embeddings(&mut self, vectors: Vectors<'_>) -> Result<Stored, Error> {
        let Vectors { model, dimensions, values, keys } = vectors;
        if model.trim().is_empty() {
            return Err(invalid("embeddings need a model name (`model` is empty)"));
        }
        let docs = self.embeddings.as_ref().map_or_else(|| self.catalog.deferred().count(), |held| held.keys.len());
        let given = keys.map_or_else(|| values.len().checked_div(dimensions).unwrap_or(0), <[String]>::len);
        if given == 0 && values.is_empty() {
            if docs == 0 {
                return Ok(Stored::default()); // nothing to embed, nothing given
            }
            if keys.is_some() {
                return Err(invalid("no vectors given (an empty set of vectors by key)"));
            }
        }
        if given.saturating_mul(dimensions) != values.len() {
            return Err(counts("numbers are not whole vectors of", values.len(), dimensions));
        }
        if keys.is_none() && given != docs {
            return Err(invalid(alloc::format!("{given} vectors for {docs} deferred tools (embeddingTexts order)")));
        }
        let name = |i: usize| vector_name(keys, i);
        if dimensions == 0 || dimensions > MAX_DIMENSIONS {
            let reason = alloc::format!("{dimensions} dimensions (a vector has 1 to {MAX_DIMENSIONS})");
            return Err(named(
                &name(0),
                if dimensions == 0 { "empty (a vector has 1 to 4096 dimensions)" } else { &reason },
            ));
        }
        let mut next = match (keys, &self.embeddings) {
            (Some(_), Some(held)) if held.model != model => {
                let (given, held) = (quoted(model), quoted(&held.model));
                return Err(invalid(alloc::format!(
                    "model {given}: the shelf's vectors are of model {held} (give every vector in embeddingTexts order to replace them)"
                )));
            }
            (Some(_), Some(held)) => {
                if held.dimensions != dimensions {
                    return Err(named(
                        &name(0),
                        &alloc::format!("{dimensions} dimensions, but the shelf's vectors have {}", held.dimensions),
                    ));
                }
                held.clone()
            }
            _ => Embeddings::empty(model, dimensions, self.embedding_keys())?,
        };
        // Every vector checked in the order given (one of an unknown key too), the first bad one named.
        let map = key_map(&next.keys);
        let mut unknown_keys = Vec::new();
        for (i, row) in values.chunks_exact(dimensions).enumerate() {
            let doc = match keys.and_then(|k| k.get(i)) {
                None => Some(i as u32),
                Some(key)
                    if key.len() != 16 || !key.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) =>
                {
                    return Err(named(cut(key, 40), "not a key (16 hex digits, as embeddingTexts() gives them)"));
                }
                Some(key) => map.get(key).or_else(|| {
                    unknown_keys.push(key.clone());
                    None
                }),
            };
            match doc {
                Some(doc) => next.set(doc as usize, row, &name(i))?,
                None => quantised(row).map(|_| ()).map_err(|reason| named(&name(i), &reason))?,
            }
        }
        if keys.is_some() {
            if unknown_keys.len() == given && docs > 0 {
                let reason = alloc::format!(
                    "no key given is a deferred tool's (the first: {}); keys are this shelf's embeddingTexts() keys",
                    cut(&unknown_keys[0], 40)
                );
                return Err(invalid(reason));
            }
            // A key names its first document; one of equal text after it takes that vector.
            next = next.rekeyed(next.keys.clone());
        }
        if docs == 0 {
            return Ok(Stored { unknown_keys, ..Stored::default() }); // no deferred tool to hold a vector
        }
        let stored = next.count();
        self.embeddings = Some(next);
        Ok(Stored { stored, missing: docs - stored, unknown_keys })
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

/// A shelf for one unwrap whose searches fuse in the vectors given for their queries, and which
/// records the queries searched (`crate::unwrap` reads a shelf only through [`Prepared`]).
struct WithQueryVectors<'s> {
    shelf: &'s Shelf,
    /// Each query's vector; `None`: searches record their query and search nothing.
    vectors: Option<Vec<(&'s str, &'s [f32])>>,
    asked: core::cell::RefCell<Vec<String>>,
}

impl Prepared for WithQueryVectors<'_> {
    fn catalog(&self) -> &crate::catalog::Catalog {
        self.shelf.catalog()
    }

    fn options(&self) -> &crate::options::Options {
        self.shelf.options()
    }

    fn search(&self, query: &str, limit: Option<usize>) -> SearchResult {
        self.asked.borrow_mut().push(String::from(query));
        let Some(vectors) = &self.vectors else {
            return SearchResult::default();
        };
        let vector = vectors.iter().find(|(q, _)| *q == query).map(|&(_, v)| v);
        self.shelf.search_with_vector(query, limit, vector).unwrap_or_else(|_| self.shelf.search(query, limit))
    }

    fn describe(&self, name: &str) -> Option<crate::describe::Described> {
        self.shelf.describe(name)
    }
}

impl Shelf {
    /// The queries that unwrapping `call` (JSON text) searches: a `tool_search` call's query, or
    /// a batched one's queries, in any provider's shape; none for any other call. What a binding
    /// embeds before [`Shelf::unwrap_with_vectors`].
    pub fn search_queries(&self, call: &str) -> Vec<String> {
        let recorder = WithQueryVectors { shelf: self, vectors: None, asked: Default::default() };
        let _ = crate::unwrap::unwrap_text(&recorder, call, None);
        recorder.asked.into_inner()
    }

    /// [`Shelf::unwrap_json`] with the vector of each query a search of the call makes (by query
    /// text, as [`Shelf::search_queries`] gives them) fused into its ranking, and a warning for
    /// each vector not used: one that cannot be compared with the shelf's (another dimension,
    /// empty, a NaN or infinite component, all zero) leaves its query to the lexical search, as
    /// does a shelf without vectors (SPEC §15: an unusable vector is never an error, never silent).
    pub fn unwrap_with_vectors(
        &self,
        call: &str,
        vectors: &[(String, Vec<f32>)],
    ) -> Result<(Unwrapped, Vec<String>), Error> {
        let mut warnings = Vec::new();
        let mut usable = Vec::new();
        match &self.embeddings {
            None if !vectors.is_empty() => {
                warnings.push(String::from("the shelf has no vectors (setEmbeddings first): the search was lexical"));
            }
            None => {}
            Some(embeddings) => {
                for (query, vector) in vectors {
                    match embeddings.check_query(vector) {
                        Ok(()) => usable.push((query.as_str(), vector.as_slice())),
                        Err(reason) => warnings.push(alloc::format!(
                            "the vector for {} is unusable ({reason}): that query was searched lexically",
                            quoted(query)
                        )),
                    }
                }
            }
        }
        let with = WithQueryVectors { shelf: self, vectors: Some(usable), asked: Default::default() };
        Ok((crate::unwrap::unwrap_text(&with, call, None)?, warnings))
    }
}
