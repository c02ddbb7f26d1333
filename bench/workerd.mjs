// bench/workerd.mjs (scripts/bench --workerd): toolshelf in the real Cloudflare Workers runtime.
// Must a Worker rebuild its prepared toolbox (new Shelf + the search index, built on the first
// search) per request, or can it prepare once at module scope and only answer per request?
//
//   node bench/workerd.mjs [--reps N] [--requests N] [--workers empty,module,snapshot,...]
//
// workerd (npm `workerd`, node_modules/.bin/workerd) serves, one process at a time, a Worker that
// imports the built package as a Worker does (pkg/workerd.js and its module graph, the .wasm
// precompiled; tests/js/workerd-support.mjs) with the toolbox bundled as a JSON module. Workers:
//
//   empty          returns a fixed response (baseline: workerd's own startup and an HTTP round trip)
//   import only    imports toolshelf and the toolbox, returns a fixed response
//   per request    new Shelf(toolbox, options), one search, assemble(), free(), per request
//   module scope   Shelf built and its index warmed (one search) at module top level; per request
//                  one search and shelf.assemble()
//   module scope, and assemble()  the same, shelf.assemble() also called once at top level (its
//                  plan is made on the first call, then kept)
//   stateless      assemble(toolbox, options) and search(toolbox, q, options) per request (each
//                  prepares the toolbox and frees it: nothing is kept between calls)
//   import toolshelf only / import the snapshot only  the snapshot's bundle (toolshelf and
//                  shelf.bin both in it), of which the Worker imports one: where a snapshot
//                  Worker's startup goes before its code runs
//   import only, snapshot  imports toolshelf and the snapshot (shelf.bin, a Data module as
//                  wrangler bundles one: an ArrayBuffer), returns a fixed response
//   module scope, snapshot  Shelf.fromSnapshot(bytes) at module top level (the snapshot holds the
//                  toolbox and the index, made by shelf.snapshot() in Node); per request one search
//                  and shelf.assemble()
//   module scope, snapshot, and a search at top level too  the same, with one search at top level
//                  (as the module-scope Worker makes one to build its index): the search code has
//                  run once before the first request
//
// Timed from Node by the wall clock (inside workerd, performance.now() does not advance during
// synchronous work): startup = spawn → first answer of /ping (the module's global scope has run by
// then), less the empty Worker's of the same repetition, and the slowest startup of the repetitions;
// then the first request, and REQUESTS more, sequential, each a different keyword query of the
// toolbox's catalogs (tests/data/queries-keyword.json): their median and p95. A request's wall time
// includes an HTTP round trip through loopback (the empty Worker's row) and bounds its CPU time from
// above. Also workerd's resident memory after the requests (the whole process; the empty Worker's
// row is the runtime's own). Repetitions alternate the Workers (rotated order); every figure printed
// is the median over the repetitions. A bench, not a test: it checks that each Worker answers what
// Node's package answers, and asserts no time.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { LADDER, entriesOf, keywordQueries, toolboxOf, everyNth } from "./data.mjs";
import { Shelf, optionsFor } from "./toolshelf.mjs";
import { WORKERD, capnpConfig, freePort, startWorkerd } from "../tests/js/workerd-support.mjs";

const args = process.argv.slice(2);
const value = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && at + 1 < args.length ? args[at + 1] : fallback;
};
const REPS = Number(value("--reps", 5));
const REQUESTS = Number(value("--requests", 30));
const ENTRY = new URL("../pkg/workerd.js", import.meta.url).pathname;
const LIMIT = 5;

// ---------------------------------------------------------------- toolboxes and queries
/** The catalogs a toolbox's keyword queries come from (rest-apis-flat-3400 is three of them). */
const PARTS = { "rest-apis-flat-3400": ["cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04"] };
const TOOLBOXES = [LADDER[3], LADDER[4]].map((step) => {
  const entries = entriesOf(step.names);
  const catalogs = new Set(step.names.flatMap((n) => PARTS[n] ?? [n]));
  // The union's own name is no query set's catalog: it holds the labelled catalogs, so all of them.
  const own = keywordQueries().filter((q) => catalogs.has(q.catalog)).map((q) => q.query);
  const pool = own.length > 0 ? own : keywordQueries().map((q) => q.query);
  // REQUESTS + 1 different queries (the first request's, then the timed ones), spread over the set.
  const spread = everyNth(pool, Math.max(1, Math.floor(pool.length / (REQUESTS + 1))));
  const queries = Array.from({ length: REQUESTS + 1 }, (_, i) => spread[i % spread.length]);
  return { label: step.label, toolbox: toolboxOf(entries), options: optionsFor(step.qualify), queries };
});

// ---------------------------------------------------------------- the Workers
const ANSWER = `const answer = (hits, a) => Response.json({ hits: hits.matches.map((m) => m.name), tools: a.tools.length, fingerprint: a.fingerprint });
const queryOf = (url) => url.searchParams.get("q") ?? "";`;
// The fetch handler of the Workers that hold a `shelf` at module scope: one search and assemble().
const SERVE_HELD = `export default {
  fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/ping") return new Response("ok");
    const hits = shelf.search(queryOf(url), { limit: ${LIMIT} });
    return answer(hits, shelf.assemble());
  },
};`;
const ALL_WORKERS = [
  { key: "empty", label: "empty (baseline)", toolshelf: false, source: `export default { fetch() { return new Response("ok"); } };` },
  {
    key: "import",
    label: "import only",
    toolshelf: true,
    source: `import { Shelf } from "toolshelf";
import input from "./input.json";
const imported = typeof Shelf + Object.keys(input.toolbox).length;
export default { fetch() { return new Response(imported); } };`,
  },
  {
    key: "request",
    label: "per request: new Shelf + search + assemble + free",
    toolshelf: true,
    source: `import { Shelf } from "toolshelf";
import input from "./input.json";
${ANSWER}
const { toolbox, options } = input;
export default {
  fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/ping") return new Response("ok");
    const shelf = new Shelf(toolbox, options);
    try {
      const hits = shelf.search(queryOf(url), { limit: ${LIMIT} });
      return answer(hits, shelf.assemble());
    } finally {
      shelf.free();
    }
  },
};`,
  },
  ...[false, true].map((warmAssemble) => ({
    key: warmAssemble ? "module+" : "module",
    label: warmAssemble ? "module scope, and assemble() at top level too" : "module scope: Shelf + index at top level; search + assemble",
    toolshelf: true,
    source: `import { Shelf } from "toolshelf";
import input from "./input.json";
${ANSWER}
const { toolbox, options } = input;
const shelf = new Shelf(toolbox, options);
shelf.search("warm up", { limit: 1 });${warmAssemble ? "\nshelf.assemble();" : ""}
${SERVE_HELD}`,
  })),
  {
    key: "import-toolshelf",
    label: "import toolshelf only, the snapshot in the bundle unimported",
    toolshelf: true,
    snapshot: true,
    source: `import { Shelf } from "toolshelf";
const imported = typeof Shelf;
export default { fetch() { return new Response(imported); } };`,
  },
  {
    key: "import-bin",
    label: "import the snapshot only (a Data module), toolshelf in the bundle unimported",
    toolshelf: true,
    snapshot: true,
    source: `import bytes from "./shelf.bin";
const imported = String(bytes.byteLength);
export default { fetch() { return new Response(imported); } };`,
  },
  {
    key: "import-snapshot",
    label: "import only, snapshot",
    toolshelf: true,
    snapshot: true,
    source: `import { Shelf } from "toolshelf";
import bytes from "./shelf.bin";
const imported = typeof Shelf + bytes.byteLength;
export default { fetch() { return new Response(imported); } };`,
  },
  ...[false, true].map((warmSearch) => ({
    key: warmSearch ? "snapshot+" : "snapshot",
    label: warmSearch ? "module scope, snapshot, and a search at top level too" : "module scope, snapshot: Shelf.fromSnapshot at top level; search + assemble",
    toolshelf: true,
    snapshot: true,
    source: `import { Shelf } from "toolshelf";
import bytes from "./shelf.bin";
${ANSWER}
const shelf = Shelf.fromSnapshot(bytes);${warmSearch ? '\nshelf.search("warm up", { limit: 1 });' : ""}
${SERVE_HELD}`,
  })),
  {
    key: "stateless",
    label: "stateless: assemble(toolbox) + search(toolbox, q)",
    toolshelf: true,
    source: `import { assemble, search } from "toolshelf";
import input from "./input.json";
${ANSWER}
const { toolbox, options } = input;
export default {
  fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/ping") return new Response("ok");
    const a = assemble(toolbox, options);
    return answer(search(toolbox, queryOf(url), { ...options, limit: ${LIMIT} }), a);
  },
};`,
  },
];

/** `--workers empty,module,snapshot`: only those Workers (the rows of the others stay empty). */
const ONLY = value("--workers", null)?.split(",");
const WORKERS = ONLY ? ALL_WORKERS.filter((w) => ONLY.includes(w.key)) : ALL_WORKERS;

// ---------------------------------------------------------------- helpers
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * p))];
const rotate = (list, by) => list.map((_, i) => list[(i + by) % list.length]);
const ms = (x) => (!Number.isFinite(x) ? "—" : Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));
const ratio = (a, b) => (Number.isFinite(a / b) && b > 0 ? `${(a / b).toFixed(3)}×` : "—");
const log = (...xs) => process.stderr.write(`[workerd-bench] ${xs.join(" ")}\n`);
const table = (header, rows) => {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map((_, i) => (i === 0 ? "---" : "---:"))), ...rows.map(line)].join("\n");
};
/** kB of a /proc/PID/status field (VmRSS: resident now; VmHWM: its peak). */
const procKb = (pid, field) => Number(readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`^${field}:\\s*(\\d+)`, "m"))?.[1]);

async function get(port, path) {
  const start = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(60_000) });
  const text = await response.text();
  const elapsed = performance.now() - start;
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}: ${text.slice(0, 500)}`);
  return { elapsed, text };
}

/** What Node's package answers for a query: every Worker that uses toolshelf must answer the same. */
function expected(box, query) {
  const shelf = new Shelf(box.toolbox, box.options);
  const a = shelf.assemble();
  const body = { hits: shelf.search(query, { limit: LIMIT }).matches.map((m) => m.name), tools: a.tools.length, fingerprint: a.fingerprint };
  shelf.free();
  return JSON.stringify(body);
}

/** One workerd process serving `worker` with `box`: startup, first request, then REQUESTS more. */
async function run(root, box, boxIndex, worker) {
  const work = join(root, `${boxIndex}-${worker.key}`);
  const port = await freePort();
  const extraModules = worker.snapshot ? ['(name = "shelf.bin", data = embed "shelf.bin")'] : [];
  const config = { work, port, entry: worker.toolshelf ? ENTRY : null, withInput: worker.toolshelf && !worker.snapshot, extraModules };
  writeFileSync(join(work, "config.capnp"), capnpConfig(config));
  const server = await startWorkerd({ work, configFile: "config.capnp", port, path: "/ping", pollMs: 5 });
  try {
    const path = (q) => `/?q=${encodeURIComponent(q)}`;
    const first = await get(port, path(box.queries[0]));
    if (worker.toolshelf && !worker.key.startsWith("import") && first.text !== box.expected) {
      throw new Error(`${worker.key} on ${box.label} answered ${first.text.slice(0, 300)}\nNode answers ${box.expected.slice(0, 300)}`);
    }
    const times = [];
    for (const q of box.queries.slice(1)) times.push((await get(port, path(q))).elapsed);
    times.sort((a, b) => a - b);
    return {
      startup: server.readyMs,
      first: first.elapsed,
      p50: median(times),
      p95: percentile(times, 0.95),
      rssMiB: procKb(server.pid, "VmRSS") / 1024,
      peakMiB: procKb(server.pid, "VmHWM") / 1024,
    };
  } catch (e) {
    throw new Error(`${e.message}\nworkerd output:\n${server.output().slice(-2000)}`);
  } finally {
    server.stop();
    await server.exited;
  }
}

// ---------------------------------------------------------------- main
const began = performance.now();
const root = mkdtempSync(join(tmpdir(), "toolshelf-workerd-bench-"));
process.once("exit", () => rmSync(root, { recursive: true, force: true }));
TOOLBOXES.forEach((box, b) => {
  box.expected = expected(box, box.queries[0]);
  const input = JSON.stringify({ toolbox: box.toolbox, options: box.options });
  box.bytes = Buffer.byteLength(input);
  const prepared = new Shelf(box.toolbox, box.options);
  const snapshot = prepared.snapshot();
  prepared.free();
  box.snapshotBytes = snapshot.length;
  for (const worker of WORKERS) {
    const work = join(root, `${b}-${worker.key}`);
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, "worker.js"), worker.source);
    if (worker.snapshot) writeFileSync(join(work, "shelf.bin"), snapshot);
    else if (worker.toolshelf) writeFileSync(join(work, "input.json"), input);
  }
});

// results[b][key] = one record per repetition
const results = TOOLBOXES.map(() => Object.fromEntries(ALL_WORKERS.map((w) => [w.key, []])));
for (let rep = 0; rep < REPS; rep++) {
  for (const [b, box] of TOOLBOXES.entries()) {
    for (const worker of rotate(WORKERS, rep + b)) {
      const r = await run(root, box, b, worker);
      results[b][worker.key].push(r);
      log(`rep ${rep + 1}/${REPS} ${box.label} ${worker.key}: startup ${ms(r.startup)} first ${ms(r.first)} p50 ${ms(r.p50)} p95 ${ms(r.p95)} ms`);
    }
  }
}

const model = readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.*)$/m)?.[1] ?? cpus()[0]?.model;
const nproc = execFileSync("nproc").toString().trim();
const workerdVersion = execFileSync(WORKERD, ["--version"]).toString().trim();
console.log(`## Cloudflare Workers: prepare at module scope (bench/workerd.mjs)\n`);
console.log(
  `${new Date().toISOString().slice(0, 10)}; ${nproc} cores (\`nproc\`), ${model}; Node ${process.version}; ${workerdVersion}; ` +
    `load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")} at the end. ` +
    `Medians of ${REPS} alternating repetitions; per-request latency over ${REQUESTS} sequential requests after the first, ` +
    `each a different keyword query; wall clock from Node, HTTP round trip included (the empty Worker's row).`,
);
for (const [b, box] of TOOLBOXES.entries()) {
  const res = results[b];
  const emptyStartup = res.empty.map((r) => r.startup);
  // Startup less the empty Worker's of the same repetition, then the median over repetitions.
  const startupOver = (key) => median(res[key].map((r, i) => r.startup - emptyStartup[i]));
  const med = (key, field) => median(res[key].map((r) => r[field]));
  const rows = WORKERS.map((w) => [
    w.label,
    w.key === "empty" ? `${ms(median(emptyStartup))} (absolute)` : ms(startupOver(w.key)),
    ms(Math.max(...res[w.key].map((r) => r.startup))),
    ms(med(w.key, "first")),
    ms(med(w.key, "p50")),
    ms(med(w.key, "p95")),
    `${med(w.key, "rssMiB").toFixed(0)} / ${med(w.key, "peakMiB").toFixed(0)}`,
  ]);
  for (const key of ["snapshot", "snapshot+"]) {
    rows.push([
      `**${key === "snapshot" ? "module scope, snapshot" : "module scope, snapshot and a search"} ÷ module scope**`,
      ratio(startupOver(key), startupOver("module")),
      ratio(Math.max(...res[key].map((r) => r.startup)), Math.max(...res.module.map((r) => r.startup))),
      ratio(med(key, "first"), med("module", "first")),
      ratio(med(key, "p50"), med("module", "p50")),
      ratio(med(key, "p95"), med("module", "p95")),
      "",
    ]);
  }
  for (const key of ["module", "module+"]) {
    rows.push([
      `**${key === "module" ? "module scope" : "module scope, and assemble()"} ÷ per request**`,
      ratio(startupOver(key), startupOver("request")),
      "",
      ratio(med(key, "first"), med("request", "first")),
      ratio(med(key, "p50"), med("request", "p50")),
      ratio(med(key, "p95"), med("request", "p95")),
      "",
    ]);
  }
  console.log(`\n### ${box.label}, ${box.options.qualify ? "qualify, " : ""}${(box.bytes / 1e6).toFixed(1)} MB JSON module, ${(box.snapshotBytes / 1e6).toFixed(1)} MB snapshot\n`);
  console.log(table(["Worker", "startup ms (− empty)", "slowest startup ms (absolute)", "first request ms", "p50 ms", "p95 ms", "workerd RSS / peak MiB"], rows));
}
log(`done in ${((performance.now() - began) / 1000).toFixed(0)} s`);
