//! Checks a tool call's arguments against the tool's JSON Schema before the tool runs, coercing what
//! models commonly send as text, and says in plain words what to fix (SPEC §7, "Argument validation").
//!
//! Invariants:
//! - Fail-open: whatever the validator does not understand (an external `$ref`, an unknown keyword,
//!   `pattern` and `format` (toolshelf ships no regex engine), a malformed schema such as
//!   `"type": 5`) lets the call through. Validation never blocks a call it cannot judge.
//! - Bounded by what it does: each pass has a budget of work in proportion to its input (every
//!   node visited, type name and `enum` item read, byte compared and path byte copied counts), and
//!   evaluation depth ([`MAX_EVAL_DEPTH`], which also bounds `$ref` cycles) is capped. Past either
//!   bound before a violation is found, the call is let through ([`Verdict::Unjudged`], which the
//!   caller reports as a warning); a violation once found is the verdict. Nothing panics.
//! - No amplification: a `$ref` target's result is memoised per value, `anyOf` failures are summed
//!   up as they come (never collected), long `type` lists and `enum`s are read once into sets, and
//!   a message is written only for the failure reported, with every value in it cut.
//! - Coercion (`"42"` → 42, `"true"` → true) happens only where it turns a failing value into a
//!   valid one: a string a string-typed field accepts stays a string.
//! - A rejection must be one the model can fix. So `oneOf` is read as `anyOf` (real schemas use it
//!   for overlapping alternatives); an `enum` or `const` that the node's own `type` rules out
//!   entirely (a broken schema no value satisfies) is not judged; nor is `additionalProperties`
//!   beside `allOf`/`anyOf`/`oneOf`/`$ref`, which may declare the properties it would forbid.
//!
//! Layer 5 of ARCHITECTURE.md's Layers: imports only the rooms of the layers below.

use crate::float::parse_f64;
use crate::json::{self, Value};
use crate::swar;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// Deepest evaluation: schema nesting, `$ref` hops and value nesting together. Deeper parts are
/// not judged (they pass), so a `$ref` cycle ends here.
pub const MAX_EVAL_DEPTH: usize = 64;

/// Most units of work (schema nodes visited, type names and `enum` items read, bytes compared,
/// path bytes copied) one pass may spend, however large its input (`pass_budget`).
pub const MAX_WORK: usize = 1 << 26;

/// Units of work a pass may spend on any input, before its size adds more (`pass_budget`).
const BASE_WORK: usize = 50_000;

/// Units of work a pass may spend per unit of its input's weight ([`weight`]).
const WORK_PER_WEIGHT: usize = 16;

/// Up to this many members or properties, a lookup scans them; more are sorted first. Also the
/// longest `enum` scanned; longer ones are looked up in a sorted set ([`EnumSet`]).
const SCANNED: usize = 16;

/// How many wide objects' sorted keys a call keeps ([`Validator::member`]).
const SORTED_KEPT: usize = 8;

/// Most `enum` values or allowed property names a message lists.
const LIST_LIMIT: usize = 12;

/// Longest text of a value in a message, in code points (then cut, `…`).
const QUOTED_CHARS: usize = 40;

/// Longest text of a key in a path, in code points (then cut, `…`): real property names reach 60.
const KEY_CHARS: usize = 100;

/// Why arguments fail a schema: where, which keyword, what was expected.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// Where the bad value is: `arguments`, `arguments.options.count`, `arguments.items[2]`.
    pub path: String,
    /// The failing keyword: `type`, `required`, `enum`, `anyOf`, ... (`false` for a `false` schema).
    pub keyword: &'static str,
    /// What was expected, in plain words for the model, without the path:
    /// `expected integer, got string "abc"`. [`Violation`]'s `Display` prefixes the path.
    pub message: String,
    /// The (sub)schema that failed, for the model: whole, or, when its compact JSON is long, a copy
    /// cut after at least its first 8,000 code points (`texts::MAX_SCHEMA_CHARS`, what a reject
    /// quotes), so that a megabyte of `enum` is never copied for a message.
    pub schema: Value,
    /// The code points of the whole failing schema's compact JSON.
    pub schema_chars: usize,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// What validation concluded.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The arguments (coerced where that helped) fit the schema, as far as it is understood.
    Valid,
    /// They break the schema: the call must not run.
    Invalid(Violation),
    /// Checking them would cost more than the work bound ([`MAX_WORK`], [`MAX_EVAL_DEPTH`])
    /// before any violation was found: not judged, so the call passes (fail-open), with a warning.
    Unjudged,
}

/// Validates `args` against `schema`, first coercing in place what models commonly send as text
/// (`"42"` → 42 where the schema wants an integer or number, `"true"`/`"false"` → booleans), but
/// only where the coerced value is valid and the text is not. `Ok(())` when valid or when the
/// validator cannot judge. On `Err`, the violation is the first one found in schema order, except
/// under `anyOf`/`oneOf`, where it is the most specific failure of an alternative (the deepest
/// one, ignoring alternatives of the wrong type); `args` are then left as they were.
///
/// `$ref`s are resolved against `schema` (`#`, `#/definitions/..`, `#/$defs/..`, any local pointer).
///
/// ```
/// use toolshelf::{json, schema::validate};
///
/// let schema = json::parse(r#"{"type": "object", "properties": {"count": {"type": "integer"}}}"#).unwrap();
/// let mut args = json::parse(r#"{"count": "42"}"#).unwrap();
/// assert_eq!(validate(&schema, &mut args), Ok(()));
/// assert_eq!(args.to_json(), r#"{"count":42}"#);
///
/// let mut args = json::parse(r#"{"count": "many"}"#).unwrap();
/// let violation = validate(&schema, &mut args).unwrap_err();
/// assert_eq!(violation.to_string(), r#"arguments.count: expected integer, got string "many""#);
/// assert_eq!(violation.keyword, "type");
/// ```
pub fn validate(schema: &Value, args: &mut Value) -> Result<(), Violation> {
    validate_counted(schema, args).0
}

/// As [`validate`], also giving the units of work spent by the costliest pass (never more than
/// [`MAX_WORK`]): what tests bound instead of a wall clock.
pub fn validate_counted(schema: &Value, args: &mut Value) -> (Result<(), Violation>, usize) {
    let (verdict, work) = judge(schema, args);
    let result = match verdict {
        Verdict::Invalid(violation) => Err(violation),
        Verdict::Valid | Verdict::Unjudged => Ok(()),
    };
    (result, work)
}

/// The verdict on `args` (coerced in place when that makes them valid), and the units of work
/// spent by the costliest pass. Each pass (strict; a dry run of coercion; coercion and a strict
/// check of its result) has a budget of its own (`pass_budget`), and a violation a pass found is
/// the verdict even when a later pass runs out of work: a bound never lets a found violation pass.
pub fn judge(schema: &Value, args: &mut Value) -> (Verdict, usize) {
    if !args.depth_within(json::MAX_DEPTH + 1) {
        return (Verdict::Unjudged, 0); // Only a hand-built value can be this deep.
    }
    let mut validator = Validator::new(schema, pass_budget(schema, args));
    let verdict = validator.passes(args);
    (verdict, validator.most_spent)
}

/// Units of work each pass may spend: [`BASE_WORK`] plus [`WORK_PER_WEIGHT`] per unit of the
/// schema's and the arguments' weight, at most [`MAX_WORK`]. Work in proportion to the input keeps
/// every shape linear in its size: what amplifies (a `$ref` reached many times, a long `type` list
/// read for every branch) is either made cheap (memoised, read once) or ends at the bound.
fn pass_budget(schema: &Value, args: &Value) -> usize {
    let input = weight(schema, json::MAX_DEPTH + 1).saturating_add(weight(args, json::MAX_DEPTH + 1));
    BASE_WORK.saturating_add(input.saturating_mul(WORK_PER_WEIGHT)).min(MAX_WORK)
}

/// A value's size in units of work: one per node, plus one per 16 bytes of string; what is deeper
/// than `depth` counts for nothing (it is not judged).
fn weight(value: &Value, depth: usize) -> usize {
    match value {
        Value::String(s) => 1 + s.len() / 16,
        Value::Number(n) => 1 + n.len() / 16,
        Value::Array(items) if depth > 0 => items.iter().fold(1, |sum, v| sum.saturating_add(weight(v, depth - 1))),
        Value::Object(members) if depth > 0 => members
            .iter()
            .fold(1, |sum, (k, v)| sum.saturating_add(1 + k.len() / 16).saturating_add(weight(v, depth - 1))),
        _ => 1,
    }
}

/// How a pass treats strings that read as numbers or booleans.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Mode {
    /// No coercion.
    Strict,
    /// Coercion considered, nothing changed: a dry run.
    Trial,
    /// Coercion applied in place.
    Coerce,
}

/// What a pass concluded: a pass that ran out of work concludes nothing.
enum Pass<'s> {
    Valid,
    Invalid(Fail<'s>),
    Unjudged,
}

/// A violation while validating: borrows the schema; its message is written only for the one
/// reported ([`Fail::into_violation`]), so a failure thrown away (an `anyOf` alternative) costs
/// no message. Cheap to clone: the path is shared.
#[derive(Clone)]
struct Fail<'s> {
    path: Rc<str>,
    keyword: &'static str,
    /// Shared like the path: a memoised failure handed out a thousand times is never copied.
    detail: Rc<Detail<'s>>,
    schema: &'s Value,
}

/// What a [`Fail`] says, kept as parts until the message is written.
#[derive(Clone)]
enum Detail<'s> {
    /// A message already written (short: its values are cut).
    Text(String),
    /// `expected <types>, got <value>`: the node's `type` names (each once, in order).
    Types(Vec<&'s str>, String),
    /// `must be one of <values>`.
    Enum(&'s [Value]),
    /// `must be <value>`.
    Const(&'s Value),
    /// An extra property under `additionalProperties: false`: the key (cut) and the allowed ones.
    Unexpected(String, &'s [(String, Value)]),
    /// No alternative matched, none of them of the right type, and no type to name.
    Alternatives(&'static str),
}

impl Fail<'_> {
    fn into_violation(self) -> Violation {
        // A hand-built schema could nest deeper than a recursive copy can safely go.
        let (schema, schema_chars) = match self.schema.depth_within(json::MAX_DEPTH) {
            true => (pruned(self.schema, &mut SCHEMA_BYTES_KEPT.clone()), self.schema.json_code_points()),
            false => (Value::Null, 4),
        };
        let detail = Rc::try_unwrap(self.detail).unwrap_or_else(|shared| (*shared).clone());
        let message = match detail {
            Detail::Text(message) => message,
            Detail::Types(names, got) => format!("expected {}, got {got}", or_list(&names)),
            Detail::Enum(allowed) => format!("must be one of {}", brief_list(allowed.iter())),
            Detail::Const(arg) => format!("must be {}", brief(arg)),
            Detail::Unexpected(key, known) => {
                let allowed = short_list(known.iter().map(|(k, _)| cut(k, QUOTED_CHARS)), ", ");
                let allowed = if known.is_empty() { String::from("none") } else { allowed };
                format!("unexpected property {key} (additionalProperties is false; allowed: {allowed})")
            }
            Detail::Alternatives(keyword) => format!("must match one of the {keyword} alternatives"),
        };
        Violation { path: String::from(&*self.path), keyword: self.keyword, message, schema, schema_chars }
    }
}

type Check<'s> = Result<(), Fail<'s>>;

/// A `$ref` target's result on one value in one mode ([`Validator::check_ref`]).
struct Memo<'s> {
    /// The [`Validator::generation`] it was found in; older ones are stale.
    generation: u32,
    result: Check<'s>,
    /// Whether judging it skipped something not understood ([`Validator::unsure`]).
    unsure: bool,
}

struct Validator<'s> {
    root: &'s Value,
    mode: Mode,
    /// Units of work each pass may spend.
    budget: usize,
    /// Work left in this pass.
    work: usize,
    /// The most work a pass spent so far.
    most_spent: usize,
    /// A bound was hit: this pass concludes nothing ([`Pass::Unjudged`]).
    gave_up: bool,
    /// How many things were skipped as not understood; a pass that skipped nothing is certain.
    unsure: usize,
    /// Whether a strict check failed where coercion could have mended it: when none did, the
    /// passes with coercion would find what the strict pass found, and are not run.
    coercible: bool,
    /// The path of the value being checked.
    path: String,
    /// The keys of the last [`SORTED_KEPT`] wide objects of the schema looked into (`properties`,
    /// the parents of `$ref` targets), by the object's address, sorted ([`swar::sort_names`]): a
    /// key is found in log time, not by a scan of every member (quadratic in the width over many
    /// lookups). Sorting counts as work, so that alternating between more objects stays bounded.
    sorted: Vec<(usize, Vec<(&'s str, usize)>)>,
    /// What the pass keeps so as not to do work twice, by addresses ([`Key`]): results of `$ref`
    /// targets per value and mode (a node reached through many `$ref`s, an `anyOf` of a thousand
    /// references to one definition, is judged once per value), long `enum`s as sets, long
    /// `type` lists read. One map for all, cleared at each pass.
    cache: BTreeMap<Key, Cached<'s>>,
    /// The `$ref` last resolved and its target: a schema repeating one reference (an `anyOf` of a
    /// thousand references to one definition) walks its pointer once.
    last_ref: Option<(&'s str, Option<&'s Value>)>,
    /// Bumped whenever a value may have changed or a temporary value's address may be reused
    /// (a coercion applied, a coerced reading judged): memo entries of older generations are stale.
    generation: u32,
}

/// Bytes of compact JSON a violation's copy of its schema keeps at least: four per code point of
/// the quote a reject makes, so that the copy's JSON starts with the whole schema's quoted part.
const SCHEMA_BYTES_KEPT: usize = 4 * crate::texts::MAX_SCHEMA_CHARS + 64;

/// A copy of `value` that holds its compact JSON's first `budget` bytes or more (containers cut
/// once the budget is spent): its JSON and the whole value's agree that far. Bounded by the
/// budget, whatever the value's size.
fn pruned(value: &Value, budget: &mut usize) -> Value {
    match value {
        Value::Array(items) => {
            let mut kept = Vec::new();
            for item in items {
                if *budget == 0 {
                    break;
                }
                *budget = budget.saturating_sub(1);
                kept.push(pruned(item, budget));
            }
            Value::Array(kept)
        }
        Value::Object(members) => {
            let mut kept = Vec::new();
            for (key, item) in members {
                if *budget == 0 {
                    break;
                }
                *budget = budget.saturating_sub(key.len() + 4);
                kept.push((key.clone(), pruned(item, budget)));
            }
            Value::Object(kept)
        }
        Value::String(text) => {
            *budget = budget.saturating_sub(text.len() + 2);
            value.clone()
        }
        Value::Number(text) => {
            *budget = budget.saturating_sub(text.len());
            value.clone()
        }
        scalar => {
            *budget = budget.saturating_sub(5);
            scalar.clone()
        }
    }
}

/// Whether a failure is of a kind coercion may mend (a value of the wrong kind for the node).
fn coerces_for(fail: &Fail<'_>) -> bool {
    matches!(fail.keyword, "type" | "enum" | "const" | "anyOf" | "oneOf")
}

/// Whether coercion could have mended `fail` of `value`: a failure of its kind, on text that
/// reads as a number or boolean.
fn coercible(fail: &Fail<'_>, value: &Value) -> bool {
    coerces_for(fail) && coerced_reading(value).is_some()
}

/// A [`Validator::cache`] key: two addresses and what is kept of them.
type Key = (usize, usize, Kept);

/// What a [`Validator::cache`] entry is.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kept {
    /// A `$ref` target's result on a value, in a mode (`Strict` or `Trial`).
    Result(Mode),
    /// A long `enum` array.
    Enum,
    /// A long `type` list.
    Types,
}

/// A [`Validator::cache`] entry.
enum Cached<'s> {
    Result(Memo<'s>),
    /// `None` after the first look (a scan); the sorted set is built at the second.
    Enum(Option<EnumSet<'s>>),
    /// `None`: not understood.
    Types(Option<TypeList<'s>>),
}

impl<'s> Validator<'s> {
    fn new(root: &'s Value, budget: usize) -> Validator<'s> {
        Validator {
            root,
            mode: Mode::Strict,
            budget,
            work: budget,
            most_spent: 0,
            gave_up: false,
            unsure: 0,
            coercible: false,
            path: String::new(),
            sorted: Vec::new(),
            cache: BTreeMap::new(),
            last_ref: None,
            generation: 0,
        }
    }

    /// The passes of [`judge`]: strict; then, on a failure, coercion where a dry run shows it helps.
    fn passes(&mut self, args: &mut Value) -> Verdict {
        let found = match self.run(Mode::Strict, args) {
            Pass::Valid => return Verdict::Valid,
            Pass::Unjudged => return Verdict::Unjudged,
            Pass::Invalid(fail) if self.coercible => fail,
            Pass::Invalid(fail) => return Verdict::Invalid(fail.into_violation()),
        };
        // Coerce only what a dry run shows to be worth it, then make sure the result holds.
        match self.run(Mode::Trial, args) {
            Pass::Valid => {}
            Pass::Invalid(fail) => return Verdict::Invalid(fail.into_violation()),
            Pass::Unjudged => return Verdict::Invalid(found.into_violation()),
        }
        let original = args.clone();
        let coerced = match self.run(Mode::Coerce, args) {
            Pass::Valid => self.run(Mode::Strict, args),
            other => other,
        };
        let fail = match coerced {
            Pass::Valid => return Verdict::Valid,
            Pass::Invalid(fail) => fail, // coercing one part spoiled another (contradictory schemas)
            Pass::Unjudged => found,
        };
        *args = original;
        Verdict::Invalid(fail.into_violation())
    }

    fn run(&mut self, mode: Mode, args: &mut Value) -> Pass<'s> {
        (self.mode, self.work, self.gave_up) = (mode, self.budget, false);
        self.cache.clear();
        self.path.clear();
        self.path.push_str("arguments");
        let result = self.check(self.root, args, 0);
        self.most_spent = self.most_spent.max(self.budget - self.work);
        match result {
            _ if self.gave_up => Pass::Unjudged,
            Ok(()) => Pass::Valid,
            Err(fail) => Pass::Invalid(fail),
        }
    }

    /// Takes `units` of work from the pass's budget: false (and the pass gives up) when it is spent.
    fn spend(&mut self, units: usize) -> bool {
        if self.gave_up {
            return false;
        }
        if units > self.work {
            self.work = 0;
            self.gave_up = true;
            return false;
        }
        self.work -= units;
        true
    }

    /// Checks `value` against one schema node, then, when it fails and may coerce, its coerced reading.
    fn check(&mut self, schema: &'s Value, value: &mut Value, depth: usize) -> Check<'s> {
        if depth > MAX_EVAL_DEPTH {
            self.gave_up = true;
        }
        if !self.spend(1) {
            return Ok(());
        }
        match schema {
            Value::Bool(true) => Ok(()),
            Value::Bool(false) => Err(self.fail_text("false", String::from("no value is allowed here"), schema)),
            Value::Object(keywords) => match self.check_keywords(schema, keywords, value, depth) {
                Err(fail) if self.mode != Mode::Strict => self.check_coerced(schema, keywords, value, depth, fail),
                Err(fail) => {
                    self.coercible |= coercible(&fail, value);
                    Err(fail)
                }
                result => result,
            },
            _ => self.not_understood(),
        }
    }

    /// After `fail`: if `value` is text that reads as a number or boolean valid here, that reading
    /// wins. Only when the text failed for its kind (type, enum, const, alternatives): a string
    /// too long for an untyped field is not turned into a number to dodge `maxLength`.
    fn check_coerced(
        &mut self,
        schema: &'s Value,
        keywords: &'s [(String, Value)],
        value: &mut Value,
        depth: usize,
        fail: Fail<'s>,
    ) -> Check<'s> {
        if !coerces_for(&fail) {
            return Err(fail);
        }
        let Some(mut reading) = coerced_reading(value) else { return Err(fail) };
        let mode = core::mem::replace(&mut self.mode, Mode::Strict);
        let result = self.check_keywords(schema, keywords, &mut reading, depth);
        self.mode = mode;
        // The reading lived on the stack: what the memo learnt of it must not be taken for
        // another value at the same address.
        self.generation = self.generation.wrapping_add(1);
        match result {
            Ok(()) => {
                if mode == Mode::Coerce {
                    *value = reading;
                }
                Ok(())
            }
            // The reading has the wanted type but breaks another rule: that is the useful message.
            Err(better) if better.keyword != "type" => Err(better),
            Err(_) => Err(fail),
        }
    }

    fn check_keywords(
        &mut self,
        schema: &'s Value,
        keywords: &'s [(String, Value)],
        value: &mut Value,
        depth: usize,
    ) -> Check<'s> {
        if *value == Value::Null && schema.get("nullable") == Some(&Value::Bool(true)) {
            return Ok(()); // OpenAPI 3.0
        }
        // The type first: when it is wrong, that is what the model needs to hear.
        if let Some(arg) = schema.get("type") {
            self.check_type(schema, arg, value)?;
        }
        let (mut members, mut items) = (false, false);
        for (keyword, arg) in keywords {
            if !self.spend(1) {
                return Ok(());
            }
            match keyword.as_str() {
                "type" => {}
                "enum" => self.check_enum(schema, arg, value)?,
                "const" => self.check_const(schema, arg, value)?,
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
                    self.check_bound(schema, keyword, arg, value)?
                }
                "multipleOf" => self.check_multiple_of(schema, arg, value)?,
                "minLength" | "maxLength" => {
                    if let Value::String(s) = value {
                        if !self.spend(s.len() / 64) {
                            return Ok(());
                        }
                        self.check_count(schema, keyword, arg, json::code_points(s), "characters")?;
                    }
                }
                "minItems" | "maxItems" => {
                    if let Value::Array(a) = value {
                        self.check_count(schema, keyword, arg, a.len(), "items")?;
                    }
                }
                "minProperties" | "maxProperties" => {
                    if let Value::Object(m) = value {
                        self.check_count(schema, keyword, arg, m.len(), "properties")?;
                    }
                }
                "required" => self.check_required(schema, arg, value)?,
                "properties" | "additionalProperties" | "patternProperties" => members = true,
                "items" | "prefixItems" => items = true,
                "allOf" => self.check_all_of(arg, value, depth)?,
                "anyOf" => self.check_any_of("anyOf", schema, arg, value, depth)?,
                "oneOf" => self.check_any_of("oneOf", schema, arg, value, depth)?,
                "not" => self.check_not(schema, arg, value, depth)?,
                "$ref" => self.check_ref(arg, value, depth)?,
                other if is_annotation(other) => {}
                _ => self.unsure += 1,
            }
        }
        match value {
            Value::Object(m) if members => self.check_members(schema, m, depth),
            Value::Array(a) if items => self.check_items(schema, a, depth),
            _ => Ok(()),
        }
    }

    /// `type`, a name or a list of names (read once, as a set of [`TypeSet`] bits: a list of a
    /// thousand names costs a thousand units once, not per name per value).
    fn check_type(&mut self, schema: &'s Value, arg: &'s Value, value: &Value) -> Check<'s> {
        let names = match arg {
            Value::String(_) => core::slice::from_ref(arg),
            Value::Array(names) if !names.is_empty() => names.as_slice(),
            _ => return self.not_understood(),
        };
        let Some(set) = self.types_of(names) else { return self.not_understood() };
        if set.admits(value) {
            return Ok(());
        }
        let names = self.type_names(names);
        Err(self.fail(schema, "type", Detail::Types(names, describe(value))))
    }

    /// The set of a `type` list's names (`None` when it is not understood or the pass is out of
    /// work). A long list is read once a pass (cached by its address): a list of a thousand names
    /// costs a thousand units once, not per value judged.
    fn types_of(&mut self, names: &'s [Value]) -> Option<TypeSet> {
        if names.len() <= SCANNED {
            return if self.spend(names.len()) { TypeSet::of(names) } else { None };
        }
        self.long_type_list(names).map(|list| list.set)
    }

    /// The names of a `type` list, each once, in the order written (for a message).
    fn type_names(&mut self, names: &'s [Value]) -> Vec<&'s str> {
        if names.len() <= SCANNED {
            return TypeList::of(names).map(|list| list.names).unwrap_or_default();
        }
        self.long_type_list(names).map(|list| list.names.clone()).unwrap_or_default()
    }

    fn long_type_list(&mut self, names: &'s [Value]) -> Option<&TypeList<'s>> {
        let key = (names.as_ptr() as usize, 0, Kept::Types);
        if !self.cache.contains_key(&key) {
            if !self.spend(names.len()) {
                return None;
            }
            self.cache.insert(key, Cached::Types(TypeList::of(names)));
        } else if !self.spend(1) {
            return None;
        }
        match self.cache.get(&key)? {
            Cached::Types(list) => list.as_ref(),
            _ => None,
        }
    }

    /// The node's `type` as a set, for judging whether an `enum` or `const` is possible at all:
    /// `None` when it has none or one not understood (then every value is possible).
    fn node_types(&mut self, schema: &'s Value) -> Option<TypeSet> {
        let names = match schema.get("type")? {
            name @ Value::String(_) => core::slice::from_ref(name),
            Value::Array(names) if !names.is_empty() => names.as_slice(),
            _ => return None,
        };
        self.types_of(names)
    }

    fn check_enum(&mut self, schema: &'s Value, arg: &'s Value, value: &Value) -> Check<'s> {
        let Value::Array(allowed) = arg else { return self.not_understood() };
        let found = if allowed.len() <= SCANNED {
            self.scan_for(allowed, value)
        } else {
            self.in_enum_set(schema, arg, allowed, value)
        };
        match found {
            Some(true) => Ok(()),
            None => Ok(()), // out of work
            Some(false) => {
                let admitted = match self.cache.get(&(address(arg), 0, Kept::Enum)) {
                    Some(Cached::Enum(Some(set))) => set.admitted,
                    _ => {
                        let types = self.node_types(schema);
                        allowed.iter().any(|a| admits(types, schema, a))
                    }
                };
                if !admitted {
                    return self.not_understood(); // e.g. string values on an array: no value could pass
                }
                Err(self.fail(schema, "enum", Detail::Enum(allowed)))
            }
        }
    }

    /// Whether `value` is one of `allowed`, compared one by one; `None` when out of work.
    fn scan_for(&mut self, allowed: &'s [Value], value: &Value) -> Option<bool> {
        for item in allowed {
            if self.equal(item, value)? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Whether `value` is in the long `enum` `arg` of `schema`: the first look in a pass scans it,
    /// a second builds its sorted set (kept for the pass), then lookups take log time; `None`
    /// when out of work.
    fn in_enum_set(&mut self, schema: &'s Value, arg: &'s Value, allowed: &'s [Value], value: &Value) -> Option<bool> {
        let key = (address(arg), 0, Kept::Enum);
        match self.cache.get(&key) {
            None => {
                self.cache.insert(key, Cached::Enum(None));
                return self.scan_for(allowed, value);
            }
            Some(Cached::Enum(None)) => {
                let log = (usize::BITS - allowed.len().leading_zeros()) as usize;
                if !self.spend(allowed.len().saturating_mul(1 + log / 8)) {
                    return None;
                }
                let types = self.node_types(schema);
                self.cache.insert(key, Cached::Enum(Some(EnumSet::of(allowed, schema, types))));
            }
            Some(_) => {}
        }
        if !self.spend(1) {
            return None;
        }
        let Some(Cached::Enum(Some(set))) = self.cache.get(&key) else { return None };
        if let Some(found) = set.has_scalar(value) {
            return Some(found);
        }
        let others = set.others.clone();
        for item in others {
            if self.equal(item, value)? {
                return Some(true);
            }
        }
        Some(false)
    }

    fn check_const(&mut self, schema: &'s Value, arg: &'s Value, value: &Value) -> Check<'s> {
        match self.equal(arg, value) {
            Some(true) | None => Ok(()),
            Some(false) if !admits(self.node_types(schema), schema, arg) => self.not_understood(),
            Some(false) => Err(self.fail(schema, "const", Detail::Const(arg))),
        }
    }

    /// JSON equality ([`json_eq`]) paid for by its size; `None` when the pass is out of work.
    fn equal(&mut self, a: &Value, b: &Value) -> Option<bool> {
        let mut work = self.work;
        let equal = json_eq_within(a, b, &mut work);
        self.work = work;
        match equal {
            Some(equal) if !self.gave_up => Some(equal),
            _ => {
                self.gave_up = true;
                None
            }
        }
    }

    /// `minimum`, `maximum`, and both forms of `exclusiveMinimum`/`exclusiveMaximum`: a number
    /// (draft 6 on) or a boolean that makes `minimum`/`maximum` exclusive (draft 4).
    fn check_bound(&mut self, schema: &'s Value, keyword: &str, arg: &'s Value, value: &Value) -> Check<'s> {
        let (Value::Number(x), Value::Number(limit)) = (value, arg) else {
            return match arg {
                Value::Number(_) | Value::Bool(_) => Ok(()),
                _ => self.not_understood(),
            };
        };
        if !self.spend((x.len() + limit.len()) / 16) {
            return Ok(());
        }
        let (Some(xf), Some(limitf)) = (parse_f64(x), parse_f64(limit)) else { return self.not_understood() };
        let (keyword, op, holds): (&'static str, &str, bool) = match keyword {
            "minimum" if schema.get("exclusiveMinimum") == Some(&Value::Bool(true)) => ("minimum", ">", xf > limitf),
            "minimum" => ("minimum", ">=", xf >= limitf),
            "maximum" if schema.get("exclusiveMaximum") == Some(&Value::Bool(true)) => ("maximum", "<", xf < limitf),
            "maximum" => ("maximum", "<=", xf <= limitf),
            "exclusiveMinimum" => ("exclusiveMinimum", ">", xf > limitf),
            _ => ("exclusiveMaximum", "<", xf < limitf),
        };
        if holds {
            return Ok(());
        }
        let message = format!("must be {op} {}, got {}", cut(limit, QUOTED_CHARS), cut(x, QUOTED_CHARS));
        Err(self.fail_text(keyword, message, schema))
    }

    fn check_multiple_of(&mut self, schema: &'s Value, arg: &'s Value, value: &Value) -> Check<'s> {
        let (Value::Number(x), Some(step)) = (value, arg.as_f64().filter(|s| *s > 0.0)) else { return Ok(()) };
        if !self.spend(x.len() / 16) {
            return Ok(());
        }
        match parse_f64(x) {
            Some(xf) if !is_multiple(xf, step) => {
                let message = format!("must be a multiple of {}, got {}", brief(arg), cut(x, QUOTED_CHARS));
                Err(self.fail_text("multipleOf", message, schema))
            }
            _ => Ok(()),
        }
    }

    /// `min*`/`max*` bounds on a count: characters (code points), items or properties.
    fn check_count(&mut self, schema: &'s Value, keyword: &str, arg: &'s Value, count: usize, noun: &str) -> Check<'s> {
        let Some(limit) = arg.as_f64() else { return self.not_understood() };
        let (keyword, words, holds): (&'static str, &str, bool) = match keyword {
            "minLength" => ("minLength", "at least", count as f64 >= limit),
            "maxLength" => ("maxLength", "at most", count as f64 <= limit),
            "minItems" => ("minItems", "at least", count as f64 >= limit),
            "maxItems" => ("maxItems", "at most", count as f64 <= limit),
            "minProperties" => ("minProperties", "at least", count as f64 >= limit),
            _ => ("maxProperties", "at most", count as f64 <= limit),
        };
        if holds {
            return Ok(());
        }
        Err(self.fail_text(keyword, format!("must have {words} {} {noun}, got {count}", brief(arg)), schema))
    }

    fn check_required(&mut self, schema: &'s Value, arg: &'s Value, value: &Value) -> Check<'s> {
        let (Value::Object(members), Value::Array(names)) = (value, arg) else { return Ok(()) };
        let sorting = if members.len() <= SCANNED { members.len() * names.len().min(1) } else { members.len() * 4 };
        if !self.spend(names.len().saturating_add(sorting)) {
            return Ok(());
        }
        let missing = if members.len() <= SCANNED {
            names.iter().filter_map(Value::as_str).find(|name| !members.iter().any(|(k, _)| k == name))
        } else {
            let keys = sorted_keys(members);
            names.iter().filter_map(Value::as_str).find(|name| swar::last_named(&keys, name).is_none())
        };
        match missing {
            Some(name) => {
                Err(self.fail_text("required", format!("missing required property {}", quoted(name)), schema))
            }
            None => Ok(()),
        }
    }

    /// `properties` and `additionalProperties` (`false` or a schema). Extra properties are not
    /// judged beside `patternProperties` (which needs a regex engine), nor beside `allOf`/`anyOf`/
    /// `oneOf`/`$ref`, which may declare properties of their own: JSON Schema would reject those
    /// too, but the model could not fix that.
    fn check_members(&mut self, schema: &'s Value, members: &mut [(String, Value)], depth: usize) -> Check<'s> {
        let known: &'s [(String, Value)] = schema.get("properties").and_then(Value::as_object).unwrap_or(&[]);
        let extra = schema.get("additionalProperties").filter(|_| !extras_declared_elsewhere(schema));
        if !self.spend(members.len()) {
            return Ok(());
        }
        for (key, child) in members.iter_mut() {
            let sub = match self.member(known, key) {
                Some(sub) => sub,
                None => match extra {
                    Some(Value::Bool(false)) => {
                        return Err(self.fail(schema, "additionalProperties", Detail::Unexpected(quoted(key), known)))
                    }
                    Some(sub) => sub,
                    None => continue,
                },
            };
            let mark = self.enter_key(key);
            let result = self.check(sub, child, depth + 1);
            self.path.truncate(mark);
            result?;
        }
        Ok(())
    }

    /// The member `key` of a schema object (the last, should a key repeat, as [`Value::get`]): a
    /// scan of a few members or of an object looked into once, a binary search of the keys of an
    /// object looked into again (sorted then, once per call).
    fn member(&mut self, members: &'s [(String, Value)], key: &str) -> Option<&'s Value> {
        let scan = || members.iter().rev().find(|(k, _)| k == key).map(|(_, sub)| sub);
        if members.len() <= SCANNED {
            return scan();
        }
        let address = members.as_ptr() as usize;
        if self.sorted.last().is_none_or(|(a, _)| *a != address) {
            match self.sorted.iter().position(|(a, _)| *a == address) {
                Some(at) => {
                    let kept = self.sorted.remove(at);
                    self.sorted.push(kept);
                }
                None => {
                    // The first look into an object is a scan; its keys are sorted at the second.
                    if !self.spend(members.len()) {
                        return None;
                    }
                    if self.sorted.len() >= SORTED_KEPT {
                        self.sorted.remove(0);
                    }
                    self.sorted.push((address, Vec::new()));
                    return scan();
                }
            }
        }
        let log = usize::BITS - members.len().leading_zeros();
        let sorting = members.len().saturating_mul(log as usize);
        let sorted = match self.sorted.last_mut() {
            Some((_, keys)) if keys.is_empty() => {
                if sorting > self.work {
                    self.gave_up = true;
                    return None;
                }
                self.work -= sorting;
                *keys = sorted_keys(members);
                keys.as_slice()
            }
            Some((_, keys)) => keys.as_slice(),
            None => &[],
        };
        swar::last_named(sorted, key).and_then(|at| members.get(at)).map(|(_, sub)| sub)
    }

    /// [`Validator::resolve`], the last reference's target taken as it was.
    fn resolve_again(&mut self, reference: &'s str) -> Option<&'s Value> {
        match self.last_ref {
            Some((last, target)) if last == reference => target,
            _ => {
                let target = self.resolve(reference);
                self.last_ref = Some((reference, target));
                target
            }
        }
    }

    /// Resolves a local `$ref` (`#` or a `#/...` JSON pointer with `~1` → `/` and `~0` → `~`).
    fn resolve(&mut self, reference: &str) -> Option<&'s Value> {
        let pointer = reference.strip_prefix('#')?;
        if pointer.is_empty() {
            return Some(self.root);
        }
        if !self.spend(1 + pointer.len() / 16) {
            return None;
        }
        pointer.strip_prefix('/')?.split('/').try_fold(self.root, |node, token| {
            let token = unescape_token(token);
            match node {
                Value::Object(members) => self.member(members, &token),
                Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
                _ => None,
            }
        })
    }

    /// `items` as one schema for all items; `items` as a list or `prefixItems` position by position
    /// (with `prefixItems`, `items` covers the rest; extra tuple items under `additionalItems` pass).
    fn check_items(&mut self, schema: &'s Value, items: &mut [Value], depth: usize) -> Check<'s> {
        let every = schema.get("items");
        let (tuple, rest): (&'s [Value], Option<&'s Value>) = match (schema.get("prefixItems"), every) {
            (Some(Value::Array(prefix)), _) => (prefix, every),
            (_, Some(Value::Array(tuple))) => (tuple, None),
            _ => (&[], every),
        };
        // The common `items: {"type": …}` (ids, names): an item of an admitted type is judged by the
        // set alone; any other goes the whole way (coercion, the message).
        let only_types = rest.and_then(|sub| self.only_types(sub));
        for (index, item) in items.iter_mut().enumerate() {
            if index >= tuple.len() && only_types.is_some_and(|set| set.admits(item)) {
                if !self.spend(1) {
                    return Ok(());
                }
                continue;
            }
            let Some(sub) = tuple.get(index).or(rest) else { break };
            let mark = self.path.len();
            push_index(&mut self.path, index);
            let result = self.check(sub, item, depth + 1);
            self.path.truncate(mark);
            result?;
            if self.gave_up {
                return Ok(());
            }
        }
        Ok(())
    }

    /// The set of a schema that says nothing but `type` (and annotations): a value of one of its
    /// types passes it, whatever the mode.
    fn only_types(&mut self, schema: &'s Value) -> Option<TypeSet> {
        let Value::Object(keywords) = schema else { return None };
        let plain = keywords.iter().all(|(k, _)| k == "type" || (is_annotation(k) && k != "nullable"));
        let names = match schema.get("type").filter(|_| plain)? {
            name @ Value::String(_) => core::slice::from_ref(name),
            Value::Array(names) if !names.is_empty() => names.as_slice(),
            _ => return None,
        };
        self.types_of(names)
    }

    fn check_all_of(&mut self, arg: &'s Value, value: &mut Value, depth: usize) -> Check<'s> {
        let Value::Array(branches) = arg else { return self.not_understood() };
        for branch in branches {
            self.check(branch, value, depth + 1)?;
            if self.gave_up {
                return Ok(());
            }
        }
        Ok(())
    }

    /// `anyOf`, and `oneOf` read the same way: a value matching two `oneOf` alternatives passes.
    /// Real schemas use `oneOf` for overlapping alternatives (Cloudflare's IDs: a string of at most
    /// 32 characters, or at most 36); rejecting a match of both would block correct calls with no
    /// fix the model could make. Alternatives are tried as they are, then (when this pass may)
    /// with coercion. The failures of the alternatives are summed up as they come ([`Failures`]),
    /// never collected: a thousand alternatives keep one failure and a few type names.
    fn check_any_of(
        &mut self,
        keyword: &'static str,
        schema: &'s Value,
        arg: &'s Value,
        value: &mut Value,
        depth: usize,
    ) -> Check<'s> {
        let branches = match arg {
            Value::Array(branches) if !branches.is_empty() => branches,
            _ => return self.not_understood(),
        };
        let mut failures = Failures::default();
        for &attempt in self.attempts() {
            failures = Failures::default();
            for branch in branches {
                match self.check_as(attempt, branch, value, depth + 1) {
                    _ if self.gave_up => return Ok(()),
                    Ok(()) => return self.commit(attempt, branch, value, depth),
                    Err(fail) => {
                        if !self.spend(1 + fail.path.len() / 16) {
                            return Ok(());
                        }
                        failures.add(fail, &self.path);
                    }
                }
            }
        }
        Err(self.most_useful(failures, keyword, schema, value))
    }

    /// `not`, judged without coercion; a subschema "matched" only because something was skipped
    /// does not block the call.
    fn check_not(&mut self, schema: &'s Value, arg: &'s Value, value: &mut Value, depth: usize) -> Check<'s> {
        let unsure = self.unsure;
        match self.check_as(Mode::Strict, arg, value, depth + 1) {
            Ok(()) if self.unsure == unsure && !self.gave_up => {
                Err(self.fail_text("not", String::from("must not match the schema under \"not\""), schema))
            }
            _ => Ok(()),
        }
    }

    /// A local `$ref`, its target's result memoised per value and mode (a pass that coerces in
    /// place is not memoised: it changes what it judges).
    fn check_ref(&mut self, arg: &'s Value, value: &mut Value, depth: usize) -> Check<'s> {
        let Some(target) = arg.as_str().and_then(|r| self.resolve_again(r)) else {
            return self.not_understood(); // external, an anchor, or a pointer to nothing
        };
        if self.mode == Mode::Coerce {
            return self.check(target, value, depth + 1);
        }
        let key = (address(target), address(value), Kept::Result(self.mode));
        if let Some(Cached::Result(memo)) =
            self.cache.get(&key).filter(|c| matches!(c, Cached::Result(m) if m.generation == self.generation))
        {
            let (result, unsure) = (memo.result.clone(), memo.unsure);
            self.unsure += usize::from(unsure);
            return if self.spend(1) { result } else { Ok(()) };
        }
        let (unsure, generation) = (self.unsure, self.generation);
        let result = self.check(target, value, depth + 1);
        if !self.gave_up && self.generation == generation && self.spend(2) {
            let memo = Memo { generation, result: result.clone(), unsure: self.unsure != unsure };
            self.cache.insert(key, Cached::Result(memo));
        }
        result
    }

    /// The passes an alternative gets: as is, then (if this pass may coerce) as a dry run with coercion.
    fn attempts(&self) -> &'static [Mode] {
        match self.mode {
            Mode::Strict => &[Mode::Strict],
            _ => &[Mode::Strict, Mode::Trial],
        }
    }

    fn check_as(&mut self, mode: Mode, schema: &'s Value, value: &mut Value, depth: usize) -> Check<'s> {
        let outer = core::mem::replace(&mut self.mode, mode);
        let result = self.check(schema, value, depth);
        self.mode = outer;
        result
    }

    /// After an alternative passed a dry run with coercion, applies that coercion when this pass coerces.
    fn commit(&mut self, attempt: Mode, branch: &'s Value, value: &mut Value, depth: usize) -> Check<'s> {
        if attempt == Mode::Trial && self.mode == Mode::Coerce {
            let result = self.check(branch, value, depth + 1);
            self.generation = self.generation.wrapping_add(1); // `value` may have changed
            return result;
        }
        Ok(())
    }

    /// The failure to report when no alternative matched: the deepest failure of an alternative of
    /// the right type; when every alternative has the wrong type, one message listing the types.
    fn most_useful(
        &mut self,
        failures: Failures<'s>,
        keyword: &'static str,
        schema: &'s Value,
        value: &Value,
    ) -> Fail<'s> {
        if let Some(best) = failures.best {
            return best;
        }
        let detail = if failures.types.is_empty() {
            Detail::Alternatives(keyword)
        } else {
            Detail::Types(failures.types, describe(value))
        };
        self.fail(schema, keyword, detail)
    }

    /// Enters `key` into the path: `.key`, or `["key"]` for a key that is not a plain word or is
    /// long (its text cut: a path is for the model to find the value, not to copy it).
    fn enter_key(&mut self, key: &str) -> usize {
        let mark = self.path.len();
        let plain = !key.is_empty()
            && key.len() <= KEY_CHARS
            && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'$');
        if plain {
            self.path.push('.');
            self.path.push_str(key);
        } else {
            self.path.push('[');
            self.path.push_str(&quoted_up_to(key, KEY_CHARS));
            self.path.push(']');
        }
        mark
    }

    fn fail(&mut self, schema: &'s Value, keyword: &'static str, detail: Detail<'s>) -> Fail<'s> {
        self.spend(1 + self.path.len() / 16);
        Fail { path: Rc::from(self.path.as_str()), keyword, detail: Rc::new(detail), schema }
    }

    fn fail_text(&mut self, keyword: &'static str, message: String, schema: &'s Value) -> Fail<'s> {
        self.fail(schema, keyword, Detail::Text(message))
    }

    fn not_understood(&mut self) -> Check<'s> {
        self.unsure += 1;
        Ok(())
    }
}

/// The failures of an `anyOf`'s alternatives, summed up: the deepest one of the right type, and
/// the type names asked for by those that failed for their type at the `anyOf`'s own value.
#[derive(Default)]
struct Failures<'s> {
    best: Option<Fail<'s>>,
    types: Vec<&'s str>,
}

impl<'s> Failures<'s> {
    fn add(&mut self, fail: Fail<'s>, here: &str) {
        if fail.keyword == "type" && *fail.path == *here {
            if let Detail::Types(names, _) = &*fail.detail {
                for name in names {
                    if !self.types.contains(name) {
                        self.types.push(name); // at most the seven JSON Schema types
                    }
                }
            }
        } else if self.best.as_ref().is_none_or(|b| fail.path.len() > b.path.len()) {
            self.best = Some(fail);
        }
    }
}

/// The JSON Schema types a `type` keyword names, as bits ([`TYPE_NAMES`] order).
#[derive(Clone, Copy)]
struct TypeSet(u8);

/// The seven JSON Schema types, in the order of [`TypeSet`]'s bits.
const TYPE_NAMES: [&str; 7] = ["null", "boolean", "number", "integer", "string", "array", "object"];

impl TypeSet {
    /// The set of `names`; `None` when one is not a JSON Schema type name (not understood).
    fn of(names: &[Value]) -> Option<TypeSet> {
        names.iter().try_fold(TypeSet(0), |set, name| {
            let at = TYPE_NAMES.iter().position(|t| Some(*t) == name.as_str())?;
            Some(TypeSet(set.0 | 1 << at))
        })
    }

    /// Whether the set holds the type at `at` of [`TYPE_NAMES`].
    fn has(self, at: u8) -> bool {
        self.0 & 1 << at != 0
    }

    /// Whether `value` is of one of the set's types.
    fn admits(self, value: &Value) -> bool {
        match value {
            Value::Null => self.has(0),
            Value::Bool(_) => self.has(1),
            Value::Number(n) => self.has(2) || (self.has(3) && is_integer_number(n)),
            Value::String(_) => self.has(4),
            Value::Array(_) => self.has(5),
            Value::Object(_) => self.has(6),
        }
    }
}

/// A `type` list read: its set, and its names each once in the order written (for messages).
struct TypeList<'s> {
    set: TypeSet,
    names: Vec<&'s str>,
}

impl<'s> TypeList<'s> {
    /// `None` when a name is not a JSON Schema type name (the list is not understood).
    fn of(names: &'s [Value]) -> Option<TypeList<'s>> {
        let mut list = TypeList { set: TypeSet(0), names: Vec::new() };
        for name in names {
            let name = name.as_str()?;
            let at = TYPE_NAMES.iter().position(|t| *t == name)?;
            if list.set.0 & 1 << at == 0 {
                list.set.0 |= 1 << at;
                list.names.push(name);
            }
        }
        Some(list)
    }
}

/// Whether a node whose `type` is `types` (`None`: absent or not understood) and whose
/// `nullable` is in `schema` lets `value` through.
fn admits(types: Option<TypeSet>, schema: &Value, value: &Value) -> bool {
    let nullable = *value == Value::Null && schema.get("nullable") == Some(&Value::Bool(true));
    nullable || types.is_none_or(|set| set.admits(value))
}

/// A long `enum` as sorted sets of its strings and of its numbers (by their shortest text, so `1`
/// is `1.0`), and the list of the rest (null, booleans, containers, odd number texts), compared one
/// by one. Sorted with [`swar::sort_names`], the core's one sort of names.
struct EnumSet<'s> {
    strings: Vec<(&'s str, usize)>,
    numbers: Vec<(&'s str, usize)>,
    others: Vec<&'s Value>,
    /// Whether the node's `type` lets any of the values through (else the `enum` is not judged).
    admitted: bool,
}

impl<'s> EnumSet<'s> {
    fn of(allowed: &'s [Value], schema: &Value, types: Option<TypeSet>) -> EnumSet<'s> {
        let mut set = EnumSet { strings: Vec::new(), numbers: Vec::new(), others: Vec::new(), admitted: false };
        for (at, value) in allowed.iter().enumerate() {
            match value {
                Value::String(s) => set.strings.push((s, at)),
                Value::Number(n) if shortest_number(n).as_deref() == Some(n) => set.numbers.push((n, at)),
                other => set.others.push(other),
            }
        }
        swar::sort_names(&mut set.strings);
        swar::sort_names(&mut set.numbers);
        set.admitted = allowed.iter().any(|v| admits(types, schema, v));
        set
    }

    /// Whether `value` is among the strings or numbers; `None` when it is neither kind or a
    /// number with no shortest text (then compare it with [`EnumSet::others`] too).
    fn has_scalar(&self, value: &Value) -> Option<bool> {
        match value {
            Value::String(s) => Some(swar::last_named(&self.strings, s).is_some()),
            Value::Number(n) => {
                let text = shortest_number(n)?;
                Some(swar::last_named(&self.numbers, &text).is_some() || self.others.iter().any(|o| json_eq(o, value)))
            }
            _ => None,
        }
    }
}

/// The number's shortest text (JavaScript's `Number.prototype.toString`), which numbers equal by
/// value share; `None` for one that is not finite or not a number.
fn shortest_number(text: &str) -> Option<String> {
    parse_f64(text).filter(|x| x.is_finite()).map(|x| json::js_number_text(x + 0.0))
}

/// JSON equality of small values (an `enum`'s odd numbers): not paid for, callers bound it.
fn json_eq(a: &Value, b: &Value) -> bool {
    let mut unbounded = usize::MAX;
    json_eq_within(a, b, &mut unbounded).unwrap_or(false)
}

/// A node's address: memo and cache keys (values and schemas do not move during a pass).
fn address(value: &Value) -> usize {
    value as *const Value as usize
}

/// Appends `[index]` to a path, the digits written without the formatting machinery (once per
/// array item judged).
fn push_index(path: &mut String, index: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = index;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    path.push('[');
    path.push_str(core::str::from_utf8(digits.get(at..).unwrap_or_default()).unwrap_or_default());
    path.push(']');
}

/// True when properties beyond `properties` may be declared by other keywords of the node.
fn extras_declared_elsewhere(schema: &Value) -> bool {
    schema.get("patternProperties").is_some_and(|p| p.as_object() != Some(&[]))
        || ["allOf", "anyOf", "oneOf", "$ref"].iter().any(|k| schema.get(k).is_some())
}

/// Keywords that only describe and never constrain (plus `nullable`, read where it matters).
fn is_annotation(keyword: &str) -> bool {
    matches!(
        keyword,
        "description"
            | "title"
            | "default"
            | "examples"
            | "example"
            | "$schema"
            | "$id"
            | "id"
            | "$comment"
            | "definitions"
            | "$defs"
            | "nullable"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
    ) || keyword.starts_with("x-")
}

/// The number or boolean a string reads as, for coercion (`"42"`, `"-1.5"`, `"true"`).
fn coerced_reading(value: &Value) -> Option<Value> {
    let Value::String(text) = value else { return None };
    if text.len() > 64 {
        return None;
    }
    match json::parse(text) {
        Ok(reading @ (Value::Number(_) | Value::Bool(_))) => Some(reading),
        _ => None,
    }
}

/// A JSON pointer token with `~1` read as `/` and `~0` as `~` (so `~01` is `~1`, per RFC 6901).
fn unescape_token(token: &str) -> String {
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        let escaped = match (c, chars.clone().next()) {
            ('~', Some('1')) => Some('/'),
            ('~', Some('0')) => Some('~'),
            _ => None,
        };
        if escaped.is_some() {
            chars.next();
        }
        out.push(escaped.unwrap_or(c));
    }
    out
}

/// JSON equality: numbers by value, objects regardless of key order, paid for from `work` (a unit a
/// node, a unit per 16 bytes of string, the sorting of wide objects): `None` when it runs out.
/// Recursion is bounded by the shallower of the two values, and `judge` bounds the arguments' depth.
fn json_eq_within(a: &Value, b: &Value, work: &mut usize) -> Option<bool> {
    let cost = match (a, b) {
        (Value::String(x), Value::String(y)) => 1 + x.len().min(y.len()) / 16,
        (Value::Number(x), Value::Number(y)) => 1 + (x.len() + y.len()) / 16,
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() && x.len() > SCANNED => {
            let log = usize::BITS - x.len().leading_zeros();
            1 + 2 * x.len() * log as usize
        }
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => 1 + x.len() * x.len(),
        _ => 1,
    };
    *work = work.checked_sub(cost)?;
    Some(match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y || matches!((parse_f64(x), parse_f64(y)), (Some(x), Some(y)) if x == y)
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            for (x, y) in x.iter().zip(y) {
                if !json_eq_within(x, y, work)? {
                    return Some(false);
                }
            }
            true
        }
        (Value::Object(x), Value::Object(y)) if x.len() != y.len() => false,
        (Value::Object(x), Value::Object(_)) if x.len() <= SCANNED => {
            for (k, v) in x {
                match b.get(k) {
                    Some(w) if json_eq_within(v, w, work)? => {}
                    _ => return Some(false),
                }
            }
            true
        }
        (Value::Object(x), Value::Object(y)) => sorted_members_eq(x, y, work)?,
        (Value::String(x), Value::String(y)) => x == y,
        _ => a == b,
    })
}

/// Wide objects equal regardless of key order: both sorted by key (keys of a parsed object are
/// unique), then compared member by member.
fn sorted_members_eq(x: &[(String, Value)], y: &[(String, Value)], work: &mut usize) -> Option<bool> {
    let (xs, ys) = (sorted_keys(x), sorted_keys(y));
    for ((k, i), (l, j)) in xs.iter().zip(&ys) {
        *work = work.checked_sub(1 + k.len().min(l.len()) / 16)?;
        if k != l {
            return Some(false);
        }
        match (x.get(*i), y.get(*j)) {
            (Some((_, v)), Some((_, w))) if json_eq_within(v, w, work)? => {}
            _ => return Some(false),
        }
    }
    Some(true)
}

/// The keys of `members` with their positions, sorted ([`swar::sort_names`]).
fn sorted_keys(members: &[(String, Value)]) -> Vec<(&str, usize)> {
    let mut keys: Vec<(&str, usize)> = members.iter().enumerate().map(|(i, (k, _))| (k.as_str(), i)).collect();
    swar::sort_names(&mut keys);
    keys
}

fn abs(x: f64) -> f64 {
    if x < 0.0 {
        -x
    } else {
        x
    }
}

/// 2^53: every `f64` at least this large is an integer.
const EXACT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// Whether a number's text is of a whole number: digits alone (the common case, read without
/// parsing), or a text whose value is integral (`1.0`, `2e3`).
fn is_integer_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digits = bytes.strip_prefix(b"-").unwrap_or(bytes);
    (!digits.is_empty() && digits.iter().all(u8::is_ascii_digit)) || parse_f64(text).is_some_and(is_integral)
}

/// True for whole numbers (1.0 counts, as in JSON Schema). `core` has no `f64::fract`.
fn is_integral(x: f64) -> bool {
    let a = abs(x);
    a >= EXACT_INTEGERS || a == (a as u64) as f64
}

/// `x` is a multiple of `step` (> 0), allowing for binary rounding (0.3 is a multiple of 0.1).
fn is_multiple(x: f64, step: f64) -> bool {
    let q = abs(x / step);
    if q.is_nan() || q >= EXACT_INTEGERS {
        return true; // too large to tell (or not finite)
    }
    let frac = q - (q as u64) as f64;
    let tolerance = 1e-9 * if q > 1.0 { q } else { 1.0 };
    frac <= tolerance || 1.0 - frac <= tolerance
}

/// A value for a message: scalars as JSON (long strings and numbers cut), containers as `[…]` / `{…}`.
fn brief(value: &Value) -> String {
    match value {
        Value::String(s) => quoted(s),
        Value::Number(n) => cut(n, QUOTED_CHARS),
        Value::Array(_) => String::from("[…]"),
        Value::Object(_) => String::from("{…}"),
        scalar => scalar.to_json(),
    }
}

/// A string as a JSON literal, cut to [`QUOTED_CHARS`] characters.
fn quoted(s: &str) -> String {
    quoted_up_to(s, QUOTED_CHARS)
}

/// A string as a JSON literal, cut to `chars` characters.
fn quoted_up_to(s: &str, chars: usize) -> String {
    let mut out = String::new();
    let kept = json::cut_chars(s, chars);
    json::write_string(&mut out, kept);
    if kept.len() < s.len() {
        out.insert(out.len() - 1, '…');
    }
    out
}

/// `s` cut to `chars` code points, `…` appended when cut.
fn cut(s: &str, chars: usize) -> String {
    let kept = json::cut_chars(s, chars);
    let mut out = String::from(kept);
    if kept.len() < s.len() {
        out.push('…');
    }
    out
}

/// What a value is, for "got ...": `string "abc"`, `number 5`, `boolean true`, `null`, `array`, `object`.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => String::from("null"),
        Value::Bool(b) => format!("boolean {b}"),
        Value::Number(n) => format!("number {}", cut(n, QUOTED_CHARS)),
        Value::String(s) => format!("string {}", quoted(s)),
        Value::Array(_) => String::from("array"),
        Value::Object(_) => String::from("object"),
    }
}

/// `"a", "b", … (3 more)` from values.
fn brief_list<'a>(values: impl ExactSizeIterator<Item = &'a Value>) -> String {
    let all = values.len();
    let mut out = short_list(values.map(brief), ", ");
    if all == 0 {
        out.push_str("(nothing)");
    }
    out
}

/// Joins up to [`LIST_LIMIT`] items with `sep`, noting how many more were left out.
fn short_list<S: AsRef<str>>(items: impl ExactSizeIterator<Item = S>, sep: &str) -> String {
    let all = items.len();
    let mut out = String::new();
    for (i, item) in items.take(LIST_LIMIT).enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(item.as_ref());
    }
    if all > LIST_LIMIT {
        out.push_str(&format!(", … ({} more)", all - LIST_LIMIT));
    }
    out
}

/// Type names as `string`, `string or null`, `string, integer or null`.
fn or_list(names: &[&str]) -> String {
    let mut out = String::new();
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == names.len() { " or " } else { ", " });
        }
        out.push_str(name);
    }
    out
}
