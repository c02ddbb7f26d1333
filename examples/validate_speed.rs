//! Time per `schema::validate` call on the largest real schemas (Stripe's and Cloudflare's, by
//! schema size) with valid arguments built from the schema: `cargo run --release --example validate_speed`.

#[path = "../tests/schema_support/mod.rs"]
mod schema_support;

use std::hint::black_box;
use std::time::Instant;

use schema_support::{arguments, catalog_schemas, Fill};
use toolshelf::json::Value;
use toolshelf::schema::validate;

/// Schemas timed per catalog, largest first.
const PER_CATALOG: usize = 3;
/// Timed batches; the median batch gives the figure.
const BATCHES: usize = 101;

/// Median nanoseconds per call of `f`, over batches sized to take about a millisecond each.
fn median_ns(mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut calls = 0u32;
    while start.elapsed().as_micros() < 1000 {
        f();
        calls += 1;
    }
    let mut per_call: Vec<f64> = (0..BATCHES)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..calls {
                f();
            }
            start.elapsed().as_nanos() as f64 / f64::from(calls)
        })
        .collect();
    per_call.sort_by(f64::total_cmp);
    per_call[BATCHES / 2]
}

/// Times valid arguments (nothing to coerce), the same with one number sent as text (coerced),
/// and arguments missing a required property (rejected, the violation copying the schema).
fn time_schema(name: &str, schema: &Value) {
    let size = schema.to_json().len();
    for (fill, label) in [(Fill::Minimal, "required only"), (Fill::Full, "every property")] {
        let Some(args) = arguments(schema, fill) else {
            println!("{name:<48} {size:>7} B  {label:<15} (no arguments built)");
            continue;
        };
        let mut valid = args.clone();
        assert_eq!(validate(schema, &mut valid), Ok(()), "{name}: built arguments accepted");
        let valid_ns = median_ns(|| {
            let _ = black_box(validate(black_box(schema), black_box(&mut valid)));
        });
        let args_size = args.to_json().len();
        println!("{name:<48} {size:>7} B  {label:<15} args {args_size:>6} B  valid: {valid_ns:>9.0} ns/call");
    }
    if let Some(Value::Object(members)) = arguments(schema, Fill::Minimal) {
        let Some((_, rest)) = members.split_first() else { return };
        let missing = Value::Object(rest.to_vec());
        let rejected_ns = median_ns(|| {
            let mut args = missing.clone();
            let _ = black_box(validate(black_box(schema), &mut args));
        });
        println!("{name:<48} {size:>7} B  missing a required property:         rejected: {rejected_ns:>9.0} ns/call");
    }
}

fn main() {
    let schemas = catalog_schemas();
    for catalog in ["stripe-api-2022-04", "cloudflare-api-2024-08"] {
        let mut largest: Vec<_> = schemas.iter().filter(|(c, _, _)| c == catalog).collect();
        largest.sort_by_key(|(_, _, s)| std::cmp::Reverse(s.to_json().len()));
        println!("== {catalog}: the {PER_CATALOG} largest schemas (median of {BATCHES} batches)");
        for (_, name, schema) in largest.into_iter().take(PER_CATALOG) {
            time_schema(name, schema);
        }
    }
}
