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
  return compare({ f }, runs).f.median;
}

/**
 * Times each function of `fns` `runs` times, round-robin (so load on the machine and garbage
 * collection fall on all alike), after one warm-up each: `{ name: { median, min } }` in ms.
 */
function compare(fns, runs) {
  const times = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (const f of Object.values(fns)) f();
  for (let i = 0; i < runs; i++) {
    for (const [name, f] of Object.entries(fns)) {
      const t0 = performance.now();
      f();
      times[name].push(performance.now() - t0);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, ts]) => [k, { median: median(ts), min: Math.min(...ts) }]));
}

function size() {
  const bytes = readFileSync(new URL(import.meta.resolve("toolshelf/toolshelf_bg.wasm")));
  const gnu = execFileSync("gzip", ["-9c"], { input: bytes, maxBuffer: 1 << 26 }).length;
  const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  row(".wasm size", `${(bytes.length / 1024).toFixed(1)} KB raw, ${(gnu / 1024).toFixed(1)} KB gzip -9, ${(brotli / 1024).toFixed(1)} KB brotli`,
    `zlib level 9 gzip: ${(gzipSync(bytes, { level: 9 }).length / 1024).toFixed(1)} KB`);
}

/** Runs `code` as a module in `RUNS` fresh Node processes; each prints a JSON object of timings. */
function freshRuns(name, code) {
  const file = join(process.cwd(), `figures-${name}.mjs`);
  writeFileSync(file, code);
  const runs = Array.from({ length: RUNS }, () => JSON.parse(execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 60_000 })));
  return (key) => median(runs.map((r) => r[key]));
}

/** In a fresh Node: ms to import the package (read + compile + instantiate), then the first assemble. */
function nodeColdStart() {
  const linear = JSON.stringify({ servers: { linear: catalog("linear-mcp-official").map((e) => e.tool) } });
  const start = freshRuns("cold", `
    const toolbox = ${linear};
    const t0 = performance.now();
    const api = await import("toolshelf");
    const t1 = performance.now();
    api.assemble(toolbox, { contextLength: 200000 });
    const t2 = performance.now();
    api.assemble(toolbox, { contextLength: 200000 });
    console.log(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1, secondMs: performance.now() - t2 }));`);
  // Compiling alone, in processes of its own (V8 caches a module it has compiled once).
  const compile = freshRuns("compile", `
    import { readFileSync } from "node:fs";
    const bytes = readFileSync(new URL(import.meta.resolve("toolshelf/toolshelf_bg.wasm")));
    const t0 = performance.now();
    new WebAssembly.Module(bytes);
    console.log(JSON.stringify({ compileMs: performance.now() - t0 }));`);
  row("Node cold start: import to first assemble (Linear, 38 tools)", ms(start("importMs") + start("firstMs")),
    `import ${ms(start("importMs"))} (of which compiling the .wasm ${ms(compile("compileMs"))}) + first assemble ${ms(start("firstMs"))}; the second assemble takes ${ms(start("secondMs"))} (medians of ${RUNS} processes)`);
}

/** The same calls once V8 has tiered the wasm up: stateless assemble, and a Shelf's cached assembly. */
function warm() {
  const toolbox = grouped(["linear-mcp-official"]);
  for (let i = 0; i < 100; i++) assemble(toolbox, { contextLength: 200_000 });
  const shelf = new Shelf(toolbox, { contextLength: 200_000 });
  row("warm assemble (Linear, 38 tools)", ms(time(() => assemble(toolbox, { contextLength: 200_000 }), 51)),
    `Shelf.assemble() of a prepared shelf: ${ms(time(() => shelf.assemble(), 51))} (the first calls run before V8 tiers the wasm up)`);
  shelf.free();
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
      // The baseline embeds nothing of the package: the difference is all toolshelf's (compile included).
      writeFileSync(join(work, "config.capnp"), capnpConfig({ work, port, entry: name === "toolshelf" ? entry : null }));
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
  const runs = Math.max(RUNS, 15);
  const t = compare({
    text: () => bench.assembleJson(JSON.stringify(toolbox), optionsText),
    textCall: () => bench.assembleJson(text, optionsText),
    stringify: () => JSON.stringify(toolbox),
    parse: () => bench.parseText(text),
    object: () => bench.assembleValue(toolbox, options),
    walk: () => bench.convertValue(toolbox),
  }, runs);
  const cell = ({ median: m, min }) => `${ms(m)} (min ${ms(min)})`;
  const note = `median and min of ${runs}, interleaved`;
  row("JSON text: JSON.stringify + assembleJson(text)", cell(t.text), `what the package does; ${note}`);
  row("  JSON.stringify(toolbox)", cell(t.stringify));
  row("  assembleJson(text): parse + catalog + assemble + write", cell(t.textCall));
  row("  of which the wasm JSON parse alone", cell(t.parse), `${bench.parseText(text)} values`);
  row("JS object: assembleValue(toolbox): walk from wasm + catalog + assemble + write", cell(t.object), same ? "same output as JSON text" : "OUTPUT DIFFERS");
  row("  of which the object walk alone (Object.entries per object)", cell(t.walk), `vs stringify + parse: ${ms(t.stringify.median + t.parse.median)}`);
}

size();
nodeColdStart();
warm();
await workerdColdStart();
await boundary();
console.log(`| figure | value | note |\n|---|---|---|\n${rows.map((r) => `| ${r.join(" | ")} |`).join("\n")}`);
