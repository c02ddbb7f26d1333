//! The toolbox of SPEC §2.2 read into a catalog: every tool with its name, server, own name,
//! description, schema and size; direct and deferred tools told apart; errors with a path.
//!
//! Layer 6 of ARCHITECTURE.md's Layers: imports only the rooms of the layers below.

use crate::error::{Error, ErrorCode};
use crate::format::Format;
use crate::json::{ParseError, Reader, Value};
use crate::options::{Options, Switch};
use crate::swar;
use crate::texts;
use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;

/// Most tools one toolbox may hold (`too_large` beyond). SPEC §8 asks for at least 50,000.
pub const MAX_TOOLS: usize = 100_000;

/// Server name given to direct tools deferred by the `defer` option.
pub const BUILTIN_SERVER: &str = "builtin";

/// One tool of the toolbox.
#[derive(Clone, Debug)]
pub struct Tool {
    /// The name the model knows (after `qualify`).
    pub name: String,
    /// The server it belongs to: for deferred tools always; for direct tools when they came from a
    /// server (`alwaysLoad`) or carry the `mcp__<server>__` prefix.
    pub server: Option<String>,
    /// The server-side name, to route the call (`create_issue` for `mcp__github__create_issue`).
    pub own_name: String,
    /// The description, empty when the tool has none.
    pub description: String,
    /// The tool def as given, as compact JSON (what `JSON.stringify` writes for it), shared: a
    /// [`Catalog::update`] keeps an unchanged server's tools. [`Tool::def`] parses it.
    pub def_json: DefText,
    /// Where in `def_json` the strings search reads lie ([`Tool::search_places`]).
    pub(crate) outline: Outline,
    /// Code points of the def's compact JSON (SPEC §2.1).
    pub size: usize,
    /// Place in the flattened input: `tools` first, then each server's list, in order.
    pub position: usize,
    /// Where it was in the toolbox; [`Tool::path`] writes it for messages.
    pub origin: Origin,
    /// True when the model does not see its schema (it is behind the bridge).
    pub deferred: bool,
    /// True when `qualify` gave it a new name.
    pub renamed: bool,
    /// The format it was read in.
    pub(crate) read_as: Format,
    /// The format its def's own shape says ([`Format::detect`]), for the detection of an update.
    pub(crate) detected: Option<Format>,
    /// Whether its def asks to stay direct (`_meta["anthropic/alwaysLoad"]: true`), seen when the
    /// def was read; `None` for a tool loaded from a snapshot (its def's text is read if asked).
    pub(crate) always_load: Option<bool>,
}

/// A tool def's compact JSON: a range of the toolbox's text when that text holds it as compact
/// JSON already (what `JSON.stringify` writes, as the JS binding sends it), so the toolbox's text
/// is the one copy; or a text of its own. Shared by clones (an updated shelf keeps a server's).
#[derive(Clone, Debug)]
pub struct DefText {
    pub(crate) source: Arc<ToolboxText>,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl DefText {
    /// A text of its own.
    pub(crate) fn own(text: String) -> DefText {
        let end = text.len();
        DefText { source: Arc::new(ToolboxText::Text(text)), start: 0, end }
    }

    /// The compact JSON (empty for a range of a snapshot's held text that is not UTF-8: bytes
    /// forged inside a def, which the load keeps as bytes and does not check).
    pub fn as_str(&self) -> &str {
        self.source.get(self.start..self.end).unwrap_or_default()
    }

    /// The bytes of the range, UTF-8 or not.
    pub fn as_bytes(&self) -> &[u8] {
        self.source.as_bytes().get(self.start..self.end).unwrap_or_default()
    }

    /// The length of the range in bytes.
    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// Whether the range is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A toolbox's text, shared by the tools whose defs are ranges of it: a text (UTF-8, checked
/// when it was given), or the bytes of a snapshot's held text, whose UTF-8 is checked range by
/// range as each is read (SPEC §13: a load checks no more than it reads; a def is read when a
/// request first needs it).
#[derive(Debug)]
pub(crate) enum ToolboxText {
    /// A text.
    Text(String),
    /// A snapshot's held text, as bytes.
    Bytes(Vec<u8>),
}

impl ToolboxText {
    /// The bytes.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        match self {
            ToolboxText::Text(text) => text.as_bytes(),
            ToolboxText::Bytes(bytes) => bytes,
        }
    }

    /// How many bytes.
    pub(crate) fn len(&self) -> usize {
        self.as_bytes().len()
    }

    /// The text of `range`, when it is within and UTF-8.
    pub(crate) fn get(&self, range: core::ops::Range<usize>) -> Option<&str> {
        match self {
            ToolboxText::Text(text) => text.get(range),
            ToolboxText::Bytes(bytes) => core::str::from_utf8(bytes.get(range)?).ok(),
        }
    }

    /// The whole text, when it is UTF-8.
    pub(crate) fn text(&self) -> Option<&str> {
        self.get(0..self.len())
    }
}

impl core::ops::Deref for DefText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

/// A def's range of the toolbox's text, whether the parser found it to be the def's compact
/// JSON (then it is not written again to be compared), and the places it gathered there
/// ([`searched`]), offsets in the toolbox's text.
struct SourceText<'p> {
    text: DefText,
    compact: bool,
    places: &'p [(usize, u8)],
}

/// Gives every tool (of the catalog's and of those it left out) whose text is a range of a
/// toolbox text that is mostly not in use (less than half of it) a text of its own, so that an
/// update never keeps an old toolbox's text alive for the few tools still read from it.
fn compact(catalog: &mut Catalog) {
    // Per shared text (a text of its own is all in use): its address and the bytes in use. Few:
    // the toolbox texts of the updates whose tools are still held.
    let shared = |text: &DefText| (text.len() < text.source.len()).then_some(Arc::as_ptr(&text.source) as usize);
    let mut used: Vec<(usize, usize)> = Vec::new();
    for text in catalog.tools.iter().chain(&catalog.left_out).map(|tool| &tool.def_json) {
        let Some(at) = shared(text) else { continue };
        match used.iter_mut().find(|(a, _)| *a == at) {
            Some((_, bytes)) => *bytes += text.len(),
            None => used.push((at, text.len())),
        }
    }
    for tool in catalog.tools.iter_mut().chain(catalog.left_out.iter_mut()) {
        let Some(at) = shared(&tool.def_json) else { continue };
        let in_use = used.iter().find(|(a, _)| *a == at).map_or(0, |(_, bytes)| *bytes);
        if in_use * 2 < tool.def_json.source.len() {
            tool.def_json = DefText::own(tool.def_text().into_owned());
        }
    }
}

/// Where a tool was in the toolbox: what [`Tool::path`] writes in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Item `i` of a toolbox that is a list: `[i]`.
    List(usize),
    /// Item `i` of `tools`: `tools[i]`.
    Tools(usize),
    /// Item `i` of its server's list, the server being the tool's `server`: `servers.<server>[i]`.
    Server(usize),
}

impl Origin {
    /// The index in its list.
    fn index(self) -> usize {
        match self {
            Origin::List(i) | Origin::Tools(i) | Origin::Server(i) => i,
        }
    }

    /// The path for messages, `server` being the server of a [`Origin::Server`] tool.
    fn path(self, server: Option<&str>) -> String {
        match self {
            Origin::List(i) => format!("[{i}]"),
            Origin::Tools(i) => format!("tools[{i}]"),
            Origin::Server(i) => format!("servers.{}[{i}]", server.unwrap_or_default()),
        }
    }
}

impl Tool {
    /// Where it came from, for messages: `tools[3]`, `servers.github[2]`, `[5]`.
    pub fn path(&self) -> String {
        self.origin.path(self.server.as_deref())
    }

    /// The token estimate: `ceil(size / 4)`.
    pub fn tokens(&self) -> u64 {
        self.size.div_ceil(4) as u64
    }

    /// The tool def as given, parsed from [`Tool::def_json`]; for a tool loaded from a snapshot
    /// whose def's text is no object named as the tool was read (bytes forged inside a def, which
    /// the load does not parse), a def of its name and description with no parameters.
    pub fn def(&self) -> Value {
        if !self.def_is_its_own() {
            let schema = Value::object([("type", Value::str("object"))]);
            return self.read_as.tool(self.name_as_read(), &self.description, schema);
        }
        crate::json::parse(&self.def_json).unwrap_or(Value::Null)
    }

    /// The def's compact JSON to copy out: [`Tool::def_json`]'s text, or, for a range of a
    /// snapshot's held text that is not UTF-8 (bytes forged inside a def), the def [`Tool::def`]
    /// gives in its place.
    pub(crate) fn def_text(&self) -> Cow<'_, str> {
        match self.def_json.source.get(self.def_json.start..self.def_json.end) {
            Some(text) => Cow::Borrowed(text),
            None => Cow::Owned(self.def().to_json()),
        }
    }

    /// Whether the def's text is this tool's def: always for a tool read from a toolbox; for one
    /// loaded from a snapshot (whose defs the load does not parse, SPEC §13: the toolbox is
    /// trusted), an object named as the tool was read, checked the first time a request needs it,
    /// so that bytes forged inside a def never put a def that is no tool, or another tool's name,
    /// into a request.
    pub(crate) fn def_is_its_own(&self) -> bool {
        match &self.outline {
            Outline::Read(_) => true,
            Outline::Loaded(loaded) => *loaded.own_def.get_or_init(|| {
                let def = crate::json::parse(&self.def_json).unwrap_or(Value::Null);
                def.is_object() && self.read_as.fields(&def).name.map(str::trim) == Some(self.name_as_read())
            }),
        }
    }

    /// Where in [`Tool::def_json`] the strings the search index reads lie ([`searched`]), in the
    /// order of the text: each a member's offset (its key's quote) and what it is
    /// ([`Place::of`]). Gathered when the def was read; for a tool loaded from a snapshot, found
    /// by a walk of its def's text the first time they are asked for (a rebuilt index).
    pub(crate) fn search_places(&self) -> &[u32] {
        match &self.outline {
            Outline::Read(places) => places,
            Outline::Loaded(loaded) => loaded.places.get_or_init(|| walked_places(&self.def_json, self.read_as)),
        }
    }

    /// Each place of [`Tool::search_places`] of one of `kinds`: what it is, the member's key (a
    /// property's name) and a reader at its value, borrowing from the def's text.
    pub(crate) fn each_place<'a>(
        &'a self,
        kinds: &[Place],
        mut visit: impl FnMut(Place, Cow<'a, str>, &mut Reader<'a>),
    ) {
        let text = self.def_json.as_str();
        for &place in self.search_places() {
            let (kind, at) = Place::of(place);
            if !kinds.contains(&kind) {
                continue;
            }
            let mut reader = Reader::new(text.get(at..).unwrap_or_default());
            if let Ok(key) = reader.key_text() {
                visit(kind, key, &mut reader);
            }
        }
    }

    /// The name the tool was read with (before `qualify` renamed it).
    fn name_as_read(&self) -> &str {
        if self.renamed {
            self.own_name.trim()
        } else {
            &self.name
        }
    }

    /// The parameters schema, if the def has one, parsed from [`Tool::def_json`].
    pub fn schema(&self, format: Format) -> Option<Value> {
        format.fields(&self.def()).schema.cloned()
    }

    /// A server's tool as [`read_tool`] made it, before the passes over the whole toolbox
    /// (`alwaysLoad` and `qualify` are the ones that change a server's tools).
    fn as_read(&self) -> Tool {
        let mut tool = self.clone();
        if tool.renamed {
            // The name as read: the own name trimmed (the own name is the name as given).
            tool.name.clear();
            tool.name.push_str(self.name_as_read());
            tool.renamed = false;
        }
        tool.deferred = true;
        tool
    }

    /// Back to a def to read (when the format changed).
    fn into_entry(self) -> Entry {
        let def = self.def();
        let detected = Format::detect(&def);
        Entry { def: Def::Whole(def), detected, origin: self.origin, server: self.server, position: self.position }
    }
}

/// A server's deferred tools, sorted by name.
#[derive(Clone, Debug)]
pub struct Server {
    /// The server name.
    pub name: String,
    /// Indexes into [`Catalog::tools`], in code-point order of tool names.
    pub tools: Vec<usize>,
}

/// A parsed toolbox.
#[derive(Clone, Debug)]
pub struct Catalog {
    /// The toolbox's format.
    pub format: Format,
    /// Every tool kept (bridge-named ones are dropped), in input order.
    pub tools: Vec<Tool>,
    /// The bridge-named tools dropped, as read, in input order: with `tools`, every def of the
    /// toolbox's lists, which an update that keeps a server's tools by their place in its list
    /// ([`Catalog::update_text`]) and a snapshot need.
    pub(crate) left_out: Vec<Tool>,
    /// Servers with deferred tools, in code-point order of names.
    pub servers: Vec<Server>,
    /// Non-fatal problems (an `alwaysLoad` server that does not exist, an undetectable format).
    pub warnings: Vec<String>,
    /// Indexes into `tools`, in code-point order of names (which are unique).
    by_name: Vec<usize>,
    /// The toolbox's lists of tool defs in input order: the server (`None` for the direct list) and
    /// how many defs it held (bridge-named ones included), which [`Catalog::update`] needs to keep one.
    pub(crate) lists: Vec<(Option<String>, usize)>,
    /// Indexes of the deferred tools known under another name than their own (qualified), in
    /// code-point order of own names: what [`Catalog::lookup`] searches.
    by_own_name: Vec<usize>,
}

impl Catalog {
    /// Reads a toolbox: a list of tool defs, or `{tools, servers}`.
    pub fn parse(toolbox: Value, options: &Options) -> Result<Catalog, Error> {
        Catalog::read(Toolbox::of(toolbox, options.format).into_lists()?, options, &mut |_| None, &|_, _| None)
    }

    /// The catalog of `toolbox` under `options`, as [`Catalog::parse`] reads it, taking the tools
    /// of every server named in `keep` from this catalog as they were read (whatever `toolbox`
    /// holds for that server, e.g. an empty list): the caller vouches that their defs are
    /// unchanged. Only the other lists are read; the passes over the whole toolbox (`alwaysLoad`,
    /// `defer`, `qualify`, unique names, servers) run again, so the result and the errors are
    /// those of `Catalog::parse` of the whole toolbox. `options` must be those this catalog was
    /// read with.
    pub fn update(&self, toolbox: Value, keep: &[String], options: &Options) -> Result<Catalog, Error> {
        self.updated(Toolbox::of(toolbox, options.format), keep, options)
    }

    fn updated(&self, toolbox: Toolbox, keep: &[String], options: &Options) -> Result<Catalog, Error> {
        let lists = self.server_lists();
        // A tool by its place in its server's list: one the catalog holds or one it left out (a
        // bridge name), each read again as a new shelf reads it (and dropped again alike).
        let kept_one = |server: &str, at: usize| {
            let run = swar::all_named(&lists.runs, server);
            let found = run.binary_search_by_key(&at, |&(_, i)| lists.all.get(i).map_or(0, |t| t.origin.index()));
            found.ok().and_then(|p| run.get(p)).and_then(|&(_, i)| lists.all.get(i)).map(|t| t.as_read())
        };
        let mut keep: Vec<(&str, usize)> = keep.iter().map(|name| (name.as_str(), 0)).collect();
        swar::sort_names(&mut keep);
        let mut kept = |server: &str| swar::last_named(&keep, server).and_then(|_| lists.as_read(server));
        let mut catalog = Catalog::read(toolbox.into_lists()?, options, &mut kept, &kept_one)?;
        compact(&mut catalog);
        Ok(catalog)
    }

    /// Where each server's list is: made once (n·log n), so that an update that looks up every
    /// server does not scan every tool for each.
    pub fn server_lists(&self) -> ServerLists<'_> {
        let all = self.every_def();
        let mut runs: Vec<(&str, usize)> = Vec::new();
        for (i, tool) in all.iter().enumerate() {
            if let (Origin::Server(_), Some(server)) = (tool.origin, &tool.server) {
                runs.push((server, i));
            }
        }
        swar::sort_names(&mut runs);
        let mut lists: Vec<(&str, usize)> =
            self.lists.iter().enumerate().filter_map(|(at, (server, _))| Some((server.as_deref()?, at))).collect();
        swar::sort_names(&mut lists);
        ServerLists { catalog: self, all, runs, lists }
    }

    /// The tool of every def of the toolbox's lists, the catalog's and those it left out (bridge
    /// names), in input order.
    pub(crate) fn every_def(&self) -> Vec<&Tool> {
        let mut all = Vec::with_capacity(self.tools.len() + self.left_out.len());
        let (mut kept, mut left) = (self.tools.iter().peekable(), self.left_out.iter().peekable());
        loop {
            let next = match (kept.peek(), left.peek()) {
                (Some(a), Some(b)) if b.position < a.position => left.next(),
                (Some(_), _) => kept.next(),
                (None, _) => left.next(),
            };
            match next {
                Some(tool) => all.push(tool),
                None => return all,
            }
        }
    }

    /// Reads the lists of a toolbox into a catalog; `kept` gives, for a server, its tools as read
    /// before and its list's length, to be used instead of the list's defs.
    fn read(lists: Vec<List>, options: &Options, kept: Keep<'_>, kept_one: KeepOne<'_>) -> Result<Catalog, Error> {
        let (sources, lists) = sources(lists, kept, kept_one);
        let count: usize = lists.iter().map(|(_, length)| length).sum();
        if count > MAX_TOOLS {
            return Err(Error::new(ErrorCode::TooLarge, format!("toolbox: {count} tools, more than {MAX_TOOLS}")));
        }
        let mut warnings = Vec::new();
        let format = match options.format {
            Some(format) => format,
            None => detect_format(&sources, &mut warnings)?,
        };
        let mut tools = Vec::with_capacity(sources.len());
        let mut left_out = Vec::new();
        let mut misread = Misread::default();
        for source in sources {
            let tool = match source {
                Source::Kept(tool, read_as) if read_as == format => tool,
                Source::Kept(tool, _) => read_tool(tool.into_entry(), format)?,
                Source::New(entry) => read_tool(entry, format)?,
            };
            misread.note(&tool, options.format);
            if !options.bridge_names.contains(&tool.name) {
                tools.push(tool);
                continue;
            }
            if !is_bridge_tool(&tool, options) {
                warnings.push(texts::bridge_named_tool_left_out(&tool.path(), &tool.name));
            }
            left_out.push(tool);
        }
        misread.warn(format, &mut warnings);
        apply_load_choices(&mut tools, options, &mut warnings);
        match options.qualify {
            Switch::On => qualify(&mut tools),
            Switch::Auto => qualify_clashes(&mut tools, &mut warnings),
            Switch::Off => {}
        }
        let by_name = index_names(&tools)?;
        same_real_tool(&tools)?;
        let servers = group_servers(&tools, &by_name);
        let by_own_name = index_own_names(&tools);
        Ok(Catalog { format, tools, left_out, servers, warnings, by_name, by_own_name, lists })
    }

    /// The catalog of tools read with their lookup orders as a snapshot stores them (by name, by
    /// own name, each server's tools): each order checked in one pass to be the one a read sorts;
    /// else which order does not hold.
    pub(crate) fn of_orders(
        format: Format,
        (tools, left_out): (Vec<Tool>, Vec<Tool>),
        warnings: Vec<String>,
        lists: Vec<(Option<String>, usize)>,
        (by_name, by_own_name, servers): (Vec<usize>, Vec<usize>, Vec<Server>),
    ) -> Result<Catalog, &'static str> {
        if by_name.len() != tools.len() || !ascending(&tools, &by_name, |t| &t.name, false) {
            return Err("its name order");
        }
        let qualified = tools.iter().filter(|t| is_known_by_other_name(t)).count();
        let own_named = by_own_name.iter().all(|&i| tools.get(i).is_some_and(is_known_by_other_name));
        if by_own_name.len() != qualified || !own_named || !ascending(&tools, &by_own_name, |t| &t.own_name, true) {
            return Err("its own-name order");
        }
        let grouped =
            servers.iter().map(|s| s.tools.len()).sum::<usize>() == tools.iter().filter(|t| t.deferred).count();
        let each = servers.iter().all(|server| {
            let of_it = |&i: &usize| {
                tools.get(i).is_some_and(|t| {
                    t.deferred && t.server.as_ref().is_some_and(|s| swar::same(s.as_bytes(), server.name.as_bytes()))
                })
            };
            !server.tools.is_empty()
                && server.tools.iter().all(of_it)
                && ascending(&tools, &server.tools, |t| &t.name, false)
        });
        let names_ascend = servers.windows(2).all(|w| w.first().map(|a| &a.name) < w.get(1).map(|b| &b.name));
        if !grouped || !each || !names_ascend {
            return Err("its servers");
        }
        Ok(Catalog { format, tools, left_out, servers, warnings, by_name, by_own_name, lists })
    }

    /// The lookup orders by name and by own name (a snapshot stores them, and the servers').
    pub(crate) fn orders(&self) -> (&[usize], &[usize]) {
        (&self.by_name, &self.by_own_name)
    }

    /// Reads a toolbox from JSON text: what `Catalog::parse` gives for the parsed text (and the
    /// same errors), but each tool def is parsed, read and dropped in turn, so the text and the
    /// tools' compact JSON are all it holds at once.
    pub fn parse_json(text: &str, options: &Options) -> Result<Catalog, Error> {
        let with = TextReading { forced: options.format, source: None, refs: false };
        let toolbox = read_toolbox(text, &with).map_err(|e| input_error(e, "toolbox", ErrorCode::InvalidToolbox))?;
        Catalog::read(toolbox.into_lists()?, options, &mut |_| None, &|_, _| None)
    }

    /// As [`Catalog::parse_json`], keeping the text: each tool's compact JSON is a range of it
    /// when the text holds it so (as `JSON.stringify` writes a toolbox), and the text is then the
    /// one copy of the toolbox the catalog holds.
    pub fn parse_text(text: String, options: &Options) -> Result<Catalog, Error> {
        read_text(Arc::new(ToolboxText::Text(text)), options, None)
    }

    /// As [`Catalog::parse_text`], the text shared with the caller (a shelf keeps it for its
    /// snapshot, `crate::shelf::snapshot`).
    pub(crate) fn parse_shared_text(text: Arc<ToolboxText>, options: &Options) -> Result<Catalog, Error> {
        read_text(text, options, None)
    }

    /// As [`Catalog::update`], from the toolbox's text (kept as [`Catalog::parse_text`] keeps it),
    /// in which a number in a server's list stands for the tool at that index of the same server's
    /// list in this catalog, unchanged (a def that is a number is never a tool). With no `keep`,
    /// the text is read as [`Catalog::parse_text`] reads it: nothing is kept, numbers are numbers.
    pub fn update_text(&self, text: String, keep: Option<&[String]>, options: &Options) -> Result<Catalog, Error> {
        read_text(Arc::new(ToolboxText::Text(text)), options, keep.map(|keep| (self, keep)))
    }

    /// The tool the model knows as `name`.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        let found = self.by_name.binary_search_by(|&i| self.tools.get(i).map(|t| t.name.as_str()).cmp(&Some(name)));
        found.ok().and_then(|at| self.by_name.get(at)).and_then(|&i| self.tools.get(i))
    }

    /// The index in [`Catalog::tools`] of the tool named `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        let found = self.by_name.binary_search_by(|&i| self.tools.get(i).map(|t| t.name.as_str()).cmp(&Some(name)));
        found.ok().and_then(|at| self.by_name.get(at)).copied()
    }

    /// The indexes of the servers' tools known under another name whose own (server-side) name
    /// is `own_name` (several when servers clash), in the order of [`Catalog::tools`].
    pub fn own_named(&self, own_name: &str) -> Vec<usize> {
        let own = |i: &usize| self.tools.get(*i).map(|t| t.own_name.as_str());
        let first = self.by_own_name.partition_point(|i| own(i).is_some_and(|o| o < own_name));
        self.by_own_name.iter().skip(first).take_while(|i| own(i) == Some(own_name)).copied().collect()
    }

    /// The tool the model knows as `name`, or else the one server's tool whose own (server-side)
    /// name is `name` when no other tool has that own name (`create_issue` for a qualified
    /// `mcp__github__create_issue`).
    pub fn lookup(&self, name: &str) -> Option<&Tool> {
        self.get(name).or_else(|| self.unique_own_name(name))
    }

    fn unique_own_name(&self, own_name: &str) -> Option<&Tool> {
        let own = |at: usize| self.by_own_name.get(at).and_then(|&i| self.tools.get(i)).map(|t| t.own_name.as_str());
        let first =
            self.by_own_name.partition_point(|&i| self.tools.get(i).is_some_and(|t| t.own_name.as_str() < own_name));
        let unique = own(first) == Some(own_name) && own(first + 1) != Some(own_name);
        unique.then(|| self.by_own_name.get(first).and_then(|&i| self.tools.get(i))).flatten()
    }

    /// Deferred tools, in input order.
    pub fn deferred(&self) -> impl Iterator<Item = &Tool> {
        self.tools.iter().filter(|t| t.deferred)
    }

    /// Direct tools, in input order.
    pub fn direct(&self) -> impl Iterator<Item = &Tool> {
        self.tools.iter().filter(|t| !t.deferred)
    }

    /// The names of `tool`'s schema's top-level `properties`, in order.
    pub fn parameter_names(&self, tool: &Tool) -> Vec<String> {
        let mut names = Vec::new();
        tool.each_place(&[Place::Property], |_, name, _| names.push(name.into_owned()));
        names
    }

    /// The schema's top-level `required` names (those that are strings), as a search match shows
    /// them: read at their place in the def's text (for a tool loaded from a snapshot, its places
    /// found in the def the first time they are asked for).
    pub fn required_names(&self, tool: &Tool) -> Vec<String> {
        let mut names = Vec::new();
        tool.each_place(&[Place::Required], |_, _, reader| {
            let Ok(Value::Array(required)) = reader.value(1) else { return };
            names.extend(required.into_iter().filter_map(|name| match name {
                Value::String(name) => Some(name),
                _ => None,
            }));
        });
        names
    }

    /// Every tool name, in code-point order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.by_name.iter().filter_map(|&i| self.tools.get(i)).map(|t| t.name.as_str())
    }
}

/// A catalog's server lists, indexed ([`Catalog::server_lists`]).
pub struct ServerLists<'a> {
    catalog: &'a Catalog,
    /// The tool of every def ([`Catalog::every_def`]), in input order.
    all: Vec<&'a Tool>,
    /// `(server, index into all)` of every server list's tools, sorted ([`swar::sort_names`]):
    /// each server's run in list order.
    runs: Vec<(&'a str, usize)>,
    /// `(server, index into the catalog's lists)`, sorted: where a server's list length is.
    lists: Vec<(&'a str, usize)>,
}

impl<'a> ServerLists<'a> {
    /// Whether `server`'s list in the catalog is `defs` (its tools and those left out, def for def).
    pub fn holds(&self, server: &str, defs: &[Value]) -> bool {
        let Some((tools, length)) = self.list(server) else { return false };
        length == defs.len()
            && tools.len() == length
            && tools.zip(defs).all(|(tool, def)| *tool.def_json == *def.to_json())
    }

    /// The tools of `server`'s list, in input order, and the list's length; `None` when the
    /// catalog has no such list.
    fn list(&self, server: &str) -> Option<(impl ExactSizeIterator<Item = &'a Tool> + '_, usize)> {
        let &(_, at) = swar::all_named(&self.lists, server).first()?;
        let length = self.catalog.lists.get(at)?.1;
        let run = swar::all_named(&self.runs, server);
        Some((run.iter().filter_map(|&(_, i)| self.all.get(i).copied()).collect::<Vec<_>>().into_iter(), length))
    }

    /// The tools of `server`'s list as first read (before the passes over the whole toolbox), and
    /// the list's length.
    fn as_read(&self, server: &str) -> Option<(Vec<Tool>, usize)> {
        self.list(server).map(|(tools, length)| (tools.map(Tool::as_read).collect(), length))
    }
}

/// Parses JSON input, mapping a syntax error to `code` and a too-deep input to `too_large`.
pub fn parse_input(text: &str, what: &str, code: ErrorCode) -> Result<Value, Error> {
    crate::json::parse(text).map_err(|e| input_error(e, what, code))
}

/// A JSON syntax error as `code` (a too-deep input as `too_large`), with where it was noticed.
pub(crate) fn input_error(e: ParseError, what: &str, code: ErrorCode) -> Error {
    let code = if e.too_deep { ErrorCode::TooLarge } else { code };
    Error::new(code, format!("{what}: {} at byte {}", e.message, e.offset))
}

/// One tool def as found in the input, before reading.
struct Entry {
    def: Def,
    /// The format its own shape says ([`Format::detect`]).
    detected: Option<Format>,
    origin: Origin,
    /// The server whose list it is in.
    server: Option<String>,
    position: usize,
}

impl Entry {
    /// Where it came from, for messages ([`Tool::path`]).
    fn path(&self) -> String {
        self.origin.path(self.server.as_deref())
    }
}

/// A tool of the toolbox before the passes over the whole toolbox: a def to read, or a tool of an
/// unchanged server kept as read before, with the format it was read in.
enum Source {
    New(Entry),
    Kept(Tool, Format),
}

impl Source {
    fn detected(&self) -> Option<Format> {
        match self {
            Source::New(entry) => entry.detected,
            Source::Kept(tool, _) => tool.detected,
        }
    }

    fn path(&self) -> String {
        match self {
            Source::New(entry) => entry.path(),
            Source::Kept(tool, _) => tool.path(),
        }
    }
}

/// For a server's name, its tools as read before and its list's length, when they are to be kept.
type Keep<'a> = &'a mut dyn FnMut(&str) -> Option<(Vec<Tool>, usize)>;

/// For a server's name and an index into its list in the catalog being updated, that tool as read.
type KeepOne<'a> = &'a dyn Fn(&str, usize) -> Option<Tool>;

/// One list of tool defs in the toolbox: the toolbox itself when it is a list, `tools`, or a
/// server's list.
struct List {
    /// The server whose list it is; `None` for the direct tools.
    server: Option<String>,
    /// True for the list that is the whole toolbox (paths `[i]`), false for `tools` and servers.
    flat: bool,
    defs: Vec<(Def, Option<Format>)>,
}

/// The tools to read, in input order, with their positions, and each list's server and length.
fn sources(lists: Vec<List>, kept: Keep<'_>, kept_one: KeepOne<'_>) -> (Vec<Source>, Vec<(Option<String>, usize)>) {
    let mut sources = Vec::new();
    let mut lengths = Vec::with_capacity(lists.len());
    let mut position = 0;
    for List { server, flat, defs } in lists {
        if let Some((tools, length)) = server.as_deref().and_then(&mut *kept) {
            for mut tool in tools {
                let Origin::Server(i) = tool.origin else { continue };
                tool.position = position + i;
                let format = tool.read_as;
                sources.push(Source::Kept(tool, format));
            }
            lengths.push((server, length));
            position += length;
            continue;
        }
        let length = defs.len();
        for (i, (def, detected)) in defs.into_iter().enumerate() {
            let origin = match (&server, flat) {
                (Some(_), _) => Origin::Server(i),
                (None, true) => Origin::List(i),
                (None, false) => Origin::Tools(i),
            };
            let def = match (def, server.as_deref()) {
                (Def::Ref(at), Some(name)) => match kept_one(name, at) {
                    Some(mut tool) => {
                        (tool.origin, tool.position) = (origin, position + i);
                        let format = tool.read_as;
                        sources.push(Source::Kept(tool, format));
                        continue;
                    }
                    // Not a tool the shelf read (none there, or a bridge name it dropped): read
                    // the number as the def, as a new shelf would (and drop or reject it alike).
                    None => Def::Whole(Value::uint(at as u64)),
                },
                (Def::Ref(at), None) => Def::Whole(Value::uint(at as u64)),
                (def, _) => def,
            };
            sources.push(Source::New(Entry { def, detected, origin, server: server.clone(), position: position + i }));
        }
        lengths.push((server, length));
        position += length;
    }
    (sources, lengths)
}

/// A tool def as found in the toolbox, read as far as it can be before the toolbox's format is
/// known; its tree is dropped once read.
enum Def {
    /// Read in the format its shape says (or the `format` option names).
    Read(Box<Reading>),
    /// A def whose shape says no format, or that is not an object: read once the format is known.
    Whole(Value),
    /// In the text of an update: the tool at this index of the same server's list in the catalog
    /// being updated, unchanged ([`Catalog::update_text`]).
    Ref(usize),
}

/// What a tool def gives in one format.
struct Reading {
    format: Format,
    json: DefText,
    size: usize,
    /// The trimmed name, when it is a non-empty string.
    name: Option<String>,
    /// The name as given, when trimming changed it: the server's own name for the tool.
    untrimmed: Option<String>,
    description: String,
    /// Whether the def asks to stay direct (`_meta["anthropic/alwaysLoad"]: true`).
    always_load: bool,
    /// Where the strings the search index reads lie in `json` ([`Tool::search_places`]).
    places: Box<[u32]>,
}

impl Def {
    /// A def of the toolbox, and the format its shape says; `forced` is the `format` option.
    /// `text` is the def's range of the toolbox's text, when the toolbox came as text.
    #[inline(never)]
    fn of(def: Value, forced: Option<Format>, text: Option<SourceText<'_>>) -> (Def, Option<Format>) {
        let detected = Format::detect(&def);
        match forced.or(detected) {
            Some(format) if def.is_object() => (Def::Read(Box::new(Reading::of(def, format, text))), detected),
            _ => (Def::Whole(def), detected),
        }
    }
}

impl Reading {
    /// `text`: the def's range of the toolbox's text, used when it is the def's compact JSON (then
    /// with the places gathered as it was read). The def's description is moved out of it, not
    /// copied.
    #[inline(never)] // one copy for the three ways a def is read
    fn of(mut def: Value, format: Format, text: Option<SourceText<'_>>) -> Reading {
        let always_load = marks_always_load(&def);
        let fields = format.fields(&def);
        let mut places = None;
        let json = match text {
            Some(SourceText { text, compact: true, places: found }) => {
                places = kept_places(found.iter().map(|&(at, code)| (at.wrapping_sub(text.start), code)), format);
                text
            }
            Some(SourceText { text, compact: false, .. }) => {
                let compact = def.to_json();
                if swar::same(text.as_bytes(), compact.as_bytes()) {
                    text
                } else {
                    DefText::own(compact)
                }
            }
            None => DefText::own(def.to_json()),
        };
        let name = fields.name.map(str::trim).filter(|n| !n.is_empty()).map(String::from);
        let untrimmed = fields.name.filter(|n| n.trim().len() != n.len() && !n.trim().is_empty()).map(String::from);
        let description = holder_mut(&mut def, format).and_then(|holder| take_string(holder, "description"));
        Reading {
            format,
            size: json.chars().count(),
            places: places.unwrap_or_else(|| walked_places(&json, format)),
            json,
            name,
            untrimmed,
            description: description.unwrap_or_default(),
            always_load,
        }
    }
}

/// The member `key` of an object (the last one, as [`Value::get`] finds it), to change.
fn member_mut<'v>(value: &'v mut Value, key: &str) -> Option<&'v mut Value> {
    match value {
        Value::Object(members) => members.iter_mut().rev().find(|(k, _)| k == key).map(|(_, v)| v),
        _ => None,
    }
}

/// The string member `key` of an object, moved out (what [`Format::fields`] reads as a string).
fn take_string(holder: &mut Value, key: &str) -> Option<String> {
    match member_mut(holder, key)? {
        Value::String(s) => Some(core::mem::take(s)),
        _ => None,
    }
}

/// The codes of [`searched`], the rule of what the search index reads of a tool def.
mod searched {
    use crate::json::{RECORD, SKIM};

    /// The def.
    pub(super) const DEF: u8 = 1;
    /// OpenAI Chat's `function`: recorded, so that the places tell whether the def has one.
    pub(super) const FUNCTION: u8 = 2 | RECORD;
    pub(super) const ANNOTATIONS: u8 = 3;
    pub(super) const META: u8 = 4;
    /// A string of the server's words for the tool.
    pub(super) const HINT: u8 = 5 | RECORD;
    /// A schema (skipped, not parsed: the reading keeps none of it), its `properties`, one
    /// property, a property's `description` and `enum`, and the schema's `required`: each plus
    /// [`SCHEMA_KEYS`]' index of the schema's key, plus that count again under `function`.
    pub(super) const SCHEMA: u8 = 8 | SKIM;
    pub(super) const PROPERTIES: u8 = 16;
    pub(super) const PROPERTY: u8 = 24 | RECORD;
    pub(super) const DESCRIPTION: u8 = 32 | RECORD;
    pub(super) const ENUM: u8 = 40 | RECORD;
    pub(super) const REQUIRED: u8 = 48 | RECORD;
    /// The keys a format keeps its schema under ([`crate::format::Format::field_keys`]).
    pub(super) const SCHEMA_KEYS: [&str; 3] = ["parameters", "input_schema", "inputSchema"];
    /// The holder of OpenAI Chat's fields.
    pub(super) const HOLDER: &str = "function";
    /// The `_meta` key of an MCP tool's search words (Claude Code reads it too).
    pub(super) const SEARCH_HINT: &str = "anthropic/searchHint";
    /// Codes of each kind: the schema keys, at the top and under `function`.
    pub(super) const KINDS: u8 = 2 * SCHEMA_KEYS.len() as u8;
}

/// What the search index reads of a tool def, as a gathering rule ([`Reader::outline_gathering`]):
/// the def's `title`, `annotations.title` and `_meta["anthropic/searchHint"]` (a server's words
/// for the tool); and of each schema the def may keep (at its top, or in OpenAI Chat's
/// `function`: [`kept_places`] keeps its format's), each top-level property (its name), the
/// property's `description` and `enum`, and the schema's `required`.
fn searched(parent: u8, key: &str) -> u8 {
    use searched::*;
    let schema = |base: u8| SCHEMA_KEYS.iter().position(|k| *k == key).map_or(0, |at| SCHEMA + base + at as u8);
    let kind = |first: u8| parent.wrapping_sub(first) < KINDS;
    match parent {
        DEF => match key {
            "title" => HINT,
            "annotations" => ANNOTATIONS,
            "_meta" => META,
            HOLDER => FUNCTION,
            _ => schema(0),
        },
        FUNCTION => schema(SCHEMA_KEYS.len() as u8),
        ANNOTATIONS if key == "title" => HINT,
        META if key == SEARCH_HINT => HINT,
        _ if kind(SCHEMA) && key == "properties" => parent - SCHEMA + PROPERTIES,
        _ if kind(SCHEMA) && key == "required" => parent - SCHEMA + REQUIRED,
        _ if kind(PROPERTIES) => parent - PROPERTIES + PROPERTY,
        _ if kind(PROPERTY) && key == "description" => parent - PROPERTY + DESCRIPTION,
        _ if kind(PROPERTY) && key == "enum" => parent - PROPERTY + ENUM,
        _ => 0,
    }
}

/// What a search place ([`Tool::search_places`]) is: its kind, in a place's top bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// A property's `description`.
    Description,
    /// A property's `enum`.
    Enum,
    /// A string of the server's words for the tool.
    Hint,
    /// A top-level property: its key is its name.
    Property,
    /// The schema's `required`.
    Required,
}

/// The bits of a place that hold its offset; the bits above hold its kind.
const PLACE_OFFSET: u32 = (1 << 29) - 1;

impl Place {
    const KINDS: [Place; 5] = [Place::Description, Place::Enum, Place::Hint, Place::Property, Place::Required];

    /// A place's kind and offset.
    pub(crate) fn of(place: u32) -> (Place, usize) {
        let kind = Place::KINDS.get((place >> 29) as usize).copied().unwrap_or(Place::Description);
        (kind, (place & PLACE_OFFSET) as usize)
    }

    /// The place of this kind at `at`, when the offset fits.
    fn at(self, at: usize) -> Option<u32> {
        let at = u32::try_from(at).ok().filter(|&at| at <= PLACE_OFFSET)?;
        Some((self as u32) << 29 | at)
    }
}

/// The places of [`searched`] (offsets in the def's text, in its order, with their codes) that
/// the search reads for a tool of `format`: the hints, and the places of the schema where
/// `format` keeps it ([`Format::fields`]); `None` when an offset does not fit.
fn kept_places(found: impl Iterator<Item = (usize, u8)> + Clone, format: Format) -> Option<Box<[u32]>> {
    use searched::*;
    let (holder, schema_key) = format.field_keys();
    let in_holder = holder.is_some() && found.clone().any(|(_, code)| code == FUNCTION);
    let key_at = SCHEMA_KEYS.iter().position(|k| *k == schema_key).unwrap_or_default() as u8;
    let schema = key_at + if in_holder { SCHEMA_KEYS.len() as u8 } else { 0 };
    let mut kept = Vec::new();
    for (at, code) in found {
        let kind = match code {
            HINT => Place::Hint,
            _ if code == PROPERTY + schema => Place::Property,
            _ if code == DESCRIPTION + schema => Place::Description,
            _ if code == ENUM + schema => Place::Enum,
            _ if code == REQUIRED + schema => Place::Required,
            _ => continue,
        };
        kept.push(kind.at(at)?);
    }
    Some(kept.into_boxed_slice())
}

/// The search places of a def's compact JSON, found by a walk of it (a def read as a value, or
/// loaded from a snapshot); none when an offset does not fit.
pub(crate) fn walked_places(json: &str, format: Format) -> Box<[u32]> {
    let found = Reader::new(json).gather_trusted(searched, searched::DEF);
    kept_places(found.into_iter(), format).unwrap_or_default()
}

/// The key of `_meta` by which a server marks a tool to stay direct, as Claude Code reads it.
const ALWAYS_LOAD_KEY: &str = "anthropic/alwaysLoad";

/// Whether a def's `_meta` holds `"anthropic/alwaysLoad": true`.
fn marks_always_load(def: &Value) -> bool {
    let metas = def.as_object().unwrap_or_default().iter().filter(|(key, _)| key == "_meta");
    metas
        .filter_map(|(_, meta)| meta.as_object())
        .flatten()
        .any(|(key, value)| key == ALWAYS_LOAD_KEY && *value == Value::Bool(true))
}

/// The lazily made value of a loaded tool's outline: thread-safe natively with `std` (a `Shelf`
/// may be shared across threads), a plain cell in wasm and without `std`.
#[cfg(all(feature = "std", not(target_arch = "wasm32")))]
type Once<T> = std::sync::OnceLock<T>;
#[cfg(not(all(feature = "std", not(target_arch = "wasm32"))))]
type Once<T> = core::cell::OnceCell<T>;

/// What a tool holds of its def for search ([`Tool::search_places`]): the places found when it
/// was read, or (a tool loaded from a snapshot, whose index needs none) the places found the first
/// time they are asked for (SPEC §13: a load parses no def).
#[derive(Clone, Debug)]
pub(crate) enum Outline {
    /// Read with the tool.
    Read(Box<[u32]>),
    /// Loaded from a snapshot (held in the tool, not boxed: a box each is an allocation and a free
    /// per tool of every load).
    Loaded(LoadedOutline),
}

/// What a tool loaded from a snapshot holds of its schema: nothing until it is asked for.
#[derive(Clone, Debug, Default)]
pub(crate) struct LoadedOutline {
    /// The search places, found in the def's text when a search match, an update or a new index
    /// first asks.
    places: Once<Box<[u32]>>,
    /// Whether the def's text is the tool's def ([`Tool::def_is_its_own`]), read when first asked.
    own_def: Once<bool>,
}

impl Outline {
    /// A loaded tool's outline, each part read when first asked for.
    pub(crate) fn loaded() -> Outline {
        Outline::Loaded(LoadedOutline::default())
    }
}

/// The object `format` keeps a tool's fields in (OpenAI Chat's `function`, else the def itself),
/// as [`Format::fields`] finds it, to change.
fn holder_mut(def: &mut Value, format: Format) -> Option<&mut Value> {
    match format.field_keys().0 {
        Some(key) if def.get(key).is_some() => member_mut(def, key),
        _ => Some(def),
    }
}

/// A list of tool defs read, or the value found where a list belongs (for the error).
type ListOr = Result<Vec<(Def, Option<Format>)>, Value>;

/// The servers of a grouped toolbox, each with its list, or the value found in their place.
type ServersOr = Result<Vec<(String, ListOr)>, Value>;

/// The toolbox's shape with its tool defs read, before its errors of shape are told in the order
/// the checks are made ([`Toolbox::into_lists`]).
enum Toolbox {
    /// A list of tool defs.
    Flat(Vec<(Def, Option<Format>)>),
    /// `{tools, servers}`: the first unknown key, `tools`, and `servers`.
    Grouped { unknown: Option<String>, tools: Option<ListOr>, servers: Option<ServersOr> },
    /// Anything else.
    Other(Value),
}

impl Toolbox {
    /// The toolbox given as a value; `forced` is the `format` option.
    fn of(toolbox: Value, forced: Option<Format>) -> Toolbox {
        let list = |value: Value| match value {
            Value::Array(defs) => Ok(defs.into_iter().map(|def| Def::of(def, forced, None)).collect()),
            other => Err(other),
        };
        match toolbox {
            Value::Array(defs) => Toolbox::Flat(defs.into_iter().map(|def| Def::of(def, forced, None)).collect()),
            Value::Object(members) => {
                let (mut unknown, mut tools, mut servers) = (None, None, None);
                for (key, value) in members {
                    match (key.as_str(), value) {
                        ("tools", value) => tools = Some(list(value)),
                        ("servers", Value::Object(lists)) => {
                            servers = Some(Ok(lists.into_iter().map(|(name, value)| (name, list(value))).collect()))
                        }
                        ("servers", value) => servers = Some(Err(value)),
                        _ => {
                            unknown.get_or_insert(key);
                        }
                    }
                }
                Toolbox::Grouped { unknown, tools, servers }
            }
            other => Toolbox::Other(other),
        }
    }

    /// The lists, or the first error of shape: an unknown key, then `tools`, `servers`, and each
    /// server in order.
    fn into_lists(self) -> Result<Vec<List>, Error> {
        let (unknown, tools, servers) = match self {
            Toolbox::Flat(defs) => return Ok(alloc::vec![List { server: None, flat: true, defs }]),
            Toolbox::Other(other) => {
                return Err(Error::new(
                    ErrorCode::InvalidToolbox,
                    format!("toolbox: expected a list of tools or {{tools, servers}}, got {}", other.kind()),
                ))
            }
            Toolbox::Grouped { unknown, tools, servers } => (unknown, tools, servers),
        };
        if let Some(key) = unknown {
            return Err(Error::new(
                ErrorCode::InvalidToolbox,
                format!("toolbox: unknown key \"{key}\" (expected \"tools\" and \"servers\")"),
            ));
        }
        let mut lists = Vec::new();
        match tools {
            None | Some(Err(Value::Null)) => {}
            Some(Ok(defs)) => lists.push(List { server: None, flat: false, defs }),
            Some(Err(other)) => return Err(expected_list("tools", &other)),
        }
        let servers = match servers {
            None | Some(Err(Value::Null)) => Vec::new(),
            Some(Ok(servers)) => servers,
            Some(Err(other)) => {
                let message = format!("servers: expected an object of server name → tools, got {}", other.kind());
                return Err(Error::new(ErrorCode::InvalidToolbox, message));
            }
        };
        for (server, defs) in servers {
            if server.is_empty() {
                return Err(Error::new(ErrorCode::InvalidToolbox, "servers: a server name is empty"));
            }
            match defs {
                Ok(defs) => lists.push(List { server: Some(server), flat: false, defs }),
                Err(other) => return Err(expected_list(&format!("servers.{server}"), &other)),
            }
        }
        Ok(lists)
    }
}

/// The catalog of a toolbox's text, kept ([`Catalog::parse_text`]); with a catalog and server
/// names, those servers' tools taken from it ([`Catalog::update_text`]).
fn read_text(
    source: Arc<ToolboxText>,
    options: &Options,
    update: Option<(&Catalog, &[String])>,
) -> Result<Catalog, Error> {
    let with = TextReading { forced: options.format, source: Some(&source), refs: update.is_some() };
    let text = source.text().unwrap_or_default();
    let toolbox = read_toolbox(text, &with).map_err(|e| input_error(e, "toolbox", ErrorCode::InvalidToolbox))?;
    let Some((previous, keep)) = update else {
        return Catalog::read(toolbox.into_lists()?, options, &mut |_| None, &|_, _| None);
    };
    previous.updated(toolbox, keep, options)
}

/// How a toolbox's text is read: the `format` option, and the text shared by the tools (when the
/// text is the caller's to keep).
struct TextReading<'a> {
    forced: Option<Format>,
    source: Option<&'a Arc<ToolboxText>>,
    /// In a server's list, a number is a [`Def::Ref`] (the text of an update).
    refs: bool,
}

/// Reads a toolbox's JSON text as [`Toolbox::of`] reads its value, parsing one tool def at a time.
/// A repeated key keeps its first place and takes the last value, as `JSON.parse` does.
fn read_toolbox(text: &str, with: &TextReading<'_>) -> Result<Toolbox, ParseError> {
    let mut reader = Reader::new(text);
    let toolbox = match reader.peek() {
        Some(b'[') => Toolbox::Flat(read_list(&mut reader, 1, with)?),
        Some(b'{') => {
            let (mut unknown, mut tools, mut servers) = (None, None, None);
            let mut more = reader.enter(1, b'}')?;
            while more {
                let key = reader.key()?;
                match (key.as_str(), reader.peek()) {
                    ("tools", Some(b'[')) => tools = Some(Ok(read_list(&mut reader, 2, with)?)),
                    ("tools", _) => tools = Some(Err(reader.value(1)?)),
                    ("servers", Some(b'{')) => servers = Some(Ok(read_servers(&mut reader, with)?)),
                    ("servers", _) => servers = Some(Err(reader.value(1)?)),
                    _ => {
                        reader.value(1)?;
                        unknown.get_or_insert(key);
                    }
                }
                more = reader.next(b'}')?;
            }
            Toolbox::Grouped { unknown, tools, servers }
        }
        _ => Toolbox::Other(reader.value(0)?),
    };
    reader.end()?;
    Ok(toolbox)
}

/// The `servers` object at the reader, each server's list read.
fn read_servers(reader: &mut Reader<'_>, with: &TextReading<'_>) -> Result<Vec<(String, ListOr)>, ParseError> {
    let mut lists: Vec<(String, ListOr)> = Vec::new();
    let mut more = reader.enter(2, b'}')?;
    while more {
        let name = reader.key()?;
        let list = match reader.peek() {
            Some(b'[') => Ok(read_list(reader, 3, with)?),
            _ => Err(reader.value(2)?),
        };
        lists.push((name, list));
        more = reader.next(b'}')?;
    }
    crate::json::merge_repeated_keys(&mut lists);
    Ok(lists)
}

/// The array at the reader (`depth` counting it), each tool def read and its tree dropped.
#[inline(never)] // one copy for its three callers
fn read_list(
    reader: &mut Reader<'_>,
    depth: usize,
    with: &TextReading<'_>,
) -> Result<Vec<(Def, Option<Format>)>, ParseError> {
    let mut defs = Vec::new();
    let mut more = reader.enter(depth, b']')?;
    while more {
        let start = reader.offset();
        defs.push(match with.source {
            Some(source) => read_def_of_text(reader, depth, with, source, start)?,
            None => read_def(reader.value(depth)?, with, None),
        });
        more = reader.next(b']')?;
    }
    Ok(defs)
}

/// Levels of a def the toolbox reader keeps when it has the def's text: the def and OpenAI Chat's
/// `function` (and `annotations`, `_meta`); deeper containers (its schema, most of a def) are
/// skipped, their text being the def's (what search reads of them is gathered as they are).
const DEF_OUTLINE_LEVELS: usize = 2;

/// The def at the reader, from its range of the toolbox text: an outline of it when that range is
/// its compact JSON and its format is known, else (text not compact, or a def whose reading waits
/// for the toolbox's format) the whole def, parsed again from the range.
fn read_def_of_text(
    reader: &mut Reader<'_>,
    depth: usize,
    with: &TextReading<'_>,
    source: &Arc<ToolboxText>,
    start: usize,
) -> Result<(Def, Option<Format>), ParseError> {
    let (outline, end, compact) = reader.outline_gathering(depth, DEF_OUTLINE_LEVELS, searched, searched::DEF)?;
    let text = DefText { source: source.clone(), start, end };
    let known = outline.is_object() && with.forced.or_else(|| Format::detect(&outline)).is_some();
    if compact && known {
        return Ok(read_def(outline, with, Some(SourceText { text, compact, places: reader.places() })));
    }
    let whole = crate::json::parse(&text).map_err(|mut e| {
        e.offset += start;
        e
    })?;
    Ok(read_def(whole, with, Some(SourceText { text, compact: false, places: &[] })))
}

/// A def read: a [`Def::Ref`] where a number stands for a kept tool (an update's text), else
/// [`Def::of`].
fn read_def(def: Value, with: &TextReading<'_>, text: Option<SourceText<'_>>) -> (Def, Option<Format>) {
    match &def {
        Value::Number(n) if with.refs => match n.parse::<usize>() {
            Ok(at) => (Def::Ref(at), None),
            Err(_) => Def::of(def, with.forced, text),
        },
        _ => Def::of(def, with.forced, text),
    }
}

fn expected_list(path: &str, got: &Value) -> Error {
    Error::new(ErrorCode::InvalidToolbox, format!("{path}: expected a list of tools, got {}", got.kind()))
}

fn detect_format(entries: &[Source], warnings: &mut Vec<String>) -> Result<Format, Error> {
    let mut found: Option<(Format, &Source)> = None;
    for entry in entries {
        let Some(format) = entry.detected() else {
            continue;
        };
        match found {
            None => found = Some((format, entry)),
            Some((first, first_entry)) if first != format => {
                return Err(Error::new(
                    ErrorCode::MixedFormats,
                    format!(
                        "{}: a tool in {} format, but {} is in {} format; all tools of one toolbox share one format",
                        entry.path(),
                        format.as_str(),
                        first_entry.path(),
                        first.as_str()
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    match found {
        Some((format, _)) => Ok(format),
        None => {
            if !entries.is_empty() {
                warnings.push("toolbox: the tool format could not be detected; reading tools as gemini-style {name, description, parameters} (pass the format option)".into());
            }
            Ok(Format::Gemini)
        }
    }
}

#[inline(never)]
fn read_tool(entry: Entry, format: Format) -> Result<Tool, Error> {
    let reading = match entry.def {
        // `sources` resolves every reference; one left is read as the number it is.
        Def::Ref(at) => return Err(not_a_tool(&entry.origin.path(entry.server.as_deref()), &Value::uint(at as u64))),
        Def::Read(reading) if reading.format == format => *reading,
        Def::Read(reading) => Reading::of(crate::json::parse(&reading.json).unwrap_or(Value::Null), format, None),
        Def::Whole(def) if !def.is_object() => {
            let path = entry.origin.path(entry.server.as_deref());
            return Err(Error::new(
                ErrorCode::InvalidTool,
                format!("{path}: a tool must be an object, got {}", def.kind()),
            ));
        }
        Def::Whole(def) => Reading::of(def, format, None),
    };
    let Some(name) = reading.name else {
        let path = entry.origin.path(entry.server.as_deref());
        let message = format!("{path}: a tool in {} format needs a non-empty string \"name\"", format.as_str());
        return Err(Error::new(ErrorCode::InvalidTool, message));
    };
    let (server, own_name) = match entry.server {
        Some(server) => (Some(server), reading.untrimmed.unwrap_or_else(|| name.clone())),
        None => match split_mcp_name(&name) {
            Some((server, tool)) => (Some(server.to_string()), tool.to_string()),
            None => (None, name.clone()),
        },
    };
    // A server's tool is likely to be qualified: room for its qualified name, which `qualify` then
    // writes in place of this one.
    let room = server.as_ref().filter(|_| matches!(entry.origin, Origin::Server(_))).map_or(0, |s| s.len() + 7);
    let mut name_text = String::with_capacity(name.len() + room);
    name_text.push_str(&name);
    Ok(Tool {
        name: name_text,
        deferred: server.is_some(),
        server,
        own_name,
        description: reading.description,
        size: reading.size,
        def_json: reading.json,
        outline: Outline::Read(reading.places),
        position: entry.position,
        origin: entry.origin,
        renamed: false,
        read_as: format,
        detected: entry.detected,
        always_load: Some(reading.always_load),
    })
}

/// The error for a def at `path` that is not an object.
fn not_a_tool(path: &str, def: &Value) -> Error {
    Error::new(ErrorCode::InvalidTool, format!("{path}: a tool must be an object, got {}", def.kind()))
}

/// `mcp__<server>__<tool>` → `(server, tool)`, both non-empty.
pub fn split_mcp_name(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("mcp__")?;
    let (server, tool) = crate::wire::split_at_separator(rest)?;
    (!server.is_empty() && !tool.is_empty()).then_some((server, tool))
}

/// Which tools `alwaysLoad` keeps direct and `defer` defers (SPEC §2.2, per tool as well as per
/// server). An entry names a server (all its tools), one tool of a server as `server/tool`, or
/// tools by name (a server's tool by its name or its own name; for `defer`, also a direct tool of
/// the caller's, which goes under server `builtin`). For a server's tool the more precise entry
/// wins, and `defer` wins a tie. Each list is sorted once; the tools are read in one pass.
fn apply_load_choices(tools: &mut [Tool], options: &Options, warnings: &mut Vec<String>) {
    let mut keep = Entries::of(&options.always_load);
    let mut defer = Entries::of(&options.defer);
    let mut key = String::new();
    for tool in tools.iter_mut() {
        let Some(server) = tool.server.as_deref() else { continue };
        let kept = keep.precision(tool, server, &mut key).max(if asks_always_load(tool) { 2 } else { 0 });
        let deferred = defer.precision(tool, server, &mut key);
        if kept > deferred {
            tool.deferred = false;
        } else if deferred > 0 {
            tool.deferred = true;
        }
    }
    defer_own_tools(tools, &mut defer);
    keep.warn_unused("alwaysLoad", warnings);
    defer.warn_unused("defer", warnings);
}

/// Whether the server marks `tool` to stay direct (`_meta["anthropic/alwaysLoad"]: true`, as
/// Claude Code reads it): as an `alwaysLoad` entry naming the tool itself. Seen when the def was
/// read; a loaded tool's def is read only when its text holds the key.
fn asks_always_load(tool: &Tool) -> bool {
    if let Some(asked) = tool.always_load {
        return asked;
    }
    if crate::swar::find(tool.def_json.as_bytes(), ALWAYS_LOAD_KEY.as_bytes()).is_none() {
        return false;
    }
    // The def's top and its `_meta`'s members (two levels), read as reading the def reads them.
    Reader::new(&tool.def_json).outline_with_text(0, 2).is_ok_and(|(def, _, _)| marks_always_load(&def))
}

/// The entries of `alwaysLoad` or `defer`, sorted for lookup, each marked once it names a tool.
struct Entries<'a> {
    names: &'a [String],
    order: Vec<(&'a str, usize)>,
    used: Vec<bool>,
    /// True when an entry holds `/` (only then is a tool's `server/tool` key made).
    paths: bool,
}

impl<'a> Entries<'a> {
    fn of(names: &'a [String]) -> Entries<'a> {
        let paths = names.iter().any(|n| n.contains('/'));
        Entries { names, order: sorted_names(names), used: alloc::vec![false; names.len()], paths }
    }

    /// How precisely the entries name `tool` of `server`: 0 not at all, 1 by its server, 2 by
    /// itself (`server/tool`, its name or its own name). `key` is scratch space.
    fn precision(&mut self, tool: &Tool, server: &str, key: &mut String) -> u8 {
        let mut precision = u8::from(self.mark(server));
        if self.mark(&tool.name) | (tool.own_name != tool.name && self.mark(&tool.own_name)) {
            precision = 2;
        }
        if self.paths {
            key.clear();
            key.push_str(server);
            key.push('/');
            key.push_str(&tool.own_name);
            if self.mark(key) {
                precision = 2;
            }
        }
        precision
    }

    /// True when an entry is `name` (and that entry is then used).
    fn mark(&mut self, name: &str) -> bool {
        let at = swar::last_named(&self.order, name);
        at.and_then(|at| self.used.get_mut(at)).map(|used| *used = true).is_some()
    }

    fn warn_unused(&self, option: &str, warnings: &mut Vec<String>) {
        for name in self.names {
            let used = swar::last_named(&self.order, name).and_then(|at| self.used.get(at));
            if !used.is_some_and(|used| *used) {
                warnings.push(format!("{option}: no server or tool named \"{name}\""));
            }
        }
    }
}

/// Defers the caller's own direct tools the `defer` entries name, each entry the next such tool of
/// that name in input order, under server `builtin`: the candidates gathered per name, not a scan
/// of every tool per entry.
fn defer_own_tools(tools: &mut [Tool], defer: &mut Entries<'_>) {
    let mut candidates: Vec<Vec<usize>> = alloc::vec![Vec::new(); defer.names.len()];
    for (i, tool) in tools.iter().enumerate().rev() {
        if tool.deferred || tool.server.is_some() {
            continue;
        }
        if let Some(list) = swar::last_named(&defer.order, &tool.name).and_then(|at| candidates.get_mut(at)) {
            list.push(i); // reversed: the first in input order is popped first
        }
    }
    for name in defer.names {
        let Some(at) = swar::last_named(&defer.order, name) else { continue };
        let next = candidates.get_mut(at).and_then(Vec::pop).and_then(|i| tools.get_mut(i));
        if let Some(tool) = next {
            tool.deferred = true;
            tool.server = Some(BUILTIN_SERVER.into());
            if let Some(used) = defer.used.get_mut(at) {
                *used = true;
            }
        }
    }
}

/// `(name, index)` of each of `names`, sorted for [`swar::last_named`].
fn sorted_names(names: &[String]) -> Vec<(&str, usize)> {
    let mut order: Vec<(&str, usize)> = names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    swar::sort_names(&mut order);
    order
}

/// `qualify: true` (SPEC §16): every server's tool, deferred or kept direct, goes by its shown
/// name ([`qualified_name`]), whatever else the toolbox holds.
fn qualify(tools: &mut [Tool]) {
    tools.iter_mut().filter(|t| t.server.is_some()).for_each(rename_shown);
}

/// Renames a server's tool to its shown name when its name is another (a flat list's
/// `mcp__<server>__<tool>` that is not the shown form included).
fn rename_shown(tool: &mut Tool) {
    let Some(server) = &tool.server else { return };
    let shown = qualified_name(server, &tool.own_name);
    if shown != tool.name {
        tool.name = shown;
        tool.renamed = true;
    }
}

/// `qualify: auto`: qualifies the tools of the grouped form (deferred, or kept direct by
/// `alwaysLoad`) whose name another tool of the toolbox also has, and says so in one warning.
fn qualify_clashes(tools: &mut [Tool], warnings: &mut Vec<String>) {
    let clashing = clashing_tools(tools);
    if clashing.is_empty() {
        return;
    }
    let mut names: Vec<String> = clashing.iter().filter_map(|&i| tools.get(i)).map(|t| t.name.clone()).collect();
    names.dedup();
    clashing.iter().for_each(|&i| tools.get_mut(i).into_iter().for_each(rename_qualified));
    warnings.push(crate::texts::qualified_clashes(&names, clashing.len()));
}

/// The indexes of the tools of the grouped form whose name another tool also has, in name order
/// (one sort: n·log n): the deferred ones; a server's tool kept direct only when another direct
/// tool has its name too (one direct tool of a name keeps it).
fn clashing_tools(tools: &[Tool]) -> Vec<usize> {
    let order = order_by(tools, |t| &t.name, |_| true);
    let groups = order.chunk_by(|a, b| a.0 == b.0).filter(|group| group.len() > 1);
    let mut clashing = Vec::new();
    for group in groups {
        let direct = group.iter().filter(|&&(_, i)| tools.get(i).is_some_and(|t| !t.deferred)).count();
        let renamed = group
            .iter()
            .map(|&(_, i)| i)
            .filter(|&i| tools.get(i).is_some_and(|t| is_qualifiable(t) && (t.deferred || direct > 1)));
        clashing.extend(renamed);
    }
    clashing
}

/// `(key, index)` of the tools `keep` admits, in code-point order of keys, ties in input order. Every
/// order the catalog needs goes through this one sort, so the `.wasm` carries its code once.
fn order_by(tools: &[Tool], key: fn(&Tool) -> &str, keep: fn(&Tool) -> bool) -> Vec<(&str, usize)> {
    let mut order: Vec<(&str, usize)> =
        tools.iter().enumerate().filter(|(_, t)| keep(t)).map(|(i, t)| (key(t), i)).collect();
    swar::sort_names(&mut order);
    order
}

/// A tool of the grouped form (a server's) not already named `mcp__<server>__<tool>`.
fn is_qualifiable(tool: &Tool) -> bool {
    matches!(tool.origin, Origin::Server(_)) && split_mcp_name(&tool.name).is_none()
}

/// Renames a qualifiable tool to `mcp__<server>__<tool>`; leaves any other tool as it is.
fn rename_qualified(tool: &mut Tool) {
    if is_qualifiable(tool) {
        rename_shown(tool);
    }
}

/// A server's tool known under another name than its own (qualified): what `by_own_name` holds.
fn is_known_by_other_name(tool: &Tool) -> bool {
    tool.server.is_some() && !swar::same(tool.name.as_bytes(), tool.own_name.as_bytes())
}

/// Whether `order` (indexes of `tools`, each within it) is in the order [`swar::sort_names`] gives
/// by `key`: names ascending, strictly (each once), or with `ties` equal ones in index order.
fn ascending(tools: &[Tool], order: &[usize], key: fn(&Tool) -> &str, ties: bool) -> bool {
    let pair = |i: usize| tools.get(i).map(|t| (key(t), i));
    order.iter().all(|&i| i < tools.len())
        && order.windows(2).all(|w| match (w.first().and_then(|&i| pair(i)), w.get(1).and_then(|&i| pair(i))) {
            (Some((a, i)), Some((b, j))) => match swar::compare(a.as_bytes(), b.as_bytes()) {
                core::cmp::Ordering::Less => true,
                core::cmp::Ordering::Equal => ties && i < j,
                core::cmp::Ordering::Greater => false,
            },
            _ => false,
        })
}

/// The indexes of the servers' tools whose name is not their own name, in code-point order of own
/// names.
fn index_own_names(tools: &[Tool]) -> Vec<usize> {
    order_by(tools, |t| &t.own_name, is_known_by_other_name).into_iter().map(|(_, i)| i).collect()
}

/// The name a server's tool is shown under: [`crate::wire::tool_name`], the one maker of it.
pub fn qualified_name(server: &str, tool: &str) -> String {
    crate::wire::tool_name(server, tool)
}

/// Tools whose own shape is of another format than the one forced (`format`): read as the forced
/// one, their fields (a schema under another key) may be missed, so validation is off for them.
#[derive(Default)]
struct Misread {
    count: usize,
    first: Option<(String, Format)>,
}

impl Misread {
    fn note(&mut self, tool: &Tool, forced: Option<Format>) {
        if let (Some(forced), Some(own)) = (forced, tool.detected) {
            if own != forced {
                self.count += 1;
                self.first.get_or_insert_with(|| (tool.path(), own));
            }
        }
    }

    fn warn(self, forced: Format, warnings: &mut Vec<String>) {
        if let Some((path, own)) = self.first {
            warnings.push(texts::format_misread(forced.as_str(), self.count, own.as_str(), &path));
        }
    }
}

/// Whether a bridge-named tool is one of the bridge tools toolshelf writes (an assembly given back
/// as input: dropped, so that assembling is idempotent), rather than a real tool of that name.
fn is_bridge_tool(tool: &Tool, options: &Options) -> bool {
    let names = &options.bridge_names;
    !tool.deferred
        && (tool.name == names.search && texts::is_search_description(&tool.description)
            || tool.name == names.describe
                && [false, true].iter().any(|&batch| tool.description == texts::describe_description(names, batch))
            || tool.name == names.call && tool.description == texts::call_description(names))
}

/// The first deferred tool (in input order) that is the same real tool (server and own name) as
/// an earlier one, under another name (`mcp__gh__foo` in the flat list beside `gh: [foo]`): the
/// model would see two tools routed to one, each validated against its own schema.
fn same_real_tool(tools: &[Tool]) -> Result<(), Error> {
    let keys: Vec<String> = tools
        .iter()
        .map(|t| match (&t.server, t.deferred) {
            (Some(server), true) => format!("{server}\u{0}{}", t.own_name),
            _ => String::new(),
        })
        .collect();
    let mut order: Vec<(&str, usize)> =
        keys.iter().enumerate().filter(|(_, k)| !k.is_empty()).map(|(i, k)| (k.as_str(), i)).collect();
    swar::sort_names(&mut order);
    match first_repeat(&order).map(|(later, first)| (tools.get(later), tools.get(first))) {
        Some((Some(later), Some(first))) => Err(Error::new(
            ErrorCode::DuplicateTool,
            format!(
                "{}: tool \"{}\" of server \"{}\" is also at {} (as \"{}\"); give each real tool once",
                later.path(),
                later.own_name,
                later.server.as_deref().unwrap_or_default(),
                first.path(),
                first.name
            ),
        )),
        _ => Ok(()),
    }
}

/// In `order` sorted by [`swar::sort_names`], the first position (in input order) whose key an
/// earlier position has, with that earlier one: per key, the second position is the first to
/// repeat it, and the least of those is the error to report.
fn first_repeat(order: &[(&str, usize)]) -> Option<(usize, usize)> {
    order
        .chunk_by(|a, b| a.0 == b.0)
        .filter_map(|group| match group {
            [(_, first), (_, second), ..] => Some((*second, *first)),
            _ => None,
        })
        .min()
}

/// The indexes of `tools` in code-point order of names, or the error for the first tool (in input
/// order) whose name an earlier one has.
fn index_names(tools: &[Tool]) -> Result<Vec<usize>, Error> {
    let order = order_by(tools, |t| &t.name, |_| true);
    if let Some((Some(tool), Some(first))) =
        first_repeat(&order).map(|(later, first)| (tools.get(later), tools.get(first)))
    {
        return Err(Error::new(
            ErrorCode::DuplicateTool,
            format!(
                "{}: duplicate tool name \"{}\", also at {}; names must be unique (qualify: true prefixes deferred tools with their server)",
                tool.path(),
                tool.name,
                first.path()
            ),
        ));
    }
    Ok(order.into_iter().map(|(_, i)| i).collect())
}

/// The servers of the deferred tools, in code-point order, each with its tools in name order
/// (`by_name`'s order).
fn group_servers(tools: &[Tool], by_name: &[usize]) -> Vec<Server> {
    // (server, rank in name order) through the names' one sort (a map of its own is kilobytes of
    // `.wasm`): servers in code-point order, each one's tools in name order.
    let mut order: Vec<(&str, usize)> = Vec::new();
    for (rank, &i) in by_name.iter().enumerate() {
        if let Some(Tool { deferred: true, server: Some(server), .. }) = tools.get(i) {
            order.push((server, rank));
        }
    }
    crate::swar::sort_names(&mut order);
    let mut servers: Vec<Server> = Vec::new();
    for (name, rank) in order {
        let Some(&i) = by_name.get(rank) else { continue };
        match servers.last_mut() {
            Some(server) if server.name == name => server.tools.push(i),
            _ => servers.push(Server { name: String::from(name), tools: alloc::vec![i] }),
        }
    }
    servers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::is_tool_name;

    #[test]
    fn qualified_names_are_valid_everywhere() {
        assert_eq!(qualified_name("github", "create_issue"), "mcp__github__create_issue");
        assert_eq!(qualified_name("12306-mcp", "get-tickets"), "mcp__12306-mcp__get-tickets");
        let long = qualified_name("cloudflare", "dns-records-for-a-zone-import-dns-records-from-a-zone-file");
        assert_eq!(long.len(), 64);
        assert!(long.starts_with("mcp__cloudflare__dns-records-for-a-zone-import-dns-re"), "{long}");
        assert_ne!(long, qualified_name("cloudflare", "dns-records-for-a-zone-import-dns-records-from-a-zone-filx"));
        for name in [long.as_str(), &qualified_name("Ant Design Components", "get-docs")] {
            assert!(is_tool_name(name), "{name}");
        }
    }

    #[test]
    fn a_server_named_twice_keeps_its_first_place_and_its_last_list() {
        let tool = |n: &str| format!(r#"{{"name":"{n}","parameters":{{}}}}"#);
        let text = format!(
            r#"{{"servers":{{"b":[{}],"a":[{}],"b":[{}],"c":[{}],"b":[{}]}}}}"#,
            tool("b1"),
            tool("a1"),
            tool("b2"),
            tool("c1"),
            tool("b3")
        );
        let by_text = Catalog::parse_json(&text, &Options::default()).unwrap();
        let by_value = Catalog::parse(crate::json::parse(&text).unwrap(), &Options::default()).unwrap();
        for catalog in [&by_text, &by_value] {
            let names: Vec<&str> = catalog.tools.iter().map(|t| t.own_name.as_str()).collect();
            assert_eq!(names, ["b3", "a1", "c1"], "JSON.parse keeps b's first place and last value");
        }
    }

    #[test]
    fn the_first_repeated_name_in_input_order_is_the_error() {
        let toolbox = |names: &[&str]| {
            let tools = names.iter().map(|n| format!(r#"{{"name":"{n}","parameters":{{}}}}"#));
            crate::json::parse(&format!("[{}]", tools.collect::<Vec<_>>().join(","))).unwrap()
        };
        for (names, message) in [
            (&["a", "b", "b", "a"][..], "[2]: duplicate tool name \"b\", also at [1]"),
            (&["a", "b", "a", "b", "b"][..], "[2]: duplicate tool name \"a\", also at [0]"),
            (&["z", "y", "x", "y", "z", "z"][..], "[3]: duplicate tool name \"y\", also at [1]"),
        ] {
            let error = Catalog::parse(toolbox(names), &Options::default()).unwrap_err();
            assert!(error.message.starts_with(message), "{names:?}: {}", error.message);
        }
        let catalog = Catalog::parse(toolbox(&["b", "é", "a", "B", "ab"]), &Options::default()).unwrap();
        assert_eq!(catalog.names().collect::<Vec<_>>(), ["B", "a", "ab", "b", "é"]);
        for (i, name) in ["b", "é", "a", "B", "ab"].into_iter().enumerate() {
            assert_eq!(catalog.get(name).map(|t| t.position), Some(i), "{name}");
        }
        for name in ["", "c", "A", "aa", "é "] {
            assert!(catalog.get(name).is_none(), "{name}");
        }
    }

    /// Reading the text one def at a time gives what parsing it whole and reading the value gives:
    /// the same tools, or the same error (shape errors in the same order, syntax errors first).
    #[test]
    #[allow(clippy::useless_format)] // every case written alike
    fn text_and_value_read_alike() {
        let def = |name: &str| {
            format!(
                r#"{{"type":"function","function":{{"name":"{name}","parameters":{{"type":"object","properties":{{"a":{{}}}},"required":["a",1]}}}}}}"#
            )
        };
        let (a, b) = (def("a"), def("b"));
        let texts = [
            format!("[{a},{b}]"),
            format!(r#"{{"tools":[{a}],"servers":{{"s":[{b}]}}}}"#),
            format!(r#"{{"servers":{{"s":[{a}],"s":[{b}]}},"tools":[]}}"#),
            format!(r#"{{"tools":5,"tools":[{a}]}}"#),
            format!(r#"{{"x":1,"tools":5}}"#),
            format!(r#"{{"tools":5,"servers":[]}}"#),
            format!(r#"{{"servers":{{"s":5,"":[]}}}}"#),
            format!(r#"{{"servers":{{"":[],"s":5}}}}"#),
            format!(r#"{{"tools":null,"servers":null}}"#),
            format!(r#"{{"tools":5,"servers":{{"s":[{a}]}} x"#),
            format!(r#"[{a},5,{{"name":""}}]"#),
            format!(r#"[{{"name":"g","parameters":{{}}}},{{"name":"h"}}]"#),
            format!(r#"[{a},{{"name":"x","input_schema":{{}}}}]"#),
            format!("[{}]", "[".repeat(130) + &"]".repeat(130)),
            String::from("\"text\""),
            format!(r#"  {{ "tools" : [ {a} , {b} ] }}  "#),
        ];
        for text in &texts {
            for options in [Options::default(), Options { format: Some(Format::Gemini), ..Options::default() }] {
                let whole =
                    parse_input(text, "toolbox", ErrorCode::InvalidToolbox).and_then(|v| Catalog::parse(v, &options));
                let streamed = Catalog::parse_json(text, &options);
                let kept = Catalog::parse_text(text.clone(), &options);
                assert_eq!(streamed.as_ref().err(), kept.as_ref().err(), "{text}");
                if let (Ok(streamed), Ok(kept)) = (&streamed, &kept) {
                    let texts = |c: &Catalog| c.tools.iter().map(|t| t.def_json.to_string()).collect::<Vec<_>>();
                    assert_eq!(texts(streamed), texts(kept), "{text}");
                }
                match (whole, streamed) {
                    (Ok(w), Ok(s)) => {
                        let tools = |c: &Catalog| {
                            c.tools
                                .iter()
                                .map(|t| {
                                    format!(
                                        "{}|{:?}|{}|{}|{:?}",
                                        t.name,
                                        t.server,
                                        t.def_json.as_str(),
                                        t.size,
                                        t.outline
                                    )
                                })
                                .collect::<Vec<_>>()
                        };
                        assert_eq!(tools(&w), tools(&s), "{text}");
                        assert_eq!(w.warnings, s.warnings, "{text}");
                    }
                    (Err(w), Err(s)) => assert_eq!(w, s, "{text}"),
                    (w, s) => panic!("{text}: {:?} against {:?}", w.map(|_| ()), s.map(|_| ())),
                }
            }
        }
    }

    /// SPEC §16: the shown name is a pure function of (server, tool), every provider accepts it,
    /// and no two pairs share it, whatever characters they hold (sanitise-alike servers, CJK
    /// names, names past 64, `__` inside names).
    #[test]
    fn qualified_names_are_injective_over_odd_pairs() {
        let x52 = "x".repeat(52);
        let (e30, u30) = ("é".repeat(30), "ü".repeat(30));
        let pairs: [(&str, &str); 16] = [
            ("my server", "search"),
            ("my_server", "search"),
            ("notes.v1", "get"),
            ("notes/v1", "get"),
            ("12306-mcp", "查询车票"),
            ("12306-mcp", "查询车次"),
            ("a", "b__c"),
            ("a__b", "c"),
            ("a", "_b"),
            ("a_", "b"),
            ("server", &x52),
            ("server", "x-0123abcd"),
            (&e30, &u30),
            ("日本語", "ツール"),
            ("😀", "a😀b"),
            ("s-1e2f3a4b", "t"),
        ];
        let mut names: Vec<String> = pairs.iter().map(|(s, t)| qualified_name(s, t)).collect();
        for (name, (server, tool)) in names.iter().zip(pairs) {
            assert!(is_tool_name(name), "{server:?} {tool:?}: {name}");
            assert_eq!(*name, qualified_name(server, tool), "the same every time");
            let (part, _) = name.strip_prefix("mcp__").and_then(|r| r.split_once("__")).unwrap();
            assert_eq!(part, crate::wire::server_part(server), "the first `__` ends the server's part: {name}");
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), pairs.len(), "{names:?}");
    }
}
