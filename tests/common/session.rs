//! A simulated agent session in native and in bridge mode (SPEC §11, §14 "Cost is counted and
//! bounded"), shared by `examples/session_cost.rs` and `tests/session_cost.rs` (both include it by
//! `#[path]`, beside `tests/common/mod.rs` as `common`).
//!
//! An agent does the same tasks in each mode. A task is a labelled query of
//! `tests/data/queries-model.json` and the tool it needs. Per task the history (Anthropic
//! `messages`, Responses `input` items) gets the user's text, then:
//! - bridge: request, `tool_search {query}`, its answer; request, `tool_describe {name}`, its
//!   answer (skipped in the no-describe variant); request, `tool_call {name, arguments: {}}`, a
//!   fixed 200-byte result; request, the model's closing text;
//! - native: request, the search (`tool_use` of the search tool / a client `tool_search_call`), its
//!   answer (`tool_result` of content blocks / the `tool_search_output` item); when the tool needed
//!   was not loaded, one more search for its exact name (what a model does when the answer names
//!   it); request, the tool called by name (Anthropic `tool_use`; Responses `function_call` with
//!   the namespace the output put it in), the fixed result; request, the closing text.
//!
//! Each request is the assembly's `tools` array (`shelf.assemble_with` the history) plus the
//! history so far; a session's cost is the bytes of both as compact JSON summed over its requests,
//! and the context tokens (`contextTokens` plus the history's code points / 4).
//! The tool "needed": the first of the query's relevant tools that the search loaded (in its
//! order), else the first relevant tool of the catalog (the one searched for by name). Every call
//! is answered by `unwrap_with(call, history)` except the real tool's, whose result is the fake one.
#![allow(dead_code)]

use crate::common::catalogs::{model_queries, LabelledQuery};
use toolshelf::catalog::Tool;
use toolshelf::json::{self, Value};
use toolshelf::Shelf;

/// The catalogs the session cost is measured on.
pub const CATALOGS: [&str; 2] = ["rest-apis-flat-3400", "livemcptool-70servers"];

/// What the agent's real tool returns: a fixed 200-byte text.
pub fn fake_result() -> String {
    let text = format!("{{\"status\":\"ok\",\"rows\":3,\"note\":\"{}\"}}", "x".repeat(200));
    text[..200].to_string()
}

/// The two providers with native tool search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    Anthropic,
    Responses,
}

impl Provider {
    pub const ALL: [Provider; 2] = [Provider::Anthropic, Provider::Responses];

    /// The toolbox format.
    pub fn format(self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::Responses => "responses",
        }
    }

    /// The key of the history in `assemble_with` / `unwrap_with`'s context.
    fn history_key(self) -> &'static str {
        match self {
            Provider::Anthropic => "messages",
            Provider::Responses => "input",
        }
    }
}

/// The catalogs a test catalog name stands for (`rest-apis-flat-3400` is three; `a+b` two).
pub fn parts(catalog: &str) -> Vec<&str> {
    if catalog == "rest-apis-flat-3400" {
        return vec!["cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04"];
    }
    catalog.split('+').collect()
}

/// A catalog's tool (OpenAI Chat format) in `provider`'s format (as `tests/native.rs` does).
pub fn in_format(tool: &Value, provider: Provider) -> Value {
    let f = tool.get("function").unwrap();
    let name = f.get("name").unwrap().clone();
    let description = f.get("description").cloned().unwrap_or(Value::str(""));
    let schema = f.get("parameters").cloned().unwrap_or(json::parse(r#"{"type":"object"}"#).unwrap());
    match provider {
        Provider::Anthropic => Value::object([("name", name), ("description", description), ("input_schema", schema)]),
        Provider::Responses => Value::object([
            ("type", Value::str("function")),
            ("name", name),
            ("description", description),
            ("parameters", schema),
        ]),
    }
}

/// The toolbox of `catalog` in `provider`'s format: one direct tool `read_file`, then the
/// catalog's servers in first-seen order.
pub fn toolbox(catalog: &str, provider: Provider) -> Value {
    let mut servers: Vec<(String, Vec<Value>)> = Vec::new();
    for part in parts(catalog) {
        for (server, tool) in crate::common::catalog(part) {
            let def = in_format(&tool, provider);
            match servers.iter_mut().find(|(s, _)| *s == server) {
                Some((_, list)) => list.push(def),
                None => servers.push((server, vec![def])),
            }
        }
    }
    let direct = in_format(&crate::common::openai_tool("read_file", "Read a file."), provider);
    let servers = servers.into_iter().map(|(s, list)| (s, Value::Array(list)));
    Value::object([("tools", Value::Array(vec![direct])), ("servers", Value::Object(servers.collect()))])
}

/// Options `base` (a JSON object's text) with the members of `extra` (a JSON object) after them.
pub fn merged_options(base: &str, extra: &Value) -> Value {
    let Value::Object(mut members) = json::parse(base).unwrap() else { panic!("{base}: not an object") };
    if let Some(more) = extra.as_object() {
        for (key, value) in more {
            members.retain(|(k, _)| k != key);
            members.push((key.clone(), value.clone()));
        }
    }
    Value::Object(members)
}

/// One task: a model-phrased query and the tools that answer it.
#[derive(Clone, Debug)]
pub struct Task {
    pub query: String,
    pub labelled: LabelledQuery,
    /// The name (as the model knows it) of the first relevant tool the catalog holds.
    pub expected: String,
}

impl Task {
    /// Whether the catalog's tool answers the task.
    pub fn is_relevant(&self, tool: &Tool) -> bool {
        self.labelled.relevant.iter().any(|(server, name)| {
            *name == tool.own_name && server.as_ref().is_none_or(|s| Some(s.as_str()) == tool.server.as_deref())
        })
    }
}

/// The first `n` queries of `queries-model.json` set on `catalog` (or on some of its parts) whose
/// relevant tools the shelf holds, in the file's order.
pub fn tasks(shelf: &Shelf, catalog: &str, n: usize) -> Vec<Task> {
    let parts = parts(catalog);
    let mut tasks = Vec::new();
    for q in model_queries() {
        if tasks.len() == n {
            break;
        }
        if !q.catalog.split('+').all(|c| parts.contains(&c)) {
            continue;
        }
        let mut task = Task { query: q.query.clone(), labelled: q, expected: String::new() };
        let first = task.labelled.relevant.iter().find_map(|(server, name)| {
            shelf.catalog().tools.iter().filter(|t| t.deferred).find(|t| {
                t.own_name == *name && server.as_ref().is_none_or(|s| Some(s.as_str()) == t.server.as_deref())
            })
        });
        if let Some(tool) = first {
            task.expected = tool.name.clone();
            tasks.push(task);
        }
    }
    tasks
}

/// A tool a native search answer loaded: its name as the model calls it, and (Responses) the
/// namespace the output put it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub name: String,
    pub namespace: Option<String>,
}

impl Loaded {
    /// The catalog's tool it is.
    pub fn tool<'a>(&self, shelf: &'a Shelf) -> Option<&'a Tool> {
        match &self.namespace {
            None => shelf.catalog().get(&self.name),
            Some(space) => shelf
                .catalog()
                .tools
                .iter()
                .find(|t| t.deferred && t.server.as_deref() == Some(space.as_str()) && t.own_name == self.name),
        }
    }
}

/// The tools an unwrapped native search answer (`Unwrapped::to_value()`) loads: its
/// `tool_reference` blocks (Anthropic) or the functions of its item's namespaces (Responses).
pub fn loaded_by(answer: &Value) -> Vec<Loaded> {
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(String::from);
    if let Some(item) = answer.get("item") {
        let mut loaded = Vec::new();
        for entry in item.get("tools").and_then(Value::as_array).unwrap_or(&[]) {
            match text(entry, "type").as_deref() {
                Some("namespace") => {
                    for f in entry.get("tools").and_then(Value::as_array).unwrap_or(&[]) {
                        if let Some(name) = text(f, "name") {
                            loaded.push(Loaded { name, namespace: text(entry, "name") });
                        }
                    }
                }
                _ => {
                    if let Some(name) = text(entry, "name") {
                        loaded.push(Loaded { name, namespace: None });
                    }
                }
            }
        }
        return loaded;
    }
    let blocks = answer.get("content").and_then(Value::as_array).unwrap_or(&[]);
    blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_reference"))
        .filter_map(|b| text(b, "tool_name"))
        .map(|name| Loaded { name, namespace: None })
        .collect()
}

/// The native search call a model sends for `query`.
pub fn search_call(provider: Provider, id: &str, query: &str) -> Value {
    let arguments = Value::object([("query", Value::str(query))]);
    match provider {
        Provider::Anthropic => Value::object([
            ("type", Value::str("tool_use")),
            ("id", Value::str(id)),
            ("name", Value::str("tool_search")),
            ("input", arguments),
        ]),
        Provider::Responses => Value::object([
            ("type", Value::str("tool_search_call")),
            ("call_id", Value::str(id)),
            ("execution", Value::str("client")),
            ("arguments", arguments),
        ]),
    }
}

/// The tools one native search of `query` loads, on an empty conversation.
pub fn loads_of(shelf: &Shelf, provider: Provider, query: &str) -> Vec<Loaded> {
    let context = Value::object([(provider.history_key(), Value::Array(vec![]))]);
    let answer = shelf.unwrap_with(&search_call(provider, "call_x", query), &context).unwrap().to_value();
    loaded_by(&answer)
}

/// Per native search: what it loaded and how the next request's `contextTokens` moved.
#[derive(Clone, Debug)]
pub struct Growth {
    pub query: String,
    /// Tools the answer loaded.
    pub loaded: usize,
    /// Token estimates of the loaded tools not loaded before in the session.
    pub new_tokens: u64,
    /// `contextTokens` of the request after the answer minus that of the request before.
    pub grew: i64,
}

/// What one session cost.
#[derive(Clone, Debug, Default)]
pub struct Cost {
    pub requests: usize,
    /// Bytes of the tools array and the history (compact JSON), summed over the requests.
    pub bytes: u64,
    /// The tools arrays' share of `bytes`.
    pub tools_bytes: u64,
    /// `contextTokens` of each request's assembly plus the history's code points / 4, summed.
    pub context_tokens: u64,
    /// The largest request, in bytes.
    pub max_request: u64,
    /// Per search: tools loaded (native) or matches answered (bridge).
    pub searches: Vec<usize>,
    /// Extra searches for an exact name (native: the tool needed was not loaded).
    pub re_searches: usize,
    /// Tasks whose tool no search found (native: never loaded; bridge: not among the matches).
    pub misses: usize,
    /// Native only: per search, the loads and the growth of `contextTokens`.
    pub growth: Vec<Growth>,
    /// The session's whole history at its end.
    pub history: Vec<Value>,
}

/// A session in progress.
struct Session<'a> {
    shelf: &'a Shelf,
    provider: Provider,
    history: Vec<Value>,
    cost: Cost,
    next_id: usize,
}

impl<'a> Session<'a> {
    fn new(shelf: &'a Shelf, provider: Provider) -> Session<'a> {
        Session { shelf, provider, history: Vec::new(), cost: Cost::default(), next_id: 0 }
    }

    fn context(&self) -> Value {
        Value::object([(self.provider.history_key(), Value::Array(self.history.clone()))])
    }

    fn id(&mut self) -> String {
        self.next_id += 1;
        match self.provider {
            Provider::Anthropic => format!("toolu_{:04}", self.next_id),
            Provider::Responses => format!("call_{:04}", self.next_id),
        }
    }

    /// One request: the assembly for the history so far, and the history; returns the
    /// assembly's `contextTokens`.
    fn request(&mut self) -> u64 {
        let assembly = self.shelf.assemble_with(&self.context()).to_value();
        let tools = assembly.get("tools").unwrap().to_json();
        let history = Value::Array(self.history.clone()).to_json();
        let context = assembly.get("contextTokens").and_then(Value::as_f64).unwrap() as u64;
        let bytes = (tools.len() + history.len()) as u64;
        self.cost.requests += 1;
        self.cost.bytes += bytes;
        self.cost.tools_bytes += tools.len() as u64;
        self.cost.max_request = self.cost.max_request.max(bytes);
        self.cost.context_tokens += context + history.chars().count().div_ceil(4) as u64;
        context
    }

    fn user(&mut self, text: &str) {
        self.history.push(Value::object([("role", Value::str("user")), ("content", Value::str(text))]));
    }

    /// The model's closing text of a task.
    fn closing(&mut self) {
        let content = match self.provider {
            Provider::Anthropic => json::parse(r#"[{"type":"text","text":"Done."}]"#).unwrap(),
            Provider::Responses => Value::str("Done."),
        };
        self.history.push(Value::object([("role", Value::str("assistant")), ("content", content)]));
    }

    /// The model calls a function tool `name` (Responses: in `namespace`); the call is appended
    /// and returned as unwrap takes it.
    fn call(&mut self, name: &str, input: Value, namespace: Option<&str>) -> Value {
        let id = self.id();
        match self.provider {
            Provider::Anthropic => {
                let block = Value::object([
                    ("type", Value::str("tool_use")),
                    ("id", Value::str(id)),
                    ("name", Value::str(name)),
                    ("input", input),
                ]);
                self.push_assistant(block.clone());
                block
            }
            Provider::Responses => {
                let mut members = vec![("type", Value::str("function_call")), ("call_id", Value::str(id))];
                if let Some(space) = namespace {
                    members.push(("namespace", Value::str(space)));
                }
                members.push(("name", Value::str(name)));
                members.push(("arguments", Value::String(input.to_json())));
                let item = Value::object(members);
                self.history.push(item.clone());
                item
            }
        }
    }

    /// The model calls the native search tool.
    fn search(&mut self, query: &str) -> Value {
        let id = self.id();
        let call = search_call(self.provider, &id, query);
        match self.provider {
            Provider::Anthropic => self.push_assistant(call.clone()),
            Provider::Responses => self.history.push(call.clone()),
        }
        call
    }

    fn push_assistant(&mut self, block: Value) {
        self.history.push(Value::object([("role", Value::str("assistant")), ("content", Value::Array(vec![block]))]));
    }

    /// The result of the call `call_id`: text or (Anthropic) content blocks.
    fn result(&mut self, call_id: &str, content: Value) {
        match self.provider {
            Provider::Anthropic => {
                let block = Value::object([
                    ("type", Value::str("tool_result")),
                    ("tool_use_id", Value::str(call_id)),
                    ("content", content),
                ]);
                self.history
                    .push(Value::object([("role", Value::str("user")), ("content", Value::Array(vec![block]))]));
            }
            Provider::Responses => {
                let output = match content {
                    Value::String(text) => Value::String(text),
                    other => Value::String(other.to_json()),
                };
                self.history.push(Value::object([
                    ("type", Value::str("function_call_output")),
                    ("call_id", Value::str(call_id)),
                    ("output", output),
                ]));
            }
        }
    }

    /// `unwrap_with(call, history)`, its answer appended; returns the unwrapped value.
    fn answer(&mut self, call: &Value) -> Value {
        let id = call.get("id").or_else(|| call.get("call_id")).and_then(Value::as_str).unwrap().to_string();
        let got = self.shelf.unwrap_with(call, &self.context()).unwrap_or_else(|e| panic!("unwrap_with: {e}"));
        let value = got.to_value();
        if let Some(item) = value.get("item") {
            self.history.push(item.clone());
            if value.get("kind").and_then(Value::as_str) == Some("reject") {
                let note = value.get("content").cloned().unwrap_or(Value::str(""));
                self.history.push(Value::object([("role", Value::str("developer")), ("content", note)]));
            }
        } else {
            let content = value.get("content").cloned().unwrap_or(Value::str(""));
            self.result(&id, content);
        }
        value
    }

    /// The real tool runs: its fixed result is appended.
    fn run(&mut self, call: &Value) {
        let id = call.get("id").or_else(|| call.get("call_id")).and_then(Value::as_str).unwrap().to_string();
        self.result(&id, Value::String(fake_result()));
    }
}

/// The names of a bridge search answer's matches.
fn match_names(answer: &Value) -> Vec<String> {
    let content = answer.get("content").and_then(Value::as_str).unwrap_or("");
    let Ok(parsed) = json::parse(content) else { return vec![] };
    let matches = parsed.get("matches").and_then(Value::as_array).unwrap_or(&[]);
    matches.iter().filter_map(|m| m.get("name").and_then(Value::as_str)).map(String::from).collect()
}

/// A bridge session (the shelf in bridge mode) over `tasks`; `describe`: the model describes the
/// tool before calling it.
pub fn bridge_session(shelf: &Shelf, provider: Provider, tasks: &[Task], describe: bool) -> Cost {
    let mut s = Session::new(shelf, provider);
    for task in tasks {
        s.user(&task.query);
        s.request();
        let call = s.call("tool_search", Value::object([("query", Value::str(task.query.as_str()))]), None);
        let answer = s.answer(&call);
        let names = match_names(&answer);
        s.cost.searches.push(names.len());
        let found = names.iter().find(|n| shelf.catalog().get(n).is_some_and(|t| task.is_relevant(t)));
        let name = match found {
            Some(name) => name.clone(),
            None => {
                s.cost.misses += 1;
                task.expected.clone()
            }
        };
        s.request();
        if describe {
            let call = s.call("tool_describe", Value::object([("name", Value::str(name.as_str()))]), None);
            s.answer(&call);
            s.request();
        }
        let arguments = Value::object([("name", Value::str(name.as_str())), ("arguments", Value::object::<&str>([]))]);
        let call = s.call("tool_call", arguments, None);
        s.run(&call);
        s.request();
        s.closing();
    }
    s.cost.history = s.history;
    s.cost
}

/// A session on a shelf that sends every tool as it is (`directWhenFits`, tier 0) over `tasks`:
/// per task a request, the task's tool called by its name (unwrapped: it must route), the fixed
/// result; a request for the closing text.
pub fn direct_session(shelf: &Shelf, provider: Provider, tasks: &[Task]) -> Cost {
    let mut s = Session::new(shelf, provider);
    for task in tasks {
        s.user(&task.query);
        s.request();
        let call = s.call(&task.expected, Value::object::<&str>([]), None);
        let routed = shelf.unwrap_with(&call, &s.context()).map(|u| u.to_value());
        let kind = routed.as_ref().ok().and_then(|u| u.get("kind").and_then(Value::as_str).map(String::from));
        assert!(matches!(kind.as_deref(), Some("call" | "reject")), "{}: {routed:?}", task.expected);
        s.run(&call);
        s.request();
        s.closing();
    }
    s.cost.history = s.history;
    s.cost
}

/// A native session (the shelf in native mode) over `tasks`.
pub fn native_session(shelf: &Shelf, provider: Provider, tasks: &[Task]) -> Cost {
    let mut s = Session::new(shelf, provider);
    let mut loaded_so_far: Vec<String> = Vec::new();
    for task in tasks {
        s.user(&task.query);
        let mut before = s.request();
        let mut query = task.query.clone();
        let mut chosen: Option<Loaded> = None;
        for round in 0..2 {
            if round == 1 {
                s.cost.re_searches += 1;
                query = task.expected.clone();
            }
            let call = s.search(&query);
            let answer = s.answer(&call);
            let loaded = loaded_by(&answer);
            s.cost.searches.push(loaded.len());
            let mut new_tokens = 0;
            for l in &loaded {
                if let Some(tool) = l.tool(shelf) {
                    if !loaded_so_far.contains(&tool.name) {
                        loaded_so_far.push(tool.name.clone());
                        new_tokens += tool.tokens();
                    }
                }
            }
            let after = s.request();
            s.cost.growth.push(Growth {
                query: query.clone(),
                loaded: loaded.len(),
                new_tokens,
                grew: after as i64 - before as i64,
            });
            before = after;
            chosen = loaded.into_iter().find(|l| l.tool(shelf).is_some_and(|t| task.is_relevant(t)));
            if chosen.is_some() {
                break;
            }
        }
        let target = chosen.unwrap_or_else(|| {
            s.cost.misses += 1;
            let tool = shelf.catalog().get(&task.expected).unwrap();
            Loaded {
                name: match provider {
                    Provider::Anthropic => tool.name.clone(),
                    Provider::Responses => tool.own_name.clone(),
                },
                namespace: match provider {
                    Provider::Anthropic => None,
                    Provider::Responses => tool.server.clone(),
                },
            }
        });
        let call = s.call(&target.name, Value::object::<&str>([]), target.namespace.as_deref());
        s.run(&call);
        s.request();
        s.closing();
    }
    s.cost.history = s.history;
    s.cost
}

/// The shelves and tasks of one catalog and provider.
pub struct Bench {
    pub catalog: String,
    pub provider: Provider,
    pub bridge: Shelf,
    pub native: Shelf,
}

impl Bench {
    /// Shelves for `catalog` in `provider`'s format: bridge `{"mode":"bridge"}`, native
    /// `{"mode":"native"}` with the members of `native_options` (a JSON object) added.
    pub fn new(catalog: &str, provider: Provider, native_options: &Value) -> Bench {
        let toolbox = toolbox(catalog, provider);
        let bridge = Shelf::new(&toolbox, &json::parse(r#"{"mode":"bridge"}"#).unwrap()).unwrap();
        let native = Shelf::new(&toolbox, &merged_options(r#"{"mode":"native"}"#, native_options)).unwrap();
        Bench { catalog: catalog.to_string(), provider, bridge, native }
    }

    /// The three sessions over the first `n` tasks, and each task's exact-name search loads.
    pub fn run(&self, n: usize) -> Outcome {
        let tasks = tasks(&self.native, &self.catalog, n);
        let bridge = bridge_session(&self.bridge, self.provider, &tasks, true);
        let bridge_no_describe = bridge_session(&self.bridge, self.provider, &tasks, false);
        let native = native_session(&self.native, self.provider, &tasks);
        let exact = tasks
            .iter()
            .map(|t| {
                let loaded = loads_of(&self.native, self.provider, &t.expected);
                let names = loaded.iter().map(|l| l.tool(&self.native).map_or(l.name.clone(), |t| t.name.clone()));
                (t.expected.clone(), names.collect())
            })
            .collect();
        Outcome {
            catalog: self.catalog.clone(),
            provider: self.provider,
            tasks,
            bridge,
            bridge_no_describe,
            native,
            exact,
        }
    }
}

/// The costs of one catalog, provider and task count.
pub struct Outcome {
    pub catalog: String,
    pub provider: Provider,
    pub tasks: Vec<Task>,
    pub bridge: Cost,
    pub bridge_no_describe: Cost,
    pub native: Cost,
    /// Per task: its tool's name and what a native search of exactly that name loads (the
    /// catalog's names of the tools).
    pub exact: Vec<(String, Vec<String>)>,
}

impl Outcome {
    /// Native bytes over bridge (with describe) bytes.
    pub fn ratio(&self) -> f64 {
        self.native.bytes as f64 / self.bridge.bytes as f64
    }
}
