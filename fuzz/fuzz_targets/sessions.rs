//! Bytes as a session script (SPEC §14): attach, detach, replace, search, call, describe, deep
//! and malformed history, in either mode for either provider; every request valid for the
//! provider and every name keeping its tool after every step (see checks.rs, `sessions`).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::sessions(data));
