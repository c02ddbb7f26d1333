// Conversations through the adapters (SPEC §14), end to end on 127.0.0.1: multi-turn native
// sessions through toolshelf/ai with the real @ai-sdk/anthropic and @ai-sdk/openai providers
// (generateText and streamText) against the scripted model server, which answers with the
// providers' own 400 for what they refuse (a name outside ^[a-zA-Z0-9_-]{1,64}$, two tools of one
// name, a tool_reference to a tool the request does not define, a function never loaded). Behind
// the deferred tools, real MCP servers through the MCP SDK and toolshelf/mcp: `sentry`, whose tool
// names hold dots and slashes, then `github`, attached mid-session with a `list_issues` of its own
// too; sentry's tool list changes (notifications/tools/list_changed) and then it dies. The scripted
// model calls each tool by the name a search showed it (SPEC §16) and keeps using it: each name
// keeps its tool; the dead server's tool answers with toolshelf's `unavailable_tool` reject as a
// tool result; nothing 400s and nothing throws into the loop.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI, openai as openaiProvider } from "@ai-sdk/openai";
import { createAnthropicNativeToolshelf, createOpenAINativeToolshelf, createToolshelf } from "toolshelf/ai";
import { mcpServers } from "toolshelf/mcp";
import { pick, startModelServer, startNativeModelServer } from "./model-server.mjs";
import { toolServer } from "./mcp-servers.mjs";
import { catalog } from "./support.mjs";

const mcpTool = (name, description, param) => ({ name, description, inputSchema: { type: "object", properties: { [param]: { type: "string" } }, required: [param] } });
const SENTRY = [
  mcpTool("events.search", "Search Sentry events matching a query.", "query"),
  mcpTool("sentry/find_projects", "Find the Sentry projects of an organization.", "org"),
  mcpTool("list_issues", "List the Sentry issues of a project.", "project"),
];
const SENTRY_CHANGED = [...SENTRY, mcpTool("events.count", "Count the Sentry events matching a query.", "query")];
const GITHUB = [mcpTool("list_issues", "List the GitHub issues of a repository.", "repo"), mcpTool("Github.Get File", "Get a file of a GitHub repository.", "path")];

// How the model knows each tool: its description (the scripted model picks a tool the search
// loaded by it, and calls it by the name it was shown, SPEC §16).
const KNOWN = {
  find: "Find the Sentry projects", search: "Search Sentry events", issues: "List the Sentry issues",
  file: "Get a file of a GitHub", count: "Count the Sentry events",
};

/**
 * A scripted model that remembers the tool it picked by each description when it first called it
 * (`learned[key]`: its name, and its Responses namespace, as shown). `call(key, args)` is a step calling that tool.
 */
function learner(provider) {
  const learned = {};
  const call = (key, args) => (shown) => {
    const { name, namespace } = (learned[key] ??= pick(shown, KNOWN[key]));
    return provider === "anthropic" ? { tool: name, arguments: args } : { tool: name, namespace, arguments: args };
  };
  const search = (query) => (provider === "anthropic" ? { tool: "tool_search", arguments: { query } } : { search: { query } });
  return { learned, call, search };
}

/** Two user turns; github is attached before the last step of the first (the namespaces are Responses'). */
function sessionScript(provider) {
  const { learned, call, search } = learner(provider);
  const script = [
    search("find sentry projects"),
    call("find", { org: "acme" }),
    search("events.search"),
    call("search", { query: "crash" }),
    search("list_issues"),
    call("issues", { project: "web" }),
    // github attached before this step (it has a list_issues too).
    { text: "Turn one done." },
    // Turn two.
    call("issues", { project: "api" }), // the name the model learned: still sentry's
    search("Github.Get File"),
    call("file", { path: "README.md" }),
    // sentry's tool list changed (events.count added) before this step.
    search("events.count"),
    call("count", { query: "crash" }),
    // sentry died before this step: its tool is unavailable, told as a tool result.
    call("search", { query: "again" }),
    { text: "Turn two done." },
  ];
  return { script, learned };
}

/**
 * Real MCP servers behind toolshelf/mcp, given to toolshelf/ai as mcpServers' result (the same list
 * while a server's tools are the same), which makes them AI SDK tools whose execute is callMcpTool. `attach(name)` connects and watches
 * a server; `changed(server, reason)` resolves on toolshelf/mcp's next such onToolsChanged.
 */
function mcpWorld() {
  const servers = { sentry: toolServer("sentry", SENTRY), github: toolServer("github", GITHUB) };
  const clients = {};
  const lists = {};
  const changes = [];
  const waiting = [];
  const unwatch = [];
  const onToolsChanged = (change) => {
    changes.push([change.server, change.reason]);
    if (change.tools) lists[change.server] = change.tools;
    else delete lists[change.server];
    for (const w of waiting.splice(0)) {
      if (w.server === change.server && w.reason === change.reason) w.resolve();
      else waiting.push(w);
    }
  };
  return {
    servers,
    changes,
    async attach(name) {
      clients[name] = await servers[name].client();
      const listed = await mcpServers({ [name]: clients[name] }, { onToolsChanged });
      Object.assign(lists, listed.servers);
      unwatch.push(listed.unwatch);
    },
    changed: (server, reason) => new Promise((resolve) => waiting.push({ server, reason, resolve })),
    // mcpServers' result as it is now: toolshelf/ai makes each list's ToolSet (once per list), calls through callMcpTool.
    toolSets: () => ({ servers: { ...lists }, clients, warnings: [] }),
    async close() {
      unwatch.forEach((f) => f?.());
      await Promise.all(Object.values(clients).map((c) => c.close().catch(() => {})));
      await Promise.all(Object.values(servers).map((s) => s.die()));
    },
  };
}

/** What happens before a step of the session (its index over both turns): the attach, the change, the death. */
async function events(world, step, attached) {
  if (step === 6) {
    await world.attach("github");
    await attached?.();
  }
  if (step === 10) {
    const done = world.changed("sentry", "list_changed");
    await world.servers.sentry.setTools(SENTRY_CHANGED);
    await done;
  }
  if (step === 12) {
    const done = world.changed("sentry", "closed");
    await world.servers.sentry.die();
    await done;
  }
}

/** One generateText or streamText call; its text and response messages. */
async function turn(stream, options) {
  if (!stream) {
    const result = await generateText(options);
    return { text: result.text, messages: result.responseMessages };
  }
  const result = streamText(options);
  return { text: await result.text, messages: await result.responseMessages };
}

/** What every session shows, whatever the provider. */
function checkSession(world, model, texts, unavailable) {
  assert.ok(model.requests.every((r) => r.status === 200), model.requests.map((r) => r.error).filter(Boolean).join("; "));
  assert.deepEqual(texts, ["Turn one done.", "Turn two done."]);
  assert.deepEqual(world.servers.sentry.calls.map(({ name, arguments: a }) => [name, a]), [
    ["sentry/find_projects", { org: "acme" }], ["events.search", { query: "crash" }], ["list_issues", { project: "web" }],
    ["list_issues", { project: "api" }], ["events.count", { query: "crash" }],
  ], "each sentry tool ran once as called, list_issues after the clash too, nothing after its death");
  assert.deepEqual(world.servers.github.calls.map(({ name, arguments: a }) => [name, a]), [["Github.Get File", { path: "README.md" }]]);
  assert.deepEqual(world.changes, [["sentry", "list_changed"], ["sentry", "closed"]], "toolshelf/mcp read the list change and the close");
  assert.match(unavailable, /no longer available/i, unavailable);
  assert.ok(unavailable.length < 1000, "a short reject, not a listing");
}

for (const stream of [false, true]) {
  test(`@ai-sdk/anthropic, ${stream ? "streamText" : "generateText"}: a two-turn native session with MCP names, an attach, a list change and a dead server`, async () => {
    const world = mcpWorld();
    await world.attach("sentry");
    const { script, learned } = sessionScript("anthropic");
    const model = await startNativeModelServer(script);
    try {
      let step = 0;
      const shelf = createAnthropicNativeToolshelf({ servers: async () => world.toolSets(), options: { contextLength: 200_000 } });
      const base = {
        model: createAnthropic({ apiKey: "test", baseURL: `${model.url}/v1` })("scripted"), maxOutputTokens: 512, maxRetries: 0,
        tools: shelf.tools, repairToolCall: shelf.repairToolCall, stopWhen: stepCountIs(12),
        prepareStep: async (options) => {
          await events(world, step++);
          return shelf.prepareStep(options);
        },
      };
      const messages = [{ role: "user", content: "Find the projects, search crash events, list the web issues." }];
      const one = await turn(stream, { ...base, messages });
      messages.push(...one.messages, { role: "user", content: "Now the api issues, the README, count the crashes, search again." });
      const two = await turn(stream, { ...base, messages });
      const results = model.requests.at(-1).body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === "tool_result");
      const unavailable = results.at(-1).content;
      checkSession(world, model, [one.text, two.text], typeof unavailable === "string" ? unavailable : JSON.stringify(unavailable));
      // After github's attach, sentry's list_issues is still carried under the name the model learned;
      // github's (never searched) is never sent loaded.
      const afterAttach = model.requests.slice(model.requests.findIndex((r) => r.tools.some((t) => t.name === learned.file.name)));
      assert.ok(afterAttach.length > 0 && afterAttach.every((r) => r.tools.some((t) => t.name === learned.issues.name && t.defer_loading)), "list_issues carried under its learned name");
      assert.ok(model.requests.every((r) => r.tools.every((t) => !t.description?.startsWith("List the GitHub issues") || t.defer_loading)), "github's never sent loaded");
      // After the death: the stand-in (deferred, no parameters) keeps the history's reference defined.
      const last = model.requests.at(-1).tools.find((t) => t.name === learned.search.name);
      assert.ok(last?.defer_loading, JSON.stringify(model.requests.at(-1).tools.map((t) => t.name)));
      assert.ok(model.requests.every((r) => r.tools.filter((t) => t.defer_loading).length <= 8), "only what the conversation loaded is sent");
    } finally {
      await model.close();
      await world.close();
    }
  });

  test(`@ai-sdk/openai (Responses), ${stream ? "streamText" : "generateText"}: a two-turn native session with MCP names, an attach by update(), a list change and a dead server`, async () => {
    const world = mcpWorld();
    await world.attach("sentry");
    const { script, learned } = sessionScript("responses");
    const model = await startNativeModelServer(script);
    try {
      let step = 0;
      const shelf = createOpenAINativeToolshelf({ toolSearch: openaiProvider.tools.toolSearch, servers: world.toolSets(), options: { contextLength: 200_000 } });
      const base = {
        model: createOpenAI({ apiKey: "test", baseURL: `${model.url}/v1` })("scripted"), maxRetries: 0,
        tools: shelf.tools, repairToolCall: shelf.repairToolCall, stopWhen: stepCountIs(12),
        prepareStep: async (options) => {
          // github attached through update(), from then on read before every step
          await events(world, step++, () => shelf.update(async () => world.toolSets()));
          return shelf.prepareStep(options);
        },
      };
      const messages = [{ role: "user", content: "Find the projects, search crash events, list the web issues." }];
      const one = await turn(stream, { ...base, messages });
      messages.push(...one.messages, { role: "user", content: "Now the api issues, the README, count the crashes, search again." });
      // Both list_issues in the ToolSet after the attach, sentry's under the name the model learned.
      const issueTools = Object.entries(shelf.tools).filter(([, t]) => /^List the (Sentry|GitHub) issues/.test(t.description ?? "")).map(([name]) => name);
      assert.equal(issueTools.length, 2, `${Object.keys(shelf.tools)}`);
      assert.ok(issueTools.includes(learned.issues.name), `sentry's keeps its name: ${Object.keys(shelf.tools)}`);
      const two = await turn(stream, { ...base, messages });
      const input = model.requests.at(-1).body.input;
      const outputs = input.filter((i) => i.type === "function_call_output");
      const unavailable = outputs.at(-1).output;
      checkSession(world, model, [one.text, two.text], typeof unavailable === "string" ? unavailable : JSON.stringify(unavailable));
      const loaded = input.filter((i) => i.type === "tool_search_output").flatMap((o) => o.tools.flatMap((n) => n.tools.map((f) => `${n.name}.${f.name}`)));
      const called = ["find", "search", "issues", "file", "count"].map((key) => learned[key]);
      assert.deepEqual(called.map((t) => t.namespace), ["sentry", "sentry", "sentry", "github", "sentry"]);
      assert.deepEqual(loaded, called.map((t) => `${t.namespace}.${t.name}`), "each search loaded one tool, by the name the model called it");
      for (const t of called) assert.match(t.name, /^[a-zA-Z0-9_-]{1,64}$/);
    } finally {
      await model.close();
      await world.close();
    }
  });
}

// MCP names outside the providers' pattern, over a nine-step loop: each search loads the tool by
// the core's provider name, the ToolSet holds that name, and the real tool runs under its own.
const ANT = "Ant Design Components";

function namesScript(provider) {
  const { learned, call, search } = learner(provider);
  const script = [
    search("events.search"), call("search", { query: "crash" }),
    search("sentry/find_projects"), call("find", { org: "acme" }),
    search("Github.Get File"), call("file", { path: "README.md" }),
    call("search", { query: "second" }), call("find", { org: "beta" }),
    { text: "All done." },
  ];
  return { script, learned };
}

for (const [provider, stream] of [["anthropic", false], ["anthropic", true], ["responses", false], ["responses", true]]) {
  test(`${provider === "anthropic" ? "@ai-sdk/anthropic" : "@ai-sdk/openai"}, ${stream ? "streamText" : "generateText"}: tools named events.search, sentry/find_projects and Github.Get File (server "${ANT}") over a nine-step native loop`, async () => {
    const runs = [];
    const set = (list) => Object.fromEntries(list.map((t) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema), execute: async (args) => { runs.push([t.name, args]); return `${t.name} ran`; } })]));
    const servers = { sentry: set(SENTRY), [ANT]: set(GITHUB) };
    const hooks = [];
    const { script, learned } = namesScript(provider);
    const model = await startNativeModelServer(script);
    try {
      const onCall = (call) => { hooks.push([call.server, call.tool, call.name]); };
      const shelf = provider === "anthropic"
        ? createAnthropicNativeToolshelf({ servers, onCall, options: { contextLength: 200_000 } })
        : createOpenAINativeToolshelf({ toolSearch: openaiProvider.tools.toolSearch, servers, onCall, options: { contextLength: 200_000 } });
      const { text } = await turn(stream, {
        model: provider === "anthropic" ? createAnthropic({ apiKey: "test", baseURL: `${model.url}/v1` })("scripted") : createOpenAI({ apiKey: "test", baseURL: `${model.url}/v1` })("scripted"),
        prompt: "go", maxOutputTokens: 512, maxRetries: 0, tools: shelf.tools, prepareStep: shelf.prepareStep, stopWhen: stepCountIs(10),
      });
      assert.ok(model.requests.every((r) => r.status === 200), model.requests.map((r) => r.error).filter(Boolean).join("; "));
      assert.equal(text, "All done.");
      assert.equal(model.requests.length, 9);
      assert.deepEqual(runs, [["events.search", { query: "crash" }], ["sentry/find_projects", { org: "acme" }], ["Github.Get File", { path: "README.md" }],
        ["events.search", { query: "second" }], ["sentry/find_projects", { org: "beta" }]], "each real tool ran under its own name");
      assert.deepEqual(hooks.map(([server, own]) => [server, own]), runs.map(([name]) => [name === "Github.Get File" ? ANT : "sentry", name]), "onCall sees the server and the tool's own name");
      assert.deepEqual(hooks.map(([, , name]) => name), ["search", "find", "file", "search", "find"].map((key) => learned[key].name), "and the name the model called");
      for (const { name } of [learned.search, learned.find, learned.file]) {
        assert.match(name, /^[a-zA-Z0-9_-]{1,64}$/);
        assert.ok(Object.hasOwn(shelf.tools, name), `the ToolSet holds ${name}`);
      }
      if (provider === "responses") assert.match(learned.file.namespace, /^[a-zA-Z0-9_-]{1,64}$/, "the server's name as a valid namespace");
    } finally {
      await model.close();
    }
  });
}

// A wrong name: the model reads a short error, never a listing of every deferred tool.

/** The GitHub catalog (117 tools) as AI SDK tools. */
function githubToolSet(runs) {
  return Object.fromEntries(catalog("github-mcp-server").map(({ tool: t }) => {
    const f = t.function ?? t;
    return [f.name, tool({ description: f.description, inputSchema: jsonSchema({ type: "object", ...(f.parameters ?? {}) }), execute: async (args) => { runs.push([f.name, args]); return `${f.name} ran`; } })];
  }));
}

for (const provider of ["responses", "anthropic"]) {
  test(`${provider === "anthropic" ? "@ai-sdk/anthropic" : "@ai-sdk/openai"}: a wrong tool name reads as a short error (activeTools), and with repairToolCall as toolshelf's reject or the tool it stands for`, async () => {
    const runs = [];
    const servers = { github: githubToolSet(runs), sentry: Object.fromEntries(SENTRY.map((t) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema), execute: async (args) => { runs.push([t.name, args]); return `${t.name} ran`; } })])) };
    const anthropic = provider === "anthropic";
    const script = [
      anthropic ? { tool: "tool_search", arguments: { query: "events.search" } } : { search: { query: "events.search" } },
      { tool: "delete_everything", arguments: {}, unchecked: true }, // a name no tool has
      { tool: "events.search", arguments: { query: "q" }, unchecked: true }, // a loaded tool by its own name, not the name it was loaded by
      { text: "done" },
    ];
    const read = {};
    for (const repair of [false, true]) {
      runs.length = 0;
      const model = await startNativeModelServer(script);
      try {
        const shelf = anthropic
          ? createAnthropicNativeToolshelf({ servers, options: { contextLength: 200_000 } })
          : createOpenAINativeToolshelf({ toolSearch: openaiProvider.tools.toolSearch, servers, options: { contextLength: 200_000 } });
        const result = await generateText({
          model: anthropic ? createAnthropic({ apiKey: "test", baseURL: `${model.url}/v1` })("scripted") : createOpenAI({ apiKey: "test", baseURL: `${model.url}/v1` })("scripted"),
          prompt: "go", maxOutputTokens: 256, maxRetries: 0, tools: shelf.tools, prepareStep: shelf.prepareStep, stopWhen: stepCountIs(6),
          ...(repair ? { repairToolCall: shelf.repairToolCall } : {}),
        });
        assert.equal(result.text, "done");
        assert.ok(model.requests.every((r) => r.status === 200), model.requests.map((r) => r.error).join("; "));
        read[repair] = anthropic
          ? model.requests.at(-1).body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === "tool_result").slice(1).map((b) => (typeof b.content === "string" ? b.content : JSON.stringify(b.content)))
          : model.requests.at(-1).body.input.filter((i) => i.type === "function_call_output").map((i) => (typeof i.output === "string" ? i.output : JSON.stringify(i.output)));
        read[`runs${repair}`] = [...runs];
      } finally {
        await model.close();
      }
    }
    for (const text of [...read.false, ...read.true]) {
      assert.ok(text.length < 600, `short: ${text.length} characters: ${text.slice(0, 300)}`);
      assert.ok(!text.includes("merge_pull_request") && !text.includes("create_issue"), `no listing of the deferred tools: ${text.slice(0, 300)}`);
    }
    assert.match(read.false[0], /unavailable tool 'delete_everything'/, "the SDK's own error, over the step's tools only");
    assert.match(read.true[0], /delete_everything/);
    assert.match(read.true[0], /tool_search/, "toolshelf's reject says how to find a tool");
    assert.deepEqual(read.runstrue, [["events.search", { query: "q" }]], "repaired: the own name ran the loaded tool");
    assert.deepEqual(read.runsfalse, [], "without repairToolCall nothing ran");
  });
}

// The bridge adapter: a name the model was shown keeps its tool across an attach (github's
// list_issues beside sentry's), the tool's own name is ambiguous once two servers have it (a reject
// naming both), and a detached server's tool is unavailable (not "no such tool").
test("createToolshelf: the bridge's tool_call routes by the name shown across an attach and a detach", async () => {
  const runs = [];
  const set = (server, tools) => Object.fromEntries(tools.map((t) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema), execute: async (args) => { runs.push([server, t.name, args]); return `${t.name} ran`; } })]));
  const sentry = set("sentry", SENTRY);
  const github = set("github", GITHUB);
  let current = { sentry };
  const shelf = createToolshelf({ servers: () => current });
  const learned = {};
  const call = (key, args) => (shown) => ({ tool: "tool_call", arguments: { name: (learned[key] ??= pick(shown, KNOWN[key]).name), arguments: args } });
  const script = [
    { tool: "tool_search", arguments: { query: "sentry projects" } },
    call("find", { org: "acme" }),
    call("issues", { project: "web" }),
    // github attached (it has a list_issues too): the name shown for sentry's is still sentry's
    call("issues", { project: "api" }),
    { tool: "tool_call", arguments: { name: "list_issues", arguments: { project: "app" } } }, // the own name two servers have
    // sentry detached
    call("find", { org: "acme" }),
    { text: "done" },
  ];
  const model = await startModelServer(script);
  try {
    let step = 0;
    const result = await generateText({
      model: createOpenAI({ apiKey: "test", baseURL: `${model.url}/v1` }).chat("scripted"), prompt: "go", tools: shelf.tools, prepareStep: shelf.prepareStep, stopWhen: stepCountIs(8),
      onStepFinish: () => {
        step++;
        if (step === 3) current = { sentry, github };
        if (step === 5) current = { github };
      },
    });
    assert.equal(result.text, "done");
    assert.deepEqual(runs, [["sentry", "sentry/find_projects", { org: "acme" }], ["sentry", "list_issues", { project: "web" }], ["sentry", "list_issues", { project: "api" }]]);
    const results = model.requests.at(-1).results.map((r) => r.content);
    const githubIssues = shelf.shelf.search("github issues").matches.find((m) => m.server === "github" && m.description.startsWith("List the GitHub issues")).name;
    assert.notEqual(githubIssues, learned.issues);
    assert.ok(results[4].includes(learned.issues) && results[4].includes(githubIssues), `a reject naming both: ${results[4]}`);
    assert.match(results.at(-1), /no longer available/i, results.at(-1));
  } finally {
    await model.close();
  }
});

// One adapter, two conversations whose steps interleave: a step never takes out a name the other
// conversation's step sends (a stand-in stays until the toolbox changes).
test("one adapter, two conversations: a step keeps the names another conversation's step sends", async () => {
  const set = (list) => Object.fromEntries(list.map((t) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema), execute: async () => "ran" })]));
  const sentry = set(SENTRY);
  const github = set(GITHUB);
  const reference = (name) => ({ type: "custom", providerOptions: { anthropic: { type: "tool-reference", toolName: name } } });
  // A conversation that loaded sentry's events.search under `shown`, the name its search gave it.
  const anthropicA = (shown) => [{ role: "user", content: "a" },
    { role: "assistant", content: [{ type: "tool-call", toolCallId: "s1", toolName: "tool_search", input: { query: "events.search" } }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId: "s1", toolName: "tool_search", output: { type: "content", value: [reference(shown)] } }] }];
  const responsesA = (shown) => [{ role: "user", content: "a" },
    { role: "assistant", content: [{ type: "tool-call", toolCallId: "s1", toolName: "tool_search", input: { arguments: { query: "events.search" }, call_id: "s1" } }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId: "s1", toolName: "tool_search", output: { type: "json", value: { tools: [{ type: "namespace", name: "sentry", description: "", tools: [{ type: "function", name: shown, parameters: {} }] }] } } }] }];
  const fresh = [{ role: "user", content: "b" }];
  for (const [name, make, conversationOf] of [
    ["anthropic", (servers) => createAnthropicNativeToolshelf({ servers }), anthropicA],
    ["responses", (servers) => createOpenAINativeToolshelf({ toolSearch: openaiProvider.tools.toolSearch, servers }), responsesA],
  ]) {
    let current = { sentry, github };
    const shelf = make(() => current);
    const shown = shelf.shelf.describe("events.search").name; // the name a search shows it under
    assert.ok(Object.hasOwn(shelf.tools, shown), `${name}: ${shown}`);
    const conversationA = conversationOf(shown);
    current = { github }; // sentry detached
    const a = await shelf.prepareStep({ messages: conversationA });
    assert.ok(a.activeTools.includes(shown), `${name}: the gone tool's name is sent: ${a.activeTools}`);
    const b = await shelf.prepareStep({ messages: fresh });
    assert.ok(!b.activeTools.includes(shown), name);
    for (const key of a.activeTools) assert.ok(Object.hasOwn(shelf.tools, key), `${name}: ${key} is still in the ToolSet after the other conversation's step`);
    const answer = await shelf.tools[shown].execute({ query: "x" }, { toolCallId: "c", messages: conversationA });
    assert.match(answer, /no longer available/, `${name}: ${answer}`);
  }
});
