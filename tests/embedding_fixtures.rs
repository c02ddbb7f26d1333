//! The committed all-MiniLM-L6-v2 fixtures (`tests/data/embeddings/`, made by `scripts/embed
//! fixtures`) hold what the tests of semantic retrieval need: a vector for every deferred tool of
//! every catalog a labelled query set runs on, by the core's own embedding key, and one for every
//! labelled query; each of dimension 384 and unit length within its int8 rounding.
#![cfg(not(target_arch = "wasm32"))]

mod common;
#[path = "support/embeddings.rs"]
mod embeddings;

use std::collections::BTreeSet;

use common::catalogs::{absent_queries, keyword_queries, model_queries, shipped_queries};
use toolshelf::json::Value;
use toolshelf::Shelf;

const MODEL: &str = "all-MiniLM-L6-v2";
const DIM: usize = 384;

/// Every labelled set's queries (as written), by fixture stem.
fn query_sets() -> Vec<(&'static str, Vec<(String, String)>)> {
    let pairs = |list: Vec<common::catalogs::LabelledQuery>| list.into_iter().map(|q| (q.catalog, q.query)).collect();
    vec![
        ("queries-keyword", pairs(keyword_queries())),
        ("queries-model", pairs(model_queries())),
        ("queries-absent", absent_queries().into_iter().map(|q| (q.catalog, q.query)).collect()),
        ("queries-toolbench", pairs(shipped_queries("toolbench"))),
        ("queries-bfcl", pairs(shipped_queries("bfcl"))),
        ("queries-metatool", pairs(shipped_queries("metatool"))),
    ]
}

/// The catalogs (file stems) the labelled sets run on, unions split, and the benchmark's
/// mega-union.
fn catalogs_used() -> BTreeSet<String> {
    let mut names = BTreeSet::from(["mega-union".to_string()]);
    for (_, queries) in query_sets() {
        for (catalog, _) in queries {
            for part in catalog.split('+') {
                match part {
                    "rest-apis-flat-3400" => {
                        names.extend(["cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04"].map(String::from))
                    }
                    _ => drop(names.insert(part.to_string())),
                }
            }
        }
    }
    names
}

/// The core's embedding texts of a catalog read as the tests read it (a grouped toolbox).
fn embedding_texts(catalog: &str) -> Vec<(String, String)> {
    let shelf = Shelf::new(&common::grouped(&[catalog]), &Value::Null).unwrap_or_else(|e| panic!("{catalog}: {e}"));
    shelf.embedding_texts()
}

/// Model, dimension, and every vector unit length within what rounding to int8 can move it:
/// each value moves by at most scale/2, so the norm by at most √dim · scale/2.
fn assert_well_formed(stem: &str, vectors: &embeddings::Vectors) {
    assert_eq!(vectors.model, MODEL, "{stem}");
    assert_eq!(vectors.dim, DIM, "{stem}");
    for i in 0..vectors.len() {
        let (int8, scale) = vectors.int8_at(i);
        let norm = int8.iter().map(|&v| (f64::from(v) * f64::from(scale)).powi(2)).sum::<f64>().sqrt();
        let bound = (DIM as f64).sqrt() * f64::from(scale) / 2.0;
        assert!((norm - 1.0).abs() <= bound, "{stem}: vector {i} has norm {norm} (bound {bound})");
        // The scale is max|v| / 127: some value uses the whole range.
        assert!(int8.iter().any(|&v| v.unsigned_abs() == 127), "{stem}: vector {i} does not span the int8 range");
    }
}

#[test]
fn every_deferred_tool_of_every_labelled_catalog_has_a_vector_by_the_cores_key() {
    let tools = embeddings::read("tools");
    assert_well_formed("tools", &tools);
    let mut expected = BTreeSet::new();
    for catalog in catalogs_used() {
        let texts = embedding_texts(&catalog);
        assert!(!texts.is_empty(), "{catalog}");
        for (key, text) in texts {
            assert_eq!(embeddings::key_of(&text), key, "{catalog}: the fixture's key function is the core's");
            assert!(tools.get(&key).is_some(), "{catalog}: no vector for {key} {text:?}");
            expected.insert(key);
        }
    }
    // Nothing stale: the file holds exactly those texts' vectors.
    let held: BTreeSet<String> = tools.keys().collect();
    assert_eq!(held.len(), tools.len());
    assert_eq!(held, expected, "the tools fixture holds vectors of no current text (rerun scripts/embed fixtures)");
}

#[test]
fn every_labelled_query_has_a_vector() {
    for (stem, queries) in query_sets() {
        let vectors = embeddings::read(stem);
        assert_well_formed(stem, &vectors);
        let keys: BTreeSet<String> = queries.iter().map(|(_, q)| embeddings::key_of(q)).collect();
        assert!(!keys.is_empty(), "{stem}");
        for (_, query) in &queries {
            assert!(vectors.get(&embeddings::key_of(query)).is_some(), "{stem}: no vector for {query:?}");
        }
        assert_eq!(vectors.len(), keys.len(), "{stem}: one vector per distinct query, no more");
    }
}

#[test]
fn a_model_phrased_request_is_nearer_its_tool_than_an_unrelated_one() {
    // The vectors are the model's, not noise: on GitHub's catalog, asking to bookmark a repo is
    // nearer star_repository than create_gist, and saving a snippet the other way round.
    let tools = embeddings::read("tools");
    let queries = embeddings::read("queries-model");
    let texts = embedding_texts("github-mcp-server");
    let tool = |name: &str| {
        let (key, _) = texts.iter().find(|(_, t)| t.starts_with(name)).unwrap_or_else(|| panic!("{name}"));
        tools.get(key).unwrap()
    };
    let query = |q: &str| queries.get(&embeddings::key_of(q)).unwrap_or_else(|| panic!("{q}"));
    let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
    let (star, gist) = (tool("github star repository:"), tool("github create gist:"));
    let (bookmark, snippet) =
        (query("bookmark this repo so I can find it later"), query("save this snippet as a secret gist"));
    assert!(
        dot(&bookmark, &star) > dot(&bookmark, &gist) + 0.05,
        "{} vs {}",
        dot(&bookmark, &star),
        dot(&bookmark, &gist)
    );
    assert!(dot(&snippet, &gist) > dot(&snippet, &star) + 0.05, "{} vs {}", dot(&snippet, &gist), dot(&snippet, &star));
}
