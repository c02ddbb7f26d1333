// Issue 22: toolshelf/mcp against real MCP servers (the SDK's low-level `Server` over its
// InMemoryTransport, driven by the SDK's `Client`): hostile listings are bounded (pages, tools,
// the caller's signal), one failing or unusable server is left out with a warning while the others
// are listed, repeated tools are kept once, the `defer` pseudo-server name and `__proto__` stay
// names, and `callMcpTool` returns every failure of a call (JSON-RPC errors, timeouts, calls no
// client serves) as an `isError` result the loop can send back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { Shelf, ToolshelfError } from "toolshelf";
import { callMcpTool, listAllTools, mcpServers } from "toolshelf/mcp";
import { toolshelfError } from "./support.mjs";

const mcpTool = (name, extra = {}) => ({ name, description: `The ${name} tool.`, inputSchema: { type: "object" }, ...extra });

/** A connected SDK Client on an in-process SDK Server named `name` with these handlers. */
async function connect(name, { list, call }) {
  const server = new Server({ name, version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => list(request.params?.cursor));
  server.setRequestHandler(CallToolRequestSchema, (request) => (call ? call(request.params) : { content: [{ type: "text", text: `${request.params.name} ran` }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "toolshelf-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

/** A server whose every page names a new cursor (and one new tool): a listing without end. */
const endless = (name, pages = { count: 0 }) => connect(name, { list: (cursor) => { pages.count++; const n = Number(cursor ?? 0); return { tools: [mcpTool(`t${n}`)], nextCursor: String(n + 1) }; } });
const small = (name) => connect(name, { list: () => ({ tools: [mcpTool("ping"), mcpTool("echo")] }) });

test("listing is bounded: maxPages cuts an endless cursor with a warning; the caller's signal ends it", { timeout: 60_000 }, async () => {
  const pages = { count: 0 };
  const clients = { endless: await endless("endless", pages), ok: await small("ok") };
  const { servers, warnings } = await mcpServers(clients, { maxPages: 50 });
  assert.equal(pages.count, 50);
  assert.equal(servers.endless.length, 50);
  assert.deepEqual(servers.ok.map((t) => t.name), ["ping", "echo"]);
  assert.match(warnings.join("\n"), /server "endless": tools\/list cut off after 50 pages \(maxPages\)/);
  const byDefault = await mcpServers({ endless: await endless("endless") });
  assert.equal(byDefault.servers.endless.length, 1000, "1,000 pages by default");
  // A signal is not left holding a listener per page (the SDK's client adds one per request).
  const signal = new AbortController().signal;
  await mcpServers({ endless: await endless("endless") }, { maxPages: 30, signal });
  assert.equal(getEventListeners(signal, "abort").length, 0);
  // Without a page cap, an abort signal ends the listing (timers run between pages).
  await assert.rejects(mcpServers({ endless: await endless("endless") }, { maxPages: Infinity, signal: AbortSignal.timeout(200) }), { name: "TimeoutError" });
});

test("maxTools caps a server; a 200,000-tool page is read without RangeError, and the core says too_large", { timeout: 120_000 }, async () => {
  const many = Array.from({ length: 200_000 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: "object" } }));
  const client = { listTools: async () => ({ tools: many }), callTool: async () => ({ content: [] }) }; // a client as toolshelf/mcp sees one
  const capped = await mcpServers({ big: client });
  assert.equal(capped.servers.big.length, 10_000);
  assert.match(capped.warnings.join("\n"), /server "big": tools\/list cut off at 10000 tools \(maxTools\)/);
  const all = await mcpServers({ big: client }, { maxTools: Infinity });
  assert.equal(all.servers.big.length, 200_000);
  assert.throws(() => new Shelf({ servers: all.servers }), toolshelfError(ToolshelfError, "too_large", /200000 tools/));
});

test("isolation: a failing or unusable server is left out with a warning naming it; repeated tools are kept once", async () => {
  const failing = await connect("failing", { list: () => { throw new McpError(ErrorCode.InternalError, "listing broke"); } });
  const nameless = await connect("nameless", { list: () => ({ tools: [mcpTool("a"), { ...mcpTool("b"), name: "" }] }) });
  const impostor = await connect("impostor", { list: () => ({ tools: [mcpTool("mcp__ok__ping")] }) });
  const repeating = await connect("repeating", { list: (cursor) => (cursor ? { tools: [mcpTool("a"), mcpTool("c")] } : { tools: [mcpTool("a"), mcpTool("b")], nextCursor: "2" }) });
  const { servers, clients, warnings } = await mcpServers({ failing, nameless, impostor, repeating, ok: await small("ok") });
  assert.deepEqual(Object.keys(servers), ["repeating", "ok"]);
  assert.deepEqual(Object.keys(clients), ["repeating", "ok"]);
  const text = warnings.join("\n");
  assert.match(text, /server "failing" left out: tools\/list failed \(MCP error -32603: .*listing broke\)/);
  assert.match(text, /server "nameless" left out: a tool has no name/);
  assert.match(text, /server "impostor" left out: tool "mcp__ok__ping" has a qualified name/);
  assert.match(text, /server "repeating": 1 tool name\(s\) listed more than once, kept once: "a"/);
  assert.deepEqual(servers.repeating.map((t) => t.name), ["a", "b", "c"]);
  assert.ok(new Shelf({ servers }).assemble().deferredCount === 5, "the rest make a toolbox");
  const listed = await listAllTools(repeating, { onWarning: (w) => warnings.push(w) });
  assert.equal(listed.length, 3);
});

test("names: a server calling itself builtin is renamed; __proto__ is a server like any other", async () => {
  const builtin = await small("builtin");
  const proto = await small("__proto__");
  const { servers, clients, warnings } = await mcpServers([builtin, proto]);
  assert.deepEqual(Object.keys(servers), ["builtin_2", "__proto__"]);
  assert.equal(Object.getPrototypeOf(servers), Object.prototype);
  assert.equal(Object.getPrototypeOf(clients), Object.prototype);
  assert.equal(clients.__proto__, proto); // eslint-disable-line no-proto
  assert.match(warnings.join("\n"), /server "builtin" is named "builtin_2"/);
  const shelf = new Shelf({ tools: [mcpTool("x")], servers }, { defer: ["x"] });
  const deferredDirect = shelf.unwrap({ name: "tool_call", arguments: { name: "x", arguments: {} } });
  assert.equal(deferredDirect.server, "builtin");
  const r = await callMcpTool({ ...clients, builtin }, deferredDirect);
  assert.equal(r.isError, true, "a deferred direct tool never goes to a client named builtin");
  assert.match(r.content, /x is not a tool of an MCP server/);
  assert.equal((await callMcpTool(clients, { kind: "call", name: "mcp__builtin_2__ping", server: "builtin_2", tool: "ping", arguments: {}, viaBridge: true })).content, "ping ran");
});

test("callMcpTool: JSON-RPC errors, timeouts, output-schema violations and unroutable calls are isError results, never throws", async () => {
  const client = await connect("errors", {
    list: () => ({ tools: [mcpTool("boom"), mcpTool("bad_params"), mcpTool("slow"), mcpTool("typed", { outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } })] }),
    call: ({ name }) => {
      if (name === "boom") throw new Error("it broke");
      if (name === "bad_params") throw new McpError(ErrorCode.InvalidParams, "missing x");
      if (name === "slow") return new Promise(() => {});
      return { content: [{ type: "text", text: "no structured content" }] };
    },
  });
  const { clients } = await mcpServers({ errors: client }); // lists, so the client knows typed's output schema
  const call = (tool) => ({ kind: "call", name: tool, server: "errors", tool, arguments: {}, viaBridge: true });
  const cases = [["boom", -32603, /it broke/], ["bad_params", -32602, /missing x/], ["slow", -32001, /timed out/i], ["typed", -32600, /structured content/i]];
  for (const [tool, code, message] of cases) {
    const r = await callMcpTool(clients, call(tool), { timeout: 100 });
    assert.equal(r.isError, true, tool);
    assert.equal(r.error?.code, code, tool);
    assert.match(r.content, message, tool);
    assert.ok(r.content.startsWith(`${tool} failed on server "errors" (error ${code})`), r.content);
  }
  const direct = await callMcpTool(clients, { kind: "call", name: "read_file", arguments: { path: "a" }, viaBridge: false });
  assert.equal(direct.isError, true);
  assert.match(direct.content, /read_file is not a tool of an MCP server/);
  const gone = await callMcpTool(clients, { kind: "call", name: "x", server: "linear", tool: "x", arguments: {}, viaBridge: true });
  assert.equal(gone.isError, true);
  assert.match(gone.content, /server "linear", which is not connected/);
});
