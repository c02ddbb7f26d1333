// What each turn of an agent costs on a prepared Shelf, through the package (docs/benchmarks.md,
// "Per turn"): shelf.assemble({ messages }) as an agent calls it before every model request (a
// bridged layout, the conversation read), a search, and unwrap of a tool_call with the
// conversation. Medians of the rounds after a warm-up one, per rung of the ladder.
//   node --expose-gc bench/turns.mjs [--rounds 21] [PKGDIR]
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { LADDER, entriesOf, toolboxOf } from "./data.mjs";

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const rounds = Number(opt("--rounds", 21));
const dir = resolve(args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--")) ?? "pkg");
const pkg = await import(pathToFileURL(resolve(dir, "node.js")).href);
const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

/** Median ms of `run` over the rounds after a warm-up one. */
function timed(run) {
  const times = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    run(round);
    if (round > 0) times.push(performance.now() - start);
  }
  return median(times);
}

console.log("| toolbox | assemble({ messages }) ms | search ms | unwrap(call, context) ms |\n|---|---:|---:|---:|");
for (const rung of LADDER) {
  const shelf = new pkg.Shelf(toolboxOf(entriesOf(rung.names)), { contextLength: 200_000, qualify: rung.qualify });
  const first = shelf.search("create issue", { limit: 5 }).matches[0];
  // A conversation as an agent holds it: the user's request, the model's search and its answer.
  const messages = [
    { role: "user", content: "Open an issue about the failing build." },
    { role: "assistant", content: [{ type: "tool_use", id: "s1", name: "tool_search", input: { query: "create issue" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "s1", content: JSON.stringify({ matches: [first] }) }] },
  ];
  const call = { type: "tool_use", id: "c1", name: "tool_call", input: { name: first.name, arguments: {} } };
  const queries = ["list pull requests", "send a message", "delete a record", "refund a charge"];
  const figures = [
    timed(() => shelf.assemble({ messages })),
    timed((round) => shelf.search(queries[round % queries.length], { limit: 5 })),
    timed(() => shelf.unwrap(call, { messages })),
  ];
  shelf.free();
  console.log(`| ${rung.label} | ${figures.map((ms) => ms.toFixed(2)).join(" | ")} |`);
}
