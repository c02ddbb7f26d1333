// The package in a real browser: headless Chromium (Debian's, driven by playwright-core; nothing is
// downloaded) loads a page from a static server on loopback. The page imports the browser entry
// (`web.js`) through an import map, as a bundler-free site would, checks `not_initialized`, awaits
// `init()` (which fetches the .wasm beside the glue), then assembles, searches and unwraps the real
// GitHub + Linear catalogs; and it fetches a snapshot Node's package made (shelf.bin) and loads it
// with Shelf.fromSnapshot. Node computes the same from its own entry: the answers must be equal.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import * as nodeApi from "toolshelf";
import { assemble, search, unwrap } from "toolshelf";
import { catalog, nativeAnswers, nativeInput, repoDir, surrogateAnswers, surrogates, tool } from "./support.mjs";

const CHROMIUM = process.env.TOOLSHELF_CHROMIUM ?? "/usr/bin/chromium";
// As root Chromium needs --no-sandbox; the rest keep it from reaching for the (closed) network.
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run"];
const pkgDir = dirname(fileURLToPath(import.meta.resolve("toolshelf/package.json")));

// What the page and Node both compute. The page gets these as JSON, so both sides start equal.
const SERVERS = { github: "github-mcp-server", linear: "linear-mcp-official" };
const OPTIONS = { contextLength: 200_000, qualify: true };
const DIRECT = tool("read_file");
const QUERY = "create pull request";
const CALL = { id: "call_1", type: "function", function: { name: "tool_call", arguments: JSON.stringify({ name: "mcp__linear__save_issue", arguments: { title: "Crash", team: "Core", priority: "2" } }) } };

const PAGE = `<!doctype html>
<meta charset="utf-8">
<link rel="icon" href="data:,">
<script type="importmap">{ "imports": { "toolshelf": "/node_modules/toolshelf/web.js" } }</script>
<script type="module">
import * as api from "toolshelf";
const codeOf = (f) => { try { f(); return "no throw"; } catch (e) { return e instanceof api.ToolshelfError && e instanceof Error ? e.code : String(e); } };
const out = { before: codeOf(() => api.assemble([])) };
await api.init();
const input = await (await fetch("/input.json")).json();
const servers = {};
for (const [server, file] of Object.entries(input.servers)) servers[server] = await (await fetch("/data/" + file + ".json")).json();
const toolbox = { tools: [input.direct], servers };
const a = api.assemble(toolbox, input.options);
out.assembly = { ...a, tools: a.tools.length };
out.directIsSameObject = a.tools[0] === toolbox.tools[0];
out.search = api.search(toolbox, input.query, input.options);
out.unwrap = api.unwrap(toolbox, input.call, input.options);
const shelf = new api.Shelf(toolbox, input.options);
out.shelfFingerprint = shelf.assemble().fingerprint;
shelf.free();
out.error = codeOf(() => api.assemble(42));
const loaded = api.Shelf.fromSnapshot(await (await fetch("/shelf.bin")).arrayBuffer());
out.snapshot = { assembly: loaded.assemble(), search: loaded.search(input.query), unwrap: loaded.unwrap(input.call) };
loaded.free();
${surrogateAnswers.toString()}
out.surrogates = surrogateAnswers(api, await (await fetch("/surrogates.json")).json());
${nativeAnswers.toString()}
out.native = nativeAnswers(api, await (await fetch("/native.json")).json());
window.results = out;
</script>`;

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".json": "application/json", ".wasm": "application/wasm" };

/** The page, the package's files, the catalogs' tool lists and the shared input; nothing else. */
function route(path) {
  if (path === "/") return [".html", PAGE];
  if (path === "/surrogates.json") return [".json", JSON.stringify(surrogates())];
  if (path === "/native.json") return [".json", JSON.stringify(nativeInput())];
  if (path === "/shelf.bin") return [".bin", Buffer.from(new nodeApi.Shelf(toolboxOf(), OPTIONS).snapshot())];
  if (path === "/input.json") return [".json", JSON.stringify({ servers: SERVERS, options: OPTIONS, direct: DIRECT, query: QUERY, call: CALL })];
  const data = path.match(/^\/data\/([\w-]+)\.json$/);
  if (data) return [".json", JSON.stringify(catalog(data[1]).map((e) => e.tool))];
  if (path.startsWith("/node_modules/toolshelf/")) {
    const file = normalize(join(pkgDir, path.slice("/node_modules/toolshelf/".length)));
    if (file.startsWith(pkgDir + "/")) return [extname(file), readFileSync(file)];
  }
  return null;
}

function serve() {
  const server = createServer((req, res) => {
    let found = null;
    try {
      found = route(new URL(req.url, "http://localhost").pathname);
    } catch {
      found = null;
    }
    if (!found) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": TYPES[found[0]] ?? "application/octet-stream" }).end(found[1]);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** The page's toolbox, as Node builds it. */
function toolboxOf() {
  const servers = Object.fromEntries(Object.entries(SERVERS).map(([s, file]) => [s, catalog(file).map((e) => e.tool)]));
  return { tools: [DIRECT], servers };
}

/** What Node's own entry gives for the page's input. */
function expected() {
  const toolbox = toolboxOf();
  const a = assemble(toolbox, OPTIONS);
  return {
    before: "not_initialized",
    assembly: { ...a, tools: a.tools.length },
    directIsSameObject: true,
    search: search(toolbox, QUERY, OPTIONS),
    unwrap: unwrap(toolbox, CALL, OPTIONS),
    shelfFingerprint: a.fingerprint,
    error: "invalid_toolbox",
    surrogates: surrogateAnswers(nodeApi, surrogates()),
    native: nativeAnswers(nodeApi, nativeInput()),
    snapshot: { assembly: a, search: search(toolbox, QUERY, OPTIONS), unwrap: unwrap(toolbox, CALL, OPTIONS) },
  };
}

test("web.js in headless Chromium: init, assemble, search, unwrap, a fetched snapshot, all equal to Node's", { timeout: 180_000 }, async () => {
  const { chromium } = createRequire(join(repoDir, "package.json"))("playwright-core");
  const server = await serve();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, timeout: 60_000 });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
    page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
    await page.goto(`http://127.0.0.1:${server.address().port}/`, { timeout: 60_000 });
    const handle = await page.waitForFunction(() => window.results, null, { timeout: 60_000 }).catch(() => null);
    assert.deepEqual(problems, []);
    assert.ok(handle, "the page reported its results");
    const results = await handle.jsonValue();
    assert.deepEqual(results, expected());
    // And the answers are the meaningful ones: priority "2" was coerced to the schema's number.
    assert.deepEqual([results.unwrap.kind, results.unwrap.tool, results.unwrap.arguments.priority], ["call", "save_issue", 2]);
    assert.equal(results.search.matches[0].name, "mcp__github__create_pull_request");
    // Lone surrogates: both paths give one fingerprint there, the one Node gives (compared above);
    // the listing names the tool by a provider-valid name, its description's escapes kept.
    const lone = JSON.parse(results.surrogates);
    assert.equal(lone.fingerprints[0], lone.fingerprints[1]);
    const shown = lone.search.matches.find((m) => m.description.startsWith("Gets a thing")).name;
    assert.match(shown, /^[a-zA-Z0-9_-]{1,64}$/);
    assert.ok(lone.tools.includes(`\\n- ${shown.slice(shown.indexOf("__", "mcp__".length) + 2)}: Gets a thing \\ud800`), lone.tools);
  } finally {
    await browser.close();
    server.close();
  }
});
