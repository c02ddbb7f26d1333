//! Ranking rules of SPEC §4 on small hand-made toolboxes: exact name first, BM25 order, the
//! admission gate, the name-substring fallback, ties by name, and `explain`.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

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
        server,
        description,
        params: params.to_vec(),
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
    assert_eq!(index.explain("notes", 8).verdict, Verdict::Admitted);
}

#[test]
fn rarest_term_is_required() {
    // "refund" is in one tool, "create" in four: only the refund tool is admitted.
    check("create refund", &["PostChargesChargeRefunds"]);
    // "dns" is rarer than "create": the other create tools stay out.
    check("create dns", &["dns-records-for-a-zone-create-dns-record"]);
}

#[test]
fn an_unknown_term_in_a_short_query_admits_nothing() {
    check("send gmail email", &[]);
    check("create jira issue", &[]);
    let open = SearchConfig { gate: false, ..SearchConfig::default() };
    let index = build(SHELF, open);
    assert_eq!(names(SHELF, &index, "send gmail email", 10)[0], "send_email");
}

#[test]
fn a_long_query_needs_half_its_known_terms() {
    // Known terms: send, email, messag, recipi (4): a tool needs the rarest and two of them.
    check("send email message recipient", &["send_email"]);
    // create, issu, repositori, list, charg: create_issue and list_issues hold three of five.
    let index = build(SHELF, SearchConfig::default());
    let hits = names(SHELF, &index, "create issue repository list charges", 10);
    assert!(hits.iter().all(|n| [
        "create_issue",
        "list_issues",
        "issue_write",
        "GetCharges",
        "PostChargesChargeRefunds"
    ]
    .contains(n)));
    let why = index.explain("create issue repository list charges", 6);
    assert!(matches!(why.verdict, Verdict::TooFewTerms { needed: 3, .. } | Verdict::MissingRarest(_)), "{why:?}");
}

#[test]
fn fallback_is_the_query_inside_a_name() {
    check("issue_wr", &["issue_write"]);
    check("cords-for-a", &["dns-records-for-a-zone-create-dns-record"]);
    check("charges", &["GetCharges", "PostChargesChargeRefunds"]);
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
    check("create issue", 0, Verdict::Admitted);
    check("create refund", 0, Verdict::MissingRarest(vec!["refund".into()]));
    check("send gmail email", 7, Verdict::UnknownTerm("gmail".into()));
    check("issue_wr", 2, Verdict::Fallback);
    check("the of", 0, Verdict::NoTerms);
    check("create issue", 99, Verdict::NoSuchDoc);
    let gate_off = build(SHELF, SearchConfig { gate: false, ..SearchConfig::default() });
    assert_eq!(gate_off.explain("refund", 0).verdict, Verdict::NoMatch);

    let why = index.explain("create issue", 0);
    let hit = index.search("create issue", 1)[0];
    assert_eq!((hit.doc, hit.score), (0, why.score));
    let total: f64 = why.terms.iter().map(|t| t.score).sum();
    assert!((total - why.score).abs() < 1e-9);
    let terms: Vec<&str> = why.terms.iter().map(|t| t.term.as_str()).collect();
    assert_eq!(terms, ["creat", "issu"]);
    assert!(why.terms.iter().all(|t| t.term_freq > 0.0 && t.idf > 0.0 && t.doc_freq > 0));
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
