// What toolshelf/gateway saves and what it costs (docs/gateway.md, "Figures"):
//   tokens   the tools a client pays on every request with the 70 servers of the LiveMCPTool
//            catalog attached (tests/data/catalogs/livemcptool-70servers, 527 tools), each served
//            by an in-process MCP server (the SDK's Server over InMemoryTransport): directly (every
//            server's tools/list) and through a Gateway in front of them (its tools/list), at a
//            200K context and at a 1M one. Tokens are the project's estimate: ceil(code points of
//            the tools array's compact JSON / 4) (SPEC §2.1).
//   latency  a tools/call over loopback stdio, `toolshelf serve` (pkg/cli.js) in front of one
//            upstream (tests/js/gateway-upstream.mjs with the Linear catalog), against the same
//            upstream called directly: p50 and p99 of each and the difference, after a warm-up.
// Usage: node bench/gateway.mjs [--calls N] (after scripts/build; needs the devDependencies).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Gateway } from "../pkg/gateway.js";
import { catalog } from "./data.mjs";

const args = process.argv.slice(2);
const CALLS = Number(args[args.indexOf("--calls") + 1]) || 1000;
const repo = new URL("..", import.meta.url).pathname;
const tokens = (tools) => Math.ceil([...JSON.stringify(tools)].length / 4);
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** The 70 servers' tools as MCP tools/list items, by server. */
function servers() {
  const out = {};
  for (const { server, tool } of catalog("livemcptool-70servers")) {
    const f = tool.function ?? tool;
    (out[server] ??= []).push({ name: f.name, description: f.description ?? "", inputSchema: { type: "object", ...(f.parameters ?? {}) } });
  }
  return out;
}

/** An in-process MCP server serving `tools`, on the server side of a new linked pair; the client side is returned. */
async function inMemoryServer(name, tools) {
  const server = new Server({ name, version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (r) => ({ content: [{ type: "text", text: `${r.params.name} ran` }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return clientSide;
}

async function tokenFigures() {
  const byServer = servers();
  const names = Object.keys(byServer);
  // Directly: the client lists every server and sends every tool.
  const direct = [];
  for (const name of names) {
    const client = new Client({ name: "bench", version: "1" });
    await client.connect(await inMemoryServer(name, byServer[name]));
    direct.push(...(await client.listTools()).tools);
    await client.close();
  }
  const rows = [];
  for (const contextLength of [32_000, 200_000, 1_000_000]) {
    const gateway = new Gateway({
      upstreams: Object.fromEntries(names.map((n) => [n, { command: "in-process" }])),
      options: { contextLength },
      connect: (name) => inMemoryServer(name, byServer[name]),
    });
    await gateway.start();
    const served = gateway.listTools();
    rows.push({ contextLength, tools: served.length, tokens: tokens(served), form: gateway.assembly.form, tier: gateway.assembly.tier });
    await gateway.close();
  }
  return { servers: names.length, tools: direct.length, direct: tokens(direct), rows };
}

async function time(client, call, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const result = await client.callTool(call);
    out.push(performance.now() - start);
    if (result.isError) throw new Error(`call failed: ${JSON.stringify(result)}`);
  }
  return out.sort((a, b) => a - b);
}

async function latencyFigures() {
  const dir = mkdtempSync(join(tmpdir(), "toolshelf-bench-gateway-"));
  const upstream = { command: process.execPath, args: [join(repo, "tests", "js", "gateway-upstream.mjs"), "catalog", "linear-mcp-official"], env: { TOOLSHELF_DATA: join(repo, "tests", "data") } };
  const config = join(dir, "mcp.json");
  writeFileSync(config, JSON.stringify({ mcpServers: { linear: upstream } }));
  const direct = new Client({ name: "bench", version: "1" });
  await direct.connect(new StdioClientTransport({ ...upstream, stderr: "ignore" }));
  const viaGateway = new Client({ name: "bench", version: "1" });
  await viaGateway.connect(new StdioClientTransport({ command: process.execPath, args: [join(repo, "pkg", "cli.js"), "serve", "--config", config], stderr: "ignore" }));
  const args = { limit: 5, team: "Core" };
  const directCall = { name: "list_issues", arguments: args };
  const bridgeCall = { name: "tool_call", arguments: { name: "list_issues", arguments: args } };
  await time(direct, directCall, 100);
  await time(viaGateway, bridgeCall, 100);
  // Interleaved rounds, so that the machine's noise falls on both alike.
  const a = [];
  const b = [];
  for (let round = 0; round < 10; round++) {
    a.push(...(await time(direct, directCall, CALLS / 10)));
    b.push(...(await time(viaGateway, bridgeCall, CALLS / 10)));
  }
  a.sort((x, y) => x - y);
  b.sort((x, y) => x - y);
  await direct.close();
  await viaGateway.close();
  return { calls: CALLS, direct: { p50: percentile(a, 50), p99: percentile(a, 99) }, gateway: { p50: percentile(b, 50), p99: percentile(b, 99) } };
}

const t = await tokenFigures();
console.log(`tokens per request, ${t.servers} servers, ${t.tools} tools (LiveMCPTool catalog)`);
console.log(`| client attached to | tools sent | tokens per request | ratio |`);
console.log(`|---|---:|---:|---:|`);
console.log(`| the ${t.servers} servers directly | ${t.tools} | ${t.direct.toLocaleString("en-US")} | 1 |`);
for (const r of t.rows) {
  console.log(`| toolshelf serve, ${r.contextLength.toLocaleString("en-US")}-token context (tier ${r.tier}, listing ${r.form}) | ${r.tools} | ${r.tokens.toLocaleString("en-US")} | ${(r.tokens / t.direct).toFixed(3)} (${(t.direct / r.tokens).toFixed(1)}× fewer) |`);
}
const l = await latencyFigures();
const ms = (x) => x.toFixed(3);
console.log(`\ntools/call latency over loopback stdio, ${l.calls} calls each (Node ${process.version})`);
console.log(`| path | p50 ms | p99 ms |`);
console.log(`|---|---:|---:|`);
console.log(`| client → upstream | ${ms(l.direct.p50)} | ${ms(l.direct.p99)} |`);
console.log(`| client → toolshelf serve → upstream | ${ms(l.gateway.p50)} | ${ms(l.gateway.p99)} |`);
console.log(`| added by the gateway | ${ms(l.gateway.p50 - l.direct.p50)} | ${ms(l.gateway.p99 - l.direct.p99)} |`);
