//! The toolbox of SPEC §2.2 read into a catalog: every tool with its name, server, own name,
//! description, schema and size; direct and deferred tools told apart; errors with a path.

use crate::error::{Error, ErrorCode};
use crate::format::Format;
use crate::json::Value;
use crate::options::{Options, Switch};
use crate::swar;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
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
    /// The tool def as given.
    pub def: Value,
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

    /// The parameters schema, if the def has one.
    pub fn schema(&self, format: Format) -> Option<&Value> {
        format.fields(&self.def).schema
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
    /// Servers with deferred tools, in code-point order of names.
    pub servers: Vec<Server>,
    /// Non-fatal problems (an `alwaysLoad` server that does not exist, an undetectable format).
    pub warnings: Vec<String>,
    /// Indexes into `tools`, in code-point order of names (which are unique).
    by_name: Vec<usize>,
    /// Indexes of the deferred tools known under another name than their own (qualified), in
    /// code-point order of own names: what [`Catalog::lookup`] searches.
    by_own_name: Vec<usize>,
}

impl Catalog {
    /// Reads a toolbox: a list of tool defs, or `{tools, servers}`.
    pub fn parse(toolbox: Value, options: &Options) -> Result<Catalog, Error> {
        let entries = flatten(toolbox)?;
        if entries.len() > MAX_TOOLS {
            return Err(Error::new(
                ErrorCode::TooLarge,
                format!("toolbox: {} tools, more than {MAX_TOOLS}", entries.len()),
            ));
        }
        let mut warnings = Vec::new();
        let format = match options.format {
            Some(format) => format,
            None => detect_format(&entries, &mut warnings)?,
        };
        let mut tools = Vec::with_capacity(entries.len());
        for entry in entries {
            let tool = read_tool(entry, format)?;
            if !options.bridge_names.contains(&tool.name) {
                tools.push(tool);
            }
        }
        apply_always_load(&mut tools, &options.always_load, &mut warnings);
        apply_defer(&mut tools, &options.defer, &mut warnings);
        match options.qualify {
            Switch::On => qualify(&mut tools),
            Switch::Auto => qualify_clashes(&mut tools, &mut warnings),
            Switch::Off => {}
        }
        let by_name = index_names(&tools)?;
        let servers = group_servers(&tools, &by_name);
        let by_own_name = index_own_names(&tools);
        Ok(Catalog { format, tools, servers, warnings, by_name, by_own_name })
    }

    /// Reads a toolbox from JSON text.
    pub fn parse_json(text: &str, options: &Options) -> Result<Catalog, Error> {
        Catalog::parse(parse_input(text, "toolbox", ErrorCode::InvalidToolbox)?, options)
    }

    /// The tool the model knows as `name`.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        let found = self.by_name.binary_search_by(|&i| self.tools.get(i).map(|t| t.name.as_str()).cmp(&Some(name)));
        found.ok().and_then(|at| self.by_name.get(at)).and_then(|&i| self.tools.get(i))
    }

    /// The tool the model knows as `name`, or else the one deferred tool whose own (server-side)
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

    /// Every tool name, in code-point order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.by_name.iter().filter_map(|&i| self.tools.get(i)).map(|t| t.name.as_str())
    }
}

/// Parses JSON input, mapping a syntax error to `code` and a too-deep input to `too_large`.
pub fn parse_input(text: &str, what: &str, code: ErrorCode) -> Result<Value, Error> {
    crate::json::parse(text).map_err(|e| {
        let code = if e.too_deep { ErrorCode::TooLarge } else { code };
        Error::new(code, format!("{what}: {} at byte {}", e.message, e.offset))
    })
}

/// One tool def as found in the input, before reading.
struct Entry {
    def: Value,
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

fn flatten(toolbox: Value) -> Result<Vec<Entry>, Error> {
    match toolbox {
        Value::Array(items) => Ok(items
            .into_iter()
            .enumerate()
            .map(|(i, def)| Entry { def, origin: Origin::List(i), server: None, position: i })
            .collect()),
        Value::Object(members) => flatten_grouped(members),
        other => Err(Error::new(
            ErrorCode::InvalidToolbox,
            format!("toolbox: expected a list of tools or {{tools, servers}}, got {}", kind(&other)),
        )),
    }
}

fn flatten_grouped(members: Vec<(String, Value)>) -> Result<Vec<Entry>, Error> {
    if let Some((key, _)) = members.iter().find(|(k, _)| k != "tools" && k != "servers") {
        return Err(Error::new(
            ErrorCode::InvalidToolbox,
            format!("toolbox: unknown key \"{key}\" (expected \"tools\" and \"servers\")"),
        ));
    }
    let (mut tools, mut servers) = (Value::Null, Value::Null);
    for (key, value) in members {
        if key == "tools" {
            tools = value;
        } else {
            servers = value;
        }
    }
    let mut entries = Vec::new();
    match tools {
        Value::Null => {}
        Value::Array(list) => {
            for (i, def) in list.into_iter().enumerate() {
                entries.push(Entry { def, origin: Origin::Tools(i), server: None, position: entries.len() });
            }
        }
        other => return Err(expected_list("tools", &other)),
    }
    let servers = match servers {
        Value::Null => Vec::new(),
        Value::Object(servers) => servers,
        other => {
            let message = format!("servers: expected an object of server name → tools, got {}", kind(&other));
            return Err(Error::new(ErrorCode::InvalidToolbox, message));
        }
    };
    for (server, tools) in servers {
        if server.is_empty() {
            return Err(Error::new(ErrorCode::InvalidToolbox, "servers: a server name is empty"));
        }
        let Value::Array(list) = tools else {
            return Err(expected_list(&format!("servers.{server}"), &tools));
        };
        for (i, def) in list.into_iter().enumerate() {
            let origin = Origin::Server(i);
            entries.push(Entry { def, origin, server: Some(server.clone()), position: entries.len() });
        }
    }
    Ok(entries)
}

fn expected_list(path: &str, got: &Value) -> Error {
    Error::new(ErrorCode::InvalidToolbox, format!("{path}: expected a list of tools, got {}", kind(got)))
}

/// A word for the JSON type of `value`, for messages.
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn detect_format(entries: &[Entry], warnings: &mut Vec<String>) -> Result<Format, Error> {
    let mut found: Option<(Format, &Entry)> = None;
    for entry in entries {
        let Some(format) = Format::detect(&entry.def) else {
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

fn read_tool(entry: Entry, format: Format) -> Result<Tool, Error> {
    if !entry.def.is_object() {
        return Err(Error::new(
            ErrorCode::InvalidTool,
            format!("{}: a tool must be an object, got {}", entry.path(), kind(&entry.def)),
        ));
    }
    let fields = format.fields(&entry.def);
    let name = fields.name.map(str::trim).filter(|n| !n.is_empty()).ok_or_else(|| {
        Error::new(
            ErrorCode::InvalidTool,
            format!("{}: a tool in {} format needs a non-empty string \"name\"", entry.path(), format.as_str()),
        )
    })?;
    let (server, own_name) = match entry.server {
        Some(server) => (Some(server), name.to_string()),
        None => match split_mcp_name(name) {
            Some((server, tool)) => (Some(server.to_string()), tool.to_string()),
            None => (None, name.to_string()),
        },
    };
    // A server's tool is likely to be qualified: room for its qualified name, which `qualify` then
    // writes in place of this one.
    let room = server.as_ref().filter(|_| matches!(entry.origin, Origin::Server(_))).map_or(0, |s| s.len() + 7);
    let mut name_text = String::with_capacity(name.len() + room);
    name_text.push_str(name);
    let (name, description) = (name_text, fields.description.unwrap_or("").to_string());
    Ok(Tool {
        name,
        deferred: server.is_some(),
        server,
        own_name,
        description,
        size: entry.def.json_code_points(),
        def: entry.def,
        position: entry.position,
        origin: entry.origin,
        renamed: false,
    })
}

/// `mcp__<server>__<tool>` → `(server, tool)`, both non-empty.
pub fn split_mcp_name(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("mcp__")?;
    let (server, tool) = rest.split_once("__")?;
    (!server.is_empty() && !tool.is_empty()).then_some((server, tool))
}

fn apply_always_load(tools: &mut [Tool], servers: &[String], warnings: &mut Vec<String>) {
    for server in servers {
        let mut found = false;
        for tool in tools.iter_mut().filter(|t| t.server.as_deref() == Some(server.as_str())) {
            tool.deferred = false;
            found = true;
        }
        if !found {
            warnings.push(format!("alwaysLoad: no server named \"{server}\""));
        }
    }
}

fn apply_defer(tools: &mut [Tool], names: &[String], warnings: &mut Vec<String>) {
    for name in names {
        match tools.iter_mut().find(|t| !t.deferred && t.server.is_none() && t.name == *name) {
            Some(tool) => {
                tool.deferred = true;
                tool.server = Some(BUILTIN_SERVER.into());
            }
            None => warnings.push(format!("defer: no direct tool named \"{name}\"")),
        }
    }
}

/// Gives deferred tools of the grouped form the name `mcp__<server>__<tool>` ([`qualified_name`]).
fn qualify(tools: &mut [Tool]) {
    tools.iter_mut().for_each(rename_qualified);
}

/// `qualify: auto`: qualifies the grouped deferred tools whose name another tool of the toolbox
/// also has, and says so in one warning.
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

/// The indexes of the grouped deferred tools whose name another tool also has, in name order
/// (one sort: n·log n).
fn clashing_tools(tools: &[Tool]) -> Vec<usize> {
    order_by(tools, |t| &t.name, |_| true)
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|group| group.len() > 1)
        .flatten()
        .map(|&(_, i)| i)
        .filter(|&i| tools.get(i).is_some_and(is_qualifiable))
        .collect()
}

/// `(key, index)` of the tools `keep` admits, in code-point order of keys, ties in input order. Every
/// order the catalog needs goes through this one sort, so the `.wasm` carries its code once.
fn order_by(tools: &[Tool], key: fn(&Tool) -> &str, keep: fn(&Tool) -> bool) -> Vec<(&str, usize)> {
    let mut order: Vec<(&str, usize)> =
        tools.iter().enumerate().filter(|(_, t)| keep(t)).map(|(i, t)| (key(t), i)).collect();
    order.sort_unstable_by(|a, b| swar::compare(a.0.as_bytes(), b.0.as_bytes()).then(a.1.cmp(&b.1)));
    order
}

/// A deferred tool of the grouped form not already named `mcp__<server>__<tool>`.
fn is_qualifiable(tool: &Tool) -> bool {
    tool.deferred && matches!(tool.origin, Origin::Server(_)) && split_mcp_name(&tool.name).is_none()
}

/// Renames a qualifiable tool to `mcp__<server>__<tool>`; leaves any other tool as it is.
fn rename_qualified(tool: &mut Tool) {
    if !is_qualifiable(tool) {
        return;
    }
    if let Some(server) = &tool.server {
        tool.name.clear();
        push_qualified_name(&mut tool.name, server, &tool.own_name);
        tool.renamed = true;
    }
}

/// The indexes of the deferred tools whose name is not their own name, in code-point order of own
/// names.
fn index_own_names(tools: &[Tool]) -> Vec<usize> {
    order_by(tools, |t| &t.own_name, |t| t.deferred && t.name != t.own_name).into_iter().map(|(_, i)| i).collect()
}

/// Most code points of a tool name every provider accepts.
const MAX_NAME: usize = 64;

/// `mcp__<server>__<tool>` made a name every provider accepts (`^[a-zA-Z0-9_-]{1,64}$`): other
/// characters become `_`, and a name over 64 keeps its first 55 characters plus `_` and 8 hex
/// digits of a hash of the whole name, so it stays unique and stable.
pub fn qualified_name(server: &str, tool: &str) -> String {
    let mut name = String::with_capacity(MAX_NAME.min(7 + server.len() + tool.len()));
    push_qualified_name(&mut name, server, tool);
    name
}

/// Writes [`qualified_name`] into `name`, which is empty.
fn push_qualified_name(name: &mut String, server: &str, tool: &str) {
    name.push_str("mcp__");
    push_safe(name, server);
    name.push_str("__");
    push_safe(name, tool);
    if name.len() <= MAX_NAME {
        return;
    }
    // The first 8 of the hash's 16 hex digits: its high 32 bits.
    let hash = crate::assemble::fnv1a(name.as_bytes()) >> 32;
    // Every character pushed is ASCII, so any length is a char boundary.
    name.truncate(MAX_NAME - 9);
    name.push('_');
    crate::assemble::push_hex(name, hash, 8);
}

/// Pushes `text` with every character but ASCII letters, digits, `-` and `_` written as one `_`:
/// runs of those characters in one copy each.
fn push_safe(name: &mut String, text: &str) {
    let mut rest = text;
    loop {
        let run = safe_prefix_length(rest);
        name.push_str(rest.get(..run).unwrap_or_default());
        let mut after = rest.get(run..).unwrap_or_default().chars();
        if after.next().is_none() {
            return;
        }
        name.push('_');
        rest = after.as_str();
    }
}

/// The bytes a qualified name keeps as they are: ASCII letters, digits, `-` and `_`.
const SAFE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = matches!(b as u8, b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_');
        b += 1;
    }
    table
};

/// The length of the leading ASCII letters, digits, `-` and `_` of `text`.
fn safe_prefix_length(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut length = 0;
    while bytes.get(length).is_some_and(|&b| SAFE[usize::from(b)]) {
        length += 1;
    }
    length
}

/// The indexes of `tools` in code-point order of names, or the error for the first tool (in input
/// order) whose name an earlier one has.
fn index_names(tools: &[Tool]) -> Result<Vec<usize>, Error> {
    let order = order_by(tools, |t| &t.name, |_| true);
    // Per name, the second tool is the first to repeat it; the first of those in input order is the error.
    let duplicate = order
        .chunk_by(|a, b| a.0 == b.0)
        .filter_map(|group| match group {
            [(_, first), (_, second), ..] => Some((*second, *first)),
            _ => None,
        })
        .min();
    if let Some((Some(tool), Some(first))) = duplicate.map(|(later, first)| (tools.get(later), tools.get(first))) {
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
    let mut by_server: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &i in by_name {
        if let Some(Tool { deferred: true, server: Some(server), .. }) = tools.get(i) {
            by_server.entry(server).or_default().push(i);
        }
    }
    by_server.into_iter().map(|(name, tools)| Server { name: name.to_string(), tools }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::is_tool_name;

    #[test]
    fn qualified_names_are_valid_everywhere() {
        assert_eq!(qualified_name("github", "create_issue"), "mcp__github__create_issue");
        assert_eq!(qualified_name("Ant Design Components", "get-docs"), "mcp__Ant_Design_Components__get-docs");
        assert_eq!(qualified_name("12306-mcp", "查询"), "mcp__12306-mcp____");
        let long = qualified_name("cloudflare", "dns-records-for-a-zone-import-dns-records-from-a-zone-file");
        assert_eq!(long.len(), 64);
        assert!(long.starts_with("mcp__cloudflare__dns-records-for-a-zone-import-dns-reco_"), "{long}");
        assert_ne!(long, qualified_name("cloudflare", "dns-records-for-a-zone-import-dns-records-from-a-zone-filx"));
        for name in [long.as_str(), "mcp__Ant_Design_Components__get-docs"] {
            assert!(is_tool_name(name), "{name}");
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

    /// Long and non-ASCII names: the expected names are what the first version (two `String`s
    /// collected from `chars()`, `format!`, the hash as `format!("{hash:016x}")[..8]`) gave.
    #[test]
    fn qualified_names_of_long_and_non_ascii_names_are_unchanged() {
        let x51 = "x".repeat(51);
        let x52 = "x".repeat(52);
        let (e30, u30) = ("é".repeat(30), "ü".repeat(30));
        for (server, tool, expected) in [
            (
                "cloudflare",
                "dns-records-for-a-zone-import-dns-records-from-a-zone-file",
                "mcp__cloudflare__dns-records-for-a-zone-import-dns-reco_e8b82d69",
            ),
            (
                "stripe",
                "GetCustomersCustomerSourcesIdVerificationsWithAVeryLongSuffix",
                "mcp__stripe__GetCustomersCustomerSourcesIdVerifications_53301e6d",
            ),
            ("日本語", "ツール", "mcp__________"),
            (
                "12306-mcp",
                "查询列车时刻表和余票信息并且返回非常非常非常非常非常非常非常非常非常非常长的结果",
                "mcp__12306-mcp__________________________________________",
            ),
            ("😀", "a😀b", "mcp_____a_b"),
            ("server", &x51, "mcp__server__xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
            ("server", &x52, "mcp__server__xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx_3d28d52b"),
            (&e30, &u30, "mcp_____________________________________________________8246b2cc"),
        ] {
            let name = qualified_name(server, tool);
            assert_eq!(name, expected, "{server:?} {tool:?}");
            assert!(is_tool_name(&name), "{name}");
        }
    }
}
