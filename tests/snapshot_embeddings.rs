//! Snapshots hold the shelf's embeddings (SPEC §15): a hybrid shelf's snapshot loads into a shelf
//! whose vector searches and vector unwraps answer byte for byte as the live shelf's, with the
//! toolbox held, given, or a shelf of a value; its vectors are the ones stored (int8 and a scale
//! each), its snapshot the same bytes, an update of it keeps the vectors the live shelf keeps;
//! and vectors forged into a snapshot (with its checksum made right) are `invalid_snapshot`.
//! The vectors are all-MiniLM-L6-v2's for the labelled catalogs and queries
//! (tests/data/embeddings/).
#![cfg(not(target_arch = "wasm32"))]

mod common;
#[path = "support/embeddings.rs"]
mod embeddings;
#[path = "../fuzz/snapshot_check.rs"]
mod snapshot_check;

use common::catalogs::keyword_queries;
use toolshelf::embed::{embedding_key, Vectors};
use toolshelf::json::Value;
use toolshelf::{ErrorCode, Shelf};

const OPTIONS: &str = r#"{"qualify":true,"contextLength":8000}"#;

/// A shelf of linear and github (and a direct tool) with the fixture's vector of every deferred
/// tool it has one for (by key; the others are ranked lexically) but the first `skip`.
fn hybrid_but(skip: usize) -> (Shelf, String, embeddings::Vectors) {
    let toolbox = common::grouped_with(
        vec![common::openai_tool("read_file", "Read a file.")],
        &["linear-mcp-official", "github-mcp-server"],
    );
    let text = toolbox.to_json();
    let mut shelf = Shelf::from_json_text(text.clone(), OPTIONS).unwrap();
    let tools = embeddings::read("tools");
    let (mut keys, mut values) = (Vec::new(), Vec::new());
    for (key, _) in shelf.embedding_texts().into_iter().skip(skip) {
        if let Some(vector) = tools.get(&key) {
            keys.push(key);
            values.extend(vector);
        }
    }
    assert!(keys.len() > 40, "{} fixture vectors for the shelf's tools", keys.len());
    let vectors = Vectors { model: &tools.model, dimensions: tools.dim, values: &values, keys: Some(&keys) };
    shelf.set_embeddings(vectors).unwrap();
    (shelf, text, embeddings::read("queries-keyword"))
}

fn hybrid() -> (Shelf, String, embeddings::Vectors) {
    hybrid_but(0)
}

/// The vector searches and unwraps of the keyword queries of the shelf's catalogs, as JSON text.
fn hybrid_answers(shelf: &Shelf, queries: &embeddings::Vectors) -> Vec<String> {
    let mut out = Vec::new();
    let labelled =
        keyword_queries().into_iter().filter(|q| q.catalog.contains("linear") || q.catalog.contains("github"));
    for q in labelled.take(60) {
        let Some(vector) = queries.get(&embedding_key(&q.query)) else { continue };
        out.push(shelf.search_with_vector(&q.query, Some(8), Some(&vector)).unwrap().to_value().to_json());
        let call = Value::object([
            ("name", Value::str("tool_search")),
            ("arguments", Value::object([("query", Value::str(q.query.as_str()))])),
        ]);
        let unwrapped = shelf.unwrap_with_vectors(&call.to_json(), &[(q.query.clone(), vector)]).unwrap();
        // The answer, and the warnings of query vectors it could not use (none here).
        assert!(unwrapped.1.is_empty(), "{:?}", unwrapped.1);
        out.push(unwrapped.0.to_value().to_json());
    }
    assert!(out.len() > 20, "{} answers", out.len());
    out
}

#[test]
fn a_hybrid_shelf_loads_with_its_vectors_and_answers_as_the_live_one() {
    let (live, text, queries) = hybrid();
    let expected = hybrid_answers(&live, &queries);
    let held = live.snapshot();
    let loaded = Shelf::from_snapshot(held.clone(), None, None).unwrap();
    assert_eq!(loaded.embeddings(), live.embeddings(), "the vectors as stored");
    assert_eq!(hybrid_answers(&loaded, &queries), expected, "toolbox held");
    assert!(loaded.snapshot() == held, "a loaded shelf's snapshot is the same bytes");
    let given = Shelf::from_snapshot(live.snapshot_without_toolbox(), Some(text.clone()), None).unwrap();
    assert_eq!(hybrid_answers(&given, &queries), expected, "toolbox given");
    // A shelf of a value (the snapshot holds the text of its defs).
    let mut of_value =
        Shelf::new(&toolshelf::json::parse(&text).unwrap(), &toolshelf::json::parse(OPTIONS).unwrap()).unwrap();
    let (model, dimensions) = (live.embeddings().unwrap().model().to_string(), live.embeddings().unwrap().dimensions());
    let tools = embeddings::read("tools");
    let (mut keys, mut values) = (Vec::new(), Vec::new());
    for (key, _) in of_value.embedding_texts() {
        if let Some(vector) = tools.get(&key) {
            keys.push(key);
            values.extend(vector);
        }
    }
    of_value.set_embeddings(Vectors { model: &model, dimensions, values: &values, keys: Some(&keys) }).unwrap();
    let loaded_value = Shelf::from_snapshot(of_value.snapshot(), None, None).unwrap();
    assert_eq!(hybrid_answers(&loaded_value, &queries), expected, "a shelf of a value");
}

/// A snapshot keeps the vectors: the loaded shelf takes a query vector (`unwrapAsync` does not
/// fall back to a lexical answer).
#[test]
fn a_loaded_hybrid_shelf_takes_a_query_vector() {
    let (live, _, queries) = hybrid();
    let loaded = Shelf::from_snapshot(live.snapshot(), None, None).unwrap();
    let vector = queries.at(0);
    let result = loaded.search_with_vector("create an issue", Some(5), Some(&vector));
    assert!(result.is_ok(), "{:?}", result.err());
    assert!(loaded.embeddings().is_some_and(|e| e.count() == live.embeddings().unwrap().count()));
}

#[test]
fn an_update_of_a_loaded_hybrid_shelf_keeps_what_the_live_one_keeps() {
    let (mut live, _, queries) = hybrid();
    let mut loaded = Shelf::from_snapshot(live.snapshot(), None, None).unwrap();
    let next = common::grouped_with(vec![common::openai_tool("read_file", "Read a file.")], &["linear-mcp-official"]);
    live.update(&next).unwrap();
    loaded.update(&next).unwrap();
    assert_eq!(loaded.embeddings(), live.embeddings());
    assert_eq!(hybrid_answers(&loaded, &queries), hybrid_answers(&live, &queries));
}

/// The embeddings' part of a snapshot: where it starts (after the index) is found by taking a
/// snapshot of the same shelf without vectors.
fn embeddings_at(live: &Shelf) -> (Vec<u8>, usize) {
    let bytes = live.snapshot();
    let mut lexical = live.clone();
    lexical.clear_embeddings();
    let without = lexical.snapshot();
    // The same bytes up to the embeddings' flag (0 without vectors, 1 with).
    let at = without.len() - snapshot_check::TRAILER - 1;
    assert_eq!(bytes[..at], without[..at]);
    assert_eq!((bytes[at], without[at]), (1, 0));
    (bytes, at + 1)
}

#[test]
fn forged_vectors_are_refused() {
    let (live, _, _) = hybrid_but(2);
    let (bytes, at) = embeddings_at(&live);
    let model_len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let dims_at = at + 4 + model_len;
    let dims = u32::from_le_bytes(bytes[dims_at..dims_at + 4].try_into().unwrap()) as usize;
    let count = u32::from_le_bytes(bytes[dims_at + 4..dims_at + 8].try_into().unwrap()) as usize;
    let rows_at = dims_at + 8;
    let scales_at = rows_at + count * dims;
    let vectors = live.embeddings().unwrap();
    assert_eq!((dims, count), (vectors.dimensions(), live.embedding_texts().len()));
    // The first document with a vector, and one without.
    let scale =
        |doc: usize| f32::from_le_bytes(bytes[scales_at + 4 * doc..scales_at + 4 * doc + 4].try_into().unwrap());
    let with = (0..count).find(|&d| scale(d) > 0.0).unwrap();
    let without = (0..count).find(|&d| scale(d) == 0.0).unwrap();
    let forge = |change: &dyn Fn(&mut Vec<u8>)| {
        let mut forged = bytes.clone();
        change(&mut forged);
        let error = Shelf::from_snapshot(snapshot_check::with_checksum(&forged), None, None).expect_err("refused");
        assert_eq!(error.code, ErrorCode::InvalidSnapshot, "{error}");
        error.message
    };
    let put_u32 = |b: &mut Vec<u8>, at: usize, n: u32| b[at..at + 4].copy_from_slice(&n.to_le_bytes());
    let put_f32 = |b: &mut Vec<u8>, at: usize, x: f32| b[at..at + 4].copy_from_slice(&x.to_le_bytes());
    for (what, change) in [
        (
            "a count of one more",
            Box::new(|b: &mut Vec<u8>| put_u32(b, dims_at + 4, count as u32 + 1)) as Box<dyn Fn(&mut Vec<u8>)>,
        ),
        ("a count of one less", Box::new(|b: &mut Vec<u8>| put_u32(b, dims_at + 4, count as u32 - 1))),
        ("no dimensions", Box::new(|b: &mut Vec<u8>| put_u32(b, dims_at, 0))),
        ("a scale doubled", Box::new(move |b: &mut Vec<u8>| put_f32(b, scales_at + 4 * with, scale(with) * 2.0))),
        ("a scale NaN", Box::new(move |b: &mut Vec<u8>| put_f32(b, scales_at + 4 * with, f32::NAN))),
        ("a scale negative", Box::new(move |b: &mut Vec<u8>| put_f32(b, scales_at + 4 * with, -scale(with)))),
        ("a scale for no vector", Box::new(move |b: &mut Vec<u8>| put_f32(b, scales_at + 4 * without, 0.01))),
        ("a row for no vector", Box::new(move |b: &mut Vec<u8>| b[rows_at + without * dims] = 5)),
        ("a row of −128", Box::new(move |b: &mut Vec<u8>| b[rows_at + with * dims] = 0x80)),
        (
            "a row without ±127",
            Box::new(move |b: &mut Vec<u8>| {
                for v in &mut b[rows_at + with * dims..rows_at + (with + 1) * dims] {
                    *v = (*v as i8 / 2) as u8;
                }
            }),
        ),
        (
            "an empty model",
            Box::new(|b: &mut Vec<u8>| {
                let name: Vec<u8> = b[at + 4..at + 4 + model_len].iter().map(|_| b' ').collect();
                b[at + 4..at + 4 + model_len].copy_from_slice(&name);
            }),
        ),
        ("a flag of 2", Box::new(move |b: &mut Vec<u8>| b[at - 1] = 2)),
    ] {
        let message = forge(&*change);
        assert!(message.contains("malformed") || message.contains("corrupt"), "{what}: {message}");
    }
}

/// Whatever vectors a shelf takes, its snapshot loads (the check of a stored vector never refuses
/// one that quantising made): every dimension from 1 to 4,096, components from denormal to 1e38,
/// one component or all alike.
#[test]
fn every_vector_a_shelf_takes_loads_again() {
    use proptest::prelude::*;
    let toolbox = common::grouped(&["linear-mcp-official"]).to_json();
    let base = Shelf::from_json_text(toolbox, "null").unwrap();
    let tools = base.embedding_texts().len();
    let component =
        prop_oneof![-1.0f32..1.0, Just(0.0f32), Just(1e-40f32), Just(-3e38f32), Just(1e38f32), (-1e6f32..1e6),];
    let dims = prop_oneof![1usize..8, Just(384usize), Just(4096usize)];
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig { cases: 40, ..ProptestConfig::default() });
    let strategy = dims.prop_flat_map(move |d| (Just(d), prop::collection::vec(component.clone(), d * tools)));
    runner
        .run(&strategy, |(dims, mut values)| {
            // A zero vector is refused by set_embeddings: give each a component of its own.
            for row in values.chunks_mut(dims) {
                if row.iter().all(|&x| x == 0.0) {
                    row[0] = 1.0;
                }
            }
            let mut shelf = base.clone();
            shelf.set_embeddings(Vectors { model: "m", dimensions: dims, values: &values, keys: None }).unwrap();
            let loaded = Shelf::from_snapshot(shelf.snapshot(), None, None);
            prop_assert!(loaded.is_ok(), "{:?}", loaded.err());
            let loaded = loaded.unwrap();
            prop_assert_eq!(loaded.embeddings(), shelf.embeddings());
            Ok(())
        })
        .unwrap();
}
