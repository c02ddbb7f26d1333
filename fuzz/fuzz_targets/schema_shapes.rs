//! Amplifying schemas and arguments chosen by the bytes: validation ends in bounded work (see checks.rs).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::schema_shapes(data));
