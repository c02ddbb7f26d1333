// Shared by the runtime tests: where the packed package is installed (tests/runtimes/.work, by
// scripts/runtimes), Node's own answers to the smoke suite, the catalogs, a static server on
// 127.0.0.1 and headless Chromium (Debian's, driven by playwright-core; nothing is downloaded).
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, extname, join, normalize } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { smoke, toolboxOf } from "./smoke.mjs";

export const here = new URL(".", import.meta.url).pathname;
export const repoDir = process.env.TOOLSHELF_REPO ?? join(here, "..", "..");
export const workDir = join(here, ".work");
export const tarball = process.env.TOOLSHELF_TARBALL;
export const bin = (name) => join(here, "node_modules", ".bin", name);
/**
 * wrangler pinned for Node 20 (4.86), by its own path: `wrangler-latest` (an alias of the latest,
 * for Node 24) declares the same bin names, so node_modules/.bin/wrangler may be either.
 */
export const wrangler = [process.execPath, join(here, "node_modules", "wrangler", "bin", "wrangler.js")];
/** The package as installed from the tarball, for `require.resolve`-style lookups from the work folder. */
export const workRequire = createRequire(join(workDir, "package.json"));
export const pkgDir = join(workRequire.resolve("toolshelf/package.json"), "..");

/** The tool lists of GitHub's and Linear's MCP servers, by server (the smoke suite's toolbox). */
export function servers() {
  const read = (name) => JSON.parse(gunzipSync(readFileSync(join(repoDir, "tests", "data", "catalogs", `${name}.json.gz`))).toString("utf8")).map((e) => e.tool);
  return { github: read("github-mcp-server"), linear: read("linear-mcp-official") };
}

/** Node's answers: the installed package's Node entry (as Node resolves it) runs the smoke suite. */
export async function nodeAnswers() {
  const api = await import(pathToFileURL(workRequire.resolve("toolshelf")));
  return smoke(api, toolboxOf(servers()));
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json", ".wasm": "application/wasm", ".css": "text/css" };

/** Serves the folder `root` on 127.0.0.1 (plus `/servers.json`, the smoke suite's tool lists); resolves `{ url, close }`. */
export function serveStatic(root, extra = {}) {
  const routes = { "/servers.json": JSON.stringify(servers()), ...extra };
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://localhost").pathname);
    if (path in routes) return res.writeHead(200, { "content-type": "application/json" }).end(routes[path]);
    const file = normalize(join(root, path.endsWith("/") ? path + "index.html" : path));
    try {
      if (!file.startsWith(normalize(root)) || !statSync(file).isFile()) throw new Error("not a file");
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) })));
}

// As root Chromium needs --no-sandbox; the rest keep it from reaching for the (closed) network.
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run"];

/** Opens `url` in headless Chromium; resolves the page's `window.results` and every error it logged. */
export async function runPage(url) {
  const { chromium } = createRequire(join(repoDir, "package.json"))("playwright-core");
  const browser = await chromium.launch({ executablePath: process.env.TOOLSHELF_CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_FLAGS, timeout: 60_000 });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
    page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
    await page.goto(url, { timeout: 60_000 });
    const handle = await page.waitForFunction(() => window.results ?? window.failure, null, { timeout: 60_000 }).catch(() => null);
    const failure = await page.evaluate(() => window.failure ?? null);
    return { results: handle && !failure ? await page.evaluate(() => window.results) : null, failure, problems };
  } finally {
    await browser.close();
  }
}

/** Runs a command to its end (never hangs: killed at `timeoutMs`); resolves `{ code, stdout, stderr, ms }`. */
export function exec(command, args, { cwd = workDir, env = {}, timeoutMs = 300_000 } = {}) {
  const began = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Math.round(performance.now() - began) });
    });
  });
}

/** A port free on 127.0.0.1 now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createNetServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a long-running command (a dev server, workerd) and resolves once `url` answers 200 (or
 * what `answered(response)` accepts; polled every `pollMs`), with
 * `stop()` and its output so far. Never hangs: killed at `timeoutMs`, and when this process exits.
 */
export async function startServer(command, args, { cwd = workDir, url, timeoutMs = 60_000, env = {}, answered = (r) => r.ok, pollMs = 100 }) {
  const began = performance.now();
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const stop = () => {
    process.off("exit", stop);
    return child.exitCode === null && child.kill("SIGKILL");
  };
  process.once("exit", stop);
  while (performance.now() - began < timeoutMs && child.exitCode === null) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(5_000) }).then(answered, () => false);
    if (ok) return { stop, pid: child.pid, output: () => output, readyMs: Math.round(performance.now() - began) };
    await new Promise((r) => setTimeout(r, pollMs));
  }
  stop();
  throw new Error(`${command} did not answer at ${url} within ${timeoutMs} ms (exit ${child.exitCode}):\n${output}`);
}

/** What wrangler needs to run quietly: no metrics, no banner (and so no update check against the registry), no prompts. */
export const WRANGLER_ENV = { WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true", CI: "true", NO_COLOR: "1" };

/**
 * The capnp config serving wrangler's output folder `outdir` (its modules as they are, `main` first),
 * with text bindings, loopback outbound and, when given, the worker's Durable Object lines.
 */
export function bundleConfig({ outdir, main, port, bindings, durableObjects = "" }) {
  // capnp embeds are relative to the config file, which sits beside the output folder.
  // What wrangler writes beside the bundle: JS modules, the compiled .wasm, and Data modules (a
  // snapshot, `shelf.bin`, imported as an ArrayBuffer by examples/worker).
  const modules = readdirSync(outdir).filter((f) => /\.(js|mjs|wasm|bin)$/.test(f)).map((f) => {
    const kind = f.endsWith(".wasm") ? "wasm" : f.endsWith(".bin") ? "data" : "esModule";
    return `(name = ${JSON.stringify(f)}, ${kind} = embed ${JSON.stringify(`${basename(outdir)}/${f}`)})`;
  });
  modules.sort((a, b) => Number(!a.includes(`"${main}"`)) - Number(!b.includes(`"${main}"`))); // the main module first
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker), (name = "loopback", network = (allow = ["local"])) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ ${modules.join(", ")} ],
  bindings = [ ${Object.entries(bindings).map(([name, text]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(text)})`).join(", ")} ],
  globalOutbound = "loopback",
  compatibilityDate = "2025-01-01",${durableObjects}
);
`;
}

