//! A small order-preserving JSON value, a bounded parser and a compact writer that matches
//! `JSON.stringify`, so sizes, output bytes and fingerprints agree between Rust and JavaScript.
//!
//! Why not `serde_json`: its order-preserving map needs `std`, and toolshelf needs key order (tool
//! sizes and pass-through bytes), a depth bound that is an error rather than a stack overflow, and
//! number text written exactly as JavaScript writes it. This module is those three things and no more.

use crate::swar;
use alloc::borrow::ToOwned;
use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write as _;

/// Deepest nesting of arrays and objects the parser accepts (`too_large` beyond it).
pub const MAX_DEPTH: usize = 128;

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
            Value::Number(n) => n.parse().ok(),
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
    let mut parser = Parser { bytes: text.as_bytes(), text, pos: 0 };
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
}

impl<'a> Parser<'a> {
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
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, ParseError> {
        match self.peek() {
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
        if depth > MAX_DEPTH {
            let mut e = self.error("JSON nesting is deeper than 128 levels");
            e.too_deep = true;
            return Err(e);
        }
        Ok(())
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
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a string key"));
            }
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.error("expected ':'"));
            }
            self.pos += 1;
            self.skip_ws();
            let value = self.value(depth)?;
            insert_member(&mut members, key, value);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
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
        loop {
            self.skip_ws();
            items.push(self.value(depth)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn number(&mut self) -> Result<Value, ParseError> {
        let start = self.pos;
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
        let text = &self.text[start..self.pos];
        Ok(Value::Number(canonical_number(text, integer).into_boxed_str()))
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
                Some(_) => return Err(self.error("control character in string")),
                None => return Err(self.error("unterminated string")),
            }
            out.push_str(self.plain_run());
        }
    }

    /// The bytes from here up to the next `"`, `\\`, control character or the end, which it moves to.
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
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.pos += 1;
                let c = self.unicode_escape()?;
                out.push(c);
                return Ok(());
            }
            _ => return Err(self.error("invalid escape")),
        };
        self.pos += 1;
        out.push(c);
        Ok(())
    }

    /// After `\u`: four hex digits, joined with a following low surrogate when they are a high one.
    /// A lone surrogate (which Rust strings cannot hold) becomes U+FFFD.
    fn unicode_escape(&mut self) -> Result<char, ParseError> {
        let first = self.hex4()?;
        if (0xD800..0xDC00).contains(&first) && self.bytes[self.pos..].starts_with(b"\\u") {
            let save = self.pos;
            self.pos += 2;
            let second = self.hex4()?;
            if (0xDC00..0xE000).contains(&second) {
                let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                return Ok(char::from_u32(code).unwrap_or('\u{FFFD}'));
            }
            self.pos = save;
        }
        Ok(char::from_u32(first).unwrap_or('\u{FFFD}'))
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
        let mut parser = Parser { bytes: text.as_bytes(), text, pos: 0 };
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
        if self.peek() != Some(b'"') {
            return Err(self.parser.error("expected a string key"));
        }
        let key = self.parser.string()?;
        if self.peek() != Some(b':') {
            return Err(self.parser.error("expected ':'"));
        }
        self.parser.pos += 1;
        Ok(key)
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
}

/// The bytes that end a run of plain string bytes: `"`, `\\` and the control characters.
fn ends_run(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

/// Offset of the first byte of `bytes` that [`ends_run`], or `bytes.len()`, eight bytes at a time.
fn plain_run_length(bytes: &[u8]) -> usize {
    let stops = |word| swar::equal(word, b'"') | swar::equal(word, b'\\') | swar::below(word, 0x20);
    swar::prefix_length(bytes, stops, ends_run)
}

/// Adds a member as `JSON.parse` does: a repeated key keeps its first place and takes the last value.
fn insert_member(members: &mut Vec<(String, Value)>, key: String, value: Value) {
    // Lengths first: a call to compare bytes only for keys of the same length.
    if let Some(slot) = members.iter_mut().find(|(k, _)| k.len() == key.len() && *k == key) {
        slot.1 = value;
    } else {
        members.push((key, value));
    }
}

/// The text JavaScript prints for the number written as `text`: integers of up to 15 digits are
/// kept as they are; everything else goes through `f64` and [`js_number_text`].
fn canonical_number(text: &str, integer: bool) -> String {
    let digits = text.trim_start_matches('-');
    let plain = integer && digits.len() <= 15 && (digits == "0" || !digits.starts_with('0'));
    if plain && text != "-0" {
        return text.to_owned();
    }
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() => js_number_text(x),
        _ => {
            // Overflow to infinity: JSON.stringify would print null; keep something numeric.
            if text.starts_with('-') {
                "-1.7976931348623157e+308".to_owned()
            } else {
                "1.7976931348623157e+308".to_owned()
            }
        }
    }
}

/// `Number.prototype.toString()` for a finite `f64` (ECMAScript's Number::toString, radix 10).
pub fn js_number_text(x: f64) -> String {
    if x == 0.0 {
        return "0".to_owned();
    }
    // `{:e}` gives the shortest round-trip digits: "d.ddde±x".
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let n = exp.parse::<i32>().unwrap_or(0) + 1; // x = 0.digits × 10^n
    let k = digits.len() as i32;
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.extend(core::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(core::iter::repeat_n('0', (-n) as usize));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
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
            _ => {
                let _ = write!(out, "\\u{:04x}", b);
            }
        }
        at += 1;
    }
    out.push('"');
}

/// Code points of the JSON string literal for `s` (quotes and escapes included), summed over its
/// UTF-8 bytes with [`LITERAL_CODE_POINTS`].
fn string_code_points(s: &str) -> usize {
    2 + s.bytes().map(|b| usize::from(LITERAL_CODE_POINTS[usize::from(b)])).sum::<usize>()
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
            ("1e400", "1.7976931348623157e+308"),
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

    #[test]
    fn depth_is_bounded() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(&ok).is_ok());
        let deep = "[".repeat(100_000);
        assert!(parse(&deep).unwrap_err().too_deep);
    }
}
