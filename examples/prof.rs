#[path = "../tests/common/mod.rs"]
mod common;
use std::time::Instant;
fn main() {
    let text = common::catalog_text("mega-union");
    let t = Instant::now();
    let v = toolshelf::json::parse(&text).unwrap();
    println!("parse {:?}", t.elapsed());
    let t = Instant::now();
    let v2 = v.clone();
    println!("clone {:?}", t.elapsed());
    let t = Instant::now();
    let n: usize = v2.as_array().unwrap().iter().map(|x| x.json_code_points()).sum();
    println!("size {:?} {n}", t.elapsed());
    let toolbox = common::grouped(&["mega-union"]);
    let opts = common::options(r#"{"qualify":true}"#);
    let t = Instant::now();
    let shelf = toolshelf::Shelf::new(&toolbox, &opts).unwrap();
    println!("shelf {:?}", t.elapsed());
    let t = Instant::now();
    let l = shelf.layout();
    println!("layout {:?}", t.elapsed());
    let t = Instant::now();
    let j = l.tools_json();
    println!("json {:?} {}", t.elapsed(), j.len());
}
