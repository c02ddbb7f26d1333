// The AI SDK's own tool search against toolshelf's ranking, through the AI SDK itself: for each of
// the labelled keyword and model-phrased queries (tests/data/queries-{keyword,model}.json; a
// catalog `a+b` is their union), generateText runs with the
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
import { entriesOf, keywordQueries, modelQueries } from "./data.mjs";

const DEPTH = 10;
const aiVersion = JSON.parse(readFileSync(new URL("../node_modules/ai/package.json", import.meta.url), "utf8")).version;

/** A catalog as an AI SDK ToolSet of deferred tools (names that repeat across servers get the server prefixed). */
function toolSetOf(name) {
  const set = {};
  const ownName = {};
  const serverOf = {};
  for (const { server, tool: def } of entriesOf(name.split("+"))) {
    const f = def.function;
    const key = Object.hasOwn(set, f.name) ? `${server}__${f.name}` : f.name;
    ownName[key] = f.name;
    serverOf[key] = server;
    set[key] = tool({ description: f.description ?? "", inputSchema: jsonSchema(f.parameters ?? { type: "object" }), deferLoading: true, execute: async () => "" });
  }
  return { set, ownName, serverOf };
}

function score(found, relevant) {
  const flags = found.slice(0, DEPTH).map(({ name, server }) => relevant.some((r) => r.name === name && (!r.server || r.server === server)));
  const first = flags.indexOf(true);
  return { r1: flags[0] ? 1 : 0, r5: flags.slice(0, 5).some(Boolean) ? 1 : 0, rr: first >= 0 ? 1 / (first + 1) : 0, empty: found.length === 0 ? 1 : 0 };
}

const script = [null, { text: "done" }];
const server = await startModelServer(script);
const model = createOpenAI({ apiKey: "bench", baseURL: `${server.url}/v1` }).chat("scripted");
const empty = () => ({ n: 0, r1: 0, r5: 0, rr: 0, empty: 0 });
const results = [];
for (const [set, all] of [["keyword", keywordQueries()], ["model-phrased", modelQueries()]]) {
  const totals = { default: empty(), toolshelf: empty() };
  const byCatalog = new Map();
  for (const q of all) (byCatalog.get(q.catalog) ?? byCatalog.set(q.catalog, []).get(q.catalog)).push(q);
  for (const [name, queries] of byCatalog) {
    const { set: tools, ownName, serverOf } = toolSetOf(name);
    const rankings = {
      default: toolSearch({ maxResults: DEPTH }),
      toolshelf: toolSearch({ maxResults: DEPTH, search: toolshelfSearch({ tools, limit: DEPTH }) }),
    };
    for (const q of queries) {
      for (const [label, search] of Object.entries(rankings)) {
        script[0] = { tool: "toolSearch", arguments: { query: q.query } };
        const result = await generateText({ model, prompt: q.query, tools: { toolSearch: search, ...tools }, stopWhen: stepCountIs(2) });
        const found = result.steps[0].toolResults[0]?.output?.tools ?? [];
        const s = score(found.map((t) => ({ name: ownName[t.name] ?? t.name, server: serverOf[t.name] })), q.relevant);
        const sum = totals[label];
        sum.n++;
        for (const k of ["r1", "r5", "rr", "empty"]) sum[k] += s[k];
      }
    }
  }
  results.push([set, totals]);
}
await server.close();

for (const [set, totals] of results) {
  console.log(`\n#### AI SDK toolSearch, ${set} queries (${totals.default.n}), ai ${aiVersion}, maxResults ${DEPTH}\n`);
  console.log("| ranking | recall@1 | recall@5 | MRR@10 | empty |\n|---|---|---|---|---|");
  for (const [label, s] of Object.entries(totals)) {
    const name = label === "default" ? "AI SDK default (keyword count)" : "toolshelfSearch()";
    console.log(`| ${name} | ${(s.r1 / s.n).toFixed(3)} | ${(s.r5 / s.n).toFixed(3)} | ${(s.rr / s.n).toFixed(3)} | ${s.empty} |`);
  }
}
