//! A schema and arguments: validation never panics (see checks.rs).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::validate_twice(data));
