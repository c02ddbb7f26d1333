//! The one loader of the test catalogs (`tests/data/catalogs/*.json.gz`) and the labelled query
//! sets, for every native test and example (`tests/common/mod.rs` and `tests/schema_support/`
//! build on it; the search tests and examples include it by `#[path]`).
#![allow(dead_code)] // each user needs a different part

use std::fs::File;
use std::io::Read;
use std::path::PathBuf;
use std::string::String;
use std::vec::Vec;

use toolshelf::json::{self, Value};
use toolshelf::search::DocFields;

/// One tool of a catalog, as the search indexes it.
#[derive(Clone, Debug)]
pub struct Tool {
    pub server: String,
    pub name: String,
    pub description: String,
    pub params: Vec<String>,
    pub param_descriptions: Vec<String>,
}

impl Tool {
    pub fn fields(&self) -> DocFields<'_> {
        DocFields {
            name: &self.name,
            own: &self.name,
            server: &self.server,
            description: &self.description,
            params: self.params.iter().map(|p| p.as_str().into()).collect(),
            param_descriptions: self.param_descriptions.iter().map(|d| d.as_str().into()).collect(),
            hints: Vec::new(),
        }
    }

    /// What is embedded for the tool (`toolshelf::embed::embedding_text_of`; no server words when
    /// the catalog gives none).
    pub fn embedding_text(&self) -> String {
        toolshelf::embed::embedding_text_of(
            Some(self.server.as_str()).filter(|s| !s.is_empty()),
            &self.name,
            &self.description,
        )
    }

    /// The key of [`Tool::embedding_text`] (`toolshelf::embed::embedding_key`).
    pub fn embedding_key(&self) -> String {
        toolshelf::embed::embedding_key(&self.embedding_text())
    }
}

/// A query and the tools that answer it. `relevant` holds `(server, name)`; a `None` server
/// accepts the name on any server.
#[derive(Clone, Debug)]
pub struct LabelledQuery {
    pub catalog: String,
    pub query: String,
    pub relevant: Vec<(Option<String>, String)>,
}

impl LabelledQuery {
    pub fn is_relevant(&self, tool: &Tool) -> bool {
        self.relevant
            .iter()
            .any(|(server, name)| *name == tool.name && server.as_ref().is_none_or(|s| *s == tool.server))
    }
}

pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("data")
}

/// The text of a gzip'd file.
fn read_gz_text(path: PathBuf) -> String {
    let file = File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    flate2::read::GzDecoder::new(file).read_to_string(&mut text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text
}

fn read_gz(path: PathBuf) -> Value {
    let text = read_gz_text(path.clone());
    json::parse(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()))
}

/// The text of `tests/data/catalogs/<name>.json.gz`.
pub fn catalog_text(name: &str) -> String {
    read_gz_text(data_dir().join("catalogs").join(format!("{name}.json.gz")))
}

/// The names (file stems) of every catalog of tools in `tests/data/catalogs/`, sorted (the
/// `queries-*` files hold query sets, not tools).
pub fn catalog_names() -> Vec<String> {
    let dir = data_dir().join("catalogs");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .filter_map(|name| name.strip_suffix(".json.gz").map(String::from))
        .filter(|name| !name.starts_with("queries-"))
        .collect();
    names.sort();
    names
}

/// The catalog `name` (file stem), or `rest-apis-flat-3400`, built by concatenation as the
/// shared file was: cloudflare-api-2024-08 + twilio-api + stripe-api-2022-04.
/// A name of the form `a+b+c` is the union of those catalogs, concatenated in that order.
pub fn load_catalog(name: &str) -> Vec<Tool> {
    if name.contains('+') {
        return name.split('+').flat_map(load_catalog).collect();
    }
    if name == "rest-apis-flat-3400" {
        return ["cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04"]
            .iter()
            .flat_map(|part| load_catalog(part))
            .collect();
    }
    let value = read_gz(data_dir().join("catalogs").join(format!("{name}.json.gz")));
    value.as_array().expect("a catalog is an array").iter().map(tool_of_entry).collect()
}

fn tool_of_entry(entry: &Value) -> Tool {
    let function = entry.get("tool").and_then(|t| t.get("function")).expect("tool.function");
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
    let properties =
        function.get("parameters").and_then(|p| p.get("properties")).and_then(Value::as_object).unwrap_or(&[]);
    let params = properties.iter().map(|(k, _)| k.clone()).collect();
    let mut param_descriptions: Vec<String> =
        properties.iter().filter_map(|(_, v)| v.get("description").and_then(Value::as_str).map(String::from)).collect();
    // A short enum of strings is indexed as the parameter's words, as the core reads it.
    for (_, v) in properties {
        let values = v.get("enum").and_then(Value::as_array).unwrap_or(&[]);
        if values.len() <= toolshelf::search::MAX_INDEXED_ENUM && values.iter().all(|x| x.as_str().is_some()) {
            param_descriptions.extend(values.iter().filter_map(Value::as_str).map(String::from));
        }
    }
    Tool {
        server: text(entry.get("server")),
        name: text(function.get("name")),
        description: text(function.get("description")),
        params,
        param_descriptions,
    }
}

/// `tests/data/queries-keyword.json`: our own keyword queries (any listed tool answers).
pub fn keyword_queries() -> Vec<LabelledQuery> {
    labelled_queries("queries-keyword.json")
}

/// `tests/data/queries-model.json`: requests phrased as models phrase them, in words that differ
/// from the tools' own (any listed tool answers).
pub fn model_queries() -> Vec<LabelledQuery> {
    labelled_queries("queries-model.json")
}

fn labelled_queries(file: &str) -> Vec<LabelledQuery> {
    read_json(data_dir().join(file))
        .as_array()
        .expect("an array")
        .iter()
        .map(|q| LabelledQuery {
            catalog: q.get("catalog").and_then(Value::as_str).expect("catalog").to_string(),
            query: q.get("query").and_then(Value::as_str).expect("query").to_string(),
            relevant: names_of(q.get("relevant")).into_iter().map(|n| server_and_name(&n)).collect(),
        })
        .collect()
}

/// `"server::name"` accepts the name on that server only; a plain `"name"` on any server.
fn server_and_name(label: &str) -> (Option<String>, String) {
    match label.split_once("::") {
        Some((server, name)) => (Some(server.to_string()), name.to_string()),
        None => (None, label.to_string()),
    }
}

/// A query for a service or capability its catalog lacks, and the query words that no tool holds.
#[derive(Clone, Debug)]
pub struct AbsentQuery {
    pub catalog: String,
    pub query: String,
    pub unknown: Vec<String>,
}

/// `tests/data/queries-absent.json`: queries for what the catalog lacks (SPEC §4, unknown words).
pub fn absent_queries() -> Vec<AbsentQuery> {
    read_json(data_dir().join("queries-absent.json"))
        .as_array()
        .expect("an array")
        .iter()
        .map(|q| AbsentQuery {
            catalog: q.get("catalog").and_then(Value::as_str).expect("catalog").to_string(),
            query: q.get("query").and_then(Value::as_str).expect("query").to_string(),
            unknown: names_of(q.get("unknown")),
        })
        .collect()
}

fn read_json(path: PathBuf) -> Value {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    json::parse(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()))
}

fn names_of(list: Option<&Value>) -> Vec<String> {
    list.and_then(Value::as_array).unwrap_or(&[]).iter().filter_map(Value::as_str).map(str::to_string).collect()
}

/// A shipped natural-language query set: `queries-<set>.json.gz` (`toolbench`, `bfcl`,
/// `metatool`), keeping only queries with ground truth.
pub fn shipped_queries(set: &str) -> Vec<LabelledQuery> {
    let value = read_gz(data_dir().join("catalogs").join(format!("queries-{set}.json.gz")));
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|q| LabelledQuery {
            catalog: q.get("catalog").and_then(Value::as_str).unwrap_or("").trim_end_matches(".json").to_string(),
            query: q.get("query").and_then(Value::as_str).unwrap_or("").to_string(),
            relevant: ground_truth(q),
        })
        .filter(|q| !q.relevant.is_empty())
        .collect()
}

/// `ground_truth: [{server, tool}]` (toolbench) or `ground_truth_tools: [name]` (bfcl, metatool).
fn ground_truth(q: &Value) -> Vec<(Option<String>, String)> {
    if let Some(list) = q.get("ground_truth").and_then(Value::as_array) {
        return list
            .iter()
            .filter_map(|g| {
                let server = g.get("server").and_then(Value::as_str)?;
                let tool = g.get("tool").and_then(Value::as_str)?;
                Some((Some(server.to_string()), tool.to_string()))
            })
            .collect();
    }
    names_of(q.get("ground_truth_tools")).into_iter().map(|n| (None, n)).collect()
}

/// Running sums of the three metrics (plus queries answered with nothing).
#[derive(Default, Clone, Copy)]
pub struct Metrics {
    pub queries: usize,
    pub recall_1: f64,
    pub recall_5: f64,
    pub rr: f64,
    pub empty: usize,
}

impl Metrics {
    pub fn add(&mut self, ranked: &[&Tool], query: &LabelledQuery, any_of: bool) {
        let relevant_in = |k: usize| ranked.iter().take(k).filter(|t| query.is_relevant(t)).count();
        let recall = |k: usize| {
            let found = relevant_in(k) as f64;
            if any_of {
                found.min(1.0)
            } else {
                found / query.relevant.len().max(1) as f64
            }
        };
        self.queries += 1;
        self.recall_1 += recall(1);
        self.recall_5 += recall(5);
        self.rr += ranked.iter().position(|t| query.is_relevant(t)).map_or(0.0, |i| 1.0 / (i + 1) as f64);
        self.empty += usize::from(ranked.is_empty());
    }

    pub fn row(&self, label: &str) -> String {
        let n = self.queries.max(1) as f64;
        format!(
            "| {label} | {} | {:.3} | {:.3} | {:.3} | {} |",
            self.queries,
            self.recall_1 / n,
            self.recall_5 / n,
            self.rr / n,
            self.empty
        )
    }
}
