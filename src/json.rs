//! A small order-preserving JSON value, a bounded parser and a compact writer that matches
//! `JSON.stringify`, so sizes, output bytes and fingerprints agree between Rust and JavaScript.
//!
//! Why not `serde_json`: its order-preserving map needs `std`, and toolshelf needs key order (tool
//! sizes and pass-through bytes), a depth bound that is an error rather than a stack overflow, and
//! number text written exactly as JavaScript writes it. This module is those three things and no more.
//!
//! Layer 1 of ARCHITECTURE.md's Layers: imports only `error`, `hash`, `float`, `swar`, `lowercase`.

use crate::swar;
use alloc::borrow::Cow;
use alloc::borrow::ToOwned;
use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write as _;

/// Deepest nesting of arrays and objects the parser accepts (`too_large` beyond it).
pub const MAX_DEPTH: usize = 128;

/// The mark that starts a lone surrogate in a [`Value::String`] (a Rust `String` cannot hold one):
/// a lone surrogate `\uD800`–`\uDFFF` of the JSON text is kept as this mark followed by
/// `U+100000 + (surrogate − 0xD800)` (plane 16, private use), and a U+10FFFF of the text as the
/// mark twice, so that the writer gives back `\udXXX` and U+10FFFF exactly as `JSON.stringify`
/// writes them. ARCHITECTURE.md, "Lone surrogates".
pub const SURROGATE_MARK: char = '\u{10FFFF}';
/// The first byte of [`SURROGATE_MARK`] in UTF-8 (and of every plane-16 character).
const PLANE_16_LEAD: u8 = 0xF4;
/// Where the private-use stand-ins for lone surrogates start (`U+100000` for `\ud800`).
const SURROGATE_BASE: u32 = 0x10_0000;

/// A JSON value. Objects keep their keys in the order given; numbers keep the text that
/// `JSON.stringify` would print for them.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number as canonical text (`Number.prototype.toString` form).
    Number(Box<str>),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, keys in input order.
    Object(Vec<(String, Value)>),
}

/// Why a text is not acceptable JSON: a message and the byte offset where it was noticed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What went wrong, in words.
    pub message: String,
    /// Byte offset in the input.
    pub offset: usize,
    /// True when a bound (depth) was exceeded rather than the syntax broken.
    pub too_deep: bool,
}

impl Value {
    /// The member `key` of an object (the last one, as `JSON.parse` keeps), or `None`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string inside, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The members, if this is an object.
    pub fn as_object(&self) -> Option<&[(String, Value)]> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The items, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The boolean inside, if this is a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number as `f64`, if this is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => crate::float::parse_f64(n),
            _ => None,
        }
    }

    /// A word for this value's JSON type, for messages: `null`, `a boolean`, `a number`,
    /// `a string`, `an array`, `an object`.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }

    /// True when the value nests arrays and objects at most `limit` levels deep (a scalar: 0).
    /// Recursion ends at `limit`, so a value of any depth is safe to ask.
    pub fn depth_within(&self, limit: usize) -> bool {
        match self {
            Value::Array(items) => limit > 0 && items.iter().all(|v| v.depth_within(limit - 1)),
            Value::Object(members) => limit > 0 && members.iter().all(|(_, v)| v.depth_within(limit - 1)),
            _ => true,
        }
    }

    /// True for objects.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// A string value.
    pub fn str(s: impl Into<String>) -> Value {
        Value::String(s.into())
    }

    /// A number value from an unsigned integer.
    pub fn uint(n: u64) -> Value {
        Value::Number(n.to_string().into_boxed_str())
    }

    /// A number value from a float, written as JavaScript writes it (non-finite becomes `null`).
    pub fn float(x: f64) -> Value {
        if x.is_finite() {
            Value::Number(js_number_text(x).into_boxed_str())
        } else {
            Value::Null
        }
    }

    /// An object from `(key, value)` pairs.
    pub fn object<K: Into<String>>(members: impl IntoIterator<Item = (K, Value)>) -> Value {
        Value::Object(members.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// An array of strings.
    pub fn strings<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> Value {
        Value::Array(items.into_iter().map(|s| Value::str(s.as_ref())).collect())
    }

    /// Compact JSON text, byte for byte what `JSON.stringify` gives for the same value.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        write_value(&mut out, self);
        out
    }

    /// Length in Unicode code points of [`Value::to_json`], computed without building the text.
    pub fn json_code_points(&self) -> usize {
        match self {
            Value::Null => 4,
            Value::Bool(true) => 4,
            Value::Bool(false) => 5,
            Value::Number(n) => n.len(),
            Value::String(s) => string_code_points(s),
            Value::Array(items) => {
                2 + items.iter().map(Value::json_code_points).sum::<usize>() + items.len().saturating_sub(1)
            }
            Value::Object(members) => {
                2 + members.iter().map(|(k, v)| string_code_points(k) + 1 + v.json_code_points()).sum::<usize>()
                    + members.len().saturating_sub(1)
            }
        }
    }
}

/// Parses JSON text into a [`Value`], refusing nesting deeper than [`MAX_DEPTH`].
pub fn parse(text: &str) -> Result<Value, ParseError> {
    parse_deeper(text, 0)
}

/// As [`parse`], allowing `extra` levels more than [`MAX_DEPTH`]: for a wrapper (a tool call)
/// around a value that may itself nest [`MAX_DEPTH`] levels.
pub fn parse_deeper(text: &str, extra: usize) -> Result<Value, ParseError> {
    let mut parser = Parser::new(text);
    parser.max_depth = MAX_DEPTH.saturating_add(extra);
    parser.skip_ws();
    let value = parser.value(0)?;
    parser.skip_ws();
    if parser.pos < parser.bytes.len() {
        return Err(parser.error("unexpected text after the JSON value"));
    }
    Ok(value)
}

struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
    /// False once the text read holds anything [`write_value`] would write otherwise: whitespace,
    /// an escape `JSON.stringify` does not write, a number not in its shortest form, a repeated
    /// key, a plane-16 character (kept out, to be safe). While true, the text read is the compact
    /// JSON of the value parsed, byte for byte (checked by tests and the `json_parse` fuzz target).
    canonical: bool,
    /// Containers deeper than this are skipped and read as `null` (an outline of a value: see
    /// [`Reader::outline_with_text`]); `usize::MAX` keeps everything.
    prune: usize,
    /// Whether skipping judges [`Parser::canonical`] too (an outline's skipped parts count).
    judge: bool,
    /// Deepest nesting accepted ([`MAX_DEPTH`] unless [`parse_deeper`]).
    max_depth: usize,
    /// The gathering of [`Reader::outline_gathering`]: the code of the value being read (0:
    /// nothing in it is of interest, so its keys are not classified), the rule, and the places
    /// found.
    code: u8,
    classify: Classify,
    places: Vec<(usize, u8)>,
}

/// A gathering rule ([`Reader::outline_gathering`]): the code of a member given the code of the
/// object holding it and its key. 0 is "of no interest": the members of an object coded 0 are not
/// classified, nor is anything in an array. [`RECORD`] and [`SKIM`] are flags.
pub type Classify = fn(u8, &str) -> u8;

/// A member whose code holds this flag has its offset recorded (its key's opening quote), with
/// the code.
pub const RECORD: u8 = 0x80;
/// A member whose code holds this flag and whose value is an object or array is skipped, not
/// parsed (it reads as `null`); what is in it is classified all the same.
pub const SKIM: u8 = 0x40;

/// The rule of a parse that gathers nothing.
fn gathers_nothing(_: u8, _: &str) -> u8 {
    0
}

impl<'a> Parser<'a> {
    /// A parser at the start of `text`, keeping everything.
    fn new(text: &'a str) -> Parser<'a> {
        Parser {
            bytes: text.as_bytes(),
            text,
            pos: 0,
            canonical: true,
            prune: usize::MAX,
            judge: false,
            max_depth: MAX_DEPTH,
            code: 0,
            classify: gathers_nothing,
            places: Vec::new(),
        }
    }

    fn error(&self, message: &str) -> ParseError {
        ParseError { message: message.to_owned(), offset: self.pos, too_deep: false }
    }

    // Called for nearly every byte: always inlined, whatever the profile's inlining threshold.
    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    // Called before and after every value, key and separator; see `peek`.
    #[inline(always)]
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.peek() {
            self.pos += 1;
            self.canonical = false;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, ParseError> {
        match self.peek() {
            Some(b'{' | b'[') if depth >= self.prune || self.code & SKIM != 0 => {
                self.skip_value(depth).map(|()| Value::Null)
            }
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => self.string().map(Value::String),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected a JSON value")),
            None => Err(self.error("unexpected end of JSON")),
        }
    }

    fn check_depth(&self, depth: usize) -> Result<(), ParseError> {
        if depth > self.max_depth {
            let mut e = self.error("JSON nesting is deeper than 128 levels");
            e.too_deep = true;
            return Err(e);
        }
        Ok(())
    }

    /// The code of the member `key` (its quote at `at`) of an object coded `parent`, recorded
    /// when the code says so.
    fn classified(&mut self, parent: u8, key: &str, at: usize) -> u8 {
        let code = (self.classify)(parent, key);
        if code & RECORD != 0 {
            self.places.push((at, code));
        }
        code
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, ParseError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.error("expected a JSON value"))
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, ParseError> {
        self.check_depth(depth)?;
        self.pos += 1;
        let mut members: Vec<(String, Value)> = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Value::Object(members));
        }
        // True once a member was added without looking for its key among the earlier ones.
        let mut unchecked = false;
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a string key"));
            }
            let key_at = self.pos;
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.error("expected ':'"));
            }
            self.pos += 1;
            self.skip_ws();
            let parent = self.code;
            if parent != 0 {
                self.code = self.classified(parent, &key, key_at);
            }
            let value = self.value(depth)?;
            self.code = parent;
            let before = members.len();
            unchecked |= insert_member(&mut members, key, value);
            self.canonical &= members.len() > before;
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    if unchecked {
                        let before = members.len();
                        merge_repeated_keys(&mut members);
                        self.canonical &= members.len() == before;
                    }
                    return Ok(Value::Object(members));
                }
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value, ParseError> {
        self.check_depth(depth)?;
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Value::Array(items));
        }
        // An array's elements have no keys: nothing in them is classified. (After an error the
        // code is left as it is: [`Reader::outline_gathering`] sets it again.)
        let parent = core::mem::take(&mut self.code);
        loop {
            self.skip_ws();
            items.push(self.value(depth)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    self.code = parent;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn number(&mut self) -> Result<Value, ParseError> {
        let start = self.pos;
        let integer = self.number_text()?;
        let text = self.text.get(start..self.pos).unwrap_or_default();
        let number = canonical_number(text, integer);
        self.canonical &= number == text;
        Ok(Value::Number(number.into_boxed_str()))
    }

    /// Moves past a number's text, checking its grammar; true when it is an integer.
    fn number_text(&mut self) -> Result<bool, ParseError> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error("invalid number")),
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            integer = false;
            self.pos += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("invalid number"));
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            integer = false;
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("invalid number"));
            }
            self.digits();
        }
        Ok(integer)
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }

    fn string(&mut self) -> Result<String, ParseError> {
        self.pos += 1;
        // Most strings have no escape: find the closing quote and copy the run once.
        let run = self.plain_run();
        if self.peek() == Some(b'"') {
            self.pos += 1;
            return Ok(String::from(run));
        }
        let mut out = String::from(run);
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape(&mut out)?;
                }
                Some(PLANE_16_LEAD) => {
                    self.canonical = false;
                    self.plane_16_character(&mut out);
                }
                Some(_) => return Err(self.error("control character in string")),
                None => return Err(self.error("unterminated string")),
            }
            out.push_str(self.plain_run());
        }
    }

    /// A string (its `"` is next), borrowed from the text when it holds no escape (nor a plane-16
    /// character, which the parsed string may double), else parsed as [`Parser::string`] does.
    fn text_string(&mut self) -> Result<Cow<'a, str>, ParseError> {
        let start = self.pos;
        self.pos += 1;
        let run = self.plain_run();
        if self.peek() == Some(b'"') {
            self.pos += 1;
            return Ok(Cow::Borrowed(run));
        }
        self.pos = start;
        self.string().map(Cow::Owned)
    }

    /// Moves past the value at the cursor, checking it as [`Parser::value`] does, without keeping
    /// any of it.
    fn skip_value(&mut self, depth: usize) -> Result<(), ParseError> {
        match self.peek() {
            Some(b'{') => self.skip_container(depth + 1, b'}'),
            Some(b'[') => self.skip_container(depth + 1, b']'),
            Some(b'"') => self.skip_string().map(drop),
            Some(b't') => self.literal("true", Value::Null).map(drop),
            Some(b'f') => self.literal("false", Value::Null).map(drop),
            Some(b'n') => self.literal("null", Value::Null).map(drop),
            Some(b'-' | b'0'..=b'9') => self.skip_number(),
            Some(_) => Err(self.error("expected a JSON value")),
            None => Err(self.error("unexpected end of JSON")),
        }
    }

    /// An object or array (`close` is `}` or `]`) skipped, members and elements alike. When it
    /// judges, an object's repeated key (or a key with an escape, to be safe) is not compact.
    /// The members of an object with a code are classified by their keys as written (a key with
    /// an escape makes the text not compact, so a gatherer that keeps only compact texts' places
    /// never sees one misread).
    fn skip_container(&mut self, depth: usize, close: u8) -> Result<(), ParseError> {
        self.check_depth(depth)?;
        let code = core::mem::take(&mut self.code);
        self.pos += 1;
        self.skip_ws();
        if self.peek() == Some(close) {
            self.pos += 1;
            return Ok(());
        }
        let mut keys = SkippedKeys::default();
        loop {
            self.skip_ws();
            if close == b'}' {
                if self.peek() != Some(b'"') {
                    return Err(self.error("expected a string key"));
                }
                let start = self.pos + 1;
                let escaped = self.skip_string()?;
                let key = self.text.get(start..self.pos - 1).unwrap_or_default();
                if self.judge && self.canonical {
                    self.canonical = !escaped && keys.add(key);
                }
                self.skip_ws();
                if self.peek() != Some(b':') {
                    return Err(self.error("expected ':'"));
                }
                self.pos += 1;
                self.skip_ws();
                if code != 0 {
                    self.code = self.classified(code, key, start - 1);
                }
            }
            self.skip_value(depth)?;
            self.code = 0;
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b) if b == close => {
                    self.pos += 1;
                    if self.judge && self.canonical {
                        self.canonical = keys.all_distinct();
                    }
                    return Ok(());
                }
                _ if close == b']' => return Err(self.error("expected ',' or ']'")),
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    /// Skips a string; true when it holds an escape. When it judges, an escape `JSON.stringify`
    /// would not write, or a plane-16 character, is not compact.
    fn skip_string(&mut self) -> Result<bool, ParseError> {
        self.pos += 1;
        let mut escaped = false;
        loop {
            self.plain_run();
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(escaped);
                }
                Some(b'\\') => {
                    escaped = true;
                    self.pos += 1;
                    match self.peek() {
                        Some(b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't') => self.pos += 1,
                        Some(b'/') => {
                            self.pos += 1;
                            self.canonical &= !self.judge;
                        }
                        Some(b'u') => {
                            self.pos += 1;
                            let digits = self.pos;
                            let code = self.unicode_escape()?;
                            if self.judge {
                                let hex = self.bytes.get(digits..self.pos).unwrap_or_default();
                                self.canonical &= !hex.iter().any(u8::is_ascii_uppercase) && escaped_by_stringify(code);
                            }
                        }
                        _ => return Err(self.error("invalid escape")),
                    }
                }
                Some(PLANE_16_LEAD) => {
                    self.pos += 4;
                    self.canonical &= !self.judge;
                }
                Some(_) => return Err(self.error("control character in string")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }

    fn skip_number(&mut self) -> Result<(), ParseError> {
        let start = self.pos;
        let integer = self.number_text()?;
        if self.judge && self.canonical {
            let text = self.text.get(start..self.pos).unwrap_or_default();
            self.canonical = plain_integer(text) || canonical_number(text, integer) == text;
        }
        Ok(())
    }

    /// A plane-16 character of the text (its first byte is next), pushed as it is, or twice when
    /// it is [`SURROGATE_MARK`].
    fn plane_16_character(&mut self, out: &mut String) {
        let c = self.text.get(self.pos..).and_then(|rest| rest.chars().next()).unwrap_or('\u{FFFD}');
        self.pos += c.len_utf8();
        push_character(out, c);
    }

    /// The bytes from here up to the next `"`, `\\`, control character, plane-16 character or the
    /// end, which it moves to.
    fn plain_run(&mut self) -> &'a str {
        let start = self.pos;
        let rest = self.bytes.get(start..).unwrap_or_default();
        self.pos += plain_run_length(rest);
        // The run ends on an ASCII byte or the end, so it is a char boundary.
        self.text.get(start..self.pos).unwrap_or_default()
    }

    fn escape(&mut self, out: &mut String) -> Result<(), ParseError> {
        let c = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => {
                self.canonical = false; // JSON.stringify writes `/` as it is
                '/'
            }
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.pos += 1;
                let digits = self.pos;
                let code = self.unicode_escape()?;
                let lowercase =
                    !self.bytes.get(digits..self.pos).unwrap_or_default().iter().any(u8::is_ascii_uppercase);
                self.canonical &= lowercase && escaped_by_stringify(code);
                push_code_point(out, code);
                return Ok(());
            }
            _ => return Err(self.error("invalid escape")),
        };
        self.pos += 1;
        out.push(c);
        Ok(())
    }

    /// After `\u`: four hex digits, joined with a following low surrogate when they are a high one.
    /// A lone surrogate is returned as it is ([`push_code_point`] keeps it).
    fn unicode_escape(&mut self) -> Result<u32, ParseError> {
        let first = self.hex4()?;
        if (0xD800..0xDC00).contains(&first) && self.bytes[self.pos..].starts_with(b"\\u") {
            let save = self.pos;
            self.pos += 2;
            let second = self.hex4()?;
            if (0xDC00..0xE000).contains(&second) {
                return Ok(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00));
            }
            self.pos = save;
        }
        Ok(first)
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let digits = self.bytes.get(self.pos..self.pos + 4).ok_or_else(|| self.error("invalid \\u escape"))?;
        let mut code = 0u32;
        for &d in digits {
            let v = (d as char).to_digit(16).ok_or_else(|| self.error("invalid \\u escape"))?;
            code = code * 16 + v;
        }
        self.pos += 4;
        Ok(code)
    }
}

/// Whether `JSON.stringify` writes `code` as a `\\u` escape: a control character without a short
/// escape (`\\n`...), or a lone surrogate.
fn escaped_by_stringify(code: u32) -> bool {
    (code < 0x20 && !matches!(code, 0x08 | 0x09 | 0x0a | 0x0c | 0x0d)) || (0xD800..0xE000).contains(&code)
}

/// An integer JavaScript writes as it is: no leading zero, not `-0`, at most 15 digits (exact in
/// a double), so no need to format it to compare.
fn plain_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty()
        && digits.len() <= 15
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (!digits.starts_with('0') || (digits == "0" && text == "0"))
}

/// The keys of an object being skipped, to tell whether one repeats: the first
/// [`SCANNED_MEMBERS`] compared as they come, the rest (a wide object) sorted at the end.
#[derive(Default)]
struct SkippedKeys<'a> {
    first: [&'a str; SCANNED_MEMBERS],
    count: usize,
    /// Past the first keys: each with its place (sorted by [`swar::sort_names`], the one sort of
    /// names the `.wasm` holds).
    rest: Vec<(&'a str, usize)>,
}

impl<'a> SkippedKeys<'a> {
    /// Adds a key; false when it repeats one of the first keys.
    fn add(&mut self, key: &'a str) -> bool {
        if self.count < SCANNED_MEMBERS {
            let (earlier, later) = self.first.split_at_mut(self.count);
            if earlier.contains(&key) {
                return false;
            }
            if let Some(slot) = later.first_mut() {
                *slot = key;
            }
        } else {
            self.rest.push((key, self.count));
        }
        self.count += 1;
        true
    }

    /// Whether no key repeats (the first keys were checked as they came).
    fn all_distinct(&mut self) -> bool {
        if self.rest.is_empty() {
            return true;
        }
        self.rest.extend(self.first.iter().enumerate().map(|(at, &key)| (key, at)));
        swar::sort_names(&mut self.rest);
        self.rest.windows(2).all(|pair| pair.first().map(|p| p.0) != pair.last().map(|p| p.0))
    }
}

/// Pushes a code point of the JSON text: a lone surrogate and U+10FFFF as [`SURROGATE_MARK`] says.
fn push_code_point(out: &mut String, code: u32) {
    match char::from_u32(code) {
        Some(c) => push_character(out, c),
        None => {
            out.push(SURROGATE_MARK);
            out.push(char::from_u32(SURROGATE_BASE + (code & 0x7FF)).unwrap_or('\u{FFFD}'));
        }
    }
}

/// A cursor over JSON text for a reader that walks the outer containers itself and parses each
/// value inside them whole, in turn (the toolbox reader parses one tool def at a time and keeps
/// only what it needs of it). It moves exactly as [`parse`] does, so errors, their offsets and
/// the depth bound are the same.
pub struct Reader<'a> {
    parser: Parser<'a>,
}

impl<'a> Reader<'a> {
    /// A cursor at the start of `text`.
    pub fn new(text: &'a str) -> Reader<'a> {
        let mut parser = Parser::new(text);
        parser.skip_ws();
        Reader { parser }
    }

    /// The next byte (after whitespace), not consumed.
    pub fn peek(&mut self) -> Option<u8> {
        self.parser.skip_ws();
        self.parser.peek()
    }

    /// The byte offset of the next value (after whitespace), or of the end after the last.
    pub fn offset(&mut self) -> usize {
        self.parser.skip_ws();
        self.parser.pos
    }

    /// Parses the next value whole; `depth` counts the containers the cursor is inside.
    pub fn value(&mut self, depth: usize) -> Result<Value, ParseError> {
        self.parser.skip_ws();
        self.parser.value(depth)
    }

    /// Parses the next value whole, as [`Reader::value`] does, with where its text ends and
    /// whether that text is the value's compact JSON as [`Value::to_json`] writes it (when true it
    /// is, byte for byte; false may still be, rarely: a plane-16 character).
    pub fn value_with_text(&mut self, depth: usize) -> Result<(Value, usize, bool), ParseError> {
        self.outline_with_text(depth, usize::MAX)
    }

    /// Parses an *outline* of the next value: containers more than `keep` levels inside it are
    /// skipped and read as `null` (the toolbox reader keeps a def's top, down to its schema's
    /// property names, and its text). As [`Reader::value_with_text`], with where its text ends and
    /// whether that text is the whole value's compact JSON, skipped parts included; errors and
    /// their offsets are those of [`Reader::value`].
    pub fn outline_with_text(&mut self, depth: usize, keep: usize) -> Result<(Value, usize, bool), ParseError> {
        self.parser.skip_ws();
        (self.parser.prune, self.parser.judge, self.parser.canonical) = (depth.saturating_add(keep), true, true);
        let value = self.parser.value(depth);
        (self.parser.prune, self.parser.judge) = (usize::MAX, false);
        Ok((value?, self.parser.pos, self.parser.canonical))
    }

    /// [`Reader::outline_with_text`], gathering as it reads: each member of an object with a code
    /// (the value itself coded `root`) is coded by `classify`; a member whose code holds
    /// [`RECORD`] has its offset in the text (its key's opening quote) recorded, and one whose code
    /// holds [`SKIM`] is skipped, not parsed, if it is an object or array (it reads as `null`).
    /// The places are [`Reader::places`], in the order of the text. (The toolbox reader gathers
    /// where the strings the search index reads lie, in the pass that reads the def.)
    pub fn outline_gathering(
        &mut self,
        depth: usize,
        keep: usize,
        classify: Classify,
        root: u8,
    ) -> Result<(Value, usize, bool), ParseError> {
        self.parser.places.clear();
        (self.parser.classify, self.parser.code) = (classify, root);
        let read = self.outline_with_text(depth, keep);
        (self.parser.classify, self.parser.code) = (gathers_nothing, 0);
        read
    }

    /// The places the last [`Reader::outline_gathering`] recorded: each member's offset in the
    /// text and its code.
    pub fn places(&self) -> &[(usize, u8)] {
        &self.parser.places
    }

    /// The places [`Reader::outline_gathering`] records for the value at the cursor, found by a
    /// walk that trusts the text to be JSON (a tool def's text, checked when the toolbox was
    /// read): only the members of objects with a code are looked at, everything else is skipped
    /// as [`Reader::skip_trusted`] skips it.
    pub fn gather_trusted(&mut self, classify: Classify, root: u8) -> Vec<(usize, u8)> {
        let mut places = Vec::new();
        self.gather_members(classify, root, &mut places);
        places
    }

    /// The members of the object at the cursor (any other value skipped), coded under `code`.
    fn gather_members(&mut self, classify: Classify, code: u8, places: &mut Vec<(usize, u8)>) {
        if self.peek() != Some(b'{') {
            let _ = self.skip_trusted();
            return;
        }
        self.parser.pos += 1;
        if self.peek() == Some(b'}') {
            self.parser.pos += 1;
            return;
        }
        loop {
            let at = self.offset();
            let Ok(key) = self.key_text() else { return };
            let member = classify(code, &key);
            if member & RECORD != 0 {
                places.push((at, member));
            }
            if member != 0 {
                self.gather_members(classify, member, places);
            } else {
                let _ = self.skip_trusted();
            }
            if !matches!(self.next(b'}'), Ok(true)) {
                return;
            }
        }
    }

    /// Enters the array or object at the cursor (`depth` counting it): false when it is empty
    /// (then it is left too). `close` is `]` or `}`.
    pub fn enter(&mut self, depth: usize, close: u8) -> Result<bool, ParseError> {
        self.parser.check_depth(depth)?;
        self.parser.pos += 1;
        let empty = self.peek() == Some(close);
        if empty {
            self.parser.pos += 1;
        }
        Ok(!empty)
    }

    /// The key of an object's next member, the cursor moved to its value.
    pub fn key(&mut self) -> Result<String, ParseError> {
        self.key_text().map(Cow::into_owned)
    }

    /// The key of an object's next member, borrowed from the text when it holds no escape, the
    /// cursor moved to its value.
    pub fn key_text(&mut self) -> Result<Cow<'a, str>, ParseError> {
        if self.peek() != Some(b'"') {
            return Err(self.parser.error("expected a string key"));
        }
        let key = self.parser.text_string()?;
        if self.peek() != Some(b':') {
            return Err(self.parser.error("expected ':'"));
        }
        self.parser.pos += 1;
        Ok(key)
    }

    /// The string at the cursor (borrowed when it holds no escape), or `None` after skipping a
    /// value of another kind.
    pub fn string(&mut self, depth: usize) -> Result<Option<Cow<'a, str>>, ParseError> {
        if self.peek() == Some(b'"') {
            return self.parser.text_string().map(Some);
        }
        self.skip(depth).map(|()| None)
    }

    /// Moves past the next value without keeping it (checked as [`Reader::value`] checks it).
    pub fn skip(&mut self, depth: usize) -> Result<(), ParseError> {
        self.parser.skip_ws();
        self.parser.skip_value(depth)
    }

    /// Calls `member` with each key of the object at the cursor (`depth` counts the containers
    /// the cursor is inside, so its members' values are inside `depth + 1`), the cursor on the
    /// member's value, which `member` must read or skip. A value that is not an object is skipped:
    /// it has no members.
    pub fn members(
        &mut self,
        depth: usize,
        mut member: impl FnMut(&mut Reader<'a>, &str) -> Result<(), ParseError>,
    ) -> Result<(), ParseError> {
        if self.peek() != Some(b'{') {
            return self.skip(depth);
        }
        if !self.enter(depth + 1, b'}')? {
            return Ok(());
        }
        loop {
            let key = self.key_text()?;
            member(self, &key)?;
            if !self.next(b'}')? {
                return Ok(());
            }
        }
    }

    /// After an element or member: true when another follows, false when the container closes
    /// (`close` is `]` or `}`; it is left).
    pub fn next(&mut self, close: u8) -> Result<bool, ParseError> {
        match self.peek() {
            Some(b',') => {
                self.parser.pos += 1;
                Ok(true)
            }
            Some(b) if b == close => {
                self.parser.pos += 1;
                Ok(false)
            }
            _ if close == b']' => Err(self.parser.error("expected ',' or ']'")),
            _ => Err(self.parser.error("expected ',' or '}'")),
        }
    }

    /// Checks that nothing but whitespace follows.
    pub fn end(&mut self) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.parser.error("unexpected text after the JSON value")),
        }
    }

    /// Moves past the next value trusting the text to be JSON (a tool def's text, checked when
    /// the toolbox was read): only strings' ends and brackets are looked at, a string's bytes
    /// eight at a time, so skipping the nested schemas the search index does not read costs a
    /// scan and no parse. On text that is not JSON it stops somewhere, never past the end; it
    /// never fails (a `Result` to stand where [`Reader::skip`] does).
    pub fn skip_trusted(&mut self) -> Result<(), ParseError> {
        self.parser.skip_ws();
        let bytes = self.parser.bytes;
        let mut at = self.parser.pos;
        let mut open = 0usize;
        loop {
            match bytes.get(at) {
                None => break,
                Some(b'"') => at = trusted_string_end(bytes, at),
                Some(b'{' | b'[') => {
                    open += 1;
                    at += 1;
                }
                Some(b'}' | b']') if open > 0 => {
                    open -= 1;
                    at += 1;
                }
                Some(b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') if open == 0 => break,
                Some(_) => at += 1,
            }
            if open == 0 && bytes.get(at.wrapping_sub(1)).is_some_and(|&b| matches!(b, b'"' | b'}' | b']')) {
                break;
            }
        }
        self.parser.pos = at;
        Ok(())
    }
}

/// The offset just past the string whose opening quote is at `start` (or the end of `bytes`),
/// the string trusted to be JSON: plain runs found eight bytes at a time.
fn trusted_string_end(bytes: &[u8], start: usize) -> usize {
    let mut at = start + 1;
    loop {
        at += plain_run_length(bytes.get(at..).unwrap_or_default());
        match bytes.get(at) {
            None => return bytes.len(),
            Some(b'"') => return at + 1,
            Some(b'\\') => at += 2,
            Some(_) => at += 1,
        }
    }
}

/// Pushes a character of the JSON text, [`SURROGATE_MARK`] twice.
fn push_character(out: &mut String, c: char) {
    out.push(c);
    if c == SURROGATE_MARK {
        out.push(c);
    }
}

/// What the [`SURROGATE_MARK`] at the start of `rest` stands for: the lone surrogate (`None` for a
/// U+10FFFF) and the bytes it takes. A mark followed by anything else (only a string built in Rust
/// can hold one) stands for itself.
fn read_mark(rest: &str) -> (Option<u32>, usize) {
    let mark = SURROGATE_MARK.len_utf8();
    match rest.get(mark..).and_then(|after| after.chars().next()) {
        Some(SURROGATE_MARK) => (None, 2 * mark),
        Some(c) if (SURROGATE_BASE..SURROGATE_BASE + 0x800).contains(&u32::from(c)) => {
            (Some(0xD800 + u32::from(c) - SURROGATE_BASE), mark + c.len_utf8())
        }
        _ => (None, mark),
    }
}

/// Each [`SURROGATE_MARK`] sequence of `s`: what it stands for ([`read_mark`]) and how many
/// characters it takes. Nothing for a string without a plane-16 character (nearly all).
fn mark_sequences(s: &str) -> impl Iterator<Item = (Option<u32>, usize)> + '_ {
    let mut rest = if s.as_bytes().contains(&PLANE_16_LEAD) { s } else { "" };
    core::iter::from_fn(move || {
        let at = rest.find(SURROGATE_MARK)?;
        let tail = rest.get(at..).unwrap_or_default();
        let (surrogate, taken) = read_mark(tail);
        let counted = tail.get(..taken).unwrap_or_default().chars().count();
        rest = tail.get(taken..).unwrap_or_default();
        Some((surrogate, counted))
    })
}

/// `text` with every array or object nested deeper than `keep` levels written as `null`: an
/// outline of JSON nested however deep, made in one scan without recursion (so that the top of a
/// value too deep to parse can still be read). Strings are copied as they are; text that is not
/// JSON stays not JSON. Text nested no deeper than `keep` is its own outline: borrowed, not
/// copied.
pub fn shallow_text(text: &str, keep: usize) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut pruned = false;
    let (mut depth, mut at, mut copied_from) = (0usize, 0usize, 0usize);
    let mut skipping_above: Option<usize> = None;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'"' => {
                at = string_end(bytes, at);
                continue;
            }
            b'{' | b'[' => {
                depth += 1;
                if skipping_above.is_none() && depth > keep {
                    if !pruned {
                        out.reserve(text.len());
                        pruned = true;
                    }
                    out.push_str(text.get(copied_from..at).unwrap_or_default());
                    out.push_str("null");
                    skipping_above = Some(depth - 1);
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if skipping_above == Some(depth) {
                    skipping_above = None;
                    copied_from = at + 1;
                }
            }
            _ => {}
        }
        at += 1;
    }
    if !pruned {
        return Cow::Borrowed(text);
    }
    if skipping_above.is_none() {
        out.push_str(text.get(copied_from..).unwrap_or_default());
    }
    Cow::Owned(out)
}

/// The offset just past the string whose opening quote is at `start` (or the end of `bytes`).
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut at = start + 1;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'\\' => at += 2,
            b'"' => return at + 1,
            _ => at += 1,
        }
    }
    bytes.len()
}

/// The longest start of `s` of at most `max` characters that does not end inside a
/// [`SURROGATE_MARK`] sequence: a cut between the mark and what it stands for would leave a raw
/// U+10FFFF in the text the model reads (every cut of model-visible text goes through here).
pub fn cut_chars(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((end, _)) => s.get(..mark_safe_end(s, end)).unwrap_or_default(),
        None => s,
    }
}

/// `end` (a character boundary of `s`), moved back to the start of a [`SURROGATE_MARK`] sequence
/// that it would split.
pub fn mark_safe_end(s: &str, end: usize) -> usize {
    if !s.as_bytes().get(..end).is_some_and(|head| head.contains(&PLANE_16_LEAD)) {
        return end;
    }
    let mut at = 0;
    while let Some(found) = s.get(at..end).and_then(|rest| rest.find(SURROGATE_MARK)) {
        let start = at + found;
        let (_, taken) = read_mark(s.get(start..).unwrap_or_default());
        if start + taken > end {
            return start;
        }
        at = start + taken;
    }
    end
}

/// The number of code points `s` stands for in JavaScript (a lone surrogate is one).
pub fn code_points(s: &str) -> usize {
    mark_sequences(s).fold(s.chars().count(), |n, (_, counted)| n + 1 - counted)
}

/// The bytes that end a run of plain string bytes: `"`, `\\`, the control characters, and the
/// first byte of a plane-16 character (which may be [`SURROGATE_MARK`]).
fn ends_run(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20 || b == PLANE_16_LEAD
}

/// Offset of the first byte of `bytes` that [`ends_run`], or `bytes.len()`, eight bytes at a time.
fn plain_run_length(bytes: &[u8]) -> usize {
    let stops = |word| {
        swar::equal(word, b'"') | swar::equal(word, b'\\') | swar::below(word, 0x20) | swar::equal(word, PLANE_16_LEAD)
    };
    swar::prefix_length(bytes, stops, ends_run)
}

/// Members an object may have before [`insert_member`] stops comparing each new key with every
/// earlier one and leaves repeated keys to [`merge_repeated_keys`] (n·log n for a wide object).
const SCANNED_MEMBERS: usize = 16;

/// Adds a member as `JSON.parse` does: a repeated key keeps its first place and takes the last
/// value. In a small object that is done now; past [`SCANNED_MEMBERS`] the member is appended
/// unchecked and `true` returned: the caller then calls [`merge_repeated_keys`] at the end.
fn insert_member(members: &mut Vec<(String, Value)>, key: String, value: Value) -> bool {
    if members.len() >= SCANNED_MEMBERS {
        members.push((key, value));
        return true;
    }
    // Lengths first: a call to compare bytes only for keys of the same length.
    if let Some(slot) = members.iter_mut().find(|(k, _)| k.len() == key.len() && *k == key) {
        slot.1 = value;
    } else {
        members.push((key, value));
    }
    false
}

/// Merges repeated keys as `JSON.parse` does (the first place, the last value): the members'
/// positions sorted by key find every repeat in n·log n. Nothing moves when no key repeats. Any
/// member type: the toolbox reader merges repeated server names by the same rule.
pub(crate) fn merge_repeated_keys<T>(members: &mut Vec<(String, T)>) {
    let mut order: Vec<(&str, usize)> = members.iter().enumerate().map(|(i, (k, _))| (k.as_str(), i)).collect();
    swar::sort_names(&mut order);
    let mut dropped = alloc::vec![false; members.len()];
    // (first place, last place) of each repeated key.
    let mut moves = Vec::new();
    for group in order.chunk_by(|a, b| a.0 == b.0) {
        if let [(_, first), .., (_, last)] = *group {
            moves.push((first, last));
            for &(_, i) in group.iter().skip(1) {
                if let Some(d) = dropped.get_mut(i) {
                    *d = true;
                }
            }
        }
    }
    if moves.is_empty() {
        return;
    }
    // The two members have the same key: swapping them moves the last value to the first place.
    for (first, last) in moves {
        if first < last && last < members.len() {
            members.swap(first, last);
        }
    }
    let mut at = 0;
    members.retain(|_| {
        at += 1;
        !dropped.get(at - 1).copied().unwrap_or(false)
    });
}

/// The text JavaScript prints for the number written as `text`: integers of up to 15 digits are
/// kept as they are; everything else goes through `f64` and [`js_number_text`], but for a number
/// past a float's range, kept as written.
fn canonical_number(text: &str, integer: bool) -> String {
    // Bytes, not `str` patterns: this runs for every number parsed.
    let bytes = text.as_bytes();
    let negative = bytes.first() == Some(&b'-');
    let digits = bytes.get(usize::from(negative)..).unwrap_or_default();
    let zero = digits.len() == 1 && digits.first() == Some(&b'0');
    let plain = integer && digits.len() <= 15 && (zero || digits.first() != Some(&b'0'));
    if plain && !(negative && zero) {
        return text.to_owned();
    }
    match crate::float::parse_f64(text) {
        Some(x) if x.is_finite() => js_number_text(x),
        // Past a float's range (`1E400`): JSON.parse reads Infinity, JSON.stringify writes null.
        // Kept as written (never another number), for what reads it to see it is out of range.
        _ => text.to_owned(),
    }
}

/// `x` within `low..=high` (NaN stays NaN), without `f64::clamp`, whose check of its bounds
/// formats them in a panic message and so links core's float formatting into the `.wasm`.
pub(crate) fn clamp(x: f64, low: f64, high: f64) -> f64 {
    if x < low {
        low
    } else if x > high {
        high
    } else {
        x
    }
}

/// The shortest digits that read back as `x` (finite, positive) and the decimal exponent `n` with
/// `x = 0.digits × 10^n`, from ryu's text (`123.45`, `1e21`, `1.5e-7`).
fn shortest_digits(x: f64) -> (String, i32) {
    let mut buffer = ryu::Buffer::new();
    let text = buffer.format_finite(x);
    let (mantissa, exp) = text.split_once('e').unwrap_or((text, "0"));
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = int.bytes().chain(frac.bytes());
    let lead = all.clone().take_while(|&b| b == b'0').count();
    let mut digits: String = all.skip(lead).map(char::from).collect();
    digits.truncate(digits.trim_end_matches('0').len());
    let n = int.len() as i32 - lead as i32 + exp.parse::<i32>().unwrap_or(0);
    (digits, n)
}

/// `Number.prototype.toString()` for a finite `f64` (ECMAScript's Number::toString, radix 10).
pub fn js_number_text(x: f64) -> String {
    if x == 0.0 {
        return "0".to_owned();
    }
    let (digits, n) = shortest_digits(x.abs());
    let k = digits.len() as i32;
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.extend(core::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at_checked(n as usize).unwrap_or((&digits, ""));
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(core::iter::repeat_n('0', (-n) as usize));
        out.push_str(&digits);
    } else {
        let (first, rest) = digits.split_at_checked(1).unwrap_or((&digits, ""));
        out.push_str(first);
        if k > 1 {
            out.push('.');
            out.push_str(rest);
        }
        let e = n - 1;
        let _ = write!(out, "e{}{}", if e < 0 { '-' } else { '+' }, e.abs());
    }
    out
}

fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(n),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, k);
                out.push(':');
                write_value(out, v);
            }
            out.push('}');
        }
    }
}

/// Writes a JSON string literal with `JSON.stringify`'s escapes: the runs between characters to
/// escape (found as the parser finds them, with `plain_run_length`) in one copy each.
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    let mut at = 0;
    loop {
        let run = plain_run_length(s.as_bytes().get(at..).unwrap_or_default());
        out.push_str(s.get(at..at + run).unwrap_or_default());
        at += run;
        let Some(&b) = s.as_bytes().get(at) else { break };
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            PLANE_16_LEAD => {
                at += write_plane_16(out, s.get(at..).unwrap_or_default());
                continue;
            }
            _ => {
                let _ = write!(out, "\\u{:04x}", b);
            }
        }
        at += 1;
    }
    out.push('"');
}

/// Writes the plane-16 character at the start of `rest` as `JSON.stringify` would: a lone
/// surrogate's stand-in as its escape `\udXXX`, anything else as it is. Returns the bytes read.
fn write_plane_16(out: &mut String, rest: &str) -> usize {
    let Some(c) = rest.chars().next() else { return rest.len().max(1) };
    if c != SURROGATE_MARK {
        out.push(c);
        return c.len_utf8();
    }
    let (surrogate, taken) = read_mark(rest);
    match surrogate {
        Some(surrogate) => {
            let _ = write!(out, "\\u{surrogate:04x}");
        }
        None => out.push(SURROGATE_MARK),
    }
    taken
}

/// Code points of the JSON string literal for `s` (quotes and escapes included), summed over its
/// UTF-8 bytes with [`LITERAL_CODE_POINTS`]; a lone surrogate counts as its escape's six.
fn string_code_points(s: &str) -> usize {
    let sum = 2 + s.bytes().map(|b| usize::from(LITERAL_CODE_POINTS[usize::from(b)])).sum::<usize>();
    // Each mark sequence was counted as its characters.
    mark_sequences(s).fold(sum, |n, (surrogate, counted)| n + if surrogate.is_some() { 6 } else { 1 } - counted)
}

/// What one UTF-8 byte adds to the code points of a `JSON.stringify` string literal: 0 for a
/// continuation byte (its character was counted at its first byte), 2 for the characters written
/// as a two-character escape (`\"` `\\` `\b` `\f` `\n` `\r` `\t`), 6 for the other control
/// characters (`\u00XX`), 1 for everything else.
const LITERAL_CODE_POINTS: [u8; 256] = {
    let mut table = [1u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = 6;
        b += 1;
    }
    table[0x08] = 2;
    table[0x09] = 2;
    table[0x0a] = 2;
    table[0x0c] = 2;
    table[0x0d] = 2;
    table[b'"' as usize] = 2;
    table[b'\\' as usize] = 2;
    let mut b = 0x80;
    while b < 0xc0 {
        table[b] = 0;
        b += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    /// What the reader calls compact, and that a text called compact is `to_json`'s, byte for byte.
    #[test]
    fn compact_texts_are_told_apart() {
        let cases = [
            (r#"{"a":[1,2.5,-3,1e+21,"x",true,false,null,{}]}"#, true),
            (r#"{"q":"say \"hi\"\\ \n\r\t\b\f é 日本 😀"}"#, true),
            (r#""\u0001\u001f\ud800 \udfff""#, true),
            (r#"{"a": 1}"#, false),
            (" [1 ,2]", false),
            (r#""a\/b""#, false),
            (r#""\u00e9""#, false),
            (r#""\u001F""#, false),
            (r#""\uD800""#, false),
            (r#""\ud83d\ude00""#, false),
            (r#""\u000a""#, false),
            ("1.0", false),
            ("1E3", false),
            ("-0", false),
            (r#"{"a":1,"a":2}"#, false),
        ];
        for (text, compact) in cases {
            let (value, end, told) = Reader::new(text).value_with_text(0).unwrap();
            assert_eq!(told, compact, "{text}");
            assert_eq!(end, text.len(), "{text}");
            assert_eq!(value.to_json() == text.trim_start(), compact, "{text}");
        }
        // A plane-16 character is kept out, to be safe: written again, it is the same text.
        let (value, _, told) = Reader::new("\"\u{100000}\"").value_with_text(0).unwrap();
        assert!(!told && value.to_json() == "\"\u{100000}\"");
        let wide: Vec<String> = (0..40).map(|i| format!(r#""k{}":{i}"#, i % 39)).collect();
        let wide = format!("{{{}}}", wide.join(","));
        assert!(!Reader::new(&wide).value_with_text(0).unwrap().2, "a repeated key past the scanned members");
        let wide = wide.replace(r#""k0":39"#, r#""k39":39"#);
        assert!(Reader::new(&wide).value_with_text(0).unwrap().2, "{wide}");
    }

    fn roundtrip(input: &str, expected: &str) {
        let v = parse(input).unwrap();
        assert_eq!(v.to_json(), expected, "input {input}");
        assert_eq!(v.json_code_points(), expected.chars().count(), "code points of {expected}");
    }

    #[test]
    fn compact_output_matches_json_stringify() {
        roundtrip(r#" { "b" : 1 , "a" : [ true , false , null ] } "#, r#"{"b":1,"a":[true,false,null]}"#);
        roundtrip(r#""a\u00e9\/\"\\\n\u0001""#, "\"aé/\\\"\\\\\\n\\u0001\"");
        roundtrip(r#""\ud83d\ude00""#, "\"😀\"");
        roundtrip(r#"{"a":1,"a":2}"#, r#"{"a":2}"#);
    }

    #[test]
    fn numbers_are_written_as_javascript_writes_them() {
        for (input, expected) in [
            ("0", "0"),
            ("-0", "0"),
            ("1.0", "1"),
            ("1.50", "1.5"),
            ("1e21", "1e+21"),
            ("1E20", "100000000000000000000"),
            ("0.000001", "0.000001"),
            ("1e-7", "1e-7"),
            ("-2.5e-8", "-2.5e-8"),
            ("123456789012345678901", "123456789012345680000"),
            ("9007199254740993", "9007199254740992"),
            ("42", "42"),
            ("-17", "-17"),
            ("3.14159", "3.14159"),
            ("1e400", "1e400"), // past a float: kept as written (unwrap refuses it in arguments)
        ] {
            roundtrip(input, expected);
        }
    }

    #[test]
    fn bad_json_is_an_error_with_an_offset() {
        for (input, offset) in [("", 0), ("{", 1), ("[1,]", 3), ("{\"a\" 1}", 5), ("01", 1), ("\"\\x\"", 2), ("tru", 0)]
        {
            let e = parse(input).unwrap_err();
            assert_eq!(e.offset, offset, "{input}: {}", e.message);
        }
    }

    #[test]
    fn literal_code_points_count_characters_and_escapes() {
        let by_chars = |s: &str| {
            2 + s
                .chars()
                .map(|c| match c {
                    '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
                    '\0'..='\u{1f}' => 6,
                    _ => 1,
                })
                .sum::<usize>()
        };
        let every_control: String = (0u8..0x20).map(char::from).collect();
        for s in [
            "",
            "plain",
            "é",
            "日本語",
            "😀 emoji",
            "a\"b\\c",
            &every_control,
            "\u{7f}\u{80}\u{2028}\u{ffff}\u{10ffff}",
        ] {
            assert_eq!(string_code_points(s), by_chars(s), "{s:?}");
            let mut written = String::new();
            write_string(&mut written, s);
            assert_eq!(string_code_points(s), written.chars().count(), "{s:?}");
        }
    }

    #[test]
    fn strings_are_escaped_as_json_stringify_escapes_them() {
        let by_chars = |s: &str| {
            let mut out = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    '\u{8}' => out.push_str("\\b"),
                    '\u{c}' => out.push_str("\\f"),
                    '\0'..='\u{1f}' => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push('"');
            out
        };
        let specials = ['"', '\\', '\n', '\r', '\t', '\u{8}', '\u{c}', '\0', '\u{1f}', '\u{7f}', 'é', '😀'];
        for len in 0..20 {
            for fill in ['a', 'é', ' '] {
                for special in specials {
                    for at in 0..len {
                        let s: String =
                            (0..len).map(|i| if i == at || i == len - 1 - at { special } else { fill }).collect();
                        let mut written = String::new();
                        write_string(&mut written, &s);
                        assert_eq!(written, by_chars(&s), "{s:?}");
                    }
                }
            }
        }
    }

    /// `JSON.parse`'s rule for repeated keys (the first place, the last value), in small objects
    /// and in wide ones (where they are merged at the end), against the member-by-member reading.
    #[test]
    fn repeated_keys_take_the_first_place_and_the_last_value() {
        let reference = |pairs: &[(String, u64)]| {
            let mut members: Vec<(String, Value)> = Vec::new();
            for (k, v) in pairs {
                match members.iter_mut().find(|(key, _)| key == k) {
                    Some(slot) => slot.1 = Value::uint(*v),
                    None => members.push((k.clone(), Value::uint(*v))),
                }
            }
            Value::Object(members)
        };
        for width in [0usize, 1, 5, 15, 16, 17, 40, 300] {
            for repeat_every in [1usize, 2, 3, 7, 1000] {
                let pairs: Vec<(String, u64)> = (0..width)
                    .map(|i| (format!("k{}", if i % repeat_every == 0 { i % 5 } else { i }), i as u64))
                    .collect();
                let members = pairs.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect::<Vec<_>>();
                let parsed = parse(&format!("{{{}}}", members.join(","))).unwrap();
                assert_eq!(parsed, reference(&pairs), "width {width}, every {repeat_every}");
            }
        }
    }

    /// Lone surrogates come back as `JSON.stringify` writes them (lowercase escapes), count as
    /// their escape's six code points, and U+10FFFF (the mark) stays itself.
    #[test]
    fn lone_surrogates_round_trip_as_json_stringify_writes_them() {
        for (input, expected, js_code_points) in [
            (r#""\ud800""#, r#""\ud800""#, 1),
            (r#""\uDFFF""#, r#""\udfff""#, 1),
            (r#""a\udc00b\ud83d""#, r#""a\udc00b\ud83d""#, 4),
            (r#""\ud83d\ude00\ud800""#, "\"😀\\ud800\"", 2),
            (r#""\udbff\udfff""#, "\"\u{10FFFF}\"", 1),
            ("\"\u{10FFFF}\u{100000}\"", "\"\u{10FFFF}\u{100000}\"", 2),
            ("\"\u{10FFFF}\\ud800\u{10FFFF}\"", "\"\u{10FFFF}\\ud800\u{10FFFF}\"", 3),
            (r#""\ud800\ud800\udc00""#, "\"\\ud800\u{10000}\"", 2),
            (r#"{"\ud800":"\udfff"}"#, r#"{"\ud800":"\udfff"}"#, 0),
        ] {
            roundtrip(input, expected);
            if let Value::String(s) = parse(input).unwrap() {
                assert_eq!(code_points(&s), js_code_points, "{input}");
            }
        }
        // A mark that a Rust program put in a string without a stand-in after it is written as itself.
        let mut written = String::new();
        write_string(&mut written, "a\u{10FFFF}b");
        assert_eq!(written, "\"a\u{10FFFF}b\"");
        assert_eq!(Value::str("a\u{10FFFF}b").json_code_points(), 5);
    }

    #[test]
    fn depth_is_bounded() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(&ok).is_ok());
        let deep = "[".repeat(100_000);
        assert!(parse(&deep).unwrap_err().too_deep);
    }
}
