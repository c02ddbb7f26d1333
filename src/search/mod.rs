//! Keyword search over a toolbox's deferred tools (SPEC §4): an inverted index built once, BM25F
//! ranking of every tool that shares a meaningful word with the query, full matches before
//! partial ones, unknown words reported, an exact-name rule, a name-substring fallback and a
//! deterministic order.
//!
//! Ranking, in order:
//! 1. a query equal to a tool name (case-insensitive, trimmed; with or without an
//!    `mcp__<server>__` prefix) ranks that tool first;
//! 2. BM25F ([`K1`], [`idf`], length normalisation [`SearchConfig::length_norm`]) over one
//!    document per tool with six fields: name words
//!    (weighted [`SearchConfig::name_weight`] times), server name, the description's first
//!    sentence ([`SearchConfig::summary_weight`]), the rest of the description, top-level
//!    parameter names ([`SearchConfig::param_weight`]) and their descriptions
//!    ([`SearchConfig::param_text_weight`]), analysed into lowercase, stemmed terms
//!    ([`tokenize`], [`stem`]). The query is read as *concepts*: each content word (filler words
//!    dropped) with its variants (`ticket` also finds `issue`, at [`SearchConfig::variant_weight`])
//!    and rescues (a word joined with its neighbour, or read as a prefix); values written in the
//!    query (`#7`, `ENG-123`, `example.com`) are arguments ([`SearchConfig::values`]); a tool
//!    scores the best of a concept's alternatives; its score is scaled by the share of the
//!    query's concepts it holds ([`SearchConfig::coordination`]); tools whose name words the
//!    query says are raised ([`SearchConfig::name_bonus`], name terms weighted by idf), then
//!    every tool gains a share of its server's best score ([`SearchConfig::server_boost`]);
//! 3. a tool that holds every *distinctive* concept of the query is a full match and ranks before
//!    every partial one ([`SearchConfig::full_first`]); no word filters the catalog;
//! 4. query words no tool holds are returned as unknown, and then every match is partial;
//! 5. when nothing scores, tools whose lowercased name contains the whole lowercased query;
//! 6. ties by tool name (code-point order), then server name, so results never depend on the order
//!    the tools were given in.
//!
//! Invariants: nothing here panics on any input, no input drives recursion, and a query costs the
//! occurrence lists of its words (at most [`MAX_QUERY_CONCEPTS`] words), a pass over the tools they
//! touch, and a sort of the best `limit` of them.
//!
//! Layer 7 of ARCHITECTURE.md's Layers: imports only the rooms of the layers below.

mod bm25;
pub mod embed;
pub(crate) mod flat;
pub(crate) mod intern;
pub mod stem;
pub mod tokenize;

use crate::swar;
use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cmp::Ordering;
use flat::{Lists, Texts};

pub use bm25::{field_tf, field_tf_with, idf, term_score, B, K1};
use tokenize::{strip_mcp_prefix, Analyzer};

/// Longest query looked at, in code points; the rest is ignored.
pub const MAX_QUERY_CHARS: usize = 1_000;

/// Most index terms a query word no tool holds may begin and still count as a name word cut
/// short (`wr` of `issue_wr` begins `write`; one beginning more says too little), and most such
/// terms of one query.
pub const MAX_FRAGMENT_TERMS: usize = 64;

/// Shortest term read as a prefix of known terms when it is itself unknown.
pub const MIN_PREFIX_CHARS: usize = 3;

/// Most concepts (distinct content words) of one query that are scored; a task sentence rarely
/// has more, and a pasted document cannot make a query cost more than this many lookups.
pub const MAX_QUERY_CONCEPTS: usize = 64;

/// The searchable text of one tool.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DocFields<'a> {
    /// The tool name as the model calls it (an `mcp__<server>__` prefix is not indexed as words).
    pub name: &'a str,
    /// The tool's own (server-side) name when it differs from `name`: indexed as the name's
    /// words and matched exactly too (a shown name may hold a hash in place of characters).
    pub own: &'a str,
    /// The server (or group) the tool belongs to.
    pub server: &'a str,
    /// The whole description.
    pub description: &'a str,
    /// Top-level parameter names of the input schema.
    pub params: Vec<Cow<'a, str>>,
    /// The descriptions of those parameters (task sentences often say what a tool takes:
    /// "a triangle with base 10 and height 5").
    pub param_descriptions: Vec<Cow<'a, str>>,
    /// Words that say what the tool is for besides its description (its MCP `title`,
    /// `annotations.title` and `_meta["anthropic/searchHint"]`, and the caller's `hints`):
    /// indexed as description words.
    pub hints: Vec<Cow<'a, str>>,
}

/// The most values of a parameter's `enum` of strings that are indexed as its description's
/// words (`state: open | closed | all`); longer ones (field names, codes) measured worse
/// (docs/search.md).
pub const MAX_INDEXED_ENUM: usize = 4;

/// How documents and queries are analysed and ranked. The default is the measured best
/// (docs/search.md); the other settings exist for the ablations of the retrieval benchmark.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Snowball English stemming of every term (`refunds` meets `refund`).
    pub stemming: bool,
    /// Split words at case changes (`PostChargesChargeRefunds`); separators and letter/digit
    /// boundaries always split.
    pub split_camel: bool,
    /// How many times a term of the tool name counts (1 = like any other field).
    pub name_weight: u32,
    /// How much a term of the description's first sentence counts (1.0 = like the rest of it).
    pub summary_weight: f64,
    /// How much a term of the parameter names counts (1.0 = like the description). Below 1, a
    /// tool named for the query (`list_projects`) outranks one that merely takes it as a
    /// parameter (`list_milestones(project)`).
    pub param_weight: f64,
    /// How much a term of the parameters' descriptions counts (0 = not indexed).
    pub param_text_weight: f64,
    /// BM25's length normalisation `b` ([`B`] is the textbook 0.75; tool descriptions are short
    /// and uneven, and a long one is not less about its subject).
    pub length_norm: f64,
    /// Drop English function words ("the", "of", "to", ...) from documents and queries, and
    /// filler words ("want", "need", "who", ...) from queries.
    pub stopwords: bool,
    /// Fold a few action verbs onto one term (add/new → create, remove → delete,
    /// edit/modify → update, retrieve → get).
    pub synonyms: bool,
    /// Let a query word also find the words catalogs use for it (`ticket` → `issue`, `PR` →
    /// `pull request`, `show` → `list`), from a small table ([`tokenize`]'s `VARIANTS`).
    pub variants: bool,
    /// What a variant's match is worth against the word itself.
    pub variant_weight: f64,
    /// Rescue a query term no tool has: join it with a neighbouring word ("hacker news" meets
    /// `hackernews`), else read it as a prefix of known terms ("docs" meets `documentation`).
    /// A term that stays unknown ("gmail") is reported unknown.
    pub rescue: bool,
    /// Leave HTML tags and character references out of descriptions (Stripe's are HTML).
    pub strip_html: bool,
    /// A REST name that reads a whole collection (`zones-get`, `GetCustomers`) also holds `list`.
    pub rest_names: bool,
    /// How much a tool gains when the query says its name words: its score is multiplied by
    /// `1 + name_bonus · c²`, `c` the share of its name terms the query holds (0 = off).
    pub name_bonus: f64,
    /// Full matches rank before partial ones (SPEC §4.3). Off, partial matches are only marked.
    pub full_first: bool,
    /// What a tool gains from its server's best score (times this share): a request that a
    /// server answers as a whole ("the Reqres API's users and one user by id") lifts that
    /// server's other tools (0 = off).
    pub server_boost: f64,
    /// A known query concept held by more than this share of the tools is not distinctive: a
    /// tool may lack it and still be a full match (1.0: every known concept is distinctive).
    pub distinctive_share: f64,
    /// Weigh the name bonus's share by the idf of the name terms: a term most names hold (`get`,
    /// `tool`, `list`) counts for little, so `WeatherTool` is mostly covered by "weather"
    /// (off: every name term counts alike).
    pub name_cover_by_idf: bool,
    /// Coordination: a tool's score is multiplied by `1 − c + c·s`, `c` this, `s` the share of
    /// the query's distinctive concepts it holds, so a tool holding more of what the query asks
    /// for gains on one that holds one word strongly (0 = off).
    pub coordination: f64,
    /// Values written in a query (`#7`, `ENG-123`, `203.0.113.7`, `example.com`,
    /// `~/app/config.yaml`) are arguments: never reported unknown nor required of a full match;
    /// a number is still searched, the words of other values are not, and those ask, at
    /// [`SearchConfig::variant_weight`], for what holds them (`issue`, `ip`, `domain`, `file`...).
    pub values: bool,
}

impl SearchConfig {
    /// Plain BM25: words split only at separators and digits, no stemming, no stop words, no
    /// synonyms or variants, every field weighted alike, HTML indexed, no name bonus, matches in
    /// score order. The baseline of the benchmark.
    pub const PLAIN_BM25: SearchConfig = SearchConfig {
        stemming: false,
        split_camel: false,
        name_weight: 1,
        summary_weight: 1.0,
        param_weight: 1.0,
        param_text_weight: 0.0,
        length_norm: B,
        stopwords: false,
        synonyms: false,
        variants: false,
        variant_weight: 0.0,
        rescue: false,
        strip_html: false,
        rest_names: false,
        name_bonus: 0.0,
        full_first: false,
        server_boost: 0.0,
        distinctive_share: 1.0,
        name_cover_by_idf: false,
        coordination: 0.0,
        values: false,
    };
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            stemming: true,
            split_camel: true,
            name_weight: 2,
            summary_weight: 1.5,
            param_weight: 1.0,
            param_text_weight: 0.5,
            length_norm: 0.5,
            stopwords: true,
            synonyms: true,
            variants: true,
            variant_weight: 0.7,
            rescue: true,
            strip_html: true,
            rest_names: true,
            name_bonus: 0.5,
            full_first: true,
            server_boost: 0.5,
            distinctive_share: 1.0,
            name_cover_by_idf: true,
            coordination: 0.3,
            values: true,
        }
    }
}

/// One search result: the tool's index in build order, its score and whether it is partial.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Index of the tool in the order given to [`SearchIndex::build`].
    pub doc: usize,
    /// BM25F score (0 for a fallback hit); hits are ordered by it after exact names and full
    /// matches.
    pub score: f64,
    /// The tool lacks a distinctive word of the query, or the query has words no tool holds.
    pub partial: bool,
}

/// What a search found: the hits, best first, and the query words no tool holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ranked {
    /// The best tools, best first.
    pub hits: Vec<Hit>,
    /// Query words (as written, filler excluded) that no tool holds, even through a variant.
    pub unknown_words: Vec<String>,
}

/// How one query concept bears on one tool.
#[derive(Clone, Debug, PartialEq)]
pub struct TermExplanation {
    /// The query word the concept comes from (lowercase).
    pub term: String,
    /// In how many tools its best-known alternative occurs.
    pub doc_freq: usize,
    /// What it adds to this tool's score (the best of its alternatives).
    pub score: f64,
    /// Whether a full match must hold it.
    pub distinctive: bool,
}

/// Why a tool is or is not a hit for a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The query is the tool's name: ranked first.
    ExactName,
    /// The tool holds every distinctive concept of the query, and the query has no unknown word.
    Full,
    /// The tool scores but lacks these distinctive query words (empty when only unknown words
    /// make it partial).
    Partial(Vec<String>),
    /// Nothing scored and the tool's name contains the query: a fallback hit.
    Fallback,
    /// The index has no tool with this number.
    NoSuchDoc,
    /// The query has no searchable terms.
    NoTerms,
    /// The tool holds none of the query's concepts.
    NoMatch,
}

/// Why one tool did or did not score for a query ([`SearchIndex::explain`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// The tool asked about.
    pub doc: usize,
    /// Every query concept, whether the tool has it or not.
    pub terms: Vec<TermExplanation>,
    /// The tool's score (concept scores summed, times the name bonus).
    pub score: f64,
    /// Whether, and why, the tool is a hit.
    pub verdict: Verdict,
    /// Query words no tool holds.
    pub unknown_words: Vec<String>,
}

/// The tables an index makes of the tools' description text (what a snapshot stores).
struct Tables {
    terms: Texts,
    postings: Lists<Posting>,
    name_terms: Vec<u32>,
    name_starts: Vec<u32>,
}

/// One tool of the index while it is built, as ranking needs it: its name and server borrowed
/// from the tool (its lowercased name goes straight into the index's table of them).
#[derive(Clone, Debug)]
struct Doc<'a> {
    name: &'a str,
    server: &'a str,
    /// The lowercased own name, when the tool has one besides its name.
    lower_own: String,
}

/// The own name of a tool named `name`, when it is worth keeping beside it: not the name, nor
/// the name without its `mcp__<server>__` prefix.
fn own_beside<'a>(name: &str, own: &'a str) -> &'a str {
    if own == name || own == strip_mcp_prefix(name) {
        ""
    } else {
        own
    }
}

/// The fields of a tool document.
const FIELDS: usize = 6;
const NAME: usize = 0;
const SERVER: usize = 1;
const SUMMARY: usize = 2;
const DESCRIPTION: usize = 3;
const PARAMS: usize = 4;
const PARAM_TEXT: usize = 5;

/// A term's count in each field of one tool.
type FieldCounts = [u16; FIELDS];

/// [`FieldCounts`] packed in 5 bits a field, each count saturating at 31 (BM25 saturates long
/// before: `tf·(K1+1)/(tf+K1)` at 31 is within 4% of its limit), so the build's list of every
/// tool's terms takes 8 bytes an entry.
type PackedCounts = u32;

/// Most a field count keeps in [`PackedCounts`].
const MAX_PACKED_COUNT: u16 = 31;

fn pack_counts(counts: &FieldCounts) -> PackedCounts {
    counts
        .iter()
        .enumerate()
        .fold(0, |packed, (field, &n)| packed | (u32::from(n.min(MAX_PACKED_COUNT)) << (5 * field)))
}

fn unpack_counts(packed: PackedCounts) -> FieldCounts {
    core::array::from_fn(|field| ((packed >> (5 * field)) & 0x1f) as u16)
}

/// A tool's length in terms per field.
type FieldLengths = [u32; FIELDS];

/// One occurrence list entry: a tool and the term's field-weighted, length-normalised frequency.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Posting {
    pub(crate) doc: u32,
    pub(crate) term_freq: f32,
}

/// The prepared search of one toolbox: built once, queried many times.
#[derive(Clone, Debug)]
///
/// Every part but the analyzer, the config and the variant table (which follow from the config)
/// is a flat array, which a snapshot (`crate::shelf::snapshot`) stores and loads as it is.
pub struct SearchIndex {
    pub(crate) analyzer: Analyzer,
    pub(crate) config: SearchConfig,
    /// Each tool's name, lowercased (for the fallback); how many tools there are.
    pub(crate) lower_names: Texts,
    /// Sorted terms; `postings.get(i)` lists the tools holding term `i`, in build order.
    pub(crate) terms: Texts,
    pub(crate) postings: Lists<Posting>,
    /// Lowercased names (with and without an `mcp__` prefix), sorted, and the tool of each.
    pub(crate) names: Texts,
    pub(crate) name_docs: Vec<u32>,
    /// Each tool's distinct name terms (indexes into `terms`): tool `d`'s are
    /// `name_terms[name_starts[d]..name_starts[d + 1]]`.
    pub(crate) name_terms: Vec<u32>,
    pub(crate) name_starts: Vec<u32>,
    /// Each tool's server as a number (servers numbered in order of first appearance), and how
    /// many servers there are: the server boost groups tools by it.
    pub(crate) server_of: Vec<u32>,
    pub(crate) servers: usize,
    /// Each tool's place in (name, server, build position) order: equal scores rank by it, one
    /// integer compare instead of two string compares (a word every tool holds puts the whole
    /// catalog through the top-k selection).
    pub(crate) tie_rank: Vec<u32>,
    /// The variant table analysed: a query term and the term lists it also finds.
    pub(crate) variants: Vec<(String, Vec<Vec<String>>)>,
    /// The weight of each entry of `name_terms` in the name bonus: its idf, roughly
    /// ([`bm25::rough_idf`]).
    pub(crate) name_weights: Vec<f32>,
}

/// One way a query concept is found in tools: a term, a rescue, or a variant.
struct Alternative<'i> {
    postings: Cow<'i, [Posting]>,
    idf: f64,
    weight: f64,
    /// The index terms it stands for (for the name bonus).
    terms: Vec<u32>,
    /// A variant from the table, not the word itself.
    variant: bool,
}

/// A content word of the query with every way it is found.
struct Concept<'i> {
    /// The word as written in the query.
    written: String,
    /// Its term, lowercase and stemmed (what explain reports).
    term: String,
    alternatives: Vec<Alternative<'i>>,
    distinctive: bool,
}

impl Concept<'_> {
    /// Whether some tool holds the word itself (its term, the word joined with a neighbour, or
    /// the word as a prefix); a variant found in tools does not make the word known, since no
    /// tool mentions it.
    fn known(&self) -> bool {
        self.alternatives.iter().any(|a| !a.variant && !a.postings.is_empty())
    }

    /// Whether any tool holds the concept, through the word or a variant.
    fn found(&self) -> bool {
        self.alternatives.iter().any(|a| !a.postings.is_empty())
    }

    fn doc_freq(&self) -> usize {
        self.alternatives.iter().map(|a| a.postings.len()).max().unwrap_or(0)
    }
}

/// A query analysed against the index.
struct Plan<'i> {
    /// The query lowercased, trimmed and cut (for the exact-name rule and the fallback).
    query: String,
    concepts: Vec<Concept<'i>>,
    /// Every index term the query stands for, and those its unknown words begin, sorted (for the
    /// name bonus).
    query_terms: Vec<u32>,
}

impl Plan<'_> {
    fn unknown_words(&self) -> Vec<String> {
        self.concepts.iter().filter(|c| !c.known() && !c.written.is_empty()).map(|c| c.written.clone()).collect()
    }

    fn distinctive(&self) -> usize {
        self.concepts.iter().filter(|c| c.distinctive).count()
    }
}

/// Per-tool accumulators of one query, filled from the occurrence lists only: one record per tool
/// (one allocation, 24 bytes a tool), and the tools touched.
struct Scores {
    acc: Vec<Acc>,
    touched: Vec<usize>,
}

/// One tool's accumulator.
#[derive(Clone, Copy)]
struct Acc {
    score: f64,
    /// The best alternative's score for the concept at hand (-1: not met yet).
    best: f64,
    /// Distinctive concepts held.
    covered: u16,
    /// Whether the tool holds any concept.
    seen: bool,
}

impl SearchIndex {
    /// Indexes `docs`; a tool's number in every [`Hit`] is its position here.
    pub fn build<'a>(docs: impl IntoIterator<Item = DocFields<'a>>, config: SearchConfig) -> SearchIndex {
        let analyzer = Analyzer::new(&config);
        let mut vocabulary = Vocabulary::default();
        // Every tool's terms with their packed field counts, tool after tool (`doc_starts` marks
        // where each begins): one flat list of 8-byte entries, turned into occurrence lists of
        // exact size below. (A second pass over the tools instead of this list was measured: it
        // saved 0.2 MiB of the 3,397-tool build's peak for 40% more instructions.)
        let mut entries: Vec<(u32, PackedCounts)> = Vec::new();
        let mut doc_starts: Vec<usize> = alloc::vec![0];
        let mut metas = Vec::new();
        let mut lengths: Vec<FieldLengths> = Vec::new();
        let mut name_numbers: Vec<u32> = Vec::new();
        let mut name_starts: Vec<u32> = alloc::vec![0];
        let mut server_numbers = intern::StrMap::default();
        let mut server_of: Vec<u32> = Vec::new();
        for fields in docs {
            let length = field_term_counts(&analyzer, &config, &mut vocabulary, &fields, &mut entries);
            let added = entries.get(doc_starts.last().copied().unwrap_or(0)..).unwrap_or(&[]);
            let names_from = name_numbers.len();
            name_numbers.extend(added.iter().filter(|(_, c)| c & 0x1f > 0).map(|(t, _)| *t));
            // In term-number order (the name bonus sums their weights in this order).
            if let Some(names) = name_numbers.get_mut(names_from..) {
                names.sort_unstable();
            }
            doc_starts.push(entries.len());
            name_starts.push(name_numbers.len() as u32);
            server_of.push(number_of(&mut server_numbers, fields.server));
            lengths.push(length);
            metas.push(Doc {
                name: fields.name,
                server: fields.server,
                lower_own: crate::lowercase::lowercase(own_beside(fields.name, fields.own)),
            });
        }
        let weights = [
            f64::from(config.name_weight.max(1)),
            1.0,
            crate::json::clamp(config.summary_weight, 0.0, 8.0),
            1.0,
            crate::json::clamp(config.param_weight, 0.0, 4.0),
            crate::json::clamp(config.param_text_weight, 0.0, 4.0),
        ];
        let b = crate::json::clamp(config.length_norm, 0.0, 1.0);
        let normalise = FieldNorms { weights, avg_len: average_lengths(&lengths), lengths, b };
        // Terms in code-point order, each with its occurrence list (tools in build order).
        // (Terms are distinct: the one sort of names orders them by text alone.)
        let mut order: Vec<(&str, usize)> =
            vocabulary.terms.iter().enumerate().map(|(id, term)| (term.as_str(), id)).collect();
        swar::sort_names(&mut order);
        let mut rank_of = alloc::vec![0u32; order.len()];
        for (rank, &(_, id)) in order.iter().enumerate() {
            if let Some(r) = rank_of.get_mut(id) {
                *r = rank as u32;
            }
        }
        let name_terms: Vec<u32> =
            name_numbers.iter().map(|&n| rank_of.get(n as usize).copied().unwrap_or(0)).collect();
        let postings = occurrence_lists(entries, &doc_starts, &rank_of, &normalise);
        let mut terms = Texts::default();
        for (term, _) in order {
            terms.push(term);
        }
        drop(vocabulary);
        let tables = Tables { terms, postings, name_terms, name_starts };
        let lower_names = lower_names(metas.iter().map(|doc| doc.name));
        SearchIndex::assembled(analyzer, config, &metas, lower_names, server_of, tables)
    }

    /// The index of `metas` (each tool's name and server, in build order) and the tables made of
    /// their descriptions: every table made of the names and servers alone is made here.
    fn assembled(
        analyzer: Analyzer,
        config: SearchConfig,
        metas: &[Doc<'_>],
        lower_names: Texts,
        server_of: Vec<u32>,
        tables: Tables,
    ) -> SearchIndex {
        let Tables { terms, postings, name_terms, name_starts } = tables;
        let (names, name_docs) = sorted_names(metas, &lower_names);
        let tie_rank = tie_ranks(metas);
        let variants = variants_of(&analyzer, &config);
        let servers = server_of.iter().map(|&s| s as usize + 1).max().unwrap_or(0);
        let name_weights = name_term_weights(&name_terms, &postings, metas.len());
        SearchIndex {
            analyzer,
            config,
            lower_names,
            terms,
            postings,
            names,
            name_docs,
            name_terms,
            name_starts,
            server_of,
            servers,
            tie_rank,
            variants,
            name_weights,
        }
    }

    /// The best `limit` tools for `query`, best first (see the module docs for the order).
    pub fn search(&self, query: &str, limit: usize) -> Vec<Hit> {
        self.rank(query, limit).hits
    }

    /// The best `limit` tools for `query`, best first, and the query words no tool holds.
    pub fn rank(&self, query: &str, limit: usize) -> Ranked {
        self.rank_fused(query, limit, None)
    }

    /// [`SearchIndex::rank`] with the query's similarity to each tool (`similarities[doc]`,
    /// `crate::search::embed`) fused in by `fusion` (SPEC §12): exact names first, unknown words
    /// lexical, a tool found by similarity alone partial. `None`: [`SearchIndex::rank`].
    pub fn rank_fused(
        &self,
        query: &str,
        limit: usize,
        vectors: Option<(&[f32], &crate::search::embed::Fusion)>,
    ) -> Ranked {
        let plan = self.plan(query);
        let unknown_words = plan.unknown_words();
        if limit == 0 {
            return Ranked { hits: Vec::new(), unknown_words };
        }
        let scores = self.score(&plan);
        let hits = self.lexical_hits(&plan, &scores, !unknown_words.is_empty());
        let Some((similarities, fusion)) = vectors else {
            return Ranked { hits: self.best(hits, limit), unknown_words };
        };
        // The lexical ranking's first `leaders` stay first, in its order; the rest by fused score.
        let mut leaders = self.best(hits.clone(), fusion.leaders.min(limit));
        let rest = fusion.fuse(hits, similarities).into_iter().filter(|(_, h)| !leaders.iter().any(|l| l.doc == h.doc));
        leaders.extend(self.best(rest.collect(), limit - leaders.len()));
        Ranked { hits: leaders, unknown_words }
    }

    /// Every lexical candidate of `query` in rank order, each with whether it is an exact name and
    /// the share of the query's distinctive concepts it holds (1 when the query has none), for the
    /// fusion study (examples/fusion_study.rs); the core does not call it, and the `.wasm` has
    /// none of it.
    #[doc(hidden)]
    #[cfg(not(target_arch = "wasm32"))]
    pub fn candidates_with_cover(&self, query: &str) -> Vec<(Hit, bool, f32)> {
        let plan = self.plan(query);
        let unknown_words = plan.unknown_words();
        let scores = self.score(&plan);
        let distinctive = plan.distinctive();
        let cover =
            |doc: usize| if distinctive == 0 { 1.0 } else { scores.covered_of(doc) as f32 / distinctive as f32 };
        let mut hits = self.lexical_hits(&plan, &scores, !unknown_words.is_empty());
        hits.sort_unstable_by(|a, b| self.rank_order(a, b));
        hits.into_iter().map(|(exact, hit)| (hit, exact, if exact { 1.0 } else { cover(hit.doc) })).collect()
    }

    /// The lexical candidates of `plan`, unordered: its exact names (never partial), then every
    /// scored tool (partial when the query has unknown words or the tool lacks a distinctive
    /// concept); when there are none, the name fallback's tools, all partial.
    fn lexical_hits(&self, plan: &Plan<'_>, scores: &Scores, unknown: bool) -> Vec<(bool, Hit)> {
        let exact = self.exact_matches(&plan.query);
        let distinctive = plan.distinctive();
        let partial = |doc: usize| unknown || scores.covered_of(doc) < distinctive;
        let mut hits: Vec<(bool, Hit)> =
            exact.iter().map(|&doc| (true, Hit { doc, score: scores.score_of(doc), partial: false })).collect();
        for &doc in &scores.touched {
            if exact.binary_search(&doc).is_err() {
                hits.push((false, Hit { doc, score: scores.score_of(doc), partial: partial(doc) }));
            }
        }
        if hits.is_empty() {
            hits = self
                .fallback(&plan.query)
                .into_iter()
                .map(|doc| (false, Hit { doc, score: 0.0, partial: true }))
                .collect();
        }
        hits
    }

    /// The first `limit` of `hits` in rank order: the best `limit` kept in a heap whose top is the
    /// worst of them (each other hit one comparison with it, and a sift when it is better), then
    /// only those sorted (heapsort), so a word every tool holds costs no sort of the whole catalog.
    /// One heap rather than core's selection and sort, each kilobytes of `.wasm`.
    fn best(&self, mut hits: Vec<(bool, Hit)>, limit: usize) -> Vec<Hit> {
        let kept = limit.min(hits.len());
        for at in (0..kept / 2).rev() {
            self.sift_down(hits.get_mut(..kept).unwrap_or_default(), at);
        }
        for at in kept..hits.len() {
            let better = match (hits.first(), hits.get(at)) {
                (Some(worst), Some(hit)) => self.rank_order(hit, worst).is_lt(),
                _ => false,
            };
            if better {
                hits.swap(0, at);
                self.sift_down(hits.get_mut(..kept).unwrap_or_default(), 0);
            }
        }
        hits.truncate(kept);
        for end in (1..kept).rev() {
            hits.swap(0, end);
            self.sift_down(hits.get_mut(..end).unwrap_or_default(), 0);
        }
        hits.into_iter().map(|(_, hit)| hit).collect()
    }

    /// Moves `heap[at]` down until neither child ranks after it: `heap` (the worst at the top)
    /// is a heap again below `at`.
    fn sift_down(&self, heap: &mut [(bool, Hit)], mut at: usize) {
        loop {
            let left = 2 * at + 1;
            let Some(l) = heap.get(left) else { return };
            let child = match heap.get(left + 1) {
                Some(r) if self.rank_order(r, l).is_gt() => left + 1,
                _ => left,
            };
            match (heap.get(child), heap.get(at)) {
                (Some(c), Some(p)) if self.rank_order(c, p).is_gt() => heap.swap(child, at),
                _ => return,
            }
            at = child;
        }
    }

    /// Which query concepts `doc` holds, what each adds, and whether and why it is a hit.
    pub fn explain(&self, query: &str, doc: usize) -> Explanation {
        let plan = self.plan(query);
        let scores = self.score(&plan);
        let terms = plan.concepts.iter().map(|c| self.explain_concept(c, doc)).collect();
        let score = scores.score_of(doc);
        let verdict = self.verdict(&plan, &scores, doc);
        Explanation { doc, terms, score, verdict, unknown_words: plan.unknown_words() }
    }

    /// Number of tools indexed.
    pub fn len(&self) -> usize {
        self.lower_names.len()
    }

    /// Whether no tool is indexed.
    pub fn is_empty(&self) -> bool {
        self.lower_names.len() == 0
    }

    /// The configuration the index was built with.
    pub fn config(&self) -> SearchConfig {
        self.config
    }

    /// Analyses the query into concepts: its distinct content words, each with the ways it is
    /// found, and which of them a full match must hold.
    fn plan(&self, query: &str) -> Plan<'_> {
        let raw = cut_query(query).trim();
        let words = tokenize::query_words(raw, self.analyzer.splits_camel());
        let values = if self.config.values { tokenize::query_values(raw) } else { Vec::new() };
        let value_at = |written: &str| {
            let at = (written.as_ptr() as usize).wrapping_sub(raw.as_ptr() as usize);
            // Values are in text order: the last one starting at or before `at`.
            let before = values.partition_point(|(range, _)| range.start <= at);
            values.get(before.checked_sub(1)?).filter(|(range, _)| range.contains(&at)).map(|(_, value)| *value)
        };
        let mut concepts: Vec<Concept<'_>> = Vec::new();
        // The occurrences of each pair of neighbouring words joined, found the first time either
        // word asks (a word's rescue tries the word before it and the word after it).
        let mut joined = alloc::vec![None; words.len().saturating_sub(1)];
        for (i, (written, word)) in words.iter().enumerate() {
            if concepts.len() >= MAX_QUERY_CONCEPTS {
                break;
            }
            if self.config.stopwords && tokenize::is_filler(word) {
                continue;
            }
            // A value's words are still searched (`forecast_14_day`, `Trip.com`), but never
            // reported unknown nor required of a full match.
            let value = value_at(written);
            let Some(term) = self.analyzer.term(word) else {
                continue;
            };
            if concepts.iter().any(|c| c.term == term) {
                continue;
            }
            let alternatives = self.alternatives(&term, &words, i, &mut joined);
            let written = if value.is_some() { String::new() } else { (*written).to_string() };
            concepts.push(Concept { written, term, alternatives, distinctive: false });
        }
        if (concepts.is_empty() || tokenize::asks_identity(&words)) && self.config.stopwords {
            concepts.extend(self.self_concept(&words));
        }
        self.mark_distinctive(&mut concepts);
        for concept in concepts.iter_mut().filter(|c| c.written.is_empty()) {
            concept.distinctive = false;
        }
        for (_, value) in &values {
            if let Some(concept) = self.value_concept(*value, &concepts) {
                concepts.push(concept);
            }
        }
        // The terms of every alternative, and, for a query word no tool holds in any way (maybe
        // a name word cut short, `issue_wr`), the few terms it begins: held for the name bonus.
        let begun = concepts
            .iter()
            .filter(|c| !c.found() && c.term.len() >= 2)
            .map(|c| self.terms_begun_by(&c.term))
            .filter(|range| range.len() <= MAX_FRAGMENT_TERMS)
            .flatten()
            .take(MAX_FRAGMENT_TERMS);
        let mut query_terms: Vec<u32> = Vec::new();
        for term in
            concepts.iter().flat_map(|c| c.alternatives.iter().flat_map(|a| a.terms.iter().copied())).chain(begun)
        {
            if let Err(at) = query_terms.binary_search(&term) {
                query_terms.insert(at, term);
            }
        }
        Plan { query: crate::lowercase::lowercase(raw), concepts, query_terms }
    }

    /// What a value of the query asks for: the word for what holds it (`example.com` → `domain`),
    /// at the variants' weight, not distinctive and never unknown; none when the query says it.
    fn value_concept(&self, value: tokenize::QueryValue, concepts: &[Concept<'_>]) -> Option<Concept<'_>> {
        let term = self.analyzer.term(value.kind_word()?)?;
        if concepts.iter().any(|c| c.term == term) || concepts.len() >= MAX_QUERY_CONCEPTS {
            return None;
        }
        let alternative = self.term_alternative(&term, self.config.variant_weight);
        (!alternative.postings.is_empty()).then(|| Concept {
            written: String::new(),
            term,
            alternatives: alloc::vec![alternative],
            distinctive: false,
        })
    }

    /// "who am I": a query of only self words, or one asking "am I", asks for the current user.
    fn self_concept(&self, words: &[(&str, String)]) -> Option<Concept<'_>> {
        let (written, _) = words.iter().find(|(_, w)| tokenize::SELF_WORDS.contains(&w.as_str()))?;
        let alternatives = tokenize::SELF_VARIANTS
            .iter()
            .filter_map(|w| self.analyzer.term(w))
            .map(|term| self.term_alternative(&term, 1.0))
            .collect();
        Some(Concept { written: (*written).to_string(), term: String::from("me"), alternatives, distinctive: false })
    }

    /// A known concept is distinctive unless more than [`SearchConfig::distinctive_share`] of
    /// the tools hold it.
    fn mark_distinctive(&self, concepts: &mut [Concept<'_>]) {
        let most = self.config.distinctive_share * self.lower_names.len() as f64;
        for c in concepts.iter_mut() {
            c.distinctive = c.found() && c.doc_freq() as f64 <= most;
        }
    }

    /// The ways `term` (from `words[i]`) is found: itself; with rescue on, the word joined with a
    /// neighbour (`hacker` + `news` in `hackernews`) and, when nothing else is known, as a prefix
    /// of known terms; with variants on, the words catalogs use for it.
    fn alternatives<'i>(
        &'i self,
        term: &str,
        words: &[(&str, String)],
        i: usize,
        joined: &mut [Option<&'i [Posting]>],
    ) -> Vec<Alternative<'i>> {
        let mut found = Vec::new();
        let own = self.term_alternative(term, 1.0);
        if self.config.rescue {
            let compounds = self.compound_postings(words, i, joined);
            if !compounds.is_empty() {
                let merged = merge_postings(self.lower_names.len(), own.postings.iter().chain(&compounds).copied());
                found.push(Alternative { idf: self.idf_of(merged.len()), postings: Cow::Owned(merged), ..own });
            } else {
                found.push(own);
            }
        } else {
            found.push(own);
        }
        found.extend(self.variant_alternatives(term));
        if self.config.rescue && found.iter().all(|a| a.variant || a.postings.is_empty()) {
            let expanded = self.prefix_postings(term);
            if !expanded.is_empty() {
                let idf = self.idf_of(expanded.len());
                found.push(Alternative {
                    idf,
                    postings: Cow::Owned(expanded),
                    weight: 1.0,
                    terms: Vec::new(),
                    variant: false,
                });
            }
        }
        found
    }

    /// One term as an alternative of weight `weight`.
    fn term_alternative(&self, term: &str, weight: f64) -> Alternative<'_> {
        let (postings, terms) = match self.term_number(term) {
            Some(i) => (self.postings.get(i), alloc::vec![i as u32]),
            None => (&[][..], Vec::new()),
        };
        Alternative {
            idf: self.idf_of(postings.len()),
            postings: Cow::Borrowed(postings),
            weight,
            terms,
            variant: false,
        }
    }

    /// The variants of `term` (analysed table entries): a one-word variant as its term, a
    /// several-word one as the tools holding every word.
    fn variant_alternatives(&self, term: &str) -> Vec<Alternative<'_>> {
        let weight = self.config.variant_weight;
        let phrases = self.variants.iter().find(|(key, _)| key == term).map_or(&[][..], |(_, p)| p.as_slice());
        phrases
            .iter()
            .map(|phrase| match phrase.as_slice() {
                [one] => Alternative { variant: true, ..self.term_alternative(one, weight) },
                parts => self.phrase_alternative(parts, weight),
            })
            .collect()
    }

    /// The tools holding every term of `parts`, each with the smallest of their frequencies.
    fn phrase_alternative(&self, parts: &[String], weight: f64) -> Alternative<'_> {
        let mut terms = Vec::new();
        let mut common: Option<Vec<Posting>> = None;
        for part in parts {
            let Some(i) = self.term_number(part) else {
                common = Some(Vec::new());
                break;
            };
            terms.push(i as u32);
            let list = self.postings.get(i);
            common = Some(match common {
                None => list.to_vec(),
                Some(so_far) => intersect(&so_far, list),
            });
        }
        let postings = common.unwrap_or_default();
        Alternative { idf: self.idf_of(postings.len()), postings: Cow::Owned(postings), weight, terms, variant: true }
    }

    fn idf_of(&self, doc_freq: usize) -> f64 {
        idf(self.lower_names.len(), doc_freq)
    }

    /// Occurrences of `words[i]` joined with the word before or after it, as one known term;
    /// `joined[j]` holds those of `words[j]` and `words[j + 1]` joined once found.
    fn compound_postings<'i>(
        &'i self,
        words: &[(&str, String)],
        i: usize,
        joined: &mut [Option<&'i [Posting]>],
    ) -> Vec<Posting> {
        let mut found = Vec::new();
        for pair in [i.checked_sub(1), Some(i)].into_iter().flatten() {
            let (Some((_, first)), Some((_, second))) = (words.get(pair), words.get(pair + 1)) else { continue };
            let Some(slot) = joined.get_mut(pair) else { continue };
            let postings = *slot.get_or_insert_with(|| {
                let mut both = String::with_capacity(first.len() + second.len());
                both.push_str(first);
                both.push_str(second);
                self.analyzer.term(&both).map_or(&[][..], |term| self.postings_of(&term))
            });
            found.extend_from_slice(postings);
        }
        found
    }

    /// The tools holding any known term that starts with `prefix`, each with its best frequency.
    fn prefix_postings(&self, prefix: &str) -> Vec<Posting> {
        if prefix.chars().count() < MIN_PREFIX_CHARS {
            return Vec::new();
        }
        let found = self.terms_begun_by(prefix).flat_map(|i| self.postings.get(i as usize).iter().copied());
        merge_postings(self.lower_names.len(), found)
    }

    /// Sums, over the query's concepts, the best alternative's BM25 contribution into the tools
    /// that hold it, counts the distinctive concepts each tool holds, then applies the name bonus.
    fn score(&self, plan: &Plan<'_>) -> Scores {
        let unmet = Acc { score: 0.0, best: -1.0, covered: 0, seen: false };
        let docs = self.lower_names.len();
        // Room for every tool the postings can touch, so neither list grows a step at a time.
        let postings: usize = plan.concepts.iter().flat_map(|c| &c.alternatives).map(|a| a.postings.len()).sum();
        let room = postings.min(docs);
        let mut s = Scores { acc: alloc::vec![unmet; docs], touched: Vec::with_capacity(room) };
        let mut in_concept: Vec<usize> = Vec::with_capacity(room);
        for concept in &plan.concepts {
            for alternative in &concept.alternatives {
                for posting in alternative.postings.iter() {
                    let doc = posting.doc as usize;
                    let score = alternative.weight * term_score(alternative.idf, f64::from(posting.term_freq));
                    if let Some(a) = s.acc.get_mut(doc) {
                        if a.best < 0.0 {
                            in_concept.push(doc);
                        }
                        a.best = a.best.max(score);
                    }
                }
            }
            for doc in in_concept.drain(..) {
                s.add(doc, concept.distinctive);
            }
        }
        s.sort_touched();
        if self.config.coordination > 0.0 {
            self.coordinate(plan, &mut s);
        }
        if self.config.name_bonus > 0.0 {
            for &doc in &s.touched {
                let cover = self.name_cover(doc, plan);
                if let Some(a) = s.acc.get_mut(doc) {
                    a.score *= 1.0 + self.config.name_bonus * cover * cover;
                }
            }
        }
        // Last, so that in a catalog of one server it adds the same to every tool.
        if self.config.server_boost > 0.0 {
            self.boost_by_server(&mut s);
        }
        s
    }

    /// Scales each tool's score by the share of the query's distinctive concepts it holds
    /// ([`SearchConfig::coordination`]).
    fn coordinate(&self, plan: &Plan<'_>, s: &mut Scores) {
        let distinctive = plan.distinctive();
        if distinctive < 2 {
            return;
        }
        let c = crate::json::clamp(self.config.coordination, 0.0, 1.0);
        for &doc in &s.touched {
            if let Some(a) = s.acc.get_mut(doc) {
                a.score *= 1.0 - c + c * f64::from(a.covered) / distinctive as f64;
            }
        }
    }

    /// Adds to each scored tool [`SearchConfig::server_boost`] times its server's best score.
    fn boost_by_server(&self, s: &mut Scores) {
        let mut best = alloc::vec![0.0f64; self.servers];
        let server = |doc: usize| self.server_of.get(doc).map_or(0, |&n| n as usize);
        for &doc in &s.touched {
            if let Some(b) = best.get_mut(server(doc)) {
                *b = b.max(s.score_of(doc));
            }
        }
        for &doc in &s.touched {
            if let (Some(top), Some(a)) = (best.get(server(doc)), s.acc.get_mut(doc)) {
                a.score += self.config.server_boost * top;
            }
        }
    }

    /// The share of `doc`'s name terms the query holds (among its terms, or begun by one of its
    /// fragments), each term weighted by its idf ([`SearchConfig::name_cover_by_idf`]) or
    /// counted once.
    fn name_cover(&self, doc: usize, plan: &Plan<'_>) -> f64 {
        let start = self.name_starts.get(doc).copied().unwrap_or(0) as usize;
        let end = self.name_starts.get(doc + 1).copied().unwrap_or(0) as usize;
        let names = self.name_terms.get(start..end).unwrap_or(&[]);
        let weights = self.name_weights.get(start..end).unwrap_or(&[]);
        let (mut held, mut total) = (0.0, 0.0);
        for (term, &weight) in names.iter().zip(weights) {
            let weight = if self.config.name_cover_by_idf { f64::from(weight) } else { 1.0 };
            total += weight;
            if plan.query_terms.binary_search(term).is_ok() {
                held += weight;
            }
        }
        if total > 0.0 {
            held / total
        } else {
            0.0
        }
    }

    /// The numbers of the index terms that start with `prefix` (a range, the terms being sorted).
    fn terms_begun_by(&self, prefix: &str) -> core::ops::Range<u32> {
        let start = self.terms.lower_bound(prefix);
        let len = flat::first_where(self.terms.len() - start, |i| {
            !self.terms.get(start + i).is_some_and(|t| t.starts_with(prefix))
        });
        start as u32..(start + len) as u32
    }

    /// The full verdict for `doc`, including the exact-name rule and the fallback.
    fn verdict(&self, plan: &Plan<'_>, scores: &Scores, doc: usize) -> Verdict {
        let Some(lower_name) = self.lower_names.get(doc) else {
            return Verdict::NoSuchDoc;
        };
        if self.exact_matches(&plan.query).binary_search(&doc).is_ok() {
            return Verdict::ExactName;
        }
        if plan.concepts.is_empty() && !name_contains_query(lower_name, &plan.query) {
            return Verdict::NoTerms;
        }
        if scores.touched.binary_search(&doc).is_ok() {
            let missing: Vec<String> = plan
                .concepts
                .iter()
                .filter(|c| c.distinctive && !self.holds(c, doc))
                .map(|c| c.written.clone())
                .collect();
            return if missing.is_empty() && plan.unknown_words().is_empty() {
                Verdict::Full
            } else {
                Verdict::Partial(missing)
            };
        }
        if scores.touched.is_empty() && name_contains_query(lower_name, &plan.query) {
            return Verdict::Fallback;
        }
        Verdict::NoMatch
    }

    fn holds(&self, concept: &Concept<'_>, doc: usize) -> bool {
        concept.alternatives.iter().any(|a| a.postings.binary_search_by_key(&(doc as u32), |p| p.doc).is_ok())
    }

    fn explain_concept(&self, concept: &Concept<'_>, doc: usize) -> TermExplanation {
        let score = concept
            .alternatives
            .iter()
            .filter_map(|a| {
                let i = a.postings.binary_search_by_key(&(doc as u32), |p| p.doc).ok()?;
                let p = a.postings.get(i)?;
                Some(a.weight * term_score(a.idf, f64::from(p.term_freq)))
            })
            .fold(0.0, f64::max);
        TermExplanation {
            term: concept.term.clone(),
            doc_freq: concept.doc_freq(),
            score,
            distinctive: concept.distinctive,
        }
    }

    fn term_number(&self, term: &str) -> Option<usize> {
        let at = self.terms.lower_bound(term);
        (self.terms.get(at) == Some(term)).then_some(at)
    }

    fn postings_of(&self, term: &str) -> &[Posting] {
        self.term_number(term).map_or(&[], |i| self.postings.get(i))
    }

    /// Tools whose lowercased name (with or without an `mcp__` prefix) is the lowercased query.
    fn exact_matches(&self, lower_query: &str) -> Vec<usize> {
        if lower_query.is_empty() {
            return Vec::new();
        }
        let start = self.names.lower_bound(lower_query);
        let mut docs: Vec<usize> = (start..self.names.len())
            .take_while(|&at| self.names.get(at) == Some(lower_query))
            .map(|at| self.name_docs.get(at).map_or(usize::MAX, |&doc| doc as usize))
            .collect();
        docs.sort_unstable();
        docs.dedup();
        docs
    }

    /// The seed fallback: tools whose lowercased name contains the whole lowercased query
    /// ([`name_contains_query`]). One search through the names' one text rather than one per
    /// name: after an occurrence, the search goes on from the next name (an occurrence that runs
    /// past its name's end means that name holds none after it either).
    fn fallback(&self, lower_query: &str) -> Vec<usize> {
        let mut found = Vec::new();
        if !lower_query.chars().any(char::is_alphanumeric) {
            return found;
        }
        let (text, ends) = (&self.lower_names.text, &self.lower_names.ends);
        let (mut doc, mut from) = (0, 0);
        let found_from = |from: usize| crate::swar::find_linear(text.as_bytes().get(from..)?, lower_query.as_bytes());
        while let Some(at) = found_from(from).map(|i| from + i) {
            doc += flat::first_where(ends.len().saturating_sub(doc), |i| {
                ends.get(doc + i).is_none_or(|&end| end as usize > at)
            });
            let Some(&end) = ends.get(doc) else { break };
            if at + lower_query.len() <= end as usize {
                found.push(doc);
            }
            (doc, from) = (doc + 1, end as usize);
        }
        found
    }

    /// Exact-name hits first, then (with [`SearchConfig::full_first`]) full matches, then score
    /// (highest first), then name, then server.
    fn rank_order(&self, a: &(bool, Hit), b: &(bool, Hit)) -> Ordering {
        let full_first = |x: &(bool, Hit)| self.config.full_first && !x.1.partial;
        b.0.cmp(&a.0)
            .then_with(|| full_first(b).cmp(&full_first(a)))
            .then_with(|| b.1.score.total_cmp(&a.1.score))
            .then_with(|| self.tie_rank_of(a.1.doc).cmp(&self.tie_rank_of(b.1.doc)))
    }

    fn tie_rank_of(&self, doc: usize) -> u32 {
        self.tie_rank.get(doc).copied().unwrap_or(u32::MAX)
    }
}

impl Scores {
    /// Adds the concept at hand's best alternative score into `doc` and resets it.
    fn add(&mut self, doc: usize, distinctive: bool) {
        let Some(a) = self.acc.get_mut(doc) else {
            return;
        };
        if !a.seen {
            a.seen = true;
            self.touched.push(doc);
        }
        a.score += a.best.max(0.0);
        a.covered = a.covered.saturating_add(u16::from(distinctive));
        a.best = -1.0;
    }

    /// Puts the touched tools in order: a sort when they are few, else (a sixteenth of the
    /// catalog or more) one pass over the accumulators, which mark them all.
    fn sort_touched(&mut self) {
        if self.touched.len() < self.acc.len() / 16 {
            self.touched.sort_unstable();
        } else {
            self.touched.clear();
            self.touched.extend(self.acc.iter().enumerate().filter(|(_, a)| a.seen).map(|(doc, _)| doc));
        }
    }

    fn score_of(&self, doc: usize) -> f64 {
        self.acc.get(doc).map_or(0.0, |a| a.score)
    }

    fn covered_of(&self, doc: usize) -> usize {
        self.acc.get(doc).map_or(0, |a| usize::from(a.covered))
    }
}

/// Turns per-field counts into BM25F frequencies: field weights and per-field average lengths.
struct FieldNorms {
    weights: [f64; FIELDS],
    avg_len: [f64; FIELDS],
    lengths: Vec<FieldLengths>,
    b: f64,
}

impl FieldNorms {
    /// Each field's [`bm25::length_norm`] for tool `doc`.
    fn length_norms(&self, doc: usize) -> [f64; FIELDS] {
        let length = self.lengths.get(doc).copied().unwrap_or_default();
        core::array::from_fn(|f| {
            let len = f64::from(length.get(f).copied().unwrap_or(0));
            bm25::length_norm(len, self.avg_len.get(f).copied().unwrap_or(0.0), self.b)
        })
    }

    /// The posting of tool `doc` (its fields' [`FieldNorms::length_norms`]) for a term with
    /// `in_fields` counts: [`bm25::field_tf_with`] summed over the fields.
    fn posting(&self, doc: u32, norms: &[f64; FIELDS], in_fields: FieldCounts) -> Posting {
        let term_freq: f64 = (0..FIELDS)
            .filter_map(|f| {
                let tf = f64::from(*in_fields.get(f)?);
                Some(*self.weights.get(f)? * tf / *norms.get(f)?)
            })
            .sum();
        Posting { doc, term_freq: term_freq as f32 }
    }
}

fn average_lengths(lengths: &[FieldLengths]) -> [f64; FIELDS] {
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
    /// Parameter descriptions already analysed, by the hex of their 64-bit hash (16 bytes, not a
    /// copy of the text) → 1 + an index into `texts`: REST catalogs repeat them across hundreds of
    /// tools ("Specifies which fields in the response should be expanded."), so each distinct one
    /// is split and looked up once. Two texts with one hash would share terms: at 2⁻⁶⁴ a pair.
    seen_texts: intern::StrMap,
    /// Reused buffer for a text's hash key.
    key: String,
    /// The term numbers of each distinct text of `seen_texts`, in text order.
    texts: Vec<Vec<u32>>,
    /// Reused buffer of one tool's term occurrences ([`occurrence`]).
    found: Vec<u64>,
    /// Reused buffer of one tool's distinct terms, in order of first occurrence, with their
    /// counts per field.
    counted: Vec<(u32, FieldCounts)>,
    /// Per term number: the tool it was last counted for (plus one: 0 is none yet), and its
    /// place in `counted` then. Each occurrence finds its term's counts in one step, with no
    /// sort of the tool's occurrences.
    counted_for: Vec<(u32, u32)>,
    /// Tools counted so far.
    tools: u32,
}

impl Vocabulary {
    /// The term numbers of a parameter description's words, analysed the first time it is met.
    fn text_terms(&mut self, analyzer: &Analyzer, config: &SearchConfig, text: &str) -> &[u32] {
        self.key.clear();
        crate::hash::push_hex(&mut self.key, crate::swar::hash(text.as_bytes()), 16);
        let at = match self.seen_texts.get(&self.key) {
            Some(code) => code.saturating_sub(1) as usize,
            None => {
                let stripped = if config.strip_html { tokenize::strip_html(text) } else { Cow::Borrowed(text) };
                let mut terms = Vec::new();
                let mut buf = core::mem::take(&mut self.buf);
                analyzer.document_words(&stripped, true, &mut buf, |word| terms.extend(self.term(analyzer, word)));
                self.buf = buf;
                self.texts.push(terms);
                self.seen_texts.insert(&self.key, self.texts.len() as u32);
                self.texts.len() - 1
            }
        };
        self.texts.get(at).map_or(&[], Vec::as_slice)
    }

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
    config: &SearchConfig,
    vocabulary: &mut Vocabulary,
    fields: &DocFields<'_>,
    entries: &mut Vec<(u32, PackedCounts)>,
) -> FieldLengths {
    // Each occurrence as `term << 8 | field`, one `u64`; the buffer is reused across tools.
    let mut found = core::mem::take(&mut vocabulary.found);
    found.clear();
    let mut buf = core::mem::take(&mut vocabulary.buf);
    let mut push = |text: &str, field: usize| {
        analyzer.document_words(text, matches!(field, SUMMARY | DESCRIPTION | PARAM_TEXT), &mut buf, |word| {
            if let Some(term) = vocabulary.term(analyzer, word) {
                found.push(occurrence(term, field));
            }
        });
    };
    let own = own_beside(fields.name, fields.own);
    let name = if own.is_empty() { strip_mcp_prefix(fields.name) } else { own };
    push(name, NAME);
    if config.rest_names && reads_a_collection(name, analyzer.splits_camel()) {
        push("list", NAME);
    }
    push(fields.server, SERVER);
    let description =
        if config.strip_html { tokenize::strip_html(fields.description) } else { Cow::Borrowed(fields.description) };
    let (summary, rest) =
        description.split_at_checked(tokenize::first_sentence_end(&description)).unwrap_or((&description, ""));
    push(summary, SUMMARY);
    push(rest, DESCRIPTION);
    for hint in &fields.hints {
        push(hint, DESCRIPTION);
    }
    for param in &fields.params {
        push(param, PARAMS);
    }
    vocabulary.buf = buf;
    if config.param_text_weight > 0.0 {
        for text in &fields.param_descriptions {
            let terms = vocabulary.text_terms(analyzer, config, text);
            found.extend(terms.iter().map(|&term| occurrence(term, PARAM_TEXT)));
        }
    }
    let length = vocabulary.count_terms(&found, entries);
    vocabulary.found = found;
    length
}

impl Vocabulary {
    /// Pushes into `entries` the distinct terms of one tool's occurrences (`found`) with their
    /// counts per field (a name term counted once), in order of first occurrence; returns the
    /// tool's field lengths.
    fn count_terms(&mut self, found: &[u64], entries: &mut Vec<(u32, PackedCounts)>) -> FieldLengths {
        self.tools += 1;
        let tool = self.tools;
        self.counted.clear();
        self.counted_for.resize(self.terms.len(), (0, 0));
        let mut length = FieldLengths::default();
        for &packed in found {
            let (term, field) = ((packed >> 8) as u32, (packed & 0xff) as usize);
            if let Some(n) = length.get_mut(field) {
                *n = n.saturating_add(1);
            }
            let Some(slot) = self.counted_for.get_mut(term as usize) else { continue };
            if slot.0 != tool {
                *slot = (tool, self.counted.len() as u32);
                self.counted.push((term, FieldCounts::default()));
            }
            if let Some(n) = self.counted.get_mut(slot.1 as usize).and_then(|(_, c)| c.get_mut(field)) {
                *n = if field == NAME { 1 } else { n.saturating_add(1) };
            }
        }
        grow_by_half(entries, self.counted.len());
        entries.extend(self.counted.iter().map(|(term, counts)| (*term, pack_counts(counts))));
        length
    }
}

/// Makes room in `entries` for `more`, growing it by half (not doubling, as `Vec` does): the
/// entries are the build's largest array, and at its last growth the old and the new array are
/// both held. With a factor under the golden ratio the blocks an array gave back add up to room
/// for a later one (with doubling they never do), and at most a third of it is left unused. The
/// prepared shelf's wasm memory, 3,397 tools: 11.1 MiB (doubling: 12.25; a quarter: 11.7); 4,774
/// tools: 16.4 (16.9).
fn grow_by_half<T>(entries: &mut Vec<T>, more: usize) {
    if entries.capacity() - entries.len() < more {
        entries.reserve_exact(more.max(entries.len() / 2));
    }
}

/// One occurrence of `term` in `field`, packed in one word.
fn occurrence(term: u32, field: usize) -> u64 {
    (u64::from(term) << 8) | field as u64
}

/// The number of `name` in `numbers`, numbering it next if it is new.
fn number_of(numbers: &mut intern::StrMap, name: &str) -> u32 {
    match numbers.get(name) {
        Some(n) => n,
        None => {
            let n = numbers.len() as u32;
            numbers.insert(name, n);
            n
        }
    }
}

/// The occurrence lists, by term in code-point order (`rank_of` maps a term's number to its place),
/// each listing its tools in build order, allocated at their exact sizes from a count per term.
///
/// The postings take the entries' own memory (both are 8 bytes): each entry's term is replaced by
/// its posting's place, then the entries are moved to their places along the permutation's cycles.
/// The build's peak is so the entries' size lower than with a second array (0.9 MB at 3,397 tools).
fn occurrence_lists(
    mut entries: Vec<(u32, PackedCounts)>,
    doc_starts: &[usize],
    rank_of: &[u32],
    normalise: &FieldNorms,
) -> Lists<Posting> {
    // A count per term, then each list's start (a running sum).
    let mut next = alloc::vec![0u32; rank_of.len()];
    for (term, _) in &entries {
        if let Some(n) = rank_of.get(*term as usize).and_then(|&r| next.get_mut(r as usize)) {
            *n += 1;
        }
    }
    let mut ends = Vec::with_capacity(next.len());
    let mut total = 0u32;
    for n in next.iter_mut() {
        let start = total;
        total += *n;
        ends.push(total);
        *n = start;
    }
    // Each entry becomes its posting's place and frequency (as bits), tool by tool (a tool's length
    // norms computed once), tools in build order within a list. (Every entry's term is in the
    // vocabulary; one that were not would go after the lists, and be cut.)
    let mut after = total;
    for (doc, range) in doc_starts.windows(2).enumerate() {
        let (Some(&start), Some(&end)) = (range.first(), range.get(1)) else { continue };
        let norms = normalise.length_norms(doc);
        for (term, counts) in entries.get_mut(start..end).unwrap_or(&mut []) {
            let at = rank_of.get(*term as usize).and_then(|&r| next.get_mut(r as usize));
            (*term, after) = match at {
                Some(at) => (core::mem::replace(at, *at + 1), after),
                None => (after, after + 1),
            };
            *counts = normalise.posting(doc as u32, &norms, unpack_counts(*counts)).term_freq.to_bits();
        }
    }
    place_postings(&mut entries, doc_starts);
    let mut items: Vec<Posting> =
        entries.into_iter().map(|(doc, bits)| Posting { doc, term_freq: f32::from_bits(bits) }).collect();
    items.truncate(total as usize);
    items.shrink_to_fit();
    Lists { items, ends }
}

/// Moves every entry (its place, its frequency's bits) to its place as its posting (its tool, the
/// same bits), cycle by cycle; a bit per entry marks the places filled. An entry's tool is the one
/// whose range of `doc_starts` holds the entry's first index.
fn place_postings(entries: &mut [(u32, u32)], doc_starts: &[usize]) {
    let doc_of = |index: usize| doc_starts.partition_point(|&start| start <= index).saturating_sub(1) as u32;
    let mut filled = alloc::vec![0u64; entries.len().div_ceil(64)];
    let is_filled = |filled: &[u64], at: usize| filled.get(at / 64).is_some_and(|w| w >> (at % 64) & 1 == 1);
    for start in 0..entries.len() {
        if is_filled(&filled, start) {
            continue;
        }
        let Some(&(mut place, mut bits)) = entries.get(start) else { break };
        let mut from = start;
        // The entry first at `from` goes to `place`; the one there is carried on, until the cycle
        // comes back to `start`, whose entry was taken first. Every step fills a place not filled
        // before (or `start`, last), so the loop ends even if the places were not a permutation
        // (they are).
        loop {
            let at = place as usize;
            if at != start && is_filled(&filled, at) {
                break;
            }
            let Some(slot) = entries.get_mut(at) else { break };
            let carried = core::mem::replace(slot, (doc_of(from), bits));
            if let Some(word) = filled.get_mut(at / 64) {
                *word |= 1 << (at % 64);
            }
            if at == start {
                break;
            }
            (from, place, bits) = (at, carried.0, carried.1);
        }
    }
}

/// Whether a tool name reads as a REST read of a whole collection (see
/// `tokenize::lists_a_collection`); only names holding `get` are split to find out.
fn reads_a_collection(name: &str, split_camel: bool) -> bool {
    name.as_bytes().windows(3).any(|w| w.eq_ignore_ascii_case(b"get"))
        && tokenize::lists_a_collection(&tokenize::words(name, split_camel))
}

/// The variant table analysed: a query term and the term lists it also finds.
pub(crate) type Variants = Vec<(String, Vec<Vec<String>>)>;

/// What follows from a configuration alone: its analyzer and its variant table analysed (for an
/// index whose tables a snapshot stored, `crate::shelf::snapshot`).
pub(crate) fn configured(config: &SearchConfig) -> (Analyzer, Variants) {
    let analyzer = Analyzer::new(config);
    let variants = variants_of(&analyzer, config);
    (analyzer, variants)
}

/// The variant table analysed, when `config` asks for variants.
fn variants_of(analyzer: &Analyzer, config: &SearchConfig) -> Variants {
    if config.variants {
        analysed_variants(analyzer)
    } else {
        Vec::new()
    }
}

/// The variant table with each side analysed into terms (a few dozen entries, looked up by a
/// scan); entries whose
/// word is a stop word, or whose variants analyse to nothing, are left out.
fn analysed_variants(analyzer: &Analyzer) -> Vec<(String, Vec<Vec<String>>)> {
    let mut table: Vec<(String, Vec<Vec<String>>)> = Vec::new();
    for (word, variants) in tokenize::VARIANTS {
        let Some(term) = analyzer.term(word) else { continue };
        let phrases: Vec<Vec<String>> = variants
            .iter()
            .map(|v| v.split(' ').filter_map(|w| analyzer.term(w)).collect::<Vec<String>>())
            .filter(|p| !p.is_empty() && p.as_slice() != [term.clone()])
            .collect();
        match table.iter_mut().find(|(t, _)| *t == term) {
            Some((_, existing)) => existing.extend(phrases),
            None if !phrases.is_empty() => table.push((term, phrases)),
            None => {}
        }
    }
    table
}

/// Each name term's weight in the name bonus: its idf, roughly (computed once here, since every
/// query weighs the names of every tool it touches).
fn name_term_weights(name_terms: &[u32], postings: &Lists<Posting>, docs: usize) -> Vec<f32> {
    name_terms.iter().map(|&t| bm25::rough_idf(docs, postings.get(t as usize).len()) as f32).collect()
}

/// The tools in both occurrence lists (each sorted by tool), with the smaller frequency.
fn intersect(a: &[Posting], b: &[Posting]) -> Vec<Posting> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
        match x.doc.cmp(&y.doc) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                out.push(Posting { doc: x.doc, term_freq: x.term_freq.min(y.term_freq) });
                i += 1;
                j += 1;
            }
        }
    }
    out
}

/// One occurrence list from several: sorted by tool, each tool once with its highest frequency.
/// Gathered in a table of the `docs` tools rather than sorted as postings, so it shares the
/// `usize` sort of the scores (one sort less in the `.wasm`).
fn merge_postings(docs: usize, postings: impl Iterator<Item = Posting>) -> Vec<Posting> {
    let mut best = alloc::vec![-1.0f32; docs];
    let mut held: Vec<usize> = Vec::new();
    for p in postings {
        if let Some(b) = best.get_mut(p.doc as usize) {
            if *b < 0.0 {
                held.push(p.doc as usize);
            }
            *b = b.max(p.term_freq);
        }
    }
    held.sort_unstable();
    held.into_iter().map(|doc| Posting { doc: doc as u32, term_freq: best.get(doc).copied().unwrap_or(0.0) }).collect()
}

/// Each tool's place in (name, server, build position) order: sorted by name and position with
/// [`swar::sort_names`] (the one sort of names the `.wasm` holds), then each run of one name (a
/// tool of that name on several servers) sorted by server and position the same way.
fn tie_ranks(docs: &[Doc<'_>]) -> Vec<u32> {
    let mut order: Vec<(&str, usize)> = docs.iter().enumerate().map(|(i, d)| (d.name, i)).collect();
    swar::sort_names(&mut order);
    let mut by_server: Vec<(&str, usize)> = Vec::new();
    for run in order.chunk_by_mut(|a, b| a.0 == b.0).filter(|run| run.len() > 1) {
        by_server.clear();
        by_server.extend(run.iter().map(|&(_, doc)| (docs.get(doc).map_or("", |d| d.server), doc)));
        swar::sort_names(&mut by_server);
        for (slot, &(_, doc)) in run.iter_mut().zip(&by_server) {
            slot.1 = doc;
        }
    }
    let mut rank = alloc::vec![0u32; docs.len()];
    for (place, &(_, doc)) in order.iter().enumerate() {
        if let Some(r) = rank.get_mut(doc) {
            *r = place as u32;
        }
    }
    rank
}

/// The lowercased `names` (each tool's, in build order): what an exact name is compared with. The
/// build makes them, and a snapshot's load makes them again from its tools.
pub(crate) fn lower_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Texts {
    let mut lower = Texts::default();
    for name in names {
        crate::lowercase::push_lowercase(&mut lower.text, name);
        lower.ends.push(lower.text.len() as u32);
    }
    lower
}

/// Every tool's lowercased name (`lower_names`, in build order), and its name without an `mcp__`
/// prefix, sorted for lookup, and the tool of each.
fn sorted_names<'a>(docs: &'a [Doc<'_>], lower_names: &'a Texts) -> (Texts, Vec<u32>) {
    let mut names: Vec<(&str, usize)> = Vec::new();
    for (doc, meta) in docs.iter().enumerate() {
        let lower_name = lower_names.get(doc).unwrap_or_default();
        names.push((lower_name, doc));
        let bare = strip_mcp_prefix(lower_name);
        if bare.len() != lower_name.len() {
            names.push((bare, doc));
        }
        if !meta.lower_own.is_empty() {
            names.push((&meta.lower_own, doc));
        }
    }
    swar::sort_names(&mut names);
    let mut texts = Texts::default();
    for (name, _) in &names {
        texts.push(name);
    }
    (texts, names.into_iter().map(|(_, doc)| doc as u32).collect())
}

/// The query cut to [`MAX_QUERY_CHARS`] code points.
fn cut_query(query: &str) -> &str {
    crate::json::cut_chars(query, MAX_QUERY_CHARS)
}

/// Fallback test: a query with at least one letter or digit, contained in the name.
fn name_contains_query(lower_name: &str, lower_query: &str) -> bool {
    lower_query.chars().any(char::is_alphanumeric)
        && crate::swar::find_linear(lower_name.as_bytes(), lower_query.as_bytes()).is_some()
}

/// The fallback's one search through the names' text finds the names the per-name test does, on
/// names and queries made to overlap at the names' ends (native only: proptest is a native
/// dev-dependency).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::{name_contains_query, SearchConfig, SearchIndex};
    use crate::search::DocFields;
    use alloc::string::String;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    fn name() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(alloc::vec!["a", "b", "ab", "ba", "_", "é", "É", "x1", ""]);
        prop::collection::vec(pieces, 0..5).prop_map(|p| p.concat())
    }

    /// Few words, so that many tools tie on a word and the tie order counts.
    fn word() -> impl Strategy<Value = &'static str> {
        prop::sample::select(alloc::vec![
            "issue", "issues", "list", "create", "file", "repo", "tool_3", "pull", "close"
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn fallback_finds_the_names_holding_the_query(names in prop::collection::vec(name(), 0..8), query in name()) {
            let docs = names.iter().map(|n| DocFields { name: n, server: "s", ..DocFields::default() });
            let index = SearchIndex::build(docs, SearchConfig::default());
            let lower = query.to_lowercase();
            let expected: Vec<usize> =
                (0..names.len()).filter(|&d| name_contains_query(&names[d].to_lowercase(), &lower)).collect();
            prop_assert_eq!(index.fallback(&lower), expected);
        }

        #[test]
        fn best_is_the_first_of_the_whole_ranking(
            descriptions in prop::collection::vec(prop::collection::vec(word(), 0..6), 0..40),
            query in prop::collection::vec(word(), 1..4),
            limit in 0usize..12,
        ) {
            let texts: Vec<String> = descriptions.iter().map(|w| w.join(" ")).collect();
            let names: Vec<String> = (0..texts.len()).map(|i| alloc::format!("tool_{i}")).collect();
            let docs = names.iter().zip(&texts).map(|(name, description)| DocFields {
                name,
                server: "s",
                description,
                ..DocFields::default()
            });
            let index = SearchIndex::build(docs, SearchConfig::default());
            let query = query.join(" ");
            let whole: Vec<super::Hit> = index.candidates_with_cover(&query).into_iter().map(|(hit, _, _)| hit).take(limit).collect();
            prop_assert_eq!(index.rank(&query, limit).hits, whole);
        }
    }
}
