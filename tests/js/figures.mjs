// Figures, run by hand through scripts/figures (not a test: numbers vary with the machine). From
// the consumer project where the packed package is installed:
//   1. the .wasm's size, raw, gzip and brotli;
//   2. cold start in Node: a fresh process's `import "toolshelf"`, then its first assemble;
//   3. cold start in workerd: spawn to first answer, a Worker with toolshelf against one without;
//   4. the boundary on the 3,397-tool catalog (rest-apis-flat-3400): JSON text (what the package
//      does) against a JS object walked from wasm (the serde-wasm-bindgen way, prototyped in
//      tools/boundary-bench), each part timed. TOOLSHELF_BENCH_GLUE names that prototype's glue.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { assemble, search, Shelf } from "toolshelf";
import { catalog, grouped, tool } from "./support.mjs";
import { capnpConfig, freePort, startWorkerd, workerdEntry } from "./workerd-support.mjs";

const RUNS = Number(process.env.FIGURES_RUNS ?? 7);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;
const rows = [];
const row = (what, value, note = "") => {
  rows.push([what, value, note]);
  console.error(`${what}: ${value} ${note}`);
};

/** Median wall time of `f` over `runs` calls, after one warm-up call. */
function time(f, runs = RUNS) {
  f();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  return median(times);
}

function size() {
  const bytes = readFileSync(new URL(import.meta.resolve("toolshelf/toolshelf_bg.wasm")));
  const gnu = execFileSync("gzip", ["-9c"], { input: bytes, maxBuffer: 1 << 26 }).length;
  const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  row(".wasm size", `${(bytes.length / 1024).toFixed(1)} KB raw, ${(gnu / 1024).toFixed(1)} KB gzip -9, ${(brotli / 1024).toFixed(1)} KB brotli`,
    `zlib level 9 gzip: ${(gzipSync(bytes, { level: 9 }).length / 1024).toFixed(1)} KB`);
}

/** In a fresh Node: ms to import the package (read + compile + instantiate), then to the first assemble. */
function nodeColdStart() {
  const code = `
    import { readFileSync } from "node:fs";
    const toolbox = { servers: { linear: ${JSON.stringify(catalog("linear-mcp-official").map((e) => e.tool))} } };
    const t0 = performance.now();
    const api = await import("toolshelf");
    const t1 = performance.now();
    api.assemble(toolbox, { contextLength: 200000 });
    const t2 = performance.now();
    const bytes = readFileSync(new URL(import.meta.resolve("toolshelf/toolshelf_bg.wasm")));
    const t3 = performance.now();
    new WebAssembly.Module(bytes);
    console.log(JSON.stringify({ importMs: t1 - t0, assembleMs: t2 - t1, compileMs: performance.now() - t3 }));`;
  const file = join(process.cwd(), "figures-cold.mjs");
  writeFileSync(file, code);
  const runs = Array.from({ length: RUNS }, () => JSON.parse(execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 60_000 })));
  const m = (k) => median(runs.map((r) => r[k]));
  row("Node cold start: import to first assemble (Linear, 38 tools)", ms(m("importMs") + m("assembleMs")),
    `import ${ms(m("importMs"))} + first assemble ${ms(m("assembleMs"))}; compiling the .wasm alone takes ${ms(m("compileMs"))} (median of ${RUNS} processes)`);
}

/** Spawn-to-first-answer of workerd for a Worker without toolshelf, then one that imports it and assembles. */
async function workerdColdStart() {
  const work = join(process.cwd(), "workerd-figures");
  mkdirSync(work, { recursive: true });
  const entry = workerdEntry();
  writeFileSync(join(work, "input.json"), JSON.stringify({ servers: { linear: catalog("linear-mcp-official").map((e) => e.tool) } }));
  const workers = {
    baseline: 'import input from "./input.json";\nexport default { fetch() { return new Response(String(Object.keys(input).length)); } };',
    toolshelf: 'import { assemble } from "toolshelf";\nimport input from "./input.json";\nexport default { fetch() { return Response.json(assemble(input, { contextLength: 200000 }).tier); } };',
  };
  const result = {};
  for (const [name, source] of Object.entries(workers)) {
    writeFileSync(join(work, "worker.js"), source);
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const port = await freePort();
      // The baseline embeds the package too (unused), so both configs load the same bytes.
      writeFileSync(join(work, "config.capnp"), capnpConfig({ work, port, entry }));
      const server = await startWorkerd({ work, configFile: "config.capnp", port });
      times.push(server.readyMs);
      server.stop();
    }
    result[name] = median(times);
  }
  row("workerd cold start: spawn to first answer", `${ms(result.toolshelf)} with toolshelf (import + first assemble)`,
    `${ms(result.baseline)} for the same Worker without it: toolshelf adds ${ms(result.toolshelf - result.baseline)} (median of ${RUNS})`);
}

/** JSON text against object walking on the 3,397 REST tools. */
async function boundary() {
  const toolbox = grouped(["rest-apis-flat-3400"], [tool("read_file")]);
  const options = { contextLength: 200_000 };
  const text = JSON.stringify(toolbox);
  row("rest-apis-flat-3400 toolbox", `${(text.length / 1e6).toFixed(2)} MB of JSON text`, "3,397 deferred tools + 1 direct");
  row("public assemble(toolbox) (stringify + wasm + parse + hydrate)", ms(time(() => assemble(toolbox, options))));
  row("  JSON.stringify(toolbox)", ms(time(() => JSON.stringify(toolbox))));
  row("new Shelf(toolbox) (stringify + parse + catalog)", ms(time(() => new Shelf(toolbox, options).free())));
  const shelf = new Shelf(toolbox, options);
  shelf.search("warm the index");
  row("Shelf.search, index built (median of 5 queries)", ms(median(["stripe create customer", "twilio send sms", "cloudflare dns record", "list invoices", "delete zone"].map((q) => time(() => shelf.search(q))))));
  row("stateless search(toolbox, query) (rebuilds the index)", ms(time(() => search(toolbox, "stripe create customer"), 3)));
  shelf.free();

  const glue = process.env.TOOLSHELF_BENCH_GLUE;
  if (!glue) return row("object boundary", "not measured", "TOOLSHELF_BENCH_GLUE unset (scripts/figures builds tools/boundary-bench)");
  const bench = await import(pathToFileURL(glue).href);
  bench.initSync({ module: readFileSync(glue.replace(/\.js$/, "_bg.wasm")) });
  const optionsText = JSON.stringify(options);
  const same = bench.assembleJson(text, optionsText) === bench.assembleValue(toolbox, options);
  row("JSON text: JSON.stringify + assembleJson(text)", ms(time(() => bench.assembleJson(JSON.stringify(toolbox), optionsText))), "what the package does");
  row("  of which assembleJson(text) (parse + catalog + assemble + write)", ms(time(() => bench.assembleJson(text, optionsText))));
  row("  of which the wasm JSON parse alone", ms(time(() => bench.parseText(text))), `${bench.parseText(text)} values`);
  row("JS object: assembleValue(toolbox) (walk from wasm + catalog + assemble + write)", ms(time(() => bench.assembleValue(toolbox, options))), same ? "same output as JSON text" : "OUTPUT DIFFERS");
  row("  of which the object walk alone (Object.entries per object)", ms(time(() => bench.convertValue(toolbox))));
}

size();
nodeColdStart();
await workerdColdStart();
await boundary();
console.log(`| figure | value | note |\n|---|---|---|\n${rows.map((r) => `| ${r.join(" | ")} |`).join("\n")}`);
