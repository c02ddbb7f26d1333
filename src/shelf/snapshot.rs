//! Snapshots (SPEC §13, §15): a prepared [`Shelf`], search index and embeddings included, as
//! bytes, and a shelf loaded from them that answers byte for byte as the shelf it was taken of.
//!
//! Layout: `[toolbox text][payload][trailer]`. The toolbox's JSON text comes first (when the
//! snapshot holds it) so that loading takes the bytes as the text with no copy (the tail cut
//! off); the trailer ([`TRAILER`] bytes: magic, version, flags, the two lengths, the checksum)
//! comes last. The payload is the options' JSON text; which toolbox the shelf is of (its text held,
//! or its fingerprint, or for a shelf that keeps no toolbox text, the text of its defs); the
//! catalog's tools as read (each def a range of that text, or a text of its own) and its lookup
//! orders (by name, by own name, each server's tools); the search index's flat arrays as they are;
//! and the deferred tools' vectors as stored (int8, a scale each). What the load makes itself is
//! not written: a server list's tool's server (the list's name), an own name that is the name, a
//! tool's place, the lowercased names; a posting's tool number takes two bytes while the tools fit
//! in 16 bits.
//!
//! The load is a copy and a check, never a rebuild (SPEC §13): the toolbox a well-formed snapshot
//! carries is trusted to be the one it claims to be (whoever can write the file can write any
//! toolbox), so no def is parsed and the held text is kept as bytes (a tool's search places,
//! `required` among them, are found in its def the first time a search match shows the tool or an
//! index is built again, and a def a request needs is read then, its UTF-8 checked: one that is
//! not UTF-8, or no object named as its tool, goes as a def of the tool's name and description,
//! [`crate::catalog::Tool::def`]). What is checked is structure, at
//! the cost of a pass over the bytes: the checksum, every count against the bytes left, every
//! string's UTF-8, every def's range the def at its tool's place in its text (a walk of the text's
//! lists that steps over each def by its stored range: only the bytes between defs are read),
//! every index within the table it indexes, every list in the order lookups rely on (the catalog's
//! orders checked in one pass where a read sorts), every float finite, names unique, every vector
//! one that quantising some vector gives. So bytes forged with a correct checksum (a checksum tells
//! corrupt bytes; it is no signature) load into a shelf that never traps, hangs or answers with a
//! name the snapshot does not hold, or are `invalid_snapshot` with a reason.

use crate::catalog::{Catalog, DefText, Origin as ToolOrigin, Outline, Server, Tool, ToolboxText, MAX_TOOLS};
use crate::error::{Error, ErrorCode};
use crate::find::search_config;
use crate::format::Format;
use crate::hash::fnv1a_words;
use crate::json::Value;
use crate::options::Options;
use crate::search::embed::Embeddings;
use crate::search::flat::{Lists, Texts};
use crate::search::{Posting, SearchIndex};
use crate::shelf::{Lazy, Origin, Shelf};
use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

/// The format version this crate writes and reads; bytes of any other are `invalid_snapshot`,
/// naming both versions.
pub const SNAPSHOT_VERSION: u32 = 7;

/// The trailer's first bytes.
const MAGIC: &[u8; 8] = b"tshelf\x00\x01";

/// The trailer's size: magic, version, flags, text length, payload length, checksum.
const TRAILER: usize = 8 + 4 + 4 + 8 + 8 + 8;

/// Flag: the snapshot holds the toolbox's text.
const HOLDS_TOOLBOX: u32 = 1;

/// Which toolbox a snapshot is of (the payload's byte after the options).
const TOOLBOX_HELD: u8 = 0;
/// Not held: its fingerprint and length follow; the load needs it given.
const TOOLBOX_FINGERPRINT: u8 = 1;
/// The shelf kept no toolbox text: the text of its defs follows.
const TOOLBOX_DEFS: u8 = 2;

/// The formats by their number in a snapshot.
const FORMATS: [Format; 5] = [Format::OpenAi, Format::Responses, Format::Anthropic, Format::Mcp, Format::Gemini];

/// A tool's flags: deferred, renamed by `qualify`, left out (a bridge name).
const DEFERRED: u8 = 1;
const RENAMED: u8 = 2;
const LEFT_OUT: u8 = 4;

/// A tool's server: none, its server list's name (the load has it), or a name of its own that
/// follows.
const NO_SERVER: u8 = 0;
const SERVER_OF_LIST: u8 = 1;
const SERVER_OWN: u8 = 2;

/// Where a tool's def is: a range of the snapshot's text, or a text of its own that follows.
const DEF_IN_TEXT: u8 = 0;
const DEF_OWN: u8 = 1;

fn invalid(reason: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidSnapshot, format!("snapshot: {}", reason.into()))
}

/// `invalid_snapshot` for bytes whose structure does not hold: `parts` say what (one message
/// builder for the many checks, each a few bytes of the `.wasm`).
fn malformed(parts: &[&str]) -> Error {
    let mut reason = String::from("malformed: ");
    parts.iter().for_each(|part| reason.push_str(part));
    invalid(reason)
}

impl Shelf {
    /// The shelf as a snapshot holding its toolbox's text, its search index built first if no
    /// search has built it yet, and its embeddings. [`Shelf::from_snapshot`] loads it.
    pub fn snapshot(&self) -> Vec<u8> {
        write_snapshot(self, true)
    }

    /// As [`Shelf::snapshot`], without the toolbox's text: [`Shelf::from_snapshot`] then needs the
    /// toolbox, and checks it against the snapshot's fingerprint. A shelf that keeps no toolbox
    /// text (prepared from a value, or updated with servers kept) holds the text of its tool defs
    /// either way.
    pub fn snapshot_without_toolbox(&self) -> Vec<u8> {
        write_snapshot(self, false)
    }

    /// The toolbox's JSON text this shelf keeps (prepared from its text, or loaded from a
    /// snapshot of one), if it keeps one.
    pub fn toolbox_text(&self) -> Option<&str> {
        self.origin.toolbox.as_deref().and_then(ToolboxText::text)
    }

    /// A shelf of `toolbox` (JSON text) prepared anew with this shelf's options as it was given
    /// them (the binding's shelves always keep their options' text) and its vectors; for a
    /// snapshot of a shelf whose update kept servers.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) fn anew(&self, toolbox: String) -> Result<Shelf, Error> {
        let mut shelf = Shelf::from_json_text(toolbox, self.origin.options.as_deref().unwrap_or("null"))?;
        shelf.embeddings = self.embeddings.as_ref().map(|e| e.rekeyed(shelf.embedding_keys()));
        Ok(shelf)
    }

    /// Loads a snapshot taken by [`Shelf::snapshot`]: a shelf whose every answer is the one the
    /// shelf it was taken of gives. `toolbox` (its JSON text) is needed when the snapshot does not
    /// hold it, and checked against it when given; `options` (JSON text), when given, must read
    /// as the snapshot's options (their warnings are this shelf's). `invalid_snapshot` with a
    /// reason for bytes truncated, corrupt, of another version or inconsistent, and for a toolbox
    /// or options that differ from the snapshot's.
    pub fn from_snapshot(bytes: Vec<u8>, toolbox: Option<String>, options: Option<&str>) -> Result<Shelf, Error> {
        let mut bytes = bytes;
        let trailer = Trailer::read(&bytes)?;
        let (text_end, payload_end) = trailer.ranges(bytes.len())?;
        let checked = bytes.get(..payload_end).unwrap_or_default();
        if fnv1a_words(checked) != trailer.checksum {
            return Err(invalid("corrupt: the checksum does not match"));
        }
        // The payload read where it is. Defs that are ranges of the snapshot's own text refer to a
        // stand-in for it until the bytes, cut to the text, are taken as it (no copy of either).
        let (mut shelf, stand_in) = {
            let own = bytes.get(..text_end).unwrap_or_default();
            let mut r = Reader::new(bytes.get(text_end..payload_end).unwrap_or_default());
            let head = Head::read(&mut r, &trailer)?;
            let (options, option_warnings, options_text) = head.options_for(options)?;
            let (text, keeps, taken) = toolbox_text(own, head.toolbox, toolbox)?;
            let text_bytes = if taken { own } else { text.as_bytes() };
            let catalog = read_catalog(&mut r, &text, text_bytes, &options)?;
            let index = read_index(&mut r, &catalog, &options)?;
            let mut shelf = Shelf::of(catalog, options, option_warnings);
            shelf.embeddings = read_embeddings(&mut r, &shelf)?;
            if r.left() > 0 {
                return Err(malformed(&["bytes after the embeddings"]));
            }
            shelf.index = Lazy::from(index);
            // A snapshot taken of a toolbox's text keeps it (a snapshot of this shelf holds it again).
            shelf.origin = Origin { options: options_text, toolbox: keeps.then(|| text.clone()) };
            (shelf, taken.then_some(text))
        };
        if let Some(stand_in) = stand_in {
            bytes.truncate(text_end);
            // The payload's room given back (a shrink in place): the text is kept as long as the shelf.
            bytes.shrink_to_fit();
            let text = Arc::new(ToolboxText::Bytes(bytes));
            let catalog = &mut shelf.catalog;
            for def in catalog.tools.iter_mut().chain(catalog.left_out.iter_mut()).map(|tool| &mut tool.def_json) {
                if Arc::ptr_eq(&def.source, &stand_in) {
                    def.source = text.clone();
                }
            }
            shelf.origin.toolbox = Some(text);
        }
        Ok(shelf)
    }
}

/// The memory a load of `bytes` takes beyond the bytes themselves, at most about: the strings and
/// arrays read from the payload (for a binding that reserves memory in one step).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn room_to_load(bytes: &[u8]) -> usize {
    Trailer::read(bytes)
        .map_or(0, |t| usize::try_from(t.payload_len).unwrap_or(usize::MAX))
        .saturating_mul(2)
        .min(bytes.len())
}

/// The text the defs are ranges of, whether it is the toolbox's (the shelf keeps it), and whether
/// it is a stand-in for the snapshot's own text `own` (taken as the text once the payload is
/// read): the snapshot's own, compared with `given` when both are there; `given`, checked against
/// the fingerprint; or the text of the defs the snapshot holds.
fn toolbox_text(own: &[u8], which: Which, given: Option<String>) -> Result<(Arc<ToolboxText>, bool, bool), Error> {
    match (which, given) {
        (Which::Held, Some(given)) => {
            if own != given.as_bytes() {
                return Err(invalid("the toolbox given differs from the one the snapshot holds"));
            }
            Ok((Arc::new(ToolboxText::Text(given)), true, false))
        }
        (Which::Held, None) => Ok((Arc::new(ToolboxText::Text(String::new())), true, true)),
        (Which::Fingerprint(fingerprint, len), Some(given)) => {
            if len != given.len() as u64 || fingerprint != fnv1a_words(given.as_bytes()) {
                return Err(invalid("the toolbox given differs from the one the snapshot was taken of (fingerprint)"));
            }
            Ok((Arc::new(ToolboxText::Text(given)), true, false))
        }
        (Which::Fingerprint(..), None) => {
            Err(invalid("the snapshot does not hold its toolbox: give the toolbox it was taken of"))
        }
        (Which::Defs(_), Some(_)) => Err(invalid(
            "the snapshot holds its tool defs and no fingerprint to check a toolbox against: load it without one",
        )),
        (Which::Defs(defs), None) => Ok((Arc::new(ToolboxText::Text(defs)), false, false)),
    }
}

// ---------------------------------------------------------------------------------------------
// Writing

fn write_snapshot(shelf: &Shelf, hold_toolbox: bool) -> Vec<u8> {
    let (index, _) = shelf.prepared_index();
    let toolbox = shelf.origin.toolbox.as_ref();
    let held = toolbox.filter(|_| hold_toolbox);
    let mut out = Writer(Vec::new());
    if let Some(text) = held {
        out.0.extend_from_slice(text.as_bytes());
    }
    let text_len = out.0.len();
    out.opt_str(shelf.origin.options.as_deref());
    let every = shelf.catalog.every_def();
    // Where each def is in the text the load reads them from (`None`: a text of its own).
    let ranges: Vec<Option<(usize, usize)>> = match (held, toolbox) {
        (Some(text), _) => {
            out.u8(TOOLBOX_HELD);
            ranges_in(&every, text)
        }
        (None, Some(text)) => {
            out.u8(TOOLBOX_FINGERPRINT);
            out.u64(fnv1a_words(text.as_bytes()));
            out.u64(text.len() as u64);
            ranges_in(&every, text)
        }
        (None, None) => {
            let (text, ranges) = defs_text(&shelf.catalog, &every);
            out.u8(TOOLBOX_DEFS);
            out.str(&text);
            ranges.into_iter().map(Some).collect()
        }
    };
    write_catalog(&mut out, &shelf.catalog, &every, &ranges);
    write_index(&mut out, index);
    write_embeddings(&mut out, shelf.embeddings.as_ref());
    let payload_len = out.0.len() - text_len;
    let checksum = fnv1a_words(&out.0);
    out.0.extend_from_slice(MAGIC);
    out.u32(SNAPSHOT_VERSION);
    out.u32(if held.is_some() { HOLDS_TOOLBOX } else { 0 });
    out.u64(text_len as u64);
    out.u64(payload_len as u64);
    out.u64(checksum);
    out.0
}

/// Where each tool of `every` (in input order) has its def in `text`, when it is a range of that
/// very text; `None` for each when they are not the text's defs in its order ([`ranges_are_defs`],
/// the load's check: a repeated key, whose list `JSON.parse` reads in the key's first place). The
/// defs are then texts of their own.
fn ranges_in(every: &[&Tool], text: &Arc<ToolboxText>) -> Vec<Option<(usize, usize)>> {
    let in_text =
        |tool: &&Tool| Arc::ptr_eq(&tool.def_json.source, text).then_some((tool.def_json.start, tool.def_json.end));
    let ranges: Vec<Option<(usize, usize)>> = every.iter().map(in_text).collect();
    // The check the load makes of them (so a loaded shelf's ranges are written as it read them).
    if ranges_are_defs(text.as_bytes(), &ranges) {
        ranges
    } else {
        alloc::vec![None; every.len()]
    }
}

/// Whether `ranges` (one per def of the text, in text order; `None` where a def is not a range of
/// it) are the text's defs, read without reading them: a walk of the text that steps over each def
/// from its stored start to its stored end (a `}`), so that only the bytes between defs are read
/// (the lists' brackets, commas and keys) and the defs that are no range of the text. A range that
/// starts anywhere but where the walk finds the next def, or ends anywhere but at a `}`, is read
/// through instead and found to differ; one that ends inside its def or past it leaves the walk
/// out of step, and it finds other defs or its brackets unbalanced.
fn ranges_are_defs(text: &[u8], ranges: &[Option<(usize, usize)>]) -> bool {
    let stored_end = |k: usize, start: usize| {
        let (from, end) = (*ranges.get(k)?)?;
        (from == start && end > start && text.get(end - 1) == Some(&b'}')).then_some(end)
    };
    let (defs, balanced) = walk_defs(text, stored_end);
    balanced
        && defs.len() == ranges.len()
        && ranges.iter().zip(&defs).all(|(range, def)| range.is_none_or(|r| r == *def))
}

/// The walk of [`ranges_are_defs`]: the defs of `text` in text order, and whether its brackets
/// closed as they opened. At each def's start (the `k`-th def, at `start`), `step_over(k, start)`
/// may say where it ends: the walk goes on from there, unread.
fn walk_defs(text: &[u8], mut step_over: impl FnMut(usize, usize) -> Option<usize>) -> (Vec<(usize, usize)>, bool) {
    let mut defs = Vec::new();
    // Bit `d`: the container open at depth `d` is an array (the top one at depth 1).
    let (mut arrays, mut depth, mut def_start, mut def_depth) = (0u32, 0usize, 0usize, 0usize);
    let mut balanced = true;
    let mut at = 0;
    while let Some(&b) = text.get(at) {
        match b {
            b'"' => {
                at = string_end(text, at + 1);
                continue;
            }
            b'{' | b'[' => {
                depth += 1;
                if depth < 32 {
                    arrays = (arrays & !(1 << depth)) | (u32::from(b == b'[') << depth);
                }
                // The places of defs: flat [{…}], {"tools": [{…}]}, {"servers": {"s": [{…}]}}.
                let place = match depth {
                    2 => arrays & 0b10 == 0b10,
                    3 => arrays & 0b110 == 0b100,
                    4 => arrays & 0b1110 == 0b1000,
                    _ => false,
                };
                if b == b'{' && def_depth == 0 && place {
                    if let Some(end) = step_over(defs.len(), at) {
                        defs.push((at, end));
                        depth -= 1;
                        at = end;
                        continue;
                    }
                    (def_start, def_depth) = (at, depth);
                }
            }
            b'}' | b']' => {
                if def_depth != 0 && depth == def_depth {
                    defs.push((def_start, at + 1));
                    def_depth = 0;
                }
                balanced &= depth > 0;
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        at += 1;
    }
    (defs, balanced && depth == 0)
}

/// The toolbox of a catalog's defs (`every`, in input order) as JSON text, and the range of each
/// def in it: each list in order (the direct tools as the list the toolbox was, or as `tools`;
/// then each server's) with every def of it, those left out (bridge names) included, as its
/// compact JSON.
fn defs_text(catalog: &Catalog, every: &[&Tool]) -> (String, Vec<(usize, usize)>) {
    let flat = every.iter().any(|t| matches!(t.origin, ToolOrigin::List(_)));
    let mut out = String::new();
    let mut ranges = Vec::with_capacity(every.len());
    let mut defs = every.iter();
    let mut list = |out: &mut String, length: usize| {
        out.push('[');
        for (i, def) in defs.by_ref().take(length).enumerate() {
            if i > 0 {
                out.push(',');
            }
            let start = out.len();
            out.push_str(&def.def_text());
            ranges.push((start, out.len()));
        }
        out.push(']');
    };
    if flat {
        list(&mut out, every.len());
        return (out, ranges);
    }
    out.push('{');
    let mut servers = false;
    for (server, length) in &catalog.lists {
        match server {
            None => out.push_str("\"tools\":"),
            Some(name) => {
                out.push_str(if servers {
                    ","
                } else if out.len() > 1 {
                    ",\"servers\":{"
                } else {
                    "\"servers\":{"
                });
                servers = true;
                crate::json::write_string(&mut out, name);
                out.push(':');
            }
        }
        list(&mut out, *length);
    }
    if servers {
        out.push('}');
    }
    out.push('}');
    (out, ranges)
}

/// The catalog: its format, warnings and lists, then every def's tool in input order (the left-out
/// ones marked), each def where `ranges` says.
#[inline(never)]
fn write_catalog(out: &mut Writer, catalog: &Catalog, every: &[&Tool], ranges: &[Option<(usize, usize)>]) {
    out.u8(format_number(catalog.format));
    out.len(catalog.warnings.len());
    catalog.warnings.iter().for_each(|w| out.str(w));
    out.len(catalog.lists.len());
    for (server, length) in &catalog.lists {
        out.opt_str(server.as_deref());
        out.len(*length);
    }
    out.len(every.len());
    let left_out = catalog.left_out.as_ptr_range();
    for (i, &tool) in every.iter().enumerate() {
        let left_out = left_out.contains(&core::ptr::from_ref(tool));
        write_tool(out, tool, ranges.get(i).copied().flatten(), left_out);
    }
    // The lookup orders, which the load checks where a read sorts.
    let (by_name, by_own_name) = catalog.orders();
    out.indexes(by_name);
    out.indexes(by_own_name);
    out.len(catalog.servers.len());
    for server in &catalog.servers {
        out.str(&server.name);
        out.indexes(&server.tools);
    }
}

#[inline(never)]
fn write_tool(out: &mut Writer, tool: &Tool, range: Option<(usize, usize)>, left_out: bool) {
    out.str(&tool.name);
    // What the load finds itself is not written: a server list's tool's server (its list's name),
    // an own name that is the name, the tool's place (the next of its list).
    match (&tool.origin, tool.server.as_deref()) {
        (ToolOrigin::Server(_), _) => out.u8(SERVER_OF_LIST),
        (_, None) => out.u8(NO_SERVER),
        (_, Some(server)) => {
            out.u8(SERVER_OWN);
            out.str(server);
        }
    }
    match tool.own_name == tool.name {
        true => out.u8(0),
        false => {
            out.u8(1);
            out.str(&tool.own_name);
        }
    }
    out.str(&tool.description);
    let def_len = match range {
        Some((start, end)) => {
            out.u8(DEF_IN_TEXT);
            out.len(start);
            out.len(end);
            end - start
        }
        None => {
            let text = tool.def_text();
            out.u8(DEF_OWN);
            out.str(&text);
            text.len()
        }
    };
    // At most the def's bytes, as the load checks (a def forged not UTF-8 is written as the def
    // that stands in for it, which may be shorter).
    out.len(tool.size.min(def_len));
    out.u8(match tool.origin {
        ToolOrigin::List(_) => 0,
        ToolOrigin::Tools(_) => 1,
        ToolOrigin::Server(_) => 2,
    });
    let flags = [(tool.deferred, DEFERRED), (tool.renamed, RENAMED), (left_out, LEFT_OUT)];
    out.u8(flags.iter().filter(|(on, _)| *on).map(|(_, bit)| bit).sum());
    out.u8(format_number(tool.read_as));
    out.u8(tool.detected.map_or(u8::MAX, format_number));
}

fn format_number(format: Format) -> u8 {
    FORMATS.iter().position(|&f| f == format).map_or(u8::MAX, |n| n as u8)
}

/// The index's flat arrays as they are.
#[inline(never)]
fn write_index(out: &mut Writer, index: &SearchIndex) {
    // The lowercased names are not written: the load makes them from the tools.
    out.texts(&index.terms);
    out.u32s(&index.postings.ends);
    write_postings(out, &index.postings.items, doc_bytes(index.lower_names.len()));
    out.texts(&index.names);
    out.u32s(&index.name_docs);
    out.u32s(&index.name_terms);
    out.u32s(&index.name_starts);
    out.u32s(&index.server_of);
    out.len(index.servers);
    out.u32s(&index.tie_rank);
    out.len(index.name_weights.len());
    for weight in &index.name_weights {
        out.u32(weight.to_bits());
    }
}

/// The occurrences of every term ([`read_postings`], after the lists' ends): the width of a tool
/// number, their count, then each a tool number of `doc_bytes` bytes and a frequency of four.
fn write_postings(out: &mut Writer, items: &[Posting], doc_bytes: usize) {
    out.u8(doc_bytes as u8);
    out.len(items.len());
    for posting in items {
        match doc_bytes {
            2 => out.0.extend_from_slice(&(posting.doc as u16).to_le_bytes()),
            _ => out.u32(posting.doc),
        }
        out.u32(posting.term_freq.to_bits());
    }
}

/// The vectors as stored: the model, the dimension, each deferred tool's row and scale.
fn write_embeddings(out: &mut Writer, embeddings: Option<&Embeddings>) {
    let Some(embeddings) = embeddings else {
        out.u8(0);
        return;
    };
    let (model, dimensions, values, scales) = embeddings.stored();
    out.u8(1);
    out.str(model);
    out.len(dimensions);
    out.len(scales.len());
    out.0.extend(values.iter().map(|&v| v as u8));
    for scale in scales {
        out.u32(scale.to_bits());
    }
}

/// Little-endian bytes.
struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, n: u8) {
        self.0.push(n);
    }

    fn u32(&mut self, n: u32) {
        self.0.extend_from_slice(&n.to_le_bytes());
    }

    fn u64(&mut self, n: u64) {
        self.0.extend_from_slice(&n.to_le_bytes());
    }

    /// A length or index, as 32 bits (`u32::MAX` for one beyond: a snapshot of more than 4 GiB
    /// cannot be loaded, and says so).
    fn len(&mut self, n: usize) {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }

    fn str(&mut self, s: &str) {
        self.len(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }

    fn opt_str(&mut self, s: Option<&str>) {
        match s {
            Some(s) => {
                self.u8(1);
                self.str(s);
            }
            None => self.u8(0),
        }
    }

    fn u32s(&mut self, items: &[u32]) {
        self.len(items.len());
        self.0.reserve(items.len() * 4);
        items.iter().for_each(|&n| self.u32(n));
    }

    fn indexes(&mut self, items: &[usize]) {
        self.len(items.len());
        items.iter().for_each(|&i| self.len(i));
    }

    fn texts(&mut self, texts: &Texts) {
        self.str(&texts.text);
        self.u32s(&texts.ends);
    }
}

// ---------------------------------------------------------------------------------------------
// Reading

/// The trailer's fields.
struct Trailer {
    flags: u32,
    text_len: u64,
    payload_len: u64,
    checksum: u64,
}

impl Trailer {
    fn read(bytes: &[u8]) -> Result<Trailer, Error> {
        let Some(at) = bytes.len().checked_sub(TRAILER) else {
            return Err(invalid(format!(
                "truncated: {} bytes, fewer than a snapshot's trailer ({TRAILER})",
                bytes.len()
            )));
        };
        let mut r = Reader::new(bytes.get(at..).unwrap_or_default());
        if r.bytes(MAGIC.len())? != MAGIC {
            return Err(invalid(
                "not a toolshelf snapshot (or truncated): its last bytes are not a snapshot's trailer",
            ));
        }
        let version = r.u32()?;
        if version != SNAPSHOT_VERSION {
            return Err(invalid(format!("format version {version}; this toolshelf reads version {SNAPSHOT_VERSION}")));
        }
        Ok(Trailer { flags: r.u32()?, text_len: r.u64()?, payload_len: r.u64()?, checksum: r.u64()? })
    }

    /// Where the toolbox's text ends and where the payload ends, for `len` bytes in all.
    fn ranges(&self, len: usize) -> Result<(usize, usize), Error> {
        if self.flags & !HOLDS_TOOLBOX != 0 {
            return Err(invalid(format!("unknown flags {:#x}", self.flags)));
        }
        let text = if self.flags & HOLDS_TOOLBOX != 0 { self.text_len } else { 0 };
        let expected = text.checked_add(self.payload_len).and_then(|n| n.checked_add(TRAILER as u64));
        if expected != Some(len as u64) {
            let expected = expected.map_or_else(|| String::from("more than 2^64"), |n| format!("{n}"));
            return Err(invalid(format!("truncated or corrupt: {len} bytes, its trailer says {expected}")));
        }
        Ok((text as usize, len - TRAILER))
    }
}

/// A cursor over the payload; every read is checked against the bytes left.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    fn left(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }

    #[inline(never)] // called from many places: one copy in the `.wasm`
    fn bytes(&mut self, n: usize) -> Result<&'a [u8], Error> {
        let end = self.at.checked_add(n).filter(|&end| end <= self.bytes.len());
        let found = end.and_then(|end| self.bytes.get(self.at..end));
        let found = found.ok_or_else(|| malformed(&["a length beyond the bytes left"]))?;
        self.at += n;
        Ok(found)
    }

    fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.bytes(1)?.first().copied().unwrap_or(0))
    }

    #[inline(never)] // called from many places: one copy in the `.wasm`
    fn u32(&mut self) -> Result<u32, Error> {
        let mut buf = [0u8; 4];
        buf.copy_from_slice(self.bytes(4)?);
        Ok(u32::from_le_bytes(buf))
    }

    #[inline(never)] // called from many places: one copy in the `.wasm`
    fn u64(&mut self) -> Result<u64, Error> {
        let mut buf = [0u8; 8];
        buf.copy_from_slice(self.bytes(8)?);
        Ok(u64::from_le_bytes(buf))
    }

    fn usize(&mut self) -> Result<usize, Error> {
        Ok(self.u32()? as usize)
    }

    /// A count of items of at least `item_bytes` bytes each: never more than the bytes left hold,
    /// so that no allocation it sizes is larger than the snapshot.
    #[inline(never)] // called from many places: one copy in the `.wasm`
    fn count(&mut self, item_bytes: usize) -> Result<usize, Error> {
        let n = self.usize()?;
        if n.saturating_mul(item_bytes.max(1)) > self.left() {
            return Err(malformed(&["a count beyond what the bytes left hold"]));
        }
        Ok(n)
    }

    #[inline(never)] // called from many places: one copy in the `.wasm`
    fn flag(&mut self) -> Result<bool, Error> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(malformed(&["a flag neither 0 nor 1"])),
        }
    }

    #[inline(never)] // called from many places: one copy in the `.wasm`
    fn string(&mut self) -> Result<String, Error> {
        let n = self.usize()?;
        let text = core::str::from_utf8(self.bytes(n)?).map_err(|_| invalid("corrupt: a string is not UTF-8"))?;
        Ok(String::from(text))
    }

    fn opt_string(&mut self) -> Result<Option<String>, Error> {
        if self.flag()? {
            self.string().map(Some)
        } else {
            Ok(None)
        }
    }

    #[inline(never)] // called from many places: one copy in the `.wasm`
    fn strings(&mut self) -> Result<Vec<String>, Error> {
        let n = self.count(4)?;
        (0..n).map(|_| self.string()).collect()
    }

    /// Indexes of 32 bits each (within what they index: checked by the caller).
    fn indexes(&mut self) -> Result<Vec<usize>, Error> {
        Ok(self.u32s()?.into_iter().map(|i| i as usize).collect())
    }

    #[inline(never)] // called from many places: one copy in the `.wasm`
    fn u32s(&mut self) -> Result<Vec<u32>, Error> {
        let n = self.count(4)?;
        self.u32s_of(n)
    }

    /// `n` numbers of 32 bits (a count checked against the bytes left).
    fn u32s_of(&mut self, n: usize) -> Result<Vec<u32>, Error> {
        let bytes = self.bytes(n.saturating_mul(4))?;
        // A plain loop: at the `.wasm`'s opt-level a closure per item is a call per item.
        let mut items = Vec::with_capacity(n);
        for c in bytes.chunks_exact(4) {
            items.push(u32::from_le_bytes(c.try_into().unwrap_or_default()));
        }
        Ok(items)
    }

    #[inline(never)] // called from many places: one copy in the `.wasm`
    fn texts(&mut self) -> Result<Texts, Error> {
        let texts = Texts { text: self.string()?, ends: self.u32s()? };
        if !texts.is_valid() {
            return Err(malformed(&["a string table's ends are out of order or within a character"]));
        }
        Ok(texts)
    }

    #[inline(never)] // called from many places: one copy in the `.wasm`
    fn format(&mut self) -> Result<Format, Error> {
        let n = self.u8()?;
        FORMATS.get(n as usize).copied().ok_or_else(|| malformed(&["an unknown format"]))
    }
}

/// Which toolbox the snapshot is of.
enum Which {
    /// Its text is held, before the payload.
    Held,
    /// Its text's fingerprint and length: the load needs it given.
    Fingerprint(u64, u64),
    /// The shelf kept no toolbox text: the text of its defs.
    Defs(String),
}

/// The payload's first part, read before the toolbox's text is at hand: the options, and which
/// toolbox the shelf is of.
struct Head {
    options: Option<String>,
    toolbox: Which,
}

impl Head {
    fn read(r: &mut Reader<'_>, trailer: &Trailer) -> Result<Head, Error> {
        let options = r.opt_string()?;
        let toolbox = match r.u8()? {
            TOOLBOX_HELD => Which::Held,
            TOOLBOX_FINGERPRINT => Which::Fingerprint(r.u64()?, r.u64()?),
            TOOLBOX_DEFS => Which::Defs(r.string()?),
            _ => return Err(malformed(&["which toolbox it is of"])),
        };
        if matches!(toolbox, Which::Held) != (trailer.flags & HOLDS_TOOLBOX != 0) {
            return Err(malformed(&["its trailer and payload disagree on holding the toolbox"]));
        }
        Ok(Head { options, toolbox })
    }

    /// The options in force: the snapshot's, or `given` when it reads as the same options (with
    /// its own warnings); and the options' text the shelf keeps.
    fn options_for(&self, given: Option<&str>) -> Result<(Options, Vec<String>, Option<String>), Error> {
        let read =
            |text: &str| if text.trim().is_empty() { Options::parse(&Value::Null) } else { Options::parse_json(text) };
        let own = self.options.as_deref().map(read);
        match (own, given) {
            (Some(own), Some(given)) => {
                let parsed = read(given);
                if parsed.options != own.options {
                    return Err(invalid("the options given differ from those the snapshot was taken with"));
                }
                Ok((parsed.options, parsed.warnings, Some(String::from(given))))
            }
            (Some(own), None) => Ok((own.options, own.warnings, self.options.clone())),
            (None, Some(given)) => {
                let parsed = read(given);
                Ok((parsed.options, parsed.warnings, Some(String::from(given))))
            }
            (None, None) => {
                Err(invalid("the snapshot holds no options (its shelf had options built in Rust): give them"))
            }
        }
    }
}

/// The catalog as stored, each def a range of `text` or a text of its own: checked for what the
/// rest of the crate relies on (places in input order, a server for every deferred tool, every def
/// within its text, names unique, none a bridge tool's under `options`), its lookup orders read
/// and checked to be those a read sorts. Its defs are not parsed.
#[inline(never)]
fn read_catalog(
    r: &mut Reader<'_>,
    text: &Arc<ToolboxText>,
    text_bytes: &[u8],
    options: &Options,
) -> Result<Catalog, Error> {
    let format = r.format()?;
    let warnings = r.strings()?;
    let count = r.count(5)?;
    let lists = (0..count).map(|_| Ok((r.opt_string()?, r.usize()?))).collect::<Result<Vec<_>, Error>>()?;
    let count = r.count(40)?;
    if count > MAX_TOOLS || lists.iter().try_fold(0usize, |sum, (_, n)| sum.checked_add(*n)) != Some(count) {
        return Err(malformed(&["its tool count is not its lists' lengths"]));
    }
    let (mut tools, mut left_out): (Vec<Tool>, Vec<Tool>) = (Vec::with_capacity(count), Vec::new());
    // Places in input order, each the next of its list, as a read gives them (a binding finds the
    // caller's def by the place): the lists walked once beside the tools.
    let mut places = lists.iter().flat_map(|(server, length)| (0..*length).map(move |i| (server.as_deref(), i)));
    // Each def that is a range of the text (`None`: a text of its own), checked below to be the
    // def at its tool's place.
    let mut ranges = Vec::with_capacity(count);
    for at in 0..count {
        let place = places.next().ok_or_else(|| malformed(&["a tool's place is not the next in its list"]))?;
        let (tool, is_left_out) = read_tool(r, text, text_bytes, at, place)?;
        let def = &tool.def_json;
        ranges.push(Arc::ptr_eq(&def.source, text).then_some((def.start, def.end)));
        if is_left_out { &mut left_out } else { &mut tools }.push(tool);
    }
    if ranges.iter().any(Option::is_some) && !ranges_are_defs(text_bytes, &ranges) {
        return Err(malformed(&["a tool's def is not the def at its place in its text"]));
    }
    let (by_name, by_own_name) = (r.indexes()?, r.indexes()?);
    let count = r.count(9)?;
    let servers =
        (0..count).map(|_| Ok(Server { name: r.string()?, tools: r.indexes()? })).collect::<Result<_, Error>>()?;
    let orders = (by_name, by_own_name, servers);
    let catalog = Catalog::of_orders(format, (tools, left_out), warnings, lists, orders)
        .map_err(|what| malformed(&["its tools: ", what]))?;
    let names = &options.bridge_names;
    if [&names.search, &names.describe, &names.call].iter().any(|name| catalog.get(name).is_some()) {
        return Err(malformed(&["its tools: a bridge tool's name"]));
    }
    Ok(catalog)
}

/// The offset just past the string whose contents start at `at` (or the end of `text`), the
/// string trusted to be JSON: eight bytes at a time while none is `"` or `\\`.
fn string_end(text: &[u8], mut at: usize) -> usize {
    use crate::swar::equal;
    loop {
        while let Some(word) = text.get(at..at + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()).map(u64::from_le_bytes) {
            let stops = equal(word, b'"') | equal(word, b'\\');
            if stops != 0 {
                at += (stops.trailing_zeros() / 8) as usize;
                break;
            }
            at += 8;
        }
        match text.get(at) {
            Some(b'\\') => at += 2,
            Some(b'"') => return at + 1,
            Some(_) => at += 1,
            None => return text.len(),
        }
    }
}

/// Whether `at` is within `text` (UTF-8, checked whole when it is taken as the text) and at a
/// character's first byte or its end, as `str::get` requires of a range's ends.
fn at_char(text: &[u8], at: usize) -> bool {
    at == text.len() || text.get(at).is_some_and(|&b| (b as i8) >= -0x40)
}

/// One tool of the catalog, read at `position` and its `place` (its list, `None` for the direct
/// list, flat or `tools`, and its index there), and whether it is one left out. A server list's
/// tool is that server's: its server is the list's name.
#[inline(never)]
fn read_tool(
    r: &mut Reader<'_>,
    text: &Arc<ToolboxText>,
    text_bytes: &[u8],
    position: usize,
    (list, index): (Option<&str>, usize),
) -> Result<(Tool, bool), Error> {
    let name = r.string()?;
    let server_code = r.u8()?;
    let server = match (server_code, list) {
        (NO_SERVER, _) => None,
        (SERVER_OF_LIST, Some(list)) => Some(String::from(list)),
        (SERVER_OWN, _) => Some(r.string()?),
        _ => return Err(malformed(&["a tool's server"])),
    };
    let own_name = match r.flag()? {
        false => name.clone(),
        true => r.string()?,
    };
    let description = r.string()?;
    let def_json = match r.u8()? {
        DEF_IN_TEXT => {
            let (start, end) = (r.usize()?, r.usize()?);
            if start > end || !at_char(text_bytes, start) || !at_char(text_bytes, end) {
                return Err(malformed(&["a tool's def beyond its text"]));
            }
            DefText { source: text.clone(), start, end }
        }
        DEF_OWN => DefText::own(r.string()?),
        _ => return Err(malformed(&["where a tool's def is"])),
    };
    let size = r.usize()?;
    let origin = match (r.u8()?, list) {
        (0, None) => ToolOrigin::List(index),
        (1, None) => ToolOrigin::Tools(index),
        (2, Some(_)) if server_code == SERVER_OF_LIST => ToolOrigin::Server(index),
        (0..=2, _) => return Err(malformed(&["a tool's place is not the next in its list"])),
        _ => return Err(malformed(&["a tool's origin"])),
    };
    let flags = r.u8()?;
    let read_as = r.format()?;
    let detected = match r.u8()? {
        u8::MAX => None,
        n => Some(*FORMATS.get(n as usize).ok_or_else(|| malformed(&["an unknown format"]))?),
    };
    // What the rest of the crate holds of every tool: a size (code points) no larger than its
    // def's bytes, a server for a deferred one, known flags.
    if size > def_json.end - def_json.start
        || flags > DEFERRED | RENAMED | LEFT_OUT
        || (flags & DEFERRED != 0 && server.is_none())
    {
        return Err(malformed(&["a tool's size, flags or server"]));
    }
    let tool = Tool {
        name,
        server,
        own_name,
        description,
        def_json,
        outline: Outline::loaded(),
        size,
        position,
        origin,
        deferred: flags & DEFERRED != 0,
        renamed: flags & RENAMED != 0,
        read_as,
        detected,
        always_load: None,
    };
    Ok((tool, flags & LEFT_OUT != 0))
}

/// The index of `catalog`'s deferred tools: its flat arrays, each checked against the others and
/// the catalog (every number that indexes another array within it, the string tables sorted where
/// lookups bisect them, every occurrence list sorted by tool with finite, non-negative
/// frequencies, every weight finite).
#[inline(never)]
fn read_index(r: &mut Reader<'_>, catalog: &Catalog, options: &Options) -> Result<(SearchIndex, Vec<usize>), Error> {
    let documents: Vec<usize> = catalog.tools.iter().enumerate().filter(|(_, t)| t.deferred).map(|(i, _)| i).collect();
    let docs = documents.len();
    let lower_names =
        crate::search::lower_names(documents.iter().filter_map(|&i| catalog.tools.get(i)).map(|t| t.name.as_str()));
    let terms = r.texts()?;
    let ends = r.u32s()?;
    let postings = Lists { items: read_postings(r, &ends, docs)?, ends };
    let names = r.texts()?;
    let name_docs = r.u32s()?;
    let name_terms = r.u32s()?;
    let name_starts = r.u32s()?;
    let server_of = r.u32s()?;
    let servers = r.usize()?;
    let tie_rank = r.u32s()?;
    let name_weights: Vec<f32> = r.u32s()?.into_iter().map(f32::from_bits).collect();
    let within = |list: &[u32], bound: usize| list.iter().all(|&n| (n as usize) < bound);
    let checks = [
        (terms.is_sorted(), "its terms' order"),
        (postings.len() == terms.len(), "its occurrence lists' bounds"),
        (names.is_sorted() && name_docs.len() == names.len() && within(&name_docs, docs), "its name table"),
        (within(&name_terms, terms.len()) && name_weights.len() == name_terms.len(), "its name terms"),
        (name_weights.iter().all(|w| w.is_finite()), "its name weights"),
        (starts_valid(&name_starts, docs, name_terms.len()), "its name terms' bounds"),
        (server_of.len() == docs && within(&server_of, servers) && servers <= docs, "its servers"),
        (tie_rank.len() == docs && within(&tie_rank, docs), "its tie ranks"),
    ];
    if let Some((_, what)) = checks.iter().find(|(ok, _)| !ok) {
        return Err(malformed(&["the index: ", what]));
    }
    let config = search_config(options);
    let (analyzer, variants) = crate::search::configured(&config);
    let index = SearchIndex {
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
    };
    Ok((index, documents))
}

/// The bytes of a posting's tool number in an index of `docs` tools: two while every number fits
/// in 16 bits, else four (the snapshot says which: a load reads either).
fn doc_bytes(docs: usize) -> usize {
    if docs <= 1 << 16 {
        2
    } else {
        4
    }
}

/// The occurrences of every term as [`write_postings`] writes them, each list checked as it is
/// read: `ends` (read before them) within them and in order, and every list (the items past the
/// last end one more) of tools in increasing order below `docs`, each frequency finite and not
/// negative. One pass: the check is the read's.
fn read_postings(r: &mut Reader<'_>, ends: &[u32], docs: usize) -> Result<Vec<Posting>, Error> {
    let doc_bytes = match r.u8()? {
        2 => 2,
        4 => 4,
        _ => return Err(malformed(&["the index: the width of its tool numbers"])),
    };
    let size = doc_bytes + 4;
    let count = r.count(size)?;
    let bytes = r.bytes(count * size)?;
    if !ends_within(ends, count) {
        return Err(malformed(&["the index: its occurrence lists' bounds"]));
    }
    let mut items = Vec::with_capacity(count);
    let sorted = match doc_bytes {
        2 => read_lists::<6>(bytes, ends, docs, &mut items),
        _ => read_lists::<8>(bytes, ends, docs, &mut items),
    };
    if !sorted {
        return Err(malformed(&["the index: an occurrence list's tools"]));
    }
    Ok(items)
}

/// Whether `ends` never decrease and none is past `count`.
fn ends_within(ends: &[u32], count: usize) -> bool {
    let mut last = 0;
    ends.iter().all(|&end| {
        let ok = end >= last && end as usize <= count;
        last = end;
        ok
    })
}

/// Reads the postings of `SIZE` bytes each (a tool number in the first `SIZE - 4`, little-endian,
/// then the frequency's bits) into `items`, list by list as `ends` (checked within) cut them, and
/// whether every list is sorted as [`read_postings`] says. No branch per item: a list whose tools
/// increase names tools below `docs` when its last does.
fn read_lists<const SIZE: usize>(bytes: &[u8], ends: &[u32], docs: usize, items: &mut Vec<Posting>) -> bool {
    let records = bytes.len() / SIZE;
    let mut start = 0;
    for end in ends.iter().map(|&e| e as usize).chain([records]) {
        let mut ok = true;
        // The least tool number the next item may have.
        let mut least = 0u64;
        for record in bytes.get(start * SIZE..end * SIZE).unwrap_or_default().chunks_exact(SIZE) {
            let mut word = [0u8; 8];
            word.iter_mut().zip(record).for_each(|(to, &from)| *to = from);
            let word = u64::from_le_bytes(word);
            let doc_bits = 8 * (SIZE as u32 - 4);
            let doc = word & ((1 << doc_bits) - 1);
            let term_freq = f32::from_bits((word >> doc_bits) as u32);
            ok &= doc >= least && finite_and_not_negative(term_freq);
            least = doc + 1;
            items.push(Posting { doc: doc as u32, term_freq });
        }
        if !ok || least > docs as u64 {
            return false;
        }
        start = end;
    }
    true
}

/// The vectors, if the snapshot holds some: one per deferred tool of `shelf`, as quantising some
/// vector stores it, keyed by the shelf's tools.
fn read_embeddings(r: &mut Reader<'_>, shelf: &Shelf) -> Result<Option<Embeddings>, Error> {
    if !r.flag()? {
        return Ok(None);
    }
    let model = r.string()?;
    let dimensions = r.usize()?;
    let count = r.usize()?;
    let keys = shelf.embedding_keys();
    if count != keys.len() {
        return Err(malformed(&["the embeddings: not a vector for each deferred tool"]));
    }
    let values = r.bytes(count.saturating_mul(dimensions))?.iter().map(|&b| b as i8).collect();
    let scales = r.u32s_of(count)?.into_iter().map(f32::from_bits).collect();
    let embeddings = Embeddings::of_stored(model, dimensions, keys, values, scales);
    embeddings.map(Some).map_err(|what| malformed(&["the embeddings: ", what]))
}

/// `x.is_finite() && x >= 0.0`, from its bits (`-0.0` included).
fn finite_and_not_negative(x: f32) -> bool {
    let bits = x.to_bits();
    bits < 0x7f80_0000 || bits == 0x8000_0000
}

/// Whether `starts` is `docs + 1` non-decreasing bounds from 0 to `len`.
fn starts_valid(starts: &[u32], docs: usize, len: usize) -> bool {
    starts.len() == docs + 1
        && starts.first() == Some(&0)
        && starts.last().map(|&n| n as usize) == Some(len)
        && starts.windows(2).all(|w| w.first() <= w.get(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// Postings written by [`write_postings`] and read back by [`read_postings`] (the lists'
    /// ends given), as `Err` when the read refuses them.
    fn round_trip(items: &[Posting], ends: &[u32], docs: usize, width: usize) -> Result<Vec<Posting>, Error> {
        let mut out = Writer(Vec::new());
        write_postings(&mut out, items, width);
        assert_eq!(out.0.len(), 1 + 4 + items.len() * (width + 4));
        let mut r = Reader::new(&out.0);
        let read = read_postings(&mut r, ends, docs);
        assert!(read.is_err() || r.left() == 0);
        read
    }

    #[test]
    fn postings_read_as_written_in_either_width() {
        assert_eq!((doc_bytes(1 << 16), doc_bytes((1 << 16) + 1)), (2, 4));
        let frequencies = [0.0f32, 1.0, 1.968_807_6, f32::MAX, 0.156_069_43];
        for (width, top) in [(2, 0xffff_u32), (4, 0x0001_86a0)] {
            // One list per item, so that the tools may fall.
            let items: Vec<Posting> =
                (0..5u32).map(|i| Posting { doc: top - i * 7, term_freq: frequencies[i as usize] }).collect();
            let ends: Vec<u32> = (1..=5).collect();
            let read = round_trip(&items, &ends, top as usize + 1, width).unwrap();
            let pairs = |ps: &[Posting]| ps.iter().map(|p| (p.doc, p.term_freq.to_bits())).collect::<Vec<_>>();
            assert_eq!(pairs(&read), pairs(&items), "width {width}");
            assert!(round_trip(&items, &ends, top as usize, width).is_err(), "a tool past the last, width {width}");
        }
        for width in [0u8, 3, 8] {
            let mut bytes = vec![width];
            bytes.extend(0u32.to_le_bytes());
            assert!(read_postings(&mut Reader::new(&bytes), &[], 0).is_err(), "width {width}");
        }
    }

    /// What [`read_postings`] accepts, as the rule reads list by list: ends in order within the
    /// items, and every list (the items past the last end one more) of tools below `docs`, each
    /// after the one before it, each frequency finite and not negative.
    fn sorted_by_lists(items: &[Posting], ends: &[u32], docs: usize) -> bool {
        let mut cuts: Vec<usize> = ends.iter().map(|&e| e as usize).collect();
        if cuts.windows(2).any(|w| w[0] > w[1]) || cuts.iter().any(|&e| e > items.len()) {
            return false;
        }
        cuts.insert(0, 0);
        cuts.push(items.len());
        cuts.windows(2).all(|w| {
            let list = &items[w[0]..w[1]];
            list.iter().all(|p| (p.doc as usize) < docs && p.term_freq.is_finite() && p.term_freq >= 0.0)
                && list.windows(2).all(|w| w.first().map(|p| p.doc) < w.get(1).map(|p| p.doc))
        })
    }

    /// The check read with the postings (no branch per item) answers as the rule read list by
    /// list, in both widths, on every list shape of a few tools (empty lists among them, items
    /// past the last end, ends out of order or past the items) and odd frequencies.
    #[test]
    fn the_check_read_with_the_postings_is_the_rule() {
        let freqs = [1.0, 0.0, -0.0, -1.0, f32::NAN, f32::INFINITY];
        let mut checked = (0, 0);
        for shape in 0..4u32.pow(6) {
            // Six items, each a tool of 0..3 (3 is out of bounds), cut into lists at chosen places.
            let docs: Vec<u32> = (0..6).map(|i| (shape / 4u32.pow(i)) % 4).collect();
            for cuts in 0..20u32 {
                let mut ends: Vec<u32> = (0..4).filter(|b| cuts & (1 << b) != 0).map(|b| b + 1).collect();
                match cuts {
                    5 => ends = vec![0, 1, 3, 6], // an empty first list
                    16 => ends = vec![3, 2],      // out of order
                    17 => ends = vec![2, 7],      // past the items
                    18 => ends = vec![],          // the items past the last end, one list
                    _ => ends.push(6),
                }
                let freq = freqs[(shape as usize + cuts as usize) % freqs.len()];
                let items: Vec<Posting> = docs
                    .iter()
                    .enumerate()
                    .map(|(i, &doc)| Posting { doc, term_freq: if i == 3 { freq } else { 1.0 } })
                    .collect();
                let expected = sorted_by_lists(&items, &ends, 3);
                for width in [2, 4] {
                    let read = round_trip(&items, &ends, 3, width);
                    assert_eq!(read.is_ok(), expected, "{docs:?} {ends:?} {freq} width {width}");
                }
                if expected {
                    checked.0 += 1
                } else {
                    checked.1 += 1
                }
            }
        }
        assert!(checked.0 > 100 && checked.1 > 100, "{checked:?}");
        assert!(round_trip(&[], &[0, 0], 0, 2).is_ok());
    }
}
