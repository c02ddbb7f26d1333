//! Vectors in the shelf and their fusion with the lexical ranking (SPEC §12), with vectors made
//! here: random unit vectors per tool (a seeded generator) and query vectors planted near one
//! tool. What holds whatever the model: no query vector is the lexical answer byte for byte, an
//! exact name still ranks first, unknown words stay lexical and every match is then partial, a
//! tool found only by similarity is partial, `update` keeps the vectors of unchanged tools, and
//! vectors that do not fit are `invalid_embeddings`. The figures with a real model are in
//! tests/embeddings_recall.rs.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use toolshelf::embed::Vectors;
use toolshelf::json::Value;
use toolshelf::{ErrorCode, Shelf};

const DIMS: usize = 64;

/// A small xorshift generator: the same vectors on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) as f32 * 2.0 - 1.0
    }

    fn vector(&mut self) -> Vec<f32> {
        (0..DIMS).map(|_| self.next()).collect()
    }
}

fn shelf_of(names: &[&str]) -> Shelf {
    Shelf::new(&common::grouped(names), &Value::Null).unwrap()
}

/// One random vector per deferred tool, flat, in texts order.
fn random_vectors(shelf: &Shelf, seed: u64) -> Vec<f32> {
    let mut rng = Rng(seed);
    (0..shelf.embedding_texts().len()).flat_map(|_| rng.vector()).collect()
}

fn in_order<'a>(values: &'a [f32]) -> Vectors<'a> {
    Vectors { model: "test-model", dimensions: DIMS, values, keys: None }
}

/// The vector of deferred tool `doc`, moved a little.
fn near(values: &[f32], doc: usize, rng: &mut Rng) -> Vec<f32> {
    values[doc * DIMS..(doc + 1) * DIMS].iter().map(|x| x + 0.1 * rng.next()).collect()
}

fn deferred_name(shelf: &Shelf, doc: usize) -> String {
    shelf.catalog().deferred().nth(doc).unwrap().name.clone()
}

const QUERIES: [&str; 8] = [
    "create issue",
    "list pull requests",
    "refund a charge",
    "dns record",
    "who am I",
    "send an email with gmail",
    "x",
    "create_issue",
];

#[test]
fn without_a_query_vector_every_answer_is_the_lexical_one() {
    let catalogs = ["github-mcp-server", "linear-mcp-official", "stripe-api-2022-04", "cloudflare-api-2024-08"];
    let plain = shelf_of(&catalogs);
    let mut with = shelf_of(&catalogs);
    let values = random_vectors(&with, 1);
    with.set_embeddings(in_order(&values)).unwrap();
    for q in QUERIES.iter().copied().chain(common::catalogs::keyword_queries().iter().map(|q| q.query.as_str())) {
        let lexical = plain.search(q, Some(10)).to_value().to_json();
        assert_eq!(with.search(q, Some(10)).to_value().to_json(), lexical, "{q}");
        assert_eq!(with.search_with_vector(q, Some(10), None).unwrap().to_value().to_json(), lexical, "{q}");
    }
}

#[test]
fn a_planted_neighbour_is_found_partial_and_an_exact_name_still_ranks_first() {
    let mut shelf = shelf_of(&["github-mcp-server", "linear-mcp-official"]);
    let values = random_vectors(&shelf, 2);
    shelf.set_embeddings(in_order(&values)).unwrap();
    let mut rng = Rng(99);
    let count = shelf.embedding_texts().len();
    for doc in (0..count).step_by(7) {
        let vector = near(&values, doc, &mut rng);
        // No word of this query is in any tool: the lexical answer is empty.
        let result = shelf.search_with_vector("zzqx", Some(5), Some(&vector)).unwrap();
        assert_eq!(result.matches[0].name, deferred_name(&shelf, doc));
        assert!(result.matches.iter().all(|m| m.partial), "similarity alone is never a full match");
        // A query that names a tool exactly ranks it first, whatever the vector says.
        let other = deferred_name(&shelf, (doc + 1) % count);
        let named = shelf.search_with_vector(&other, Some(5), Some(&vector)).unwrap();
        assert_eq!(named.matches[0].name, other);
        assert!(!named.matches[0].partial);
    }
}

#[test]
fn unknown_words_stay_lexical_and_make_every_match_partial() {
    let mut shelf = shelf_of(&["github-mcp-server", "linear-mcp-official"]);
    let values = random_vectors(&shelf, 3);
    shelf.set_embeddings(in_order(&values)).unwrap();
    let vector = near(&values, 5, &mut Rng(7));
    for q in ["send an email with gmail", "post to slack channel", "create a jira ticket"] {
        let lexical = shelf.search(q, Some(10));
        let fused = shelf.search_with_vector(q, Some(10), Some(&vector)).unwrap();
        assert!(!lexical.unknown_words.is_empty(), "{q}");
        assert_eq!(fused.unknown_words, lexical.unknown_words, "{q}");
        assert!(fused.matches.iter().all(|m| m.partial), "{q}");
    }
}

#[test]
fn a_full_lexical_match_stays_full_and_the_neighbour_joins_the_answer() {
    let mut shelf = shelf_of(&["github-mcp-server"]);
    let values = random_vectors(&shelf, 4);
    shelf.set_embeddings(in_order(&values)).unwrap();
    let target = (0..shelf.embedding_texts().len()).find(|&d| deferred_name(&shelf, d) == "get_me").unwrap();
    let vector = near(&values, target, &mut Rng(8));
    let lexical = shelf.search("list pull requests", Some(10));
    let fused = shelf.search_with_vector("list pull requests", Some(10), Some(&vector)).unwrap();
    let full = |r: &toolshelf::SearchResult| -> Vec<String> {
        r.matches.iter().filter(|m| !m.partial).map(|m| m.name.clone()).collect()
    };
    assert!(full(&fused).iter().all(|name| full(&lexical).contains(name)));
    assert!(fused.matches.iter().any(|m| m.name == "get_me" && m.partial), "{:?}", fused.matches);
}

#[test]
fn update_keeps_the_vectors_of_unchanged_tools_and_drops_the_rest() {
    let mut shelf = shelf_of(&["github-mcp-server", "linear-mcp-official"]);
    let values = random_vectors(&shelf, 5);
    shelf.set_embeddings(in_order(&values)).unwrap();
    let before: Vec<(String, String)> = shelf.embedding_texts();
    let probe = near(&values, 3, &mut Rng(9));
    let similar_before = shelf.search_with_vector("zzqx", Some(3), Some(&probe)).unwrap();
    // Change one linear tool's description, add stripe.
    let mut toolbox = common::grouped(&["github-mcp-server", "linear-mcp-official", "stripe-api-2022-04"]);
    let servers = match &mut toolbox {
        Value::Object(m) => &mut m[0].1,
        _ => unreachable!(),
    };
    let Value::Object(servers) = servers else { unreachable!() };
    let linear = servers.iter_mut().find(|(s, _)| s == "linear").unwrap();
    let Value::Array(list) = &mut linear.1 else { unreachable!() };
    let changed =
        toolshelf::json::parse(&list[0].to_json().replacen("\"description\":\"", "\"description\":\"Changed. ", 1))
            .unwrap();
    list[0] = changed;
    shelf.update(&toolbox).unwrap();
    let embeddings = shelf.embeddings().unwrap();
    let kept_texts: std::collections::BTreeSet<&str> = before.iter().map(|(_, t)| t.as_str()).collect();
    let after = shelf.embedding_texts();
    let kept = after.iter().filter(|(_, t)| kept_texts.contains(t.as_str())).count();
    assert_eq!(embeddings.count(), kept);
    assert_eq!(kept, before.len() - 1);
    // The unchanged tools' vectors are as before: the nearest are the same tools (their scores
    // are relative to the 20th nearest, which the new tools may change).
    let similar_after = shelf.search_with_vector("zzqx", Some(3), Some(&probe)).unwrap();
    let names = |r: &toolshelf::SearchResult| r.matches.iter().map(|m| m.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&similar_after), names(&similar_before));
    // The vectors of the new tools are given by key.
    let missing: Vec<String> =
        after.iter().filter(|(_, t)| !kept_texts.contains(t.as_str())).map(|(k, _)| k.clone()).collect();
    let mut rng = Rng(10);
    let more: Vec<f32> = missing.iter().flat_map(|_| rng.vector()).collect();
    let keyed = Vectors { model: "test-model", dimensions: DIMS, values: &more, keys: Some(&missing) };
    shelf.set_embeddings(keyed).unwrap();
    assert_eq!(shelf.embeddings().unwrap().count(), after.len());
}

#[test]
fn vectors_that_do_not_fit_are_invalid_embeddings() {
    let mut shelf = shelf_of(&["linear-mcp-official"]);
    let values = random_vectors(&shelf, 6);
    let code = |shelf: &mut Shelf, v: Vectors<'_>| shelf.set_embeddings(v).unwrap_err().code;
    assert_eq!(code(&mut shelf, in_order(&values[DIMS..])), ErrorCode::InvalidEmbeddings, "one too few");
    assert_eq!(code(&mut shelf, in_order(&values[1..])), ErrorCode::InvalidEmbeddings, "not whole vectors");
    let mut nan = values.clone();
    nan[3] = f32::NAN;
    assert_eq!(code(&mut shelf, in_order(&nan)), ErrorCode::InvalidEmbeddings);
    let mut zero = values.clone();
    zero[..DIMS].fill(0.0);
    assert_eq!(code(&mut shelf, in_order(&zero)), ErrorCode::InvalidEmbeddings);
    let unnamed = Vectors { model: " ", ..in_order(&values) };
    assert_eq!(code(&mut shelf, unnamed), ErrorCode::InvalidEmbeddings);
    assert!(shelf.embeddings().is_none(), "a failed set leaves the shelf unchanged");
    let query = vec![0.5f32; DIMS];
    let err = shelf.search_with_vector("issue", None, Some(&query)).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidEmbeddings, "no vectors to compare with");
    shelf.set_embeddings(in_order(&values)).unwrap();
    let err = shelf.search_with_vector("issue", None, Some(&query[1..])).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidEmbeddings, "{}", err.message);
    let keys = vec![shelf.embedding_texts()[0].0.clone()];
    let other_model = Vectors { model: "other", dimensions: DIMS, values: &values[..DIMS], keys: Some(&keys) };
    assert_eq!(code(&mut shelf, other_model), ErrorCode::InvalidEmbeddings);
    let bad_key = vec![String::from("not-a-key")];
    let bad = Vectors { model: "test-model", dimensions: DIMS, values: &values[..DIMS], keys: Some(&bad_key) };
    assert_eq!(code(&mut shelf, bad), ErrorCode::InvalidEmbeddings);
    let unknown = vec![String::from("0123456789abcdef")];
    let ignored = Vectors { model: "test-model", dimensions: DIMS, values: &values[..DIMS], keys: Some(&unknown) };
    shelf.set_embeddings(ignored).unwrap();
}

/// int8 storage: the similarity of two random vectors is within 0.02 of the f32 cosine.
#[test]
fn int8_similarities_are_close_to_the_f32_cosine() {
    let mut shelf = shelf_of(&["linear-mcp-official"]);
    let values = random_vectors(&shelf, 11);
    shelf.set_embeddings(in_order(&values)).unwrap();
    let query = Rng(12).vector();
    let sims = shelf.embeddings().unwrap().similarities(&query).unwrap();
    let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    for (doc, sim) in sims.iter().enumerate() {
        let row = &values[doc * DIMS..(doc + 1) * DIMS];
        let cosine = row.iter().zip(&query).map(|(a, b)| a * b).sum::<f32>() / (norm(row) * norm(&query));
        assert!((sim - cosine).abs() < 0.02, "{doc}: {sim} vs {cosine}");
    }
}
