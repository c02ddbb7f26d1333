//! assemble (SPEC §3): the budget, the tier, and the model-visible tools array with its facts and
//! a fingerprint for prompt caches.
//!
//! Layer 11 of ARCHITECTURE.md's Layers: imports only the rooms of the layers below.

use crate::bridge::bridge_tools;
use crate::catalog::{Catalog, Tool};
use crate::conversation::{tool_names, Bindings, History};
pub use crate::dialect::Slot;
use crate::format::Format;
use crate::hash::{fnv1a, push_hex};
use crate::json::Value;
use crate::listing::{fit, Form, Level};
use crate::native::Protocol;
use crate::options::{Mode, Options, Switch};
use crate::wire::Names;
use alloc::string::String;
use alloc::vec::Vec;

/// The percentage leg of the budget when the context length is unknown (SPEC §3.2).
pub const UNKNOWN_CONTEXT_BUDGET: u64 = 10_000;

/// `max(0, min(listingMaxTokens, floor(contextLength × thresholdPct / 100)))` (SPEC §3.2).
pub fn budget_tokens(options: &Options) -> u64 {
    let percentage_leg = match options.context_length {
        Some(context) => (context as f64 * options.threshold_pct / 100.0) as u64,
        None => UNKNOWN_CONTEXT_BUDGET,
    };
    percentage_leg.min(options.listing_max_tokens)
}

/// One server's line in [`Facts::servers`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerFacts {
    /// The server name.
    pub name: String,
    /// Its deferred tools.
    pub tools: usize,
    /// How the listing shows it.
    pub level: Level,
}

/// Everything SPEC §3.6 says about an assembly, except the tools themselves.
#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    /// 0: everything as given; 1: bridge with tools listed one by one; 2: bridge with server lines or nothing.
    pub tier: u8,
    /// The listing's form.
    pub form: Form,
    /// Tools behind the bridge (or that would be, when `enabled` is off).
    pub deferred_count: usize,
    /// Their summed token estimates.
    pub deferred_tokens: u64,
    /// The listing budget.
    pub budget_tokens: u64,
    /// What the listing costs.
    pub listing_tokens: u64,
    /// Per server, in code-point order of names.
    pub servers: Vec<ServerFacts>,
    /// FNV-1a 64 of the model-visible array's compact JSON, 16 hex digits.
    pub fingerprint: String,
    /// The mode used: native when the provider loads the deferred tools itself (SPEC §11).
    pub mode: Mode,
    /// What the model's context pays for the array: the token estimate of its compact JSON,
    /// without the deferred tools Anthropic keeps out of the context.
    pub context_tokens: u64,
    /// The array's compact JSON in UTF-8 bytes: what the request sends.
    pub request_bytes: usize,
    /// Repairs of options and non-fatal toolbox problems.
    pub warnings: Vec<String>,
}

/// The model-visible array as slots (borrowing the catalog) plus the facts.
#[derive(Clone, Debug)]
pub struct Layout<'a> {
    /// The tools, in the order the model sees them.
    pub slots: Vec<Slot<'a>>,
    /// The facts.
    pub facts: Facts,
}

impl Layout<'_> {
    /// The model-visible array as compact JSON (the caller's defs as `JSON.stringify` writes them).
    pub fn tools_json(&self) -> String {
        tools_json(&self.slots)
    }

    /// The assembly as JSON (SPEC §3.6's keys) with each of the caller's tool defs written as its
    /// place in the toolbox, `[server, i]` (item `i` of that server's list) or `[null, i]` (item
    /// `i` of `tools`, or of the toolbox when it is a list), for a binding that hands the caller
    /// back their own objects. Made tools are objects, so an array is always a place.
    pub fn plan(&self) -> Value {
        let tools = self.slots.iter().map(|slot| match slot {
            Slot::Given(tool) => place(tool),
            Slot::Made(def) => def.clone(),
        });
        self.facts.to_value(Value::Array(tools.collect()))
    }
}

/// A tool's place in the toolbox: `[server, i]` or `[null, i]` (see [`Layout::plan`]).
fn place(tool: &Tool) -> Value {
    use crate::catalog::Origin;
    let (list, i) = match (tool.origin, &tool.server) {
        (Origin::Server(i), Some(server)) => (Value::str(server.as_str()), i),
        (Origin::Server(i) | Origin::List(i) | Origin::Tools(i), _) => (Value::Null, i),
    };
    Value::Array(alloc::vec![list, Value::uint(i as u64)])
}

/// An owned assembly: the model-visible tools and the facts.
#[derive(Clone, Debug)]
pub struct Assembly {
    /// The model-visible tools array.
    pub tools: Vec<Value>,
    /// Tier, form, counts, levels, fingerprint and warnings.
    pub facts: Facts,
}

impl Assembly {
    /// The assembly as one JSON object with SPEC §3.6's camelCase keys.
    pub fn to_value(&self) -> Value {
        self.facts.to_value(Value::Array(self.tools.clone()))
    }
}

impl From<Layout<'_>> for Assembly {
    fn from(layout: Layout<'_>) -> Assembly {
        let tools = layout.slots.iter().map(Slot::def).collect();
        Assembly { tools, facts: layout.facts }
    }
}

impl Facts {
    /// The facts as a JSON object with camelCase keys, `tools` first.
    pub fn to_value(&self, tools: Value) -> Value {
        let servers = self.servers.iter().map(|s| {
            Value::object([
                ("name", Value::str(s.name.as_str())),
                ("tools", Value::uint(s.tools as u64)),
                ("level", Value::str(s.level.as_str())),
            ])
        });
        Value::object([
            ("tools", tools),
            ("tier", Value::uint(u64::from(self.tier))),
            ("form", Value::str(self.form.as_str())),
            ("deferredCount", Value::uint(self.deferred_count as u64)),
            ("deferredTokens", Value::uint(self.deferred_tokens)),
            ("budgetTokens", Value::uint(self.budget_tokens)),
            ("listingTokens", Value::uint(self.listing_tokens)),
            ("servers", Value::Array(servers.collect())),
            ("fingerprint", Value::str(self.fingerprint.as_str())),
            ("mode", Value::str(self.mode.as_str())),
            ("contextTokens", Value::uint(self.context_tokens)),
            ("requestBytes", Value::uint(self.request_bytes as u64)),
            ("warnings", Value::strings(&self.warnings)),
        ])
    }
}

/// Lays out the model-visible tools for `catalog` under `options` (SPEC §3.3); the conversation's
/// `history`, for Anthropic in native mode, keeps only the deferred tools it references, under the
/// names it references them by (SPEC §11, §14).
pub fn layout<'a>(
    catalog: &'a Catalog,
    options: &Options,
    warnings: &[String],
    history: Option<&History>,
) -> Layout<'a> {
    let budget = budget_tokens(options);
    let deferred: Vec<&Tool> = catalog.deferred().collect();
    let mut warnings = warnings.to_vec();
    let protocol = Protocol::for_assembly(catalog, options, history.is_some(), &mut warnings);
    // A conversation that loaded tools natively keeps the search tool (and its references their
    // definitions) even when no deferred tool is left (SPEC §14).
    let natively_loaded = protocol.is_some() && history.is_some_and(|h| !h.references.is_empty() || h.searched);
    let deferred_tokens = deferred.iter().map(|t| t.tokens()).sum();
    // `directWhenFits`: every deferred tool's definition costs no more than the listing may (and
    // than the cap), so the tools go as they are (not once the conversation loaded tools natively).
    let fits = options.direct_when_fits.is_some_and(|cap| deferred_tokens <= budget.min(cap)) && !natively_loaded;
    let bridged = (!deferred.is_empty() || natively_loaded) && options.enabled != Switch::Off && !fits;
    let names = tool_names(catalog, &options.bridge_names.search);
    // Anthropic requires a definition for every `tool_reference` of the history, whatever the mode
    // or tier of this request (SPEC §16: a switch of mode keeps every referenced tool defined).
    let bindings = match history {
        Some(history) if catalog.format == Format::Anthropic => {
            let bindings = Bindings::of(history, catalog, &names);
            warnings.extend(bindings.warnings.iter().cloned());
            let gone = crate::native::gone_references(&bindings);
            if !gone.is_empty() {
                warnings.push(crate::texts::history_tools_unavailable(&gone));
            }
            Some(bindings)
        }
        _ => None,
    };
    let paid: Option<usize>;
    let (slots, form, listing_tokens, levels) = if bridged {
        let framing = match protocol {
            Some(_) => crate::texts::native_listing_framing(&options.bridge_names),
            None => crate::texts::listing_framing(&options.bridge_names),
        };
        let listing = fit(catalog, budget, options.listing, framing);
        let mut slots: Vec<Slot<'_>> = shown(catalog, &names, bindings.as_ref(), false).map(|(_, s)| s).collect();
        match protocol {
            Some(protocol) => {
                let (native, in_context) = protocol.tools(catalog, options, &listing.text, &names, bindings.as_ref());
                paid = Some(slots.len() + in_context);
                slots.extend(native);
            }
            None => {
                slots.extend(bridge_tools(catalog.format, options, deferred.len(), &listing.text).map(Slot::Made));
                slots.extend(client_search_kept(catalog, options, history, &listing.text, &names));
                paid = Some(slots.len());
                slots.extend(crate::native::references_not_in(catalog, options, bindings.as_ref(), &slots));
            }
        }
        let tokens = if listing.form == Form::None { 0 } else { listing.tokens() };
        (slots, listing.form, tokens, listing.levels)
    } else {
        let mut slots: Vec<Slot<'_>> = shown(catalog, &names, bindings.as_ref(), true).map(|(_, slot)| slot).collect();
        slots.extend(client_search_kept(catalog, options, history, "", &names));
        paid = Some(slots.len());
        slots.extend(crate::native::references_not_in(catalog, options, bindings.as_ref(), &slots));
        (slots, Form::None, 0, alloc::vec![Level::Full; catalog.servers.len()])
    };
    let tier = match form {
        _ if !bridged => 0,
        Form::Full | Form::Names | Form::Mixed => 1,
        Form::Groups | Form::None => 2,
    };
    let servers = catalog
        .servers
        .iter()
        .zip(levels)
        .map(|(s, level)| ServerFacts { name: s.name.clone(), tools: s.tools.len(), level })
        .collect();
    let (json, context_chars) = tools_json_paid(&slots, paid.unwrap_or(slots.len()));
    let facts = Facts {
        tier,
        form,
        deferred_count: deferred.len(),
        deferred_tokens,
        budget_tokens: budget,
        listing_tokens,
        servers,
        fingerprint: fingerprint(&json),
        mode: if protocol.is_some() { Mode::Native } else { Mode::Bridge },
        context_tokens: context_chars.div_ceil(4) as u64,
        request_bytes: json.len(),
        warnings,
    };
    Layout { slots, facts }
}

/// The client `tool_search` tool of a Responses conversation that searched natively, in a request
/// of another mode or tier (SPEC §16: a switch of mode keeps the conversation valid; the API wants
/// the tool of every `tool_search_call` it holds).
fn client_search_kept<'a>(
    catalog: &'a Catalog,
    options: &Options,
    history: Option<&History>,
    listing: &str,
    names: &Names,
) -> Vec<Slot<'a>> {
    if catalog.format != Format::Responses || !history.is_some_and(|h| h.searched) {
        return Vec::new();
    }
    Protocol::Responses.tools(catalog, options, listing, names, None).0
}

/// Every tool as the model sees it outside the bridge (with `deferred_too`; else only the direct
/// ones, and no deferred tool's def is read), in input order: the caller's own tools as given; a
/// server's tool under the name the request sends for it (its shown name, or one made of it that
/// every provider accepts: [`tool_names`]). A server's tool that an Anthropic history references
/// goes with `defer_loading` (the API wants a referenced tool deferred; the reference has loaded
/// it).
fn shown<'a, 'n>(
    catalog: &'a Catalog,
    names: &'n Names,
    bindings: Option<&'n Bindings>,
    deferred_too: bool,
) -> impl Iterator<Item = (&'a Tool, Slot<'a>)> + 'n
where
    'a: 'n,
{
    let tools = catalog.tools.iter().enumerate().filter(move |(_, tool)| deferred_too || !tool.deferred);
    tools.map(move |(i, tool)| {
        let name = names.of_index(i, &tool.name);
        if bindings.is_some_and(|b| b.is_referenced(name)) {
            return (tool, Slot::Made(crate::native::deferred_def(catalog, tool, name)));
        }
        let slot = if tool.server.is_some() && (tool.renamed || name != tool.name) {
            Slot::Made(catalog.format.renamed(&tool.def(), name))
        } else if tool.def_is_its_own() {
            Slot::Given(tool)
        } else {
            Slot::Made(tool.def())
        };
        (tool, slot)
    })
}

fn tools_json(slots: &[Slot<'_>]) -> String {
    tools_json_paid(slots, slots.len()).0
}

/// The array's compact JSON, and the code points of the array of its first `paid` tools alone
/// (what the model's context pays for).
fn tools_json_paid(slots: &[Slot<'_>], paid: usize) -> (String, usize) {
    let mut out = String::from("[");
    let mut paid_chars = None;
    for (i, slot) in slots.iter().enumerate() {
        if i == paid {
            paid_chars = Some(out.chars().count() + 1);
        }
        if i > 0 {
            out.push(',');
        }
        slot.push_json(&mut out);
    }
    out.push(']');
    let paid_chars = paid_chars.unwrap_or_else(|| out.chars().count());
    (out, paid_chars)
}

/// The fingerprint of SPEC §3.5: FNV-1a, 64 bits, over the UTF-8 bytes of `text` (the
/// model-visible array's compact JSON), as 16 lowercase hex digits.
pub fn fingerprint(text: &str) -> String {
    let mut out = String::with_capacity(16);
    push_hex(&mut out, fnv1a(text.as_bytes()), 16);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::fnv1a;
    use alloc::format;

    #[test]
    fn budget_follows_the_formula() {
        let budget = |context: Option<u64>, pct: f64, cap: u64| {
            budget_tokens(&Options {
                context_length: context,
                threshold_pct: pct,
                listing_max_tokens: cap,
                ..Options::default()
            })
        };
        assert_eq!(budget(Some(200_000), 5.0, 20_000), 10_000);
        assert_eq!(budget(Some(1_000_000), 5.0, 20_000), 20_000);
        assert_eq!(budget(None, 5.0, 20_000), 10_000);
        assert_eq!(budget(None, 5.0, 5_000), 5_000);
        assert_eq!(budget(Some(8_000), 5.0, 20_000), 400);
        assert_eq!(budget(Some(8_001), 5.0, 20_000), 400);
        assert_eq!(budget(Some(200_000), 0.0, 20_000), 0);
    }

    #[test]
    fn fingerprint_is_fnv1a_64() {
        assert_eq!(fingerprint(""), "cbf29ce484222325");
        assert_eq!(fingerprint("a"), "af63dc4c8601ec8c");
        for text in ["", "a", "tools", "[{\"type\":\"function\"}]", "é日本😀"] {
            let hash = fnv1a(text.as_bytes());
            assert_eq!(fingerprint(text), format!("{hash:016x}"), "{text}");
        }
    }
}
