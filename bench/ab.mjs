// Built packages side by side in one Node process, their order rotated every round, for size
// against speed trade-offs (docs/benchmarks.md, "Size against speed"): build each variant with
// scripts/build (CARGO_PROFILE_RELEASE_OPT_LEVEL, WASM_OPT), copy pkg/ to a directory of its own, then
//   node --expose-gc bench/ab.mjs [--catalog 3] [--rounds 7] DIR...   (--catalog: an index of data.mjs's LADDER)
// Per variant: ready (new Shelf + first search, ms) and keyword query p50 (µs: each query's mean of
// 5 runs, p50 across the queries), medians of the rounds after a warm-up one; MiniSearch without
// prefix search ("OR, exact terms") alongside. Prints a markdown table of times and ratios.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { LADDER, entriesOf, toolboxOf, keywordQueries } from "./data.mjs";
import { variants } from "./peers.mjs";

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const CATALOG = Number(opt("--catalog", 3));
const ROUNDS = Number(opt("--rounds", 7));
const INNER = 5;
const dirs = args.filter((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
const now = () => performance.now();
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const rung = LADDER[CATALOG];
const entries = entriesOf(rung.names);
const queries = keywordQueries().map((q) => q.query);
const options = { contextLength: 200_000, qualify: rung.qualify, maxSearchLimit: 50 };

const subjects = [];
for (const dir of dirs) {
  const pkg = await import(pathToFileURL(resolve(dir, "node.js")).href);
  subjects.push({
    name: dir.split("/").pop(),
    build() {
      const shelf = new pkg.Shelf(toolboxOf(entries), options);
      shelf.search("warm up", { limit: 1 });
      return shelf;
    },
    search: (shelf, q) => shelf.search(q, { limit: 5 }),
  });
}
const mini = variants.minisearch[1][1]; // "OR, exact terms": MiniSearch without prefix search
subjects.push({ name: "minisearch", build: () => mini.build(entries), search: (index, q) => mini.search(index, q, 5) });

const results = new Map(subjects.map((s) => [s.name, { ready: [], p50: [] }]));
for (let round = 0; round < ROUNDS; round++) {
  const order = subjects.map((_, i) => subjects[(i + round) % subjects.length]);
  for (const s of order) {
    globalThis.gc();
    const start = now();
    const index = s.build();
    const ready = now() - start;
    const times = queries.map((q) => {
      const t = now();
      for (let i = 0; i < INNER; i++) s.search(index, q);
      return ((now() - t) / INNER) * 1000;
    });
    if (round === 0) continue; // warm-up round
    results.get(s.name).ready.push(ready);
    results.get(s.name).p50.push(median(times));
  }
}
const base = results.get(subjects[0].name);
const ms = results.get("minisearch");
console.log(`${rung.label}, ${ROUNDS - 1} rounds after a warm-up, ${queries.length} keyword queries; load ${(await import("node:os")).loadavg().map((x) => x.toFixed(2)).join(" ")}`);
console.log("| variant | ready ms | ÷ first | ÷ minisearch | query p50 µs | ÷ first | ÷ minisearch |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const [name, r] of results) {
  const ready = median(r.ready), p50 = median(r.p50);
  console.log(`| ${name} | ${ready.toFixed(1)} | ${(ready / median(base.ready)).toFixed(2)} | ${(ready / median(ms.ready)).toFixed(2)} | ${p50.toFixed(1)} | ${(p50 / median(base.p50)).toFixed(2)} | ${(p50 / median(ms.p50)).toFixed(2)} |`);
}
