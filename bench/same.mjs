// Whether two built packages (copies of pkg/, e.g. two opt-levels) give the same answers: assemble
// and every keyword and shipped NL query's search (limit 10) on each catalog of data.mjs's LADDER,
// compared as JSON text. node bench/same.mjs DIR_A DIR_B (exit 1 when any differs).
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { LADDER, entriesOf, toolboxOf, keywordQueries, shippedQueries } from "./data.mjs";
const [a, b] = await Promise.all(process.argv.slice(2, 4).map((d) => import(pathToFileURL(resolve(d, "node.js")).href)));
const queries = [...keywordQueries().map((q) => q.query), ...["toolbench", "bfcl", "metatool"].flatMap((s) => shippedQueries(s).map((q) => q.query))];
let compared = 0, differ = 0;
for (const rung of LADDER) {
  const entries = entriesOf(rung.names);
  const options = { contextLength: 200_000, qualify: rung.qualify, maxSearchLimit: 50 };
  const sa = new a.Shelf(toolboxOf(entries), options), sb = new b.Shelf(toolboxOf(entries), options);
  const pairs = [[JSON.stringify(sa.assemble()), JSON.stringify(sb.assemble())]];
  for (const q of queries) pairs.push([JSON.stringify(sa.search(q, { limit: 10 })), JSON.stringify(sb.search(q, { limit: 10 }))]);
  for (const [x, y] of pairs) { compared++; if (x !== y) differ++; }
}
console.log(`${compared} answers compared, ${differ} differ`);
process.exit(differ ? 1 : 0);
