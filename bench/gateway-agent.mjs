// The two ways of running toolshelf's MCP gateway on Cloudflare, side by side in one run under the
// same workerd (docs/gateway.md, "Stateless, or McpAgent on a Durable Object"):
// examples/gateway-worker (stateless `httpHandler`, a connection per call to the upstream) and
// examples/gateway-agent (the Agents SDK's McpAgent: a Durable Object per MCP session holding its
// Gateway, whose upstream connection is kept for the session's calls). Both are built by wrangler (`deploy --dry-run`, their build step listing
// the upstreams into shelf.bin) and served by workerd as tests/runtimes/gateway-wrangler.test.mjs
// serves them; the upstreams are GitHub's and Linear's catalogs over Streamable HTTP on 127.0.0.1
// (tests/runtimes/mcp-http.mjs), each HTTP answer delayed by --delay ms to stand for a remote
// server's round trip. An MCP SDK Client with the bearer token, for each variant:
//   cold start   spawning workerd → first tools/list answered (initialize, initialized, tools/list)
//   new session  on a running isolate: a new client's initialize → tools/list answered (for
//                McpAgent, a new Durable Object that loads the snapshot), then its first tool_call
//   warm         one session: tools/list, tool_search, tool_call p50/p90, interleaved
// with the upstream HTTP requests each made, and McpAgent ÷ stateless ratios.
// Usage: `scripts/runtimes tests/runtimes/gateway-wrangler.test.mjs` once (installs wrangler,
// workerd and the packed package in tests/runtimes), then
//   node bench/gateway-agent.mjs [--starts 5] [--sessions 20] [--requests 200] [--delay 0]
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { here, servers } from "../tests/runtimes/support.mjs";
import { httpMcpServer, mcpTools } from "../tests/runtimes/mcp-http.mjs";
import { buildExample, serveExample } from "../tests/runtimes/gateway-support.mjs";

const sdk = createRequire(join(here, "package.json"));
const { Client } = await import(pathToFileURL(sdk.resolve("@modelcontextprotocol/sdk/client/index.js")));
const { StreamableHTTPClientTransport } = await import(pathToFileURL(sdk.resolve("@modelcontextprotocol/sdk/client/streamableHttp.js")));

const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const STARTS = flag("--starts", 5);
const SESSIONS = flag("--sessions", 20);
const REQUESTS = flag("--requests", 200);
const DELAY = flag("--delay", 0);
const TOKEN = "bench-gateway-token-0123456789";
const UPSTREAM_TOKEN = "bench-upstream-secret";
const OPTIONS = { contextLength: 200_000 };
const SEARCH = { name: "tool_search", arguments: { query: "list my linear issues" } };
const CALL = { name: "tool_call", arguments: { name: "mcp__linear__list_issues", arguments: { limit: 50, assignee: "me" } } };
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const pct = (xs, p) => sorted(xs)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (x) => x.toFixed(1);

async function connect(url) {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
  return client;
}

const catalogs = servers();
const github = await httpMcpServer("github", mcpTools(catalogs.github), { delayMs: DELAY });
const linear = await httpMcpServer("linear", mcpTools(catalogs.linear), { delayMs: DELAY });
const upstream = () => github.requests + linear.requests;
const VARIANTS = { stateless: "gateway-worker", McpAgent: "gateway-agent" };
const built = {};
for (const [name, example] of Object.entries(VARIANTS)) {
  built[name] = await buildExample(example, `bench-${example}`, { upstreams: { github: github.url, linear: linear.url }, options: OPTIONS, env: { UPSTREAM_TOKEN } });
}
const bindings = { TOOLSHELF_GATEWAY_TOKEN: TOKEN, UPSTREAM_TOKEN };
const names = Object.keys(VARIANTS);
const series = () => Object.fromEntries(names.map((n) => [n, []]));

// Cold starts, interleaved.
const cold = series();
const coldUp = series();
for (let i = 0; i < STARTS; i++) {
  for (const name of names) {
    const began = performance.now();
    const worker = await serveExample(built[name], bindings, { file: `cold-${i}.capnp` });
    const before = upstream();
    const client = await connect(worker.url);
    const { tools } = await client.listTools();
    cold[name].push(performance.now() - began);
    coldUp[name].push(upstream() - before);
    if (tools.length !== 3) throw new Error(`${name}: ${tools.length} tools served`);
    await client.close();
    worker.stop();
  }
}

// One running isolate each.
const workers = {};
for (const name of names) workers[name] = await serveExample(built[name], bindings, { file: "warm.capnp" });

// New sessions on the running isolate: initialize → tools/list, then the session's first call.
const session = series();
const firstCall = series();
const firstCallUp = series();
for (let i = 0; i < SESSIONS; i++) {
  for (const name of names) {
    let began = performance.now();
    const client = await connect(workers[name].url);
    await client.listTools();
    session[name].push(performance.now() - began);
    const before = upstream();
    began = performance.now();
    const result = await client.callTool(CALL);
    firstCall[name].push(performance.now() - began);
    firstCallUp[name].push(upstream() - before);
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result)}`);
    // Ends the session (McpAgent: DELETE, its Durable Object then tears down).
    await client.transport.terminateSession?.().catch(() => {});
    await client.close();
  }
}

// One session each, warm: every path, interleaved.
const clients = {};
for (const name of names) clients[name] = await connect(workers[name].url);
const paths = {
  "tools/list": (c) => c.listTools(),
  tool_search: (c) => c.callTool(SEARCH),
  tool_call: (c) => c.callTool(CALL),
};
const warm = Object.fromEntries(Object.keys(paths).map((p) => [p, series()]));
const warmUp = Object.fromEntries(Object.keys(paths).map((p) => [p, series()]));
for (let i = 0; i < 20; i++) for (const name of names) for (const run of Object.values(paths)) await run(clients[name]);
for (let i = 0; i < REQUESTS; i++) {
  for (const name of names) {
    for (const [path, run] of Object.entries(paths)) {
      const before = upstream();
      const began = performance.now();
      const result = await run(clients[name]);
      warm[path][name].push(performance.now() - began);
      warmUp[path][name].push(upstream() - before);
      if (result.isError) throw new Error(`${name} ${path}: ${JSON.stringify(result)}`);
    }
  }
}
for (const name of names) {
  await clients[name].close();
  workers[name].stop();
}
await github.close();
await linear.close();

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
const [A, B] = names; // stateless, McpAgent
console.log(`upstream answers delayed ${DELAY} ms; bundles (wrangler's upload figure): ${A} ${built[A].upload}, ${B} ${built[B].upload}`);
console.log(`${STARTS} cold starts and ${SESSIONS} new sessions of each, interleaved; ${REQUESTS} warm requests per path\n`);
console.log(`| measure | ${A} ms | ${B} ms | ${B} ÷ ${A} | upstream HTTP requests, ${A} / ${B} |`);
console.log("|---|---:|---:|---:|---:|");
const row = (label, xs, ups, p = 50) => console.log(`| ${label} | ${ms(pct(xs[A], p))} | ${ms(pct(xs[B], p))} | ${ratio(pct(xs[B], p), pct(xs[A], p))} | ${mean(ups[A]).toFixed(1)} / ${mean(ups[B]).toFixed(1)} |`);
row("cold start → first tools/list, median", cold, coldUp);
row("new session: initialize → tools/list, median", session, Object.fromEntries(names.map((n) => [n, [0]])));
row("the session's first tool_call, median", firstCall, firstCallUp);
for (const path of Object.keys(paths)) {
  row(`warm ${path} p50`, warm[path], warmUp[path], 50);
  row(`warm ${path} p90`, warm[path], warmUp[path], 90);
}
