// scripts/bench --hostile: inputs shaped to make work grow faster than n·log n (SPEC §8),
// through the built npm package (../pkg, the JSON boundary included), at n and 10n in one Node
// process. Prints a markdown table: the best time of a few runs at n and at 10n, the growth, and
// `JSON.parse` of the same text (the JSON that crosses into wasm) as the yardstick. Targets: every
// row grows at most ×15 and costs at most 10× `JSON.parse` at 10n. tests/hostile.rs asserts the
// growth natively; docs/hostile.md holds a run's table.
//
//   node --expose-gc bench/hostile.mjs [--n 10000] [--reps 3] [--only substring] [--json FILE]
import { writeFileSync } from "node:fs";
import { Shelf, assemble, unwrap } from "../pkg/node.js";

const args = process.argv.slice(2);
const value = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const N = Number(value("--n", 10_000));
const REPS = Number(value("--reps", 3));
const ONLY = value("--only", "");
const JSON_OUT = value("--json", null);

const fn = (name, description, parameters) => ({ type: "function", function: { name, description, parameters } });
const object = (properties, extra = {}) => ({ type: "object", properties, ...extra });
const oneTool = (parameters) => ({ servers: { s: [fn("t", "A tool.", parameters)] } });
const toolCall = (args) => ({ type: "tool_use", id: "c1", name: "tool_call", input: { name: "t", arguments: args } });
const keys = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`key_${i}`, i]));
const WORDS = ["create", "list", "update", "delete", "get", "issue", "repo", "user", "file", "branch"];
const manyTools = (n) => ({
  servers: {
    s: Array.from({ length: n }, (_, i) => {
      const [a, b] = [WORDS[i % 10], WORDS[Math.floor(i / 10) % 10]];
      return fn(`${a}_${b}_${i}`, `${a} the ${b} number ${i}. More text.`, object({ id: { type: "string" } }));
    }),
  },
});

/**
 * Each case: `make(n)` gives `{ run, text }`: the work to time (its input made beforehand) and the
 * JSON text that crosses the boundary, which `JSON.parse` is timed on.
 */
const CASES = [
  {
    name: "tool_call whose arguments object has n keys (Shelf.unwrap)",
    make(n) {
      const shelf = new Shelf(oneTool({ type: "object" }));
      const call = toolCall(keys(n));
      return { run: () => shelf.unwrap(call), text: JSON.stringify(call), done: () => shelf.free() };
    },
  },
  {
    name: "a tool whose schema has n properties (new Shelf + describe)",
    make(n) {
      const properties = Object.fromEntries(Array.from({ length: n }, (_, i) => [`key_${i}`, { type: "integer" }]));
      const toolbox = oneTool(object(properties));
      return { run: () => withShelf(toolbox, (shelf) => shelf.describe("t")), text: JSON.stringify(toolbox) };
    },
  },
  {
    name: "n tools on one server (new Shelf + one search)",
    make(n) {
      const toolbox = manyTools(n);
      return { run: () => withShelf(toolbox, (shelf) => shelf.search("update the issue")), text: JSON.stringify(toolbox) };
    },
  },
  {
    name: "arguments holding an array of n small objects (Shelf.unwrap)",
    make(n) {
      const item = object({ a: { type: "integer" }, b: { type: "string" } }, { required: ["a"] });
      const shelf = new Shelf(oneTool(object({ items: { type: "array", items: item } })));
      const call = toolCall({ items: Array.from({ length: n }, (_, i) => ({ a: i, b: `x${i}` })) });
      return { run: () => shelf.unwrap(call), text: JSON.stringify(call), done: () => shelf.free() };
    },
  },
  {
    name: "n keys against a schema of n properties (unwrap)",
    make(n) {
      const properties = Object.fromEntries(Array.from({ length: n }, (_, i) => [`key_${i}`, { type: "integer" }]));
      const toolbox = oneTool(object(properties, { additionalProperties: false, required: Object.keys(properties) }));
      const call = toolCall(keys(n));
      return { run: () => unwrap(toolbox, call), text: JSON.stringify({ toolbox, call }) };
    },
  },
  {
    name: "stateless assemble of n tools on one server",
    make(n) {
      const toolbox = manyTools(n);
      // New objects each run, made beforehand (the same objects would be recognised); deferredTokens
      // read, so that every size is counted.
      const copies = Array.from({ length: REPS + 1 }, () => structuredClone(toolbox));
      return { run: () => assemble(copies.pop() ?? structuredClone(toolbox)).deferredTokens, text: JSON.stringify(toolbox) };
    },
  },
  {
    name: "n servers of one tool (new Shelf + assemble: listing fit)",
    make(n) {
      const servers = Object.fromEntries(Array.from({ length: n }, (_, i) => [`server${i}`, [fn(`t${i}`, "A tool.", object({}))]]));
      const toolbox = { servers };
      return { run: () => withShelf(toolbox, (shelf) => shelf.assemble()), text: JSON.stringify(toolbox) };
    },
  },
  {
    name: "a long enum, a value not in it (Shelf.unwrap)",
    make(n) {
      const toolbox = oneTool(object({ v: { type: "string", enum: Array.from({ length: n }, (_, i) => `v${i}`) } }));
      const shelf = new Shelf(toolbox);
      const call = toolCall({ v: "nope" });
      return { run: () => shelf.unwrap(call), text: JSON.stringify({ toolbox, call }), done: () => shelf.free() };
    },
  },
  {
    name: "n anyOf branches, none matching (Shelf.unwrap)",
    make(n) {
      const branches = Array.from({ length: n }, (_, i) => object({}, { required: [`k${i}`] }));
      const toolbox = oneTool({ anyOf: branches });
      const shelf = new Shelf(toolbox);
      const call = toolCall({ x: 1 });
      return { run: () => shelf.unwrap(call), text: JSON.stringify({ toolbox, call }), done: () => shelf.free() };
    },
  },
  {
    name: "n items, each a $ref into n definitions (Shelf.unwrap)",
    make(n) {
      const definitions = Object.fromEntries(Array.from({ length: n }, (_, i) => [`d${i}`, { type: "integer" }]));
      const toolbox = oneTool(object({ xs: { type: "array", items: { $ref: `#/definitions/d${n - 1}` } } }, { definitions }));
      const shelf = new Shelf(toolbox);
      const call = toolCall({ xs: Array.from({ length: n }, (_, i) => i) });
      return { run: () => shelf.unwrap(call), text: JSON.stringify({ toolbox, call }), done: () => shelf.free() };
    },
  },
  {
    name: "a description of 100·n characters (new Shelf + assemble)",
    make(n) {
      const toolbox = { servers: { s: [fn("t", "word ".repeat(20 * n), object({}))] } };
      return { run: () => withShelf(toolbox, (shelf) => shelf.assemble()), text: JSON.stringify(toolbox) };
    },
  },
  {
    name: "a query of 10·n characters (Shelf.search)",
    make(n) {
      const shelf = new Shelf(manyTools(200));
      shelf.search("warm up");
      const query = "update issue ".repeat(Math.ceil((10 * n) / 13));
      return { run: () => shelf.search(query), text: JSON.stringify(query), done: () => shelf.free() };
    },
  },
  {
    name: "tool_describe of an unknown name among n tools (Shelf.unwrap)",
    make(n) {
      const shelf = new Shelf(manyTools(n));
      const call = { type: "tool_use", id: "c1", name: "tool_describe", input: { name: "updte_issue_7" } };
      return { run: () => shelf.unwrap(call), text: JSON.stringify(manyTools(n)), done: () => shelf.free() };
    },
  },
  // Schemas a malicious MCP server could publish, each grown in both of its dimensions.
  {
    name: "anyOf of n/100 $refs to anyOf of n/100 $refs to n/4 type names (Shelf.unwrap)",
    make(n) {
      const types = Array.from({ length: n / 4 }, (_, i) => (i % 2 ? "null" : "boolean"));
      return unwrapCase(fanOut(n / 100, { type: types }), { v: "hello" });
    },
  },
  {
    name: "a key of 10·n characters under additionalProperties: anyOf of n/10 $refs (Shelf.unwrap)",
    make(n) {
      const schema = { type: "object", additionalProperties: { anyOf: refs(n / 10, "#/$defs/d") }, $defs: { d: { type: "integer" } } };
      return unwrapCase(schema, { ["k".repeat(10 * n)]: "x" });
    },
  },
  {
    name: "anyOf of n/10 $refs to a const object of n/10 keys, differing in the last (Shelf.unwrap)",
    make(n) {
      const constant = keys(n / 10);
      const schema = object({ v: { anyOf: refs(n / 10, "#/$defs/c") } }, { $defs: { c: { const: constant } } });
      return unwrapCase(schema, { v: { ...constant, [`key_${n / 10 - 1}`]: -1 } });
    },
  },
  {
    name: "a type list of n nulls and string, an enum of n numbers, against \"x\" (Shelf.unwrap)",
    make(n) {
      const v = { type: [...Array(n).fill("null"), "string"], enum: [...Array.from({ length: n }, (_, i) => i), "y"] };
      return unwrapCase(object({ v }), { v: "x" });
    },
  },
  {
    name: "anyOf of n/10 $refs to a list of n/10 type names (Shelf.unwrap)",
    make(n) {
      const names = Array.from({ length: n / 10 }, (_, i) => ["null", "boolean", "array"][i % 3]);
      return unwrapCase(object({ v: { anyOf: refs(n / 10, "#/$defs/t") } }, { $defs: { t: { type: names } } }), { v: {} });
    },
  },
  {
    name: "anyOf of n/10 $refs to one string const of 10·n characters (Shelf.unwrap)",
    make(n) {
      const long = "c".repeat(10 * n);
      return unwrapCase(object({ v: { anyOf: refs(n / 10, "#/$defs/c") } }, { $defs: { c: { const: long } } }), { v: `${long.slice(1)}x` });
    },
  },
  {
    name: "6·n ids before a bad enum value and an extra property (Shelf.unwrap; was a call at 600,000)",
    make(n) {
      const schema = object({ ids: { type: "array", items: { type: "integer" } }, mode: { enum: ["a", "b"] } }, { additionalProperties: false });
      return unwrapCase(schema, { ids: Array(6 * n).fill(1), mode: "zzz", extra: 1 });
    },
  },
  {
    name: "n/5 servers, every one kept (Shelf.update; was ×81)",
    make(n) {
      const servers = Object.fromEntries(Array.from({ length: n / 5 }, (_, i) => [`server${i}`, [fn(`t${i}`, "A tool.", object({}))]]));
      const toolbox = { servers };
      const shelf = new Shelf(toolbox);
      return { run: () => shelf.update({ servers: { ...servers } }), text: JSON.stringify(toolbox), done: () => shelf.free() };
    },
  },
];

const refs = (n, target) => Array.from({ length: n }, () => ({ $ref: target }));
/** `anyOf` of n `$ref`s to a node whose `anyOf` holds n `$ref`s to `leaf`. */
const fanOut = (n, leaf) => object({ v: { anyOf: refs(n, "#/$defs/inner") } }, { $defs: { inner: { anyOf: refs(n, "#/$defs/leaf") }, leaf } });
/** A Shelf of one tool with `schema`, and one bridge call of it with `args`, timed on unwrap. */
function unwrapCase(schema, args) {
  const toolbox = oneTool(schema);
  const shelf = new Shelf(toolbox);
  const call = toolCall(args);
  return { run: () => shelf.unwrap(call), text: JSON.stringify({ toolbox, call }), done: () => shelf.free() };
}

function withShelf(toolbox, use) {
  const shelf = new Shelf(toolbox);
  try {
    return use(shelf);
  } finally {
    shelf.free();
  }
}

/** The best of `reps` timings of `f`, in ms (a collection first, so garbage of earlier runs is not counted). */
function best(f, reps) {
  let min = Infinity;
  for (let i = 0; i < reps; i++) {
    globalThis.gc?.();
    const start = performance.now();
    f();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}

function measure(c, n) {
  const made = c.make(n);
  made.run(); // warm up, and the first search builds an index
  const time = best(made.run, REPS);
  const parse = best(() => JSON.parse(made.text), REPS);
  made.done?.();
  return { time, parse, bytes: made.text.length };
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const rows = [];
console.log(`\n### Hostile input: n = ${N.toLocaleString("en")} and 10n (Node ${process.version}, best of ${REPS})\n`);
console.log("| input | n | 10n | growth | `JSON.parse` at 10n | its growth | 10n ÷ `JSON.parse` | text at 10n |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
for (const c of CASES.filter((c) => c.name.includes(ONLY))) {
  const small = measure(c, N);
  const large = measure(c, 10 * N);
  const row = { name: c.name, n: small.time, tenN: large.time, growth: large.time / small.time, parse: large.parse, parseGrowth: large.parse / small.parse, bytes: large.bytes };
  row.vsParse = row.tenN / row.parse;
  rows.push(row);
  const mb = (row.bytes / 1e6).toFixed(2);
  console.log(`| ${c.name} | ${fmt(row.n)} ms | ${fmt(row.tenN)} ms | ×${row.growth.toFixed(1)} | ${fmt(row.parse)} ms | ×${row.parseGrowth.toFixed(1)} | ×${row.vsParse.toFixed(1)} | ${mb} MB |`);
}
// V8's own JSON grows faster than linear on wide objects (×30–50 from 10,000 to 100,000 keys), and
// every row crosses the boundary as JSON: a row is over the growth target when it grows more than
// ×15 and more than 1.5 times what JSON.parse of its text grows.
const overGrowth = rows.filter((r) => r.growth > 15 && r.growth > 1.5 * r.parseGrowth);
const overParse = rows.filter((r) => r.vsParse > 10);
console.log(`\n${rows.length} rows. Growth over ×15 and over 1.5 × JSON.parse's: ${overGrowth.map((r) => r.name).join("; ") || "none"}.`);
console.log(`10n over 10× JSON.parse of the same text: ${overParse.map((r) => r.name).join("; ") || "none"}.`);
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ n: N, reps: REPS, node: process.version, rows }, null, 2));
