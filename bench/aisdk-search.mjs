// The AI SDK's own tool search against toolshelf's ranking, through the AI SDK itself: for each of
// the 202 labelled keyword queries (tests/data/queries-keyword.json), generateText runs with the
// query's catalog as tools marked `deferLoading: true` and `toolSearch({ maxResults: 10 })`, once with
// the SDK's default keyword match and once with `search: toolshelfSearch({ tools })`; a scripted
// model (tests/js/model-server.mjs, OpenAI Chat on 127.0.0.1) calls toolSearch with the query, and
// the names the SDK returned to the model are scored: recall@1, recall@5 (any listed tool answers),
// MRR@10, empty answers. Run after scripts/build: `node bench/aisdk-search.mjs` (about a minute).
import { generateText, jsonSchema, stepCountIs, tool, toolSearch } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { readFileSync } from "node:fs";
import { toolshelfSearch } from "../pkg/ai.js";
import { startModelServer } from "../tests/js/model-server.mjs";
import { catalog, keywordQueries } from "./data.mjs";

const DEPTH = 10;
const aiVersion = JSON.parse(readFileSync(new URL("../node_modules/ai/package.json", import.meta.url), "utf8")).version;

/** A catalog as an AI SDK ToolSet of deferred tools (names that repeat across servers get the server prefixed). */
function toolSetOf(name) {
  const set = {};
  const ownName = {};
  for (const { server, tool: def } of catalog(name)) {
    const f = def.function;
    const key = Object.hasOwn(set, f.name) ? `${server}__${f.name}` : f.name;
    ownName[key] = f.name;
    set[key] = tool({ description: f.description ?? "", inputSchema: jsonSchema(f.parameters ?? { type: "object" }), deferLoading: true, execute: async () => "" });
  }
  return { set, ownName };
}

function score(names, relevant) {
  const flags = names.slice(0, DEPTH).map((n) => relevant.some((r) => r.name === n));
  const first = flags.indexOf(true);
  return { r1: flags[0] ? 1 : 0, r5: flags.slice(0, 5).some(Boolean) ? 1 : 0, rr: first >= 0 ? 1 / (first + 1) : 0, empty: names.length === 0 ? 1 : 0 };
}

const script = [null, { text: "done" }];
const server = await startModelServer(script);
const model = createOpenAI({ apiKey: "bench", baseURL: `${server.url}/v1` }).chat("scripted");
const totals = { default: { n: 0, r1: 0, r5: 0, rr: 0, empty: 0 }, toolshelf: { n: 0, r1: 0, r5: 0, rr: 0, empty: 0 } };
const byCatalog = new Map();
for (const q of keywordQueries()) (byCatalog.get(q.catalog) ?? byCatalog.set(q.catalog, []).get(q.catalog)).push(q);
for (const [name, queries] of byCatalog) {
  const { set, ownName } = toolSetOf(name);
  const rankings = { default: toolSearch({ maxResults: DEPTH }), toolshelf: toolSearch({ maxResults: DEPTH, search: toolshelfSearch({ tools: set, limit: DEPTH }) }) };
  for (const q of queries) {
    for (const [label, search] of Object.entries(rankings)) {
      script[0] = { tool: "toolSearch", arguments: { query: q.query } };
      const result = await generateText({ model, prompt: q.query, tools: { toolSearch: search, ...set }, stopWhen: stepCountIs(2) });
      const found = result.steps[0].toolResults[0]?.output?.tools ?? [];
      const s = score(found.map((t) => ownName[t.name] ?? t.name), q.relevant);
      const sum = totals[label];
      sum.n++;
      for (const k of ["r1", "r5", "rr", "empty"]) sum[k] += s[k];
    }
  }
}
await server.close();

console.log(`\n#### AI SDK toolSearch, keyword queries (${totals.default.n}), ai ${aiVersion}, maxResults ${DEPTH}\n`);
console.log("| ranking | recall@1 | recall@5 | MRR@10 | empty |\n|---|---|---|---|---|");
for (const [label, s] of Object.entries(totals)) {
  const name = label === "default" ? "AI SDK default (keyword count)" : "toolshelfSearch()";
  console.log(`| ${name} | ${(s.r1 / s.n).toFixed(3)} | ${(s.r5 / s.n).toFixed(3)} | ${(s.rr / s.n).toFixed(3)} | ${s.empty} |`);
}
