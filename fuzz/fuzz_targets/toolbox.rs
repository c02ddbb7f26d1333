//! A toolbox, options and a query: prepare, assemble, search never panic (see checks.rs).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::toolbox(data));
