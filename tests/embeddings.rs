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
    let target =
        (0..shelf.embedding_texts().len()).find(|&d| deferred_name(&shelf, d) == "mcp__github__get_me").unwrap();
    let vector = near(&values, target, &mut Rng(8));
    let lexical = shelf.search("list pull requests", Some(10));
    let fused = shelf.search_with_vector("list pull requests", Some(10), Some(&vector)).unwrap();
    let full = |r: &toolshelf::SearchResult| -> Vec<String> {
        r.matches.iter().filter(|m| !m.partial).map(|m| m.name.clone()).collect()
    };
    assert!(full(&fused).iter().all(|name| full(&lexical).contains(name)));
    assert!(fused.matches.iter().any(|m| m.name == "mcp__github__get_me" && m.partial), "{:?}", fused.matches);
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
    // A key no deferred tool has is ignored and reported; only such keys is an error.
    let unknown = vec![String::from("0123456789abcdef")];
    let only_unknown = Vectors { model: "test-model", dimensions: DIMS, values: &values[..DIMS], keys: Some(&unknown) };
    assert_eq!(code(&mut shelf, only_unknown), ErrorCode::InvalidEmbeddings);
    let mixed_keys = vec![String::from("0123456789abcdef"), shelf.embedding_texts()[0].0.clone()];
    let mixed = Vectors { model: "test-model", dimensions: DIMS, values: &values[..2 * DIMS], keys: Some(&mixed_keys) };
    let stored = shelf.set_embeddings(mixed).unwrap();
    assert_eq!(stored.unknown_keys, unknown);
    assert_eq!((stored.stored, stored.missing), (shelf.embedding_texts().len(), 0));
}

/// SPEC §15: each bad input to `set_embeddings` is `invalid_embeddings` naming the first bad one
/// (the vector's index, or its key) and why, and leaves the shelf as it was: no vector set, no
/// dimension fixed, the vectors held untouched.
#[test]
fn each_bad_input_is_invalid_embeddings_naming_the_first_bad_one_and_changes_nothing() {
    let fresh = shelf_of(&["linear-mcp-official"]);
    let texts = fresh.embedding_texts();
    let keys: Vec<String> = texts.iter().map(|(k, _)| k.clone()).collect();
    let values = random_vectors(&fresh, 30);
    let with = |at: usize, x: f32| {
        let mut v = values.clone();
        v[at] = x;
        v
    };
    let zero_at = |doc: usize| {
        let mut v = values.clone();
        v[doc * DIMS..(doc + 1) * DIMS].fill(0.0);
        v
    };
    let unknown = String::from("0123456789abcdef");
    let two = |second: &str| vec![keys[0].clone(), String::from(second)];
    // (what, model, dimensions, values, keys, the message's part)
    type Case = (&'static str, &'static str, usize, Vec<f32>, Option<Vec<String>>, String);
    let cases: Vec<Case> = vec![
        ("an empty model", "", DIMS, values.clone(), None, "model".into()),
        ("a blank model", "  ", DIMS, values.clone(), None, "model".into()),
        ("an empty model, no vectors", "", DIMS, vec![], None, "model".into()),
        ("no vectors by key", "test-model", DIMS, vec![], Some(vec![]), "no vectors".into()),
        ("no vectors in order", "test-model", DIMS, vec![], None, format!("0 vectors for {}", texts.len())),
        ("one too few", "test-model", DIMS, values[DIMS..].to_vec(), None, format!("{} vectors for", texts.len() - 1)),
        ("not whole vectors", "test-model", DIMS, values[1..].to_vec(), None, "not whole vectors".into()),
        (
            "0 dimensions",
            "test-model",
            0,
            vec![],
            Some(vec![keys[0].clone()]),
            "vector ".to_string() + &keys[0] + ": empty",
        ),
        (
            "too many dimensions",
            "test-model",
            4097,
            vec![1.0; 4097],
            Some(vec![keys[0].clone()]),
            "4097 dimensions".into(),
        ),
        ("NaN", "test-model", DIMS, with(3 * DIMS + 5, f32::NAN), None, "vector 3: component 5 is NaN".into()),
        (
            "infinity",
            "test-model",
            DIMS,
            with(6 * DIMS, f32::INFINITY),
            None,
            "vector 6: component 0 is infinite".into(),
        ),
        (
            "-infinity",
            "test-model",
            DIMS,
            with(6 * DIMS + 1, f32::NEG_INFINITY),
            None,
            "vector 6: component 1 is infinite".into(),
        ),
        ("all zero", "test-model", DIMS, zero_at(8), None, "vector 8: all zero".into()),
        (
            "only an unknown key",
            "test-model",
            DIMS,
            values[..DIMS].to_vec(),
            Some(vec![unknown.clone()]),
            unknown.clone(),
        ),
        (
            "a key that is not one",
            "test-model",
            DIMS,
            values[..2 * DIMS].to_vec(),
            Some(two("nope")),
            "nope: not a key".into(),
        ),
        (
            "NaN by key",
            "test-model",
            DIMS,
            with(DIMS + 2, f32::NAN),
            Some(two(&keys[1])),
            format!("{}: component 2 is NaN", keys[1]),
        ),
        (
            "NaN under an unknown key",
            "test-model",
            DIMS,
            with(DIMS, f32::NAN),
            Some(two(&unknown)),
            format!("{unknown}: component 0 is NaN"),
        ),
    ];
    let fix = |mut v: Vec<f32>, keys: &Option<Vec<String>>| {
        // Keyed cases give one vector per key.
        if let Some(k) = keys {
            v.truncate(k.len() * DIMS.max(1));
        }
        v
    };
    for held in [false, true] {
        let mut shelf = shelf_of(&["linear-mcp-official"]);
        if held {
            shelf.set_embeddings(in_order(&values)).unwrap();
        }
        let before = shelf.embeddings().cloned();
        for (what, model, dimensions, values, keys, part) in &cases {
            let values = if *dimensions == DIMS { fix(values.clone(), keys) } else { values.clone() };
            let vectors = Vectors { model, dimensions: *dimensions, values: &values, keys: keys.as_deref() };
            let err = shelf.set_embeddings(vectors).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidEmbeddings, "{what}");
            assert!(err.message.contains(part.as_str()), "{what}: {:?} lacks {part:?}", err.message);
            assert_eq!(shelf.embeddings().cloned(), before, "{what}: the shelf changed");
        }
        // Held vectors of another model or dimension: by key, a mismatch; in order, a replacement.
        if held {
            let one = vec![keys[0].clone()];
            let other = Vectors { model: "other", dimensions: DIMS, values: &values[..DIMS], keys: Some(&one) };
            assert!(shelf.set_embeddings(other).unwrap_err().message.contains("other"));
            let short = Vectors { model: "test-model", dimensions: 3, values: &[1.0, 2.0, 3.0], keys: Some(&one) };
            let err = shelf.set_embeddings(short).unwrap_err();
            assert!(err.message.contains("3 dimensions, but the shelf's vectors have 64"), "{}", err.message);
            assert_eq!(shelf.embeddings().cloned(), before);
        }
        // After every failure any dimension is still taken in order (none was fixed).
        let wide: Vec<f32> = (0..texts.len() * 3).map(|i| (i % 7) as f32 + 1.0).collect();
        let stored = shelf.set_embeddings(Vectors { model: "wide", dimensions: 3, values: &wide, keys: None }).unwrap();
        assert_eq!((stored.stored, stored.missing, stored.unknown_keys.len()), (texts.len(), 0, 0));
    }
}

/// Tiny components (float32 subnormals) are a direction still: stored and searched, not zero.
#[test]
fn a_tiny_vector_is_a_direction() {
    let mut shelf = shelf_of(&["linear-mcp-official"]);
    let values: Vec<f32> = random_vectors(&shelf, 31).iter().map(|x| x * 1e-38).collect();
    shelf.set_embeddings(in_order(&values)).unwrap();
    let probe: Vec<f32> = values[4 * DIMS..5 * DIMS].to_vec();
    let found = shelf.search_with_vector("zzqx", Some(1), Some(&probe)).unwrap();
    assert_eq!(found.matches[0].name, deferred_name(&shelf, 4));
}

/// A query vector that is unusable (not finite, zero, empty, of another dimension) is an error
/// to `search_with_vector`, and to `unwrap_with_vectors` (what `unwrapAsync` calls) the lexical
/// search of that query with a warning naming it, the other queries of a batch still fused.
#[test]
fn an_unusable_query_vector_is_an_error_to_search_and_a_warning_to_unwrap() {
    let mut shelf = shelf_of(&["github-mcp-server", "linear-mcp-official"]);
    let values = random_vectors(&shelf, 32);
    let probe = |doc: usize| near(&values, doc, &mut Rng(doc as u64 + 1));
    let call = |queries: &[&str]| {
        let list: Vec<String> = queries.iter().map(|q| format!("{q:?}")).collect();
        format!(r#"{{"name":"tool_search","arguments":{{"queries":[{}]}}}}"#, list.join(","))
    };
    // No vectors on the shelf: every query lexical, one warning.
    let (lexical, warnings) = shelf.unwrap_with_vectors(&call(&["zzqx"]), &[("zzqx".into(), probe(3))]).unwrap();
    assert_eq!(lexical, shelf.unwrap_json(&call(&["zzqx"])).unwrap());
    assert!(warnings.len() == 1 && warnings[0].contains("no vectors"), "{warnings:?}");
    shelf.set_embeddings(in_order(&values)).unwrap();
    let mut zero = probe(3);
    zero.fill(0.0);
    let with = |x: f32| {
        let mut v = probe(3);
        v[7] = x;
        v
    };
    let cases: Vec<(&str, Vec<f32>, &str)> = vec![
        ("NaN", with(f32::NAN), "component 7 is NaN"),
        ("infinity", with(f32::INFINITY), "component 7 is infinite"),
        ("-infinity", with(f32::NEG_INFINITY), "component 7 is infinite"),
        ("all zero", zero, "all zero"),
        ("empty", vec![], "0 dimensions, but the shelf's vectors have 64"),
        ("short", probe(3)[1..].to_vec(), "63 dimensions, but the shelf's vectors have 64"),
    ];
    let both = call(&["zzqx", "create issue"]);
    let fused =
        shelf.unwrap_with_vectors(&both, &[("zzqx".into(), probe(3)), ("create issue".into(), probe(9))]).unwrap();
    assert!(fused.1.is_empty());
    let lexical = shelf.unwrap_json(&both).unwrap();
    let groups = |u: &toolshelf::Unwrapped| {
        let toolshelf::Unwrapped::Answer { content, .. } = u else { panic!("{u:?}") };
        toolshelf::json::parse(content).unwrap().get("results").unwrap().as_array().unwrap().to_vec()
    };
    for (what, bad, reason) in cases {
        let err = shelf.search_with_vector("issue", Some(5), Some(&bad)).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidEmbeddings, "{what}");
        assert!(err.message.contains(reason), "{what}: {}", err.message);
        let vectors = [("zzqx".into(), bad), ("create issue".into(), probe(9))];
        let (answer, warnings) = shelf.unwrap_with_vectors(&both, &vectors).unwrap();
        assert_eq!(warnings.len(), 1, "{what}: {warnings:?}");
        assert!(warnings[0].contains("\"zzqx\"") && warnings[0].contains(reason), "{what}: {}", warnings[0]);
        assert_eq!(groups(&answer)[0], groups(&lexical)[0], "{what}: zzqx lexical");
        assert_eq!(groups(&answer)[1], groups(&fused.0)[1], "{what}: create issue still fused");
    }
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

/// A snapshot holds the vectors as stored (SPEC §15): the loaded shelf has the same texts and
/// vectors and gives byte for byte the answers of the shelf it was taken from; the same vectors set
/// again change nothing.
#[test]
fn a_snapshot_holds_the_vectors_and_answers_as_the_shelf() {
    let mut shelf = shelf_of(&["github-mcp-server", "linear-mcp-official"]);
    let values = random_vectors(&shelf, 13);
    shelf.set_embeddings(in_order(&values)).unwrap();
    let mut loaded = Shelf::from_snapshot(shelf.snapshot(), None, None).unwrap();
    assert_eq!(loaded.embeddings(), shelf.embeddings());
    assert_eq!(loaded.embedding_texts(), shelf.embedding_texts());
    let probe = near(&values, 9, &mut Rng(14));
    let answers =
        |s: &Shelf| QUERIES.map(|q| s.search_with_vector(q, Some(8), Some(&probe)).unwrap().to_value().to_json());
    assert_eq!(answers(&loaded), answers(&shelf));
    loaded.set_embeddings(in_order(&values)).unwrap();
    assert_eq!(answers(&loaded), answers(&shelf));
}

/// Two tools of the same text (servers `my-server` and `my_server`, the same tool) share a key:
/// a vector given by that key is both tools', and an update keeps it for both.
#[test]
fn tools_of_equal_text_share_the_vector_of_their_key() {
    let def =
        r#"{"type":"function","function":{"name":"send","description":"Send it.","parameters":{"type":"object"}}}"#;
    let other = r#"{"type":"function","function":{"name":"other","description":"Another tool.","parameters":{"type":"object"}}}"#;
    let toolbox = |extra: &str| {
        toolshelf::json::parse(&format!(r#"{{"servers":{{"my-server":[{def}],"my_server":[{def}{extra}]}}}}"#)).unwrap()
    };
    let mut shelf = Shelf::new(&toolbox(""), &toolshelf::json::parse(r#"{"qualify":true}"#).unwrap()).unwrap();
    let texts = shelf.embedding_texts();
    assert_eq!(texts.len(), 2);
    assert_eq!(texts[0], texts[1]);
    let keys = vec![texts[0].0.clone()];
    let vector = Rng(21).vector();
    shelf
        .set_embeddings(Vectors { model: "test-model", dimensions: DIMS, values: &vector, keys: Some(&keys) })
        .unwrap();
    assert_eq!(shelf.embeddings().unwrap().count(), 2);
    shelf.update(&toolbox(&format!(",{other}"))).unwrap();
    assert_eq!(shelf.embeddings().unwrap().count(), 2, "the new tool has none, the two keep theirs");
    let found = shelf.search_with_vector("zzqx", Some(3), Some(&vector)).unwrap();
    // The tool without a vector is no candidate of similarity (and no word of the query is its).
    assert_eq!(found.matches.len(), 2);
    assert!(found.matches.iter().all(|m| m.name.ends_with("send")), "{:?}", found.matches);
}
