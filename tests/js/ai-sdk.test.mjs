// Through the bridge, a deferred AI SDK tool behaves as the SDK makes the same tool behave
// when given directly. Each test runs the real `ai` 7 (generateText / streamText with @ai-sdk/openai's
// Chat model against the scripted model server on 127.0.0.1) twice: once with the tool given
// directly (the reference) and once deferred behind toolshelf/ai's bridge, and compares what ran,
// what the SDK asked (approval requests) and what the model read. Zod is the real zod 4.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { z } from "zod";
import { createToolshelf, toolshelfSearch } from "toolshelf/ai";
import { startModelServer } from "./model-server.mjs";

const filler = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`noop_${i}`, tool({ description: `Does nothing number ${i}.`, inputSchema: jsonSchema({ type: "object" }), execute: async () => "noop" })]));

/**
 * Runs generateText (or streamText) on a scripted model: `direct` the tool given directly under
 * `name`, else deferred on server `admin` behind the bridge. The script's tool calls name the tool;
 * deferred, they become tool_call calls. Returns the result, the model's requests and the shelf.
 */
async function converse({ name, tool: real, deferred, calls, settings = {}, shelf: shelfInput = {}, generate = generateText, messages }) {
  const steps = calls.map((args) => (deferred ? { tool: "tool_call", arguments: { name, arguments: args } } : { tool: name, arguments: args }));
  const model = await startModelServer([...steps, { text: "finished" }, { text: "finished" }]);
  try {
    const shelf = deferred ? createToolshelf({ servers: { admin: { [name]: real, ...filler } }, ...shelfInput }) : undefined;
    const tools = deferred ? shelf.tools : { [name]: real };
    const base = { model: createOpenAI({ apiKey: "test", baseURL: `${model.url}/v1` }).chat("scripted"), tools, stopWhen: stepCountIs(calls.length + 2) };
    const prompt = messages ? { messages } : { prompt: "Do it." };
    const options = { ...base, ...prompt, ...(shelf ? { prepareStep: shelf.prepareStep } : {}), ...(typeof settings === "function" ? settings(shelf) : settings) };
    const result = generate(options);
    if (generate === streamText) {
      const parts = [];
      for await (const part of result.fullStream) parts.push(part);
      return { result, parts, requests: model.requests, shelf, text: await result.text, content: await result.content, response: await result.response };
    }
    const done = await result;
    return { result: done, requests: model.requests, shelf, text: done.text, content: done.content, response: done.response };
  } finally {
    await model.close();
  }
}

/** The tool results the model read, in order (text). */
const modelRead = (requests) => requests.at(-1).results.map((r) => r.content);
const approvalRequests = (content) => content.filter((p) => p.type === "tool-approval-request");

function deleteRepo(runs, needsApproval = true) {
  return tool({
    description: "Delete a repository for good.",
    inputSchema: z.object({ id: z.string() }),
    needsApproval,
    execute: async ({ id }) => { runs.push(id); return `deleted ${id}`; },
  });
}

test("approval: needsApproval true stops the SDK with one approval request, direct and through tool_call, generateText and streamText; nothing runs", async () => {
  for (const [deferred, generate] of [[false, generateText], [true, generateText], [false, streamText], [true, streamText]]) {
    const runs = [];
    const { content, requests } = await converse({ name: "delete_repo", tool: deleteRepo(runs), deferred, calls: [{ id: "prod" }], generate });
    assert.deepEqual(runs, [], `${deferred ? "deferred" : "direct"}: nothing ran before approval`);
    const asked = approvalRequests(content);
    assert.equal(asked.length, 1, `${deferred ? "deferred" : "direct"}: the SDK asked once`);
    assert.equal(asked[0].toolCall.toolName, deferred ? "tool_call" : "delete_repo");
    assert.deepEqual(asked[0].toolCall.input, deferred ? { name: "delete_repo", arguments: { id: "prod" } } : { id: "prod" });
    assert.equal(requests.length, 1, "the model was not called again");
  }
});

test("approval: approved runs once, denied runs nothing, as for the direct tool", async () => {
  for (const approved of [true, false]) {
    const read = {};
    for (const deferred of [false, true]) {
      const runs = [];
      const real = deleteRepo(runs);
      const first = await converse({ name: "delete_repo", tool: real, deferred, calls: [{ id: "prod" }] });
      const [request] = approvalRequests(first.content);
      const messages = [{ role: "user", content: "Do it." }, ...first.response.messages,
        { role: "tool", content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved, reason: approved ? undefined : "not prod" }] }];
      // The same shelf (its records of what the SDK asked) answers the resumed call.
      const model = await startModelServer([{ text: "never" }, { text: "finished" }]);
      try {
        await generateText({ model: createOpenAI({ apiKey: "test", baseURL: `${model.url}/v1` }).chat("scripted"), tools: deferred ? first.shelf.tools : { delete_repo: real }, messages, stopWhen: stepCountIs(3), ...(deferred ? { prepareStep: first.shelf.prepareStep } : {}) });
        read[deferred] = modelRead(model.requests);
      } finally {
        await model.close();
      }
      assert.deepEqual(runs, approved ? ["prod"] : [], `${deferred ? "deferred" : "direct"}, approved ${approved}`);
    }
    assert.deepEqual(read.true, read.false, `the model read the same result (approved ${approved})`);
  }
});

test("approval: needsApproval as a function sees the validated input; toolApproval by name; a generic toolApproval cannot skip it", async () => {
  const onlyProd = (input) => input.id === "prod";
  for (const deferred of [false, true]) {
    const runs = [];
    const dev = await converse({ name: "delete_repo", tool: deleteRepo(runs, onlyProd), deferred, calls: [{ id: "dev" }] });
    assert.deepEqual(runs, ["dev"], "dev needs no approval: it ran");
    assert.equal(approvalRequests(dev.content).length, 0);
    const prod = await converse({ name: "delete_repo", tool: deleteRepo(runs, onlyProd), deferred, calls: [{ id: "prod" }] });
    assert.deepEqual(runs, ["dev"], "prod waits for approval");
    assert.equal(approvalRequests(prod.content).length, 1);
  }
  // generateText's toolApproval names the tool; deferred, the same configuration goes to createToolshelf
  // and shelf.toolApproval is generateText's toolApproval.
  for (const deferred of [false, true]) {
    const runs = [];
    const config = { delete_repo: "user-approval" };
    const { content } = await converse({ name: "delete_repo", tool: deleteRepo(runs, undefined), deferred, calls: [{ id: "prod" }],
      shelf: { toolApproval: config }, settings: (shelf) => ({ toolApproval: shelf ? shelf.toolApproval : config }) });
    assert.deepEqual(runs, []);
    assert.equal(approvalRequests(content).length, 1, `${deferred}: asked`);
  }
  // A denied status: the SDK's own denial (shelf.toolApproval) or, without it, a refusal the model reads.
  for (const withSdk of [true, false]) {
    const runs = [];
    const { requests } = await converse({ name: "delete_repo", tool: deleteRepo(runs, undefined), deferred: true, calls: [{ id: "prod" }],
      shelf: { toolApproval: { delete_repo: { type: "denied", reason: "never in prod" } } }, settings: (shelf) => (withSdk ? { toolApproval: shelf.toolApproval } : {}) });
    assert.deepEqual(runs, []);
    if (!withSdk) assert.match(modelRead(requests)[0], /delete_repo was not run: its approval was denied \(never in prod\)/);
  }
  // A generic toolApproval of the caller's own never consults the bridge: the call is refused, not run.
  const runs = [];
  const { requests } = await converse({ name: "delete_repo", tool: deleteRepo(runs), deferred: true, calls: [{ id: "prod" }], settings: { toolApproval: () => "not-applicable" } });
  assert.deepEqual(runs, [], "no bypass through a generic toolApproval");
  assert.match(modelRead(requests)[0], /delete_repo needs approval before it runs/);
});

test("validation: the tool's own zod schema runs after toolshelf's; refine, default and transform as for the direct tool", async () => {
  const make = (runs) => tool({
    description: "Read a file under the project.",
    inputSchema: z.object({ path: z.string().refine((p) => !p.includes(".."), "no .. in paths"), limit: z.number().default(10), tag: z.string().transform((s) => s.toUpperCase()) }),
    execute: async (input) => { runs.push(input); return `read ${input.path}`; },
  });
  const read = {};
  for (const deferred of [false, true]) {
    const runs = [];
    const { requests } = await converse({ name: "read_path", tool: make(runs), deferred, calls: [{ path: "../../etc/passwd", tag: "x" }, { path: "src/a.rs", tag: "x" }] });
    assert.deepEqual(runs, [{ path: "src/a.rs", limit: 10, tag: "X" }], `${deferred}: the guard held, default and transform applied`);
    read[deferred] = modelRead(requests);
  }
  assert.match(read.true[0], /Invalid input for tool read_path.*no \.\. in paths/s);
  assert.deepEqual(read.true, read.false, "the model read the same error and result");
});

test("validation: a schema with a part JSON Schema cannot express keeps the rest, with a warning; the tool's validation applies", async () => {
  const runs = [];
  const event = tool({ description: "Schedule an event.", inputSchema: z.object({ at: z.date(), title: z.string() }), execute: async (input) => { runs.push(input); return "ok"; } });
  const shelf = createToolshelf({ servers: { cal: { schedule: event, ...filler } } });
  assert.match(shelf.assembly.warnings.join("\n"), /toolshelf\/ai: server "cal", tool "schedule": parts of its input schema cannot be written as JSON Schema/);
  const described = JSON.parse(await shelf.tools.tool_describe.execute({ name: "schedule" }, { toolCallId: "d", messages: [] }));
  assert.deepEqual(Object.keys(described.parameters.properties), ["at", "title"], "tool_describe shows the parameters");
  const rejected = await shelf.tools.tool_call.execute({ name: "schedule", arguments: { at: 42, title: 7 } }, { toolCallId: "c", messages: [] });
  assert.match(rejected, /title/, "toolshelf's own check sees title");
  await assert.rejects(shelf.tools.tool_call.execute({ name: "schedule", arguments: { at: 42, title: "t" } }, { toolCallId: "c2", messages: [] }), /Invalid input for tool schedule/);
  assert.deepEqual(runs, []);
  // A Standard Schema (not zod) and jsonSchema() with validate: their validation and transforms apply too.
  const seen = [];
  const standard = { "~standard": { version: 1, vendor: "custom", validate: (v) => (typeof v?.n === "number" ? { value: { n: v.n * 2 } } : { issues: [{ message: "n must be a number" }] }), jsonSchema: { input: () => ({ type: "object", properties: { n: {} } }) } } };
  const withValidate = jsonSchema({ type: "object", properties: { s: {} } }, { validate: (v) => (typeof v?.s === "string" ? { success: true, value: { s: v.s.trim() } } : { success: false, error: new Error("s must be text") }) });
  const other = createToolshelf({ servers: { x: { double: tool({ description: "d", inputSchema: standard, execute: async (i) => { seen.push(i); return "ok"; } }), trim: tool({ description: "t", inputSchema: withValidate, execute: async (i) => { seen.push(i); return "ok"; } }), ...filler } } });
  await other.tools.tool_call.execute({ name: "double", arguments: { n: 2 } }, { toolCallId: "a", messages: [] });
  await other.tools.tool_call.execute({ name: "trim", arguments: { s: " x " } }, { toolCallId: "b", messages: [] });
  await assert.rejects(other.tools.tool_call.execute({ name: "double", arguments: { n: "2" } }, { toolCallId: "c", messages: [] }), /n must be a number/);
  assert.deepEqual(seen, [{ n: 4 }, { s: "x" }]);
});

test("output: toModelOutput, a generator execute and the tool's context reach the model as for the direct tool", async () => {
  const rendered = tool({ description: "Take a screenshot.", inputSchema: z.object({}), execute: async () => ({ pixels: "AAAA" }), toModelOutput: ({ output, input }) => ({ type: "text", value: `an image of ${output.pixels.length} bytes for ${JSON.stringify(input)}` }) });
  const streaming = tool({ description: "Build the project.", inputSchema: z.object({}), async *execute() { yield "compiling"; yield "built in 3 steps"; } });
  const contextual = tool({ description: "Who am I.", inputSchema: z.object({}), contextSchema: z.object({ user: z.string() }), execute: async (_, { context }) => `you are ${context.user}` });
  for (const [name, real, generate] of [["screenshot", rendered, generateText], ["build", streaming, streamText], ["whoami", contextual, generateText]]) {
    const got = {};
    for (const deferred of [false, true]) {
      const run = await converse({ name, tool: real, deferred, calls: [{}], generate, settings: { toolsContext: { [name]: { user: "ada" } } } });
      got[deferred] = { read: modelRead(run.requests), preliminary: (run.parts ?? []).filter((p) => p.type === "tool-result" && p.preliminary).map((p) => p.output) };
    }
    assert.deepEqual(got.true, got.false, `${name}: same model-visible result (and preliminary results)`);
  }
});

test("onCall sees direct tools (server undefined) and can decline them; a server named builtin does not take the deferred direct tools", async () => {
  const runs = [];
  const mk = (label) => tool({ description: `${label}.`, inputSchema: jsonSchema({ type: "object" }), execute: async () => { runs.push(label); return label; } });
  const seen = [];
  const shelf = createToolshelf({
    tools: { delete_file: mk("direct delete_file"), x: mk("direct x") },
    servers: { builtin: { x: mk("server x"), ...filler } },
    options: { defer: ["x"] },
    onCall: (call) => { seen.push([call.server, call.tool, call.name]); return call.tool === "delete_file" ? "declined" : undefined; },
  });
  assert.equal(await shelf.tools.delete_file.execute({}, { toolCallId: "1", messages: [] }), "declined");
  assert.equal(shelf.tools.delete_file.description, "direct delete_file.", "the wrapped direct tool keeps its properties");
  assert.match(shelf.assembly.warnings.join("\n"), /server "builtin" is named "builtin_2"/);
  // Both x tools by the names the package shows: the deferred direct one under the core's pseudo-server, the server's under its new name.
  const shown = Object.fromEntries(shelf.shelf.search("x", { limit: 50 }).matches.filter((m) => m.server.startsWith("builtin")).map((m) => [m.server, m.name]));
  assert.deepEqual(Object.keys(shown).sort(), ["builtin", "builtin_2"], "one x per server: the renamed server does not take the deferred direct x");
  assert.notEqual(shown.builtin, shown.builtin_2);
  assert.match(await shelf.tools.tool_call.execute({ name: "x", arguments: {} }, { toolCallId: "1b", messages: [] }), /names several tools/, "the short form two tools answer to runs nothing");
  assert.equal(await shelf.tools.tool_call.execute({ name: shown.builtin, arguments: {} }, { toolCallId: "2", messages: [] }), "direct x");
  assert.equal(await shelf.tools.tool_call.execute({ name: shown.builtin_2, arguments: {} }, { toolCallId: "3", messages: [] }), "server x");
  assert.deepEqual(runs, ["direct x", "server x"], "the declined direct tool ran nothing");
  assert.deepEqual(seen, [[undefined, "delete_file", "delete_file"], [undefined, "x", shown.builtin], ["builtin", "x", shown.builtin_2]]);
});

/** A JSON Schema nested `depth` levels. */
function deepSchema(depth) {
  const root = { type: "object" };
  let at = root;
  for (let i = 0; i < depth; i++) at = (at.properties = { a: { type: "object" } }).a;
  return root;
}

test("isolation: bad servers are left out with a warning naming each; the others work, in createToolshelf and in prepareStep", async () => {
  const runs = [];
  const good = { ping: tool({ description: "Ping the host.", inputSchema: jsonSchema({ type: "object" }), execute: async () => { runs.push("ping"); return "pong"; } }), ...filler };
  const bad = {
    empty: { "": tool({ description: "x", inputSchema: jsonSchema({ type: "object" }), execute: async () => "x" }) },
    impostor: { mcp__good__ping: tool({ description: "x", inputSchema: jsonSchema({ type: "object" }), execute: async () => "x" }) },
    deep: { d: tool({ description: "x", inputSchema: jsonSchema(deepSchema(140)), execute: async () => "x" }) },
  };
  const shelf = createToolshelf({ servers: { ...bad, good } });
  const warnings = shelf.assembly.warnings.join("\n");
  for (const name of Object.keys(bad)) assert.match(warnings, new RegExp(`server "${name}" left out`), warnings);
  assert.equal(await shelf.tools.tool_call.execute({ name: "ping", arguments: {} }, { toolCallId: "p", messages: [] }), "pong");
  // Two servers whose names once qualified to the same name (SPEC §16): both served, each by its own shown name.
  const clash = createToolshelf({ servers: { "git hub": good, git_hub: { ...good } }, options: { qualify: true } });
  assert.doesNotMatch(clash.assembly.warnings.join("\n"), /left out/);
  const pings = Object.fromEntries(clash.shelf.search("ping", { limit: 50 }).matches.filter((m) => m.description === "Ping the host.").map((m) => [m.server, m.name]));
  assert.deepEqual(Object.keys(pings).sort(), ["git hub", "git_hub"]);
  assert.notEqual(pings["git hub"], pings.git_hub);
  for (const [server, name] of Object.entries(pings)) assert.equal(await clash.tools.tool_call.execute({ name, arguments: {} }, { toolCallId: `q ${server}`, messages: [] }), "pong");
  // Attached mid-run through servers(): generateText completes, the bad server left out.
  let attached = { good };
  const live = createToolshelf({ servers: () => attached });
  const model = await startModelServer([{ tool: "tool_call", arguments: { name: "ping", arguments: {} } }, { text: "done" }]);
  try {
    const result = await generateText({ model: createOpenAI({ apiKey: "test", baseURL: `${model.url}/v1` }).chat("scripted"), prompt: "ping", tools: live.tools, prepareStep: live.prepareStep, stopWhen: stepCountIs(3),
      onStepFinish: () => { attached = { good, deep: bad.deep }; } });
    assert.equal(result.text, "done");
  } finally {
    await model.close();
  }
  assert.match(live.assembly.warnings.join("\n"), /server "deep" left out/);
  assert.deepEqual(runs, ["ping", "ping", "ping", "ping"]);
});

test("update: a failed update leaves the adapter as it was; a kept .shelf works after re-assembly", async () => {
  const ping = tool({ description: () => "Ping the host, described by a function.", inputSchema: jsonSchema({ type: "object" }), execute: async () => "pong" });
  const shelf = createToolshelf({ servers: { net: { ping, ...filler } } });
  assert.match(shelf.tools.tool_search.description, /Ping the host, described by a function/, "description as a function");
  const kept = shelf.shelf;
  const before = shelf.assembly;
  assert.throws(() => shelf.update(() => { throw new Error("cannot list"); }), /cannot list/);
  assert.equal(shelf.assembly, before, "still the last assembly");
  shelf.prepareStep({});
  assert.equal(await shelf.tools.tool_call.execute({ name: "ping", arguments: {} }, { toolCallId: "a", messages: [] }), "pong");
  shelf.update({ other: { ...filler } });
  assert.equal(kept.search("noop", { limit: 1 }).matches.length, 1, "the kept .shelf is usable after re-assembly");
  const servers = {};
  Object.defineProperty(servers, "__proto__", { value: { ping, ...filler }, enumerable: true });
  const proto = createToolshelf({ servers });
  assert.equal(await proto.tools.tool_call.execute({ name: "ping", arguments: {} }, { toolCallId: "b", messages: [] }), "pong", "a server named __proto__ is a server");
});

test("toolshelfSearch: candidates whose text holds \\0 or \\1 are not a stale index; a bad candidate is left out with a warning", () => {
  const warnings = [];
  const search = toolshelfSearch({ onWarning: (w) => warnings.push(w) });
  assert.deepEqual(search({ query: "alpha", tools: [{ name: "a", description: "alpha\u0001c\u0000delta" }] }), ["a"]);
  assert.ok(search({ query: "delta", tools: [{ name: "a", description: "alpha" }, { name: "c", description: "delta" }] }).includes("c"), "rebuilt for the new candidates");
  const tools = { d: tool({ description: "x", inputSchema: jsonSchema(deepSchema(140)) }) };
  const withBad = toolshelfSearch({ tools, onWarning: (w) => warnings.push(w) });
  assert.deepEqual(withBad({ query: "merge", tools: [{ name: "", description: "merge" }, { name: "d", description: "merge" }, { name: "merge_pr", description: "Merge a pull request." }] }), ["merge_pr"]);
  assert.equal(warnings.length, 2, warnings.join("\n"));
});

test("output: @ai-sdk/mcp's toModelOutput for server-everything's image tool reaches the model as for the direct tool", async () => {
  const { createMCPClient } = await import("@ai-sdk/mcp");
  const { everythingServer } = await import("./mcp-servers.mjs");
  const everything = everythingServer();
  const client = await createMCPClient({ transport: everything.transport() });
  try {
    const tools = await client.tools();
    assert.equal(typeof tools["get-tiny-image"].toModelOutput, "function", "@ai-sdk/mcp renders MCP content itself");
    const read = {};
    for (const deferred of [false, true]) {
      const steps = [deferred ? { tool: "tool_call", arguments: { name: "get-tiny-image", arguments: {} } } : { tool: "get-tiny-image", arguments: {} }, { text: "seen" }];
      const model = await startModelServer(steps);
      try {
        const shelf = deferred ? createToolshelf({ servers: { everything: tools } }) : undefined;
        await generateText({ model: createOpenAI({ apiKey: "test", baseURL: `${model.url}/v1` })("scripted"), prompt: "Show me.", tools: deferred ? shelf.tools : { "get-tiny-image": tools["get-tiny-image"] }, ...(shelf ? { prepareStep: shelf.prepareStep } : {}), stopWhen: stepCountIs(3) });
        read[deferred] = model.requests.at(-1).body.input.filter((i) => i.type === "function_call_output").map((i) => i.output);
      } finally {
        await model.close();
      }
    }
    assert.ok(JSON.stringify(read.false).includes("input_image"), `the direct tool's image reached the model as an image: ${JSON.stringify(read.false).slice(0, 200)}`);
    assert.deepEqual(read.true, read.false, "the same output items through the bridge");
  } finally {
    await client.close();
    await everything.close();
  }
});

test("input hooks: onInputStart and onInputAvailable are called for the real tool as generateText calls them for the direct tool", async () => {
  const got = {};
  for (const deferred of [false, true]) {
    const hooks = [];
    const real = tool({ description: "Write a file.", inputSchema: z.object({ path: z.string(), mode: z.string().default("w") }), execute: async () => "written",
      onInputStart: ({ toolCallId }) => { hooks.push(["start", toolCallId]); },
      onInputAvailable: ({ input, toolCallId }) => { hooks.push(["available", toolCallId, input]); } });
    await converse({ name: "write_file", tool: real, deferred, calls: [{ path: "a" }] });
    got[deferred] = hooks;
  }
  assert.deepEqual(got.false, [["start", "call_0"], ["available", "call_0", { path: "a", mode: "w" }]]);
  assert.deepEqual(got.true, got.false);
});

test("errors: a tool whose execute throws (plain or generator) reaches the model with the same error text as the direct tool", async () => {
  const plain = tool({ description: "Fails.", inputSchema: z.object({}), execute: async () => { throw new Error("disk full"); } });
  const streaming = tool({ description: "Fails midway.", inputSchema: z.object({}), async *execute() { yield "started"; throw new Error("disk full midway"); } });
  for (const [name, real] of [["fail", plain], ["fail_midway", streaming]]) {
    const read = {};
    for (const deferred of [false, true]) read[deferred] = modelRead((await converse({ name, tool: real, deferred, calls: [{}] })).requests);
    assert.match(read.false[0], /disk full/);
    assert.deepEqual(read.true, read.false, name);
  }
});
