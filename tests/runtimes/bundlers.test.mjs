// The packed package through the three bundlers a TypeScript user has, each used as its docs show
// for a wasm package, with no plugin: Vite 8 (`vite build`, no config), webpack 5 (`webpack
// --entry`, no config) and esbuild (`--bundle --loader:.wasm=file`, its TypeScript entry checked by
// tsc 5.9 and 7 first; also with the page at /app/ and the bundle in /app/assets/). Each builds the
// same small page (apps/: check `not_initialized`, load the wasm, run the smoke suite) from the
// tarball as installed in tests/runtimes/.work; the build's output alone is served on 127.0.0.1 and
// opened in headless Chromium. The answers must be Node's, byte for
// byte, the .wasm emitted exactly once and unchanged, and the `browser` entry bundled (no Node or
// workerd code; `not_initialized` before `init()`). Vite and webpack also build the page with the
// package in a Web Worker (their worker builds resolve it anew), and Vite's dev server (whose
// dependency pre-bundling moves the package's files, the usual break of a wasm package) serves
// the page with no config either.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { bin, exec, freePort, here, nodeAnswers, pkgDir, repoDir, runPage, serveStatic, servers, startServer, workDir } from "./support.mjs";
import { meaningful } from "./smoke.mjs";

const CLASSIC_PAGE = '<!doctype html>\n<meta charset="utf-8">\n<link rel="icon" href="data:,">\n<script src="./main.js"></script>\n';
const MODULE_PAGE = (script) => `<!doctype html>\n<meta charset="utf-8">\n<link rel="icon" href="data:,">\n<script type="module" src="./${script}"></script>\n`;
const viteBuild = [bin("vite"), ["build", "--outDir", "dist", "--emptyOutDir", "--logLevel", "warn"]];
const esbuildBuild = (outfile) => [bin("esbuild"), ["main-esbuild.ts", "--bundle", "--format=esm", "--loader:.wasm=file", `--outfile=${outfile}`, "--log-level=warning"]];
const webpackBuild = (entry) => [bin("webpack"), ["--mode", "production", "--entry", entry, "--output-path", "dist", "--no-stats"]];

// Each build: the command, the page Vite builds from (`source`) or the page served beside the output (`page`).
// The Web Worker builds run the package off the main thread (`new Worker(new URL(…))`, main-worker.js):
// there each bundler resolves the package under the conditions it gives workers.
const BUNDLERS = {
  vite: { build: viteBuild, source: MODULE_PAGE("main.js") },
  "vite-worker": { build: viteBuild, source: MODULE_PAGE("main-worker.js") },
  // webpack writes a classic script; its `publicPath: "auto"` finds the .wasm beside it
  webpack: { build: webpackBuild("./main.js"), page: CLASSIC_PAGE },
  "webpack-worker": { build: webpackBuild("./main-worker.js"), page: CLASSIC_PAGE },
  esbuild: { typecheck: ["main-esbuild.ts", "wasm.d.ts"], build: esbuildBuild("dist/main.js"), page: MODULE_PAGE("main.js") },
  // The page at /app/, the bundle and its .wasm in /app/assets/: the .wasm's URL is the bundle's.
  "esbuild-subfolder": { typecheck: ["main-esbuild.ts", "wasm.d.ts"], build: esbuildBuild("dist/app/assets/main.js"), page: MODULE_PAGE("assets/main.js"), pageAt: "app/" },
};

/** Every file under `dir`, relative to it. */
function files(dir) {
  return readdirSync(dir, { recursive: true }).filter((f) => statSync(join(dir, f)).isFile()).sort();
}

/** Copies the app into .work/<name>, builds it, and returns its output folder and the build's time. */
async function build(name) {
  const dir = join(workDir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(here, "apps"), dir, { recursive: true });
  cpSync(join(here, "smoke.mjs"), join(dir, "smoke.mjs"));
  if (BUNDLERS[name].source) writeFileSync(join(dir, "index.html"), BUNDLERS[name].source);
  if (BUNDLERS[name].typecheck) {
    const flags = ["--noEmit", "--strict", "--allowJs", "--module", "esnext", "--moduleResolution", "bundler", "--target", "es2022", "--lib", "es2022,dom"];
    for (const compiler of ["typescript", "typescript-7"]) {
      const tsc = join(repoDir, "node_modules", compiler, "bin", "tsc");
      const checked = await exec(process.execPath, [tsc, ...flags, ...BUNDLERS[name].typecheck], { cwd: dir });
      assert.equal(checked.code, 0, `${compiler}: ${checked.stdout}${checked.stderr}`);
    }
  }
  const [command, args] = BUNDLERS[name].build;
  const run = await exec(command, args, { cwd: dir });
  assert.equal(run.code, 0, `${name} build failed:\n${run.stdout}\n${run.stderr}`);
  const dist = join(dir, "dist");
  if (BUNDLERS[name].page) writeFileSync(join(dist, BUNDLERS[name].pageAt ?? "", "index.html"), BUNDLERS[name].page);
  return { dist, ms: run.ms, warnings: run.stderr.trim() };
}

for (const name of Object.keys(BUNDLERS)) {
  test(`${name}: the built page runs the smoke suite in headless Chromium with Node's answers`, { timeout: 300_000 }, async () => {
    const { dist, ms, warnings } = await build(name);
    const output = files(dist);
    const wasm = output.filter((f) => f.endsWith(".wasm"));
    assert.equal(wasm.length, 1, `one .wasm in the output: ${output.join(", ")}`);
    assert.deepEqual(readFileSync(join(dist, wasm[0])), readFileSync(join(pkgDir, "wasm", "toolshelf_bg.wasm")), "the package's own .wasm, unchanged");
    const js = output.filter((f) => f.endsWith(".js")).map((f) => readFileSync(join(dist, f), "utf8")).join("\n");
    assert.doesNotMatch(js, /node:fs|readFileSync|initSync\(\{ module: wasmModule/, "the browser entry, not node.js or workerd.js");
    const server = await serveStatic(dist);
    try {
      const { results, failure, problems } = await runPage(`${server.url}/${BUNDLERS[name].pageAt ?? ""}`);
      assert.equal(failure, null);
      assert.deepEqual(problems, []);
      assert.ok(results, "the page reported its results");
      assert.equal(results.before, "not_initialized");
      assert.deepEqual(meaningful(results.answers), []);
      assert.equal(results.answers, await nodeAnswers(), `${name}'s page answers Node's bytes`);
    } finally {
      await server.close();
    }
    const bytes = output.filter((f) => f.endsWith(".js")).reduce((n, f) => n + statSync(join(dist, f)).size, 0);
    console.log(`${name}: built in ${ms} ms; output ${output.map((f) => relative(".", f)).join(", ")} (JS ${(bytes / 1000).toFixed(1)} KB)${warnings ? `; said: ${warnings.split("\n")[0]}` : ""}`);
  });
}

// The npm page's esbuild recipe is the one these builds run: the .wasm's URL resolved against the
// bundle's, and the one declaration TypeScript needs.
test("the packed README's esbuild recipe is apps/main-esbuild.ts's, its TypeScript declaration apps/wasm.d.ts's", () => {
  const readme = readFileSync(join(pkgDir, "README.md"), "utf8");
  const app = readFileSync(join(here, "apps", "main-esbuild.ts"), "utf8");
  assert.match(readme, /--loader:\.wasm=file/);
  assert.ok(readme.includes('import wasmUrl from "toolshelf/toolshelf_bg.wasm";') && app.includes('import wasmUrl from "toolshelf/toolshelf_bg.wasm";'));
  assert.ok(readme.includes("await init(new URL(wasmUrl, import.meta.url));") && app.includes("init(new URL(wasmUrl, import.meta.url))"));
  const declaration = readFileSync(join(here, "apps", "wasm.d.ts"), "utf8").replace(/^\/\/.*\n/gm, "").replace(/\s+/g, " ").trim();
  assert.ok(readme.replace(/\s+/g, " ").includes(declaration), `the README declares ${declaration}`);
});

test("vite dev server (dependency pre-bundling, no config): the page answers Node's bytes", { timeout: 300_000 }, async () => {
  const dir = join(workDir, "vite-dev");
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(here, "apps"), dir, { recursive: true });
  cpSync(join(here, "smoke.mjs"), join(dir, "smoke.mjs"));
  writeFileSync(join(dir, "index.html"), MODULE_PAGE("main.js"));
  mkdirSync(join(dir, "public"));
  writeFileSync(join(dir, "public", "servers.json"), JSON.stringify(servers()));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const vite = await startServer(bin("vite"), ["--host", "127.0.0.1", "--port", String(port), "--strictPort", "--force"], { cwd: dir, url });
  try {
    const { results, failure, problems } = await runPage(url);
    assert.equal(failure, null);
    assert.deepEqual(problems, []);
    assert.equal(results?.before, "not_initialized");
    assert.equal(results.answers, await nodeAnswers());
    console.log(`vite dev: ready in ${vite.readyMs} ms; the page answered Node's bytes`);
  } finally {
    vite.stop();
  }
});
