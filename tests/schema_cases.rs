//! Data-driven validator cases from `tests/data/schema-cases.json`, shared with the JS tests:
//! each case gives a schema, arguments, the verdict and, for failures, the path and keyword.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

use toolshelf::json::{self, Value};
use toolshelf::schema::validate;

const CASES: &str = include_str!("data/schema-cases.json");

/// Runs one case; returns what went wrong, if anything.
fn check(case: &Value) -> Result<(), String> {
    let field = |key: &str| case.get(key);
    let schema = field("schema").ok_or("no schema")?;
    let args = field("args").ok_or("no args")?;
    let valid = field("valid").and_then(Value::as_bool).ok_or("no valid")?;
    let mut checked = args.clone();
    let result = validate(schema, &mut checked);
    match (&result, valid) {
        (Ok(()), true) => {
            let expected = field("coerced").unwrap_or(args);
            if checked != *expected {
                return Err(format!("arguments became {}, expected {}", checked.to_json(), expected.to_json()));
            }
        }
        (Err(v), false) => {
            if checked != *args {
                return Err(format!("a rejected call was changed to {}", checked.to_json()));
            }
            for (key, actual) in [("path", v.path.as_str()), ("keyword", v.keyword), ("message", v.message.as_str())] {
                if let Some(expected) = field(key).and_then(Value::as_str) {
                    if expected != actual {
                        return Err(format!("{key} {actual:?}, expected {expected:?} ({v})"));
                    }
                }
            }
            if v.to_string() != format!("{}: {}", v.path, v.message) || v.message.is_empty() {
                return Err(format!("bad message: {v}"));
            }
        }
        (Ok(()), false) => return Err(String::from("accepted, expected a violation")),
        (Err(v), true) => return Err(format!("rejected: {v} [{}]", v.keyword)),
    }
    Ok(())
}

#[test]
fn schema_cases_pass() {
    let cases = json::parse(CASES).expect("schema-cases.json parses");
    let cases = cases.as_array().expect("an array of cases");
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let name = case.get("name").and_then(Value::as_str).unwrap_or("?");
            check(case).err().map(|e| format!("{name}: {e}"))
        })
        .collect();
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
    println!("{} schema cases passed", cases.len());
}

#[test]
fn every_case_has_a_unique_name_and_failures_name_path_and_keyword() {
    let cases = json::parse(CASES).unwrap();
    let mut names: Vec<&str> = cases.as_array().unwrap().iter().filter_map(|c| c.get("name")?.as_str()).collect();
    let total = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), total, "duplicate case names");
    for case in cases.as_array().unwrap() {
        if case.get("valid") == Some(&Value::Bool(false)) {
            assert!(case.get("path").is_some() && case.get("keyword").is_some(), "{}", case.to_json());
        }
    }
}
