// examples/gateway-worker end to end in the real workerd: the Worker bundled as wrangler bundles it,
// started from the snapshot its build step made of four remote MCP servers over Streamable HTTP
// (GitHub's and Linear's catalogs, Sentry's, and an McpServer answering rich results), reached by
// the MCP SDK's Client over Streamable HTTP with the bearer token (gateway-worker-support.mjs).
// Checked: no token or a wrong one gets 401 and reaches no upstream; tools/list and searches are
// served from the snapshot without contacting any upstream, and are what a Shelf of the upstreams'
// own listings answers; a call is validated and run on its own upstream, with the upstream's secret
// header filled from the Worker's env, its result (content, structuredContent, isError, _meta)
// passed back as the upstream gave it to a client of its own; a call failing its schema reaches no
// upstream; an upstream that is down answers a clear error while the others serve.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Shelf } from "toolshelf";
import { Gateway } from "toolshelf/gateway";
import { bundle, catalogServer, httpUpstream, mcpTools, reportsServer, runBuild, serveWorker, writeExample } from "./gateway-worker-support.mjs";

const work = join(process.cwd(), "gateway-worker");
const TOKEN = "worker-test-token-0123456789abcdef";
const UPSTREAM_TOKEN = "upstream-secret-42";
const OPTIONS = { contextLength: 200_000 };

/** An SDK Client on an endpoint over Streamable HTTP, sending `token` as its bearer token. */
async function connect(url, token) {
  const client = new Client({ name: "gateway-worker-test", version: "1.0.0" });
  const headers = token === undefined ? {} : { Authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

const bridge = (name, args = {}) => ({ name: "tool_call", arguments: { name, arguments: args } });
const textOf = (result) => result.content.map((c) => c.text).join("\n");

test("examples/gateway-worker in workerd: bearer token, snapshot start, search, validated calls on remote upstreams, an upstream down", { timeout: 120_000 }, async (t) => {
  const tools = {
    github: mcpTools("github-mcp-server"),
    linear: mcpTools("linear-mcp-official"),
    sentry: mcpTools("vendor-mcp-servers", "sentry"),
  };
  const up = {
    github: await httpUpstream(catalogServer("github", tools.github), { json: true }),
    linear: await httpUpstream(catalogServer("linear", tools.linear), { json: false }), // answers as SSE streams
    sentry: await httpUpstream(catalogServer("sentry", tools.sentry), { json: true }),
    reports: await httpUpstream(reportsServer, { json: true }),
  };
  t.after(() => Promise.all(Object.values(up).map((u) => u.close())));
  writeExample(work, Object.fromEntries(Object.entries(up).map(([name, u]) => [name, u.url])), OPTIONS);

  // The deploy-time step: the snapshot of the upstreams' listings, their secret from the environment.
  const built = await runBuild(work, { UPSTREAM_TOKEN });
  assert.match(built, /shelf\.bin: \d+ bytes \(\d+ deferred tools, tier 1, toolbox held\)/);
  for (const [name, u] of Object.entries(up)) {
    assert.ok(u.requests > 0, `${name} was listed at deploy time`);
    assert.deepEqual([...u.auths], [`Bearer ${UPSTREAM_TOKEN}`], `${name} got the secret header`);
  }
  const snapshot = readFileSync(join(work, "shelf.bin"));
  const packed = await bundle(work);
  const worker = await serveWorker(work, packed, { TOOLSHELF_GATEWAY_TOKEN: TOKEN, UPSTREAM_TOKEN });
  t.after(() => worker.stop());
  const requests = () => Object.fromEntries(Object.entries(up).map(([name, u]) => [name, u.requests]));
  const atStart = requests();
  const probe = await fetch(worker.url);
  assert.equal(probe.status, 401, `the Worker serves: ${probe.status} ${await probe.clone().text()}`);

  // No open proxy: without the token, or with a wrong one, 401 and no upstream hears of it.
  const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } };
  for (const authorization of [undefined, "Bearer wrong-token-0123456789abcdef", `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
    const response = await fetch(worker.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(initialize),
    });
    assert.equal(response.status, 401, `Authorization: ${authorization}`);
    assert.match(response.headers.get("www-authenticate"), /^Bearer /);
    assert.match((await response.json()).error.message, /Unauthorized/);
  }
  await assert.rejects(connect(worker.url, "wrong-token-0123456789abcdef"), /401|Unauthorized/);
  await assert.rejects(connect(worker.url, undefined), /401|Unauthorized/);
  const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: bridge("mcp__linear__list_issues", { limit: 5 }) };
  const unauthorizedCall = await fetch(worker.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(call) });
  assert.equal(unauthorizedCall.status, 401);
  assert.deepEqual(requests(), atStart, "no upstream was contacted by a request without the token");

  const client = await connect(worker.url, TOKEN);
  t.after(() => client.close());

  // tools/list: the bridge tools, the listing in tool_search's description; what a Shelf of the
  // upstreams' own listings assembles with the config's options; served from the snapshot (no upstream contacted).
  const served = (await client.listTools()).tools;
  const listed = {};
  for (const [name, u] of Object.entries(up)) {
    const direct = await connect(u.url, UPSTREAM_TOKEN);
    listed[name] = (await direct.listTools()).tools;
    await direct.close();
  }
  const afterDirect = requests();
  const shelf = new Shelf({ servers: listed }, { ...OPTIONS, format: "mcp" });
  t.after(() => shelf.free());
  assert.deepEqual(served.map((tool) => tool.name), ["tool_search", "tool_describe", "tool_call"]);
  assert.deepEqual(served, JSON.parse(JSON.stringify(shelf.assemble().tools)), "what a Shelf of the upstreams' listings assembles");
  const fromSnapshot = Shelf.fromSnapshot(snapshot);
  t.after(() => fromSnapshot.free());
  assert.equal(fromSnapshot.assemble().fingerprint, shelf.assemble().fingerprint, "the snapshot holds that toolbox");
  /** The name the model is shown for `server`'s tool `own`: describe's answer for the tool's own name, which one tool has. */
  const shown = (server, own) => {
    const described = shelf.describe(own);
    assert.equal(described?.server, server, `${server}/${own}`);
    return described.name;
  };
  for (const name of ["github", "linear", "sentry", "reports"]) {
    // A server's heading: the prefix of its tools' shown names.
    const own = listed[name].find((tool) => shelf.describe(tool.name) !== null).name;
    const prefix = shown(name, own).slice(0, -own.length);
    const count = listed[name].length;
    assert.ok(served[0].description.includes(`\n${prefix}* (${count} tool${count === 1 ? "" : "s"}):\n`), `the listing names ${name}`);
  }
  assert.match(served[0].description, /\n- build_report: /);
  const buildReport = shown("reports", "build_report");

  // A search and a describe: the Shelf's answers, with no upstream contacted.
  for (const request of [
    { name: "tool_search", arguments: { query: "create a pull request" } },
    { name: "tool_search", arguments: { query: "quarterly sales report" } },
    { name: "tool_describe", arguments: { name: "build_report" } },
  ]) {
    const result = await client.callTool(request);
    const answer = shelf.unwrap(request);
    assert.equal(answer.kind, "answer");
    assert.equal(textOf(result), typeof answer.content === "string" ? answer.content : JSON.stringify(answer.content));
    assert.notEqual(result.isError, true);
  }
  assert.match(textOf(await client.callTool({ name: "tool_search", arguments: { query: "quarterly sales report" } })), /build_report/);
  assert.deepEqual(requests(), afterDirect, "tools/list, searches and describes never reach an upstream: the Worker started from the snapshot");

  // A validated call, run on its own upstream with the secret header; the result as the upstream gives it.
  const direct = await connect(up.reports.url, UPSTREAM_TOKEN);
  t.after(() => direct.close());
  for (const args of [{ region: "emea", quarter: 3 }, { region: "apac", quarter: 1, fail: true }]) {
    const through = await client.callTool(bridge(buildReport, args));
    const own = await direct.callTool({ name: "build_report", arguments: args });
    assert.deepEqual(through, own, "content, structuredContent, isError and _meta as the upstream sent them");
    assert.equal(through.isError, args.fail ? true : undefined);
    assert.deepEqual(through.structuredContent, { region: args.region, quarter: args.quarter, total: args.fail ? 0 : 1234.5 });
    assert.deepEqual(through.content.map((c) => c.type), ["text", "image", "resource_link"]);
  }
  const reportCalls = up.reports.calls.filter((c) => c.name === "build_report");
  assert.equal(reportCalls.length, 4, "two through the Worker, two direct");
  assert.deepEqual(reportCalls[0].arguments, { region: "emea", quarter: 3 });

  // Both GitHub and Linear have list_issues: each qualified name goes to its own server.
  const before = { github: up.github.calls.length, linear: up.linear.calls.length };
  const linear = await client.callTool(bridge("mcp__linear__list_issues", { limit: 50, assignee: "me" }));
  assert.equal(textOf(linear), 'list_issues ran with {"limit":50,"assignee":"me"}');
  assert.deepEqual(up.linear.calls.slice(before.linear), [{ name: "list_issues", arguments: { limit: 50, assignee: "me" } }]);
  assert.equal(up.github.calls.length, before.github, "GitHub's list_issues did not run");
  for (const u of Object.values(up)) assert.deepEqual([...u.auths], [`Bearer ${UPSTREAM_TOKEN}`], "the Worker filled the upstream's secret from its env");

  // A call failing its tool's schema: rejected with the reason, no upstream contacted.
  const beforeBad = requests();
  for (const [name, args, why] of [
    [buildReport, { region: "mars", quarter: 3 }, /region/],
    [buildReport, { region: "emea" }, /quarter/],
    ["mcp__linear__list_issues", { limit: 500 }, /maximum|250/],
    ["no_such_tool", {}, /no_such_tool/],
  ]) {
    const result = await client.callTool(bridge(name, args));
    assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}`);
    assert.match(textOf(result), why);
  }
  assert.deepEqual(requests(), beforeBad, "no rejected call reached an upstream");

  // An upstream that is down: a clear error naming it; the others keep serving.
  await up.sentry.close();
  const findOrganizations = shown("sentry", "find_organizations");
  const down = await client.callTool(bridge(findOrganizations, {}));
  assert.equal(down.isError, true);
  assert.match(textOf(down), new RegExp(`^${findOrganizations} was not run: server "sentry" is unavailable \\(.+\\)`));
  const still = await client.callTool(bridge(buildReport, { region: "amer", quarter: 2 }));
  assert.equal(still.isError, undefined);
  assert.equal(still.structuredContent.total, 1234.5);
  assert.equal(textOf(await client.callTool(bridge("mcp__github__list_issues", { owner: "o", repo: "r" }))), 'list_issues ran with {"owner":"o","repo":"r"}');
  t.diagnostic(`bundle ${(packed.bytes / 1024).toFixed(0)} KiB + wasm; snapshot ${snapshot.length} bytes; workerd ready in ${worker.readyMs.toFixed(0)} ms`);
});

test("a Gateway refuses a snapshot made with other options than its own, saying how to make one that fits", () => {
  const servers = { linear: mcpTools("linear-mcp-official") };
  const made = (options) => {
    const shelf = new Shelf({ servers }, options);
    try {
      return shelf.snapshot();
    } finally {
      shelf.free();
    }
  };
  const upstreams = { linear: { url: "http://127.0.0.1:9/mcp" } };
  // What toolshelf snapshot --mcp-config records: the config's options and format mcp.
  const fits = new Gateway({ upstreams, options: OPTIONS, snapshot: made({ ...OPTIONS, format: "mcp" }), connection: "per-call" });
  assert.deepEqual(fits.listTools().map((t) => t.name), ["tool_search", "tool_describe", "tool_call"]);
  for (const options of [undefined, { format: "mcp" }, { ...OPTIONS, format: "openai" }]) {
    assert.throws(() => new Gateway({ upstreams, options: OPTIONS, snapshot: made(options), connection: "per-call" }), (e) => {
      assert.ok(e instanceof TypeError);
      assert.match(e.message, /^Gateway: the snapshot does not fit this gateway \(.*options.*\); .*toolshelf snapshot --mcp-config mcp\.json -o shelf\.bin$/);
      assert.equal(e.cause?.code, "invalid_snapshot");
      return true;
    }, JSON.stringify(options));
  }
});
