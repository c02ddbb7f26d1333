// End to end, native tool search (SPEC §11), all on 127.0.0.1: the scripted model server of
// model-server.mjs speaking Anthropic's `defer_loading` + `tool_reference` and OpenAI Responses'
// client `tool_search` as the providers document them, and refusing with the provider's 400 what
// they refuse (every tool deferred, a tool_reference to a tool not in `tools`, a deferred tool with
// cache_control, a tool_search_output not echoing its call, a function never loaded); driven by the
// real `@anthropic-ai/sdk` and `openai` clients; behind the deferred tools, real MCP servers
// (server-everything over stdio, the 1,079-tool Unreal catalog in process) through toolshelf/mcp.
// The model searches, calls a loaded tool with a wrong argument, reads the reject, calls it again,
// searches the Unreal catalog, calls that tool, calls the first tool again on a later turn, and
// answers: each real tool ran as often as called, with validated arguments; the part of the tools
// array the context pays for is byte-identical on every turn.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createMCPClient } from "@ai-sdk/mcp";
import { Shelf } from "toolshelf";
import { createAnthropicNativeToolshelf } from "toolshelf/ai";
import { callMcpTool, mcpServers } from "toolshelf/mcp";
import { callShown, startNativeModelServer } from "./model-server.mjs";
import { catalogServer, everythingServer, shownNames } from "./mcp-servers.mjs";
import { repoDir } from "./support.mjs";

const UNREAL = "unreal-engine";
const BUILD = { name: "manage_pipeline__run_ubt", arguments: { target: "MyProjectEditor", platform: "Linux" } };
const ANSWER = "2 + 3 = 5, the editor build is running, and 1 + 1 = 2.";
const OPTIONS = { contextLength: 200_000, mode: "native" };
// The scripted model calls a tool by the name it was shown for it, found by the tool's description:
// get-sum's, run_ubt's.
const SUM = "Returns the sum of two numbers";
const UBT = "compile with UnrealBuildTool";

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

const readFile = {
  anthropic: { name: "read_file", description: "Read a file.", input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  responses: { type: "function", name: "read_file", description: "Read a file.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] }, strict: false },
};

async function prepared(format) {
  const { servers, clients } = await mcpServers(mcpClients, { format });
  return { clients, shelf: new Shelf({ tools: [readFile[format]], servers }, OPTIONS) };
}

async function runReal(clients, u, hooks) {
  hooks.push({ server: u.server, tool: u.tool });
  return (await callMcpTool(clients, u)).content;
}

/** What every native conversation shows, whatever the provider. */
function checkRuns(hooks) {
  assert.deepEqual(everything.calls.map(({ name, arguments: args }) => ({ name, arguments: args })),
    [{ name: "get-sum", arguments: { a: 2, b: 3 } }, { name: "get-sum", arguments: { a: 1, b: 1 } }], "get-sum ran twice, never with the rejected arguments");
  assert.deepEqual(unreal.calls.map(({ name, arguments: args }) => ({ name, arguments: args })), [BUILD]);
  assert.deepEqual(hooks, [{ server: "everything", tool: "get-sum" }, { server: UNREAL, tool: BUILD.name }, { server: "everything", tool: "get-sum" }]);
}

/** The part of each request's tools array the context pays for is the same bytes every turn. */
function checkPaidStable(requests) {
  assert.ok(requests.length >= 2);
  for (const r of requests) assert.equal(r.paid, requests[0].paid, "the non-deferred tools are byte-identical across turns");
}

const ANTHROPIC_SCRIPT = [
  { tool: "tool_search", arguments: { query: "sum of two numbers" } },
  callShown(SUM, { a: 2 }), // b is missing: rejected, nothing runs
  callShown(SUM, { a: 2, b: 3 }),
  { tool: "tool_search", arguments: { query: "compile the editor with UnrealBuildTool" } },
  callShown(UBT, BUILD.arguments),
  callShown(SUM, { a: 1, b: 1 }), // loaded on the first turn: still callable
  { text: ANSWER },
];

/** The Anthropic loop of the README, with the real client; `withMessages` as the README does it. */
async function anthropicLoop(url, withMessages, hooks) {
  const anthropic = new Anthropic({ apiKey: "test", baseURL: url });
  const { clients, shelf } = await prepared("anthropic");
  const messages = [{ role: "user", content: "Add 2 and 3, build MyProjectEditor for Linux, then add 1 and 1." }];
  const ask = () => anthropic.messages.create({ model: "scripted", max_tokens: 1024, messages,
    tools: (withMessages ? shelf.assemble({ messages }) : shelf.assemble()).tools });
  let reply = await ask();
  for (; reply.stop_reason === "tool_use"; reply = await ask()) {
    messages.push({ role: "assistant", content: reply.content });
    const results = [];
    for (const block of reply.content.filter((b) => b.type === "tool_use")) {
      const u = shelf.unwrap(block);
      const content = u.kind === "call" ? await runReal(clients, u, hooks) : u.content;
      results.push({ type: "tool_result", tool_use_id: block.id, content, ...(u.kind === "reject" ? { is_error: true } : {}) });
    }
    messages.push({ role: "user", content: results });
  }
  return { answer: reply.content[0].text, messages, shelf };
}

for (const withMessages of [true, false]) {
  test(`Anthropic Messages with @anthropic-ai/sdk: defer_loading and tool_reference${withMessages ? ", assemble({ messages })" : ", every deferred tool sent"}`, async () => {
    everything.calls.length = 0;
    unreal.calls.length = 0;
    const model = await startNativeModelServer(ANTHROPIC_SCRIPT);
    const hooks = [];
    try {
      const { answer, messages } = await anthropicLoop(model.url, withMessages, hooks);
      assert.equal(answer, ANSWER);
      assert.ok(model.requests.every((r) => r.status === 200), model.requests.map((r) => r.error).join("; "));
      assert.equal(model.requests.length, ANTHROPIC_SCRIPT.length, "one request per step: no describe round trip");
      checkRuns(hooks);
      checkPaidStable(model.requests);
      const first = model.requests[0].tools;
      assert.deepEqual(first.slice(0, 2).map((t) => t.name), ["read_file", "tool_search"]);
      assert.ok(!first.some((t) => t.name === "tool_describe" || t.name === "tool_call"));
      const deferredCounts = model.requests.map((r) => r.tools.filter((t) => t.defer_loading).length);
      if (withMessages) {
        assert.equal(deferredCounts[0], 0, "nothing loaded yet: only the direct tools and the search tool");
        assert.ok(deferredCounts.at(-1) >= 2 && deferredCounts.at(-1) <= 10, `${deferredCounts}`);
        assert.ok(model.requests.at(-1).tools.some((t) => t.name === shownAs["get-sum"] && t.defer_loading), "get-sum still carried");
        assert.ok(model.requests.every((r) => r.bytes < 50_000), model.requests.map((r) => r.bytes).join(", "));
      } else {
        assert.ok(deferredCounts.every((n) => n === deferredCounts[0] && n > 1079), `every deferred tool, every turn: ${deferredCounts}`);
      }
      const searchAnswer = messages[2].content[0].content;
      assert.ok(Array.isArray(searchAnswer) && searchAnswer[0].type === "tool_reference", JSON.stringify(searchAnswer));
      assert.equal(searchAnswer[0].tool_name, shownAs["get-sum"], "our ranking's top pick is loaded first");
      assert.match(messages[4].content[0].content, /get-sum was not invoked.*\bb\b/s, "the reject reached the model");
    } finally {
      await model.close();
    }
  });
}

test("AI SDK generateText with @ai-sdk/anthropic: deferLoading tools, tool-reference parts, prepareStep", async () => {
  everything.calls.length = 0;
  unreal.calls.length = 0;
  const model = await startNativeModelServer(ANTHROPIC_SCRIPT);
  const everythingMcp = await createMCPClient({ transport: everything.transport() });
  const unrealMcp = await createMCPClient({ transport: await unreal.transport() });
  const hooks = [];
  try {
    const readFileTool = tool({ description: "Read a file.", inputSchema: jsonSchema(readFile.anthropic.input_schema), execute: async () => "never" });
    const shelf = createAnthropicNativeToolshelf({
      tools: { read_file: readFileTool },
      servers: { everything: await everythingMcp.tools(), [UNREAL]: await unrealMcp.tools() },
      options: { contextLength: 200_000 },
      onCall: (call) => { hooks.push({ server: call.server, tool: call.tool }); },
    });
    assert.equal(shelf.assembly.mode, "native");
    const result = await generateText({
      model: createAnthropic({ apiKey: "test", baseURL: `${model.url}/v1` })("scripted"),
      prompt: "Add 2 and 3, build MyProjectEditor for Linux, then add 1 and 1.",
      maxOutputTokens: 1024,
      tools: shelf.tools,
      prepareStep: shelf.prepareStep,
      stopWhen: stepCountIs(ANTHROPIC_SCRIPT.length + 1),
    });
    assert.equal(result.text, ANSWER);
    assert.ok(model.requests.every((r) => r.status === 200), model.requests.map((r) => r.error).join("; "));
    assert.equal(model.requests.length, ANTHROPIC_SCRIPT.length);
    checkRuns(hooks);
    checkPaidStable(model.requests);
    const deferred = model.requests.map((r) => r.tools.filter((t) => t.defer_loading).map((t) => t.name));
    assert.deepEqual(deferred[0], [], "nothing loaded yet: the deferred tools stay out of the request");
    assert.ok(deferred[1].includes(shownAs["get-sum"]) && deferred.at(-1).includes(shownAs[BUILD.name]), JSON.stringify(deferred.map((d) => d.length)));
    const searchResult = model.requests[1].body.messages.at(-1).content[0];
    assert.equal(searchResult.content[0].type, "tool_reference", JSON.stringify(searchResult));
  } finally {
    await everythingMcp.close();
    await unrealMcp.close();
    await model.close();
  }
});

/**
 * Two AI SDK tools with guarantees of their own, each run recorded in `ran`: `delete_repo` needs
 * approval; `read_path`'s zod schema refuses `..` and upper-cases the path (`readExtra` added to it).
 */
function guardedTools(z, ran, readExtra = {}) {
  const deleteRepo = tool({
    description: "Delete a repository for good.",
    inputSchema: z.object({ id: z.string() }),
    needsApproval: true,
    execute: async ({ id }) => { ran.push(["delete_repo", id]); return `deleted ${id}`; },
  });
  const readPath = tool({
    description: "Read a file at a path inside the project.",
    inputSchema: z.object({ path: z.string().refine((p) => !p.includes(".."), "no .. in a path").transform((p) => p.toUpperCase()) }),
    execute: async ({ path }) => { ran.push(["read_path", path]); return `read ${path}`; },
    ...readExtra,
  });
  return { deleteRepo, readPath };
}

test("AI SDK native path keeps the tool's own guarantees: needsApproval stops as for a direct tool, zod validates and transforms", async () => {
  const { z } = await import("zod");
  const ran = [];
  const { deleteRepo, readPath } = guardedTools(z, ran);
  const servers = { admin: { delete_repo: deleteRepo }, files: { read_path: readPath } };
  const run = async (script) => {
    const model = await startNativeModelServer(script);
    try {
      const shelf = createAnthropicNativeToolshelf({ servers, options: { contextLength: 200_000 } });
      const result = await generateText({
        model: createAnthropic({ apiKey: "test", baseURL: `${model.url}/v1` })("scripted"),
        prompt: "Do it.", maxOutputTokens: 256, tools: shelf.tools, prepareStep: shelf.prepareStep, stopWhen: stepCountIs(script.length + 1),
      });
      return { result, model, shelf };
    } finally {
      await model.close();
    }
  };
  // Approval: the SDK stops with the same request it makes for the tool given directly; nothing ran.
  const approval = await run([{ tool: "tool_search", arguments: { query: "delete repository" } }, callShown("Delete a repository", { id: "prod" }), { text: "done" }]);
  const requests = approval.result.content.filter((part) => part.type === "tool-approval-request");
  assert.equal(requests.length, 1, JSON.stringify(approval.result.content.map((p) => p.type)));
  assert.equal(requests[0].toolCall.toolName, approval.shelf.shelf.describe("delete_repo").name, "the name the model was shown");
  assert.deepEqual(requests[0].toolCall.input, { id: "prod" });
  assert.deepEqual(ran, [], "delete_repo did not run without approval");
  // The tool's own validation: a refine guard refuses `..`; a valid path arrives transformed.
  await run([{ tool: "tool_search", arguments: { query: "read file path" } }, callShown("Read a file at a path", { path: "../../etc/passwd" }), callShown("Read a file at a path", { path: "src/a.rs" }), { text: "done" }]);
  assert.deepEqual(ran, [["read_path", "SRC/A.RS"]], "the guard refused the first path; the second ran transformed");
});

test("the Anthropic model server refuses what the API refuses (400 through the SDK)", async () => {
  const model = await startNativeModelServer([{ text: "never" }]);
  const anthropic = new Anthropic({ apiKey: "test", baseURL: model.url, maxRetries: 0 });
  const deferred = { ...readFile.anthropic, name: "hidden", defer_loading: true };
  const ask = (tools, messages = [{ role: "user", content: "hi" }]) => anthropic.messages.create({ model: "m", max_tokens: 10, messages, tools });
  try {
    await assert.rejects(ask([deferred]), (e) => e.status === 400 && /All tools have defer_loading/.test(e.message));
    await assert.rejects(ask([readFile.anthropic, { ...deferred, cache_control: { type: "ephemeral" } }]), (e) => e.status === 400 && /cache_control/.test(e.message));
    const referencing = [{ role: "user", content: "hi" }, { role: "assistant", content: [{ type: "tool_use", id: "t", name: "tool_search", input: { query: "x" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: [{ type: "tool_reference", tool_name: "nowhere" }] }] }];
    await assert.rejects(ask([readFile.anthropic], referencing), (e) => e.status === 400 && /Tool reference 'nowhere' not found/.test(e.message));
    const shelf = new Shelf({ tools: [readFile.anthropic], servers: { s: [{ ...deferred, cache_control: { type: "ephemeral" } }] } }, OPTIONS);
    const reply = await ask(shelf.assemble().tools);
    assert.equal(reply.content[0].text, "never", "toolshelf's array passes: the caller's cache_control is dropped from the deferred tool");
  } finally {
    await model.close();
  }
});

const RESPONSES_SCRIPT = [
  { search: { query: "sum of two numbers" } },
  callShown(SUM, { a: 2 }),
  callShown(SUM, { a: 2, b: 3 }),
  { search: { query: "compile the editor with UnrealBuildTool" } },
  callShown(UBT, BUILD.arguments),
  callShown(SUM, { a: 1, b: 1 }),
  { text: ANSWER },
];

test("OpenAI Responses with the openai client: client tool_search, tool_search_output namespaces", async () => {
  everything.calls.length = 0;
  unreal.calls.length = 0;
  const model = await startNativeModelServer(RESPONSES_SCRIPT);
  const hooks = [];
  try {
    const openai = new OpenAI({ apiKey: "test", baseURL: `${model.url}/v1` });
    const { clients, shelf } = await prepared("responses");
    const { tools } = shelf.assemble();
    assert.deepEqual(tools.map((t) => t.type), ["function", "tool_search"]);
    const outputs = [];
    let response = await openai.responses.create({ model: "scripted", input: "Add 2 and 3, build, add 1 and 1.", tools });
    for (let input = []; ; input = []) {
      for (const item of response.output) {
        if (item.type === "tool_search_call") {
          const u = shelf.unwrap(item);
          input.push(u.item);
          outputs.push(u.item);
        } else if (item.type === "function_call") {
          const u = shelf.unwrap(item);
          const output = u.kind === "call" ? JSON.stringify(await runReal(clients, u, hooks)) : u.content;
          input.push({ type: "function_call_output", call_id: item.call_id, output });
          outputs.push(output);
        }
      }
      if (input.length === 0) break;
      response = await openai.responses.create({ model: "scripted", previous_response_id: response.id, input, tools });
    }
    assert.equal(response.output_text, ANSWER);
    assert.ok(model.requests.every((r) => r.status === 200), model.requests.map((r) => r.error).join("; "));
    assert.equal(model.requests.length, RESPONSES_SCRIPT.length);
    checkRuns(hooks);
    checkPaidStable(model.requests);
    const [first, , , second] = outputs;
    assert.equal(first.call_id, "call_0");
    assert.equal(first.tools[0].name, "everything", "the best match's server first");
    const sum = first.tools[0].tools.find((f) => f.name === "get-sum");
    assert.deepEqual(sum.parameters.required, ["a", "b"], "the function's whole parameters");
    assert.match(outputs[1], /get-sum was not invoked.*\bb\b/s);
    assert.ok(second.tools.some((n) => n.name === UNREAL && n.tools.some((f) => f.name === BUILD.name)));
  } finally {
    await model.close();
  }
});

test("the Responses model server refuses what the API refuses (400 through the SDK)", async () => {
  const model = await startNativeModelServer([{ search: { query: "sum" } }, { tool: "get-sum", namespace: "everything", arguments: { a: 1, b: 2 } }, { text: "done" }]);
  const openai = new OpenAI({ apiKey: "test", baseURL: `${model.url}/v1`, maxRetries: 0 });
  try {
    const { shelf } = await prepared("responses");
    const { tools } = shelf.assemble();
    const first = await openai.responses.create({ model: "m", input: "sum", tools });
    const call = first.output[0];
    assert.equal(call.type, "tool_search_call");
    const item = shelf.unwrap(call).item;
    const continueWith = (input) => openai.responses.create({ model: "m", previous_response_id: first.id, input, tools });
    await assert.rejects(continueWith([{ ...item, call_id: "call_other" }]), (e) => e.status === 400 && /No tool search call found/.test(e.message));
    await assert.rejects(continueWith([{ role: "user", content: "go on" }]), (e) => e.status === 400 && /No tool output found for tool search call call_0/.test(e.message));
    const empty = { ...item, tools: [] };
    await assert.rejects(continueWith([empty]), (e) => e.status === 400 && /everything\.get-sum was never loaded/.test(e.message), "a function never loaded cannot be called");
    const next = await continueWith([item]);
    assert.equal(next.output[0].namespace, "everything", "loaded by toolshelf's item: callable");
  } finally {
    await model.close();
  }
});

// The native loops of docs/guide.md, as written, against the model server and the real SDK clients,
// with the real GitHub catalog as their deferred tools (types.test.mjs type-checks the same blocks;
// the npm page's loops, which define what they use, run in docs.test.mjs).
const ts = createRequire(join(repoDir, "package.json"))("typescript");
const readmes = [join(repoDir, "docs", "guide.md")].map((path) => readFileSync(path, "utf8"));
const nativeBlocks = [...new Set(readmes.flatMap((readme) => [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).filter((c) => c.includes('mode: "native"'))))];
const CREATE = { owner: "o", repo: "r", title: "Crash" };
const CREATE_ISSUE = "Create a new issue in a GitHub repository"; // how the model knows GitHub's create_issue

async function runReadme(code, prelude) {
  const js = ts.transpileModule(prelude + code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const file = join(process.cwd(), `native-example-${process.pid}-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, js);
  await import(pathToFileURL(file).href);
  return globalThis.__native;
}

const readmePrelude = (client) => `
import ${client === "anthropic" ? "Anthropic" : "OpenAI"} from "${client === "anthropic" ? "@anthropic-ai/sdk" : "openai"}";
import { catalog as __catalog } from "./support.mjs";
const __github = __catalog("github-mcp-server").map((e) => e.tool.function);
const coreAnthropicTools = [${JSON.stringify(readFile.anthropic)}];
const githubAnthropicTools = __github.map((f) => ({ name: f.name, description: f.description, input_schema: f.parameters }));
const linearAnthropicTools = __catalog("linear-mcp-official").map((e) => e.tool.function).map((f) => ({ name: f.name, description: f.description, input_schema: f.parameters }));
const linearConnected = () => true;
const coreResponsesTools = [${JSON.stringify(readFile.responses)}];
const githubResponsesTools = __github.map((f) => ({ type: "function", name: f.name, description: f.description, parameters: f.parameters, strict: false }));
const record = globalThis.__native = { runs: [] };
const runTool = async (server, tool, args) => { record.runs.push({ server, tool, args }); return "created issue #1"; };
const question = "Open an issue for the crash.";
const model = "scripted";
const anthropic = new Anthropic({ apiKey: "test", baseURL: globalThis.__nativeUrl });
const openai = new OpenAI({ apiKey: "test", baseURL: globalThis.__nativeUrl + "/v1" });
`;

test("the native loops of docs/guide.md run as written against the model server", async () => {
  for (const readme of readmes) {
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).filter((c) => c.includes('mode: "native"'));
    assert.deepEqual(blocks.map((c) => (c.includes("@anthropic-ai/sdk") ? "anthropic" : "openai")).sort(), ["anthropic", "openai"], "one loop per provider in docs/guide.md");
  }
  const scripts = {
    anthropic: [{ tool: "tool_search", arguments: { query: "github create issue" } }, callShown(CREATE_ISSUE, CREATE), { text: "Opened #1." }],
    openai: [{ search: { query: "github create issue" } }, callShown(CREATE_ISSUE, CREATE), { text: "Opened #1." }],
  };
  for (const code of nativeBlocks) {
    const client = code.includes("@anthropic-ai/sdk") ? "anthropic" : "openai";
    const model = await startNativeModelServer(scripts[client]);
    globalThis.__nativeUrl = model.url;
    try {
      const record = await runReadme(code, readmePrelude(client).replace(client === "anthropic" ? /^const openai.*$/m : /^const anthropic.*$/m, ""));
      assert.deepEqual(record.runs, [{ server: "github", tool: "create_issue", args: CREATE }], client);
      assert.ok(model.requests.every((r) => r.status === 200), model.requests.map((r) => r.error).join("; "));
      assert.equal(model.requests.length, 3, `${client}: search, call, answer`);
      if (client === "anthropic" && code.includes("shelf.update(")) {
        // Linear attached after the first turn: the listing changes once, then holds.
        assert.notEqual(model.requests[1].paid, model.requests[0].paid, "the attach shows in the listing");
        checkPaidStable(model.requests.slice(1));
      } else {
        checkPaidStable(model.requests);
      }
    } finally {
      await model.close();
    }
  }
});

// The AI SDK with @ai-sdk/openai (Responses): createOpenAINativeToolshelf gives generateText the
// SDK's own client `tool_search` (openai.tools.toolSearch) answered by toolshelf, and the deferred
// tools as the caller's own AI SDK tools kept out of the request (omitFromRequestTools): the model
// server sees only the direct tools and `tool_search`, loads functions from the tool_search_output
// items and refuses a function never loaded; the SDK routes each function_call to the real tool.
const { createOpenAI, openai: openaiProvider } = await import("@ai-sdk/openai");
const { createOpenAINativeToolshelf } = await import("toolshelf/ai");

/** The Responses input items a request carried (after the server resolved item references). */
const inputOf = (request) => (Array.isArray(request.body.input) ? request.body.input : []);

for (const [store, stream] of [[true, false], [false, false], [true, true]]) {
  test(`AI SDK ${stream ? "streamText" : "generateText"} with @ai-sdk/openai: client toolSearch, tool_search_output namespaces, loaded functions routed (store: ${store})`, async () => {
    everything.calls.length = 0;
    unreal.calls.length = 0;
    const model = await startNativeModelServer(RESPONSES_SCRIPT);
    const everythingMcp = await createMCPClient({ transport: everything.transport() });
    const unrealMcp = await createMCPClient({ transport: await unreal.transport() });
    const hooks = [];
    try {
      const readFileTool = tool({ description: "Read a file.", inputSchema: jsonSchema(readFile.responses.parameters), execute: async () => "never" });
      const shelf = createOpenAINativeToolshelf({
        toolSearch: openaiProvider.tools.toolSearch,
        tools: { read_file: readFileTool },
        servers: { everything: await everythingMcp.tools(), [UNREAL]: await unrealMcp.tools() },
        options: { contextLength: 200_000 },
        onCall: (call) => { hooks.push({ server: call.server, tool: call.tool }); },
      });
      assert.equal(shelf.assembly.mode, "native");
      const call = {
        model: createOpenAI({ apiKey: "test", baseURL: `${model.url}/v1` })("scripted"),
        prompt: "Add 2 and 3, build MyProjectEditor for Linux, then add 1 and 1.",
        tools: shelf.tools,
        prepareStep: shelf.prepareStep,
        providerOptions: { openai: { store } },
        stopWhen: stepCountIs(RESPONSES_SCRIPT.length + 1),
      };
      const text = stream ? await streamText(call).text : (await generateText(call)).text;
      assert.equal(text, ANSWER);
      assert.ok(model.requests.every((r) => (r.body.stream === true) === stream), "streamed as asked");
      assert.ok(model.requests.every((r) => r.status === 200), model.requests.map((r) => r.error).join("; "));
      assert.equal(model.requests.length, RESPONSES_SCRIPT.length, "one request per step: no describe round trip");
      checkRuns(hooks);
      checkPaidStable(model.requests);
      assert.deepEqual(model.requests[0].tools.map((t) => t.type), ["function", "tool_search"], "the deferred tools are not in the request");
      const search = model.requests[0].tools[1];
      assert.equal(search.execution, "client");
      assert.deepEqual(search, shelf.assembly.tools[1], "toolshelf's tool_search as the core assembles it: description with the listing, parameters");
      const references = inputOf(model.requests[1]).filter((i) => i.type === "item_reference");
      assert.equal(references.length > 0, store, "stored items are sent as item_reference when store is on");
      const outputs = model.requests.at(-1).body.input.filter((i) => i.type === "tool_search_output");
      assert.equal(outputs.length, 2);
      assert.equal(outputs[0].call_id, "call_0", "the output echoes the call's call_id");
      assert.equal(outputs[0].tools[0].name, "everything", "the best match's server first");
      // Each function under the name the ToolSet holds it by: the name the core shows the tool under.
      const sum = outputs[0].tools[0].tools.find((f) => f.name === shownAs["get-sum"]);
      assert.ok(Object.hasOwn(shelf.tools, shownAs["get-sum"]) && Object.hasOwn(shelf.tools, shownAs[BUILD.name]));
      assert.deepEqual(sum.parameters.required, ["a", "b"], "the function's whole parameters");
      assert.equal(sum.strict, false);
      assert.ok(outputs[1].tools.some((n) => n.name === UNREAL && n.tools.some((f) => f.name === shownAs[BUILD.name])));
      const reject = model.requests[2].body.input.find((i) => i.type === "function_call_output" && i.call_id === "call_1");
      assert.match(reject.output, /get-sum was not invoked.*\bb\b/s, "toolshelf's validation (the MCP tool has no validator): the reject reached the model");
      const calls = model.requests.at(-1).body.input.filter((i) => i.type === "function_call");
      assert.deepEqual(calls.map((c) => c.namespace), ["everything", "everything", UNREAL, "everything"], "the SDK sends the calls back with their namespace");
    } finally {
      await everythingMcp.close();
      await unrealMcp.close();
      await model.close();
    }
  });
}

test("AI SDK native path with @ai-sdk/openai keeps the tool's own guarantees; clashing names load qualified; a bad search is a reject with its reason", async () => {
  const { z } = await import("zod");
  const ran = [];
  const { deleteRepo, readPath } = guardedTools(z, ran, { toModelOutput: ({ output }) => ({ type: "text", value: `rendered: ${output}` }) });
  const listIssues = (server) => tool({
    description: `List the issues of a ${server} project.`,
    inputSchema: jsonSchema({ type: "object", properties: { limit: { type: "integer", maximum: 250 } }, required: ["limit"] }),
    execute: async ({ limit }) => { ran.push([`${server}/list_issues`, limit]); return `no issues in ${server}`; },
  });
  const servers = { admin: { delete_repo: deleteRepo }, files: { read_path: readPath }, github: { list_issues: listIssues("github") }, linear: { list_issues: listIssues("linear") } };
  const run = async (script) => {
    const model = await startNativeModelServer(script);
    try {
      // Every match of a search loads (loadLimit), so that both clashing list_issues are shown.
      const shelf = createOpenAINativeToolshelf({ toolSearch: openaiProvider.tools.toolSearch, servers, options: { contextLength: 200_000, loadLimit: 5 } });
      const result = await generateText({
        model: createOpenAI({ apiKey: "test", baseURL: `${model.url}/v1` })("scripted"),
        prompt: "Do it.", tools: shelf.tools, prepareStep: shelf.prepareStep, stopWhen: stepCountIs(script.length + 1),
      });
      assert.ok(model.requests.every((r) => r.status === 200), model.requests.map((r) => r.error).join("; "));
      return { result, model, shelf };
    } finally {
      await model.close();
    }
  };
  // Approval: the SDK stops with the same request it makes for the tool given directly; nothing ran.
  const approval = await run([{ search: { query: "delete repository" } }, callShown("Delete a repository", { id: "prod" }), { text: "done" }]);
  const requests = approval.result.content.filter((part) => part.type === "tool-approval-request");
  assert.equal(requests.length, 1, JSON.stringify(approval.result.content.map((p) => p.type)));
  const shownDelete = approval.model.requests[1].body.input.find((i) => i.type === "tool_search_output").tools[0];
  assert.equal(shownDelete.name, "admin");
  assert.equal(requests[0].toolCall.toolName, shownDelete.tools[0].name, "the name the search output gave it");
  assert.equal(requests[0].toolCall.toolName, approval.shelf.shelf.describe("delete_repo").name);
  assert.deepEqual(requests[0].toolCall.input, { id: "prod" });
  assert.deepEqual(ran, [], "delete_repo did not run without approval");
  // The tool's own validation: a refine guard refuses `..`; a valid path arrives transformed.
  const guarded = await run([{ search: { query: "read file path" } }, callShown("Read a file at a path", { path: "../../etc/passwd" }), callShown("Read a file at a path", { path: "src/a.rs" }), { text: "done" }]);
  assert.deepEqual(ran, [["read_path", "SRC/A.RS"]], "the guard refused the first path; the second ran transformed");
  const rendered = guarded.model.requests.at(-1).body.input.find((i) => i.type === "function_call_output" && i.call_id === "call_2");
  assert.equal(rendered.output, "rendered: read SRC/A.RS", "the tool's own toModelOutput renders its result");
  // Two servers' list_issues: each namespace holds its function under the name the ToolSet knows it by.
  ran.length = 0;
  const clash = await run([{ search: { query: "list issues" } }, callShown("List the issues of a linear project", { limit: "50" }), { text: "done" }]);
  assert.ok(Object.hasOwn(clash.shelf.tools, "mcp__github__list_issues") && Object.hasOwn(clash.shelf.tools, "mcp__linear__list_issues"));
  const loaded = clash.model.requests[1].body.input.find((i) => i.type === "tool_search_output").tools;
  assert.deepEqual(loaded.map((n) => [n.name, n.tools.map((f) => f.name)]).sort(), [["github", ["mcp__github__list_issues"]], ["linear", ["mcp__linear__list_issues"]]]);
  assert.deepEqual(ran, [["linear/list_issues", 50]], "the linear tool ran once, its limit coerced by toolshelf's validation (no validator of its own)");
  // A search whose arguments are not JSON: an output without tools, and the reason as a system message.
  ran.length = 0;
  const bad = await run([{ search: "{query: read" }, { search: { query: "read file path" } }, callShown("Read a file at a path", { path: "b" }), { text: "done" }]);
  const after = bad.model.requests[1].body.input;
  const empty = after.findIndex((i) => i.type === "tool_search_output");
  assert.deepEqual(after[empty].tools, []);
  assert.equal(after[empty + 1].role, "system");
  assert.match(after[empty + 1].content, /tool_search/, after[empty + 1].content);
  assert.deepEqual(ran, [["read_path", "B"]], "the second search loaded it");
});

test("the Responses model server refuses, through the AI SDK, a function never loaded", async () => {
  const model = await startNativeModelServer([{ tool: "get-sum", namespace: "everything", arguments: { a: 1, b: 2 } }, { text: "never" }]);
  const everythingMcp = await createMCPClient({ transport: everything.transport() });
  try {
    const shelf = createOpenAINativeToolshelf({ toolSearch: openaiProvider.tools.toolSearch, servers: { everything: await everythingMcp.tools() } });
    await assert.rejects(generateText({
      model: createOpenAI({ apiKey: "test", baseURL: `${model.url}/v1` })("scripted"), maxRetries: 0,
      prompt: "sum", tools: shelf.tools, prepareStep: shelf.prepareStep, stopWhen: stepCountIs(3),
    }), (e) => e.statusCode === 400 && /everything\.get-sum was never loaded/.test(e.message));
    assert.ok(!model.requests[0].tools.some((t) => t.name === "get-sum"), "the deferred tool is not in the request");
  } finally {
    await everythingMcp.close();
    await model.close();
  }
});

test("AI SDK native path with @ai-sdk/openai: alwaysLoad servers stay in the request, a deferred direct tool loads from builtin", async () => {
  const ran = [];
  const t = (name) => tool({ description: `${name}: run it.`, inputSchema: jsonSchema({ type: "object", properties: { n: { type: "integer" } }, required: ["n"] }), execute: async ({ n }) => { ran.push([name, n]); return `${name} ${n}`; } });
  const script = [{ search: { query: "bash" } }, callShown("bash: run it.", { n: "1" }), callShown("files/list: run it.", { n: 2 }), { text: "done" }];
  const model = await startNativeModelServer(script);
  try {
    const shelf = createOpenAINativeToolshelf({ toolSearch: openaiProvider.tools.toolSearch, tools: { bash: t("bash") },
      servers: { files: { list: t("files/list") }, other: { list: t("other/list") } }, options: { alwaysLoad: ["files"], defer: ["bash"] } });
    const result = await generateText({ model: createOpenAI({ apiKey: "test", baseURL: `${model.url}/v1` })("scripted"),
      prompt: "go", tools: shelf.tools, prepareStep: shelf.prepareStep, stopWhen: stepCountIs(script.length + 1) });
    assert.equal(result.text, "done");
    assert.ok(model.requests.every((r) => r.status === 200), model.requests.map((r) => r.error).join("; "));
    const sent = model.requests[0].tools;
    assert.deepEqual(sent.map((f) => (f.type === "tool_search" ? f.type : f.description)), ["files/list: run it.", "tool_search"], "files' list is sent; other's list and bash wait for a search");
    assert.ok(Object.hasOwn(shelf.tools, sent[0].name), `sent under its ToolSet name: ${sent[0].name}`);
    const loaded = model.requests[1].body.input.find((i) => i.type === "tool_search_output").tools;
    assert.deepEqual(loaded.map((n) => [n.name, n.tools.map((f) => f.description)]), [["builtin", ["bash: run it."]]]);
    assert.deepEqual(ran, [["bash", 1], ["files/list", 2]], "each ran once, the deferred one's argument coerced by toolshelf");
  } finally {
    await model.close();
  }
});

test("AI SDK native path with @ai-sdk/anthropic: a server tool the request carries (alwaysLoad) is the caller's tool, run as called", async () => {
  const ran = [];
  const t = (name) => tool({ description: `${name}: run it.`, inputSchema: jsonSchema({ type: "object", properties: { n: { type: "integer" } }, required: ["n"] }), execute: async ({ n }) => { ran.push([name, n]); return `${name} ${n}`; } });
  const script = [callShown("files/list: run it.", { n: 2 }), { tool: "tool_search", arguments: { query: "list other" } }, callShown("other/list: run it.", { n: 3 }), { text: "done" }];
  const model = await startNativeModelServer(script);
  const hooks = [];
  try {
    const shelf = createAnthropicNativeToolshelf({ servers: { files: { list: t("files/list") }, other: { list: t("other/list") } },
      options: { alwaysLoad: ["files"] }, onCall: (call) => { hooks.push(`${call.server}/${call.tool}`); } });
    const result = await generateText({ model: createAnthropic({ apiKey: "test", baseURL: `${model.url}/v1` })("scripted"), maxOutputTokens: 256,
      prompt: "go", tools: shelf.tools, prepareStep: shelf.prepareStep, stopWhen: stepCountIs(script.length + 1) });
    assert.equal(result.text, "done");
    assert.ok(model.requests.every((r) => r.status === 200), model.requests.map((r) => r.error).join("; "));
    assert.deepEqual(ran, [["files/list", 2], ["other/list", 3]]);
    assert.deepEqual(hooks, ["files/list", "other/list"]);
  } finally {
    await model.close();
  }
});
