//! What the providers accept, as validators of one request (tools array + history), written from the
//! providers' documentation and SDK types (cited per rule), never from toolshelf's own code (SPEC §14).
#![allow(dead_code)] // each test binary uses a different part

use std::collections::{HashMap, HashSet};

use toolshelf::json::Value;

/// Bytes one Anthropic request may have: "413 request_too_large: Request exceeds the maximum allowed
/// number of bytes. The maximum request size is 32 MB for standard API endpoints." (Anthropic API
/// docs, "Errors"; platform.claude.com/docs/en/api/errors).
pub const ANTHROPIC_MAX_REQUEST_BYTES: usize = 32 * 1024 * 1024;

/// "Maximum tools: 10,000 tools in your catalog" (Anthropic tool search docs, "Limits";
/// platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool).
pub const ANTHROPIC_MAX_TOOLS: usize = 10_000;

/// "There is a limit of 100,000 messages in a single request." (`@anthropic-ai/sdk`,
/// src/resources/messages/messages.ts, `MessageCreateParams.messages`).
pub const ANTHROPIC_MAX_MESSAGES: usize = 100_000;

/// The block types a `tool_result.content` array may hold: `@anthropic-ai/sdk`'s
/// `ToolResultBlockParam.content?: string | Array<TextBlockParam | ImageBlockParam |
/// SearchResultBlockParam | DocumentBlockParam | ToolReferenceBlockParam | ...>` (messages.ts; the
/// newest SDK adds `BrowserStateBlockParam` for the browser toolset, which no request here uses).
pub const TOOL_RESULT_BLOCKS: [&str; 5] = ["text", "image", "search_result", "document", "tool_reference"];

fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// `^[a-zA-Z0-9_-]{1,64}$`: an Anthropic custom tool's `name` ("Must match the regex
/// ^[a-zA-Z0-9_-]{1,64}$", Anthropic "Define tools" parameter table).
pub fn anthropic_name_ok(name: &str) -> bool {
    (1..=64).contains(&name.len()) && name.chars().all(name_char)
}

/// An OpenAI function name: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a
/// maximum length of 64" (openai-node src/resources/shared.ts `FunctionDefinition.name`; codex's
/// mcp_connection_manager.rs: "The Responses API requires tool names to match `^[a-zA-Z0-9_-]+$`",
/// `MAX_TOOL_NAME_LENGTH: usize = 64`).
pub fn function_name_ok(name: &str) -> bool {
    (1..=64).contains(&name.len()) && name.chars().all(name_char)
}

/// A namespace's name. The API reference documents it only as a string ("The namespace name used
/// in tool calls (for example, `crm`)", openai-node responses.ts `NamespaceTool.name`); OpenAI's own
/// client (openai/codex, `sanitize_responses_api_tool_name` + `MAX_TOOL_NAME_LENGTH`) sends only
/// the function-name character set within 64, so we hold namespaces to that: `^[a-zA-Z0-9_-]{1,64}$`.
pub fn namespace_name_ok(name: &str) -> bool {
    function_name_ok(name)
}

/// A function inside a namespace of a `tool_search_output`: the function-name character set, at
/// most 128 characters (PROVIDER-RULES.md: API reference `ToolSearchOutput` namespace tools).
pub fn namespaced_function_name_ok(name: &str) -> bool {
    (1..=128).contains(&name.len()) && name.chars().all(name_char)
}

fn text<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}

fn kind(value: &Value) -> Option<&str> {
    text(value, "type")
}

/// An upper bound on the JSON bytes of `value`, walked without recursion (a history may nest
/// thousands of levels): strings counted with every byte escaped at most 6 times, plus punctuation.
pub fn json_bytes_at_most(value: &Value) -> usize {
    let mut total = 0usize;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        total += match v {
            Value::Null | Value::Bool(_) => 5,
            Value::Number(n) => n.len(),
            Value::String(s) => 2 + 6 * s.len(),
            Value::Array(items) => {
                stack.extend(items.iter());
                2 + items.len()
            }
            Value::Object(members) => {
                stack.extend(members.iter().map(|(_, v)| v));
                2 + members.iter().map(|(k, _)| 4 + 6 * k.len()).sum::<usize>()
            }
        };
    }
    total
}

/// One Anthropic Messages request (`tools`, `messages`) against the documented rules. The history
/// is read only where the rules look (message content blocks, `tool_result` content): a deep
/// `tool_use.input` is never walked.
pub fn anthropic_request(tools: &Value, messages: &Value) -> Result<(), String> {
    let tools = tools.as_array().ok_or("tools: not an array")?;
    let messages = messages.as_array().ok_or("messages: not an array")?;
    // "Maximum tools: 10,000 tools in your catalog" (tool search docs, Limits).
    if tools.len() > ANTHROPIC_MAX_TOOLS {
        return Err(format!("{} tools: over the limit of {ANTHROPIC_MAX_TOOLS}", tools.len()));
    }
    // "There is a limit of 100,000 messages in a single request." (SDK messages.ts).
    if messages.len() > ANTHROPIC_MAX_MESSAGES {
        return Err(format!("{} messages: over the limit of {ANTHROPIC_MAX_MESSAGES}", messages.len()));
    }
    let mut defined: HashMap<&str, &Value> = HashMap::new();
    let (mut deferred, mut loaded, mut examples) = (0usize, 0usize, None);
    for (i, tool) in tools.iter().enumerate() {
        let name = text(tool, "name").ok_or(format!("tools[{i}]: no name"))?;
        // A custom tool has no `type` (or `"custom"`); server tools (`tool_search_tool_bm25_20251119`,
        // `web_search_20250305`, ...) have fixed names of their own.
        let custom = matches!(kind(tool), None | Some("custom"));
        if custom {
            // "name: The name of the tool. Must match the regex ^[a-zA-Z0-9_-]{1,64}$." (Define tools).
            if !anthropic_name_ok(name) {
                return Err(format!(
                    "tools.{i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{{1,64}}$': {name:?}"
                ));
            }
            // "input_schema: JSON schema for the tool input" (SDK `Tool.input_schema`, required).
            if !tool.get("input_schema").is_some_and(Value::is_object) {
                return Err(format!("tools.{i}.custom.input_schema: Field required ({name})"));
            }
        }
        // API 400 "Tool names must be unique." (PROVIDER-RULES.md).
        if defined.insert(name, tool).is_some() {
            return Err(format!("tools: Tool names must be unique ({name})"));
        }
        if tool.get("defer_loading") == Some(&Value::Bool(true)) {
            deferred += 1;
            // SPEC §11; users' 400 reports for `defer_loading` with `cache_control` (PROVIDER-RULES.md).
            if tool.get("cache_control").is_some() {
                return Err(format!("tools.{i}: deferred tool {name} carries cache_control"));
            }
        } else {
            loaded += 1;
        }
        if tool.get("input_examples").is_some() {
            examples = Some(name);
        }
    }
    // "All tools have defer_loading set. At least one tool must be non-deferred." (tool search docs,
    // Error handling, HTTP errors (400 status)).
    if !tools.is_empty() && loaded == 0 {
        return Err("All tools have defer_loading set. At least one tool must be non-deferred.".into());
    }
    // "The tool search tool is not compatible with tool use examples." (tool search docs, Error
    // handling): deferred tools and `input_examples` never in one request.
    if let (true, Some(name)) = (deferred > 0, examples) {
        return Err(format!("tool {name} has input_examples in a request with deferred tools"));
    }
    // "Every tool referenced must have a corresponding tool definition in the top-level tools
    // parameter with defer_loading: true" (tool search docs, Custom tool search implementation);
    // "Tool reference 'unknown_tool' has no corresponding tool definition" (Error handling).
    let reference = |block: &Value, at: &str| -> Result<(), String> {
        let name = text(block, "tool_name").ok_or(format!("{at}: tool_reference without a string tool_name"))?;
        match defined.get(name) {
            None => Err(format!("{at}: Tool reference '{name}' has no corresponding tool definition")),
            Some(def) if def.get("defer_loading") != Some(&Value::Bool(true)) => {
                Err(format!("{at}: tool_reference '{name}' names a tool without defer_loading: true"))
            }
            Some(_) => Ok(()),
        }
    };

    // Turns: "Consecutive user or assistant turns in your request will be combined into a single
    // turn." (SDK messages.ts, `messages`).
    let mut turns: Vec<(&str, Vec<&Value>)> = Vec::new();
    // "Using a string for content is shorthand for an array of one content block of type "text"".
    let text_block = Value::object([("type", Value::str("text"))]);
    for (m, message) in messages.iter().enumerate() {
        let at = format!("messages[{m}]");
        let role = text(message, "role").ok_or(format!("{at}: no role"))?;
        // "there is no "system" role for input messages in the Messages API" (SDK messages.ts).
        if role != "user" && role != "assistant" {
            return Err(format!("{at}: role {role:?} is neither user nor assistant"));
        }
        // "Each input message content may be either a single string or an array of content blocks,
        // where each block has a specific type." (SDK messages.ts).
        let blocks: Vec<&Value> = match message.get("content") {
            Some(Value::String(_)) => vec![&text_block],
            Some(Value::Array(blocks)) => blocks.iter().collect(),
            _ => return Err(format!("{at}: content is neither a string nor an array of blocks")),
        };
        for (b, block) in blocks.iter().enumerate() {
            let at = format!("{at}.content[{b}]");
            let block_type = kind(block).ok_or(format!("{at}: block without a type"))?;
            match block_type {
                "tool_reference" => reference(block, &at)?,
                // The hosted tool search's own results: `tool_search_tool_result.content:
                // {type: "tool_search_tool_search_result", tool_references: [{type: "tool_reference",
                // tool_name}]}` (`@anthropic-ai/sdk` `ToolSearchToolResultBlockParam`); their
                // references need a definition too ("Tool reference '…' not found in available
                // tools", tool search docs; PROVIDER-RULES.md).
                "tool_search_tool_result" => {
                    let found = block.get("content").and_then(|c| c.get("tool_references"));
                    for (r, item) in found.and_then(Value::as_array).unwrap_or(&[]).iter().enumerate() {
                        reference(item, &format!("{at}.content.tool_references[{r}]"))?;
                    }
                }
                "tool_use" => {
                    // "tool_use ... id, name, input: An object containing the input" (Handle tool calls).
                    if role != "assistant" {
                        return Err(format!("{at}: tool_use in a {role} message"));
                    }
                    if text(block, "id").is_none() || text(block, "name").is_none() {
                        return Err(format!("{at}: tool_use without id or name"));
                    }
                    if !block.get("input").is_some_and(Value::is_object) {
                        return Err(format!("{at}: tool_use input is not an object"));
                    }
                }
                "tool_result" => {
                    if role != "user" {
                        return Err(format!("{at}: tool_result in a {role} message"));
                    }
                    if text(block, "tool_use_id").is_none() {
                        return Err(format!("{at}: tool_result without a string tool_use_id"));
                    }
                    // `ToolResultBlockParam.content?: string | Array<...>` (SDK messages.ts).
                    match block.get("content") {
                        None | Some(Value::String(_)) => {}
                        Some(Value::Array(inner)) => {
                            for (c, item) in inner.iter().enumerate() {
                                let at = format!("{at}.content[{c}]");
                                match kind(item) {
                                    Some("tool_reference") => reference(item, &at)?,
                                    Some(t) if TOOL_RESULT_BLOCKS.contains(&t) => {}
                                    other => {
                                        return Err(format!("{at}: block type {other:?} not allowed in tool_result"))
                                    }
                                }
                            }
                        }
                        Some(other) => return Err(format!("{at}: tool_result content is {}", other.kind())),
                    }
                }
                _ => {}
            }
        }
        match turns.last_mut() {
            Some((last, merged)) if *last == role => merged.extend(blocks),
            _ => turns.push((role, blocks)),
        }
    }
    // "Tool result blocks must immediately follow their corresponding tool use blocks in the message
    // history. You cannot include any messages between the assistant's tool use message and the
    // user's tool result message." / "In the user message containing tool results, the tool_result
    // blocks must come FIRST in the content array." (Handle tool calls, formatting requirements);
    // API 400s "tool_use ids were found without tool_result blocks immediately after" and
    // "unexpected `tool_use_id` found in `tool_result` blocks".
    for (t, (role, blocks)) in turns.iter().enumerate() {
        let uses: Vec<&str> = if *role == "assistant" {
            blocks.iter().filter(|b| kind(b) == Some("tool_use")).filter_map(|b| text(b, "id")).collect()
        } else {
            Vec::new()
        };
        if *role == "user" {
            let asked: HashSet<&str> = match t.checked_sub(1).and_then(|p| turns.get(p)) {
                Some(("assistant", previous)) => {
                    previous.iter().filter(|b| kind(b) == Some("tool_use")).filter_map(|b| text(b, "id")).collect()
                }
                _ => HashSet::new(),
            };
            let mut leading = true;
            for block in blocks {
                let is_result = kind(block) == Some("tool_result");
                if is_result && !leading {
                    return Err(format!(
                        "turn {t}: a tool_result after other content (tool_result blocks must come FIRST)"
                    ));
                }
                leading &= is_result;
                if let Some(id) = is_result.then(|| text(block, "tool_use_id")).flatten() {
                    if !asked.contains(id) {
                        return Err(format!("turn {t}: unexpected `tool_use_id` found in `tool_result` blocks: {id}"));
                    }
                }
            }
        }
        if uses.is_empty() {
            continue;
        }
        let answered: HashSet<&str> = match turns.get(t + 1) {
            Some(("user", next)) => {
                next.iter().filter(|b| kind(b) == Some("tool_result")).filter_map(|b| text(b, "tool_use_id")).collect()
            }
            _ => HashSet::new(),
        };
        if let Some(missing) = uses.iter().find(|id| !answered.contains(*id)) {
            return Err(format!(
                "turn {t}: tool_use ids were found without tool_result blocks immediately after: {missing}"
            ));
        }
    }
    let bytes = tools.iter().chain(messages).map(json_bytes_at_most).sum::<usize>();
    if bytes > ANTHROPIC_MAX_REQUEST_BYTES {
        return Err(format!("request of up to {bytes} bytes: over 32 MB (413 request_too_large)"));
    }
    Ok(())
}

/// The function tools of one `tools` list of a namespace: names of the function character set
/// within `most`, none twice.
fn namespace_functions(space: &Value, at: &str, most: usize) -> Result<(), String> {
    let functions =
        space.get("tools").and_then(Value::as_array).ok_or(format!("{at}: namespace without a tools array"))?;
    let mut seen = HashSet::new();
    for (f, function) in functions.iter().enumerate() {
        let at = format!("{at}.tools[{f}]");
        // `NamespaceTool.tools: Array<NamespaceTool.Function | CustomTool>` (openai-node responses.ts).
        if !matches!(kind(function), Some("function") | Some("custom")) {
            return Err(format!("{at}: {:?} is not a function inside a namespace", kind(function)));
        }
        let name = text(function, "name").ok_or(format!("{at}: function without a name"))?;
        let ok = name.len() <= most && name.chars().all(name_char) && !name.is_empty();
        if !ok {
            return Err(format!("{at}: function name {name:?} is not ^[a-zA-Z0-9_-]{{1,{most}}}$"));
        }
        // Two functions of one name in one namespace: a call `namespace` + `name` could not tell them
        // apart (ResponseFunctionToolCall routes by `namespace` and `name`).
        if !seen.insert(name) {
            return Err(format!("{at}: function {name} twice in one namespace"));
        }
    }
    Ok(())
}

/// A namespace tool: `{"type": "namespace", "name", "description", "tools"}` (openai-node
/// responses.ts `NamespaceTool`, where `description: string` is required: "A description of the
/// namespace shown to the model").
fn namespace(space: &Value, at: &str, function_most: usize) -> Result<(), String> {
    let name = text(space, "name").ok_or(format!("{at}: namespace without a string name"))?;
    if !namespace_name_ok(name) {
        return Err(format!("{at}: namespace name {name:?} is not ^[a-zA-Z0-9_-]{{1,64}}$ (codex's rule)"));
    }
    if text(space, "description").is_none() {
        return Err(format!("{at}: namespace {name} without a description (required)"));
    }
    namespace_functions(space, at, function_most)
}

/// One OpenAI Responses request (`tools`, `input`) against the documented rules.
pub fn responses_request(tools: &Value, input: &Value) -> Result<(), String> {
    let tools = tools.as_array().ok_or("tools: not an array")?;
    let mut client_search = false;
    let mut any_search = false;
    let mut deferred = None;
    for (i, tool) in tools.iter().enumerate() {
        let at = format!("tools[{i}]");
        match kind(tool) {
            Some("function") => {
                let name = text(tool, "name").ok_or(format!("{at}: function without a name"))?;
                // "The Responses API requires tool names to match ^[a-zA-Z0-9_-]+$" within 64 (codex;
                // openai-node shared.ts `FunctionDefinition.name`).
                if !function_name_ok(name) {
                    return Err(format!(
                        "{at}.name: string does not match pattern '^[a-zA-Z0-9_-]+$' (<= 64): {name:?}"
                    ));
                }
                if tool.get("defer_loading") == Some(&Value::Bool(true)) {
                    deferred = Some(name.to_string());
                }
            }
            Some("namespace") => {
                namespace(tool, &at, 128)?;
                let mut functions = tool.get("tools").and_then(Value::as_array).into_iter().flatten();
                if let Some(f) = functions.find(|f| f.get("defer_loading") == Some(&Value::Bool(true))) {
                    deferred = text(f, "name").map(String::from);
                }
            }
            Some("tool_search") => {
                any_search = true;
                // `ToolSearchTool.execution?: 'server' | 'client'` (openai-node responses.ts).
                client_search |= text(tool, "execution") == Some("client");
            }
            _ => {}
        }
    }
    // "To activate tool search, you must do two things: 1. Add tool_search as a tool in your tools
    // array. 2. ... mark the ones you want to defer with defer_loading: true." (tools-tool-search guide).
    if let (Some(name), false) = (&deferred, any_search) {
        return Err(format!("deferred function {name} without a tool_search tool"));
    }
    let items: &[Value] = match input {
        Value::String(_) => &[],
        Value::Array(items) => items,
        _ => return Err("input: neither a string nor an array of items".into()),
    };
    // call_id -> answered?
    let mut calls: Vec<(String, &str, bool)> = Vec::new();
    for (n, item) in items.iter().enumerate() {
        let at = format!("input[{n}]");
        if !item.is_object() {
            return Err(format!("{at}: an item is {}", item.kind()));
        }
        match kind(item) {
            Some("function_call") => {
                // `ResponseFunctionToolCall`: call_id, name, `arguments: string` (JSON text).
                let id = text(item, "call_id").ok_or(format!("{at}: function_call without a call_id"))?;
                if text(item, "name").is_none() || text(item, "arguments").is_none() {
                    return Err(format!("{at}: function_call without a name or string arguments"));
                }
                if item.get("namespace").is_some_and(|n| n.as_str().is_none()) {
                    return Err(format!("{at}: function_call namespace is not a string"));
                }
                calls.push((id.to_string(), "function_call_output", false));
            }
            // "In client mode, execution is set to client and call_id is defined." (tools-tool-search guide).
            Some("tool_search_call") if text(item, "execution") == Some("client") => {
                let id = text(item, "call_id").ok_or(format!("{at}: client tool_search_call without a call_id"))?;
                // "Configure the tool_search tool with execution: "client"" (tools-tool-search guide).
                if !client_search {
                    return Err(format!("{at}: client tool_search_call without a client tool_search tool"));
                }
                calls.push((id.to_string(), "tool_search_output", false));
            }
            Some(output @ ("function_call_output" | "tool_search_output")) => {
                let id = text(item, "call_id");
                if output == "tool_search_output" {
                    // `ResponseToolSearchOutputItemParam.tools: Array<Tool>` (openai-node responses.ts).
                    let loaded =
                        item.get("tools").and_then(Value::as_array).ok_or(format!("{at}: tools is not an array"))?;
                    let mut spaces = HashSet::new();
                    for (t, tool) in loaded.iter().enumerate() {
                        let at = format!("{at}.tools[{t}]");
                        match kind(tool) {
                            Some("namespace") => {
                                namespace(tool, &at, 128)?;
                                if let Some(name) = text(tool, "name").filter(|n| !spaces.insert(*n)) {
                                    return Err(format!("{at}: namespace {name} twice in one tool_search_output"));
                                }
                            }
                            Some("function") => {
                                let name = text(tool, "name").unwrap_or_default();
                                if !function_name_ok(name) {
                                    return Err(format!("{at}: function name {name:?} is not ^[a-zA-Z0-9_-]{{1,64}}$"));
                                }
                            }
                            _ => {}
                        }
                    }
                    // "Echo the same call_id from the tool_search_call in your tool_search_output." (guide).
                    if text(item, "execution") != Some("client") {
                        continue;
                    }
                }
                let id = id.ok_or(format!("{at}: {output} without a call_id"))?;
                match calls.iter_mut().find(|(c, wanted, done)| c == id && *wanted == output && !*done) {
                    Some(call) => call.2 = true,
                    None => return Err(format!("{at}: No tool call found for {output} with call_id {id}")),
                }
            }
            _ => {}
        }
    }
    // Every call item needs its output item (API 400 for a call without output; the guide: "return
    // a matching tool_search_output").
    if let Some((id, wanted, _)) = calls.iter().find(|(_, _, done)| !done) {
        return Err(format!("No {wanted} found for call_id {id}"));
    }
    Ok(())
}
