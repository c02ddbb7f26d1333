// The catalogs, toolboxes and labelled query sets of the benchmark (the files the tests read).
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import { catalog, dataDir } from "../tests/js/support.mjs";

export { catalog };

/** The speed ladder: label, catalogs, whether the toolbox needs `qualify: true` (shared names). */
export const LADDER = [
  { label: "linear (38)", names: ["linear-mcp-official"], qualify: false },
  { label: "70 servers (527)", names: ["livemcptool-70servers"], qualify: true },
  { label: "GH+Lin+Stripe+CF (2,105)", names: ["github-mcp-server", "linear-mcp-official", "stripe-api-2022-04", "cloudflare-api-2024-08"], qualify: true },
  { label: "REST APIs (3,397)", names: ["rest-apis-flat-3400"], qualify: false },
  { label: "mega-union (4,774)", names: ["mega-union"], qualify: true },
];

/** The catalog entries `[{server, tool}]` of several catalogs, concatenated. */
export function entriesOf(names) {
  return names.flatMap((n) => catalog(n));
}

/** `{servers: {…}}` of the entries, servers in first-seen order: the toolbox toolshelf is given. */
export function toolboxOf(entries) {
  const servers = {};
  for (const { server, tool } of entries) (servers[server] ??= []).push(tool);
  return { servers };
}

/** The tool's own name (no `mcp__` prefix is in the catalogs). */
export const nameOf = (entry) => entry.tool.function.name;

/** tests/data/queries-keyword.json: any listed tool answers. */
export function keywordQueries() {
  const list = JSON.parse(readFileSync(join(dataDir, "queries-keyword.json"), "utf8"));
  return list.map((q) => ({ catalog: q.catalog, query: q.query, relevant: q.relevant.map((name) => ({ name })) }));
}

/** tests/data/queries-model.json: requests phrased as models phrase them (any listed tool answers;
 *  a label `server::name` accepts the name on that server only). */
export function modelQueries() {
  const list = JSON.parse(readFileSync(join(dataDir, "queries-model.json"), "utf8"));
  const label = (l) => (l.includes("::") ? { server: l.split("::")[0], name: l.split("::")[1] } : { name: l });
  return list.map((q) => ({ catalog: q.catalog, query: q.query, relevant: q.relevant.map(label) }));
}

/** A shipped natural-language set (`toolbench`, `bfcl`, `metatool`), queries with ground truth only. */
export function shippedQueries(set) {
  const text = gunzipSync(readFileSync(join(dataDir, "catalogs", `queries-${set}.json.gz`))).toString("utf8");
  return JSON.parse(text)
    .map((q) => ({
      catalog: String(q.catalog ?? "").replace(/\.json$/, ""),
      query: String(q.query ?? ""),
      relevant: Array.isArray(q.ground_truth)
        ? q.ground_truth.map((g) => ({ server: g.server, name: g.tool }))
        : (q.ground_truth_tools ?? []).map((name) => ({ name })),
    }))
    .filter((q) => q.relevant.length > 0);
}

/** Every `step`-th item, starting at the first: a deterministic sample. */
export function everyNth(list, step) {
  return step <= 1 ? list : list.filter((_, i) => i % step === 0);
}
