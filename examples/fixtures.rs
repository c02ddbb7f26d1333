//! Runs the shared assemble cases natively and prints, per case, the facts and the fingerprint as
//! JSON, so the JS tests can check that every runtime gives the same bytes.
//! `cargo run --release --example fixtures > target/native-assemble.json`

#[path = "../tests/common/mod.rs"]
mod common;

use toolshelf::json::Value;
use toolshelf::Shelf;

fn main() {
    let results: Vec<Value> = common::assemble_cases()
        .iter()
        .map(|case| {
            let shelf = Shelf::new(&common::grouped(&case.catalogs), &case.options).expect(&case.name);
            let layout = shelf.layout();
            let mut facts = layout.facts.to_value(Value::uint(layout.slots.len() as u64));
            if let Value::Object(members) = &mut facts {
                members.insert(0, ("name".into(), Value::str(case.name.as_str())));
                members.push(("toolsJsonLength".into(), Value::uint(layout.tools_json().chars().count() as u64)));
            }
            facts
        })
        .collect();
    println!("{}", Value::Array(results).to_json());
}
