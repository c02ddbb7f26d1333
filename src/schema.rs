//! Checks a tool call's arguments against the tool's JSON Schema before the tool runs, coercing what
//! models commonly send as text, and says in plain words what to fix (SPEC §7, "Argument validation").
//!
//! Invariants:
//! - Fail-open: whatever the validator does not understand (an external `$ref`, an unknown keyword,
//!   `pattern` and `format` (toolshelf ships no regex engine), a malformed schema such as
//!   `"type": 5`) lets the call through. Validation never blocks a call it cannot judge.
//! - Bounded: evaluation depth ([`MAX_EVAL_DEPTH`], which also bounds `$ref` cycles) and total
//!   work ([`MAX_WORK`]) are capped; past either bound the call is let through. Nothing panics.
//! - Coercion (`"42"` → 42, `"true"` → true) happens only where it turns a failing value into a
//!   valid one: a string a string-typed field accepts stays a string.
//! - A rejection must be one the model can fix. So `oneOf` is read as `anyOf` (real schemas use it
//!   for overlapping alternatives); an `enum` or `const` that the node's own `type` rules out
//!   entirely (a broken schema no value satisfies) is not judged; nor is `additionalProperties`
//!   beside `allOf`/`anyOf`/`oneOf`/`$ref`, which may declare the properties it would forbid.

use crate::json::{self, Value};
use crate::swar;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// Deepest evaluation: schema nesting, `$ref` hops and value nesting together. Deeper parts are
/// not judged (they pass), so a `$ref` cycle ends here.
pub const MAX_EVAL_DEPTH: usize = 64;

/// Units of work (schema nodes visited, `enum` items compared) one call may spend; past it, the
/// call is not judged (it passes).
pub const MAX_WORK: usize = 1_000_000;

/// Up to this many members or properties, a lookup scans them; more are sorted first.
const SCANNED: usize = 16;

/// How many wide objects' sorted keys a call keeps ([`Validator::member`]).
const SORTED_KEPT: usize = 8;

/// Most `enum` values or allowed property names a message lists.
const LIST_LIMIT: usize = 12;

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
    /// The (sub)schema that failed, for the model.
    pub schema: Value,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
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

/// As [`validate`], also giving the units of work spent (never more than [`MAX_WORK`]): what tests
/// bound instead of a wall clock.
pub fn validate_counted(schema: &Value, args: &mut Value) -> (Result<(), Violation>, usize) {
    let mut validator = Validator {
        root: schema,
        mode: Mode::Strict,
        work: MAX_WORK,
        gave_up: false,
        unsure: 0,
        path: String::new(),
        sorted: Vec::new(),
    };
    let result = validator.judge(args);
    (result, MAX_WORK - validator.work)
}

impl Validator<'_> {
    /// The passes of [`validate`]: strict; then, on a failure, coercion where a dry run shows it helps.
    fn judge(&mut self, args: &mut Value) -> Result<(), Violation> {
        if !depth_within(args, json::MAX_DEPTH + 1) {
            return Ok(()); // Only a hand-built value can be this deep; too deep to judge safely.
        }
        let validator = self;
        if validator.run(Mode::Strict, args).is_ok() {
            return Ok(());
        }
        // Coerce only what a dry run shows to be worth it, then make sure the result holds.
        validator.run(Mode::Trial, args).map_err(Fail::into_violation)?;
        let original = args.clone();
        let result = validator.run(Mode::Coerce, args).and_then(|()| validator.run(Mode::Strict, args));
        result.map_err(|fail| {
            *args = original; // only when coercing one part spoiled another (contradictory schemas)
            fail.into_violation()
        })
    }
}

/// How a pass treats strings that read as numbers or booleans.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// No coercion.
    Strict,
    /// Coercion considered, nothing changed: a dry run.
    Trial,
    /// Coercion applied in place.
    Coerce,
}

/// A violation while validating: borrows the schema; cloned into a [`Violation`] at the end.
struct Fail<'s> {
    path: String,
    keyword: &'static str,
    message: String,
    schema: &'s Value,
}

impl Fail<'_> {
    fn into_violation(self) -> Violation {
        // A hand-built schema could nest deeper than a recursive clone can safely go.
        let schema = if depth_within(self.schema, json::MAX_DEPTH) { self.schema.clone() } else { Value::Null };
        Violation { path: self.path, keyword: self.keyword, message: self.message, schema }
    }
}

type Check<'s> = Result<(), Fail<'s>>;

struct Validator<'s> {
    root: &'s Value,
    mode: Mode,
    /// Work left before giving up.
    work: usize,
    /// A bound was hit: the verdict is "cannot judge", so everything passes.
    gave_up: bool,
    /// How many things were skipped as not understood; a pass that skipped nothing is certain.
    unsure: usize,
    /// The path of the value being checked.
    path: String,
    /// The keys of the last [`SORTED_KEPT`] wide objects of the schema looked into (`properties`,
    /// the parents of `$ref` targets), by the object's address, sorted ([`swar::sort_names`]): a
    /// key is found in log time, not by a scan of every member (quadratic in the width over many
    /// lookups). Sorting counts as work, so that alternating between more objects stays bounded.
    sorted: Vec<(usize, Vec<(&'s str, usize)>)>,
}

impl<'s> Validator<'s> {
    fn run(&mut self, mode: Mode, args: &mut Value) -> Check<'s> {
        self.mode = mode;
        self.path.clear();
        self.path.push_str("arguments");
        let result = self.check(self.root, args, 0);
        if self.gave_up {
            return Ok(());
        }
        result
    }

    /// Checks `value` against one schema node, then, when it fails and may coerce, its coerced reading.
    fn check(&mut self, schema: &'s Value, value: &mut Value, depth: usize) -> Check<'s> {
        if self.gave_up {
            return Ok(());
        }
        if depth > MAX_EVAL_DEPTH || self.work == 0 {
            self.gave_up = true;
            return Ok(());
        }
        self.work -= 1;
        match schema {
            Value::Bool(true) => Ok(()),
            Value::Bool(false) => Err(self.fail("false", String::from("no value is allowed here"), schema)),
            Value::Object(keywords) => match self.check_keywords(schema, keywords, value, depth) {
                Err(fail) if self.mode != Mode::Strict => self.check_coerced(schema, keywords, value, depth, fail),
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
        if !matches!(fail.keyword, "type" | "enum" | "const" | "anyOf" | "oneOf") {
            return Err(fail);
        }
        let Some(mut reading) = coerced_reading(value) else { return Err(fail) };
        let mode = core::mem::replace(&mut self.mode, Mode::Strict);
        let result = self.check_keywords(schema, keywords, &mut reading, depth);
        self.mode = mode;
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

    fn check_type(&mut self, schema: &'s Value, arg: &'s Value, value: &Value) -> Check<'s> {
        let names = match arg {
            Value::String(_) => core::slice::from_ref(arg),
            Value::Array(names) if !names.is_empty() => names.as_slice(),
            _ => return self.not_understood(),
        };
        for name in names {
            match name.as_str().and_then(|n| has_type(n, value)) {
                Some(true) => return Ok(()),
                Some(false) => {}
                None => return self.not_understood(),
            }
        }
        Err(self.fail("type", format!("expected {}, got {}", or_list(names.iter()), describe(value)), schema))
    }

    fn check_enum(&mut self, schema: &'s Value, arg: &'s Value, value: &Value) -> Check<'s> {
        let Value::Array(allowed) = arg else { return self.not_understood() };
        self.work = self.work.saturating_sub(allowed.len());
        if allowed.iter().any(|a| json_eq(a, value)) {
            return Ok(());
        }
        if !allowed.iter().any(|a| type_admits(schema, a)) {
            return self.not_understood(); // e.g. string values on an array: no value could pass
        }
        Err(self.fail("enum", format!("must be one of {}", brief_list(allowed.iter())), schema))
    }

    fn check_const(&mut self, schema: &'s Value, arg: &'s Value, value: &Value) -> Check<'s> {
        if json_eq(arg, value) {
            return Ok(());
        }
        if !type_admits(schema, arg) {
            return self.not_understood();
        }
        Err(self.fail("const", format!("must be {}", brief(arg)), schema))
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
        let (Ok(xf), Ok(limitf)) = (x.parse::<f64>(), limit.parse::<f64>()) else { return self.not_understood() };
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
        Err(self.fail(keyword, format!("must be {op} {limit}, got {x}"), schema))
    }

    fn check_multiple_of(&mut self, schema: &'s Value, arg: &'s Value, value: &Value) -> Check<'s> {
        let (Value::Number(x), Some(step)) = (value, arg.as_f64().filter(|s| *s > 0.0)) else { return Ok(()) };
        match x.parse::<f64>() {
            Ok(xf) if !is_multiple(xf, step) => {
                Err(self.fail("multipleOf", format!("must be a multiple of {}, got {x}", brief(arg)), schema))
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
        Err(self.fail(keyword, format!("must have {words} {} {noun}, got {count}", brief(arg)), schema))
    }

    fn check_required(&mut self, schema: &'s Value, arg: &'s Value, value: &Value) -> Check<'s> {
        let (Value::Object(members), Value::Array(names)) = (value, arg) else { return Ok(()) };
        self.work = self.work.saturating_sub(names.len() + members.len());
        let missing = if members.len() <= SCANNED {
            names.iter().filter_map(Value::as_str).find(|name| !members.iter().any(|(k, _)| k == name))
        } else {
            let keys = sorted_keys(members);
            names.iter().filter_map(Value::as_str).find(|name| swar::last_named(&keys, name).is_none())
        };
        match missing {
            Some(name) => Err(self.fail("required", format!("missing required property {}", quoted(name)), schema)),
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
        self.work = self.work.saturating_sub(members.len());
        for (key, child) in members.iter_mut() {
            let sub = match self.member(known, key) {
                Some(sub) => sub,
                None => match extra {
                    Some(Value::Bool(false)) => return Err(self.unexpected_property(schema, key, known)),
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
                    self.work = self.work.saturating_sub(members.len());
                    if self.sorted.len() >= SORTED_KEPT {
                        self.sorted.remove(0);
                    }
                    self.sorted.push((address, Vec::new()));
                    return scan();
                }
            }
        }
        let sorted = match self.sorted.last_mut() {
            Some((_, keys)) if keys.is_empty() => {
                self.work = self.work.saturating_sub(members.len());
                *keys = sorted_keys(members);
                keys.as_slice()
            }
            Some((_, keys)) => keys.as_slice(),
            None => &[],
        };
        swar::last_named(sorted, key).and_then(|at| members.get(at)).map(|(_, sub)| sub)
    }

    /// Resolves a local `$ref` (`#` or a `#/...` JSON pointer with `~1` → `/` and `~0` → `~`).
    fn resolve(&mut self, reference: &str) -> Option<&'s Value> {
        let pointer = reference.strip_prefix('#')?;
        if pointer.is_empty() {
            return Some(self.root);
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

    fn unexpected_property(&self, schema: &'s Value, key: &str, known: &[(String, Value)]) -> Fail<'s> {
        let allowed = short_list(known.iter().map(|(k, _)| k.as_str()), ", ");
        let allowed = if known.is_empty() { String::from("none") } else { allowed };
        self.fail(
            "additionalProperties",
            format!("unexpected property {} (additionalProperties is false; allowed: {allowed})", quoted(key)),
            schema,
        )
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
        for (index, item) in items.iter_mut().enumerate() {
            let Some(sub) = tuple.get(index).or(rest) else { break };
            let mark = self.path.len();
            self.path.push_str(&format!("[{index}]"));
            let result = self.check(sub, item, depth + 1);
            self.path.truncate(mark);
            result?;
        }
        Ok(())
    }

    fn check_all_of(&mut self, arg: &'s Value, value: &mut Value, depth: usize) -> Check<'s> {
        let Value::Array(branches) = arg else { return self.not_understood() };
        for branch in branches {
            self.check(branch, value, depth + 1)?;
        }
        Ok(())
    }

    /// `anyOf`, and `oneOf` read the same way: a value matching two `oneOf` alternatives passes.
    /// Real schemas use `oneOf` for overlapping alternatives (Cloudflare's IDs: a string of at most
    /// 32 characters, or at most 36); rejecting a match of both would block correct calls with no
    /// fix the model could make. Alternatives are tried as they are, then (when this pass may)
    /// with coercion.
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
        let mut fails = Vec::new();
        for &attempt in self.attempts() {
            fails.clear();
            for branch in branches {
                match self.check_as(attempt, branch, value, depth + 1) {
                    Ok(()) => return self.commit(attempt, branch, value, depth),
                    Err(fail) => fails.push(fail),
                }
            }
        }
        Err(self.most_useful(fails, keyword, schema, value))
    }

    /// `not`, judged without coercion; a subschema "matched" only because something was skipped
    /// does not block the call.
    fn check_not(&mut self, schema: &'s Value, arg: &'s Value, value: &mut Value, depth: usize) -> Check<'s> {
        let unsure = self.unsure;
        match self.check_as(Mode::Strict, arg, value, depth + 1) {
            Ok(()) if self.unsure == unsure && !self.gave_up => {
                Err(self.fail("not", String::from("must not match the schema under \"not\""), schema))
            }
            _ => Ok(()),
        }
    }

    fn check_ref(&mut self, arg: &'s Value, value: &mut Value, depth: usize) -> Check<'s> {
        match arg.as_str().and_then(|r| self.resolve(r)) {
            Some(target) => self.check(target, value, depth + 1),
            None => self.not_understood(), // external, an anchor, or a pointer to nothing
        }
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
            return self.check(branch, value, depth + 1);
        }
        Ok(())
    }

    /// The failure to report when no alternative matched: the deepest failure of an alternative of
    /// the right type; when every alternative has the wrong type, one message listing the types.
    fn most_useful(&self, fails: Vec<Fail<'s>>, keyword: &'static str, schema: &'s Value, value: &Value) -> Fail<'s> {
        let mut types: Vec<&Value> = Vec::new();
        let mut best: Option<Fail<'s>> = None;
        for fail in fails {
            if fail.keyword == "type" && fail.path == self.path {
                types.extend(type_names(fail.schema));
            } else if best.as_ref().is_none_or(|b| fail.path.len() > b.path.len()) {
                best = Some(fail);
            }
        }
        if let Some(best) = best {
            return best;
        }
        let message = if types.is_empty() {
            format!("must match one of the {keyword} alternatives")
        } else {
            types.dedup();
            format!("expected {}, got {}", or_list(types.into_iter()), describe(value))
        };
        self.fail(keyword, message, schema)
    }

    fn enter_key(&mut self, key: &str) -> usize {
        let mark = self.path.len();
        if !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'$') {
            self.path.push('.');
            self.path.push_str(key);
        } else {
            self.path.push('[');
            json::write_string(&mut self.path, key);
            self.path.push(']');
        }
        mark
    }

    fn fail(&self, keyword: &'static str, message: String, schema: &'s Value) -> Fail<'s> {
        Fail { path: self.path.clone(), keyword, message, schema }
    }

    fn not_understood(&mut self) -> Check<'s> {
        self.unsure += 1;
        Ok(())
    }
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

/// Whether `value` is of JSON Schema type `name`; `None` for a name that is not a JSON Schema type.
fn has_type(name: &str, value: &Value) -> Option<bool> {
    Some(match name {
        "null" => *value == Value::Null,
        "boolean" => matches!(value, Value::Bool(_)),
        "number" => matches!(value, Value::Number(_)),
        "integer" => value.as_f64().is_some_and(is_integral),
        "string" => matches!(value, Value::String(_)),
        "array" => matches!(value, Value::Array(_)),
        "object" => matches!(value, Value::Object(_)),
        _ => return None,
    })
}

/// Whether the node's `type` (and `nullable`) lets `value` through; true when it is absent or not understood.
fn type_admits(schema: &Value, value: &Value) -> bool {
    let admits = |name: &Value| name.as_str().and_then(|n| has_type(n, value)) != Some(false);
    let nullable = *value == Value::Null && schema.get("nullable") == Some(&Value::Bool(true));
    nullable
        || match schema.get("type") {
            Some(Value::Array(names)) => names.is_empty() || names.iter().any(admits),
            Some(name) => admits(name),
            None => true,
        }
}

/// The type names a failing node asked for (its `type`, a name or a list).
fn type_names(schema: &Value) -> &[Value] {
    match schema.get("type") {
        Some(Value::Array(names)) => names,
        Some(name @ Value::String(_)) => core::slice::from_ref(name),
        _ => &[],
    }
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

/// JSON equality: numbers by value, objects regardless of key order. Recursion is bounded by the
/// shallower of the two values, and `validate` bounds the arguments' depth.
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y || matches!((x.parse::<f64>(), y.parse::<f64>()), (Ok(x), Ok(y)) if x == y)
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y)),
        (Value::Object(x), Value::Object(y)) if x.len() <= SCANNED => {
            x.len() == y.len() && x.iter().all(|(k, v)| b.get(k).is_some_and(|w| json_eq(v, w)))
        }
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && sorted_members_eq(x, y),
        _ => a == b,
    }
}

/// Wide objects equal regardless of key order: both sorted by key (keys of a parsed object are
/// unique), then compared member by member.
fn sorted_members_eq(x: &[(String, Value)], y: &[(String, Value)]) -> bool {
    let (xs, ys) = (sorted_keys(x), sorted_keys(y));
    xs.iter().zip(&ys).all(|((k, i), (l, j))| {
        k == l && matches!((x.get(*i), y.get(*j)), (Some((_, v)), Some((_, w))) if json_eq(v, w))
    })
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

/// True when `value` nests arrays and objects at most `limit` levels deep.
fn depth_within(value: &Value, limit: usize) -> bool {
    match value {
        Value::Array(items) => limit > 0 && items.iter().all(|v| depth_within(v, limit - 1)),
        Value::Object(members) => limit > 0 && members.iter().all(|(_, v)| depth_within(v, limit - 1)),
        _ => true,
    }
}

/// A value for a message: scalars as JSON (long strings cut), containers as `[…]` / `{…}`.
fn brief(value: &Value) -> String {
    match value {
        Value::String(s) => quoted(s),
        Value::Array(_) => String::from("[…]"),
        Value::Object(_) => String::from("{…}"),
        scalar => scalar.to_json(),
    }
}

/// A string as a JSON literal, cut to 40 characters.
fn quoted(s: &str) -> String {
    let mut out = String::new();
    match s.char_indices().nth(40) {
        Some((cut, _)) => {
            json::write_string(&mut out, &s[..cut]);
            out.insert(out.len() - 1, '…');
        }
        None => json::write_string(&mut out, s),
    }
    out
}

/// What a value is, for "got ...": `string "abc"`, `number 5`, `boolean true`, `null`, `array`, `object`.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => String::from("null"),
        Value::Bool(b) => format!("boolean {b}"),
        Value::Number(n) => format!("number {n}"),
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
fn or_list<'a>(names: impl ExactSizeIterator<Item = &'a Value>) -> String {
    let count = names.len();
    let mut out = String::new();
    for (i, name) in names.enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == count { " or " } else { ", " });
        }
        out.push_str(name.as_str().unwrap_or("?"));
    }
    out
}
