//! The layering check (ARCHITECTURE.md, "Layers"): every module of `src/` and `pkg-template/`
//! imports only modules of lower layers, so there is no import circle and no room reaches up.
//! A module's imports are read from its code (`crate::<module>` paths, comments left out; ES
//! `import … from "./<file>"`); a directory module (`src/search/`) is one room.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::path::Path;

/// The core's rooms, bottom first: a room may import only rooms of lower layers.
const CORE: &[&[&str]] = &[
    &["error", "hash", "float", "swar", "lowercase", "distance"],
    &["json"],
    &["format", "wire"],
    &["options"],
    &["texts"],
    &["schema", "bridge"],
    &["catalog"],
    &["search"],
    &["listing", "describe", "conversation", "find"],
    &["dialect"],
    &["native"],
    &["assemble", "unwrap"],
    &["shelf"],
    &["wasm"],
];

/// The npm package's files, bottom first (the entries are the top: nothing imports them).
const PACKAGE: &[&[&str]] = &[
    &["wasm/toolshelf"],
    &["state"],
    &["common", "rules", "limits"],
    &["toolbox-text"],
    &["api"],
    &["node", "workerd", "web", "slim"],
    &["ai-shared", "mcp", "stdio"],
    &["ai-native", "ai-mcp", "ai-approval"],
    &["ai", "gateway"],
    &["cli-errors", "serve"],
    &["cli-args", "cli-json", "cli-mcp", "cli-report", "cli-explain"],
    &["cli-eval"],
    &["cli"],
];

fn layer_of(layers: &[&[&str]], room: &str) -> Option<usize> {
    layers.iter().position(|rooms| rooms.contains(&room))
}

/// Rust code without its comments (line comments, doc comments), strings kept.
fn code_of(text: &str) -> String {
    text.lines().map(|line| line.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The rooms a Rust file's code names as `crate::<room>`.
fn rust_imports(text: &str) -> Vec<String> {
    let code = code_of(text);
    let mut rooms: Vec<String> = code
        .match_indices("crate::")
        .map(|(at, _)| code[at + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect())
        .filter(|room: &String| !room.is_empty())
        .collect();
    rooms.sort();
    rooms.dedup();
    rooms
}

/// The package files a JS file imports (`from "./x.js"`, `import("./x.js")`), as room names.
fn js_imports(text: &str) -> Vec<String> {
    let mut rooms: Vec<String> = Vec::new();
    for quote in ["\"./", "'./"] {
        for (at, _) in text.match_indices(quote) {
            let rest = &text[at + 3..];
            let Some(end) = rest.find(['"', '\'']) else { continue };
            let file = &rest[..end];
            if let Some(room) = file.strip_suffix(".js") {
                rooms.push(room.to_string());
            }
        }
    }
    rooms.sort();
    rooms.dedup();
    rooms
}

/// Every file's room and the rooms it imports.
fn rooms(dir: &Path, rust: bool) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut files: Vec<(String, std::path::PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if rust && path.is_dir() {
            for inner in std::fs::read_dir(&path).unwrap() {
                let inner = inner.unwrap().path();
                if inner.extension().is_some_and(|e| e == "rs") {
                    files.push((name.clone(), inner));
                } else if inner.is_dir() {
                    for deeper in std::fs::read_dir(&inner).unwrap() {
                        files.push((name.clone(), deeper.unwrap().path()));
                    }
                }
            }
        } else if rust && name.ends_with(".rs") && name != "lib.rs" {
            files.push((name.trim_end_matches(".rs").to_string(), path));
        } else if !rust && name.ends_with(".js") {
            files.push((name.trim_end_matches(".js").to_string(), path));
        }
    }
    for (room, path) in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let imports = if rust { rust_imports(&text) } else { js_imports(&text) };
        let entry = out.entry(room.clone()).or_default();
        entry.extend(imports.into_iter().filter(|r| *r != room));
        entry.sort();
        entry.dedup();
    }
    out
}

/// The table's rooms that are not in the tree (the table is the picture ARCHITECTURE.md draws);
/// `wasm/toolshelf`, the build's glue, is not committed.
fn stale_rooms(layers: &[&[&str]], found: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let rooms = layers.iter().flat_map(|layer| layer.iter());
    let stale = rooms.filter(|room| !room.contains('/') && !found.contains_key(**room));
    stale.map(|room| format!("{room}: in the layer table but not in the tree")).collect()
}

/// The imports that break the layering: of a room not in the table, of one not below.
fn breaches(layers: &[&[&str]], found: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let mut out = Vec::new();
    for (room, imports) in found {
        let Some(mine) = layer_of(layers, room) else {
            out.push(format!("{room}: not in the layer table (tests/layers.rs)"));
            continue;
        };
        for import in imports {
            match layer_of(layers, import) {
                Some(theirs) if theirs < mine => {}
                Some(_) => out.push(format!("{room} imports {import}, which is not below it")),
                None => out.push(format!("{room} imports {import}, which is not in the layer table")),
            }
        }
    }
    out
}

#[test]
fn core_modules_import_only_lower_layers() {
    let found = rooms(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), true);
    let broken = [breaches(CORE, &found), stale_rooms(CORE, &found)].concat();
    assert!(broken.is_empty(), "src/ layering:\n{}", broken.join("\n"));
}

#[test]
fn package_files_import_only_lower_layers() {
    let found = rooms(&Path::new(env!("CARGO_MANIFEST_DIR")).join("pkg-template"), false);
    let broken = [breaches(PACKAGE, &found), stale_rooms(PACKAGE, &found)].concat();
    assert!(broken.is_empty(), "pkg-template/ layering:\n{}", broken.join("\n"));
}

#[test]
fn the_check_sees_an_upward_import_and_a_circle() {
    let mut found = BTreeMap::new();
    found.insert("catalog".to_string(), vec!["shelf".to_string()]);
    found.insert("json".to_string(), vec!["float".to_string()]);
    assert_eq!(breaches(CORE, &found), ["catalog imports shelf, which is not below it"]);
    let mut circle = BTreeMap::new();
    circle.insert("find".to_string(), vec!["conversation".to_string()]);
    circle.insert("conversation".to_string(), vec!["find".to_string()]);
    assert_eq!(breaches(CORE, &circle).len(), 2, "rooms of one layer may not import each other");
    assert_eq!(
        js_imports(r#"import { x } from "./api.js"; const y = await import("./ai-shared.js");"#),
        ["ai-shared", "api"]
    );
    assert_eq!(
        rust_imports("use crate::json::Value; // crate::shelf\nlet x = crate::wire::made(a);"),
        ["json", "wire"]
    );
}
