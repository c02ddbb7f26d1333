// scripts/bench: toolshelf (the built npm package, boundary included) against minisearch, Orama,
// FlexSearch and Lunr, in one Node process. Prints markdown tables: bundle sizes, per-catalog
// speed and memory, retrieval quality, stateless calls and Shelf.update, and the targets.
//
//   node --expose-gc bench/bench.mjs [--reps N] [--catalogs 0,3] [--only bundle,speed,state,retrieval]
//                                    [--nl-step N] [--smoke] [--variants] [--json FILE]
//
// Speed figures are medians over N repetitions (default 5); in each repetition the libraries run in
// a rotated order (alternating runs), each one timed on a fresh index. Query latency: every query
// timed over several runs (its mean), then p50/p95 across the queries of one repetition; the
// median of those over the repetitions is printed. Ratios are toolshelf ÷ peer (below 1: toolshelf
// is faster / smaller).
import { gzipSync } from "node:zlib";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { Worker } from "node:worker_threads";
import { LADDER, catalog, entriesOf, toolboxOf, keywordQueries, shippedQueries, everyNth } from "./data.mjs";
import { peers, variants, versions } from "./peers.mjs";
import { toolshelf, Shelf, ShelfHandle, assemble, search, optionsFor, toolboxRoom } from "./toolshelf.mjs";
import { haveFixtures, printVectors, vectorLatency, vectorRetrieval } from "./vectors.mjs";

// ---------------------------------------------------------------- arguments
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && at + 1 < args.length ? args[at + 1] : fallback;
};
const SMOKE = flag("--smoke");
const REPS = Number(value("--reps", SMOKE ? 1 : 5));
const NL_STEP = Number(value("--nl-step", SMOKE ? 1000 : 1));
const LADDER_PICK = value("--catalogs", SMOKE ? "0" : LADDER.map((_, i) => i).join(","))
  .split(",")
  .map(Number)
  .filter((i) => LADDER[i]);
const ONLY = new Set(value("--only", "bundle,speed,state,retrieval,vectors").split(","));
const INNER = SMOKE ? 1 : 5; // runs per query per repetition (their mean is the query's latency)
const ASSEMBLE_RUNS = SMOKE ? 1 : 11;
if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc (scripts/bench does)");

const LIBS = ["toolshelf", "minisearch", "orama", "flexsearch", "lunr"];
const PEERS = LIBS.slice(1);
const ADAPTERS = { toolshelf, ...peers };
const results = { machine: machine(), ladder: [], retrieval: {}, bundle: {}, state: null };

// ---------------------------------------------------------------- helpers
function machine() {
  const model = readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.*)$/m)?.[1] ?? cpus()[0]?.model;
  const nproc = execFileSync("nproc").toString().trim();
  return { date: new Date().toISOString().slice(0, 10), nproc, cpu: model, node: process.version };
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * p))];
const rotate = (list, by) => list.map((_, i) => list[(i + by) % list.length]);
const now = () => performance.now();
const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const us = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const ratio = (ours, theirs) => (Number.isFinite(ours / theirs) ? `${(ours / theirs).toFixed(2)}×` : "—");
const kb = (bytes) => (bytes / 1024).toFixed(1);
const mb = (bytes) => (bytes / 1048576).toFixed(1);
const log = (...xs) => process.stderr.write(`[bench] ${xs.join(" ")}\n`);
const table = (header, rows) => {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map((_, i) => (i === 0 ? "---" : "---:"))), ...rows.map(line)].join("\n");
};

/** Latency of each query in µs, sorted: the mean of `INNER` runs, or one run when that took over 1 ms. */
function latencies(run, queries) {
  const out = [];
  for (const q of queries) {
    let start = now();
    run(q);
    let elapsed = now() - start;
    if (elapsed < 1 && INNER > 1) {
      start = now();
      for (let i = 0; i < INNER; i++) run(q);
      elapsed = (now() - start) / INNER;
    }
    out.push(elapsed * 1000);
  }
  return out.sort((a, b) => a - b);
}

/** Query strings for latency: the keyword set, and an even sample of the natural-language sets. */
function latencyQueries() {
  const keyword = keywordQueries().map((q) => q.query);
  const per = SMOKE ? 20 : 100;
  const nl = ["toolbench", "bfcl", "metatool"].flatMap((set) => {
    const list = shippedQueries(set);
    return everyNth(list, Math.max(1, Math.floor(list.length / per))).slice(0, per).map((q) => q.query);
  });
  return { keyword: SMOKE ? keyword.slice(0, 40) : keyword, nl };
}

// ---------------------------------------------------------------- bundle sizes
/** Each package's published browser file(s); Orama ships no single-file build, so none is listed for it. */
const PKG_DIR = new URL("../pkg/", import.meta.url).pathname;
const DIST_FILES = {
  toolshelf: ["web.js", "api.js", "state.js", "wasm/toolshelf.js"].map((f) => PKG_DIR + f),
  minisearch: ["minisearch/dist/es/index.js"],
  orama: [],
  flexsearch: ["flexsearch/dist/flexsearch.bundle.module.min.mjs"],
  lunr: ["lunr/lunr.min.js"],
};

function bundleSizes() {
  const bench = new URL(".", import.meta.url).pathname;
  const esbuild = join(bench, "node_modules/.bin/esbuild");
  const pkg = new URL("../pkg/", import.meta.url).pathname;
  const entries = {
    toolshelf: `export { init, Shelf, search, assemble, describe, unwrap } from ${JSON.stringify(pkg + "web.js")};`,
    minisearch: `export { default } from "minisearch";`,
    orama: `export { create, insertMultiple, search } from "@orama/orama";`,
    flexsearch: `export { default } from "flexsearch";`,
    lunr: `export { default } from "lunr";`,
  };
  const out = {};
  for (const [lib, source] of Object.entries(entries)) {
    const sizes = {};
    for (const minify of [false, true]) {
      // The entry comes on stdin, resolved from bench/ (its node_modules); the bundle on stdout.
      const flags = ["--bundle", "--format=esm", "--platform=browser", "--log-level=error", ...(minify ? ["--minify"] : [])];
      const bytes = execFileSync(esbuild, flags, { cwd: bench, input: source, maxBuffer: 1 << 26 });
      sizes[minify ? "min" : "plain"] = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    }
    if (lib === "toolshelf") {
      const wasm = readFileSync(join(pkg, "wasm/toolshelf_bg.wasm"));
      sizes.wasm = { raw: wasm.length, gzip: gzipSync(wasm, { level: 9 }).length };
    }
    // The files as published (concatenated, gzip'd): the ESM/UMD dist file a CDN would serve.
    const files = DIST_FILES[lib].map((f) => readFileSync(f.startsWith("/") ? f : join(bench, "node_modules", f)));
    const dist = Buffer.concat(files);
    sizes.dist = { raw: dist.length, gzip: gzipSync(dist, { level: 9 }).length };
    out[lib] = sizes;
  }
  return out;
}

function printBundles(b) {
  const total = (lib) => b[lib].min.gzip + (b[lib].wasm?.gzip ?? 0);
  const rows = LIBS.map((lib) => [
    lib === "toolshelf" ? "**toolshelf**" : lib,
    b[lib].dist.raw ? kb(b[lib].dist.gzip) : "—",
    kb(b[lib].plain.gzip),
    kb(b[lib].min.gzip),
    b[lib].wasm ? kb(b[lib].wasm.gzip) : "—",
    `**${kb(total(lib))}**`,
    lib === "toolshelf" ? "" : ratio(total("toolshelf"), total(lib)),
  ]);
  console.log("\n### Bundle size shipped to a browser (KiB, gzip -9)\n");
  console.log(
    table(["library", "published JS file", "JS bundled", "JS bundled + minified", ".wasm", "total (minified JS + wasm)", "toolshelf ÷ peer"], rows),
  );
}

// ---------------------------------------------------------------- speed ladder
function runLadderStep(step, queries) {
  const entries = entriesOf(step.names);
  const toolbox = toolboxOf(entries);
  const options = optionsFor(step.qualify);
  const samples = Object.fromEntries(LIBS.map((l) => [l, { build: [], kwP50: [], kwP95: [], nlP50: [], nlP95: [] }]));
  const extra = { ctor: [], assemble: [], shelfAssemble: [], snapshotHeld: [], snapshotGiven: [] };
  // Snapshots (SPEC §13), taken once: loading one, then a first search, each repetition.
  const prepared = new Shelf(toolbox, options);
  const held = prepared.snapshot();
  const without = prepared.snapshot({ toolbox: false });
  prepared.free();
  for (let rep = 0; rep < REPS; rep++) {
    for (const lib of rotate(LIBS, rep)) {
      globalThis.gc();
      let search;
      let index;
      const s = samples[lib];
      if (lib === "toolshelf") {
        const start = now();
        const shelf = new Shelf(toolbox, options);
        const built = now();
        shelf.search(queries.keyword[0], { limit: 5 });
        s.build.push(now() - start);
        extra.ctor.push(built - start);
        const a = now();
        shelf.assemble();
        extra.shelfAssemble.push(now() - a);
        index = shelf;
        search = (q) => shelf.search(q, { limit: 5 });
      } else {
        const peer = peers[lib];
        const start = now();
        index = peer.build(entries);
        s.build.push(now() - start);
        search = (q) => peer.search(index, q, 5);
      }
      const kw = latencies(search, queries.keyword);
      const nl = latencies(search, queries.nl);
      s.kwP50.push(percentile(kw, 0.5));
      s.kwP95.push(percentile(kw, 0.95));
      s.nlP50.push(percentile(nl, 0.5));
      s.nlP95.push(percentile(nl, 0.95));
      if (lib === "toolshelf") index.free();
    }
    for (const [key, load] of [["snapshotHeld", () => Shelf.fromSnapshot(held)], ["snapshotGiven", () => Shelf.fromSnapshot(without, toolbox)]]) {
      globalThis.gc();
      const start = now();
      const loaded = load();
      loaded.search(queries.keyword[0], { limit: 5 });
      extra[key].push(now() - start);
      loaded.free();
    }
    // Stateless assemble of a toolbox never seen before: one tool differs each repetition, so no
    // earlier call could help (nothing is kept between calls anyway).
    const changed = changedToolbox(toolbox, rep);
    const a = now();
    assemble(changed, options);
    extra.assemble.push(now() - a);
  }
  const med = Object.fromEntries(LIBS.map((l) => [l, Object.fromEntries(Object.entries(samples[l]).map(([k, v]) => [k, median(v)]))]));
  return { label: step.label, tools: entries.length, med, extra: Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, median(v)])) };
}

/** The toolbox with its first tool replaced by a copy whose description ends in a mark: new content. */
function changedToolbox(toolbox, mark) {
  const servers = { ...toolbox.servers };
  const [first] = Object.keys(servers);
  const [tool, ...rest] = servers[first];
  const fn = tool.function;
  servers[first] = [{ ...tool, function: { ...fn, description: `${fn.description ?? ""} [${mark}:${Math.random()}]` } }, ...rest];
  return { servers };
}

function memoryOf(lib, step) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./memory.mjs", import.meta.url), {
      workerData: { lib, names: step.names, qualify: step.qualify },
    });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

function printLadder(ladder) {
  const metric = (title, unit, get, fmt) => {
    console.log(`\n#### ${title}\n`);
    const rows = ladder.map((r) => {
      const ours = get(r, "toolshelf");
      return [r.label, `**${fmt(ours)}**`, ...PEERS.map((p) => `${fmt(get(r, p))} (${ratio(ours, get(r, p))})`)];
    });
    console.log(table([`catalog (tools)`, `toolshelf ${unit}`, ...PEERS.map((p) => `${p} (ts ÷ peer)`)], rows));
  };
  console.log(`\n### Speed and memory (medians of ${REPS} alternating repetitions)`);
  metric("Index build / prepare (toolshelf: new Shelf + first search)", "ms", (r, l) => r.med[l].build, ms);
  metric("Query latency p50, keyword queries (limit 5)", "µs", (r, l) => r.med[l].kwP50, us);
  metric("Query latency p95, keyword queries", "µs", (r, l) => r.med[l].kwP95, us);
  metric("Query latency p50, natural-language queries (300: 100 per set)", "µs", (r, l) => r.med[l].nlP50, us);
  metric("Query latency p95, natural-language queries", "µs", (r, l) => r.med[l].nlP95, us);
  if (ladder[0]?.memory) {
    metric(
      "Memory after indexing (MiB: JS heap delta after GC; toolshelf adds its wasm memory growth)",
      "MiB",
      (r, l) => r.memory[l].heap + r.memory[l].wasm,
      (x) => mb(x),
    );
  }
  console.log("\n#### toolshelf's other entry points (ms)\n");
  console.log(
    table(
      [
        "catalog (tools)",
        "new Shelf",
        "+ first search (prepare)",
        "Shelf.fromSnapshot (toolbox held) + first search",
        "Shelf.fromSnapshot (toolbox given) + first search",
        "Shelf.assemble() (first)",
        "stateless assemble, new toolbox",
      ],
      ladder.map((r) => [
        r.label,
        ms(r.extra.ctor),
        ms(r.med.toolshelf.build),
        `${ms(r.extra.snapshotHeld)} (${ratio(r.extra.snapshotHeld, r.med.toolshelf.build)})`,
        `${ms(r.extra.snapshotGiven)} (${ratio(r.extra.snapshotGiven, r.med.toolshelf.build)})`,
        ms(r.extra.shelfAssemble),
        ms(r.extra.assemble),
      ]),
    ),
  );
}

// ---------------------------------------------------------------- retrieval
const DEPTH = 10;

function scoreQuery(ranked, entries, q, anyOf) {
  const relevant = (i) => {
    const e = entries[i];
    return e !== undefined && q.relevant.some((r) => r.name === e.tool.function.name && (r.server === undefined || r.server === e.server));
  };
  const flags = ranked.slice(0, DEPTH).map(relevant);
  const found = (k) => flags.slice(0, k).filter(Boolean).length;
  const recall = (k) => (anyOf ? Math.min(1, found(k)) : found(k) / q.relevant.length);
  const first = flags.indexOf(true);
  return { r1: recall(1), r5: recall(5), rr: first >= 0 ? 1 / (first + 1) : 0, empty: ranked.length === 0 ? 1 : 0 };
}

function retrieval(adapter, queries, anyOf) {
  const byCatalog = new Map();
  for (const q of queries) (byCatalog.get(q.catalog) ?? byCatalog.set(q.catalog, []).get(q.catalog)).push(q);
  const sum = { n: 0, r1: 0, r5: 0, rr: 0, empty: 0 };
  for (const [name, list] of byCatalog) {
    const entries = catalog(name);
    const index = adapter.build(entries);
    for (const q of list) {
      const s = scoreQuery(adapter.search(index, q.query, DEPTH), entries, q, anyOf);
      sum.n++;
      for (const k of ["r1", "r5", "rr", "empty"]) sum[k] += s[k];
    }
    index.shelf?.free();
  }
  return { n: sum.n, r1: sum.r1 / sum.n, r5: sum.r5 / sum.n, mrr: sum.rr / sum.n, empty: sum.empty };
}

function retrievalSets() {
  const keyword = keywordQueries();
  const sets = [["keyword", SMOKE ? keyword.filter((q) => q.catalog === "linear-mcp-official") : keyword, true]];
  for (const set of ["toolbench", "bfcl", "metatool"]) {
    const all = shippedQueries(set);
    const step = set === "metatool" ? Math.max(NL_STEP, SMOKE ? NL_STEP : 1) : NL_STEP;
    if (!SMOKE) sets.push([set, everyNth(all, step), false, all.length]);
  }
  return sets;
}

function printRetrieval(r, sets) {
  console.log(`\n### Retrieval (recall@1 / recall@5 / MRR@10; empty = queries answered with nothing)\n`);
  for (const [set, list, , total] of sets) {
    const sampled = total && total !== list.length ? `, every ${Math.round(total / list.length)}th of ${total}` : "";
    console.log(`\n#### ${set} (${list.length} queries${sampled})\n`);
    const ours = r[set].toolshelf;
    const rows = LIBS.map((lib) => {
      const m = r[set][lib];
      const name = lib === "toolshelf" ? "**toolshelf**" : lib;
      return [name, m.r1.toFixed(3), m.r5.toFixed(3), m.mrr.toFixed(3), String(m.empty), lib === "toolshelf" ? "" : ratio(ours.r5, m.r5)];
    });
    console.log(table(["library", "recall@1", "recall@5", "MRR@10", "empty", "recall@5 ts ÷ peer"], rows));
  }
}

// ---------------------------------------------------------------- stateless calls and Shelf.update
/**
 * A full garbage collection, then a pause for V8's concurrent sweeping to finish: timed right after
 * `gc()`, a 3.9 MB `JSON.stringify` took 35 ms instead of 21 here (the sweeper competes for the two
 * cores and the main thread sweeps the pages it allocates on).
 */
async function settle() {
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The toolbox with one tool of `server` replaced by a copy whose description ends in a mark. */
function changedServer(toolbox, server, mark) {
  const servers = { ...toolbox.servers };
  const [tool, ...rest] = servers[server];
  servers[server] = [{ ...tool, function: { ...tool.function, description: `${tool.function.description ?? ""} [${mark}]` } }, ...rest];
  return { ...toolbox, servers };
}

/** Everything a shelf answers in the comparison of an updated shelf with a new one, as text. */
const shelfBytes = (shelf) => JSON.stringify([shelf.assemble(), shelf.search("create pull request", { limit: 5 })]);

async function stateCases() {
  const step = LADDER[2]; // the 2,105-tool GitHub + Linear + Stripe + Cloudflare toolbox
  const entries = entriesOf(step.names);
  const options = optionsFor(true);
  const plain = toolboxOf(entries);
  const query = "create pull request";
  // A case's new toolbox (`make`) is made before the clock starts: every tool object new.
  const changed = (rep) => changedToolbox(structuredClone(plain), `state${rep}`);
  const none = () => undefined;
  const servers = Object.keys(plain.servers);
  const updateCase = (server) => {
    let turn = 0;
    const shelf = new Shelf(plain, options);
    let current = plain;
    return [
      `Shelf.update: one tool of ${server} (${plain.servers[server].length} tools) changed`,
      () => changedServer(current, server, `update${turn++}`),
      (made) => {
        shelf.update(made);
        current = made;
      },
      () => {
        const fresh = new Shelf(current, options);
        const same = shelfBytes(fresh) === shelfBytes(shelf);
        fresh.free();
        return same;
      },
    ];
  };
  const cases = [
    ["new Shelf (for comparison)", changed, (made) => new Shelf(made, options).free()],
    ["stateless assemble: new toolbox, new objects", changed, (made) => assemble(made, options)],
    ["stateless assemble: the same objects as last turn", none, () => assemble(plain, options)],
    ["stateless search: the same objects as last turn", none, () => search(plain, query, options)],
    ...servers.map(updateCase),
  ];
  const times = cases.map(() => []);
  for (let i = 0; i < 3; i++) assemble(changed(`warm${i}`), options); // wasm code tiered up, as in a running agent
  for (let rep = 0; rep < ASSEMBLE_RUNS; rep++) {
    for (const i of rotate(cases.map((_, i) => i), rep)) {
      const made = cases[i][1](`${rep}.${i}`);
      await settle();
      const start = now();
      cases[i][2](made);
      times[i].push(now() - start);
    }
  }
  const identical = Object.fromEntries(cases.filter((c) => c[3]).map((c) => [c[0], c[3]()]));
  // Where a stateless assemble of a new toolbox spends its time, stage by stage.
  const stages = {
    "JSON.stringify def by def, TextEncoder.encodeInto wasm memory (TextRoom)": [],
    "new ShelfHandle(room): read one def at a time, catalog (wasm)": [],
    "assemble(): layout, plan JSON (wasm); JSON.parse, the caller's objects put back": [],
    "free()": [],
  };
  const optionsText = JSON.stringify(options);
  for (let rep = 0; rep < ASSEMBLE_RUNS; rep++) {
    const toolbox = changedToolbox(structuredClone(plain), `stage${rep}`);
    await settle();
    const t0 = now();
    const [room, written] = toolboxRoom(toolbox);
    const t1 = now();
    const handle = new ShelfHandle(room, written, optionsText);
    const t2 = now();
    const plan = JSON.parse(handle.assemble());
    plan.tools = plan.tools.map((t) => (Array.isArray(t) ? toolbox.servers[t[0]]?.[t[1]] : t));
    const t3 = now();
    handle.free();
    const t4 = now();
    [t1 - t0, t2 - t1, t3 - t2, t4 - t3].forEach((x, i) => Object.values(stages)[i].push(x));
  }
  return {
    label: step.label,
    bytes: JSON.stringify(plain).length,
    cases: Object.fromEntries(cases.map(([name], i) => [name, median(times[i])])),
    identical,
    stages: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, median(v)])),
  };
}

function printState(c) {
  console.log(`\n### Stateless calls and Shelf.update, ${c.label}, qualify (median of ${ASSEMBLE_RUNS} alternating runs)\n`);
  const fresh = c.cases["new Shelf (for comparison)"];
  const rows = Object.entries(c.cases).map(([k, v]) => {
    const note = k in c.identical ? `${ratio(v, fresh)} of new Shelf; ${c.identical[k] ? "identical bytes" : "**bytes differ**"}` : "";
    return [k, ms(v), note];
  });
  console.log(table(["call", "ms", ""], rows));
  console.log(`\nA stateless assemble of a new toolbox (${(c.bytes / 1e6).toFixed(1)} MB of JSON), stage by stage (median of ${ASSEMBLE_RUNS}):\n`);
  console.log(table(["stage", "ms"], Object.entries(c.stages).map(([k, v]) => [k, ms(v)])));
}

// ---------------------------------------------------------------- targets
function printTargets() {
  const rest = results.ladder.find((r) => r.tools === 3397);
  const lines = [];
  const mark = (ok) => (ok ? "met" : "**missed**");
  if (rest) {
    const ours = rest.med.toolshelf;
    const fastestBuild = Math.min(...PEERS.map((p) => rest.med[p].build));
    const fastestP50 = Math.min(...PEERS.map((p) => rest.med[p].kwP50));
    lines.push(`- prepare (new Shelf + first search) on 3,397 tools: ${ms(ours.build)} ms vs fastest peer build ${ms(fastestBuild)} ms: ${mark(ours.build < fastestBuild)}`);
    lines.push(`- keyword query p50 on 3,397 tools: ${us(ours.kwP50)} µs vs fastest peer ${us(fastestP50)} µs: ${mark(ours.kwP50 <= fastestP50)}`);
    const { snapshotHeld: held, snapshotGiven: given } = rest.extra;
    lines.push(`- Shelf.fromSnapshot (toolbox held) + first search on 3,397 tools: ${ms(held)} ms, ${ratio(held, ours.build)} of new Shelf + first search (target ≤ 0.1×): ${mark(held <= 0.1 * ours.build)}`);
    lines.push(`- Shelf.fromSnapshot (toolbox given, checked) + first search: ${ms(given)} ms, ${ratio(given, ours.build)} (target ≤ 0.3×): ${mark(given <= 0.3 * ours.build)}`);
  }
  const kw = results.retrieval.keyword;
  if (kw) {
    const best = Math.max(...PEERS.map((p) => kw[p].r5));
    lines.push(`- keyword recall@5: ${kw.toolshelf.r5.toFixed(3)} vs best peer ${best.toFixed(3)}: ${mark(kw.toolshelf.r5 > best)}`);
  }
  if (results.state) {
    const c = results.state.cases;
    const fresh = c["new Shelf (for comparison)"];
    const cold = c["stateless assemble: new toolbox, new objects"];
    lines.push(`- stateless assemble of 2,105 tools, new tool objects: ${ms(cold)} ms (target ≤ 15): ${mark(cold <= 15)}`);
    for (const [k, v] of Object.entries(c).filter(([k]) => k in results.state.identical)) {
      const ok = v <= 0.15 * fresh && results.state.identical[k];
      lines.push(`- ${k}: ${ms(v)} ms, ${ratio(v, fresh)} of a new Shelf's ${ms(fresh)} ms (target ≤ 0.15×, identical bytes): ${mark(ok)}`);
    }
  }
  const rest3400 = results.ladder.find((r) => r.tools === 3397);
  if (rest3400?.memory) {
    const mib = (rest3400.memory.toolshelf.wasm + rest3400.memory.toolshelf.heap) / 2 ** 20;
    lines.push(`- prepared Shelf of 3,397 tools: ${mib.toFixed(1)} MiB (wasm memory growth + JS heap; target ≤ 12): ${mark(mib <= 12)}`);
  }
  if (lines.length) console.log(`\n### Targets\n\n${lines.join("\n")}`);
}

// ---------------------------------------------------------------- main
async function main() {
  const m = results.machine;
  console.log(`## Benchmarks\n`);
  console.log(`${m.date}; ${m.nproc} cores (\`nproc\`), ${m.cpu}; Node ${m.node}; ` +
    `minisearch ${versions.minisearch}, @orama/orama ${versions.orama}, flexsearch ${versions.flexsearch}, lunr ${versions.lunr}.` +
    (SMOKE ? " **Smoke run** (smallest catalog, 1 repetition, subsets): not a measurement." : ""));

  if (flag("--variants")) {
    const step = LADDER[3];
    const entries = entriesOf(step.names);
    const queries = latencyQueries();
    console.log(`\n### Peer setups tried (the first of each is the one benchmarked): keyword-set retrieval; build and p50 latency on ${step.label}, one run\n`);
    const rows = [];
    for (const [lib, list] of Object.entries(variants)) {
      for (const [label, adapter] of list) {
        const r = retrieval(adapter, keywordQueries(), true);
        globalThis.gc();
        const start = now();
        const index = adapter.build(entries);
        const build = now() - start;
        const kw = latencies((q) => adapter.search(index, q, 5), queries.keyword);
        const nl = latencies((q) => adapter.search(index, q, 5), queries.nl);
        rows.push([lib, label, r.r1.toFixed(3), r.r5.toFixed(3), r.mrr.toFixed(3), ms(build), us(percentile(kw, 0.5)), us(percentile(nl, 0.5))]);
        log(lib, label, r.r5.toFixed(3));
      }
    }
    console.log(table(["library", "setup", "recall@1", "recall@5", "MRR@10", "build ms", "p50 keyword µs", "p50 NL µs"], rows));
    return;
  }

  if (ONLY.has("bundle")) {
    log("bundle sizes");
    results.bundle = bundleSizes();
    printBundles(results.bundle);
  }

  const queries = latencyQueries();
  for (const i of ONLY.has("speed") ? LADDER_PICK : []) {
    const step = LADDER[i];
    log(`speed: ${step.label}, ${REPS} repetitions`);
    const row = runLadderStep(step, queries);
    row.memory = {};
    for (const lib of LIBS) row.memory[lib] = await memoryOf(lib, step);
    results.ladder.push(row);
  }
  if (results.ladder.length) printLadder(results.ladder);

  if (ONLY.has("state") && (!SMOKE || flag("--state"))) {
    log("stateless calls and Shelf.update");
    results.state = await stateCases();
    printState(results.state);
  }

  const sets = ONLY.has("retrieval") ? retrievalSets() : [];
  for (const [set, list, anyOf] of sets) {
    results.retrieval[set] = {};
    for (const lib of LIBS) {
      log(`retrieval: ${set} (${list.length} queries), ${lib}`);
      results.retrieval[set][lib] = retrieval(ADAPTERS[lib], list, anyOf);
    }
  }
  if (sets.length) printRetrieval(results.retrieval, sets);
  if (ONLY.has("vectors") && haveFixtures()) {
    log("vectors: latency with a query vector, retrieval lexical vs hybrid");
    results.vectors = { latency: vectorLatency({ reps: REPS, inner: INNER }), sets: SMOKE ? [] : vectorRetrieval({ nlStep: NL_STEP }) };
    printVectors(results.vectors.latency, results.vectors.sets, table, us, ms);
  }
  printTargets();

  const json = value("--json");
  if (json) writeFileSync(json, JSON.stringify(results, null, 1));
}

await main();
