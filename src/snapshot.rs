//! Snapshots (SPEC §13): a prepared [`Shelf`], search index included, as bytes, and a shelf
//! loaded from them that answers byte for byte as the shelf it was taken of.
//!
//! Layout: `[toolbox text][payload][trailer]`. The toolbox's JSON text comes first (when the
//! snapshot holds it) so that loading takes the bytes as the text with no copy (the tail cut
//! off); the trailer ([`TRAILER`] bytes: magic, version, flags, the two lengths, the checksum)
//! comes last. The payload is the options' JSON text, the toolbox's fingerprint, the catalog's
//! tools as read (each def a range of the toolbox's text or of a text stored in the payload) and
//! the search index's flat arrays as they are. Loading checks the checksum over everything before
//! the trailer, then every length, index and range it reads (a count is never believed beyond the
//! bytes left), and builds nothing that a check has not passed: the cost is the copying of the
//! strings, the check, and the sort of the names' lookup tables, n·log n at worst.
//!
//! The checksum tells corrupt bytes; it is no signature: bytes written to deceive with a correct
//! checksum are still read without a panic, a hang or an allocation beyond their size, and each
//! structure's consistency is checked, but what they rank is what they say.

use crate::catalog::{Catalog, DefText, LoadedOutline, Origin as ToolOrigin, Outline, Tool, MAX_TOOLS};
use crate::error::{Error, ErrorCode};
use crate::find::search_config;
use crate::format::Format;
use crate::hash::fnv1a_words;
use crate::json::Value;
use crate::options::Options;
use crate::search::flat::{Lists, Texts};
use crate::search::tokenize::Analyzer;
use crate::search::{analysed_variants, Posting, SearchIndex};
use crate::shelf::{Lazy, Origin, Shelf};
use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

/// The format version this crate writes and reads.
/// Version 2: each deferred tool's `required` names (a search match's) after its flags.
pub const SNAPSHOT_VERSION: u32 = 2;

/// The trailer's first bytes.
const MAGIC: &[u8; 8] = b"tshelf\x00\x01";

/// The trailer's size: magic, version, flags, text length, payload length, checksum.
const TRAILER: usize = 8 + 4 + 4 + 8 + 8 + 8;

/// Flag: the snapshot holds the toolbox's text.
const HOLDS_TOOLBOX: u32 = 1;

/// The formats by their number in a snapshot.
const FORMATS: [Format; 5] = [Format::OpenAi, Format::Responses, Format::Anthropic, Format::Mcp, Format::Gemini];

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
    /// search has built it yet. [`Shelf::from_snapshot`] loads it.
    pub fn snapshot(&self) -> Vec<u8> {
        write_snapshot(self, true)
    }

    /// As [`Shelf::snapshot`], without the toolbox's text: [`Shelf::from_snapshot`] then needs the
    /// toolbox, and checks it against the snapshot's fingerprint. A shelf that keeps no toolbox
    /// text (prepared from a value, or updated with servers kept) holds its tool defs either way.
    pub fn snapshot_without_toolbox(&self) -> Vec<u8> {
        write_snapshot(self, false)
    }

    /// The toolbox's JSON text this shelf keeps (prepared from its text, or loaded from a
    /// snapshot of one), if it keeps one.
    pub fn toolbox_text(&self) -> Option<&str> {
        self.origin.toolbox.as_deref().map(String::as_str)
    }

    /// A shelf of `toolbox` (JSON text) prepared anew with this shelf's options as it was given
    /// them (the binding's shelves always keep their options' text); for a snapshot of a shelf
    /// whose update kept servers.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) fn anew(&self, toolbox: String) -> Result<Shelf, Error> {
        Shelf::from_json_text(toolbox, self.origin.options.as_deref().unwrap_or("null"))
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
        // The payload and trailer apart (a copy of the smaller part), so that the bytes left are
        // the toolbox's text, taken as they are.
        let tail = bytes.split_off(text_end.min(bytes.len()));
        let mut r = Reader::new(tail.get(..payload_end - text_end).unwrap_or_default());
        let head = Head::read(&mut r)?;
        let (options, option_warnings, options_text) = head.options_for(options)?;
        let text = toolbox_text(bytes, &trailer, &head, toolbox)?;
        let payload = Payload::read(&mut r, &text)?;
        payload.into_shelf(head, text, options, option_warnings, options_text)
    }
}

/// The memory a load of `bytes` takes beyond the bytes themselves, about: the payload copied apart
/// and the strings read from it (for a binding that reserves memory in one step).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn room_to_load(bytes: &[u8]) -> usize {
    Trailer::read(bytes)
        .map_or(0, |t| usize::try_from(t.payload_len).unwrap_or(usize::MAX))
        .saturating_mul(2)
        .min(bytes.len())
}

/// The toolbox's text the defs are ranges of: the snapshot's own (the bytes cut to it, no copy),
/// compared with `given` when both are there; or `given`, checked against the fingerprint.
fn toolbox_text(
    mut bytes: Vec<u8>,
    trailer: &Trailer,
    payload: &Head,
    given: Option<String>,
) -> Result<Arc<String>, Error> {
    let held = trailer.flags & HOLDS_TOOLBOX != 0;
    match (held, given) {
        (true, Some(given)) => {
            let own = bytes.get(..trailer.text_len as usize).unwrap_or_default();
            if own != given.as_bytes() {
                return Err(invalid("the toolbox given differs from the one the snapshot holds"));
            }
            Ok(Arc::new(given))
        }
        (true, None) => {
            bytes.truncate(trailer.text_len as usize);
            // The payload's room given back (a shrink in place): the text is kept as long as the shelf.
            bytes.shrink_to_fit();
            let text = String::from_utf8(bytes).map_err(|_| invalid("corrupt: the toolbox's text is not UTF-8"))?;
            Ok(Arc::new(text))
        }
        (false, Some(given)) => match payload.fingerprint {
            Some((fingerprint, len)) if len == given.len() as u64 && fingerprint == fnv1a_words(given.as_bytes()) => {
                Ok(Arc::new(given))
            }
            Some(_) => Err(invalid("the toolbox given differs from the one the snapshot was taken of (fingerprint)")),
            None => Err(invalid(
                "the snapshot holds its tool defs and no fingerprint to check a toolbox against: load it without one",
            )),
        },
        (false, None) if payload.fingerprint.is_some() => {
            Err(invalid("the snapshot does not hold its toolbox: give the toolbox it was taken of"))
        }
        (false, None) => Ok(Arc::new(String::new())),
    }
}

// ---------------------------------------------------------------------------------------------
// Writing

fn write_snapshot(shelf: &Shelf, hold_toolbox: bool) -> Vec<u8> {
    let (index, documents) = shelf.prepared_index();
    let toolbox = shelf.origin.toolbox.as_ref();
    let held = toolbox.filter(|_| hold_toolbox);
    let mut out = Writer(Vec::new());
    if let Some(text) = held {
        out.0.extend_from_slice(text.as_bytes());
    }
    let text_len = out.0.len();
    write_payload(&mut out, shelf, index, documents.len());
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

fn write_payload(out: &mut Writer, shelf: &Shelf, index: &SearchIndex, documents: usize) {
    out.opt_str(shelf.origin.options.as_deref());
    match &shelf.origin.toolbox {
        Some(text) => {
            out.u8(1);
            out.u64(fnv1a_words(text.as_bytes()));
            out.u64(text.len() as u64);
        }
        None => out.u8(0),
    }
    write_catalog(out, &shelf.catalog, shelf.origin.toolbox.as_ref());
    out.u32(documents as u32);
    write_index(out, index);
}

#[inline(never)]
fn write_catalog(out: &mut Writer, catalog: &Catalog, toolbox: Option<&Arc<String>>) {
    out.u8(format_number(catalog.format));
    out.strs(catalog.warnings.iter().map(String::as_str), catalog.warnings.len());
    out.len(catalog.lists.len());
    for (server, length) in &catalog.lists {
        out.opt_str(server.as_deref());
        out.len(*length);
    }
    // The texts the defs are ranges of, besides the toolbox's (source 0): each once, in order of
    // first use.
    let mut sources: BTreeMap<usize, u32> = BTreeMap::new();
    let mut texts: Vec<&str> = Vec::new();
    let mut def_sources = Vec::with_capacity(catalog.tools.len());
    for tool in &catalog.tools {
        let source = &tool.def_json.source;
        let number = if toolbox.is_some_and(|t| Arc::ptr_eq(t, source)) {
            0
        } else {
            *sources.entry(Arc::as_ptr(source) as usize).or_insert_with(|| {
                texts.push(source.as_str());
                texts.len() as u32
            })
        };
        def_sources.push(number);
    }
    out.strs(texts.iter().copied(), texts.len());
    // No schema outline: the index holds what it gave, and a loaded tool reads its own from its
    // def's text when an update first asks for it. A deferred tool's `required` names are stored:
    // a search match shows them.
    out.len(catalog.tools.len());
    for (tool, source) in catalog.tools.iter().zip(def_sources) {
        let required = if tool.deferred { catalog.required_names(tool) } else { Vec::new() };
        write_tool(out, tool, source, &required);
    }
}

#[inline(never)]
fn write_tool(out: &mut Writer, tool: &Tool, source: u32, required: &[String]) {
    out.str(&tool.name);
    out.opt_str(tool.server.as_deref());
    out.str(&tool.own_name);
    out.str(&tool.description);
    out.u32(source);
    out.len(tool.def_json.start);
    out.len(tool.def_json.end);
    out.len(tool.size);
    out.len(tool.position);
    let (kind, at) = match tool.origin {
        ToolOrigin::List(i) => (0, i),
        ToolOrigin::Tools(i) => (1, i),
        ToolOrigin::Server(i) => (2, i),
    };
    out.u8(kind);
    out.len(at);
    out.u8(u8::from(tool.deferred) | (u8::from(tool.renamed) << 1));
    out.u8(format_number(tool.read_as));
    out.u8(tool.detected.map_or(u8::MAX, format_number));
    out.strs(required.iter().map(String::as_str), required.len());
}

#[inline(never)]
fn write_index(out: &mut Writer, index: &SearchIndex) {
    out.texts(&index.lower_names);
    out.texts(&index.terms);
    out.len(index.postings.items.len());
    for posting in &index.postings.items {
        out.u32(posting.doc);
        out.u32(posting.term_freq.to_bits());
    }
    out.u32s(&index.postings.ends);
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

fn format_number(format: Format) -> u8 {
    FORMATS.iter().position(|&f| f == format).map_or(u8::MAX, |n| n as u8)
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

    fn strs<'a>(&mut self, items: impl Iterator<Item = &'a str>, count: usize) {
        self.len(count);
        items.for_each(|s| self.str(s));
    }

    fn u32s(&mut self, items: &[u32]) {
        self.len(items.len());
        self.0.reserve(items.len() * 4);
        items.iter().for_each(|&n| self.u32(n));
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
    fn str(&mut self) -> Result<&'a str, Error> {
        let n = self.usize()?;
        core::str::from_utf8(self.bytes(n)?).map_err(|_| invalid("corrupt: a string is not UTF-8"))
    }

    #[inline(never)] // called from many places: one copy in the `.wasm`
    fn string(&mut self) -> Result<String, Error> {
        self.str().map(String::from)
    }

    #[inline(never)] // called from many places: one copy in the `.wasm`
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

    #[inline(never)] // called from many places: one copy in the `.wasm`
    fn u32s(&mut self) -> Result<Vec<u32>, Error> {
        let n = self.count(4)?;
        let bytes = self.bytes(n * 4)?;
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
            return Err(invalid("malformed: a string table's ends are out of order or within a character"));
        }
        Ok(texts)
    }

    #[inline(never)] // called from many places: one copy in the `.wasm`
    fn format(&mut self) -> Result<Format, Error> {
        let n = self.u8()?;
        FORMATS.get(n as usize).copied().ok_or_else(|| malformed(&["an unknown format"]))
    }
}

/// The payload's first part, read before the toolbox's text is at hand: what tells which text
/// it is, and the options.
struct Head {
    options: Option<String>,
    /// The toolbox text's fingerprint and length, when the snapshot was taken of one.
    fingerprint: Option<(u64, u64)>,
}

/// The rest of the payload, read and checked: the catalog's parts and the index.
struct Payload {
    format: Format,
    warnings: Vec<String>,
    lists: Vec<(Option<String>, usize)>,
    tools: Vec<Tool>,
    documents: usize,
    index: SearchIndex,
}

impl Head {
    fn read(r: &mut Reader<'_>) -> Result<Head, Error> {
        let options = r.opt_string()?;
        let fingerprint = if r.flag()? { Some((r.u64()?, r.u64()?)) } else { None };
        Ok(Head { options, fingerprint })
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

impl Payload {
    /// The rest of the payload, each tool's def a range of `toolbox` (text 0) or of a text the
    /// payload holds.
    fn read(r: &mut Reader<'_>, toolbox: &Arc<String>) -> Result<Payload, Error> {
        let format = r.format()?;
        let warnings = r.strings()?;
        let count = r.count(5)?;
        let lists = (0..count).map(|_| Ok((r.opt_string()?, r.usize()?))).collect::<Result<_, Error>>()?;
        let mut sources = alloc::vec![toolbox.clone()];
        sources.extend(r.strings()?.into_iter().map(Arc::new));
        let count = r.count(44)?;
        if count > MAX_TOOLS {
            return Err(malformed(&["more tools than a toolbox may hold"]));
        }
        let mut tools: Vec<Tool> = Vec::with_capacity(count);
        for _ in 0..count {
            let tool = read_tool(r, &sources)?;
            // Places in input order, as the rest of the crate holds them.
            if tools.last().is_some_and(|last| last.position >= tool.position) {
                return Err(malformed(&[&tool.name, "'s place is not after the tool before it"]));
            }
            tools.push(tool);
        }
        let documents = r.usize()?;
        let index = read_index(r, documents)?;
        if r.left() > 0 {
            return Err(malformed(&["bytes after the index"]));
        }
        Ok(Payload { format, warnings, lists, tools, documents, index })
    }

    fn into_shelf(
        self,
        head: Head,
        toolbox: Arc<String>,
        options: Options,
        option_warnings: Vec<String>,
        options_text: Option<String>,
    ) -> Result<Shelf, Error> {
        let catalog = Catalog::of_tools(self.format, self.tools, self.warnings, self.lists)
            .map_err(|e| malformed(&[&e.message]))?;
        let documents: Vec<usize> =
            catalog.tools.iter().enumerate().filter(|(_, t)| t.deferred).map(|(i, _)| i).collect();
        if documents.len() != self.documents || self.index.lower_names.len() != self.documents {
            return Err(invalid("malformed: the index's tools are not the catalog's deferred tools"));
        }
        let mut index = self.index;
        index.config = search_config(&options);
        index.analyzer = Analyzer::new(&index.config);
        index.variants = if index.config.variants { analysed_variants(&index.analyzer) } else { Vec::new() };
        let mut shelf = Shelf::of(catalog, options, option_warnings);
        // A snapshot taken of a toolbox's text keeps it (a snapshot of this shelf holds it again).
        shelf.origin = Origin { options: options_text, toolbox: head.fingerprint.map(|_| toolbox) };
        shelf.index = Lazy::from((index, documents));
        Ok(shelf)
    }
}

#[inline(never)]
fn read_tool(r: &mut Reader<'_>, sources: &[Arc<String>]) -> Result<Tool, Error> {
    let name = r.string()?;
    let server = r.opt_string()?;
    let own_name = r.string()?;
    let description = r.string()?;
    let source = r.usize()?;
    let (start, end) = (r.usize()?, r.usize()?);
    let size = r.usize()?;
    let position = r.usize()?;
    let (kind, at) = (r.u8()?, r.usize()?);
    let origin = match kind {
        0 => ToolOrigin::List(at),
        1 => ToolOrigin::Tools(at),
        2 => ToolOrigin::Server(at),
        _ => return Err(malformed(&["a tool's origin"])),
    };
    let flags = r.u8()?;
    if flags > 3 {
        return Err(malformed(&["a tool's flags"]));
    }
    let read_as = r.format()?;
    let detected = match r.u8()? {
        u8::MAX => None,
        n => Some(*FORMATS.get(n as usize).ok_or_else(|| malformed(&["an unknown format"]))?),
    };
    let required = r.strings()?;
    let Some(text) = sources.get(source) else {
        return Err(malformed(&[&name, "'s def in a text the snapshot does not hold"]));
    };
    // What the rest of the crate holds of every tool: a def that is a range of its text, a size
    // (code points) no larger than the def's bytes, a server for a deferred one.
    let def = text.get(start..end);
    if def.is_none_or(|def| size > def.len()) || (flags & 1 != 0 && server.is_none()) {
        return Err(malformed(&[&name, "'s def, size or server"]));
    }
    let def_json = DefText { source: text.clone(), start, end };
    Ok(Tool {
        name,
        server,
        own_name,
        description,
        def_json,
        schema_outline: Outline::Loaded(Box::new(LoadedOutline { required, outline: Lazy::new() })),
        size,
        position,
        origin,
        deferred: flags & 1 != 0,
        renamed: flags & 2 != 0,
        read_as,
        detected,
    })
}

/// The index's flat arrays, each checked against the others: every number that indexes another
/// array is within it, the string tables are sorted where lookups bisect them, and every
/// occurrence list is sorted by tool.
#[inline(never)]
fn read_index(r: &mut Reader<'_>, docs: usize) -> Result<SearchIndex, Error> {
    let lower_names = r.texts()?;
    let terms = r.texts()?;
    let count = r.count(8)?;
    let mut items = Vec::with_capacity(count);
    for c in r.bytes(count * 8)?.chunks_exact(8) {
        let pair = u64::from_le_bytes(c.try_into().unwrap_or_default());
        items.push(Posting { doc: pair as u32, term_freq: f32::from_bits((pair >> 32) as u32) });
    }
    let postings = Lists { items, ends: r.u32s()? };
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
        (lower_names.len() == docs, "its tool count"),
        (terms.is_sorted(), "its terms' order"),
        (postings.len() == terms.len() && postings.is_valid(), "its occurrence lists' bounds"),
        (sorted_by_tool(&postings, docs), "an occurrence list's tools"),
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
    let config = crate::search::SearchConfig::default();
    Ok(SearchIndex {
        analyzer: Analyzer::new(&config),
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
        variants: Vec::new(),
        name_weights,
    })
}

/// Whether every occurrence list names tools below `docs`, each once, in increasing order, with a
/// finite, non-negative frequency.
fn sorted_by_tool(postings: &Lists<Posting>, docs: usize) -> bool {
    (0..postings.len()).all(|i| {
        let list = postings.get(i);
        list.iter().all(|p| (p.doc as usize) < docs && p.term_freq.is_finite() && p.term_freq >= 0.0)
            && list.windows(2).all(|w| w.first().map(|p| p.doc) < w.get(1).map(|p| p.doc))
    })
}

/// Whether `starts` is `docs + 1` non-decreasing bounds from 0 to `len`.
fn starts_valid(starts: &[u32], docs: usize, len: usize) -> bool {
    starts.len() == docs + 1
        && starts.first() == Some(&0)
        && starts.last().map(|&n| n as usize) == Some(len)
        && starts.windows(2).all(|w| w.first() <= w.get(1))
}
