//! Native call shapes (SPEC §11) through a native shelf's unwrap: never a panic (see checks.rs).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::native_calls(data));
