// examples/agents: a Cloudflare Agents SDK agent (npm `agents`) whose MCP tools go through
// toolshelf/ai, as it is deployed: `wrangler deploy --dry-run --outdir` bundles it with the packed
// package, and the bundle runs in miniflare (workerd, from npm) with the example's own
// wrangler.jsonc settings (compatibility, nodejs_compat, the SQLite-backed Durable Object class).
// Its MCP servers are real ones over Streamable HTTP on 127.0.0.1 (GitHub's and Linear's catalogs,
// mcp-http.mjs), connected by the SDK's `this.addMcpServer`; its model is the scripted model server
// (tests/js/model-server.mjs, OpenAI Chat). Each turn: the model sees only the bridge tools, searches,
// describes, calls with an argument over its maximum (rejected by toolshelf: nothing runs), calls
// again, answers; the real MCP server ran that tool once, with the corrected arguments.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Miniflare } from "miniflare";
import { exec, repoDir, servers, workDir, workRequire, wrangler, WRANGLER_ENV } from "./support.mjs";
import { httpMcpServer, mcpTools } from "./mcp-http.mjs";

const dir = join(workDir, "agents");
const OWN = "tool_linear_list_issues"; // the SDK names a server's tools tool_<id>_<tool>: the ToolSet's key
// The name the model is shown for it, asked of the package: a pure function of (server, tool), so a
// Shelf holding that one tool of linear names it as the agent's Shelf of every tool does.
const LIST = await (async () => {
  const { Shelf } = await import(pathToFileURL(workRequire.resolve("toolshelf")));
  const shelf = new Shelf({ servers: { linear: [{ name: OWN, description: "List issues.", inputSchema: { type: "object" } }] } });
  try {
    return shelf.describe(OWN).name;
  } finally {
    shelf.free();
  }
})();
const { listIssuesScript } = await import(pathToFileURL(join(repoDir, "tests", "js", "model-server.mjs")));
const SCRIPT = listIssuesScript(LIST);
const TURNS = 3;

/** wrangler.jsonc (comments stripped) as Miniflare options for the bundle in `outdir`. */
function miniflareOptions(outdir, bindings) {
  const config = JSON.parse(readFileSync(join(dir, "wrangler.jsonc"), "utf8").replace(/^\s*\/\/.*$/gm, ""));
  const sqlite = new Set(config.migrations.flatMap((m) => m.new_sqlite_classes ?? []));
  return {
    modules: true,
    scriptPath: join(outdir, config.main),
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    durableObjects: Object.fromEntries(config.durable_objects.bindings.map((b) => [b.name, { className: b.class_name, useSQLite: sqlite.has(b.class_name) }])),
    bindings: { ...config.vars, ...bindings },
  };
}

test("examples/agents: wrangler's bundle in miniflare, this.mcp tools through toolshelf/ai, real MCP servers over HTTP", { timeout: 300_000 }, async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(repoDir, "examples", "agents"), dir, { recursive: true });
  const built = await exec(wrangler[0], [wrangler[1], "deploy", "--dry-run", "--outdir", "out"], { cwd: dir, env: { ...WRANGLER_ENV, WRANGLER_LOG_PATH: join(dir, "logs") } });
  assert.equal(built.code, 0, built.stdout + built.stderr);
  const outdir = join(dir, "out");
  assert.equal(readdirSync(outdir).filter((f) => f.endsWith(".wasm")).length, 1, "toolshelf's .wasm bundled as a module");
  const upload = built.stdout.match(/Total Upload: ([\d.]+ KiB) \/ gzip: ([\d.]+ KiB)/);

  const catalogs = servers();
  const github = await httpMcpServer("github", mcpTools(catalogs.github));
  const linear = await httpMcpServer("linear", mcpTools(catalogs.linear));
  const { startModelServer } = await import(pathToFileURL(join(repoDir, "tests", "js", "model-server.mjs")));
  const model = await startModelServer(SCRIPT);
  const mf = new Miniflare(miniflareOptions(outdir, { MODEL_URL: model.url }));
  const agent = (path, body) => mf.dispatchFetch(`http://localhost/agents/toolshelf-agent/alice${path}`, { method: "POST", body: JSON.stringify(body) });
  try {
    const connected = await agent("/servers", { servers: { github: github.url, linear: linear.url } });
    assert.equal(connected.status, 200, await connected.clone().text());
    assert.deepEqual(await connected.json(), { github: "ready", linear: "ready" });

    const began = performance.now();
    for (let turn = 0; turn < TURNS; turn++) {
      const response = await agent("", { prompt: "What is assigned to me in Linear?" });
      assert.equal(response.status, 200, await response.clone().text());
      const reply = await response.json();
      assert.equal(reply.answer, SCRIPT.at(-1).text);
      assert.equal(reply.steps, SCRIPT.length);
      // The arguments after the tool's own validation, as the SDK gives a direct tool: the
      // defaults of Linear's schema (includeArchived, orderBy) filled in by the Agents SDK's tool.
      const args = { limit: 50, assignee: "me", includeArchived: true, orderBy: "updatedAt" };
      // What the server ran, in the order the SDK's validated value holds its keys.
      const ran = { limit: 50, orderBy: "updatedAt", assignee: "me", includeArchived: true };
      assert.deepEqual(reply.calls, [{ server: "linear", tool: OWN, arguments: args }], "the hook saw the real tool once");
      assert.deepEqual(reply.tools, ["tool_search", "tool_describe", "tool_call"], "the model sees the bridge, not 155 schemas");
      assert.equal(reply.assembly.tier, 1);
      assert.equal(reply.assembly.deferredCount, catalogs.github.length + catalogs.linear.length);

      const requests = model.requests.slice(turn * SCRIPT.length, (turn + 1) * SCRIPT.length);
      assert.deepEqual(requests[0].tools, ["tool_search", "tool_describe", "tool_call"]);
      const at = (i) => requests[i].results.at(-1).content;
      assert.match(at(1), new RegExp(`"name":"${LIST}"`), "the search found the tool");
      assert.match(at(2), new RegExp(`"name":"${LIST}","server":"linear"`), "describe gave its schema");
      assert.match(at(3), new RegExp(`${LIST} was not invoked.*maximum`, "s"), "the reject says why");
      assert.deepEqual(JSON.parse(at(4)).content, [{ type: "text", text: `list_issues ran with ${JSON.stringify(ran)}` }], "the real MCP tool's answer");
    }
    const perTurnMs = (performance.now() - began) / TURNS;
    // The real MCP server ran list_issues once per turn, with the corrected arguments; GitHub's never ran a tool.
    const ran = { limit: 50, orderBy: "updatedAt", assignee: "me", includeArchived: true };
    assert.deepEqual(linear.calls, Array.from({ length: TURNS }, () => ({ name: "list_issues", arguments: ran })));
    assert.deepEqual(github.calls, []);
    console.log(`agents: bundled in ${built.ms} ms (wrangler's upload figure ${upload ? `${upload[1]}, ${upload[2]} gzip` : "not printed"}); ${TURNS} turns of ${SCRIPT.length} model steps, ${perTurnMs.toFixed(0)} ms each (wall time in miniflare, noisy)`);
  } finally {
    await mf.dispose();
    await model.close();
    await github.close();
    await linear.close();
  }
});
