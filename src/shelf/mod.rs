//! `Shelf`: a toolbox prepared once with its options, answering every operation; and the stateless
//! free functions, which prepare a shelf per call and give the same results.
//!
//! Layer 12 of ARCHITECTURE.md's Layers: imports only the rooms of the layers below.

mod embeddings;
pub mod snapshot;
use crate::assemble::{layout, Assembly, Layout};
use crate::catalog::{Catalog, ToolboxText};
use crate::conversation::History;
use crate::describe::Described;
use crate::error::Error;
use crate::find::{build_index, SearchResult};
use crate::json::Value;
use crate::options::Options;
use crate::search::SearchIndex;
use crate::unwrap::Unwrapped;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

/// The lazily built search index: thread-safe natively with `std` (so a `Shelf` can be shared
/// across threads), a plain cell in wasm (one thread; no lock's code in the `.wasm`) and without
/// `std`.
#[cfg(all(feature = "std", not(target_arch = "wasm32")))]
pub(crate) type Lazy<T> = std::sync::OnceLock<T>;
#[cfg(not(all(feature = "std", not(target_arch = "wasm32"))))]
pub(crate) type Lazy<T> = core::cell::OnceCell<T>;

/// A toolbox prepared with its options. The search index is built on the first search, so an
/// agent that only assembles never pays for it.
#[derive(Clone, Debug)]
pub struct Shelf {
    pub(crate) catalog: Catalog,
    pub(crate) options: Options,
    /// The options' repairs; an assembly's warnings are these, then the catalog's.
    pub(crate) option_warnings: Vec<String>,
    pub(crate) warnings: Vec<String>,
    pub(crate) index: Lazy<(SearchIndex, Vec<usize>)>,
    /// What a snapshot holds besides (`crate::shelf::snapshot`): the options as JSON text, when they
    /// came as JSON, and the toolbox's text when the catalog was read from it whole.
    pub(crate) origin: Origin,
    /// The deferred tools' vectors for semantic search (SPEC §12), when the caller gave some.
    pub(crate) embeddings: Option<crate::search::embed::Embeddings>,
}

/// The texts a shelf was prepared from, as far as it keeps them (shared, never copied).
#[derive(Clone, Debug, Default)]
pub(crate) struct Origin {
    /// The options as JSON text; `None` for options built in Rust ([`Shelf::with_options`]).
    pub(crate) options: Option<String>,
    /// The toolbox's JSON text, the one the catalog's defs are ranges of; `None` when the
    /// toolbox came as a value, or after an update that kept servers.
    pub(crate) toolbox: Option<Arc<ToolboxText>>,
}

impl Shelf {
    /// Prepares `toolbox` (SPEC §2.2) with `options` (SPEC §3.1, read leniently).
    pub fn new(toolbox: &Value, options: &Value) -> Result<Shelf, Error> {
        let parsed = Options::parse(options);
        let mut shelf = Shelf::with_options(toolbox.clone(), parsed.options, parsed.warnings)?;
        shelf.origin.options = Some(options.to_json());
        Ok(shelf)
    }

    /// The options as JSON text (`""` or `"null"` for none) as a shelf keeps them.
    fn options_text(options: &str) -> String {
        String::from(if options.trim().is_empty() { "null" } else { options })
    }

    /// Prepares a toolbox given as JSON text, with options as JSON text (`""` or `"null"` for none).
    pub fn from_json(toolbox: &str, options: &str) -> Result<Shelf, Error> {
        let parsed =
            if options.trim().is_empty() { Options::parse(&Value::Null) } else { Options::parse_json(options) };
        let catalog = Catalog::parse_json(toolbox, &parsed.options)?;
        let mut shelf = Shelf::of(catalog, parsed.options, parsed.warnings);
        shelf.origin.options = Some(Shelf::options_text(options));
        Ok(shelf)
    }

    /// Prepares a toolbox (taking it, no copy) with options already built in Rust; `warnings` are
    /// carried into every assembly.
    pub fn with_options(toolbox: Value, options: Options, warnings: Vec<String>) -> Result<Shelf, Error> {
        let catalog = Catalog::parse(toolbox, &options)?;
        Ok(Shelf::of(catalog, options, warnings))
    }

    pub(crate) fn of(catalog: Catalog, options: Options, option_warnings: Vec<String>) -> Shelf {
        let mut warnings = option_warnings.clone();
        warnings.extend(catalog.warnings.iter().cloned());
        Shelf {
            catalog,
            options,
            option_warnings,
            warnings,
            index: Lazy::new(),
            origin: Origin::default(),
            embeddings: None,
        }
    }

    /// Prepares `toolbox` in place of the shelf's toolbox, with the same options: what
    /// `Shelf::new(toolbox, options)` gives, byte for byte, but each server whose tool defs equal
    /// the ones this shelf holds for it keeps its tools as read (only the changed servers are read
    /// again). The search index is built again on the next search. On error the shelf is unchanged.
    pub fn update(&mut self, toolbox: &Value) -> Result<(), Error> {
        let (toolbox, keep) = self.unchanged_servers(toolbox);
        self.update_keeping(toolbox, &keep)
    }

    /// Prepares a toolbox given as JSON text it takes, with options as JSON text: as
    /// [`Shelf::from_json`], but the text is kept as the one copy of the tools' defs (no second
    /// copy of the toolbox is made when the text is compact JSON, as `JSON.stringify` writes it).
    pub fn from_json_text(toolbox: String, options: &str) -> Result<Shelf, Error> {
        let parsed =
            if options.trim().is_empty() { Options::parse(&Value::Null) } else { Options::parse_json(options) };
        let toolbox = Arc::new(ToolboxText::Text(toolbox));
        let catalog = Catalog::parse_shared_text(toolbox.clone(), &parsed.options)?;
        let mut shelf = Shelf::of(catalog, parsed.options, parsed.warnings);
        shelf.origin = Origin { options: Some(Shelf::options_text(options)), toolbox: Some(toolbox) };
        Ok(shelf)
    }

    /// As [`Shelf::update_keeping`], with the toolbox as JSON text it takes (kept as
    /// [`Shelf::from_json_text`] keeps it), in which a number in a server's list stands for the
    /// tool at that index of the server's list in this shelf, unchanged
    /// ([`crate::catalog::Catalog::update_text`]). With no `keep`, nothing is kept.
    pub fn update_keeping_text(&mut self, toolbox: String, keep: Option<&[String]>) -> Result<(), Error> {
        // A whole toolbox's text (nothing kept) is the toolbox a snapshot holds.
        let (catalog, text) = match keep {
            None => {
                let text = Arc::new(ToolboxText::Text(toolbox));
                (Catalog::parse_shared_text(text.clone(), &self.options)?, Some(text))
            }
            Some(_) => (self.catalog.update_text(toolbox, keep, &self.options)?, None),
        };
        self.replace_catalog(catalog);
        self.origin.toolbox = text;
        Ok(())
    }

    /// The shelf of `catalog` with this shelf's options (the index to be built again).
    fn replace_catalog(&mut self, catalog: Catalog) {
        let options = core::mem::take(&mut self.options);
        let option_warnings = core::mem::take(&mut self.option_warnings);
        let origin = core::mem::take(&mut self.origin);
        let embeddings = self.embeddings.take();
        *self = Shelf::of(catalog, options, option_warnings);
        self.origin = Origin { options: origin.options, toolbox: None };
        self.embeddings = embeddings.map(|e| e.rekeyed(self.embedding_keys()));
    }

    /// As [`Shelf::update`], the caller telling which servers are unchanged: the servers named in
    /// `keep` keep the tools this shelf holds for them, whatever `toolbox` holds in their place
    /// (an empty list is enough). For a binding that knows this without comparing the defs (the
    /// JS `Shelf.update` keeps a server whose list holds the very same objects as before).
    pub fn update_keeping(&mut self, toolbox: Value, keep: &[String]) -> Result<(), Error> {
        let catalog = self.catalog.update(toolbox, keep, &self.options)?;
        self.replace_catalog(catalog);
        Ok(())
    }

    /// `toolbox` with the lists of the servers whose defs equal this shelf's emptied, and their names.
    fn unchanged_servers(&self, toolbox: &Value) -> (Value, Vec<String>) {
        let Value::Object(members) = toolbox else { return (toolbox.clone(), Vec::new()) };
        let lists = self.catalog.server_lists();
        let mut keep = Vec::new();
        let members = members.iter().map(|(key, value)| match (key.as_str(), value) {
            ("servers", Value::Object(servers)) => {
                let servers = servers.iter().map(|(server, list)| match list {
                    Value::Array(defs) if lists.holds(server, defs) => {
                        keep.push(server.clone());
                        (server.clone(), Value::Array(Vec::new()))
                    }
                    _ => (server.clone(), list.clone()),
                });
                (key.clone(), Value::Object(servers.collect()))
            }
            _ => (key.clone(), value.clone()),
        });
        let toolbox = Value::Object(members.collect());
        (toolbox, keep)
    }

    /// The parsed toolbox.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The model-visible tools and facts (SPEC §3).
    pub fn assemble(&self) -> Assembly {
        self.layout().into()
    }

    /// As [`Shelf::assemble`], but borrowing the caller's tool defs instead of copying them:
    /// what a binding needs to hand the caller back its own objects.
    pub fn layout(&self) -> Layout<'_> {
        layout(&self.catalog, &self.options, &self.warnings, None)
    }

    /// As [`Shelf::assemble`], for a request continuing `context` (`{messages}` or the messages
    /// array): in native mode with the Anthropic format, only the deferred tools that the
    /// conversation's `tool_reference` blocks name are carried (SPEC §11). Otherwise the same.
    pub fn assemble_with(&self, context: &Value) -> Assembly {
        self.layout_with(context).into()
    }

    /// As [`Shelf::assemble_with`], borrowing the caller's tool defs (see [`Shelf::layout`]).
    pub fn layout_with(&self, context: &Value) -> Layout<'_> {
        let history = History::read_present(context, &self.options.bridge_names);
        layout(&self.catalog, &self.options, &self.warnings, history.as_ref())
    }

    /// Searches the deferred tools (SPEC §4). `limit` defaults to `searchDefaultLimit` and is
    /// clamped to 1..=`maxSearchLimit`.
    pub fn search(&self, query: &str, limit: Option<usize>) -> SearchResult {
        let (index, documents) = self.prepared_index();
        let limit = limit.unwrap_or(self.options.search_default_limit).clamp(1, self.options.max_search_limit);
        crate::find::search(&self.catalog, index, documents, query, limit, None)
    }

    /// [`Shelf::search`] with each hit as its tool's index in the catalog ([`crate::find::Found`]).
    pub fn search_found(&self, query: &str, limit: Option<usize>) -> crate::find::Found {
        let (index, documents) = self.prepared_index();
        let limit = limit.unwrap_or(self.options.search_default_limit).clamp(1, self.options.max_search_limit);
        crate::find::found(&self.catalog, index, documents, query, limit, None)
    }

    /// The strings of a search match of the catalog's tool `tool` as JSON text (`{name, server,
    /// description, required}`: a match object without its score and `partial`); `None` for no
    /// such tool.
    pub fn match_summary(&self, tool: usize) -> Option<String> {
        crate::find::match_summary(&self.catalog, tool)
    }

    /// The search index and the catalog's tool of each document, built on the first call.
    pub(crate) fn prepared_index(&self) -> &(SearchIndex, Vec<usize>) {
        self.index.get_or_init(|| build_index(&self.catalog, &self.options))
    }

    /// The text to embed of each deferred tool and its key (SPEC §12), in the order of the deferred
    /// tools (the order [`Shelf::set_embeddings`] reads vectors in): `(key, text)`.
    pub fn embedding_texts(&self) -> Vec<(String, String)> {
        let texts = self.catalog.deferred().map(crate::search::embed::embedding_text);
        texts.map(|text| (crate::search::embed::embedding_key(&text), text)).collect()
    }

    /// A deferred tool's whole description and schema (SPEC §5); `None` for any other name.
    pub fn describe(&self, name: &str) -> Option<Described> {
        crate::describe::describe(&self.catalog, name)
    }

    /// Turns the model's tool call into the real call, a local answer or a reject (SPEC §7).
    /// Only a call that is not an object at all is an error (`invalid_call`).
    pub fn unwrap(&self, call: &Value) -> Result<Unwrapped, Error> {
        crate::unwrap::unwrap(self, call, None)
    }

    /// [`Shelf::unwrap`] for a call continuing `context` (`{messages}`, `{input}` or the array of
    /// messages or Responses input items): names route by what the history bound (SPEC §14).
    pub fn unwrap_with(&self, call: &Value, context: &Value) -> Result<Unwrapped, Error> {
        let history = History::read_present(context, &self.options.bridge_names);
        crate::unwrap::unwrap(self, call, history.as_ref())
    }

    /// [`Shelf::layout_with`] of a history given as JSON text, read only as deep as it needs
    /// (SPEC §14: a history nested however deep never fails the conversation).
    pub fn layout_with_text(&self, context: &str) -> Result<Layout<'_>, Error> {
        let history = History::read_text(context, &self.options.bridge_names, "context")?;
        Ok(layout(&self.catalog, &self.options, &self.warnings, history.as_ref()))
    }

    /// [`Shelf::unwrap_json`] continuing a history given as JSON text (see
    /// [`Shelf::unwrap_with`]); `None` is no history.
    pub fn unwrap_json_with(&self, call: &str, context: Option<&str>) -> Result<Unwrapped, Error> {
        let history = match context {
            Some(text) => History::read_text(text, &self.options.bridge_names, "context")?,
            None => None,
        };
        crate::unwrap::unwrap_text(self, call, history.as_ref())
    }

    /// [`Shelf::unwrap`] of a call given as JSON text; a call nested too deep to parse (its
    /// arguments are) is a reject, as the same arguments sent as JSON text are. Text that is not
    /// JSON is `invalid_call`.
    pub fn unwrap_json(&self, call: &str) -> Result<Unwrapped, Error> {
        crate::unwrap::unwrap_text(self, call, None)
    }
}

impl crate::unwrap::Prepared for Shelf {
    fn catalog(&self) -> &Catalog {
        Shelf::catalog(self)
    }

    fn options(&self) -> &Options {
        Shelf::options(self)
    }

    fn search(&self, query: &str, limit: Option<usize>) -> SearchResult {
        Shelf::search(self, query, limit)
    }

    fn describe(&self, name: &str) -> Option<Described> {
        Shelf::describe(self, name)
    }
}

/// Stateless assemble: `Shelf::new(toolbox, options)?.assemble()`.
pub fn assemble(toolbox: &Value, options: &Value) -> Result<Assembly, Error> {
    Ok(Shelf::new(toolbox, options)?.assemble())
}

/// Stateless search: `Shelf::new(toolbox, options)?.search(query, limit)`.
pub fn search(toolbox: &Value, query: &str, options: &Value, limit: Option<usize>) -> Result<SearchResult, Error> {
    Ok(Shelf::new(toolbox, options)?.search(query, limit))
}

/// Stateless describe: `Shelf::new(toolbox, options)?.describe(name)`.
pub fn describe(toolbox: &Value, name: &str, options: &Value) -> Result<Option<Described>, Error> {
    Ok(Shelf::new(toolbox, options)?.describe(name))
}

/// Stateless unwrap: `Shelf::new(toolbox, options)?.unwrap(call)`.
pub fn unwrap(toolbox: &Value, call: &Value, options: &Value) -> Result<Unwrapped, Error> {
    Shelf::new(toolbox, options)?.unwrap(call)
}
