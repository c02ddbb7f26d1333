// examples/worker in the real workerd (npm `workerd`), bundle-free as workerd.test.mjs serves the
// package: the Worker loads its Shelf (GitHub + Linear) at module scope from a
// snapshot the package's CLI wrote (`npx toolshelf snapshot`), a Data module as wrangler bundles it,
// and runs an agent loop per request against the scripted model server (model-server.mjs) on
// 127.0.0.1; its real calls go to a tool runner in this process that runs them on in-process MCP
// servers (mcp-servers.mjs) through toolshelf/mcp. Each request: search, describe, a call with an
// argument over its maximum (rejected), the corrected call, the answer. The workerd process's CPU
// time per request (from /proc, user + system) is reported, not asserted (a noisy machine).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join, relative } from "node:path";
import { Shelf } from "toolshelf";
import { callMcpTool, mcpServers } from "toolshelf/mcp";
import { catalog, repoDir } from "./support.mjs";
import { freePort, moduleGraph, startWorkerd, workerdEntry } from "./workerd-support.mjs";
import { listIssuesScript, startModelServer } from "./model-server.mjs";
import { catalogServer } from "./mcp-servers.mjs";

const work = join(process.cwd(), "worker-example");
const LIST = "mcp__linear__list_issues";
const SCRIPT = listIssuesScript(LIST);
const REQUESTS = 12;

/** The capnp config: the example's worker.js, its shelf.bin, the package's modules, text bindings, loopback outbound. */
function config({ port, entry, bindings }) {
  const pkgDir = join(entry, "..");
  const modules = moduleGraph(entry).map((file) => {
    const name = file === entry ? "toolshelf" : relative(pkgDir, file);
    return `(name = ${JSON.stringify(name)}, ${file.endsWith(".wasm") ? "wasm" : "esModule"} = embed ${JSON.stringify(relative(work, file))})`;
  });
  const all = ['(name = "worker.js", esModule = embed "worker.js")', '(name = "shelf.bin", data = embed "shelf.bin")', ...modules];
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker), (name = "loopback", network = (allow = ["local"])) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [
${all.map((m) => `    ${m}`).join(",\n")}
  ],
  bindings = [ ${Object.entries(bindings).map(([name, text]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(text)})`).join(", ")} ],
  globalOutbound = "loopback",
  compatibilityDate = "2025-01-01",
);
`;
}

/** user + system CPU seconds of a process (Linux /proc; fields 14 and 15 in clock ticks of 1/100 s). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A tool runner over HTTP: POST {server, tool, arguments} → {content}, run on the MCP clients. */
async function startToolRunner(clients) {
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const { server: name, tool, arguments: args } = JSON.parse(raw);
    const { content } = await callMcpTool(clients, { kind: "call", name: tool, server: name, tool, arguments: args, viaBridge: true });
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ content }));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/call`, close: () => new Promise((r) => server.close(r)) };
}

test("examples/worker: the agent loop in workerd, Shelf at module scope, real MCP servers behind its tool runner", async (t) => {
  mkdirSync(work, { recursive: true });
  copyFileSync(join(repoDir, "examples", "worker", "worker.js"), join(work, "worker.js"));
  const byServer = (name) => catalog(name).map((e) => e.tool);
  const toolbox = { servers: { github: byServer("github-mcp-server"), linear: byServer("linear-mcp-official") } };
  writeFileSync(join(work, "toolbox.json"), JSON.stringify(toolbox));
  // The build step of examples/worker/wrangler.jsonc, run with the installed package's bin.
  const wrangler = JSON.parse(readFileSync(join(repoDir, "examples", "worker", "wrangler.jsonc"), "utf8").replace(/^\s*\/\/.*$/gm, ""));
  assert.deepEqual(wrangler.rules, [{ type: "Data", globs: ["**/*.bin"], fallthrough: true }]);
  const options = wrangler.build.command.match(/^npx toolshelf snapshot toolbox\.json -o shelf\.bin --options '(.*)'$/)[1];
  execFileSync("npx", ["--no-install", "toolshelf", "snapshot", "toolbox.json", "-o", "shelf.bin", "--options", options], { cwd: work });

  const github = catalogServer("github-mcp-server", { serverName: "github" });
  const linear = catalogServer("linear-mcp-official", { serverName: "linear" });
  const { clients } = await mcpServers({ github: await github.client(), linear: await linear.client() });
  const runner = await startToolRunner(clients);
  const model = await startModelServer(SCRIPT);
  const port = await freePort();
  writeFileSync(join(work, "config.capnp"), config({ port, entry: workerdEntry(), bindings: { MODEL_URL: model.url, TOOLS_URL: runner.url } }));
  const workerd = await startWorkerd({ work, configFile: "config.capnp", port });
  try {
    const facts = await (await fetch(`http://127.0.0.1:${port}/`)).json();
    assert.equal(facts.tier, 1);
    // The Worker's Shelf, loaded from the snapshot, assembles as a Shelf of the toolbox with the build step's options.
    const shelf = new Shelf(toolbox, JSON.parse(options));
    const { tier, form, deferredCount, listingTokens, fingerprint, warnings } = shelf.assemble();
    shelf.free();
    assert.deepEqual(facts, { tier, form, deferredCount, listingTokens, fingerprint, warnings });
    assert.deepEqual(facts.warnings, [], "both servers' list_issues have names of their own: no warning");

    const ask = async () => (await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: JSON.stringify({ prompt: "What is assigned to me in Linear?" }) })).json();
    const first = await ask(); // the first request also compiles the JIT paths; timed ones come after
    const before = cpuSeconds(workerd.pid);
    const replies = [];
    for (let i = 0; i < REQUESTS; i++) replies.push(await ask());
    const perRequestMs = ((cpuSeconds(workerd.pid) - before) * 1000) / REQUESTS;

    for (const reply of [first, ...replies]) {
      assert.deepEqual(reply, { answer: SCRIPT.at(-1).text, steps: SCRIPT.length, calls: [{ server: "linear", tool: "list_issues", arguments: { limit: 50, assignee: "me" } }] });
    }
    // What reached the model in each conversation: the search found the tool, the reject said why, the real answer came back.
    const conversations = model.requests.length / SCRIPT.length;
    assert.equal(conversations, REQUESTS + 1);
    for (let c = 0; c < conversations; c++) {
      const at = (i) => model.requests[c * SCRIPT.length + i].results.at(-1).content;
      assert.match(at(1), new RegExp(`"name":"${LIST}"`));
      assert.match(at(2), /"name":"mcp__linear__list_issues","server":"linear"/);
      assert.match(at(3), /mcp__linear__list_issues was not invoked.*maximum/s);
      assert.match(at(4), /^list_issues ran with \{"limit":50,"assignee":"me"\}$/);
    }
    // The real MCP server ran list_issues once per conversation, with the corrected arguments; GitHub's never ran.
    assert.deepEqual(linear.calls, Array.from({ length: conversations }, () => ({ name: "list_issues", arguments: { limit: 50, assignee: "me" } })));
    assert.deepEqual(github.calls, []);
    t.diagnostic(`workerd CPU time per request (whole process, user + system, ${REQUESTS} requests of ${SCRIPT.length} model steps each): ${perRequestMs.toFixed(1)} ms`);
    console.log(`worker example: workerd CPU per request ${perRequestMs.toFixed(1)} ms (${REQUESTS} requests, ${SCRIPT.length} model steps each)`);
  } finally {
    workerd.stop();
    await model.close();
    await runner.close();
    await Promise.all(Object.values(clients).map((c) => c.close()));
    await github.close();
    await linear.close();
  }
});
