// toolshelf/mcp against real MCP servers (the SDK's low-level `Server` over its
// InMemoryTransport, driven by the SDK's `Client`): hostile listings are bounded (pages, tools,
// the caller's signal), one failing or unusable server is left out with a warning while the others
// are listed, repeated tools are kept once, the `defer` pseudo-server name and `__proto__` stay
// names, and `callMcpTool` returns every failure of a call (JSON-RPC errors, timeouts, calls no
// client serves) as an `isError` result the loop can send back. With `onToolsChanged`, a server's
// notifications/tools/list_changed is read (its tools listed anew, the shelf updated from them) and
// a closed client's server is left out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { Shelf, ToolshelfError } from "toolshelf";
import { callMcpTool, listAllTools, mcpServers, watchTools } from "toolshelf/mcp";
import { toolServer } from "./mcp-servers.mjs";
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
  const alone = [];
  const listed = await listAllTools(repeating, { onWarning: (w) => alone.push(w) });
  assert.equal(listed.length, 3);
  assert.deepEqual(alone, ['1 tool name(s) listed more than once, kept once: "a"'], "no server named: the warning names none");
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
  // The model reads a fixed reason per code (SPEC §16), never the upstream's text; the error keeps it for programs.
  const cases = [["boom", -32603, "internal error", /it broke/], ["bad_params", -32602, "invalid arguments", /missing x/], ["slow", -32001, "timed out", /timed out/i], ["typed", -32600, "invalid request", /structured content/i]];
  for (const [tool, code, reason, message] of cases) {
    const r = await callMcpTool(clients, call(tool), { timeout: 100 });
    assert.equal(r.isError, true, tool);
    assert.equal(r.error?.code, code, tool);
    assert.equal(r.content, `${tool} failed on server "errors" (error ${code}): ${reason}.`);
    assert.match(r.error.message, message, tool);
  }
  const direct = await callMcpTool(clients, { kind: "call", name: "read_file", arguments: { path: "a" }, viaBridge: false });
  assert.equal(direct.isError, true);
  assert.match(direct.content, /read_file is not a tool of an MCP server/);
  const gone = await callMcpTool(clients, { kind: "call", name: "x", server: "linear", tool: "x", arguments: {}, viaBridge: true });
  assert.equal(gone.isError, true);
  assert.match(gone.content, /server "linear", which is not connected/);
});

test("onToolsChanged: a server's tools/list_changed lists its tools anew and the shelf is updated; a closed client's server is left out", async () => {
  const sentry = toolServer("sentry", [mcpTool("events.search"), mcpTool("list_issues")]);
  const github = toolServer("github", [mcpTool("get_file")]);
  const changes = [];
  let next;
  const arrived = () => new Promise((resolve) => { next = resolve; });
  const clients = { sentry: await sentry.client(), github: await github.client() };
  const listed = await mcpServers(clients, { format: "anthropic", onToolsChanged: (change) => { changes.push(change); next?.(); } });
  const shelf = new Shelf({ servers: listed.servers }, { format: "anthropic", mode: "native" });
  // Matches come under the names the model is shown (SPEC §16), the one describe gives each tool.
  const eventsSearch = shelf.describe("events.search").name;
  assert.deepEqual(shelf.search("events count", { limit: 5 }).matches.map((m) => [m.name, m.server]), [[eventsSearch, "sentry"]]);
  try {
    let done = arrived();
    await sentry.setTools([mcpTool("events.search"), mcpTool("events.count"), mcpTool("list_issues")]);
    await done;
    const [change] = changes;
    assert.equal(change.server, "sentry");
    assert.equal(change.reason, "list_changed");
    assert.deepEqual(change.tools.map((t) => t.name), ["events.search", "events.count", "list_issues"]);
    assert.deepEqual(change.tools[1], { name: "events.count", description: "The events.count tool.", input_schema: { type: "object" } }, "in the format asked");
    assert.equal(change.servers.github, listed.servers.github, "the other servers' lists are the same arrays");
    shelf.update({ servers: change.servers });
    const eventsCount = shelf.describe("events.count").name;
    assert.equal(shelf.describe(eventsCount)?.server, "sentry");
    assert.ok(shelf.search("events count", { limit: 5 }).matches.some((m) => m.name === eventsCount), "the new tool is found");
    // The server dies: its client closes and its server is left out.
    done = arrived();
    await sentry.die();
    await done;
    assert.deepEqual(changes.map((c) => [c.server, c.reason]), [["sentry", "list_changed"], ["sentry", "closed"]]);
    assert.deepEqual(Object.keys(changes[1].servers), ["github"]);
    assert.equal(changes[1].tools, undefined);
    shelf.update({ servers: changes[1].servers });
    const call = shelf.unwrap({ type: "tool_use", id: "x", name: eventsSearch, input: {} }, { messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "s", content: [{ type: "tool_reference", tool_name: eventsSearch }] }] }] });
    assert.equal(call.code, "unavailable_tool", JSON.stringify(call));
  } finally {
    listed.unwatch();
    await clients.github.close();
    await github.die();
  }
});

test("watchTools: notifications arriving during a listing make it read once more (the stale list is not told), the client's own listChanged handler still runs, unwatch puts it back; a client without setNotificationHandler is a warning", async () => {
  let slow = false;
  let lists = 0;
  const tools = [mcpTool("a")];
  const server = new Server({ name: "s", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    lists++;
    if (slow) await new Promise((resolve) => setTimeout(resolve, 50));
    return { tools: [...tools] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const own = [];
  const client = new Client({ name: "t", version: "1.0.0" }, { listChanged: { tools: { debounceMs: 0, autoRefresh: false, onChanged: () => own.push("own") } } });
  await client.connect(clientSide);
  const changes = [];
  const warnings = [];
  let settled;
  const unwatch = watchTools({ s: client, plain: { listTools: async () => ({ tools: [] }) } }, { s: [mcpTool("a")] }, {
    onWarning: (w) => warnings.push(w),
    onToolsChanged: (change) => { changes.push(change.tools.map((t) => t.name)); settled(); },
  });
  assert.match(warnings.join("\n"), /server "plain": its client has no setNotificationHandler/);
  const told = new Promise((resolve) => { settled = resolve; });
  slow = true;
  tools.push(mcpTool("b"));
  await server.sendToolListChanged();
  await new Promise((resolve) => setTimeout(resolve, 10));
  tools.push(mcpTool("c"));
  await server.sendToolListChanged(); // arrives while the first listing runs: read once more
  await server.sendToolListChanged(); // coalesced with the one before
  await told;
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.deepEqual(changes, [["a", "b", "c"]], "one change, with the list as it is after the last notification");
  assert.equal(lists, 2, "the listing under way, then one more for the notifications during it");
  assert.deepEqual(own, ["own", "own", "own"], "the Client's own handler saw every notification");
  unwatch();
  slow = false;
  await server.sendToolListChanged();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(changes.length, 1, "unwatched");
  assert.equal(own.length, 4, "the Client's own handler is back");
  await client.close();
});
