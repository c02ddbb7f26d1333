//! Options of SPEC §3.1, parsed leniently: out-of-range values are clamped, unparseable ones take
//! the default, unknown names are ignored, and every repair is reported as a warning. Never an error.
//!
//! Layer 3 of ARCHITECTURE.md's Layers: imports only `error`, `hash`, `float`, `swar`, `lowercase`, `distance`, `json`, `format`, `wire`.

use crate::distance::edit_distance;
use crate::format::Format;
use crate::json::Value;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// A tri-state switch: `auto`, `on`, `off` (also `true`/`false`, `yes`/`no`, `1`/`0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switch {
    /// Decide from the toolbox and the budget.
    Auto,
    /// Force on.
    On,
    /// Force off.
    Off,
}

impl Switch {
    /// `"auto"`, `"on"` or `"off"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Switch::Auto => "auto",
            Switch::On => "on",
            Switch::Off => "off",
        }
    }
}

/// How deferred tools reach the model (SPEC §11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The bridge tools of SPEC §6 (every format).
    Bridge,
    /// The provider's own deferred loading, for the formats that have one (`anthropic`,
    /// `responses`); the bridge for the others.
    Native,
}

impl Mode {
    /// `"bridge"` or `"native"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Bridge => "bridge",
            Mode::Native => "native",
        }
    }
}

/// The three bridge tool names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BridgeNames {
    /// Search tool name (default `tool_search`).
    pub search: String,
    /// Describe tool name (default `tool_describe`).
    pub describe: String,
    /// Call tool name (default `tool_call`).
    pub call: String,
}

impl Default for BridgeNames {
    fn default() -> Self {
        BridgeNames { search: "tool_search".into(), describe: "tool_describe".into(), call: "tool_call".into() }
    }
}

impl BridgeNames {
    /// True when `name` is one of the three.
    pub fn contains(&self, name: &str) -> bool {
        self.search == name || self.describe == name || self.call == name
    }
}

/// Every option of SPEC §3.1, already repaired. `Options::default()` is the documented defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The model's context window in tokens; `None` when unknown.
    pub context_length: Option<u64>,
    /// `off` passes every tool through with no bridge; `auto` and `on` bridge whenever a tool is deferred.
    pub enabled: Switch,
    /// Listing budget as a percentage of the context (0–100).
    pub threshold_pct: f64,
    /// Absolute cap of the listing budget in tokens (200–60000).
    pub listing_max_tokens: u64,
    /// `off`: no listing; `auto`: the listing fitted to the budget; `on`: as `auto`, but never less
    /// than the server summary lines, even over budget.
    pub listing: Switch,
    /// Hits when a search gives no limit (1–`max_search_limit`).
    pub search_default_limit: usize,
    /// Hard cap on a search's limit (1–50).
    pub max_search_limit: usize,
    /// Batched bridge shapes (SPEC §6.2).
    pub batch: bool,
    /// Search ranks full matches before partial ones (SPEC §4.3); `false` ranks every match by
    /// score and only marks the partial ones (measured better on keyword queries: docs/search.md).
    pub full_matches_first: bool,
    /// The bridge tool names.
    pub bridge_names: BridgeNames,
    /// Servers whose tools stay direct.
    pub always_load: Vec<String>,
    /// Direct tools deferred anyway, under server `builtin`.
    pub defer: Vec<String>,
    /// Words the caller adds to tools' search text: `(entry, words)`, an entry named as in
    /// `alwaysLoad` (a tool's name or own name, or `server/tool`).
    pub hints: Vec<(String, String)>,
    /// The toolbox format, when forced; detected otherwise.
    pub format: Option<Format>,
    /// How servers' tools are named: `On` (the default, SPEC §16) every one by its shown name
    /// `mcp__<server>__<tool>`; `Auto` by its own name unless another tool of the toolbox has that
    /// name too; `Off` by its own name (a duplicate is then an error).
    pub qualify: Switch,
    /// Bridge tools, or the provider's native tool search (SPEC §11).
    pub mode: Mode,
    /// Native Anthropic search answers: the most tokens of tool definitions one answer loads by
    /// `tool_reference` (the top match and tools asked for by exact name always load); the other
    /// matches are named in a text block. `None` (the default, SPEC §11): every match is referenced.
    pub load_max_tokens: Option<u64>,
    /// Native search answers (both providers): the most tools one answer loads; the other
    /// matches are named (SPEC §14). Tools the conversation loaded already do not count.
    pub load_limit: usize,
    /// Send every tool as it is (tier 0, no bridge) when all the deferred tools' definitions
    /// together cost no more tokens than the listing budget and than this cap (`true`: the
    /// budget alone, `u64::MAX`). `None` (the default): SPEC §3.3, the bridge whenever a tool is
    /// deferred.
    pub direct_when_fits: Option<u64>,
}

/// The default of [`Options::load_limit`], chosen by measurement (docs/benchmarks.md,
/// "Conversations"): a native session then costs no more than the bridge's for the same tasks.
pub const DEFAULT_LOAD_LIMIT: usize = 1;

impl Default for Options {
    fn default() -> Self {
        Options {
            context_length: None,
            enabled: Switch::Auto,
            threshold_pct: 5.0,
            listing_max_tokens: 20_000,
            listing: Switch::Auto,
            search_default_limit: 5,
            max_search_limit: 20,
            batch: false,
            full_matches_first: true,
            bridge_names: BridgeNames::default(),
            always_load: Vec::new(),
            defer: Vec::new(),
            hints: Vec::new(),
            format: None,
            qualify: Switch::On,
            mode: Mode::Bridge,
            load_max_tokens: None,
            load_limit: DEFAULT_LOAD_LIMIT,
            direct_when_fits: None,
        }
    }
}

/// Options plus the repairs made while reading them.
#[derive(Clone, Debug, PartialEq)]
pub struct ParsedOptions {
    /// The options, repaired.
    pub options: Options,
    /// One sentence per repair (clamp, default, unknown name).
    pub warnings: Vec<String>,
}

const KNOWN: [(&str, &str); 19] = [
    ("contextLength", "context_length"),
    ("enabled", "enabled"),
    ("thresholdPct", "threshold_pct"),
    ("listingMaxTokens", "listing_max_tokens"),
    ("listing", "listing"),
    ("searchDefaultLimit", "search_default_limit"),
    ("maxSearchLimit", "max_search_limit"),
    ("batch", "batch"),
    ("fullMatchesFirst", "full_matches_first"),
    ("bridgeNames", "bridge_names"),
    ("alwaysLoad", "always_load"),
    ("defer", "defer"),
    ("hints", "hints"),
    ("format", "format"),
    ("qualify", "qualify"),
    ("mode", "mode"),
    ("loadMaxTokens", "load_max_tokens"),
    ("loadLimit", "load_limit"),
    ("directWhenFits", "direct_when_fits"),
];

/// Most edits between an unknown option name and the known one it is taken for (`contextLenght`).
const MAX_OPTION_TYPO: usize = 2;

/// The known option name closest to `key` (in the spelling of its style: camelCase, or snake_case
/// for a key with `_`), within [`MAX_OPTION_TYPO`] edits, ignoring ASCII case (option names are
/// ASCII; `char::to_lowercase` would link core's Unicode tables: `scripts/size`); the first of a tie.
fn closest_option(key: &str) -> Option<&'static str> {
    let lower = |text: &str| -> Vec<char> { text.chars().map(|c| c.to_ascii_lowercase()).collect() };
    let wanted = lower(key);
    let snake = key.contains('_');
    let mut best: Option<(usize, &'static str)> = None;
    for (camel, snake_name) in KNOWN {
        let name = if snake { snake_name } else { camel };
        let distance = edit_distance(&wanted, &lower(name), MAX_OPTION_TYPO);
        if distance <= MAX_OPTION_TYPO && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, name));
        }
    }
    best.map(|(_, name)| name)
}

impl Options {
    /// Reads options from a JSON object (camelCase or snake_case names). `null` gives the defaults.
    pub fn parse(value: &Value) -> ParsedOptions {
        let mut reader = Reader { value, warnings: Vec::new() };
        let options = reader.read();
        ParsedOptions { options, warnings: reader.warnings }
    }

    /// Reads options from JSON text; text that is not JSON gives the defaults and a warning.
    pub fn parse_json(text: &str) -> ParsedOptions {
        match crate::json::parse(text) {
            Ok(value) => Options::parse(&value),
            Err(e) => ParsedOptions {
                options: Options::default(),
                warnings: alloc::vec![format!("options are not valid JSON ({}); using the defaults", e.message)],
            },
        }
    }
}

struct Reader<'a> {
    value: &'a Value,
    warnings: Vec<String>,
}

impl Reader<'_> {
    fn read(&mut self) -> Options {
        let defaults = Options::default();
        if !matches!(self.value, Value::Null | Value::Object(_)) {
            self.warnings.push("options must be an object; using the defaults".into());
            return defaults;
        }
        self.warn_unknown_names();
        let max_search_limit =
            self.integer("maxSearchLimit", 1, 50).unwrap_or(defaults.max_search_limit as u64) as usize;
        Options {
            context_length: self.integer("contextLength", 1, u64::from(u32::MAX) * 16),
            enabled: self.switch("enabled").unwrap_or(defaults.enabled),
            threshold_pct: self.number("thresholdPct", 0.0, 100.0).unwrap_or(defaults.threshold_pct),
            listing_max_tokens: self.integer("listingMaxTokens", 200, 60_000).unwrap_or(defaults.listing_max_tokens),
            listing: self.switch("listing").unwrap_or(defaults.listing),
            search_default_limit: self
                .integer("searchDefaultLimit", 1, max_search_limit as u64)
                .map_or(defaults.search_default_limit.min(max_search_limit), |n| n as usize),
            max_search_limit,
            batch: self.boolean("batch").unwrap_or(defaults.batch),
            full_matches_first: self.boolean("fullMatchesFirst").unwrap_or(defaults.full_matches_first),
            bridge_names: self.bridge_names(),
            always_load: self.names("alwaysLoad"),
            defer: self.names("defer"),
            hints: self.hints(),
            format: self.format(),
            qualify: self.switch("qualify").unwrap_or(defaults.qualify),
            mode: self.mode().unwrap_or(defaults.mode),
            load_max_tokens: self.integer("loadMaxTokens", 100, 1_000_000),
            load_limit: self.integer("loadLimit", 1, 50).map_or(defaults.load_limit, |n| n as usize),
            direct_when_fits: self.direct_when_fits(),
        }
    }

    fn warn_unknown_names(&mut self) {
        let Some(members) = self.value.as_object() else {
            return;
        };
        for (key, _) in members {
            if !KNOWN.iter().any(|(camel, snake)| key == camel || key == snake) {
                let mut warning = format!("unknown option \"{key}\" ignored");
                if let Some(near) = closest_option(key) {
                    for part in [" (did you mean \"", near, "\"?)"] {
                        warning.push_str(part);
                    }
                }
                self.warnings.push(warning);
            }
        }
    }

    /// The value of option `camel` under either spelling; `null` counts as absent.
    fn get(&self, camel: &str) -> Option<&Value> {
        let snake = KNOWN.iter().find(|(c, _)| *c == camel).map_or(camel, |(_, s)| *s);
        let found = self.value.get(camel).or_else(|| self.value.get(snake));
        found.filter(|v| !matches!(v, Value::Null))
    }

    fn default_warning(&mut self, name: &str, value: &Value, expected: &str) {
        self.warnings.push(format!("{name}: {} is not {expected}; using the default", value.to_json()));
    }

    fn number(&mut self, name: &str, min: f64, max: f64) -> Option<f64> {
        let value = self.get(name)?.clone();
        let parsed = match &value {
            Value::Number(_) => value.as_f64(),
            Value::String(s) => crate::float::parse_f64(s.trim()).filter(|x| x.is_finite()),
            _ => None,
        };
        let Some(x) = parsed else {
            self.default_warning(name, &value, "a number");
            return None;
        };
        if x < min || x > max {
            let clamped = crate::json::clamp(x, min, max);
            let [low, high, used] = [min, max, clamped].map(crate::json::js_number_text);
            self.warnings.push(format!("{name}: {} is outside {low}–{high}; using {used}", value.to_json()));
            return Some(clamped);
        }
        Some(x)
    }

    fn integer(&mut self, name: &str, min: u64, max: u64) -> Option<u64> {
        let x = self.number(name, min as f64, max as f64)?;
        let floored = floor_non_negative(x);
        if floored != x {
            let floored = floored as u64;
            let x = crate::json::js_number_text(x);
            self.warnings.push(format!("{name}: {x} is not an integer; using {floored}"));
            return Some(floored.max(min));
        }
        Some(x as u64)
    }

    fn switch(&mut self, name: &str) -> Option<Switch> {
        let value = self.get(name)?.clone();
        let switch = match &value {
            Value::Bool(true) => Some(Switch::On),
            Value::Bool(false) => Some(Switch::Off),
            Value::Number(n) if &**n == "1" => Some(Switch::On),
            Value::Number(n) if &**n == "0" => Some(Switch::Off),
            Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
                "auto" => Some(Switch::Auto),
                "on" | "true" | "yes" | "1" => Some(Switch::On),
                "off" | "false" | "no" | "0" => Some(Switch::Off),
                _ => None,
            },
            _ => None,
        };
        if switch.is_none() {
            self.default_warning(name, &value, "auto, on or off");
        }
        switch
    }

    /// `directWhenFits`: a boolean (`true`: within the budget), or a cap in tokens (100–60,000).
    fn direct_when_fits(&mut self) -> Option<u64> {
        let numeric = match self.get("directWhenFits")? {
            Value::String(text) => crate::float::parse_f64(text.trim()),
            other => other.as_f64(),
        };
        match numeric {
            Some(x) if x > 1.0 => self.integer("directWhenFits", 100, 60_000),
            _ => self.boolean("directWhenFits").and_then(|on| on.then_some(u64::MAX)),
        }
    }

    fn boolean(&mut self, name: &str) -> Option<bool> {
        let value = self.get(name)?.clone();
        let switch = match &value {
            Value::String(s) if s.trim().eq_ignore_ascii_case("auto") => None,
            _ => self.switch(name),
        };
        match switch {
            Some(s) => Some(s == Switch::On),
            None => {
                if matches!(&value, Value::String(s) if s.trim().eq_ignore_ascii_case("auto")) {
                    self.default_warning(name, &value, "true or false");
                }
                None
            }
        }
    }

    fn names(&mut self, name: &str) -> Vec<String> {
        let Some(value) = self.get(name).cloned() else {
            return Vec::new();
        };
        match &value {
            Value::String(s) => {
                s.split(',').map(str::trim).filter(|s| !s.is_empty()).map(ToString::to_string).collect()
            }
            Value::Array(items) => {
                let names: Vec<String> = items.iter().filter_map(Value::as_str).map(ToString::to_string).collect();
                if names.len() != items.len() {
                    self.warnings.push(format!("{name}: entries that are not strings were ignored"));
                }
                names
            }
            _ => {
                self.default_warning(name, &value, "a list of names");
                Vec::new()
            }
        }
    }

    /// `hints`: an object of entry → words; an entry whose words are not a string is left out
    /// with a warning.
    fn hints(&mut self) -> Vec<(String, String)> {
        let Some(value) = self.get("hints").cloned() else {
            return Vec::new();
        };
        let Some(members) = value.as_object() else {
            self.default_warning("hints", &value, "an object of tool names and words");
            return Vec::new();
        };
        let hints: Vec<(String, String)> =
            members.iter().filter_map(|(entry, words)| Some((entry.clone(), words.as_str()?.to_string()))).collect();
        if hints.len() != members.len() {
            self.warnings.push(String::from("hints: entries whose words are not a string were ignored"));
        }
        hints
    }

    fn format(&mut self) -> Option<Format> {
        let value = self.get("format")?.clone();
        let format = value.as_str().and_then(Format::from_name);
        if format.is_none() && value.as_str().is_none_or(|s| !s.trim().eq_ignore_ascii_case("auto")) {
            self.default_warning("format", &value, "openai, responses, anthropic, mcp or gemini");
        }
        format
    }

    fn mode(&mut self) -> Option<Mode> {
        let value = self.get("mode")?.clone();
        let mode = match value.as_str().map(|s| s.trim().to_ascii_lowercase()) {
            Some(s) if s == "bridge" => Some(Mode::Bridge),
            Some(s) if s == "native" => Some(Mode::Native),
            _ => None,
        };
        if mode.is_none() {
            self.default_warning("mode", &value, "bridge or native");
        }
        mode
    }

    fn bridge_names(&mut self) -> BridgeNames {
        let defaults = BridgeNames::default();
        let Some(value) = self.get("bridgeNames").cloned() else {
            return defaults;
        };
        let pick = |key: &str, index: usize, default: &str| -> Option<String> {
            let item = match &value {
                Value::Object(_) => value.get(key),
                Value::Array(items) => items.get(index),
                _ => None,
            };
            match item {
                None | Some(Value::Null) if value.is_object() => Some(default.into()),
                Some(Value::String(s)) if is_tool_name(s) => Some(s.clone()),
                _ => None,
            }
        };
        let names = match (
            pick("search", 0, &defaults.search),
            pick("describe", 1, &defaults.describe),
            pick("call", 2, &defaults.call),
        ) {
            (Some(search), Some(describe), Some(call)) if search != describe && describe != call && search != call => {
                Some(BridgeNames { search, describe, call })
            }
            _ => None,
        };
        names.unwrap_or_else(|| {
            self.default_warning(
                "bridgeNames",
                &value,
                "three distinct tool names (letters, digits, _ and -, at most 64)",
            );
            defaults
        })
    }
}

/// A name every provider accepts: `^[a-zA-Z0-9_-]{1,64}$`.
pub fn is_tool_name(name: &str) -> bool {
    (1..=64).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// `floor` for the finite, non-negative values options hold (`core` has no `f64::floor`).
fn floor_non_negative(x: f64) -> f64 {
    (x as u64) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(options: &str, expected: impl Fn(&Options) -> bool, warnings: usize) {
        let parsed = Options::parse_json(options);
        assert!(expected(&parsed.options), "{options}: {:?}", parsed.options);
        assert_eq!(parsed.warnings.len(), warnings, "{options}: {:?}", parsed.warnings);
    }

    #[test]
    fn an_unknown_name_suggests_the_closest_known_one() {
        let warnings = |text: &str| Options::parse_json(text).warnings;
        assert_eq!(
            warnings(r#"{"contextLenght":200000}"#),
            ["unknown option \"contextLenght\" ignored (did you mean \"contextLength\"?)"]
        );
        assert_eq!(
            warnings(r#"{"context_lenght":200000}"#),
            ["unknown option \"context_lenght\" ignored (did you mean \"context_length\"?)"]
        );
        assert_eq!(
            warnings(r#"{"alwaysload":["a"]}"#),
            ["unknown option \"alwaysload\" ignored (did you mean \"alwaysLoad\"?)"]
        );
        assert_eq!(warnings(r#"{"temperature":1}"#), ["unknown option \"temperature\" ignored"]);
    }

    #[test]
    fn lenient_parsing() {
        check("null", |o| *o == Options::default(), 0);
        check("{}", |o| *o == Options::default(), 0);
        check("[]", |o| *o == Options::default(), 1);
        check("not json", |o| *o == Options::default(), 1);
        check(r#"{"contextLength":200000}"#, |o| o.context_length == Some(200_000), 0);
        check(r#"{"context_length":"200000"}"#, |o| o.context_length == Some(200_000), 0);
        check(r#"{"contextLength":0}"#, |o| o.context_length == Some(1), 1);
        check(r#"{"contextLength":"lots"}"#, |o| o.context_length.is_none(), 1);
        check(r#"{"contextLength":1000.5}"#, |o| o.context_length == Some(1000), 1);
        check(r#"{"thresholdPct":150}"#, |o| o.threshold_pct == 100.0, 1);
        check(r#"{"threshold_pct":2.5}"#, |o| o.threshold_pct == 2.5, 0);
        check(r#"{"listingMaxTokens":10}"#, |o| o.listing_max_tokens == 200, 1);
        check(r#"{"listing_max_tokens":99999}"#, |o| o.listing_max_tokens == 60_000, 1);
        check(r#"{"maxSearchLimit":10,"searchDefaultLimit":12}"#, |o| o.search_default_limit == 10, 1);
        check(r#"{"max_search_limit":3}"#, |o| o.search_default_limit == 3 && o.max_search_limit == 3, 0);
        check(r#"{"enabled":false}"#, |o| o.enabled == Switch::Off, 0);
        check(r#"{"enabled":"No"}"#, |o| o.enabled == Switch::Off, 0);
        check(r#"{"enabled":1}"#, |o| o.enabled == Switch::On, 0);
        check(r#"{"enabled":"maybe"}"#, |o| o.enabled == Switch::Auto, 1);
        check(r#"{"listing":"off"}"#, |o| o.listing == Switch::Off, 0);
        check(r#"{"batch":"yes"}"#, |o| o.batch, 0);
        check(r#"{"batch":"auto"}"#, |o| !o.batch, 1);
        check(r#"{"full_matches_first":false}"#, |o| !o.full_matches_first, 0);
        check(r#"{"fullMatchesFirst":"nope"}"#, |o| o.full_matches_first, 1);
        check(
            r#"{"qualify":true,"format":"Anthropic"}"#,
            |o| o.qualify == Switch::On && o.format == Some(Format::Anthropic),
            0,
        );
        check(r#"{"qualify":"no"}"#, |o| o.qualify == Switch::Off, 0);
        check(r#"{"qualify":0}"#, |o| o.qualify == Switch::Off, 0);
        check(r#"{"qualify":"AUTO"}"#, |o| o.qualify == Switch::Auto, 0);
        check(r#"{"qualify":"sometimes"}"#, |o| o.qualify == Switch::On, 1);
        check(r#"{"format":"xml"}"#, |o| o.format.is_none(), 1);
        check(r#"{"format":"auto"}"#, |o| o.format.is_none(), 0);
        check(r#"{"alwaysLoad":["a",1,"b"]}"#, |o| o.always_load == ["a", "b"], 1);
        check(r#"{"always_load":"a, b"}"#, |o| o.always_load == ["a", "b"], 0);
        check(
            r#"{"hints":{"github/list_pull_requests":"open PRs","t":1}}"#,
            |o| o.hints == [(String::from("github/list_pull_requests"), String::from("open PRs"))],
            1,
        );
        check(r#"{"hints":["a"]}"#, |o| o.hints.is_empty(), 1);
        check(r#"{"defer":{"x":1}}"#, |o| o.defer.is_empty(), 1);
        check(r#"{"directWhenFits":true}"#, |o| o.direct_when_fits == Some(u64::MAX), 0);
        check(r#"{"direct_when_fits":"no"}"#, |o| o.direct_when_fits.is_none(), 0);
        check(r#"{"directWhenFits":1000}"#, |o| o.direct_when_fits == Some(1000), 0);
        check(r#"{"directWhenFits":"1000"}"#, |o| o.direct_when_fits == Some(1000), 0);
        check(r#"{"directWhenFits":"1"}"#, |o| o.direct_when_fits == Some(u64::MAX), 0);
        check(r#"{"directWhenFits":50}"#, |o| o.direct_when_fits == Some(100), 1);
        check(r#"{"directWhenFits":"always"}"#, |o| o.direct_when_fits.is_none(), 1);
        check(r#"{"bridgeNames":{"call":"invoke_tool"}}"#, |o| o.bridge_names.call == "invoke_tool", 0);
        check(r#"{"bridge_names":["s","d","c"]}"#, |o| o.bridge_names.describe == "d", 0);
        check(r#"{"bridgeNames":["s","s","c"]}"#, |o| o.bridge_names == BridgeNames::default(), 1);
        check(r#"{"bridgeNames":{"call":"has space"}}"#, |o| o.bridge_names == BridgeNames::default(), 1);
        check(r#"{"mode":"native"}"#, |o| o.mode == Mode::Native, 0);
        check(r#"{"mode":" Bridge "}"#, |o| o.mode == Mode::Bridge, 0);
        check(r#"{"mode":"hosted"}"#, |o| o.mode == Mode::Bridge, 1);
        check(r#"{"mode":true}"#, |o| o.mode == Mode::Bridge, 1);
        check(r#"{"colour":"red","contextLength":null}"#, |o| o.context_length.is_none(), 1);
    }
}
