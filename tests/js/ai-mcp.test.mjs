// toolshelf/ai straight from MCP servers: createToolshelf takes connected MCP SDK clients (by name,
// or a list named by their servers) or what toolshelf/mcp's mcpServers returns, and makes the
// ToolSets itself. Three real servers over stdio (server-everything, server-memory,
// server-filesystem on a scratch folder) behind the AI SDK's generateText and streamText with
// @ai-sdk/openai against the scripted model server: the model searches, calls a tool of each server
// (the call reaches that server, under the tool's own name), reads a failing call's error, and a
// slow call's progress reaches `onProgress`; an abort cancels a call on the server; a wrong shape
// (mcpServers' tool arrays alone, an array of tools) is a TypeError that says what was expected.
// The names the model calls are the ones the package shows (asked of it, not written here).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOpenAI } from "@ai-sdk/openai";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { generateText, stepCountIs, streamText } from "ai";
import { McpToolError, createToolshelf } from "toolshelf/ai";
import { mcpServers } from "toolshelf/mcp";
import { startModelServer } from "./model-server.mjs";
import { repoDir } from "./support.mjs";

const dir = mkdtempSync(join(tmpdir(), "toolshelf-ai-mcp-"));
const files = join(dir, "files");
mkdirSync(files);
writeFileSync(join(files, "notes.txt"), "first line\nsecond line\n");
const servers = join(repoDir, "node_modules", "@modelcontextprotocol");
/** The three reference servers as stdio commands. */
const SERVERS = {
  everything: [join(servers, "server-everything", "dist", "index.js"), "stdio"],
  memory: [join(servers, "server-memory", "dist", "index.js")],
  filesystem: [join(servers, "server-filesystem", "dist", "index.js"), files],
};

/** Every tools/call that went out, by server (recorded on the client's transport). */
const sent = { everything: [], memory: [], filesystem: [] };
let clients;

async function connect(name) {
  const transport = new StdioClientTransport({
    command: process.execPath, args: SERVERS[name], env: { ...process.env, MEMORY_FILE_PATH: join(dir, "memory.jsonl") }, stderr: "ignore",
  });
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (message?.method === "tools/call") sent[name].push(message.params.name);
    return send(message, options);
  };
  const client = new Client({ name: "toolshelf-ai-mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

before(async () => {
  clients = Object.fromEntries(await Promise.all(Object.keys(SERVERS).map(async (name) => [name, await connect(name)])));
});
after(() => Promise.all(Object.values(clients).map((c) => c.close())));

/** The name the model is shown for a server's tool, as the package gives it (an exact-name search). */
function shownName(toolshelf, server, tool) {
  const match = toolshelf.shelf.search(tool, { limit: 20 }).matches.find((m) => m.server === server);
  assert.ok(match, `${server}/${tool} is on the shelf`);
  return match.name;
}

let entities = 0;
/** The agent's conversation: a search, a call on each server, a failing call, a slow call, the answer. */
function script(toolshelf) {
  const entity = `project-${++entities}`; // the memory server answers a known entity with []
  const name = (server, tool) => shownName(toolshelf, server, tool);
  return [
    { tool: "tool_search", arguments: { query: "read a text file" } },
    { tool: "tool_call", arguments: { name: name("filesystem", "read_text_file"), arguments: { path: join(files, "notes.txt") } } },
    { tool: "tool_call", arguments: { name: name("memory", "create_entities"), arguments: { entities: [{ name: entity, entityType: "project", observations: ["reads MCP servers"] }] } } },
    { tool: "tool_call", arguments: { name: name("everything", "get-sum"), arguments: { a: 2, b: 3 } } },
    { tool: "tool_call", arguments: { name: name("filesystem", "read_text_file"), arguments: { path: join(files, "missing.txt") } } },
    { tool: "tool_call", arguments: { name: name("everything", "trigger-long-running-operation"), arguments: { duration: 0.3, steps: 3 } } },
    { text: "Done." },
  ];
}

/** Runs the scripted agent with `servers` given to createToolshelf; returns what each side saw. */
async function agent(servers, generate) {
  for (const list of Object.values(sent)) list.length = 0;
  const hooks = [];
  const progress = [];
  const toolshelf = createToolshelf({
    servers,
    options: { contextLength: 200_000 },
    onCall: (call) => { hooks.push([call.server, call.tool]); },
    onProgress: (p, call) => progress.push([call.server, call.tool, p.progress, p.total]),
  });
  await toolshelf.prepareStep(); // the clients' tools are listed before the first step
  const steps = script(toolshelf);
  const model = await startModelServer(steps);
  try {
    const result = await generate({
      model: createOpenAI({ apiKey: "test", baseURL: `${model.url}/v1` }).chat("scripted"),
      prompt: "Read my notes, remember the project, add 2 and 3.",
      tools: toolshelf.tools,
      prepareStep: toolshelf.prepareStep,
      stopWhen: stepCountIs(steps.length + 1),
    });
    return { text: await result.text, requests: model.requests, hooks, progress, toolshelf };
  } finally {
    await model.close();
  }
}

function checkAgent({ text, requests, hooks, progress }) {
  assert.equal(text, "Done.");
  const result = (i) => requests[i].results.at(-1).content;
  assert.match(result(1), /read_text_file/, "the search found the filesystem's tool");
  assert.match(result(2), /first line/, "the file's text reached the model");
  assert.match(result(3), /project-\d+/, "the memory server's answer reached the model");
  assert.match(result(4), /The sum of 2 and 3 is 5/, "server-everything's answer reached the model");
  assert.match(result(5), /missing\.txt|ENOENT|no such file/i, "the failing call's error reached the model");
  assert.match(result(6), /Long running operation completed/);
  assert.deepEqual(hooks, [["filesystem", "read_text_file"], ["memory", "create_entities"], ["everything", "get-sum"],
    ["filesystem", "read_text_file"], ["everything", "trigger-long-running-operation"]], "hooks saw the real tools");
  assert.deepEqual(sent, {
    everything: ["get-sum", "trigger-long-running-operation"], memory: ["create_entities"], filesystem: ["read_text_file", "read_text_file"],
  }, "each call went to its own server, under the tool's own name");
  assert.ok(progress.length >= 1, "the slow call's first progress (two steps before its result) reached onProgress");
  for (const [server, tool, step, total] of progress) assert.deepEqual([server, tool, total], ["everything", "trigger-long-running-operation", 3], String(step));
}

test("createToolshelf with MCP SDK clients by name: generateText over three real servers", async () => {
  checkAgent(await agent({ everything: clients.everything, memory: clients.memory, filesystem: clients.filesystem }, generateText));
});

test("createToolshelf with what mcpServers returns: streamText over the same servers", async () => {
  checkAgent(await agent(await mcpServers(clients), streamText));
});

test("createToolshelf with a list of clients, named by their servers", async () => {
  const toolshelf = createToolshelf({ servers: Object.values(clients) });
  await toolshelf.prepareStep();
  const listed = toolshelf.assembly.servers.map((s) => s.name).sort();
  assert.equal(listed.length, 3, listed.join(", "));
  for (const client of Object.values(clients)) assert.ok(listed.includes(client.getServerVersion().name), client.getServerVersion().name);
});

test("an abort signal cancels a call on its server: the step's error is an McpToolError saying so", async () => {
  const toolshelf = createToolshelf({ servers: await mcpServers({ everything: clients.everything }) });
  const controller = new AbortController();
  const name = shownName(toolshelf, "everything", "trigger-long-running-operation");
  const run = toolshelf.tools.tool_call.execute(
    { name, arguments: { duration: 5, steps: 50 } },
    { toolCallId: "slow", messages: [], abortSignal: controller.signal },
  );
  setTimeout(() => controller.abort(new Error("the user stopped it")), 200);
  await assert.rejects(run, (error) => {
    assert.ok(error instanceof McpToolError, String(error));
    assert.match(error.message, /was cancelled on server "everything": the user stopped it/);
    assert.equal(error.result.isError, true);
    return true;
  });
});

test("a wrong shape is a TypeError that says what createToolshelf takes", async () => {
  const listing = await mcpServers({ everything: clients.everything });
  assert.throws(() => createToolshelf({ servers: listing.servers }),
    { name: "TypeError", message: /server "everything" is an array \(MCP tools\/list items\?\); expected an AI SDK ToolSet or a connected MCP client\. For mcpServers\(\)'s result, pass the whole result/ });
  assert.throws(() => createToolshelf({ servers: listing.servers.everything }), { name: "TypeError", message: /servers is an array of something other than MCP SDK clients; expected an object of servers by name/ });
  assert.throws(() => createToolshelf({ servers: "everything" }), { name: "TypeError", message: /servers is string; expected/ });
  assert.throws(() => createToolshelf({ tools: listing.servers.everything }), { name: "TypeError", message: /tools is an array; expected an AI SDK ToolSet/ });
});

test("servers as a function of mcpServers' result (as onToolsChanged renews it): the same lists assemble nothing again, a changed list re-assembles", async () => {
  let listing = await mcpServers(clients);
  const toolshelf = createToolshelf({ servers: () => listing, options: { contextLength: 200_000 } });
  const first = toolshelf.assembly;
  listing = { ...listing, servers: { ...listing.servers } }; // a new result holding the same lists
  toolshelf.prepareStep();
  assert.equal(toolshelf.assembly, first, "the same lists: nothing assembled again");
  const [kept] = listing.servers.memory;
  listing = { ...listing, servers: { ...listing.servers, memory: [kept] } }; // memory's tools/list changed
  toolshelf.prepareStep();
  assert.notEqual(toolshelf.assembly, first);
  assert.deepEqual(toolshelf.assembly.servers.find((s) => s.name === "memory")?.tools, 1);
});
