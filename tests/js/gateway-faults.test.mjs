// toolshelf serve against upstreams that misbehave (gateway-upstream.mjs): one that never answers,
// one whose call never answers, one that crashes during a call, one whose tools/list is not JSON or
// not a tool list, one with hostile names, a 1 MB description and 20,000 tools, one that announces
// tools/list_changed without changing anything and one whose tools change all the time. The gateway
// keeps serving the others, answers every call (none is lost), names the broken upstreams in the
// search tool's description, reconnects the one that crashed, tells the client list_changed only
// when what it serves changed, and its memory stays bounded while an upstream churns. Servers whose
// tools the core refuses (alone, or together as qualify: false makes two namesakes) are left out
// with a warning while the rest are served.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dataDir } from "./support.mjs";
import { Gateway } from "toolshelf/gateway";
import { UPSTREAM, bridge, eventually, gatewayClient, shownName, textOf } from "./gateway-support.mjs";
import { toolServer } from "./mcp-servers.mjs";

const dir = mkdtempSync(join(tmpdir(), "toolshelf-gateway-faults-"));
const upstream = (...args) => ({ command: process.execPath, args: [UPSTREAM, ...args], env: { TOOLSHELF_DATA: dataDir } });
const config = (name, mcpServers) => {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify({ mcpServers, toolshelf: { contextLength: 200_000 } }));
  return path;
};
const searchTool = async (client) => (await client.listTools()).tools.find((t) => t.name === "tool_search");

/** Resident memory of a process in bytes (Linux /proc). */
const rss = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) * 1024;

test("broken upstreams: the rest keep serving, no call is lost, the crashed one is named and comes back", { timeout: 90_000 }, async (t) => {
  const path = config("broken", {
    linear: upstream("catalog", "linear-mcp-official"),
    hang: upstream("hang"),
    stuck: upstream("hang-call"),
    crash: upstream("crash"),
    malformed: upstream("malformed"),
    hostile: upstream("hostile"),
    missing: { command: join(dir, "no-such-server") },
  });
  const gw = await gatewayClient(path, ["--timeout", "3000", "--call-timeout", "1500"]);
  t.after(() => gw.client.close());

  const search = await searchTool(gw.client);
  const unavailable = /Unavailable now: (.*)\. A call to their tools answers with an error until they are back\.$/.exec(search.description)?.[1];
  assert.ok(unavailable, "the search tool's description names the broken upstreams");
  for (const [name, why] of [["hang", /timed out/], ["malformed", /tools\/list failed/], ["missing", /failed to start: command not found/]]) {
    assert.match(unavailable, new RegExp(`\\b${name} \\(`), name);
    assert.match(unavailable.split(/; (?=\w+ \()/).find((s) => s.startsWith(`${name} (`)), why, name);
  }
  for (const name of ["linear", "stuck", "crash", "hostile"]) assert.doesNotMatch(unavailable, new RegExp(`\\b${name} \\(`), `${name} is up`);
  assert.match(gw.stderr(), /server "hostile": tools\/list cut off at 10000 tools \(maxTools\)/);

  // Hostile names are found and called by the provider-valid names shown for them, and run on the
  // upstream under their own; the huge description is listed cut, and described whole.
  const found = JSON.parse(textOf(await gw.client.callTool({ name: "tool_search", arguments: { query: "files read" } })));
  const [filesRead] = found.matches;
  assert.deepEqual([filesRead.server, filesRead.description], ["hostile", "Reads a file (a name with a dot and a space)."]);
  assert.match(filesRead.name, /^[a-zA-Z0-9_-]{1,64}$/, "a name a provider accepts");
  assert.equal(textOf(await gw.client.callTool(bridge(filesRead.name, { path: "a.txt" }))), 'files.read v2 ran with {"path":"a.txt"}');
  const ship = await shownName(gw.client, "📦 ship");
  assert.match(ship, /^[a-zA-Z0-9_-]{1,64}$/, "a name a provider accepts");
  assert.equal(textOf(await gw.client.callTool(bridge(ship))), "📦 ship ran with {}");
  const huge = JSON.parse(textOf(await gw.client.callTool({ name: "tool_describe", arguments: { name: "huge_description" } })));
  assert.equal(huge.description.length, "A tool with a long story. ".length + 5 * 200_000);
  assert.ok(search.description.length < 200_000, "the listing stays within its budget");

  // Calls in flight while one upstream crashes mid-call and another never answers: every call has its result.
  const calls = Array.from({ length: 20 }, (_, i) => gw.client.callTool(bridge("list_issues", { limit: i + 1 })));
  const [crash, never] = [await shownName(gw.client, "crash"), await shownName(gw.client, "never")];
  const crashed = gw.client.callTool(bridge(crash));
  const stuck = gw.client.callTool(bridge(never));
  const results = await Promise.all(calls);
  results.forEach((r, i) => assert.equal(textOf(r), `list_issues ran with {"limit":${i + 1}}`));
  const crashResult = await crashed;
  assert.equal(crashResult.isError, true);
  assert.equal(textOf(crashResult), `${crash} failed on server "crash" (error -32000): connection closed.`);
  // ("ok" is a tool of two servers: the gateway serves them qualified, mcp__<server>__ok.)
  const away = await gw.client.callTool(bridge("mcp__crash__ok"));
  if (away.isError) assert.match(textOf(away), /server "crash" is unavailable \(connection closed\); the gateway is reconnecting/);
  else assert.equal(textOf(away), "ok ran with {}", "already reconnected");
  const stuckResult = await stuck;
  assert.equal(stuckResult.isError, true);
  assert.equal(textOf(stuckResult), `${never} was stopped on server "stuck": it ran past the gateway's call time cap (1500 ms).`);

  // The client is told when the crashed upstream is away (the listing names it) and again when it
  // is back (reconnected after a 1 s backoff): its tools answer again, and the listing no longer names it.
  // The second list_changed may trail the change by up to a second (at most one a second is sent),
  // so it is awaited: a listing fetched at a list_changed after the one that named it no longer does.
  const namesCrash = (d) => /\bcrash \(connection closed\)/.test(d);
  await eventually(() => gw.seen.listings.some(namesCrash), "a listing told to the client names the crashed server");
  await eventually(async () => textOf(await gw.client.callTool(bridge("mcp__crash__ok"))) === "ok ran with {}", "the crashed server is back");
  await eventually(async () => !namesCrash((await searchTool(gw.client)).description), "the listing no longer names it");
  await eventually(() => gw.seen.listings.slice(gw.seen.listings.findIndex(namesCrash) + 1).some((d) => !namesCrash(d)), "told when it went and when it came back");
  assert.equal(textOf(await gw.client.callTool(bridge("list_issues", { limit: 3 }))), 'list_issues ran with {"limit":3}', "linear served throughout");
});

test("tools/list_changed: told downstream only when the served tools changed; memory bounded under churn", { timeout: 60_000 }, async (t) => {
  // An upstream that announces changes every 20 ms without changing anything: the client is never told.
  const noisy = await gatewayClient(config("noisy", { linear: upstream("catalog", "linear-mcp-official"), noisy: upstream("noisy", "20") }));
  t.after(() => noisy.client.close());
  const before = JSON.stringify((await noisy.client.listTools()).tools);
  await new Promise((r) => setTimeout(r, 1_500));
  assert.equal(noisy.seen.listChanged, 0, "no list_changed for a listing whose bytes did not change");
  assert.equal(JSON.stringify((await noisy.client.listTools()).tools), before);

  // An upstream whose tools change every 20 ms: the client is told, sees the new tools, and the
  // gateway's memory stops growing (each change replaces the last one).
  const churn = await gatewayClient(config("churn", { linear: upstream("catalog", "linear-mcp-official"), churn: upstream("churn", "20") }));
  t.after(() => churn.client.close());
  const pid = churn.transport.pid;
  await eventually(() => churn.seen.listChanged >= 3, "list_changed told for real changes");
  const version = async () => Number(/churn_(\d+)_a/.exec((await searchTool(churn.client)).description)[1]);
  const first = await version();
  await new Promise((r) => setTimeout(r, 1_000));
  const early = rss(pid);
  await new Promise((r) => setTimeout(r, 3_000));
  const late = rss(pid);
  const last = await version();
  assert.ok(last > first + 20, `the served tools follow the upstream (version ${first} → ${last})`);
  assert.equal(textOf(await churn.client.callTool(bridge("list_issues", { limit: 1 }))), 'list_issues ran with {"limit":1}');
  assert.ok(late - early < 48 * 1024 * 1024, `memory bounded: ${(early / 2 ** 20).toFixed(0)} MB → ${(late / 2 ** 20).toFixed(0)} MB over ~150 changes`);
});

test("refused tools: a server the core refuses alone is left out, then one of two that clash under qualify: false; a tool named like toolshelf's names is left out; the rest are served", async (t) => {
  let deep = { type: "string" };
  for (let i = 0; i < 200; i++) deep = { type: "object", properties: { x: deep } };
  const tool = (name) => ({ name, description: `The ${name} tool.`, inputSchema: { type: "object", properties: { q: { type: "string" } } } });
  const servers = {
    alpha: toolServer("alpha", [tool("list"), tool("alpha_only")]),
    beta: toolServer("beta", [tool("list")]),
    deep: toolServer("deep", [{ name: "nested", description: "Too deep.", inputSchema: deep }]),
    gamma: toolServer("gamma", [tool("gamma_only"), tool("mcp__alpha__list")]),
  };
  const warnings = [];
  const upstreams = Object.fromEntries(Object.keys(servers).map((name) => [name, { command: "in-process" }]));
  const gateway = new Gateway({ upstreams, options: { qualify: false, contextLength: 200_000 }, connect: (name) => servers[name].transport(), onWarning: (w) => warnings.push(w) });
  t.after(() => gateway.close());
  await gateway.start();
  const leftOut = warnings.filter((w) => /left out: toolshelf refused its tools/.test(w)).map((w) => /server "(\w+)"/.exec(w)[1]);
  assert.deepEqual(leftOut.sort(), ["beta", "deep"], warnings.join("\n"));
  assert.deepEqual(gateway.assembly.servers.map((s) => s.name), ["alpha", "gamma"]);
  assert.match(gateway.listTools().find((t) => t.name === "tool_search").description, /Unavailable now: .*beta \(its tools were refused/);
  const ran = await gateway.callTool(bridge("list", { q: "a" }));
  assert.equal(textOf(ran), 'list ran with {"q":"a"}');
  assert.equal(servers.alpha.calls.length, 1);
  assert.equal(servers.beta.calls.length, 0);
  // gamma's tool named like alpha's qualified name is not served: that name runs alpha's tool.
  assert.ok(warnings.includes('server "gamma": tool "mcp__alpha__list" has a qualified name (mcp__<server>__<tool> names are toolshelf\'s); it was left out'), warnings.join("\n"));
  assert.equal(gateway.assembly.servers.find((s) => s.name === "gamma").tools, 1);
  assert.equal(textOf(await gateway.callTool(bridge("mcp__alpha__list", { q: "b" }))), 'list ran with {"q":"b"}');
  assert.deepEqual([servers.alpha.calls.length, servers.gamma.calls.length], [2, 0]);
});

test("every upstream down: the client is served a search tool naming them (not an empty list), and the real tools once one is back", async (t) => {
  const linear = toolServer("linear", [{ name: "list_issues", description: "List issues.", inputSchema: { type: "object" } }]);
  let reachable = false;
  const gateway = new Gateway({
    upstreams: { linear: { url: "http://127.0.0.1:9/mcp" } },
    connect: () => {
      if (!reachable) throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
      return linear.transport();
    },
    reconnect: { initialMs: 50, maxMs: 50 },
  });
  t.after(() => gateway.close());
  let changes = 0;
  gateway.onToolsChanged(() => changes++);
  await gateway.start();
  const [status] = gateway.listTools();
  assert.equal(gateway.listTools().length, 1);
  assert.equal(status.name, "tool_search");
  assert.match(status.description, /Unavailable now: linear \(connection refused\)/);
  const answer = await gateway.callTool({ name: "tool_search", arguments: { query: "issues" } });
  assert.equal(answer.isError, true);
  assert.match(textOf(answer), /linear \(connection refused\)/);
  reachable = true;
  await eventually(() => gateway.listTools().some((tool) => tool.name === "tool_call"), "the bridge once linear is back");
  assert.ok(changes >= 1, "listeners were told");
  assert.doesNotMatch(gateway.listTools().find((tool) => tool.name === "tool_search").description, /Unavailable now/);
  assert.equal(textOf(await gateway.callTool(bridge("list_issues"))), "list_issues ran with {}");
});
