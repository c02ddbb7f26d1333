//! Ranking rules of SPEC §4 on small hand-made toolboxes: exact name first, BM25F order, full
//! matches before partial ones, unknown words reported, no word filtering the catalog, the
//! name-substring fallback, ties by name, and `explain`; and the `fullMatchesFirst` option over a
//! real catalog.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use toolshelf::search::{DocFields, SearchConfig, SearchIndex, Verdict};

/// A tool as `(name, server, description, parameter names)`.
type Spec = (&'static str, &'static str, &'static str, &'static [&'static str]);

const SHELF: &[Spec] = &[
    ("create_issue", "github", "Create a new issue in a repository.", &["owner", "repo", "title"]),
    ("list_issues", "github", "List issues in a repository.", &["owner", "repo", "state"]),
    ("issue_write", "github", "Create or update an issue.", &["method", "title"]),
    ("PostChargesChargeRefunds", "stripe", "Create a refund of a charge.", &["charge", "amount"]),
    ("GetCharges", "stripe", "Returns a list of charges.", &["limit"]),
    ("dns-records-for-a-zone-create-dns-record", "cloudflare", "Create DNS Record", &["zone_id", "type"]),
    ("api_v2010_CreateMessage", "twilio", "Send a new outgoing message.", &["To", "Body"]),
    ("send_email", "mailer", "Send an email message to a recipient.", &["to", "subject", "body"]),
    ("mcp__notes__save_note", "notes", "Save a note to the notebook.", &["text"]),
];

fn build(specs: &[Spec], config: SearchConfig) -> SearchIndex {
    let fields = specs.iter().map(|&(name, server, description, params)| DocFields {
        name,
        own: "",
        server,
        description,
        params: params.iter().map(|&p| p.into()).collect(),
        param_descriptions: Vec::new(),
        hints: Vec::new(),
    });
    SearchIndex::build(fields, config)
}

fn names(specs: &[Spec], index: &SearchIndex, query: &str, limit: usize) -> Vec<&'static str> {
    index.search(query, limit).iter().map(|hit| specs[hit.doc].0).collect()
}

/// The names of the hits for `query` over `SHELF` (default config, limit 10).
fn check(query: &str, expected: &[&str]) {
    let index = build(SHELF, SearchConfig::default());
    assert_eq!(names(SHELF, &index, query, 10), expected, "query {query:?}");
}

/// Only the first hit.
fn check_first(query: &str, expected: &str) {
    let index = build(SHELF, SearchConfig::default());
    assert_eq!(names(SHELF, &index, query, 1), [expected], "query {query:?}");
}

#[test]
fn exact_name_ranks_first() {
    check_first("issue_write", "issue_write");
    check_first("  ISSUE_WRITE  ", "issue_write");
    check_first("GetCharges", "GetCharges");
    check_first("getcharges", "GetCharges");
    check_first("save_note", "mcp__notes__save_note");
    check_first("mcp__notes__save_note", "mcp__notes__save_note");
}

#[test]
fn every_naming_style_is_found_by_its_words() {
    check_first("create issue", "create_issue");
    check_first("refund charge", "PostChargesChargeRefunds");
    check_first("create dns record", "dns-records-for-a-zone-create-dns-record");
    check_first("create message", "api_v2010_CreateMessage");
    check_first("list charges", "GetCharges");
    check_first("save note", "mcp__notes__save_note");
}

#[test]
fn stemming_and_synonyms_meet_other_forms() {
    check_first("refunds", "PostChargesChargeRefunds");
    check_first("sending emails", "send_email");
    check_first("add dns record", "dns-records-for-a-zone-create-dns-record");
}

#[test]
fn the_mcp_prefix_is_not_indexed_as_words() {
    // "mcp" reaches the tool only through the name-substring fallback, with no score.
    let index = build(SHELF, SearchConfig::default());
    assert_eq!(index.explain("mcp", 8).verdict, Verdict::Fallback);
    assert_eq!(index.search("mcp", 10)[0].score, 0.0);
    assert_eq!(index.explain("notes", 8).verdict, Verdict::Full);
}

/// The hits for `query` over `SHELF` as `(name, partial)`, and the unknown words.
fn ranked(query: &str) -> (Vec<(&'static str, bool)>, Vec<String>) {
    let index = build(SHELF, SearchConfig::default());
    let r = index.rank(query, 10);
    (r.hits.iter().map(|h| (SHELF[h.doc].0, h.partial)).collect(), r.unknown_words)
}

#[test]
fn full_matches_rank_before_partial_ones_and_no_word_filters() {
    // Only the refund tool holds both words: it is the one full match, first; the other create
    // tools still come, marked partial (the old rarest-word rule dropped them).
    let (hits, unknown) = ranked("create refund");
    assert_eq!(hits[0], ("PostChargesChargeRefunds", false));
    assert!(hits.len() > 1 && hits[1..].iter().all(|(_, partial)| *partial), "{hits:?}");
    assert!(hits.iter().any(|(name, _)| *name == "create_issue"));
    assert!(unknown.is_empty());
    // A word that occurs in a single tool does not hide the tools that lack it.
    let (hits, _) = ranked("create dns issue");
    for name in ["dns-records-for-a-zone-create-dns-record", "create_issue"] {
        assert!(hits.iter().any(|(n, _)| *n == name), "{name}: {hits:?}");
    }
}

#[test]
fn unknown_words_are_reported_and_every_match_is_partial() {
    let (hits, unknown) = ranked("send gmail email");
    assert_eq!(unknown, ["gmail"]);
    assert_eq!(hits[0].0, "send_email");
    assert!(hits.iter().all(|(_, partial)| *partial), "{hits:?}");
    // As written in the query, and never a filler word.
    let (_, unknown) = ranked("Please create a JIRA issue for me");
    assert_eq!(unknown, ["JIRA"]);
    // A word known only through a variant is still unknown (no tool mentions it), but its
    // variant finds the tool: "ticket" → issue.
    let (hits, unknown) = ranked("create ticket");
    assert_eq!(unknown, ["ticket"]);
    assert_eq!(hits[0].0, "create_issue");
}

#[test]
fn a_search_never_strands_the_model() {
    // Every query sharing a meaningful word with some tool gets matches.
    for query in ["post comment on ticket", "who can see my repository", "I want to look at charges", "send it"] {
        assert!(!ranked(query).0.is_empty(), "{query:?}");
    }
}

#[test]
fn name_words_rank_their_tool_first() {
    check_first("issue create", "create_issue");
    check_first("new issue", "create_issue");
    check_first("send an email", "send_email");
}

#[test]
fn fallback_is_the_query_inside_a_name() {
    // Only when no word scores: "issue" of "issue_wr" scores, "wr" is unknown.
    let (hits, unknown) = ranked("issue_wr");
    assert_eq!(hits[0], ("issue_write", true));
    assert_eq!(unknown, ["wr"]);
    check("cords-for-a", &["dns-records-for-a-zone-create-dns-record"]);
    // "charges" is a word of both charge tools, so they score: no fallback.
    let (hits, _) = ranked("charges");
    let found: Vec<&str> = hits.iter().map(|(n, _)| *n).collect();
    assert!(found.len() == 2 && found.contains(&"GetCharges") && found.contains(&"PostChargesChargeRefunds"));
    check("-", &[]);
    check("zzz", &[]);
}

#[test]
fn ties_go_by_name_whatever_the_input_order() {
    const SAME: &[Spec] = &[
        ("zeta", "s", "Send an email.", &[]),
        ("alpha", "s", "Send an email.", &[]),
        ("mid", "s", "Send an email.", &[]),
        ("Beta", "s", "Send an email.", &[]),
    ];
    let index = build(SAME, SearchConfig::default());
    assert_eq!(names(SAME, &index, "email", 10), ["Beta", "alpha", "mid", "zeta"]);
    let scores: Vec<f64> = index.search("email", 10).iter().map(|h| h.score).collect();
    assert!(scores.windows(2).all(|w| w[0] == w[1]) && scores[0] > 0.0);
}

#[test]
fn limit_is_honoured() {
    let index = build(SHELF, SearchConfig::default());
    assert_eq!(index.search("create", 0), []);
    assert_eq!(index.search("create", 2).len(), 2);
    assert_eq!(index.search("create", usize::MAX).len(), 5);
    assert_eq!(index.len(), SHELF.len());
    assert!(!index.is_empty());
}

#[test]
fn explain_says_why() {
    let index = build(SHELF, SearchConfig::default());
    let check = |query: &str, doc: usize, expected: Verdict| {
        assert_eq!(index.explain(query, doc).verdict, expected, "{query:?} doc {doc}");
    };
    check("issue_write", 2, Verdict::ExactName);
    check("create issue", 0, Verdict::Full);
    check("create refund", 0, Verdict::Partial(vec!["refund".into()]));
    check("send gmail email", 7, Verdict::Partial(vec![]));
    check("cords-for-a", 5, Verdict::Fallback);
    check("the of", 0, Verdict::NoTerms);
    check("create issue", 99, Verdict::NoSuchDoc);
    check("refund", 0, Verdict::NoMatch);
    assert_eq!(index.explain("send gmail email", 7).unknown_words, ["gmail"]);

    let why = index.explain("list issues", 1);
    let hit = index.search("list issues", 1)[0];
    assert_eq!(hit.doc, 1);
    assert!((hit.score - why.score).abs() < 1e-9 && why.score > 0.0);
    let terms: Vec<&str> = why.terms.iter().map(|t| t.term.as_str()).collect();
    assert_eq!(terms, ["list", "issu"]);
    assert!(why.terms.iter().all(|t| t.score > 0.0 && t.doc_freq > 0 && t.distinctive));
}

#[test]
fn plain_bm25_differs_from_the_default() {
    let plain = build(SHELF, SearchConfig::PLAIN_BM25);
    // Neither stemmed nor split, "refunds" meets no term: only the fallback finds the tool.
    assert_eq!(names(SHELF, &plain, "refunds", 10), ["PostChargesChargeRefunds"]);
    assert_eq!(plain.search("refunds", 10)[0].score, 0.0);
    let default = build(SHELF, SearchConfig::default());
    assert!(default.search("refunds", 10)[0].score > 0.0);
    assert_ne!(SearchConfig::PLAIN_BM25, SearchConfig::default());
}

/// The option `fullMatchesFirst` (SPEC §4.3 by default): over the real keyword queries, the default
/// answers list every full match before any partial one; `false` lists them by score alone,
/// partial ones still marked, and orders some query differently.
#[test]
fn full_matches_first_is_an_option() {
    use toolshelf::json::{parse, Value};
    use toolshelf::Shelf;
    let toolbox = common::grouped(&["github-mcp-server", "linear-mcp-official"]);
    let spec = Shelf::new(&toolbox, &Value::Null).unwrap();
    let by_score = Shelf::new(&toolbox, &parse(r#"{"fullMatchesFirst":false}"#).unwrap()).unwrap();
    let mut differ = 0;
    let queries = common::catalogs::keyword_queries();
    for q in queries.iter().filter(|q| q.catalog.starts_with("github") || q.catalog.starts_with("linear")) {
        let a = spec.search(&q.query, Some(10));
        let b = by_score.search(&q.query, Some(10));
        let partial_at = a.matches.iter().position(|m| m.partial).unwrap_or(a.matches.len());
        assert!(
            a.matches.iter().skip(partial_at).all(|m| m.partial),
            "{:?}: a full match after a partial one",
            q.query
        );
        assert!(b.matches.windows(2).all(|w| w[0].score >= w[1].score), "{:?}: not in score order", q.query);
        differ += usize::from(a.matches.iter().map(|m| &m.name).ne(b.matches.iter().map(|m| &m.name)));
    }
    assert!(differ > 0, "the option changed no answer");
}
