// A scripted model server on 127.0.0.1 speaking OpenAI Chat Completions (/v1/chat/completions),
// OpenAI Responses (/v1/responses) and Anthropic Messages (/v1/messages), each with and without
// streaming (SSE in each provider's own event format). It replays a script: the reply to a request
// is step N of the script, N being the number of tool results the request carries (so one script
// drives a whole agent loop, whatever the client). Every request is recorded, normalized: the
// tools offered, the tool results the model was given, whether it streamed.
// Shared by tests/js/e2e.test.mjs and examples/worker (whose test starts it from Node).
import { createServer } from "node:http";

/** The tool results a request carries, as `{ id, content }` (content as text), per provider. */
function toolResults(provider, body) {
  const text = (c) => (typeof c === "string" ? c : Array.isArray(c) ? c.map((p) => p.text ?? JSON.stringify(p)).join("\n") : JSON.stringify(c));
  if (provider === "chat") {
    return (body.messages ?? []).filter((m) => m.role === "tool").map((m) => ({ id: m.tool_call_id, content: text(m.content) }));
  }
  if (provider === "responses") {
    const input = Array.isArray(body.input) ? body.input : [];
    return input.filter((i) => i.type === "function_call_output").map((i) => ({ id: i.call_id, content: text(i.output) }));
  }
  return (body.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b) => b.type === "tool_result").map((b) => ({ id: b.tool_use_id, content: text(b.content) }));
}

/** The tool names a request offers the model. */
function toolNames(provider, body) {
  return (body.tools ?? []).map((t) => (provider === "chat" ? t.function?.name : t.name));
}

const usage = { chat: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } };

/** One step as a non-streamed reply body. */
function replyBody(provider, step, n, model) {
  const id = `call_${n}`;
  const args = JSON.stringify(step.arguments ?? {});
  if (provider === "chat") {
    const message = step.tool
      ? { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: step.tool, arguments: args } }] }
      : { role: "assistant", content: step.text };
    return { id: `chatcmpl_${n}`, object: "chat.completion", created: 1, model, choices: [{ index: 0, message, finish_reason: step.tool ? "tool_calls" : "stop" }], usage: usage.chat };
  }
  if (provider === "responses") {
    const item = step.tool
      ? { type: "function_call", id: `fc_${n}`, call_id: id, name: step.tool, arguments: args, status: "completed" }
      : { type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: step.text, annotations: [] }] };
    return responseObject(n, model, [item], "completed");
  }
  const block = step.tool ? { type: "tool_use", id: `toolu_${n}`, name: step.tool, input: step.arguments ?? {} } : { type: "text", text: step.text };
  return { id: `msg_${n}`, type: "message", role: "assistant", model, content: [block], stop_reason: step.tool ? "tool_use" : "end_turn", stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } };
}

function responseObject(n, model, output, status) {
  return { id: `resp_${n}`, object: "response", created_at: 1, status, model, output, error: null, incomplete_details: null,
    usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } } };
}

/** One step as SSE events `[event name or null, data]`, in the provider's streaming format. */
function streamEvents(provider, step, n, model) {
  const id = `call_${n}`;
  const args = JSON.stringify(step.arguments ?? {});
  const half = Math.floor(args.length / 2); // arguments arrive in two deltas, as real servers split them
  if (provider === "chat") {
    const chunk = (delta, finish = null, extra = {}) => [null, { id: `chatcmpl_${n}`, object: "chat.completion.chunk", created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra }];
    const body = step.tool
      ? [chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id, type: "function", function: { name: step.tool, arguments: "" } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, half) } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] })]
      : [chunk({ role: "assistant", content: "" }), chunk({ content: step.text })];
    return [...body, chunk({}, step.tool ? "tool_calls" : "stop"), [null, { id: `chatcmpl_${n}`, object: "chat.completion.chunk", created: 1, model, choices: [], usage: usage.chat }], [null, "[DONE]"]];
  }
  if (provider === "responses") {
    const done = replyBody("responses", step, n, model).output[0];
    const started = step.tool ? { ...done, arguments: "", status: "in_progress" } : { ...done, content: [], status: "in_progress" };
    const events = [["response.created", { type: "response.created", response: responseObject(n, model, [], "in_progress") }],
      ["response.output_item.added", { type: "response.output_item.added", output_index: 0, item: started }]];
    if (step.tool) {
      for (const delta of [args.slice(0, half), args.slice(half)]) {
        events.push(["response.function_call_arguments.delta", { type: "response.function_call_arguments.delta", item_id: done.id, output_index: 0, delta }]);
      }
      events.push(["response.function_call_arguments.done", { type: "response.function_call_arguments.done", item_id: done.id, output_index: 0, arguments: args }]);
    } else {
      const part = { type: "output_text", text: "", annotations: [] };
      events.push(["response.content_part.added", { type: "response.content_part.added", item_id: done.id, output_index: 0, content_index: 0, part }],
        ["response.output_text.delta", { type: "response.output_text.delta", item_id: done.id, output_index: 0, content_index: 0, delta: step.text, logprobs: [] }],
        ["response.output_text.done", { type: "response.output_text.done", item_id: done.id, output_index: 0, content_index: 0, text: step.text, logprobs: [] }],
        ["response.content_part.done", { type: "response.content_part.done", item_id: done.id, output_index: 0, content_index: 0, part: { ...part, text: step.text } }]);
    }
    events.push(["response.output_item.done", { type: "response.output_item.done", output_index: 0, item: done }],
      ["response.completed", { type: "response.completed", response: responseObject(n, model, [done], "completed") }]);
    return events.map(([name, data], i) => [name, { ...data, sequence_number: i }]);
  }
  const message = { id: `msg_${n}`, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } };
  const block = step.tool ? { type: "tool_use", id: `toolu_${n}`, name: step.tool, input: {} } : { type: "text", text: "" };
  const deltas = step.tool
    ? [args.slice(0, half), args.slice(half)].map((partial_json) => ({ type: "input_json_delta", partial_json }))
    : [{ type: "text_delta", text: step.text }];
  return [["message_start", { type: "message_start", message }],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: block }],
    ...deltas.map((delta) => ["content_block_delta", { type: "content_block_delta", index: 0, delta }]),
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", { type: "message_delta", delta: { stop_reason: step.tool ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: 5 } }],
    ["message_stop", { type: "message_stop" }]];
}

const ROUTES = { "/v1/chat/completions": "chat", "/v1/responses": "responses", "/v1/messages": "anthropic" };

// ---------------------------------------------------------------------------------------------
// A scripted model calls tools by the names it was shown, as a model does: a step may be a
// function of `shown`, the tools the conversation has shown the model so far, in the order shown
// (`[{ name, namespace?, description }]`: the request's tools, then what each search answer gave
// it), and `pick(shown, text)` is the one tool among them whose description begins with `text`.

/** The step a script's entry gives for this request (a function's, of what was shown), or `{ error }`. */
function stepOf(entry, shownNow) {
  if (typeof entry !== "function") return entry;
  try {
    return entry(shownNow());
  } catch (error) {
    return { error: `the scripted model could not take its step: ${error?.message ?? error}` };
  }
}

/** The one tool of `shown` whose description begins with `text` (seen once or more); throws otherwise. */
export function pick(shown, text) {
  const found = new Map();
  for (const t of shown) if (typeof t.description === "string" && t.description.startsWith(text)) found.set(`${t.namespace ?? ""}\0${t.name}`, t);
  if (found.size !== 1) throw new Error(`${found.size} tools shown have a description beginning ${JSON.stringify(text)}: ${[...found.values()].map((t) => t.name).join(", ")}`);
  return [...found.values()][0];
}

/** A tool call step of the tool `pick(shown, text)` finds: its name (and Responses namespace) as shown. */
export const callShown = (text, args, extra = {}) => (shown) => {
  const t = pick(shown, text);
  return { tool: t.name, ...(t.namespace === undefined ? {} : { namespace: t.namespace }), arguments: args, ...extra };
};

/** The request's own tools as `{ name, description }`. */
function requestTools(provider, body) {
  return (body.tools ?? []).map((t) => (provider === "chat" ? t.function ?? {} : t)).filter((t) => typeof t.name === "string").map((t) => ({ name: t.name, description: t.description ?? "" }));
}

/** What a bridge conversation showed: the request's tools, then the matches of each search answer (JSON, one or batched). */
function bridgeShown(provider, body, results) {
  const shown = requestTools(provider, body);
  for (const { content } of results) {
    let answer;
    try {
      answer = JSON.parse(content);
    } catch {
      continue;
    }
    const groups = Array.isArray(answer?.results) ? answer.results : [answer];
    for (const group of groups) for (const m of Array.isArray(group?.matches) ? group.matches : []) if (typeof m?.name === "string") shown.push({ name: m.name, description: m.description ?? "" });
  }
  return shown;
}

/**
 * Starts the server on 127.0.0.1 (a free port). `script`: steps `{ tool, arguments }` (a tool call)
 * or `{ text }` (the answer), or functions of what the model was shown giving one. Returns `{ url,
 * requests, close }`; `requests` grows per request.
 */
/**
 * The conversation the Worker examples' tests script (examples/worker, examples/agents): search,
 * describe, a call over the schema's maximum (rejected), the call corrected, the answer. `list` is
 * the name the model knows Linear's list_issues by.
 */
export function listIssuesScript(list) {
  return [
    { tool: "tool_search", arguments: { query: "linear list issues" } },
    { tool: "tool_describe", arguments: { name: list } },
    { tool: "tool_call", arguments: { name: list, arguments: { limit: 500, assignee: "me" } } }, // over the maximum, 250
    { tool: "tool_call", arguments: { name: list, arguments: { limit: 50, assignee: "me" } } },
    { text: "You have no open issues." },
  ];
}

export async function startModelServer(script) {
  const requests = [];
  const server = createServer(async (req, res) => {
    const provider = ROUTES[new URL(req.url, "http://x").pathname];
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if (!provider || req.method !== "POST") {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    const body = JSON.parse(raw);
    const results = toolResults(provider, body);
    const n = results.length;
    requests.push({ provider, stream: body.stream === true, tools: toolNames(provider, body), results, body });
    const step = script[n] && stepOf(script[n], () => bridgeShown(provider, body, results));
    if (!step || step.error) {
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { type: "invalid_request_error", message: step?.error ?? `the script has no step ${n}` } }));
      return;
    }
    const model = body.model ?? "scripted";
    if (body.stream !== true) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(replyBody(provider, step, n, model)));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const [event, data] of streamEvents(provider, step, n, model)) {
      res.write(`${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
    }
    res.end();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, requests, close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }) };
}

// ---------------------------------------------------------------------------------------------
// Native tool search (SPEC §11), as the providers document it, with their rules enforced as the
// provider's own 400 errors: Anthropic Messages with `defer_loading` tools loaded by
// `tool_reference` blocks, and OpenAI Responses with a client `tool_search` answered by
// `tool_search_output` items (conversations continued by `previous_response_id`). The scripted
// model sees only what the provider would show it: it can call a deferred tool only once loaded.

/** A provider's 400 error body. */
function invalid(provider, message) {
  return provider === "anthropic"
    ? { type: "error", error: { type: "invalid_request_error", message } }
    : { error: { message, type: "invalid_request_error", param: null, code: null } };
}

/** The pattern both providers require of a tool's, a function's and a namespace's name. */
const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Anthropic's rules for a request: its loaded tools, or the error. */
function anthropicState(body) {
  const tools = body.tools ?? [];
  for (const [i, t] of tools.entries()) {
    if (t.type === undefined || t.type === "custom") {
      if (typeof t.name !== "string" || !NAME_PATTERN.test(t.name)) return { error: `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'` };
    }
  }
  const repeated = tools.map((t) => t.name).find((name, i, all) => all.indexOf(name) !== i);
  if (repeated !== undefined) return { error: `tools: Tool names must be unique (${repeated}).` };
  const deferred = tools.filter((t) => t.defer_loading === true);
  if (tools.length > 0 && deferred.length === tools.length) return { error: "All tools have defer_loading set. At least one tool must not be deferred." };
  const cached = deferred.find((t) => t.cache_control != null);
  if (cached) return { error: `tools: the deferred tool ${cached.name} cannot have cache_control.` };
  const names = new Set(tools.map((t) => t.name));
  const blocks = (body.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : []));
  const references = blocks.filter((b) => b.type === "tool_result" && Array.isArray(b.content))
    .flatMap((b) => b.content).filter((b) => b.type === "tool_reference").map((b) => b.tool_name);
  const missing = references.find((name) => !names.has(name));
  if (missing) return { error: `Tool reference '${missing}' not found in available tools.` };
  const visible = new Set([...tools.filter((t) => t.defer_loading !== true).map((t) => t.name), ...references]);
  const described = (name) => tools.find((t) => t.name === name)?.description ?? "";
  const shown = [...tools.filter((t) => t.defer_loading !== true), ...references.map((name) => ({ name, description: described(name) }))]
    .map((t) => ({ name: t.name, description: t.description ?? "" }));
  const paid = JSON.stringify(tools.filter((t) => t.defer_loading !== true));
  // Each user turn after the first (a user message with text of its own) moves the script on too.
  const turns = (body.messages ?? []).filter((m) => m.role === "user" && (typeof m.content === "string" || m.content.some((b) => b.type === "text"))).length;
  return { visible, shown, paid, loaded: [...new Set(references)], results: blocks.filter((b) => b.type === "tool_result").length + Math.max(0, turns - 1) };
}

/**
 * The names a list of Responses tools (a request's `tools`, a tool_search_output's) breaks: a
 * function or namespace outside the pattern, a name twice in one list. The error, or undefined.
 */
function responsesNames(tools, where) {
  const seen = new Set();
  for (const [i, t] of (tools ?? []).entries()) {
    if (t.type !== "function" && t.type !== "namespace") continue;
    if (typeof t.name !== "string" || !NAME_PATTERN.test(t.name)) {
      return `Invalid '${where}[${i}].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$' (at most 64 characters).`;
    }
    if (seen.has(t.name)) return `Invalid '${where}': duplicate tool name '${t.name}'.`;
    seen.add(t.name);
    if (t.type === "namespace") {
      const inner = responsesNames(t.tools, `${where}[${i}].tools`);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** Responses' rules for a conversation (its items in order): the callable functions, or the error. */
function responsesState(tools, items) {
  const invalid = responsesNames(tools, "tools");
  if (invalid) return { error: invalid };
  const visible = new Set(tools.filter((t) => t.type === "function").map((t) => t.name));
  const shown = tools.filter((t) => t.type === "function").map((t) => ({ name: t.name, description: t.description ?? "" }));
  const searchTool = tools.find((t) => t.type === "tool_search");
  const calls = new Set();
  let results = 0;
  let turns = 0;
  for (const item of items) {
    if (item.type === "tool_search_call" && item.execution === "client") calls.add(item.call_id);
    if (item.type === "tool_search_output") {
      if (!calls.has(item.call_id)) return { error: `No tool search call found for tool_search_output with call_id ${item.call_id}.` };
      const names = responsesNames(item.tools, `input[${items.indexOf(item)}].tools`);
      if (names) return { error: names };
      calls.delete(item.call_id);
      results += 1;
      for (const t of item.tools ?? []) {
        if (t.type === "namespace") {
          for (const f of t.tools ?? []) {
            visible.add(`${t.name}.${f.name}`);
            shown.push({ name: f.name, namespace: t.name, description: f.description ?? "" });
          }
        } else if (t.type === "function") {
          visible.add(t.name);
          shown.push({ name: t.name, description: t.description ?? "" });
        }
      }
    }
    if (item.type === "function_call_output") results += 1;
    if (item.role === "user" && turns++ > 0) results += 1; // each user turn after the first moves the script on too
  }
  if (calls.size > 0) return { error: `No tool output found for tool search call ${[...calls][0]}.` };
  return { visible, shown, results, searchTool, paid: JSON.stringify(tools) };
}

/** The scripted model's next Anthropic message, or the error when it names a tool it cannot see. */
function anthropicReply(step, n, model, state) {
  if (step.tool && !step.unchecked && !state.visible.has(step.tool)) return { error: `the model cannot call ${step.tool}: it was never loaded` };
  return { body: replyBody("anthropic", step, n, model) };
}

/** The scripted model's next Responses output item. */
function responsesReply(step, n, model, state) {
  if (step.search) {
    if (!state.searchTool || state.searchTool.execution !== "client") return { error: "the model has no client tool_search tool" };
    const item = { type: "tool_search_call", id: `tsc_${n}`, call_id: `call_${n}`, execution: "client", arguments: step.search, status: "completed" };
    return { item };
  }
  if (step.tool) {
    const key = step.namespace ? `${step.namespace}.${step.tool}` : step.tool;
    if (!step.unchecked && !state.visible.has(key)) return { error: `Function ${key} was never loaded: the model cannot call it.` };
    const item = { type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: step.tool, arguments: JSON.stringify(step.arguments ?? {}), status: "completed" };
    if (step.namespace) item.namespace = step.namespace;
    return { item };
  }
  return { item: { type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: step.text, annotations: [] }] } };
}

/**
 * Starts a native-protocol model server on 127.0.0.1. `script`: steps `{ tool, arguments,
 * namespace?, unchecked? }` (`unchecked`: a name the API lets through though the model was never
 * shown it, as a model's slip), `{ search: {query} }` (Responses: a `tool_search_call`) or
 * `{ text }`, or functions of what the model was shown (the tools it can call) giving one; step N answers a request whose conversation carries N tool results and N user turns
 * after the first (a user message following the model's answer starts the next turn). Returns `{ url, requests, close }`;
 * each request records `{ provider, tools, paid (the non-deferred tools' JSON), loaded, status }`.
 */
export async function startNativeModelServer(script) {
  const requests = [];
  const conversations = new Map(); // response id → the conversation's items (input and output)
  const stored = new Map(); // item id → an output item of a response stored (`store` not false)
  const server = createServer(async (req, res) => {
    const provider = ROUTES[new URL(req.url, "http://x").pathname];
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const send = (status, body) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if ((provider !== "anthropic" && provider !== "responses") || req.method !== "POST") return send(404, { error: { message: `no route ${req.url}` } });
    const body = JSON.parse(raw);
    const model = body.model ?? "scripted";
    const record = { provider, tools: body.tools ?? [], bytes: Buffer.byteLength(JSON.stringify(body.tools ?? [])), body };
    requests.push(record);
    const fail = (message) => { record.status = 400; record.error = message; send(400, invalid(provider, message)); };
    if (provider === "anthropic") {
      const state = anthropicState(body);
      if (state.error) return fail(state.error);
      Object.assign(record, { paid: state.paid, loaded: state.loaded });
      const step = script[state.results] && stepOf(script[state.results], () => state.shown);
      if (!step) return fail(`the script has no step ${state.results}`);
      if (step.error) return fail(step.error);
      const reply = anthropicReply(step, state.results, model, state);
      if (reply.error) return fail(reply.error);
      record.status = 200;
      if (body.stream !== true) return send(200, reply.body);
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const [event, data] of streamEvents("anthropic", step, state.results, model)) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      return res.end();
    }
    const given = typeof body.input === "string" ? [{ role: "user", content: body.input }] : body.input ?? [];
    const input = resolveReferences(given, stored);
    if (input.error) return fail(input.error);
    if (body.previous_response_id && !conversations.has(body.previous_response_id)) return fail(`Previous response ${body.previous_response_id} not found.`);
    const items = [...(conversations.get(body.previous_response_id) ?? []), ...input];
    const state = responsesState(record.tools, items);
    if (state.error) return fail(state.error);
    record.paid = state.paid;
    const step = script[state.results] && stepOf(script[state.results], () => state.shown);
    if (!step) return fail(`the script has no step ${state.results}`);
    if (step.error) return fail(step.error);
    const reply = responsesReply(step, state.results, model, state);
    if (reply.error) return fail(reply.error);
    const response = responseObject(state.results, model, [reply.item], "completed");
    response.id = `resp_${requests.length}`;
    conversations.set(response.id, [...items, reply.item]);
    if (body.store !== false) stored.set(reply.item.id, reply.item);
    record.status = 200;
    if (body.stream === true) return streamNative(res, response);
    send(200, response);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, requests, close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }) };
}

/**
 * Responses input with each `{ type: "item_reference", id }` replaced by the stored item it names
 * (an output item of an earlier response made with `store` not false, as the AI SDK sends them by
 * default), or `{ error }` as the API answers a reference to no stored item.
 */
function resolveReferences(input, stored) {
  const items = [];
  for (const item of input) {
    if (item?.type !== "item_reference") items.push(item);
    else if (stored.has(item.id)) items.push(stored.get(item.id));
    else return { error: `Item with id '${item.id}' not found.` };
  }
  return items;
}

/**
 * A native Responses reply as the API streams it (SSE): the response created, its one output item
 * added in progress (a function_call's arguments then in two deltas), done, and the response completed.
 */
function streamNative(res, response) {
  const [item] = response.output;
  const events = [["response.created", { response: { ...response, status: "in_progress", output: [] } }],
    ["response.output_item.added", { output_index: 0, item: { ...item, status: "in_progress", ...(item.type === "function_call" ? { arguments: "" } : {}), ...(item.type === "message" ? { content: [] } : {}) } }]];
  if (item.type === "function_call") {
    const half = Math.floor(item.arguments.length / 2);
    for (const delta of [item.arguments.slice(0, half), item.arguments.slice(half)]) events.push(["response.function_call_arguments.delta", { item_id: item.id, output_index: 0, delta }]);
    events.push(["response.function_call_arguments.done", { item_id: item.id, output_index: 0, arguments: item.arguments }]);
  } else if (item.type === "message") {
    const text = item.content[0].text;
    events.push(["response.content_part.added", { item_id: item.id, output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }],
      ["response.output_text.delta", { item_id: item.id, output_index: 0, content_index: 0, delta: text, logprobs: [] }],
      ["response.output_text.done", { item_id: item.id, output_index: 0, content_index: 0, text, logprobs: [] }],
      ["response.content_part.done", { item_id: item.id, output_index: 0, content_index: 0, part: item.content[0] }]);
  }
  events.push(["response.output_item.done", { output_index: 0, item }], ["response.completed", { response }]);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const [i, [type, data]] of events.entries()) res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data, sequence_number: i })}\n\n`);
  res.end();
}

// ---------------------------------------------------------------------------------------------
// OpenAI's embeddings endpoint (`POST /v1/embeddings`, the documented request and response), for
// semantic search (SPEC §12): each input text's vector is `vectorOf(text)` (the committed fixture
// vectors); a text it has none for is the API's 400. `fail: true` answers every request with a 500.

export async function startEmbeddingServer(vectorOf, { fail = false } = {}) {
  const requests = [];
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const send = (status, body) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.method !== "POST" || new URL(req.url, "http://x").pathname !== "/v1/embeddings") {
      return send(404, { error: { message: `no route ${req.method} ${req.url}`, type: "invalid_request_error" } });
    }
    const body = JSON.parse(raw);
    const input = Array.isArray(body.input) ? body.input : [body.input];
    requests.push({ model: body.model, input, encoding: body.encoding_format });
    if (fail) return send(500, { error: { message: "The server had an error while processing your request.", type: "server_error" } });
    const data = [];
    for (const [index, text] of input.entries()) {
      const vector = typeof text === "string" ? vectorOf(text) : undefined;
      if (!vector) return send(400, { error: { message: `no vector for input ${index}`, type: "invalid_request_error", param: "input" } });
      data.push({ object: "embedding", index, embedding: Array.from(vector) });
    }
    const tokens = input.reduce((n, t) => n + String(t).split(/\s+/).length, 0);
    send(200, { object: "list", data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, requests, close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }) };
}
