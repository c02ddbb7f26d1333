// Where ready-to-search goes, stage by stage, beside MiniSearch's build in the same process
// (docs/benchmarks.md, "Snapshots"): what V8 alone costs before the core starts (the toolbox's
// JSON text, written def by def by JSON.stringify, and its UTF-8 written into wasm memory), the
// core's read of the toolbox (ShelfHandle), the first search (the index build), the whole
// `new Shelf` + first search through the package; and Shelf.fromSnapshot with the toolbox given
// (its JSON text as new Shelf writes it, then the check and the load) and with the toolbox held.
// Two MiniSearch builds: the peers' setup ("OR, exact terms": four fields, words split as
// bench/peers.mjs splits them) and a plain one (name, server, description as given, MiniSearch's
// own tokenizer: what a user writes first). Medians of the rounds after a warm-up one, each stage
// ÷ each MiniSearch build and ÷ ready.
//   node --expose-gc bench/stages.mjs [--catalog 3] [--rounds 9] [PKGDIR]
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { LADDER, entriesOf, toolboxOf } from "./data.mjs";
import MiniSearch from "minisearch";
import { variants } from "./peers.mjs";

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const rung = LADDER[Number(opt("--catalog", 3))];
const rounds = Number(opt("--rounds", 9));
const dir = resolve(args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--")) ?? "pkg");
const pkg = await import(pathToFileURL(resolve(dir, "node.js")).href);
const glue = await import(pathToFileURL(resolve(dir, "wasm/toolshelf.js")).href);
// internal: the toolbox into wasm memory as the package writes it (JSON text def by def, then UTF-8)
const { toolboxParts, roomOf } = await import(pathToFileURL(resolve(dir, "toolbox-text.js")).href);
const entries = entriesOf(rung.names);
const options = { contextLength: 200_000, qualify: rung.qualify, maxSearchLimit: 50 };
const mini = variants.minisearch[1][1]; // "OR, exact terms", as bench/ab.mjs: the build is the same
/** MiniSearch as a user first writes it: three fields as the tools give them, its own tokenizer. */
function plainMiniSearch(entries) {
  const index = new MiniSearch({ fields: ["name", "server", "description"], storeFields: [] });
  index.addAll(entries.map((e, id) => {
    const fn = e.tool.function ?? e.tool;
    return { id, name: fn.name ?? "", server: e.server ?? "", description: fn.description ?? "" };
  }));
  return index;
}
const now = () => performance.now();
const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

const prepared = new pkg.Shelf(toolboxOf(entries), options);
const held = prepared.snapshot();
const without = prepared.snapshot({ toolbox: false });
prepared.free();

/** One timed call, after a collection (a fresh toolbox each time: V8 caches nothing of the last). */
function timed(run) {
  globalThis.gc();
  const start = now();
  run();
  return now() - start;
}

const stages = {
  "JSON text (JSON.stringify def by def)": [],
  "UTF-8 into wasm memory (encodeInto)": [],
  "core: read the toolbox": [],
  "core: first search (index build)": [],
  "ready: new Shelf + first search": [],
  "MiniSearch build": [],
  "MiniSearch build (plain, three fields)": [],
  "fromSnapshot, toolbox given: its JSON text": [],
  "fromSnapshot, toolbox given, + first search": [],
  "fromSnapshot, toolbox held, + first search": [],
};
for (let round = 0; round < rounds; round++) {
  const t = {};
  const toolbox = toolboxOf(entries);
  let parts, room, written, handle;
  t["JSON text (JSON.stringify def by def)"] = timed(() => (parts = toolboxParts(toolbox)));
  t["UTF-8 into wasm memory (encodeInto)"] = timed(() => ([room, written] = roomOf(parts)));
  t["core: read the toolbox"] = timed(() => (handle = new glue.ShelfHandle(room, written, JSON.stringify(options))));
  t["core: first search (index build)"] = timed(() => handle.searchFound("warm up", 1));
  handle.free();
  t["ready: new Shelf + first search"] = timed(() => {
    const shelf = new pkg.Shelf(toolboxOf(entries), options);
    shelf.search("warm up", { limit: 1 });
    shelf.free();
  });
  t["MiniSearch build"] = timed(() => mini.build(entries));
  t["MiniSearch build (plain, three fields)"] = timed(() => plainMiniSearch(entries));
  t["fromSnapshot, toolbox given: its JSON text"] = timed(() => toolboxParts(toolboxOf(entries)));
  t["fromSnapshot, toolbox given, + first search"] = timed(() => {
    const shelf = pkg.Shelf.fromSnapshot(without, toolboxOf(entries));
    shelf.search("warm up", { limit: 1 });
    shelf.free();
  });
  t["fromSnapshot, toolbox held, + first search"] = timed(() => {
    const shelf = pkg.Shelf.fromSnapshot(held);
    shelf.search("warm up", { limit: 1 });
    shelf.free();
  });
  if (round > 0) for (const [stage, ms] of Object.entries(t)) stages[stage].push(ms);
}
const med = Object.fromEntries(Object.entries(stages).map(([stage, xs]) => [stage, median(xs)]));
const { loadavg } = await import("node:os");
console.log(`${rung.label}, ${dir}: medians of ${rounds - 1} rounds after a warm-up; load ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
console.log("| stage | ms | ÷ MiniSearch build | ÷ plain MiniSearch build | ÷ ready |\n|---|---:|---:|---:|---:|");
const ratio = (ms, of) => (ms / med[of]).toFixed(3);
for (const [stage, ms] of Object.entries(med)) {
  const ratios = ["MiniSearch build", "MiniSearch build (plain, three fields)", "ready: new Shelf + first search"].map((of) => ratio(ms, of));
  console.log(`| ${stage} | ${ms.toFixed(1)} | ${ratios.join(" | ")} |`);
}
