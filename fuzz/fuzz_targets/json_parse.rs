//! Any bytes: JSON parsing and writing round-trip (see checks.rs).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::json_parse(data));
