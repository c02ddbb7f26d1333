//! Keyword search over a toolbox's deferred tools (SPEC §4): an inverted index built once, BM25
//! ranking with an admission gate, an exact-name rule, a name-substring fallback and a
//! deterministic order.
//!
//! Ranking, in order:
//! 1. a query equal to a tool name (case-insensitive, trimmed; with or without an
//!    `mcp__<server>__` prefix) ranks that tool first;
//! 2. BM25 ([`K1`], [`B`], [`idf`]) over one document per tool: name words (weighted
//!    [`SearchConfig::name_weight`] times), server name, description and top-level parameter
//!    names, analysed into lowercase, stemmed terms ([`tokenize`], [`stem`]);
//! 3. admission ([`SearchConfig::gate`]): a query of fewer than four distinct known terms admits
//!    only tools holding its rarest term, and a term the catalog does not know at all is the
//!    rarest there is, so "send gmail email" finds nothing in a catalog without Gmail; a query of
//!    four or more known terms admits tools holding its rarest known term and at least half of
//!    its known terms (an unknown term is first rescued if it can be: [`SearchConfig::rescue`]);
//! 4. when nothing is admitted, tools whose lowercased name contains the whole lowercased query;
//! 5. ties by tool name (code-point order), then server name, so results never depend on the order
//!    the tools were given in.
//!
//! Invariants: nothing here panics on any input, and no input drives recursion.

mod bm25;
mod intern;
pub mod stem;
pub mod tokenize;

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cmp::Ordering;

pub use bm25::{field_tf, idf, term_score, B, K1};
use tokenize::{strip_mcp_prefix, Analyzer};

/// Longest query looked at, in code points; the rest is ignored.
pub const MAX_QUERY_CHARS: usize = 1_000;

/// Shortest term read as a prefix of known terms when it is itself unknown.
pub const MIN_PREFIX_CHARS: usize = 3;

/// Distinct known terms from which a query counts as long (the "half of them" rule).
pub const LONG_QUERY_TERMS: usize = 4;

/// The searchable text of one tool.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DocFields<'a> {
    /// The tool name as the model calls it (an `mcp__<server>__` prefix is not indexed as words).
    pub name: &'a str,
    /// The server (or group) the tool belongs to.
    pub server: &'a str,
    /// The whole description.
    pub description: &'a str,
    /// Top-level parameter names of the input schema.
    pub params: Vec<&'a str>,
}

/// How documents and queries are analysed and admitted. The default is the measured best
/// (docs/search.md); the other settings exist for the ablations of the retrieval benchmark.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Snowball English stemming of every term (`refunds` meets `refund`).
    pub stemming: bool,
    /// Split words at case changes (`PostChargesChargeRefunds`); separators and letter/digit
    /// boundaries always split.
    pub split_camel: bool,
    /// The admission rules (rarest term, half of a long query's terms). Off, any tool holding any
    /// query term is a hit.
    pub gate: bool,
    /// How many times a term of the tool name counts (1 = like any other field).
    pub name_weight: u32,
    /// How much a term of the parameter names counts (1.0 = like the description). Below 1, a
    /// tool named for the query (`list_projects`) outranks one that merely takes it as a
    /// parameter (`list_milestones(project)`).
    pub param_weight: f64,
    /// Drop English function words ("the", "of", "to", ...) from documents and queries.
    pub stopwords: bool,
    /// Fold a few action verbs onto one term (add/new → create, remove → delete,
    /// edit/modify → update, retrieve → get).
    pub synonyms: bool,
    /// Rescue a query term no tool has: join it with a neighbouring word ("hacker news" meets
    /// `hackernews`), else read it as a prefix of known terms ("docs" meets `documentation`,
    /// "repo" meets `repository`). A term that stays unknown ("gmail") is unknown.
    pub rescue: bool,
}

impl SearchConfig {
    /// Plain BM25: words split only at separators and digits, no stemming, no stop words, no
    /// synonyms, every field weighted alike, no admission gate. The baseline of the benchmark.
    pub const PLAIN_BM25: SearchConfig = SearchConfig {
        stemming: false,
        split_camel: false,
        gate: false,
        name_weight: 1,
        param_weight: 1.0,
        stopwords: false,
        synonyms: false,
        rescue: false,
    };
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            stemming: true,
            split_camel: true,
            gate: true,
            name_weight: 2,
            param_weight: 0.5,
            stopwords: true,
            synonyms: true,
            rescue: true,
        }
    }
}

/// One search result: the tool's index in build order and its BM25 score (0 for a fallback hit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Index of the tool in the order given to [`SearchIndex::build`].
    pub doc: usize,
    /// BM25 score; hits are ordered by it after exact-name hits.
    pub score: f64,
}

/// How one query term bears on one tool.
#[derive(Clone, Debug, PartialEq)]
pub struct TermExplanation {
    /// The analysed term (lowercase, stemmed).
    pub term: String,
    /// In how many tools of the index it occurs.
    pub doc_freq: usize,
    /// Its inverse document frequency ([`idf`]).
    pub idf: f64,
    /// Its frequency in this tool, each field's count weighted (the name
    /// [`SearchConfig::name_weight`] times) and normalised by the field's length ([`field_tf`]).
    pub term_freq: f64,
    /// What it adds to this tool's score.
    pub score: f64,
    /// Whether admission requires it (the rarest term, or one of several equally rare).
    pub required: bool,
}

/// Why a tool is or is not a hit for a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The query is the tool's name: ranked first.
    ExactName,
    /// Admitted by the gate; ranked by score.
    Admitted,
    /// Nothing was admitted and the tool's name contains the query: a fallback hit.
    Fallback,
    /// The index has no tool with this number.
    NoSuchDoc,
    /// The query has no searchable terms.
    NoTerms,
    /// A short query has a term no tool has, so it admits nothing.
    UnknownTerm(String),
    /// The tool lacks the query's rarest term (any one of these).
    MissingRarest(Vec<String>),
    /// A long query: the tool holds `matched` of its known terms and needs `needed`.
    TooFewTerms {
        /// Known query terms the tool holds.
        matched: usize,
        /// How many it needs (half of the known terms, rounded up).
        needed: usize,
    },
    /// The tool holds none of the query terms.
    NoMatch,
}

/// Why one tool did or did not score for a query ([`SearchIndex::explain`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// The tool asked about.
    pub doc: usize,
    /// Every distinct query term, whether the tool has it or not.
    pub terms: Vec<TermExplanation>,
    /// The tool's BM25 score (sum of the term scores).
    pub score: f64,
    /// Whether, and why, the tool is a hit.
    pub verdict: Verdict,
}

/// One tool of the index, as ranking needs it.
#[derive(Clone, Debug)]
struct Doc {
    name: String,
    server: String,
    lower_name: String,
}

/// The fields of a tool document: name, server, description, parameter names.
const FIELDS: usize = 4;
const NAME: usize = 0;
const DESCRIPTION: usize = 2;

/// A term's count in each field of one tool, or a tool's length in terms per field.
type FieldCounts = [u32; FIELDS];

/// One occurrence list entry: a tool and the term's field-weighted, length-normalised frequency.
#[derive(Clone, Copy, Debug)]
struct Posting {
    doc: usize,
    term_freq: f64,
}

/// The prepared search of one toolbox: built once, queried many times.
#[derive(Clone, Debug)]
pub struct SearchIndex {
    analyzer: Analyzer,
    config: SearchConfig,
    docs: Vec<Doc>,
    /// Sorted terms; `postings[i]` lists the tools holding `terms[i]`, in build order.
    terms: Vec<String>,
    postings: Vec<Vec<Posting>>,
    /// Lowercased names (with and without an `mcp__` prefix) and their tool, sorted.
    names: Vec<(String, usize)>,
}

/// A query term with its occurrence list.
struct QueryTerm<'i> {
    /// The term (a rescued prefix ends in `*`).
    term: String,
    postings: Cow<'i, [Posting]>,
    idf: f64,
    required: bool,
}

/// What admission asks of a tool for one query.
#[derive(Debug, PartialEq, Eq)]
enum Gate {
    /// Nothing is admitted (no terms, or an unknown term in a short query).
    Closed(Verdict),
    /// A tool must hold a required term (if any are marked) and `min_matched` query terms.
    Open { min_matched: usize },
}

/// A query analysed against the index.
struct Plan<'i> {
    query: String,
    terms: Vec<QueryTerm<'i>>,
    gate: Gate,
}

/// Per-tool accumulators of one query, filled from the occurrence lists only.
struct Scores {
    score: Vec<f64>,
    matched: Vec<usize>,
    has_required: Vec<bool>,
    touched: Vec<usize>,
}

impl SearchIndex {
    /// Indexes `docs`; a tool's number in every [`Hit`] is its position here.
    pub fn build<'a>(docs: impl IntoIterator<Item = DocFields<'a>>, config: SearchConfig) -> SearchIndex {
        let analyzer = Analyzer::new(&config);
        let mut vocabulary = Vocabulary::default();
        let mut by_term: Vec<Vec<(usize, FieldCounts)>> = Vec::new();
        let mut metas = Vec::new();
        let mut lengths: Vec<FieldCounts> = Vec::new();
        for (doc, fields) in docs.into_iter().enumerate() {
            let (counts, length) = field_term_counts(&analyzer, &mut vocabulary, &fields);
            for (term, in_fields) in counts {
                let term = term as usize;
                if by_term.len() <= term {
                    by_term.resize_with(term + 1, Vec::new);
                }
                if let Some(list) = by_term.get_mut(term) {
                    list.push((doc, in_fields));
                }
            }
            lengths.push(length);
            metas.push(Doc {
                name: fields.name.to_string(),
                server: fields.server.to_string(),
                lower_name: fields.name.to_lowercase(),
            });
        }
        let weights = [f64::from(config.name_weight.max(1)), 1.0, 1.0, config.param_weight.clamp(0.0, 4.0)];
        let normalise = FieldNorms { weights, avg_len: average_lengths(&lengths), lengths };
        // Terms in code-point order, each with its occurrence list (tools in build order).
        let mut order: Vec<usize> = (0..vocabulary.terms.len()).collect();
        order.sort_unstable_by(|&a, &b| vocabulary.terms.get(a).cmp(&vocabulary.terms.get(b)));
        let (terms, postings) = order
            .into_iter()
            .map(|id| {
                let term = vocabulary.terms.get_mut(id).map(core::mem::take).unwrap_or_default();
                let list = by_term.get_mut(id).map(core::mem::take).unwrap_or_default();
                (term, list.into_iter().map(|(doc, tf)| normalise.posting(doc, tf)).collect())
            })
            .unzip();
        let names = sorted_names(&metas);
        SearchIndex { analyzer, config, docs: metas, terms, postings, names }
    }

    /// The best `limit` tools for `query`, best first (see the module docs for the order).
    pub fn search(&self, query: &str, limit: usize) -> Vec<Hit> {
        if limit == 0 {
            return Vec::new();
        }
        let plan = self.plan(query);
        let exact = self.exact_matches(&plan.query);
        let scores = self.score(&plan);
        let mut hits: Vec<(bool, Hit)> = exact.iter().map(|&doc| (true, scores.hit(doc))).collect();
        for &doc in &scores.touched {
            if !exact.contains(&doc) && self.admits(&plan, &scores, doc).is_ok() {
                hits.push((false, scores.hit(doc)));
            }
        }
        if hits.is_empty() {
            hits = self.fallback(&plan.query).into_iter().map(|doc| (false, Hit { doc, score: 0.0 })).collect();
        }
        hits.sort_by(|a, b| self.rank_order(a, b));
        hits.into_iter().take(limit).map(|(_, hit)| hit).collect()
    }

    /// Which query terms `doc` holds, what each adds, and whether and why it is a hit.
    pub fn explain(&self, query: &str, doc: usize) -> Explanation {
        let plan = self.plan(query);
        let scores = self.score(&plan);
        let terms = plan.terms.iter().map(|t| self.explain_term(t, doc)).collect();
        let score = scores.score.get(doc).copied().unwrap_or(0.0);
        let verdict = self.verdict(&plan, &scores, doc);
        Explanation { doc, terms, score, verdict }
    }

    /// Number of tools indexed.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// Whether no tool is indexed.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// The configuration the index was built with.
    pub fn config(&self) -> SearchConfig {
        self.config
    }

    /// Analyses the query: its distinct terms, their statistics, and what admission asks.
    fn plan(&self, query: &str) -> Plan<'_> {
        let raw = cut_query(query).trim();
        let words = tokenize::words(raw, self.analyzer.splits_camel());
        let mut terms: Vec<QueryTerm<'_>> = Vec::new();
        for (i, word) in words.iter().enumerate() {
            let Some(term) = self.analyzer.term(word) else {
                continue;
            };
            let found = self.query_term(term, &words, i);
            if !terms.iter().any(|t| t.term == found.term) {
                terms.push(found);
            }
        }
        terms.sort_unstable_by(|a, b| a.term.cmp(&b.term));
        let gate = self.mark_gate(&mut terms);
        Plan { query: raw.to_lowercase(), terms, gate }
    }

    /// The query term for `term` (from `words[i]`). With rescue on, a tool also holds it when it
    /// holds the word joined with a neighbour (`hacker` + `news` in `hackernews`), and an unknown
    /// term is read as a prefix of known terms.
    fn query_term(&self, term: String, words: &[String], i: usize) -> QueryTerm<'_> {
        let postings = self.postings_of(&term);
        if !self.config.rescue {
            return self.query_term_of(term, Cow::Borrowed(postings));
        }
        let compounds = self.compound_postings(words, i);
        if compounds.is_empty() && !postings.is_empty() {
            return self.query_term_of(term, Cow::Borrowed(postings));
        }
        if postings.is_empty() && compounds.is_empty() {
            let expanded = self.prefix_postings(&term);
            let term = if expanded.is_empty() { term } else { format!("{term}*") };
            return self.query_term_of(term, Cow::Owned(expanded));
        }
        self.query_term_of(term, Cow::Owned(merge_postings(postings.iter().chain(&compounds).copied())))
    }

    /// Occurrences of `words[i]` joined with the word before or after it, as one known term.
    fn compound_postings(&self, words: &[String], i: usize) -> Vec<Posting> {
        let word = words.get(i).map_or("", String::as_str);
        let before = i.checked_sub(1).and_then(|p| words.get(p)).map(|prev| format!("{prev}{word}"));
        let after = words.get(i + 1).map(|next| format!("{word}{next}"));
        let mut found = Vec::new();
        for joined in [before, after].into_iter().flatten() {
            if let Some(term) = self.analyzer.term(&joined) {
                found.extend_from_slice(self.postings_of(&term));
            }
        }
        found
    }

    fn query_term_of<'i>(&'i self, term: String, postings: Cow<'i, [Posting]>) -> QueryTerm<'i> {
        let idf = idf(self.docs.len(), postings.len());
        QueryTerm { term, postings, idf, required: false }
    }

    /// The tools holding any known term that starts with `prefix`, each with its best frequency.
    fn prefix_postings(&self, prefix: &str) -> Vec<Posting> {
        if prefix.chars().count() < MIN_PREFIX_CHARS {
            return Vec::new();
        }
        let start = self.terms.partition_point(|t| t.as_str() < prefix);
        let found = self
            .terms
            .get(start..)
            .unwrap_or(&[])
            .iter()
            .zip(self.postings.get(start..).unwrap_or(&[]))
            .take_while(|(t, _)| t.starts_with(prefix))
            .flat_map(|(_, list)| list.iter().copied());
        merge_postings(found)
    }

    /// Decides the admission rule for these terms and marks the required (rarest) ones.
    fn mark_gate(&self, terms: &mut [QueryTerm<'_>]) -> Gate {
        if terms.is_empty() {
            return Gate::Closed(Verdict::NoTerms);
        }
        if !self.config.gate {
            return Gate::Open { min_matched: 1 };
        }
        let known = terms.iter().filter(|t| !t.postings.is_empty()).count();
        let long = known >= LONG_QUERY_TERMS;
        if !long {
            if let Some(unknown) = terms.iter().find(|t| t.postings.is_empty()) {
                return Gate::Closed(Verdict::UnknownTerm(unknown.term.clone()));
            }
        }
        let rarest = terms.iter().map(|t| t.postings.len()).filter(|&n| n > 0).min().unwrap_or(0);
        for t in terms.iter_mut() {
            t.required = !t.postings.is_empty() && t.postings.len() == rarest;
        }
        Gate::Open { min_matched: if long { known.div_ceil(2) } else { 1 } }
    }

    /// Sums the BM25 contributions of every query term into the tools that hold it.
    fn score(&self, plan: &Plan<'_>) -> Scores {
        let n = self.docs.len();
        let mut s = Scores {
            score: alloc::vec![0.0; n],
            matched: alloc::vec![0; n],
            has_required: alloc::vec![false; n],
            touched: Vec::new(),
        };
        for term in &plan.terms {
            for posting in term.postings.iter() {
                s.add(posting.doc, term_score(term.idf, posting.term_freq), term.required);
            }
        }
        s.touched.sort_unstable();
        s
    }

    /// `Ok` if the gate admits `doc`, else the reason it does not.
    fn admits(&self, plan: &Plan<'_>, scores: &Scores, doc: usize) -> Result<(), Verdict> {
        let min_matched = match &plan.gate {
            Gate::Closed(why) => return Err(why.clone()),
            Gate::Open { min_matched } => *min_matched,
        };
        let matched = scores.matched.get(doc).copied().unwrap_or(0);
        if matched == 0 {
            return Err(Verdict::NoMatch);
        }
        let requires_rarest = plan.terms.iter().any(|t| t.required);
        if requires_rarest && !scores.has_required.get(doc).copied().unwrap_or(false) {
            let rarest = plan.terms.iter().filter(|t| t.required).map(|t| t.term.clone()).collect();
            return Err(Verdict::MissingRarest(rarest));
        }
        if matched < min_matched {
            return Err(Verdict::TooFewTerms { matched, needed: min_matched });
        }
        Ok(())
    }

    /// The full verdict for `doc`, including the exact-name rule and the fallback.
    fn verdict(&self, plan: &Plan<'_>, scores: &Scores, doc: usize) -> Verdict {
        let Some(meta) = self.docs.get(doc) else {
            return Verdict::NoSuchDoc;
        };
        let exact = self.exact_matches(&plan.query);
        if exact.contains(&doc) {
            return Verdict::ExactName;
        }
        let rejection = match self.admits(plan, scores, doc) {
            Ok(()) => return Verdict::Admitted,
            Err(why) => why,
        };
        let nothing_admitted =
            exact.is_empty() && !scores.touched.iter().any(|&d| self.admits(plan, scores, d).is_ok());
        if nothing_admitted && name_contains_query(&meta.lower_name, &plan.query) {
            return Verdict::Fallback;
        }
        rejection
    }

    fn explain_term(&self, term: &QueryTerm<'_>, doc: usize) -> TermExplanation {
        let term_freq = term
            .postings
            .binary_search_by_key(&doc, |p| p.doc)
            .ok()
            .and_then(|i| term.postings.get(i))
            .map_or(0.0, |p| p.term_freq);
        TermExplanation {
            term: term.term.clone(),
            doc_freq: term.postings.len(),
            idf: term.idf,
            term_freq,
            score: term_score(term.idf, term_freq),
            required: term.required,
        }
    }

    fn postings_of(&self, term: &str) -> &[Posting] {
        match self.terms.binary_search_by(|t| t.as_str().cmp(term)) {
            Ok(i) => self.postings.get(i).map_or(&[], Vec::as_slice),
            Err(_) => &[],
        }
    }

    /// Tools whose lowercased name (with or without an `mcp__` prefix) is the lowercased query.
    fn exact_matches(&self, lower_query: &str) -> Vec<usize> {
        if lower_query.is_empty() {
            return Vec::new();
        }
        let start = self.names.partition_point(|(name, _)| name.as_str() < lower_query);
        let mut docs: Vec<usize> = self
            .names
            .get(start..)
            .unwrap_or(&[])
            .iter()
            .take_while(|(name, _)| name == lower_query)
            .map(|&(_, doc)| doc)
            .collect();
        docs.sort_unstable();
        docs.dedup();
        docs
    }

    /// The seed fallback: tools whose lowercased name contains the whole lowercased query.
    fn fallback(&self, lower_query: &str) -> Vec<usize> {
        (0..self.docs.len())
            .filter(|&doc| self.docs.get(doc).is_some_and(|d| name_contains_query(&d.lower_name, lower_query)))
            .collect()
    }

    /// Exact-name hits first, then score (highest first), then name, then server.
    fn rank_order(&self, a: &(bool, Hit), b: &(bool, Hit)) -> Ordering {
        b.0.cmp(&a.0)
            .then_with(|| b.1.score.total_cmp(&a.1.score))
            .then_with(|| self.tie_key(a.1.doc).cmp(&self.tie_key(b.1.doc)))
            .then_with(|| a.1.doc.cmp(&b.1.doc))
    }

    fn tie_key(&self, doc: usize) -> (&str, &str) {
        self.docs.get(doc).map_or(("", ""), |d| (d.name.as_str(), d.server.as_str()))
    }
}

impl Scores {
    fn add(&mut self, doc: usize, score: f64, required: bool) {
        let (Some(s), Some(m), Some(r)) =
            (self.score.get_mut(doc), self.matched.get_mut(doc), self.has_required.get_mut(doc))
        else {
            return;
        };
        if *m == 0 {
            self.touched.push(doc);
        }
        *s += score;
        *m += 1;
        *r |= required;
    }

    fn hit(&self, doc: usize) -> Hit {
        Hit { doc, score: self.score.get(doc).copied().unwrap_or(0.0) }
    }
}

/// Turns per-field counts into BM25F frequencies: field weights and per-field average lengths.
struct FieldNorms {
    weights: [f64; FIELDS],
    avg_len: [f64; FIELDS],
    lengths: Vec<FieldCounts>,
}

impl FieldNorms {
    fn posting(&self, doc: usize, in_fields: FieldCounts) -> Posting {
        let length = self.lengths.get(doc).copied().unwrap_or_default();
        let term_freq = (0..FIELDS)
            .filter_map(|f| {
                let tf = f64::from(*in_fields.get(f)?);
                let len = f64::from(*length.get(f)?);
                Some(field_tf(tf, *self.weights.get(f)?, len, *self.avg_len.get(f)?))
            })
            .sum();
        Posting { doc, term_freq }
    }
}

fn average_lengths(lengths: &[FieldCounts]) -> [f64; FIELDS] {
    let mut avg = [0.0; FIELDS];
    for length in lengths {
        for (sum, n) in avg.iter_mut().zip(length) {
            *sum += f64::from(*n);
        }
    }
    let docs = lengths.len().max(1) as f64;
    avg.map(|sum| sum / docs)
}

/// The distinct words and terms met while building: each word is analysed once (stemming is
/// most of the build's work, and tools repeat their words), each term numbered once.
#[derive(Default)]
struct Vocabulary {
    /// Lowercase word → 1 + its term's number, or 0 for a word with no term (a stop word).
    words: intern::StrMap,
    /// Term → its number, an index into `terms`.
    numbers: intern::StrMap,
    terms: Vec<String>,
    /// Reused buffer for the word being looked up.
    buf: String,
}

impl Vocabulary {
    /// The number of the term of `word` (analysed by `analyzer` the first time), if it has one.
    fn term(&mut self, analyzer: &Analyzer, word: &str) -> Option<u32> {
        if let Some(code) = self.words.get(word) {
            return code.checked_sub(1);
        }
        let number = analyzer.term(word).map(|term| match self.numbers.get(&term) {
            Some(number) => number,
            None => {
                let number = self.terms.len() as u32;
                self.numbers.insert(&term, number);
                self.terms.push(term);
                number
            }
        });
        self.words.insert(word, number.map_or(0, |n| n + 1));
        number
    }
}

/// The terms (by number) of one tool with their count in each field, and its field lengths.
/// A name term counts once however often the name repeats it: REST names repeat path parameters
/// (`PostCustomersCustomerSources`), which says nothing about what the tool does.
fn field_term_counts(
    analyzer: &Analyzer,
    vocabulary: &mut Vocabulary,
    fields: &DocFields<'_>,
) -> (Vec<(u32, FieldCounts)>, FieldCounts) {
    let mut found: Vec<(u32, usize)> = Vec::new();
    let mut buf = core::mem::take(&mut vocabulary.buf);
    let mut push = |text: &str, field: usize| {
        analyzer.document_words(text, field == DESCRIPTION, &mut buf, |word| {
            if let Some(term) = vocabulary.term(analyzer, word) {
                found.push((term, field));
            }
        });
    };
    push(strip_mcp_prefix(fields.name), NAME);
    push(fields.server, 1);
    push(fields.description, DESCRIPTION);
    for param in &fields.params {
        push(param, 3);
    }
    vocabulary.buf = buf;
    let mut length = FieldCounts::default();
    for (_, field) in &found {
        if let Some(n) = length.get_mut(*field) {
            *n = n.saturating_add(1);
        }
    }
    found.sort_unstable();
    let mut counts: Vec<(u32, FieldCounts)> = Vec::new();
    for (term, field) in found {
        if counts.last().is_none_or(|(last, _)| *last != term) {
            counts.push((term, FieldCounts::default()));
        }
        if let Some(n) = counts.last_mut().and_then(|(_, c)| c.get_mut(field)) {
            *n = if field == NAME { 1 } else { n.saturating_add(1) };
        }
    }
    (counts, length)
}

/// One occurrence list from several: sorted by tool, each tool once with its highest frequency.
fn merge_postings(postings: impl Iterator<Item = Posting>) -> Vec<Posting> {
    let mut merged: Vec<Posting> = postings.collect();
    merged.sort_unstable_by(|a, b| a.doc.cmp(&b.doc).then(b.term_freq.total_cmp(&a.term_freq)));
    merged.dedup_by_key(|p| p.doc);
    merged
}

/// Every tool's lowercased name, and its name without an `mcp__` prefix, sorted for lookup.
fn sorted_names(docs: &[Doc]) -> Vec<(String, usize)> {
    let mut names = Vec::new();
    for (doc, meta) in docs.iter().enumerate() {
        names.push((meta.lower_name.clone(), doc));
        let bare = strip_mcp_prefix(&meta.lower_name);
        if bare.len() != meta.lower_name.len() {
            names.push((bare.to_string(), doc));
        }
    }
    names.sort_unstable();
    names
}

/// The query cut to [`MAX_QUERY_CHARS`] code points.
fn cut_query(query: &str) -> &str {
    match query.char_indices().nth(MAX_QUERY_CHARS) {
        Some((end, _)) => query.get(..end).unwrap_or(query),
        None => query,
    }
}

/// Fallback test: a query with at least one letter or digit, contained in the name.
fn name_contains_query(lower_name: &str, lower_query: &str) -> bool {
    lower_query.chars().any(char::is_alphanumeric) && lower_name.contains(lower_query)
}
