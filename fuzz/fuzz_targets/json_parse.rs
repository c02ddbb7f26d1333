//! Any bytes: `json::parse` never panics, and what it parses writes back to text that parses to
//! the same value (and the same text), with `json_code_points` matching the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolshelf::json;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(value) = json::parse(text) else { return };
    let written = value.to_json();
    let again = json::parse(&written).expect("to_json output parses");
    assert_eq!(again, value, "re-parse of {written}");
    assert_eq!(again.to_json(), written);
    assert_eq!(value.json_code_points(), written.chars().count());
});
