//! A real snapshot's fields changed and its checksum made right: loads into a shelf that answers
//! as a shelf of its toolbox would, or is invalid_snapshot (see checks.rs, `snapshot_forged`).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::snapshot_forged(data));
