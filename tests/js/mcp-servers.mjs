// Real MCP servers for the end-to-end tests, reached through the MCP TypeScript SDK's client:
// `@modelcontextprotocol/server-everything` as a child process over stdio, and an in-process server
// built with the SDK's `Server` that serves a real catalog of tests/data/catalogs as MCP tools,
// `tools/list` paginated by cursor, over the SDK's InMemoryTransport. Each records the tools/call
// requests that reached it (the stdio one as they went over the wire).
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import assert from "node:assert/strict";
import { catalog, repoDir } from "./support.mjs";

const EVERYTHING = join(repoDir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");

/** Wraps a client transport's `send` so every tools/call request sent is pushed to `calls`. */
function recordCalls(transport, calls) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (message?.method === "tools/call") calls.push(structuredClone(message.params));
    return send(message, options);
  };
  return transport;
}

/**
 * The reference server over stdio. `transport()` makes a new recorded stdio transport (each starts
 * its own server process); `client()` connects an SDK Client on one. Calls of all are in `calls`.
 */
export function everythingServer() {
  const calls = [];
  const opened = [];
  const transport = () => {
    const t = recordCalls(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }), calls);
    opened.push(t);
    return t;
  };
  return {
    calls,
    transport,
    async client() {
      const client = new Client({ name: "toolshelf-e2e", version: "1.0.0" });
      await client.connect(transport());
      return client;
    },
    close: () => Promise.all(opened.map((t) => t.close().catch(() => {}))),
  };
}

/** A catalog's tools as MCP tools/list items. */
function mcpTools(name) {
  return catalog(name).map(({ tool }) => {
    const f = tool.function ?? tool;
    return { name: f.name, description: f.description ?? "", inputSchema: { type: "object", ...(f.parameters ?? f.input_schema ?? {}) } };
  });
}

/**
 * An in-process MCP server (the SDK's low-level `Server`) serving catalog `name`, `pageSize` tools
 * per tools/list page. Each `client()` / `transport()` gets its own server instance on a linked
 * InMemoryTransport pair; all share `calls` (tools/call params received) and `pages` (list requests).
 */
export function catalogServer(name, { pageSize = 100, serverName = name } = {}) {
  const tools = mcpTools(name);
  const calls = [];
  const pages = [];
  const open = [];
  async function transport() {
    const server = new Server({ name: serverName, version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, (request) => {
      const start = request.params?.cursor ? Number(request.params.cursor) : 0;
      pages.push(start);
      const end = start + pageSize;
      return { tools: tools.slice(start, end), ...(end < tools.length ? { nextCursor: String(end) } : {}) };
    });
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      calls.push(structuredClone(request.params));
      const known = tools.some((t) => t.name === request.params.name);
      return known
        ? { content: [{ type: "text", text: `${request.params.name} ran with ${JSON.stringify(request.params.arguments ?? {})}` }] }
        : { content: [{ type: "text", text: `unknown tool ${request.params.name}` }], isError: true };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    open.push(server);
    return clientSide;
  }
  return {
    tools,
    calls,
    pages,
    transport,
    async client() {
      const client = new Client({ name: "toolshelf-e2e", version: "1.0.0" });
      await client.connect(await transport());
      return client;
    },
    close: () => Promise.all(open.map((s) => s.close().catch(() => {}))),
  };
}

/**
 * An in-process MCP server (the SDK's low-level `Server`, `tools.listChanged` advertised) serving
 * `tools` (MCP tools/list items), whose list can change and which can die: `setTools(next)`
 * changes the list and sends `notifications/tools/list_changed` to every connected client; `die()`
 * closes every connection (each client's `onclose` fires). A call answers `<name> ran with <args>`
 * for a listed tool, and is recorded in `calls` (server-side names and arguments).
 */
export function toolServer(serverName, tools) {
  let listed = tools;
  const calls = [];
  const open = [];
  async function transport() {
    const server = new Server({ name: serverName, version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      calls.push(structuredClone(request.params));
      const known = listed.some((t) => t.name === request.params.name);
      return known
        ? { content: [{ type: "text", text: `${request.params.name} ran with ${JSON.stringify(request.params.arguments ?? {})}` }] }
        : { content: [{ type: "text", text: `unknown tool ${request.params.name}` }], isError: true };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    open.push(server);
    return clientSide;
  }
  return {
    calls,
    get tools() { return listed; },
    transport,
    async client() {
      const client = new Client({ name: "toolshelf-e2e", version: "1.0.0" });
      await client.connect(await transport());
      return client;
    },
    async setTools(next) {
      listed = next;
      await Promise.all(open.map((s) => s.sendToolListChanged().catch(() => {})));
    },
    die: () => Promise.all(open.splice(0).map((s) => s.close().catch(() => {}))),
  };
}

/**
 * The names the package shows for `[server, own name]` pairs of the servers `mcpServers` read
 * (each own name on its server, as describe answers it): `{ [own]: shown }`. `Shelf` is the
 * package's (this file is also imported where the package is not installed).
 */
export function shownNames(Shelf, servers, pairs) {
  const shelf = new Shelf({ servers });
  try {
    const shown = {};
    for (const [server, own] of pairs) {
      const described = shelf.describe(own);
      assert.equal(described.server, server);
      shown[own] = described.name;
    }
    return shown;
  } finally {
    shelf.free();
  }
}
