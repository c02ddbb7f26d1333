//! Test support shared by the native integration tests and examples: loads the real catalogs of
//! `tests/data/catalogs/` and builds toolboxes from them.
#![allow(dead_code)]

use toolshelf::json::{self, Value};

pub mod catalogs;
pub mod providers;

pub use catalogs::{catalog_text, data_dir};

/// `(server, tool def)` entries of a catalog; `rest-apis-flat-3400` is built from its three parts.
pub fn catalog(name: &str) -> Vec<(String, Value)> {
    if name == "rest-apis-flat-3400" {
        return ["cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04"]
            .iter()
            .flat_map(|n| catalog(n))
            .collect();
    }
    let Value::Array(entries) = json::parse(&catalog_text(name)).unwrap() else { panic!("{name}: not an array") };
    entries
        .into_iter()
        .map(|e| (e.get("server").and_then(Value::as_str).unwrap().to_string(), e.get("tool").unwrap().clone()))
        .collect()
}

/// A grouped toolbox `{"servers": {...}}` holding the catalogs named, servers in first-seen order.
pub fn grouped(names: &[&str]) -> Value {
    grouped_with(vec![], names)
}

/// A grouped toolbox with `direct` tools and the catalogs named as servers.
pub fn grouped_with(direct: Vec<Value>, names: &[&str]) -> Value {
    let mut servers: Vec<(String, Value)> = Vec::new();
    for name in names {
        for (server, tool) in catalog(name) {
            match servers.iter_mut().find(|(s, _)| *s == server) {
                Some((_, Value::Array(list))) => list.push(tool),
                _ => servers.push((server, Value::Array(vec![tool]))),
            }
        }
    }
    let mut members = vec![];
    if !direct.is_empty() {
        members.push(("tools".to_string(), Value::Array(direct)));
    }
    members.push(("servers".to_string(), Value::Object(servers)));
    Value::Object(members)
}

/// A small OpenAI-format tool def.
pub fn openai_tool(name: &str, description: &str) -> Value {
    json::parse(&format!(
        r#"{{"type":"function","function":{{"name":"{name}","description":"{description}","parameters":{{"type":"object","properties":{{"path":{{"type":"string"}}}},"required":["path"]}}}}}}"#
    ))
    .unwrap()
}

/// Options from JSON text.
pub fn options(text: &str) -> Value {
    json::parse(text).unwrap()
}

/// The `name` of an OpenAI-format tool def.
pub fn openai_name(tool: &Value) -> &str {
    tool.get("function").and_then(|f| f.get("name")).and_then(Value::as_str).unwrap()
}

/// One case of `tests/data/assemble-cases.json`.
pub struct AssembleCase {
    pub name: String,
    pub catalogs: Vec<&'static str>,
    pub options: Value,
    pub tier: u8,
    pub form: String,
    pub levels: Vec<(String, String)>,
}

/// The assemble cases shared by the Rust and JS tests.
pub fn assemble_cases() -> Vec<AssembleCase> {
    let text = std::fs::read_to_string(data_dir().join("assemble-cases.json")).unwrap();
    let Value::Array(cases) = json::parse(&text).unwrap() else { panic!("assemble-cases.json: not an array") };
    cases
        .iter()
        .map(|c| {
            let expect = c.get("expect").unwrap();
            let catalogs = c.get("catalogs").unwrap().as_array().unwrap();
            AssembleCase {
                name: c.get("name").unwrap().as_str().unwrap().to_string(),
                catalogs: catalogs.iter().map(|n| &*n.as_str().unwrap().to_string().leak()).collect(),
                options: c.get("options").unwrap().clone(),
                tier: expect.get("tier").unwrap().as_f64().unwrap() as u8,
                form: expect.get("form").unwrap().as_str().unwrap().to_string(),
                levels: expect
                    .get("levels")
                    .unwrap()
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
                    .collect(),
            }
        })
        .collect()
}
