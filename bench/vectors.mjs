// The semantic-retrieval section of scripts/bench (SPEC §12), when the committed all-MiniLM-L6-v2
// fixtures exist (tests/data/embeddings/): query latency on the 3,397-tool REST catalog with and
// without a 384-dim query vector (the same queries, the same Shelf), the cost of setEmbeddings,
// and lexical against hybrid retrieval through the package on every labelled set.
import { existsSync } from "node:fs";
import { catalog, entriesOf, toolboxOf, keywordQueries, modelQueries, shippedQueries, everyNth } from "./data.mjs";
import { Shelf, entryIndex, optionsFor } from "./toolshelf.mjs";
import { embeddingsDir, embeddingKey, readVectors } from "../tests/js/embeddings.mjs";

const now = () => performance.now();

export const haveFixtures = () => existsSync(`${embeddingsDir}/tools.vec.gz`);

/** A Shelf of `entries` with the fixture vectors of its tools. */
function shelfWithVectors(entries, tools, qualify) {
  const shelf = new Shelf(toolboxOf(entries), optionsFor(qualify));
  const start = now();
  const texts = shelf.embeddingTexts();
  const textsMs = now() - start;
  const vectors = texts.map(({ key }) => tools.get(key)); // the fixture's int8 read back as floats: not timed
  const set = now();
  shelf.setEmbeddings({ model: tools.model, vectors });
  return { shelf, setMs: now() - set, textsMs };
}

/** Per-query latency (µs, sorted), each the mean of `inner` runs. */
function latencies(run, items, inner) {
  const out = items.map((item) => {
    const start = now();
    for (let i = 0; i < inner; i++) run(item);
    return ((now() - start) / inner) * 1000;
  });
  return out.sort((a, b) => a - b);
}

const p = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** Query latency with and without vectors on the 3,397-tool catalog, over `reps` alternating repetitions. */
export function vectorLatency({ reps, inner }) {
  const tools = readVectors("tools");
  const entries = entriesOf(["rest-apis-flat-3400"]);
  const { shelf, setMs, textsMs } = shelfWithVectors(entries, tools, false);
  const sets = [["keyword", keywordQueries(), "queries-keyword"], ["natural-language (toolbench, bfcl, metatool: 100 each)", null, null]];
  const nl = ["toolbench", "bfcl", "metatool"].flatMap((set) => {
    const vectors = readVectors(`queries-${set}`);
    const list = shippedQueries(set);
    return everyNth(list, Math.max(1, Math.floor(list.length / 100))).slice(0, 100).map((q) => ({ query: q.query, vector: vectors.get(embeddingKey(q.query)) }));
  });
  const keyword = readVectors("queries-keyword");
  const items = {
    [sets[0][0]]: keywordQueries().map((q) => ({ query: q.query, vector: keyword.get(embeddingKey(q.query)) })),
    [sets[1][0]]: nl,
  };
  shelf.search("warm up", { limit: 5 });
  const rows = [];
  for (const [label, list] of Object.entries(items)) {
    const usable = list.filter((i) => i.vector);
    const runs = { lexical: [], hybrid: [] };
    for (let r = 0; r < reps; r++) {
      runs.lexical.push(p(latencies((i) => shelf.search(i.query, { limit: 5 }), usable, inner), 0.5));
      runs.hybrid.push(p(latencies((i) => shelf.search(i.query, { limit: 5, vector: i.vector }), usable, inner), 0.5));
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    rows.push({ label, n: usable.length, lexical: median(runs.lexical), hybrid: median(runs.hybrid) });
  }
  shelf.free();
  return { tools: entries.length, dim: tools.dim, setMs, textsMs, rows };
}

/** Recall@1 / @5 / MRR@10 / empty, lexical and hybrid, of a labelled set through the package. */
function retrieval(queries, vectors, tools, anyOf) {
  const byCatalog = new Map();
  for (const q of queries) (byCatalog.get(q.catalog) ?? byCatalog.set(q.catalog, []).get(q.catalog)).push(q);
  const sums = { lexical: [0, 0, 0, 0], hybrid: [0, 0, 0, 0] };
  for (const [name, list] of byCatalog) {
    const entries = name.split("+").flatMap((n) => catalog(n));
    const { shelf } = shelfWithVectors(entries, tools, new Set(entries.map((e) => e.server)).size > 1);
    const indexOf = entryIndex(entries); // a qualified name back to its catalog entry
    for (const q of list) {
      const relevant = (m) => {
        const e = entries[indexOf(m)];
        return e !== undefined && q.relevant.some((r) => r.name === e.tool.function.name && (r.server === undefined || r.server === e.server));
      };
      const vector = vectors.get(embeddingKey(q.query));
      for (const [kind, options] of [["lexical", {}], ["hybrid", { vector }]]) {
        const flags = shelf.search(q.query, { limit: 10, ...options }).matches.map(relevant);
        const found = (k) => flags.slice(0, k).filter(Boolean).length;
        const recall = (k) => (anyOf ? Math.min(1, found(k)) : found(k) / q.relevant.length);
        const first = flags.indexOf(true);
        const s = sums[kind];
        s[0] += recall(1);
        s[1] += recall(5);
        s[2] += first >= 0 ? 1 / (first + 1) : 0;
        s[3] += flags.length === 0 ? 1 : 0;
      }
    }
    shelf.free();
  }
  const n = queries.length;
  const row = (s) => [(s[0] / n).toFixed(3), (s[1] / n).toFixed(3), (s[2] / n).toFixed(3), String(s[3])];
  return { n, lexical: row(sums.lexical), hybrid: row(sums.hybrid) };
}

export function vectorRetrieval({ nlStep }) {
  const tools = readVectors("tools");
  const out = [];
  out.push(["keyword", retrieval(keywordQueries(), readVectors("queries-keyword"), tools, true)]);
  out.push(["model-phrased", retrieval(modelQueries(), readVectors("queries-model"), tools, true)]);
  for (const set of ["toolbench", "bfcl", "metatool"]) {
    const all = shippedQueries(set);
    const list = everyNth(all, set === "metatool" ? Math.max(nlStep, 10) : nlStep);
    out.push([`${set}${list.length < all.length ? ` (every ${Math.round(all.length / list.length)}th)` : ""}`, retrieval(list, readVectors(`queries-${set}`), tools, false)]);
  }
  return out;
}

export function printVectors(latency, sets, table, us, ms) {
  console.log(`\n### Semantic retrieval (all-MiniLM-L6-v2 fixtures, ${latency.dim} dimensions)\n`);
  console.log(`embeddingTexts for ${latency.tools.toLocaleString("en")} tools: ${ms(latency.textsMs)} ms; setEmbeddings (Float32Array[] in texts order): ${ms(latency.setMs)} ms. Query latency on the same Shelf, limit 5 (p50, median of repetitions):\n`);
  console.log(table(["queries", "n", "lexical p50 µs", "with a vector p50 µs", "added µs"], latency.rows.map((r) => [r.label, String(r.n), us(r.lexical), us(r.hybrid), us(r.hybrid - r.lexical)])));
  if (!sets.length) return;
  console.log(`\n#### Retrieval through the package: lexical → hybrid (recall@1 / recall@5 / MRR@10 / empty)\n`);
  console.log(table(["set", "queries", "lexical", "hybrid"], sets.map(([set, r]) => [set, String(r.n), r.lexical.join(" / "), r.hybrid.join(" / ")])));
}
