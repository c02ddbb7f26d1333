// The MCP gateway examples as deployed: wrangler (4.86, as pinned here) builds examples/gateway-worker
// (stateless) and examples/gateway-agent (McpAgent, a Durable Object per MCP session), each build
// step listing two MCP servers over Streamable HTTP on 127.0.0.1 (GitHub's and Linear's catalogs,
// mcp-http.mjs) with a secret from the environment, and workerd serves each bundle alone. An MCP SDK
// Client over HTTP with the bearer token lists the tools and searches, and gets what toolshelf's
// Gateway in Node serves from the same shelf.bin, without either upstream being contacted; then a
// tool_call reaches the Linear server with its secret, and a second one costs McpAgent's kept
// connection one upstream request. A request without the token gets 401.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { here, servers, workRequire } from "./support.mjs";
import { httpMcpServer, mcpTools } from "./mcp-http.mjs";
import { buildExample, serveExample } from "./gateway-support.mjs";

const sdk = createRequire(join(here, "package.json"));
const { Client } = await import(pathToFileURL(sdk.resolve("@modelcontextprotocol/sdk/client/index.js")));
const { StreamableHTTPClientTransport } = await import(pathToFileURL(sdk.resolve("@modelcontextprotocol/sdk/client/streamableHttp.js")));
const { Gateway } = await import(pathToFileURL(workRequire.resolve("toolshelf/gateway")));

const TOKEN = "runtimes-gateway-token-0123456789";
const UPSTREAM_TOKEN = "upstream-secret-abc";
const OPTIONS = { contextLength: 200_000 };
const SEARCH = { name: "tool_search", arguments: { query: "list my linear issues" } };
const CALL = { name: "tool_call", arguments: { name: "mcp__linear__list_issues", arguments: { limit: 50, assignee: "me" } } };

for (const example of ["gateway-worker", "gateway-agent"]) {
  test(`wrangler deploy --dry-run builds examples/${example} (its build step lists the upstreams); workerd serves the bundle to an MCP client`, { timeout: 120_000 }, async () => {
    const catalogs = servers();
    const github = await httpMcpServer("github", mcpTools(catalogs.github));
    const linear = await httpMcpServer("linear", mcpTools(catalogs.linear));
    let worker;
    let client;
    try {
      const built = await buildExample(example, example, { upstreams: { github: github.url, linear: linear.url }, options: OPTIONS, env: { UPSTREAM_TOKEN } });
      assert.match(built.stdout, /shelf\.bin: \d+ bytes \(\d+ deferred tools/, "the build step wrote the snapshot");
      assert.deepEqual([...github.auths, ...linear.auths], [`Bearer ${UPSTREAM_TOKEN}`, `Bearer ${UPSTREAM_TOKEN}`], "listed with the secret from the environment");
      const out = readdirSync(built.outdir);
      assert.equal(out.filter((f) => f.endsWith(".wasm")).length, 1, out.join(", "));
      const bins = out.filter((f) => f.endsWith(".bin"));
      assert.equal(bins.length, 1, "shelf.bin bundled as a Data module");

      worker = await serveExample(built, { TOOLSHELF_GATEWAY_TOKEN: TOKEN, UPSTREAM_TOKEN });
      const refused = await fetch(worker.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
      assert.equal(refused.status, 401);
      assert.equal(refused.headers.get("www-authenticate"), 'Bearer realm="toolshelf"');

      // What the Gateway serves in Node from the bundled snapshot.
      const node = new Gateway({ upstreams: {}, options: OPTIONS, snapshot: readFileSync(join(built.outdir, bins[0])) });
      const before = github.requests + linear.requests;
      client = new Client({ name: "runtimes", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(worker.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ["tool_search", "tool_describe", "tool_call"]);
      assert.deepEqual(tools, node.listTools());
      const found = await client.callTool(SEARCH);
      assert.deepEqual(found, await node.callTool(SEARCH));
      assert.match(found.content[0].text, /"name":"mcp__linear__list_issues"/);
      assert.equal(github.requests + linear.requests, before, "tools/list and tool_search answered from the snapshot");
      await node.close();

      const beforeFirst = linear.requests;
      const called = await client.callTool(CALL);
      const first = linear.requests - beforeFirst;
      assert.deepEqual(called.content, [{ type: "text", text: `list_issues ran with ${JSON.stringify(CALL.arguments.arguments)}` }]);
      assert.deepEqual(linear.calls, [{ name: "list_issues", arguments: CALL.arguments.arguments }]);
      assert.deepEqual(github.calls, []);
      assert.deepEqual([...linear.auths], [`Bearer ${UPSTREAM_TOKEN}`], "the call carried the Worker's secret");
      // A second call: the stateless Worker connects again (initialize, initialized, the call);
      // the session's Durable Object sends the call on the connection it kept.
      const beforeSecond = linear.requests;
      assert.deepEqual((await client.callTool(CALL)).content, called.content);
      const second = linear.requests - beforeSecond;
      if (example === "gateway-agent") {
        assert.equal(second, 1, "one upstream request on the kept connection");
        // The first call connects (initialize, initialized, the SSE stream) and calls: no tools/list, the catalog is the snapshot's.
        assert.equal(first, 3 + second, `the session's first call: ${first} upstream requests`);
      }
      else assert.ok(second >= 3, `a connection of its own: ${second} upstream requests`);
      console.log(`${example}: wrangler built it in ${built.ms} ms (upload ${built.upload}); workerd answered in ${worker.readyMs} ms`);
    } catch (error) {
      throw worker ? new Error(`${error.message}\nworkerd said:\n${worker.output()}`, { cause: error }) : error;
    } finally {
      await client?.close();
      worker?.stop();
      await github.close();
      await linear.close();
    }
  });
}
