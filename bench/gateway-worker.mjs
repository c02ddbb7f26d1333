// What examples/gateway-worker costs in the real workerd (docs/gateway.md, "Cloudflare Worker"),
// with the harness of tests/js/gateway-worker.test.mjs: four MCP servers over Streamable HTTP on
// 127.0.0.1 (GitHub's, Linear's and Sentry's catalogs, and an McpServer), the Worker bundled as
// wrangler bundles it, an SDK Client with the bearer token.
//   cold start  from spawning workerd to the first tools/list answered (initialize, initialized,
//               tools/list), started from the deploy-time snapshot, and without it (the Gateway
//               lists every upstream and builds the Shelf in the isolate's first request); the
//               upstream HTTP requests each start made. Runs interleaved, median and range.
//   per request a warm isolate: tools/list, tool_search, and tool_call through the Worker (a
//               connection per call to the upstream: initialize, initialized, tools/call), against
//               the same call sent to the upstream directly by a client that stays connected;
//               p50/p90 of each, and the upstream HTTP requests per call.
// Usage: scripts/consumer, then from target/consumer:
//   TOOLSHELF_REPO=$PWD/../.. node ../../bench/gateway-worker.mjs [--starts N] [--requests N]
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { bundle, catalogServer, httpUpstream, mcpTools, reportsServer, runBuild, serveWorker, writeExample } from "../tests/js/gateway-worker-support.mjs";

const args = process.argv.slice(2);
const flag = (name, fallback) => Number(args[args.indexOf(name) + 1]) || fallback;
const STARTS = flag("--starts", 7);
const REQUESTS = flag("--requests", 200);
const TOKEN = "bench-token-0123456789abcdef";
const UPSTREAM_TOKEN = "bench-upstream-secret";
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const pct = (xs, p) => sorted(xs)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (x) => x.toFixed(1);

async function connect(url, token) {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

const up = {
  github: await httpUpstream(catalogServer("github", mcpTools("github-mcp-server"))),
  linear: await httpUpstream(catalogServer("linear", mcpTools("linear-mcp-official")), { json: false }),
  sentry: await httpUpstream(catalogServer("sentry", mcpTools("vendor-mcp-servers", "sentry"))),
  reports: await httpUpstream(reportsServer),
};
const upstreamRequests = () => Object.values(up).reduce((n, u) => n + u.requests, 0);
const work = join(process.cwd(), "gateway-worker-bench");
rmSync(work, { recursive: true, force: true });
const base = join(work, "example");
writeExample(base, Object.fromEntries(Object.entries(up).map(([name, u]) => [name, u.url])), { contextLength: 200_000 });
await runBuild(base, { UPSTREAM_TOKEN });

const variants = { snapshot: join(work, "with-snapshot"), "no snapshot": join(work, "without-snapshot") };
const built = {};
for (const [name, dir] of Object.entries(variants)) {
  cpSync(base, dir, { recursive: true });
  built[name] = await bundle(dir, { snapshot: name === "snapshot" });
}

const cold = { snapshot: [], "no snapshot": [] };
const coldRequests = { snapshot: [], "no snapshot": [] };
for (let i = 0; i < STARTS; i++) {
  for (const name of Object.keys(variants)) {
    const began = performance.now();
    const worker = await serveWorker(variants[name], built[name], { TOOLSHELF_GATEWAY_TOKEN: TOKEN, UPSTREAM_TOKEN });
    const before = upstreamRequests();
    const client = await connect(worker.url, TOKEN);
    const { tools } = await client.listTools();
    cold[name].push(performance.now() - began);
    coldRequests[name].push(upstreamRequests() - before);
    if (tools.length !== 3) throw new Error(`${name}: ${tools.length} tools served`);
    await client.close();
    worker.stop();
    await worker.exited;
  }
}

// A warm isolate, started from the snapshot.
const worker = await serveWorker(variants.snapshot, built.snapshot, { TOOLSHELF_GATEWAY_TOKEN: TOKEN, UPSTREAM_TOKEN });
const client = await connect(worker.url, TOKEN);
const direct = await connect(up.linear.url, UPSTREAM_TOKEN);
const CALL = { limit: 50, assignee: "me" };
const paths = {
  "tools/list through the Worker": () => client.listTools(),
  "tool_search through the Worker": () => client.callTool({ name: "tool_search", arguments: { query: "list my linear issues" } }),
  "tool_call through the Worker (connection per call)": () => client.callTool({ name: "tool_call", arguments: { name: "mcp__linear__list_issues", arguments: CALL } }),
  "the same call, client → upstream directly (connected)": () => direct.callTool({ name: "list_issues", arguments: CALL }),
};
const times = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
for (let i = 0; i < 20; i++) for (const run of Object.values(paths)) await run(); // warm-up
const beforeCalls = up.linear.requests;
for (let i = 0; i < REQUESTS; i++) {
  for (const [name, run] of Object.entries(paths)) {
    const began = performance.now();
    await run();
    times[name].push(performance.now() - began);
  }
}
const perCall = (up.linear.requests - beforeCalls) / REQUESTS - 1; // less the direct client's one request per call
await client.close();
await direct.close();
worker.stop();
await Promise.all(Object.values(up).map((u) => u.close()));

console.log(`bundle: ${(built.snapshot.bytes / 1024).toFixed(0)} KiB of JS + the .wasm; ${STARTS} starts each, interleaved; ${REQUESTS} requests per path\n`);
console.log("| start | first tools/list answered, ms (median, range) | upstream HTTP requests |");
console.log("|---|---:|---:|");
for (const name of Object.keys(variants)) {
  console.log(`| ${name === "snapshot" ? "from the deploy-time snapshot" : "no snapshot: list the upstreams, build the Shelf"} | ${ms(pct(cold[name], 50))} (${ms(Math.min(...cold[name]))}–${ms(Math.max(...cold[name]))}) | ${pct(coldRequests[name], 50)} |`);
}
console.log("\n| request (warm isolate) | p50 ms | p90 ms |");
console.log("|---|---:|---:|");
for (const [name, xs] of Object.entries(times)) console.log(`| ${name} | ${ms(pct(xs, 50))} | ${ms(pct(xs, 90))} |`);
console.log(`\nupstream HTTP requests per tool_call through the Worker: ${perCall.toFixed(1)} (a client that stays connected: 1)`);
