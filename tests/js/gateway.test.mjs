// toolshelf/gateway end to end with real parts: `toolshelf serve` (the installed package's bin) in
// front of the reference servers (@modelcontextprotocol/server-everything, server-memory,
// server-filesystem on a scratch folder) and the project's own stdio servers with the real catalogs
// (gateway-upstream.mjs), reached by the MCP SDK's Client over stdio and over Streamable HTTP, and
// by the MCP Inspector's CLI mode. What the gateway serves is what a Shelf assembles for the same
// tools; searches and describes are the Shelf's answers; a call's result is the one the upstream
// gives a client of its own; a call that fails its schema never reaches the upstream; progress and
// cancellation pass through; the HTTP endpoint refuses a request without the bearer token.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Shelf } from "toolshelf";
import { readConfig } from "toolshelf/gateway";
import { dataDir, repoDir } from "./support.mjs";
import { CLI, UPSTREAM, bridge, eventually, gatewayClient, here, textOf } from "./gateway-support.mjs";
const servers = join(repoDir, "node_modules", "@modelcontextprotocol");
const dir = mkdtempSync(join(tmpdir(), "toolshelf-gateway-"));
const files = join(dir, "files");
mkdirSync(files);
writeFileSync(join(files, "notes.txt"), "first line\nsecond line\n");
const LOG = join(dir, "calls.jsonl");
// A stdio server's environment is the config's `env` over a few defaults (PATH, HOME...): the data folder is named.
const upstream = (...args) => ({ command: process.execPath, args: [UPSTREAM, ...args], env: { GATEWAY_LOG: LOG, TOOLSHELF_DATA: dataDir } });

/** Every upstream by name, as an MCP client config writes them. */
const UPSTREAMS = {
  everything: { command: process.execPath, args: [join(servers, "server-everything", "dist", "index.js"), "stdio"] },
  memory: { command: process.execPath, args: [join(servers, "server-memory", "dist", "index.js")], env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } },
  filesystem: { command: process.execPath, args: [join(servers, "server-filesystem", "dist", "index.js"), files] },
  linear: upstream("catalog", "linear-mcp-official"),
  github: upstream("catalog", "github-mcp-server"),
  slow: upstream("slow"),
};
const OPTIONS = { alwaysLoad: ["memory"], contextLength: 200_000 };
const CONFIG = join(dir, "mcp.json");
writeFileSync(CONFIG, JSON.stringify({ mcpServers: UPSTREAMS, toolshelf: OPTIONS }, null, 2));

/** An SDK Client on one upstream of its own (what the gateway's results are compared with). */
async function directClient(spec) {
  const client = new Client({ name: "gateway-test-direct", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ ...spec, env: { ...process.env, ...spec.env }, stderr: "ignore" }));
  return client;
}

/** The JSON lines the project's upstreams logged. */
const logged = () => (existsSync(LOG) ? readFileSync(LOG, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) : []);

test("toolshelf serve over stdio, in front of server-everything, server-memory, server-filesystem and two real catalogs", { timeout: 120_000 }, async (t) => {
  const direct = {};
  for (const name of ["everything", "memory", "filesystem", "linear", "github"]) direct[name] = await directClient(UPSTREAMS[name]);
  const gw = await gatewayClient(CONFIG);
  t.after(async () => {
    await gw.client.close();
    await Promise.all(Object.values(direct).map((c) => c.close()));
  });

  // What it serves is what a Shelf assembles of the upstreams' own listings, with the same options.
  const listed = {};
  for (const name of Object.keys(UPSTREAMS)) {
    const client = direct[name] ?? (direct[name] = await directClient(UPSTREAMS[name]));
    listed[name] = (await client.listTools()).tools;
  }
  const shelf = new Shelf({ servers: listed }, { ...OPTIONS, format: "mcp" });
  const served = (await gw.client.listTools()).tools;
  assert.deepEqual(served, JSON.parse(JSON.stringify(shelf.assemble().tools)), "the tools the Shelf assembles, pinned ones first");
  // memory's tools (alwaysLoad): as the server lists them, under the names the Shelf shows for them.
  const pinned = served.slice(0, listed.memory.length);
  assert.deepEqual(pinned.map(({ name, ...t }) => t), listed.memory.map(({ name, ...t }) => t), "memory's tools (alwaysLoad) are served as the server lists them");
  const pinnedName = (own) => pinned[listed.memory.findIndex((t) => t.name === own)].name;
  const readGraph = shelf.unwrap({ name: pinnedName("read_graph"), arguments: {} });
  assert.deepEqual([readGraph.kind, readGraph.server, readGraph.tool], ["call", "memory", "read_graph"], "a served name maps back to memory's tool");
  assert.deepEqual(served.slice(-3).map((t) => t.name), ["tool_search", "tool_describe", "tool_call"]);
  const description = served.at(-3).description;
  /** The name the model is shown for `server`'s deferred tool `own`: describe's answer for the tool's own name, which one tool has. */
  const shown = (server, own) => {
    const described = shelf.describe(own);
    assert.equal(described?.server, server, `${server}/${own}`);
    return described.name;
  };
  for (const name of ["everything", "filesystem", "linear", "github"]) {
    // A server's heading: the prefix of its tools' shown names.
    const own = listed[name].find((t) => shelf.describe(t.name) !== null).name;
    const prefix = shown(name, own).slice(0, -own.length);
    assert.ok(description.includes(`\n${prefix}* (${listed[name].length} tools):\n`), `the listing names ${name}`);
  }
  assert.doesNotMatch(description, /Unavailable now/);

  // Searches and describes are answered by the gateway, as the Shelf answers them.
  for (const call of [
    { name: "tool_search", arguments: { query: "create a pull request" } },
    { name: "tool_search", arguments: { query: "read text file", limit: 3 } },
    { name: "tool_describe", arguments: { name: "read_text_file" } },
    { name: "tool_describe", arguments: { name: "no_such_tool" } },
  ]) {
    const expected = shelf.unwrap(call);
    const result = await gw.client.callTool(call);
    assert.equal(textOf(result), expected.content, JSON.stringify(call));
    assert.equal(result.isError === true, expected.kind === "reject");
  }
  const found = JSON.parse(textOf(await gw.client.callTool({ name: "tool_search", arguments: { query: "create pull request" } })));
  assert.ok(found.matches.some((m) => m.name === shown("github", "create_pull_request") && m.server === "github"));
  const described = JSON.parse(textOf(await gw.client.callTool({ name: "tool_describe", arguments: { name: "read_text_file" } })));
  assert.deepEqual(described.parameters, listed.filesystem.find((t) => t.name === "read_text_file").inputSchema);

  // Calls through tool_call (and memory's, direct): the result the upstream gives its own client.
  const calls = [
    ["everything", "echo", { message: "hello through the gateway" }],
    ["everything", "get-sum", { a: 2, b: 40 }],
    ["everything", "get-structured-content", { location: "Chicago" }],
    ["everything", "get-tiny-image", {}],
    ["filesystem", "read_text_file", { path: join(files, "notes.txt") }],
    ["filesystem", "read_text_file", { path: join(files, "missing.txt") }], // an isError result
    ["filesystem", "list_directory", { path: files }],
  ];
  for (const [server, name, args] of calls) {
    const want = await direct[server].callTool({ name, arguments: args });
    const got = await gw.client.callTool(bridge(shown(server, name), args));
    assert.deepEqual(got, want, `${server}/${name} through tool_call`);
  }
  assert.ok((await gw.client.callTool(bridge(shown("filesystem", "read_text_file"), { path: join(files, "missing.txt") }))).isError, "an upstream's isError comes back");
  assert.ok((await gw.client.callTool(bridge("get-structured-content", { location: "Chicago" }))).structuredContent, "structured content comes back (by the tool's own name, which one tool has)");
  const entity = { entities: [{ name: "gateway", entityType: "tool", observations: ["serves tools"] }] };
  const created = await gw.client.callTool({ name: pinnedName("create_entities"), arguments: entity });
  assert.deepEqual(created.structuredContent, entity, "a pinned tool is called by the name it is served under");
  assert.deepEqual((await direct.memory.callTool({ name: "read_graph", arguments: {} })).structuredContent.entities, entity.entities, "it reached the memory server");

  // Validation: a call that fails its schema is rejected and never reaches the upstream.
  const before = logged().length;
  // (GitHub and Linear both have list_issues: the gateway serves them qualified, as mcp__<server>__<tool>.)
  const rejected = await gw.client.callTool(bridge("mcp__linear__list_issues", { limit: 999 }));
  assert.equal(rejected.isError, true);
  assert.match(textOf(rejected), /mcp__linear__list_issues was not invoked: invalid arguments.*maximum/);
  const coerced = await gw.client.callTool(bridge("mcp__linear__list_issues", { limit: "25", team: "Core" }));
  assert.equal(textOf(coerced), 'list_issues ran with {"limit":25,"team":"Core"}', "coerced (\"25\" → 25) and run on linear under its own name");
  assert.deepEqual(logged().slice(before), [{ mode: "catalog", call: "list_issues", arguments: { limit: 25, team: "Core" } }], "only the valid call reached linear");
  // An unknown name is answered with the closest names: a slip in the shown name, and in the own
  // name the listing shows under the server's heading.
  const readText = shown("filesystem", "read_text_file");
  for (const typo of [readText.slice(0, -1), "read_text_fil"]) {
    const unknown = await gw.client.callTool(bridge(typo, {}));
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), new RegExp(`There is no tool named "${typo}".*${readText}`), `${typo}: an unknown name is answered with the closest names`);
  }

  // Progress passes through to the client's progress token; the result (and its _meta) untouched.
  const progress = [];
  const waited = await gw.client.callTool(bridge(shown("slow", "wait"), { steps: 3, ms: 20 }), undefined, { onprogress: (p) => progress.push(p) });
  assert.deepEqual(waited, { content: [{ type: "text", text: "waited 3 steps" }], structuredContent: { steps: 3 }, _meta: { "example.com/upstream": "slow" } });
  // MCP does not order a progress notification before its request's result (the SDK drops one that
  // comes after, as mcp-progress.test.mjs says): the relayed ones are the steps in order, the first
  // at least (sent two steps before the result).
  const relayed = progress.map((p) => [p.progress, p.total, p.message]);
  assert.ok(relayed.length >= 1, "a progress notification sent two steps before the result was relayed");
  assert.deepEqual(relayed, [[1, 3, "step 1"], [2, 3, "step 2"], [3, 3, "step 3"]].slice(0, relayed.length));

  // Cancellation: the client's abort reaches the upstream (which logs it) and the gateway still serves.
  const controller = new AbortController();
  const cancelled = gw.client.callTool(bridge(shown("slow", "wait"), { steps: 200, ms: 25 }), undefined, { signal: controller.signal, onprogress: () => controller.abort("changed my mind") });
  await assert.rejects(cancelled);
  await eventually(() => logged().some((e) => e.cancelled === "wait"), "the upstream saw the cancellation");
  assert.equal(textOf(await gw.client.callTool(bridge(shown("everything", "echo"), { message: "still here" }))), "Echo: still here");
});

test("toolshelf serve --port: Streamable HTTP behind a bearer token; the same tools and results as over stdio", { timeout: 60_000 }, async (t) => {
  const token = "test-token-0123456789abcdef";
  const child = spawn(process.execPath, [CLI, "serve", "--config", CONFIG, "--port", "0"], { env: { ...process.env, TOOLSHELF_GATEWAY_TOKEN: token }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  t.after(() => child.kill("SIGTERM"));
  const url = await eventually(() => /at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1], `the gateway's address (stderr: ${stderr})`, 30_000);
  const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } } };
  const post = (headers) => fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(initialize) });
  for (const headers of [{}, { authorization: "Bearer wrong-token-0123456789abcdef" }, { authorization: `Bearer ${token}x` }, { authorization: token }, { authorization: `Basic ${token}` }]) {
    const response = await post(headers);
    assert.equal(response.status, 401, JSON.stringify(headers));
    assert.match(response.headers.get("www-authenticate"), /^Bearer/);
  }
  assert.equal((await post({ authorization: `Bearer ${token}` })).status, 200);
  assert.equal((await fetch(new URL("/other", url), { headers: { authorization: `Bearer ${token}` } })).status, 404);

  const client = new Client({ name: "gateway-test-http", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  t.after(() => client.close());
  const stdio = await gatewayClient(CONFIG);
  t.after(() => stdio.client.close());
  assert.deepEqual((await client.listTools()).tools, (await stdio.client.listTools()).tools);
  for (const call of [bridge("get-sum", { a: 1, b: 2 }), bridge("mcp__linear__list_issues", { limit: 999 }), { name: "tool_search", arguments: { query: "echo" } }]) {
    assert.deepEqual(await client.callTool(call), await stdio.client.callTool(call), JSON.stringify(call));
  }
  // The upstream pauses `ms` between steps and before its result. The SDK's client (the gateway's,
  // upstream, and this one) drops a progress notification it reads in the same chunk as its
  // request's result: 100 ms apart, the stalls of a busy machine do not join them.
  const progress = [];
  const waited = await client.callTool(bridge("wait", { steps: 2, ms: 100 }), undefined, { onprogress: (p) => progress.push(p.progress) });
  assert.equal(textOf(waited), "waited 2 steps");
  assert.deepEqual(progress, [1, 2], "progress streams back in the POST's response");
});

test("the MCP Inspector's CLI mode lists and calls through toolshelf serve", { timeout: 90_000 }, async (t) => {
  const inspector = join(repoDir, "node_modules", ".bin", "mcp-inspector");
  // --mcp-config (serve's other name for --config): the inspector reads a --config of its own.
  const run = (...args) => {
    const r = spawnSync(inspector, ["--cli", process.execPath, CLI, "serve", "--mcp-config", CONFIG, ...args], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const list = run("--method", "tools/list");
  assert.deepEqual(list.tools.slice(-3).map((t) => t.name), ["tool_search", "tool_describe", "tool_call"]);
  const gw = await gatewayClient(CONFIG);
  t.after(() => gw.client.close());
  assert.deepEqual(list.tools, (await gw.client.listTools()).tools, "the tools an SDK client is served, memory's pinned ones first");
  assert.ok(list.tools.length > 3, "memory's pinned tools");
  // The search's answer names the tool; the call is made by that name.
  const searched = run("--method", "tools/call", "--tool-name", "tool_search", "--tool-arg", "query=echo a message");
  const [match] = JSON.parse(searched.content[0].text).matches;
  assert.equal(match.server, "everything");
  assert.equal(match.description, "Echoes back the input string");
  const called = run("--method", "tools/call", "--tool-name", "tool_call", "--tool-arg", `name=${match.name}`, 'arguments={"message":"from the inspector"}');
  assert.deepEqual(called.content, [{ type: "text", text: "Echo: from the inspector" }]);
});

test("serve without @modelcontextprotocol/sdk says what to install; bad flags and configs are named", () => {
  const project = mkdtempSync(join(tmpdir(), "toolshelf-gateway-nosdk-"));
  mkdirSync(join(project, "node_modules"));
  cpSync(join(here, "node_modules", "toolshelf"), join(project, "node_modules", "toolshelf"), { recursive: true });
  const r = spawnSync(process.execPath, [join(project, "node_modules", "toolshelf", "cli.js"), "serve", "--config", CONFIG], { cwd: project, encoding: "utf8", input: "" });
  assert.equal(r.status, 3);
  assert.match(r.stderr, /serve needs the MCP TypeScript SDK/);
  assert.match(r.stderr, /npx -p toolshelf -p @modelcontextprotocol\/sdk toolshelf serve --config mcp.json/);
  const notConfig = join(dir, "not-config.json");
  writeFileSync(notConfig, JSON.stringify({ tools: [] }));
  const cases = [
    [["serve"], 2, /serve needs --config <mcp.json>/],
    [["serve", "--config", "-"], 2, /stdin is the MCP connection/],
    [["serve", "--config", CONFIG, "--port", "http"], 2, /--port: expected a port number/],
    [["serve", "--config", CONFIG, "--host", "0.0.0.0"], 2, /--host is for --port/],
    [["serve", "--config", join(dir, "missing.json")], 3, /no such file/],
    [["serve", "--config", notConfig], 3, /no "mcpServers" object/],
  ];
  for (const [args, status, message] of cases) {
    const run = spawnSync(process.execPath, [CLI, ...args], { cwd: here, encoding: "utf8", input: "" });
    assert.equal(run.status, status, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, message, args.join(" "));
    assert.equal(run.stdout, "", "nothing on stdout (the MCP connection)");
  }
});

test("gateway.d.ts type-checks as a user's compiler sees it (strict, the package's .d.ts checked, node16)", { timeout: 120_000 }, () => {
  const work = join(here, "ts-gateway"); // in the project, where its node_modules resolve
  mkdirSync(work, { recursive: true });
  const usage = join(work, "gateway-usage.mts");
  writeFileSync(usage, `
import { Gateway, httpHandler, readConfig, upstreamSpec, type UpstreamStatus, type CallToolResult } from "toolshelf/gateway";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
const gateway = Gateway.fromConfig({ mcpServers: { memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] } }, toolshelf: { alwaysLoad: ["memory"] } }, { timeout: 5000, onWarning: (w: string) => console.error(w) });
const status: UpstreamStatus[] = await gateway.start();
const names: string[] = gateway.listTools().map((t) => t.name);
const result: CallToolResult = await gateway.callTool({ name: "tool_search", arguments: { query: "memory" } }, { signal: AbortSignal.timeout(1000), onprogress: (p) => console.log(p.progress) });
await gateway.server().connect(new StdioServerTransport());
const handle: (request: Request) => Promise<Response> = httpHandler(gateway, { token: "0123456789abcdef0123" });
const spec = upstreamSpec({ url: "https://example.com/mcp" });
if ("http" in spec) console.log(spec.http.url);
console.log(readConfig({ mcpServers: {} }).upstreams, status.length, names, result.isError, handle);
const offline = new Gateway({ snapshot: new Uint8Array(0), connection: "per-call" });
// @ts-expect-error: connection is "persistent" or "per-call"
new Gateway({ connection: "sometimes" });
// @ts-expect-error: httpHandler needs a token
httpHandler(offline, {});
await gateway.close();
`);
  const tsc = join(repoDir, "node_modules", "typescript", "bin", "tsc");
  for (const [name, options] of [["node16", { module: "node16", moduleResolution: "node16" }]]) {
    const config = join(work, `tsconfig.${name}.json`);
    writeFileSync(config, JSON.stringify({ compilerOptions: { strict: true, skipLibCheck: false, noEmit: true, target: "es2022", lib: ["es2022", "dom"], typeRoots: [join(repoDir, "node_modules", "@types")], types: ["node"], ...options }, files: [usage] }));
    const r = spawnSync(process.execPath, [tsc, "-p", config], { cwd: here, encoding: "utf8", timeout: 120_000 });
    assert.equal(`${r.stdout}${r.stderr}`, "", `tsc, ${name}`);
    assert.equal(r.status, 0);
  }
});

test("readConfig with env fills ${NAME} in HTTP upstreams' urls and headers; an upstream naming an unset one is an error naming it", () => {
  const config = {
    mcpServers: {
      github: { url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${GITHUB_TOKEN}" } },
      linear: { url: "https://mcp.linear.app/mcp", headers: { Authorization: "Bearer ${LINEAR_KEY}" } },
      local: { command: "node", args: ["${NOT_FILLED}"] },
    },
  };
  const { upstreams } = readConfig(config, { env: { HOST: "api.example.com", GITHUB_TOKEN: "t0k" } });
  assert.deepEqual(upstreams.github, { http: { url: "https://api.example.com/mcp", headers: { Authorization: "Bearer t0k" }, sse: "fallback" } });
  assert.match(upstreams.linear.error, /LINEAR_KEY/);
  assert.deepEqual(upstreams.local.stdio.args, ["${NOT_FILLED}"], "stdio entries are left as written");
  assert.equal(readConfig(config).upstreams.github.http.url, "https://${HOST}/mcp", "without env nothing is filled");
});
