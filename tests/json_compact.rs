//! The toolbox reader keeps a def's range of the toolbox text, without writing the def again, when
//! the parser says that range is the def's compact JSON: every def of every real catalog, written
//! as `JSON.stringify` writes it, is recognised so, and a re-spaced copy is not.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::catalogs::catalog_names;
use toolshelf::json::Reader;

#[test]
fn every_real_def_in_compact_json_is_recognised() {
    let mut defs = 0;
    for name in catalog_names() {
        for (server, def) in common::catalog(&name) {
            let text = def.to_json();
            let (read, end, compact) = Reader::new(&text).value_with_text(0).unwrap();
            assert!(compact, "{name}/{server}: {text:.200}");
            assert_eq!((end, &read), (text.len(), &def), "{name}/{server}");
            let spaced = text.replacen(':', ": ", 1);
            assert!(!Reader::new(&spaced).value_with_text(0).unwrap().2, "{name}/{server}: {spaced:.200}");
            defs += 1;
        }
    }
    assert!(defs > 15_000, "{defs} defs read");
}
