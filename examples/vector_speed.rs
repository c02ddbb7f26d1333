//! Time of a search with a query vector against the lexical search, natively, on the 3,397-tool
//! REST catalog with the MiniLM fixtures (`cargo run --profile native --example vector_speed`).

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/support/embeddings.rs"]
mod embeddings;

use std::time::Instant;
use toolshelf::embed::Vectors;
use toolshelf::json::Value;
use toolshelf::Shelf;

fn main() {
    let tools = embeddings::read("tools");
    let mut shelf =
        Shelf::new(&common::grouped(&["cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04"]), &Value::Null)
            .unwrap();
    let values: Vec<f32> = shelf.embedding_texts().iter().flat_map(|(key, _)| tools.get(key).unwrap()).collect();
    let start = Instant::now();
    shelf.set_embeddings(Vectors { model: &tools.model, dimensions: tools.dim, values: &values, keys: None }).unwrap();
    println!("set_embeddings: {:?}", start.elapsed());
    let query = tools.at(5);
    let similarities = shelf.embeddings().unwrap();
    let time = |label: &str, f: &dyn Fn()| {
        f();
        let start = Instant::now();
        for _ in 0..200 {
            f();
        }
        println!("{label}: {:?} per call", start.elapsed() / 200);
    };
    time("similarities", &|| drop(similarities.similarities(&query).unwrap()));
    time("search zzqx", &|| drop(shelf.search("zzqx", Some(5))));
    time("search zzqx + vector", &|| drop(shelf.search_with_vector("zzqx", Some(5), Some(&query)).unwrap()));
    time("search list zones", &|| drop(shelf.search("list zones", Some(5))));
    time("search list zones + vector", &|| {
        drop(shelf.search_with_vector("list zones", Some(5), Some(&query)).unwrap())
    });
}
