//! Replays the fuzz seeds (`fuzz/seeds/<target>/`) with the fuzz targets' own checks, so
//! `cargo test` guards them without the nightly toolchain. A crash input the fuzzer finds belongs
//! in those folders: it then stays a regression test here.

use std::path::Path;

use toolshelf::json;
use toolshelf::schema::validate;

fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new("fuzz/seeds").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    files.sort();
    files
}

/// The `json_parse` target: whatever parses writes back to text that parses to the same value.
fn json_roundtrip(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(value) = json::parse(text) else { return };
    let written = value.to_json();
    let again = json::parse(&written).expect("to_json output parses");
    assert_eq!(again, value, "re-parse of {written}");
    assert_eq!(again.to_json(), written);
    assert_eq!(value.json_code_points(), written.chars().count());
}

/// The `validate` target: schema and arguments split at the first NUL byte.
fn validate_twice(data: &[u8]) {
    let Some(split) = data.iter().position(|b| *b == 0) else { return };
    let (Ok(schema), Ok(args)) = (std::str::from_utf8(&data[..split]), std::str::from_utf8(&data[split + 1..])) else {
        return;
    };
    let (Ok(schema), Ok(args)) = (json::parse(schema), json::parse(args)) else { return };
    let mut checked = args.clone();
    match validate(&schema, &mut checked) {
        Ok(()) => {
            let mut again = checked.clone();
            assert!(validate(&schema, &mut again).is_ok(), "accepted arguments rejected on a second look");
            assert_eq!(again, checked, "coerced twice");
        }
        Err(violation) => {
            assert_eq!(checked, args, "a rejected call was changed");
            assert!(violation.path.starts_with("arguments") && !violation.message.is_empty());
        }
    }
}

#[test]
fn json_parse_seeds_roundtrip() {
    let seeds = seeds("json_parse");
    assert!(!seeds.is_empty());
    for (name, data) in seeds {
        let result = std::panic::catch_unwind(|| json_roundtrip(&data));
        assert!(result.is_ok(), "seed {name}");
    }
}

#[test]
fn validate_seeds_hold() {
    let seeds = seeds("validate");
    assert!(seeds.len() > 100);
    for (name, data) in seeds {
        let result = std::panic::catch_unwind(|| validate_twice(&data));
        assert!(result.is_ok(), "seed {name}");
    }
}
