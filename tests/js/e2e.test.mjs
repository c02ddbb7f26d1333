// End to end with real parts, all on 127.0.0.1: a scripted model server (model-server.mjs) speaking
// OpenAI Chat, OpenAI Responses and Anthropic Messages, driven by the real `openai` and
// `@anthropic-ai/sdk` clients (the loops of docs/adapters.md) and by the AI SDK (`ai` with
// @ai-sdk/openai and @ai-sdk/anthropic, streamText and generateText) through toolshelf/ai; behind the
// deferred tools, real MCP servers (mcp-servers.mjs): the reference server-everything over stdio and
// an in-process SDK server serving the Unreal Engine catalog (1,079 tools, 11 tools/list pages),
// reached through toolshelf/mcp or @ai-sdk/mcp. In every run the model searches, describes, calls
// with wrong arguments, reads the reject, calls again correctly, calls a catalog tool, and answers;
// the test checks what reached the model, what reached each MCP server, and what the hooks saw.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { generateText, jsonSchema, stepCountIs, streamText, tool, toolSearch } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createMCPClient } from "@ai-sdk/mcp";
import { Shelf } from "toolshelf";
import { callMcpTool, mcpServers } from "toolshelf/mcp";
import { createToolshelf, toolshelfSearch } from "toolshelf/ai";
import { pick, startModelServer } from "./model-server.mjs";
import { catalogServer, everythingServer, shownNames } from "./mcp-servers.mjs";

const UNREAL = "unreal-engine";
const BUILD = { name: "manage_pipeline__run_ubt", arguments: { target: "MyProjectEditor", platform: "Linux" } };
const ANSWER = "2 + 3 = 5, and the editor build is running.";
// The scripted model takes each tool's name from the search answers it was given (by the tool's
// description: get-sum's and run_ubt's), as a model does.
const SUM = "Returns the sum of two numbers";
const UBT = "compile with UnrealBuildTool";
const SCRIPT = [
  { tool: "tool_search", arguments: { query: "sum of two numbers" } },
  (shown) => ({ tool: "tool_describe", arguments: { name: pick(shown, SUM).name } }),
  (shown) => ({ tool: "tool_call", arguments: { name: pick(shown, SUM).name, arguments: { a: 2 } } }), // b is missing: rejected
  (shown) => ({ tool: "tool_call", arguments: { name: pick(shown, SUM).name, arguments: { a: 2, b: 3 } } }),
  { tool: "tool_search", arguments: { query: "compile the editor with UnrealBuildTool" } },
  (shown) => ({ tool: "tool_call", arguments: { name: pick(shown, UBT).name, arguments: BUILD.arguments } }),
  { text: ANSWER },
];
const PROMPT = "Add 2 and 3, then build MyProjectEditor for Linux.";
const OPTIONS = { contextLength: 200_000 };

let everything, unreal, mcpClients;
// The names the model is shown for get-sum and run_ubt (SPEC §16), as the package gives them.
const shownAs = {};
before(async () => {
  everything = everythingServer();
  unreal = catalogServer("unreal-mcp-actions-exploded", { serverName: UNREAL, pageSize: 100 });
  mcpClients = { everything: await everything.client(), [UNREAL]: await unreal.client() };
  Object.assign(shownAs, shownNames(Shelf, (await mcpServers(mcpClients)).servers, [["everything", "get-sum"], [UNREAL, BUILD.name]]));
});
after(async () => {
  await Promise.all(Object.values(mcpClients).map((c) => c.close()));
  await everything.close();
  await unreal.close();
});

/** A direct tool in each format (never called: it shows that direct tools pass through). */
const readFile = {
  openai: { type: "function", function: { name: "read_file", description: "Read a file.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } } },
  responses: { type: "function", name: "read_file", description: "Read a file.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] }, strict: false },
  anthropic: { name: "read_file", description: "Read a file.", input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
};

/** Runs `loop(modelUrl, hooks)` against a fresh model server; checks everything; returns the requests. */
async function converse(loop) {
  everything.calls.length = 0;
  unreal.calls.length = 0;
  const model = await startModelServer(SCRIPT);
  const hooks = [];
  try {
    const answer = await loop(model.url, hooks);
    checkConversation(model.requests, answer, hooks);
    return model.requests;
  } finally {
    await model.close();
  }
}

/** The last tool result of request `i`. */
const lastResult = (requests, i) => requests[i].results.at(-1).content;

/** The first match of a search answer (JSON text) as `[name, server]`. */
const topMatch = (content) => {
  const { matches } = JSON.parse(content);
  return [matches[0].name, matches[0].server];
};

function checkConversation(requests, answer, hooks) {
  assert.equal(requests.length, SCRIPT.length, "one model request per scripted step");
  const offered = requests[0].tools;
  assert.ok(offered.includes("read_file"), `direct tool offered: ${offered}`);
  for (const bridge of ["tool_search", "tool_describe", "tool_call"]) assert.ok(offered.includes(bridge), `${bridge} offered: ${offered}`);
  const sum = shownAs["get-sum"], build = shownAs[BUILD.name];
  for (const name of ["get-sum", sum, BUILD.name, build]) assert.ok(!offered.includes(name), `deferred tools stay behind the bridge: ${name}`);
  assert.deepEqual(topMatch(lastResult(requests, 1)), [sum, "everything"], "the search found get-sum, first");
  assert.match(lastResult(requests, 2), /"required":\["a","b"\]/, "describe gave the whole schema");
  assert.ok(lastResult(requests, 3).startsWith(`${sum} was not invoked`), lastResult(requests, 3));
  assert.match(lastResult(requests, 3), /not invoked.*\bb\b/s, "the reject reached the model");
  assert.match(lastResult(requests, 4), /The sum of 2 and 3 is 5\./, "the real tool's answer reached the model");
  assert.deepEqual(topMatch(lastResult(requests, 5)), [build, UNREAL], "the catalog server's tool is found");
  assert.match(lastResult(requests, 6), new RegExp(`${BUILD.name} ran with`), "the catalog tool's answer reached the model");
  assert.equal(answer, ANSWER);
  // Each real MCP tool ran once, with the corrected arguments; nothing ran for the rejected call.
  assert.deepEqual(everything.calls.map(({ name, arguments: args }) => ({ name, arguments: args })), [{ name: "get-sum", arguments: { a: 2, b: 3 } }]);
  assert.deepEqual(unreal.calls.map(({ name, arguments: args }) => ({ name, arguments: args })), [BUILD]);
  // Hooks saw the real tools, never the bridge.
  assert.deepEqual(hooks, [{ server: "everything", tool: "get-sum" }, { server: UNREAL, tool: BUILD.name }]);
}

/** The agent's side of a real call: the hook, then the MCP client (toolshelf/mcp). */
async function runReal(clients, u, hooks) {
  hooks.push({ server: u.server, tool: u.tool });
  return (await callMcpTool(clients, u)).content;
}

test("toolshelf/mcp lists every page of every client, named as given or by the server", async () => {
  unreal.pages.length = 0;
  const { servers, clients } = await mcpServers(mcpClients);
  assert.equal(servers[UNREAL].length, 1079);
  assert.deepEqual(unreal.pages, [0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000], "all 11 pages, by cursor");
  assert.ok(servers.everything.some((t) => t.name === "get-sum" && t.inputSchema.required.includes("b")));
  assert.equal(clients.everything, mcpClients.everything);
  const byOwnName = await mcpServers([mcpClients[UNREAL], mcpClients.everything], { format: "anthropic" });
  assert.deepEqual(Object.keys(byOwnName.servers), [UNREAL, "mcp-servers/everything"]);
  assert.ok(byOwnName.servers[UNREAL].every((t) => t.input_schema && !t.inputSchema));
});

/** The MCP servers' tools in `format` with the direct `read_file`, on a Shelf, and their assembly. */
async function prepared(format) {
  const { servers, clients } = await mcpServers(mcpClients, { format });
  const shelf = new Shelf({ tools: [readFile[format]], servers }, OPTIONS);
  return { clients, shelf, tools: shelf.assemble().tools };
}

/** The OpenAI Chat loop; `send` makes one request (create, or stream → finalChatCompletion). */
function chatLoop(send) {
  return async (url, hooks) => {
    const openai = new OpenAI({ apiKey: "test", baseURL: `${url}/v1` });
    const { clients, shelf, tools } = await prepared("openai");
    const messages = [{ role: "user", content: PROMPT }];
    for (;;) {
      const message = (await send(openai, { model: "scripted", messages, tools })).choices[0].message;
      messages.push(message);
      if (!message.tool_calls?.length) return message.content;
      for (const call of message.tool_calls) {
        const u = shelf.unwrap(call);
        const content = u.kind === "call" ? await runReal(clients, u, hooks) : u.content;
        messages.push({ role: "tool", tool_call_id: call.id, content });
      }
    }
  };
}

test("OpenAI Chat Completions with the openai client (not streamed)", async () => {
  await converse(chatLoop((openai, body) => openai.chat.completions.create(body)));
});

test("OpenAI Chat Completions with the openai client, streamed", async () => {
  const requests = await converse(chatLoop((openai, body) => openai.chat.completions.stream(body).finalChatCompletion()));
  assert.ok(requests.every((r) => r.stream && r.provider === "chat"));
});

test("OpenAI Responses with the openai client, streamed", async () => {
  const requests = await converse(async (url, hooks) => {
    const openai = new OpenAI({ apiKey: "test", baseURL: `${url}/v1` });
    const { clients, shelf, tools } = await prepared("responses");
    const input = [{ role: "user", content: PROMPT }];
    for (;;) {
      const response = await openai.responses.stream({ model: "scripted", input, tools }).finalResponse();
      const calls = response.output.filter((item) => item.type === "function_call");
      if (!calls.length) return response.output_text;
      input.push(...calls);
      for (const call of calls) {
        const u = shelf.unwrap(call);
        input.push({ type: "function_call_output", call_id: call.call_id, output: u.kind === "call" ? await runReal(clients, u, hooks) : u.content });
      }
    }
  });
  assert.ok(requests.every((r) => r.stream && r.provider === "responses"));
});

/** The Anthropic loop; `send` makes one request (create, or stream → finalMessage). */
function anthropicLoop(send) {
  return async (url, hooks) => {
    const anthropic = new Anthropic({ apiKey: "test", baseURL: url });
    const { clients, shelf, tools } = await prepared("anthropic");
    const messages = [{ role: "user", content: PROMPT }];
    for (;;) {
      const reply = await send(anthropic, { model: "scripted", max_tokens: 1024, messages, tools });
      messages.push({ role: "assistant", content: reply.content });
      const uses = reply.content.filter((block) => block.type === "tool_use");
      if (!uses.length) return reply.content.find((block) => block.type === "text")?.text;
      const results = [];
      for (const use of uses) {
        const u = shelf.unwrap(use);
        const content = u.kind === "call" ? await runReal(clients, u, hooks) : u.content;
        results.push({ type: "tool_result", tool_use_id: use.id, content, is_error: u.kind === "reject" });
      }
      messages.push({ role: "user", content: results });
    }
  };
}

test("Anthropic Messages with @anthropic-ai/sdk (not streamed)", async () => {
  const requests = await converse(anthropicLoop((anthropic, request) => anthropic.messages.create(request)));
  assert.ok(requests.every((r) => !r.stream && r.provider === "anthropic"));
});

test("Anthropic Messages with @anthropic-ai/sdk, streamed", async () => {
  const requests = await converse(anthropicLoop((anthropic, request) => anthropic.messages.stream(request).finalMessage()));
  assert.ok(requests.every((r) => r.stream && r.provider === "anthropic"));
});

/** The direct tool as an AI SDK tool. */
const readFileTool = tool({
  description: "Read a file.",
  inputSchema: jsonSchema({ type: "object", properties: { path: { type: "string" } }, required: ["path"] }),
  execute: async () => { throw new Error("read_file is never called in this conversation"); },
});

/**
 * The AI SDK loop through toolshelf/ai, deferred tools from @ai-sdk/mcp clients on the same two
 * servers. The Unreal server is attached after the first step (servers as a function, re-read per
 * step), as an agent attaches a server mid-session.
 */
function aiSdkLoop(makeModel, generate) {
  return async (url, hooks) => {
    const everythingMcp = await createMCPClient({ transport: everything.transport() });
    const unrealMcp = await createMCPClient({ transport: await unreal.transport() });
    try {
      const everythingTools = await everythingMcp.tools();
      const unrealTools = await unrealMcp.tools();
      assert.equal(Object.keys(unrealTools).length, 1079, "@ai-sdk/mcp read every page");
      let attached = { everything: everythingTools };
      const shelf = createToolshelf({
        tools: { read_file: readFileTool },
        servers: () => attached,
        options: OPTIONS,
        onCall: (call) => { hooks.push({ server: call.server, tool: call.tool }); },
      });
      const result = await generate({
        model: makeModel(url),
        prompt: PROMPT,
        tools: shelf.tools,
        prepareStep: shelf.prepareStep,
        stopWhen: stepCountIs(SCRIPT.length + 1),
        onStepFinish: () => { attached = { everything: everythingTools, [UNREAL]: unrealTools }; },
      });
      return await result.text;
    } finally {
      await everythingMcp.close();
      await unrealMcp.close();
    }
  };
}

/** The search tool's description in a recorded request (any provider). */
const searchDescription = (request) => JSON.stringify(request.body.tools.find((t) => (t.function?.name ?? t.name) === "tool_search"));

function checkAttachedMidway(requests) {
  assert.ok(!searchDescription(requests[0]).includes(UNREAL), "step 1: only server-everything");
  // The listing heads each server by the prefix of its tools' names (SPEC §16): mcp__<server>__*.
  const listing = searchDescription(requests[1]);
  assert.ok(listing.includes(`mcp__${UNREAL}__*`) && listing.includes("1079 tools"), "step 2 on: re-assembled with the Unreal server");
}

test("AI SDK streamText with @ai-sdk/openai (Responses API, streamed) and @ai-sdk/mcp tools", async () => {
  const requests = await converse(aiSdkLoop((url) => createOpenAI({ apiKey: "test", baseURL: `${url}/v1` })("scripted"), streamText));
  assert.ok(requests.every((r) => r.stream && r.provider === "responses"));
  checkAttachedMidway(requests);
});

test("AI SDK streamText with @ai-sdk/openai's Chat Completions model, streamed", async () => {
  const requests = await converse(aiSdkLoop((url) => createOpenAI({ apiKey: "test", baseURL: `${url}/v1` }).chat("scripted"), streamText));
  assert.ok(requests.every((r) => r.stream && r.provider === "chat"));
  checkAttachedMidway(requests);
});

test("AI SDK streamText with @ai-sdk/anthropic, streamed", async () => {
  const requests = await converse(aiSdkLoop((url) => createAnthropic({ apiKey: "test", baseURL: `${url}/v1` })("scripted"), streamText));
  assert.ok(requests.every((r) => r.stream && r.provider === "anthropic"));
  checkAttachedMidway(requests);
});

test("AI SDK generateText with @ai-sdk/anthropic (not streamed)", async () => {
  const requests = await converse(aiSdkLoop((url) => createAnthropic({ apiKey: "test", baseURL: `${url}/v1` })("scripted"), generateText));
  assert.ok(requests.every((r) => !r.stream && r.provider === "anthropic"));
});

test("the AI SDK's own toolSearch with toolshelfSearch: the model finds get-sum, the SDK loads it, it runs", async () => {
  everything.calls.length = 0;
  const script = [
    { tool: "toolSearch", arguments: { query: "sum of two numbers" } },
    { tool: "get-sum", arguments: { a: 2, b: 3 } },
    { text: "5" },
  ];
  const model = await startModelServer(script);
  const everythingMcp = await createMCPClient({ transport: everything.transport() });
  try {
    const deferred = Object.fromEntries(Object.entries(await everythingMcp.tools()).map(([name, t]) => [name, { ...t, deferLoading: true }]));
    const result = await generateText({
      model: createOpenAI({ apiKey: "test", baseURL: `${model.url}/v1` }).chat("scripted"),
      prompt: "Add 2 and 3.",
      tools: { toolSearch: toolSearch({ search: toolshelfSearch({ tools: deferred }) }), ...deferred },
      stopWhen: stepCountIs(5),
    });
    assert.equal(result.text, "5");
    const [first, second] = model.requests;
    assert.ok(!first.tools.includes("get-sum") && first.tools.includes("toolSearch"), `deferred at first: ${first.tools}`);
    assert.match(second.results[0].content, /get-sum/, "toolshelf's ranking found it");
    assert.ok(second.tools.includes("get-sum"), "the SDK loaded the tool found");
    assert.deepEqual(everything.calls.map((c) => c.arguments), [{ a: 2, b: 3 }]);
  } finally {
    await everythingMcp.close();
    await model.close();
  }
});

/** An in-process MCP server (the SDK's `Server`) with one tool, `boom`, whose handler throws. */
async function failingClient() {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
  const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
  const server = new Server({ name: "failing", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: "boom", description: "Explodes the build.", inputSchema: { type: "object" } }] }));
  server.setRequestHandler(CallToolRequestSchema, () => { throw new Error("the build exploded"); });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "toolshelf-e2e", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

test("the documented loops (docs/adapters.md) answer every call as written: a direct tool and a JSON-RPC error are isError results", async () => {
  const script = [{ tool: "read_file", arguments: { path: "a" } }, { tool: "tool_call", arguments: { name: "boom", arguments: {} } }, { text: "done" }];
  const failing = await failingClient();
  try {
    // OpenAI Chat Completions, as docs/adapters.md writes it.
    let model = await startModelServer(script);
    try {
      const openai = new OpenAI({ apiKey: "test", baseURL: `${model.url}/v1` });
      const { servers, clients } = await mcpServers({ failing }, { format: "openai" });
      const shelf = new Shelf({ tools: [readFile.openai], servers }, OPTIONS);
      const messages = [{ role: "user", content: PROMPT }];
      for (let step = 0; step < 20; step++) {
        const { tools } = shelf.assemble();
        const message = (await openai.chat.completions.create({ model: "scripted", messages, tools })).choices[0].message;
        messages.push(message);
        if (!message.tool_calls?.length) break;
        for (const call of message.tool_calls) {
          const u = shelf.unwrap(call);                                   // call | answer | reject
          const { content } = u.kind === "call" ? await callMcpTool(clients, u) : u; // failures: isError results
          messages.push({ role: "tool", tool_call_id: call.id, content });
        }
      }
      assert.equal(messages.at(-1).content, "done");
      const read = model.requests.at(-1).results.map((r) => r.content);
      assert.match(read[0], /read_file is not a tool of an MCP server/);
      // The model typed boom's own name (the listing shows it under mcp__failing__*); the failure names it as shown.
      assert.equal(read[1], `${shelf.describe("boom").name} failed on server "failing" (error -32603): internal error.`, "the upstream's own text is not the model's (SPEC §16)");
    } finally {
      await model.close();
    }
    // Anthropic Messages, as docs/adapters.md writes it: both results flagged is_error.
    model = await startModelServer(script);
    try {
      const anthropic = new Anthropic({ apiKey: "test", baseURL: model.url });
      const { servers, clients } = await mcpServers({ failing }, { format: "anthropic" });
      const shelf = new Shelf({ tools: [readFile.anthropic], servers }, OPTIONS);
      const messages = [{ role: "user", content: PROMPT }];
      for (let step = 0; step < 20; step++) {
        const { tools } = shelf.assemble();
        const reply = await anthropic.messages.create({ model: "scripted", max_tokens: 4096, messages, tools });
        messages.push({ role: "assistant", content: reply.content });
        const uses = reply.content.filter((block) => block.type === "tool_use");
        if (!uses.length) break;
        const results = [];
        for (const use of uses) {
          const u = shelf.unwrap(use);
          const { content, isError } = u.kind === "call" ? await callMcpTool(clients, u) : { content: u.content, isError: u.kind === "reject" };
          results.push({ type: "tool_result", tool_use_id: use.id, content, is_error: isError });
        }
        messages.push({ role: "user", content: results });
      }
      const flags = model.requests.at(-1).body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === "tool_result").map((b) => b.is_error);
      assert.deepEqual(flags, [true, true]);
    } finally {
      await model.close();
    }
  } finally {
    await failing.close();
  }
});
