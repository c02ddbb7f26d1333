//! search (SPEC §4) over a catalog's deferred tools: the result a program gets, and the JSON the
//! model reads for a `tool_search` call (default and batched shapes).
//!
//! Layer 8 of ARCHITECTURE.md's Layers: imports only the rooms of the layers below.

use crate::catalog::{Catalog, Place, Tool};
use crate::json::{self, ParseError, Reader, Value};
use crate::options::Options;
use crate::search::{DocFields, SearchConfig, SearchIndex, MAX_QUERY_CHARS};
use crate::texts;
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

/// Descriptions the model reads in search results are cut at this many code points.
pub const MODEL_DESCRIPTION_CHARS: usize = 400;

/// One search hit.
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    /// The name the model knows.
    pub name: String,
    /// Its server.
    pub server: String,
    /// The whole description.
    pub description: String,
    /// The schema's required parameter names.
    pub required: Vec<String>,
    /// The ranking score (higher is better).
    pub score: f64,
    /// The tool lacks a distinctive word of the query, or the query has words no tool holds
    /// (SPEC §4): it ranks after every full match.
    pub partial: bool,
}

/// What `search` returns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchResult {
    /// The query as searched (trimmed, cut).
    pub query: String,
    /// How many deferred tools the catalog holds.
    pub total_available: usize,
    /// The hits, best first.
    pub matches: Vec<Match>,
    /// Query words (as written, filler excluded) that no tool holds.
    pub unknown_words: Vec<String>,
    /// Every server and its tool count, present only when nothing matched.
    pub servers: Option<Vec<(String, usize)>>,
    /// A model error (an empty query), when there is one.
    pub error: Option<String>,
}

/// Builds the search index over the catalog's deferred tools (document `i` is `deferred_tools[i]`).
pub fn build_index(catalog: &Catalog, options: &Options) -> (SearchIndex, Vec<usize>) {
    let deferred: Vec<usize> = (0..catalog.tools.len()).filter(|&i| catalog.tools[i].deferred).collect();
    let given = GivenHints::of(&options.hints);
    let docs = deferred.iter().filter_map(|&i| catalog.tools.get(i)).map(|tool| {
        let mut fields = DocFields {
            name: &tool.name,
            own: &tool.own_name,
            server: tool.server.as_deref().unwrap_or(""),
            description: &tool.description,
            ..DocFields::default()
        };
        described(tool, &mut fields);
        fields.hints.extend(given.of_tool(tool).map(Cow::Borrowed));
        fields
    });
    (SearchIndex::build(docs, search_config(options)), deferred)
}

/// The `hints` option's entries sorted for lookup (the names' one sort, [`crate::swar::sort_names`]):
/// a tool's are the words of the entries naming it by its name, its own name or `server/tool`
/// (each lookup O(log n)).
struct GivenHints<'o> {
    hints: &'o [(String, String)],
    sorted: Vec<(&'o str, usize)>,
}

impl<'o> GivenHints<'o> {
    fn of(hints: &'o [(String, String)]) -> GivenHints<'o> {
        let mut sorted: Vec<(&str, usize)> =
            hints.iter().enumerate().map(|(i, (entry, _))| (entry.as_str(), i)).collect();
        crate::swar::sort_names(&mut sorted);
        GivenHints { hints, sorted }
    }

    fn of_tool(&self, tool: &Tool) -> impl Iterator<Item = &'o str> {
        let mut words = Vec::new();
        if !self.sorted.is_empty() {
            let path = tool.server.as_deref().map(|server| alloc::format!("{server}/{}", tool.own_name));
            let own = (tool.own_name != tool.name).then_some(tool.own_name.as_str());
            for key in [Some(tool.name.as_str()), own, path.as_deref()].into_iter().flatten() {
                let first = self.sorted.partition_point(|(entry, _)| *entry < key);
                let named = self.sorted.iter().skip(first).take_while(|(entry, _)| *entry == key);
                words.extend(named.filter_map(|&(_, i)| self.hints.get(i)).map(|(_, w)| w.as_str()));
            }
        }
        words.into_iter()
    }
}

/// The search configuration of a shelf with `options`.
pub(crate) fn search_config(options: &Options) -> SearchConfig {
    SearchConfig { full_first: options.full_matches_first, ..SearchConfig::default() }
}

/// What the index reads of a tool's def besides its name and description, read at their places
/// in the def's text ([`Tool::each_place`]), borrowed where they hold no escape (the catalog
/// keeps no copy of them: a prepared toolbox's memory): its schema's top-level parameter names,
/// the `description` of each that has one and the values of its short `enum`, and the server's
/// words for the tool.
fn described<'a>(tool: &'a Tool, fields: &mut DocFields<'a>) {
    let kinds = [Place::Property, Place::Description, Place::Enum, Place::Hint];
    tool.each_place(&kinds, |kind, name, reader| match (kind, reader.peek()) {
        (Place::Property, _) => fields.params.push(name),
        (Place::Description, Some(b'"')) => fields.param_descriptions.extend(reader.string(0).ok().flatten()),
        (Place::Hint, Some(b'"')) => fields.hints.extend(reader.string(0).ok().flatten()),
        (Place::Enum, Some(b'[')) => short_enum(reader, &mut fields.param_descriptions).unwrap_or_default(),
        _ => {}
    });
}

/// Pushes the values of the `enum` array at the reader when they are at most
/// [`crate::search::MAX_INDEXED_ENUM`] strings (`state: open | closed | all` says what a tool
/// lists; longer ones are field names and codes, which measured worse).
fn short_enum<'a>(reader: &mut Reader<'a>, found: &mut Vec<Cow<'a, str>>) -> Result<(), ParseError> {
    let (start, mut all_strings, mut count) = (found.len(), true, 0);
    let mut more = reader.enter(1, b']')?;
    while more {
        count += 1;
        match reader.string(1)? {
            Some(value) if count <= crate::search::MAX_INDEXED_ENUM => found.push(value),
            Some(_) => {}
            None => all_strings = false,
        }
        more = reader.next(b']')?;
    }
    if !all_strings || count > crate::search::MAX_INDEXED_ENUM {
        found.truncate(start);
    }
    Ok(())
}

/// Searches `index` (built by [`build_index`]) for `query`, returning at most `limit` hits.
/// With `vectors` (the query's similarity to each document, and the fusion), the ranking fuses
/// them in (SPEC §12).
pub fn search(
    catalog: &Catalog,
    index: &SearchIndex,
    documents: &[usize],
    query: &str,
    limit: usize,
    vectors: Option<(&[f32], &crate::search::embed::Fusion)>,
) -> SearchResult {
    found(catalog, index, documents, query, limit, vectors).into_result(catalog)
}

/// A search's result with each hit as its tool's index in the catalog, its strings not copied:
/// what the binding sends, the JS side keeping each hit tool's strings once per shelf
/// ([`crate::Shelf::match_summary`]). [`Found::into_result`] is [`crate::Shelf::search`]'s result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Found {
    /// The query as searched (trimmed, cut).
    pub query: String,
    /// How many deferred tools the catalog holds.
    pub total_available: usize,
    /// The hits, best first: the tool's index in `catalog.tools`, its score, whether partial.
    pub hits: Vec<(usize, f64, bool)>,
    /// Query words (as written, filler excluded) that no tool holds.
    pub unknown_words: Vec<String>,
    /// Every server and its tool count, present only when nothing matched.
    pub servers: Option<Vec<(String, usize)>>,
    /// A model error (an empty query), when there is one.
    pub error: Option<String>,
}

/// [`search`]'s hits as tools of the catalog ([`Found`]).
pub fn found(
    catalog: &Catalog,
    index: &SearchIndex,
    documents: &[usize],
    query: &str,
    limit: usize,
    vectors: Option<(&[f32], &crate::search::embed::Fusion)>,
) -> Found {
    let query = cut_chars(query.trim(), MAX_QUERY_CHARS);
    let total_available = documents.len();
    let mut found = Found { query, total_available, ..Found::default() };
    if found.query.is_empty() {
        found.servers = Some(server_counts(catalog));
        found.error = Some(texts::query_required());
        return found;
    }
    if let Some(named) = named_tools(catalog, &found.query) {
        found.hits = named.into_iter().filter_map(|tool| Some((index_of(catalog, tool)?, 0.0, false))).collect();
        return found;
    }
    let ranked = index.rank_fused(&found.query, limit, vectors);
    found.hits = ranked
        .hits
        .into_iter()
        .filter_map(|hit| {
            let &tool = documents.get(hit.doc).filter(|&&i| i < catalog.tools.len())?;
            Some((tool, hit.score, hit.partial))
        })
        .collect();
    named_first(catalog, &found.query, &mut found.hits, limit);
    found.servers = found.hits.is_empty().then(|| server_counts(catalog));
    found.unknown_words = ranked.unknown_words;
    found
}

/// The tool whose name the query is, exactly (case and all), or the one tool whose own name it
/// is, first: the index matches names lowercased, so `calculate_BMI` and `calculate_bmi` are both
/// exact there.
fn named_first(catalog: &Catalog, query: &str, hits: &mut Vec<(usize, f64, bool)>, limit: usize) {
    let Some(tool) = catalog.lookup(query).filter(|t| t.deferred).and_then(|t| index_of(catalog, t)) else {
        return;
    };
    match hits.iter().position(|h| h.0 == tool) {
        Some(at) => hits.get_mut(..=at).into_iter().for_each(|head| head.rotate_right(1)),
        None => {
            let score = hits.first().map_or(0.0, |h| h.1);
            hits.insert(0, (tool, score, false));
            hits.truncate(limit.max(1));
        }
    }
}

impl Found {
    /// The result with each hit's strings copied from the catalog.
    pub fn into_result(self, catalog: &Catalog) -> SearchResult {
        let matches = self.hits.iter().filter_map(|&(tool, score, partial)| {
            catalog.tools.get(tool).map(|tool| match_of(catalog, tool, score, partial))
        });
        SearchResult {
            query: self.query,
            total_available: self.total_available,
            matches: matches.collect(),
            unknown_words: self.unknown_words,
            servers: self.servers,
            error: self.error,
        }
    }

    /// As JSON text, written straight into one string: [`SearchResult::to_value`]'s text with
    /// each match `[tool, high, low, partial]` (the tool's index in the catalog, the score's bits
    /// as two 32-bit halves or `null, null` for a score JSON writes as `null`) instead of its
    /// object, which the JS side makes from the tool's `match_summary` (tests/search_json.rs).
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(self.query.len() + 64 + 32 * self.hits.len());
        out.push_str("{\"query\":");
        json::write_string(&mut out, &self.query);
        out.push_str(",\"totalAvailable\":");
        push_uint(&mut out, self.total_available as u64);
        out.push_str(",\"matches\":[");
        for (i, &(tool, score, partial)) in self.hits.iter().enumerate() {
            out.push_str(if i == 0 { "[" } else { ",[" });
            push_uint(&mut out, tool as u64);
            // The score as its bits, high and low halves: no float to decimal text here nor
            // back in JS (a third of the writing of a 5-hit result).
            if score.is_finite() {
                let bits = score.to_bits();
                out.push(',');
                push_uint(&mut out, bits >> 32);
                out.push(',');
                push_uint(&mut out, bits & 0xffff_ffff);
            } else {
                out.push_str(",null,null");
            }
            out.push_str(if partial { ",true]" } else { ",false]" });
        }
        out.push_str("],\"unknownWords\":");
        push_strings(&mut out, &self.unknown_words);
        push_servers_and_error(&mut out, &self.servers, &self.error);
        out.push('}');
        out
    }
}

/// The strings of a search match of the catalog's tool `tool` as JSON text,
/// `{"name","server","description","required"}` (a match object of [`SearchResult::to_json`]
/// without its score and `partial`); `None` for no such tool.
pub fn match_summary(catalog: &Catalog, tool: usize) -> Option<String> {
    let tool = catalog.tools.get(tool)?;
    let server = tool.server.as_deref().unwrap_or("");
    let mut out = String::with_capacity(tool.name.len() + server.len() + tool.description.len() + 64);
    out.push_str("{\"name\":");
    json::write_string(&mut out, &tool.name);
    out.push_str(",\"server\":");
    json::write_string(&mut out, server);
    out.push_str(",\"description\":");
    json::write_string(&mut out, &tool.description);
    out.push_str(",\"required\":");
    push_strings(&mut out, &catalog.required_names(tool));
    out.push('}');
    Some(out)
}

fn match_of(catalog: &Catalog, tool: &Tool, score: f64, partial: bool) -> Match {
    Match {
        name: tool.name.clone(),
        server: tool.server.clone().unwrap_or_default(),
        description: tool.description.clone(),
        required: catalog.required_names(tool),
        score,
        partial,
    }
}

/// The index in `catalog.tools` of a tool borrowed from them (its address's offset, checked).
fn index_of(catalog: &Catalog, tool: &Tool) -> Option<usize> {
    let offset = (tool as *const Tool as usize).checked_sub(catalog.tools.as_ptr() as usize)?;
    let at = offset / core::mem::size_of::<Tool>().max(1);
    catalog.tools.get(at).filter(|t| core::ptr::eq(*t, tool)).map(|_| at)
}

/// Most tools one search of exact names gives (the hard cap of a search's limit).
const MAX_NAMED: usize = 50;

/// A query of two or more words (split on whitespace and commas) each of which names a deferred
/// tool exactly: those tools, each once, in the order named, whatever the limit (up to
/// [`MAX_NAMED`]), so a search of the names a listing shows loads them all (SPEC §11). `None`
/// for any other query.
pub(crate) fn named_tools<'a>(catalog: &'a Catalog, query: &str) -> Option<Vec<&'a Tool>> {
    let words = query.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty());
    let mut tools: Vec<&Tool> = Vec::new();
    for word in words {
        let tool = catalog.lookup(word).filter(|t| t.deferred)?;
        if tools.len() == MAX_NAMED {
            return None;
        }
        if !tools.iter().any(|t| core::ptr::eq(*t, tool)) {
            tools.push(tool);
        }
    }
    (tools.len() >= 2).then_some(tools)
}

fn server_counts(catalog: &Catalog) -> Vec<(String, usize)> {
    catalog.servers.iter().map(|s| (s.name.clone(), s.tools.len())).collect()
}

/// The first `max` code points of `text`.
pub fn cut_chars(text: &str, max: usize) -> String {
    String::from(json::cut_chars(text, max))
}

/// `text` cut to `max` code points, `…` marking a cut.
fn cut_marked(text: &str, max: usize) -> String {
    let kept = json::cut_chars(text, max);
    if kept.len() == text.len() {
        return String::from(text);
    }
    let mut out = String::from(kept.trim_end());
    out.push('…');
    out
}

fn servers_value(servers: &[(String, usize)]) -> Value {
    Value::Array(
        servers
            .iter()
            .map(|(name, tools)| {
                Value::object([("name", Value::str(name.as_str())), ("tools", Value::uint(*tools as u64))])
            })
            .collect(),
    )
}

impl Match {
    /// The match as the model reads it; in a batched answer's shared summaries (`with_name`
    /// false) without `partial`, which belongs to each query's group.
    fn model_value(&self, with_name: bool) -> Value {
        let mut members = Vec::new();
        if with_name {
            members.push(("name", Value::str(self.name.as_str())));
        }
        members.push(("server", Value::str(self.server.as_str())));
        members.push(("description", Value::str(cut_marked(&self.description, MODEL_DESCRIPTION_CHARS))));
        members.push(("required", Value::strings(&self.required)));
        if self.partial && with_name {
            members.push(("partial", Value::Bool(true)));
        }
        Value::object(members)
    }
}

impl SearchResult {
    /// The result for a program, camelCase keys: `{query, totalAvailable, matches, servers?, error?}`.
    pub fn to_value(&self) -> Value {
        let matches = self.matches.iter().map(|m| {
            Value::object([
                ("name", Value::str(m.name.as_str())),
                ("server", Value::str(m.server.as_str())),
                ("description", Value::str(m.description.as_str())),
                ("required", Value::strings(&m.required)),
                ("score", Value::float(m.score)),
                ("partial", Value::Bool(m.partial)),
            ])
        });
        let mut members = alloc::vec![
            ("query", Value::str(self.query.as_str())),
            ("totalAvailable", Value::uint(self.total_available as u64)),
            ("matches", Value::Array(matches.collect())),
            ("unknownWords", Value::strings(&self.unknown_words)),
        ];
        if let Some(servers) = &self.servers {
            members.push(("servers", servers_value(servers)));
        }
        if let Some(error) = &self.error {
            members.push(("error", Value::str(error.as_str())));
        }
        Value::object(members)
    }

    /// What the model reads: snake_case, no scores, descriptions cut at 400 code points,
    /// `partial: true` on partial matches; the unknown words with a hint; with no match, the
    /// servers and a hint.
    pub fn model_value(&self) -> Value {
        let mut members = alloc::vec![
            ("query", Value::str(self.query.as_str())),
            ("total_available", Value::uint(self.total_available as u64)),
            ("matches", Value::Array(self.matches.iter().map(|m| m.model_value(true)).collect())),
        ];
        self.push_unknown_and_hint(&mut members);
        Value::object(members)
    }

    /// `unknown_words` when there are some; `servers` when nothing matched; and the one hint
    /// that fits.
    fn push_unknown_and_hint(&self, members: &mut Vec<(&'static str, Value)>) {
        if !self.unknown_words.is_empty() {
            members.push(("unknown_words", Value::strings(&self.unknown_words)));
        }
        if let Some(servers) = &self.servers {
            members.push(("servers", servers_value(servers)));
            members.push(("hint", Value::str(texts::no_match_hint())));
        } else if !self.unknown_words.is_empty() {
            members.push(("hint", Value::str(texts::unknown_words_hint(&self.unknown_words))));
        }
    }
}

/// `,"servers":[…]` and `,"error":"…"` of a result that has them.
fn push_servers_and_error(out: &mut String, servers: &Option<Vec<(String, usize)>>, error: &Option<String>) {
    if let Some(servers) = servers {
        out.push_str(",\"servers\":");
        out.push_str(&servers_value(servers).to_json());
    }
    if let Some(error) = error {
        out.push_str(",\"error\":");
        json::write_string(out, error);
    }
}

/// `n` in decimal digits.
fn push_uint(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // ASCII digits: one copy of the bytes (a `char` push each is an encoding each).
    out.push_str(core::str::from_utf8(digits.get(at..).unwrap_or_default()).unwrap_or_default());
}

/// A JSON array of strings.
fn push_strings(out: &mut String, items: &[String]) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json::write_string(out, item);
    }
    out.push(']');
}

/// What the model reads for a batched search: one group per query (names only) and one shared map
/// of tool summaries, so a tool found by two queries is described once.
pub fn batch_model_value(results: &[SearchResult]) -> Value {
    let mut summaries: Vec<(String, Value)> = Vec::new();
    let groups = results.iter().map(|r| {
        for m in &r.matches {
            if !summaries.iter().any(|(name, _)| *name == m.name) {
                summaries.push((m.name.clone(), m.model_value(false)));
            }
        }
        let mut group = alloc::vec![
            ("query", Value::str(r.query.as_str())),
            ("total_available", Value::uint(r.total_available as u64)),
            ("matches", Value::strings(r.matches.iter().map(|m| m.name.as_str()))),
        ];
        let partial: Vec<&str> = r.matches.iter().filter(|m| m.partial).map(|m| m.name.as_str()).collect();
        if !partial.is_empty() {
            group.push(("partial", Value::strings(partial)));
        }
        if !r.unknown_words.is_empty() {
            group.push(("unknown_words", Value::strings(&r.unknown_words)));
            group.push(("hint", Value::str(texts::unknown_words_hint(&r.unknown_words))));
        }
        Value::object(group)
    });
    let mut members = alloc::vec![("results", Value::Array(groups.collect()))];
    let unmatched = results.iter().find_map(|r| r.servers.as_ref());
    members.push(("tools", Value::Object(summaries)));
    if let Some(servers) = unmatched {
        members.push(("servers", servers_value(servers)));
        members.push(("hint", Value::str(texts::no_match_hint())));
    }
    Value::object(members)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Format;
    use alloc::format;
    use alloc::string::ToString;

    /// What is read of a def, by a parse of its own (the oracle of the places gathered as the
    /// toolbox is read): of the schema where `format` keeps it, its top-level property names, the
    /// `description` and short `enum` of each, and its `required` strings; and the hints.
    #[derive(Debug, Default, PartialEq)]
    struct Read {
        names: Vec<String>,
        descriptions: Vec<String>,
        hints: Vec<String>,
        required: Vec<String>,
    }

    fn walked(def: &str, format: Format) -> Read {
        let mut reader = Reader::new(def);
        let mut hints = Vec::new();
        let schema = walked_parameters(&mut reader, format, &mut hints).unwrap();
        let mut read = Read { hints: strings(&hints), ..Read::default() };
        let schema = schema.as_ref().and_then(Value::as_object).unwrap_or_default();
        for (key, value) in schema {
            match (key.as_str(), value) {
                ("properties", Value::Object(properties)) => {
                    for (name, property) in properties {
                        read.names.push(name.clone());
                        for (key, value) in property.as_object().unwrap_or_default() {
                            match (key.as_str(), value) {
                                ("description", Value::String(d)) => read.descriptions.push(d.clone()),
                                ("enum", Value::Array(values))
                                    if values.len() <= crate::search::MAX_INDEXED_ENUM
                                        && values.iter().all(|v| v.as_str().is_some()) =>
                                {
                                    read.descriptions.extend(values.iter().filter_map(Value::as_str).map(String::from))
                                }
                                _ => {}
                            }
                        }
                    }
                }
                ("required", Value::Array(names)) => {
                    read.required.extend(names.iter().filter_map(Value::as_str).map(String::from))
                }
                _ => {}
            }
        }
        read
    }

    /// What the index reads of a tool, and the required names a match shows.
    fn read_of(catalog: &Catalog, tool: &Tool) -> Read {
        let mut fields = DocFields::default();
        described(tool, &mut fields);
        Read {
            names: strings(&fields.params),
            descriptions: strings(&fields.param_descriptions),
            hints: strings(&fields.hints),
            required: catalog.required_names(tool),
        }
    }

    /// The schema where `format` keeps it, parsed; the hints pushed.
    fn walked_parameters<'a>(
        reader: &mut Reader<'a>,
        format: Format,
        hints: &mut Vec<Cow<'a, str>>,
    ) -> Result<Option<Value>, ParseError> {
        let (holder, schema_key) = format.field_keys();
        let (mut at_top, mut in_holder) = (None, None);
        reader.members(0, |reader, key| {
            if key == "title" {
                hints.extend(reader.string(1)?);
                Ok(())
            } else if key == "annotations" || key == "_meta" {
                let wanted = if key == "annotations" { "title" } else { "anthropic/searchHint" };
                reader.members(1, |reader, key| {
                    if key == wanted {
                        hints.extend(reader.string(2)?);
                        Ok(())
                    } else {
                        reader.skip(2)
                    }
                })
            } else if Some(key) == holder {
                let mut found = None;
                reader.members(1, |reader, key| {
                    if key == schema_key {
                        found = Some(reader.value(2)?);
                        Ok(())
                    } else {
                        reader.skip(2)
                    }
                })?;
                in_holder = Some(found);
                Ok(())
            } else if key == schema_key {
                at_top = Some(reader.value(1)?);
                Ok(())
            } else {
                reader.skip(1)
            }
        })?;
        Ok(in_holder.unwrap_or(at_top))
    }

    /// The tools of a toolbox's text read both ways: as a value (the places found by a walk of
    /// each def's text) and as text (the places gathered as each def is read).
    fn both_ways(toolbox: &str) -> [Catalog; 2] {
        let options = Options::default();
        [Catalog::parse_json(toolbox, &options).unwrap(), Catalog::parse_text(toolbox.to_string(), &options).unwrap()]
    }

    fn strings(v: &[Cow<'_, str>]) -> Vec<String> {
        v.iter().map(|c| c.to_string()).collect()
    }

    /// The parameter descriptions the index takes are the top-level properties' `description`
    /// strings, in every format and odd shape (escapes, nesting, repeated keys, non-objects).
    #[test]
    fn parameter_descriptions_are_the_top_level_ones() {
        let schema = r#"{"type":"object","properties":{"a":{"type":"string","description":"First \"one\" \u00e9"},"b":{"description":{"x":1}},"c":{"items":{"description":"nested, not top-level"}},"d":"not an object","e":{"description":"old","description":"new"},"f":{"description":"with [brackets] and {braces}"}}}"#;
        let compact = schema.replace(r#""description":"old","#, "").replace(r"\u00e9", "é");
        let defs = [
            format!(
                r#"{{"type":"function","function":{{"name":"t","description":"d","parameters":{{}}}},"parameters":{schema}}}"#
            ),
            format!(
                r#"{{"type":"function","parameters":{{}},"function":{{"name":"t","description":"d","parameters":{compact}}}}}"#
            ),
            format!(r#"{{"type":"function","function":{{"name":"t","description":"d","parameters":{schema}}}}}"#),
            format!(r#"{{"type":"function","name":"t","description":"d","parameters":{schema}}}"#),
            format!(r#"{{"name":"t","description":"d","input_schema":{schema},"inputSchema":{{}}}}"#),
            format!(r#"{{"name":"t","description":"d","inputSchema":{compact},"parameters":{{}}}}"#),
        ];
        for (i, def) in defs.iter().enumerate() {
            let toolbox = format!(r#"{{"servers":{{"s":[{def}]}}}}"#);
            for catalog in both_ways(&toolbox) {
                let tool = catalog.tools.first().unwrap();
                let read = read_of(&catalog, tool);
                let expected: &[&str] =
                    if i == 0 { &[] } else { &["First \"one\" é", "new", "with [brackets] and {braces}"] };
                assert_eq!(read.descriptions, expected, "{def}");
                let names: &[&str] = if i == 0 { &[] } else { &["a", "b", "c", "d", "e", "f"] };
                assert_eq!(read.names, names, "{def}");
                assert!(read.hints.is_empty() && read.required.is_empty(), "{def}");
                assert_eq!(read, walked(&tool.def_json, tool.read_as), "{def}");
            }
        }
        // A server's words for the tool, at the def's top level only; values of other shapes skipped.
        let def = r#"{"name":"t","title":"Title words","annotations":{"title":"Annotated","readOnlyHint":true},"_meta":{"anthropic/searchHint":"hint words","title":"not this"},"inputSchema":{"type":"object","properties":{"title":{"type":"string","description":"a param"}}}}"#;
        for catalog in both_ways(&format!(r#"{{"servers":{{"s":[{def}]}}}}"#)) {
            let read = read_of(&catalog, catalog.tools.first().unwrap());
            assert_eq!(
                (read.descriptions.len(), read.hints),
                (1, alloc::vec!["Title words".to_string(), "Annotated".into(), "hint words".into()])
            );
        }
        // A short enum of strings is read with the descriptions; a long one, or one holding
        // another value, is not.
        let def = r#"{"name":"t","inputSchema":{"type":"object","properties":{"state":{"type":"string","enum":["open","closed"]},"n":{"enum":["a","b","c","d","e"]},"m":{"enum":["x",1]},"k":{"enum":"open"},"z":{"enum":[]}}}}"#;
        for catalog in both_ways(&format!(r#"{{"servers":{{"s":[{def}]}}}}"#)) {
            assert_eq!(read_of(&catalog, catalog.tools.first().unwrap()).descriptions, ["open", "closed"]);
        }
        let def = r#"{"name":"t","title":3,"annotations":null,"_meta":{"anthropic/searchHint":["x"]},"inputSchema":{"type":"object","properties":[{"description":"in a list"}]}}"#;
        for catalog in both_ways(&format!(r#"{{"servers":{{"s":[{def}]}}}}"#)) {
            let read = read_of(&catalog, catalog.tools.first().unwrap());
            assert_eq!(read, Read::default());
        }
    }

    /// The tools of `tests/data/catalogs/` in each format's shape (with hints on some), as one
    /// toolbox text of servers each (native only: flate2 is a native dev-dependency).
    #[cfg(not(target_arch = "wasm32"))]
    fn catalog_toolboxes() -> Vec<(String, String)> {
        use std::io::Read as _;
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/catalogs");
        let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        paths.retain(|p| p.to_string_lossy().ends_with(".json.gz") && !p.to_string_lossy().contains("queries-"));
        paths.sort();
        assert!(paths.len() >= 10, "{}: {paths:?}", dir.display());
        let mut toolboxes = Vec::new();
        for path in paths {
            let mut text = String::new();
            flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap()).read_to_string(&mut text).unwrap();
            let entries = crate::json::parse(&text).unwrap();
            let entries = entries.as_array().unwrap();
            for format in [Format::OpenAi, Format::Responses, Format::Anthropic, Format::Mcp] {
                let mut servers: Vec<(String, Value)> = Vec::new();
                for (i, entry) in entries.iter().enumerate() {
                    let server = entry.get("server").and_then(Value::as_str).unwrap_or("s").to_string();
                    let function = entry.get("tool").and_then(|t| t.get("function")).unwrap();
                    let fields = Format::OpenAi.fields(entry.get("tool").unwrap());
                    let schema = fields.schema.cloned().unwrap_or(Value::Null);
                    let mut def = format.tool(fields.name.unwrap(), fields.description.unwrap_or_default(), schema);
                    if let (Value::Object(members), 0) = (&mut def, i % 3) {
                        let title = function.get("description").cloned().unwrap_or(Value::Null);
                        members.push(("annotations".into(), Value::object([("title", title)])));
                    }
                    match servers.iter_mut().find(|(name, _)| *name == server) {
                        Some((_, Value::Array(defs))) => defs.push(def),
                        _ => servers.push((server, Value::Array(alloc::vec![def]))),
                    }
                }
                let name = format!("{} as {}", path.file_name().unwrap().to_string_lossy(), format.as_str());
                toolboxes.push((name, Value::object([("servers", Value::Object(servers))]).to_json()));
            }
        }
        toolboxes
    }

    /// Over every test catalog in each format: the places gathered as the toolbox's text is read
    /// are those a walk of each def's text finds, and the strings read there are the oracle's.
    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn gathered_places_are_those_a_walk_finds_over_every_catalog() {
        let (mut tools, mut read) = (0, 0);
        for (name, toolbox) in catalog_toolboxes() {
            let catalog = Catalog::parse_text(toolbox, &Options::default()).unwrap();
            for tool in &catalog.tools {
                let walked_places = crate::catalog::walked_places(&tool.def_json, tool.read_as);
                assert_eq!(tool.search_places(), &*walked_places, "{name}: {}", tool.name);
                let found = read_of(&catalog, tool);
                assert_eq!(found, walked(&tool.def_json, tool.read_as), "{name}: {}", tool.name);
                tools += 1;
                read += found.names.len() + found.descriptions.len() + found.hints.len() + found.required.len();
            }
        }
        assert!(tools > 50_000 && read > 200_000, "{tools} tools, {read} strings");
    }
}
