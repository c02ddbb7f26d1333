//! Assembles the shipped catalogs at a 200K context and prints, per toolbox, the tier, form,
//! per-server levels and tokens before (every schema eager) and after (the assembled array).
//! `scripts/demo` runs it before serving the demo page; `cargo run --release --example ladder`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;
use toolshelf::Shelf;

fn main() {
    let context: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let toolboxes: &[(&str, &[&str], bool)] = &[
        ("Linear", &["linear-mcp-official"], false),
        ("GitHub", &["github-mcp-server"], false),
        ("Stripe", &["stripe-api-2022-04"], false),
        ("Unreal (exploded)", &["unreal-mcp-actions-exploded"], false),
        ("Cloudflare API", &["cloudflare-api-2024-08"], false),
        (
            "GitHub + Linear + Cloudflare (q)",
            &["github-mcp-server", "linear-mcp-official", "cloudflare-api-2024-08"],
            true,
        ),
        ("70 MCP servers (qualified)", &["livemcptool-70servers"], true),
        ("REST APIs 3,400", &["rest-apis-flat-3400"], false),
        ("Mega union 4,774 (qualified)", &["mega-union"], true),
    ];
    println!("context {context} tokens\n");
    println!(
        "{:<30} {:>6} {:>5} {:<7} {:>10} {:>8} {:>8}  servers",
        "toolbox", "tools", "tier", "form", "eager tok", "after", "ms"
    );
    for (label, names, qualify) in toolboxes {
        let toolbox = common::grouped(names);
        let options = common::options(&format!(r#"{{"contextLength":{context},"qualify":{qualify}}}"#));
        let start = Instant::now();
        let shelf = Shelf::new(&toolbox, &options).expect("toolbox");
        let layout = shelf.layout();
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let facts = &layout.facts;
        let after = layout.tools_json().chars().count().div_ceil(4);
        let mut levels: Vec<String> =
            facts.servers.iter().take(4).map(|s| format!("{} {}", s.name, s.level.as_str())).collect();
        if facts.servers.len() > 4 {
            levels.push(format!("… {} servers", facts.servers.len()));
        }
        println!(
            "{:<30} {:>6} {:>5} {:<7} {:>10} {:>8} {:>8.1}  {}",
            label,
            facts.deferred_count,
            facts.tier,
            facts.form.as_str(),
            facts.deferred_tokens,
            after,
            ms,
            levels.join(", ")
        );
    }
}
