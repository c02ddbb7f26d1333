// Native tool search (SPEC §11) against the bridge and eager loading, through the built package
// (pkg/node.js) on the real catalogs: per request, the tokens the model's context pays for the tools
// array (Assembly.contextTokens) and the bytes the request sends (requestBytes), for Anthropic and
// OpenAI Responses; then a ten-turn scripted Anthropic conversation with assemble({ messages })
// (each turn a search of a labelled query and a call of its top match); then the model turns a task
// takes from a search to the tool running. `node bench/native.mjs` (after scripts/build) prints
// Markdown tables for docs/benchmarks.md. Deterministic: no timings.
import { Shelf } from "../pkg/node.js";
import { readFileSync } from "node:fs";
import { catalog, dataDir, keywordQueries } from "../tests/js/support.mjs";

const CATALOGS = [
  ["Linear (38)", ["linear-mcp-official"]],
  ["GitHub + Linear (155)", ["github-mcp-server", "linear-mcp-official"]],
  ["Unreal (1,079)", ["unreal-mcp-actions-exploded"]],
  ["REST: Cloudflare + Twilio + Stripe (3,397)", ["cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04"]],
  ["mega-union (4,774)", ["mega-union"]],
];
const OPTIONS = { contextLength: 200_000 };

function inFormat(f, format) {
  return format === "anthropic"
    ? { name: f.name, description: f.description ?? "", input_schema: f.parameters ?? { type: "object" } }
    : { type: "function", name: f.name, description: f.description ?? "", parameters: f.parameters ?? { type: "object" } };
}

/** The catalogs as a toolbox in `format`, with one direct tool. */
function toolbox(names, format) {
  const servers = {};
  for (const name of names) {
    for (const { server, tool } of catalog(name)) (servers[server] ??= []).push(inFormat(tool.function, format));
  }
  const direct = inFormat({ name: "read_file", description: "Read a file.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }, format);
  return { tools: [direct], servers };
}

const kb = (bytes) => (bytes / 1024).toFixed(1);
const n = (x) => x.toLocaleString("en-US");

function costs() {
  const rows = [
    "| catalog | provider | eager: context tokens / KB sent | bridge | native | native + `assemble({ messages })`, 10 turns: largest request (KB) | same, `loadLimit: 5` (every match loads) |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const [label, names] of CATALOGS) {
    for (const format of ["anthropic", "responses"]) {
      const box = toolbox(names, format);
      const eager = new Shelf(box, { ...OPTIONS, enabled: "off" }).assemble();
      const bridge = new Shelf(box, OPTIONS).assemble();
      const native = new Shelf(box, { ...OPTIONS, mode: "native" }).assemble();
      const cell = (a) => `${n(a.contextTokens)} / ${kb(a.requestBytes)}`;
      const turns = (limit) => {
        const shelf = new Shelf(box, { ...OPTIONS, mode: "native", loadLimit: limit });
        const { max, loaded } = conversation(shelf, names);
        return `${kb(max)} (${loaded} loaded)`;
      };
      const tail = format === "anthropic" ? `${turns(1)} | ${turns(5)}` : "= native (deferred tools never sent) | =";
      rows.push(`| ${label} | ${format} | ${cell(eager)} | ${cell(bridge)} | ${cell(native)} | ${tail} |`);
    }
  }
  return rows.join("\n");
}

/**
 * Ten model turns (requests) of five tasks: a search of a labelled query of the catalogs (the
 * model's default limit), then a call of its top match. The largest tools array sent, and how
 * many deferred tools the last request carried.
 */
function conversation(shelf, names) {
  const queries = keywordQueries().filter((q) => names.includes(q.catalog)).map((q) => q.query);
  const pool = queries.length > 0 ? queries : ["list", "create", "get", "delete", "update"];
  const messages = [{ role: "user", content: "Do the five things." }];
  let max = 0;
  let last;
  for (let turn = 0; turn < 10; turn++) {
    last = shelf.assemble({ messages });
    max = Math.max(max, last.requestBytes);
    const task = turn >> 1;
    const previous = messages.at(-1).content;
    const top = Array.isArray(previous) ? previous[0].content?.find?.((b) => b.type === "tool_reference") : undefined;
    const use = turn % 2 === 0 || !top
      ? { type: "tool_use", id: `t${turn}`, name: "tool_search", input: { query: pool[task % pool.length] } }
      : { type: "tool_use", id: `t${turn}`, name: top.tool_name, input: {} };
    const u = shelf.unwrap(use);
    const content = use.name === "tool_search" ? u.content : "ok";
    messages.push({ role: "assistant", content: [use] }, { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content }] });
  }
  return { max, loaded: last.tools.filter((t) => t.defer_loading).length };
}

const BUDGETS = [
  ["default (`loadLimit: 1`)", {}],
  ["`loadLimit: 2`", { loadLimit: 2 }],
  ["`loadLimit: 50` (every match, SPEC §11 alone)", { loadLimit: 50 }],
  ["`loadLimit: 50`, `loadMaxTokens: 2000`", { loadLimit: 50, loadMaxTokens: 2000 }],
  ["`loadLimit: 50`, `loadMaxTokens: 500`", { loadLimit: 50, loadMaxTokens: 500 }],
];

/**
 * Native Anthropic answers under `loadLimit` and `loadMaxTokens` (`loadLimit: 50`: SPEC §11 alone, every match referenced): the
 * ten-turn conversation's largest request, and over the labelled keyword and model-phrased
 * queries of the catalog, how often one search loads a right tool, how often the answer names
 * one without loading it (one more search of its exact name), and the definition tokens a search
 * loads (mean).
 */
function loadBudgets() {
  const model = JSON.parse(readFileSync(`${dataDir}queries-model.json`, "utf8"));
  const rows = [
    "| catalog | options | 10 turns: largest request (KB) | loaded by the search | named, not loaded | tokens loaded a search (mean) |",
    "|---|---|---|---|---|---|",
  ];
  for (const [label, names] of CATALOGS) {
    const box = toolbox(names, "anthropic");
    const labelled = [...keywordQueries(), ...model].filter((q) => names.includes(q.catalog));
    for (const [budget, extra] of BUDGETS) {
      const shelf = new Shelf(box, { ...OPTIONS, mode: "native", ...extra });
      const { max, loaded } = conversation(shelf, names);
      const tokens = new Map(shelf.assemble().tools.map((t) => [t.name, Math.ceil(JSON.stringify(t).length / 4)]));
      let hit = 0, named = 0, spent = 0;
      for (const q of labelled) {
        const u = shelf.unwrap({ type: "tool_use", id: "q", name: "tool_search", input: { query: q.query } });
        const refs = u.content.filter((b) => b.type === "tool_reference").map((b) => b.tool_name);
        const text = u.content.filter((b) => b.type === "text").map((b) => b.text).join("\n");
        const right = (name) => q.relevant.some((r) => name === r || name.endsWith(`__${r}`));
        spent += refs.reduce((sum, name) => sum + (tokens.get(name) ?? 0), 0);
        if (refs.some(right)) hit++;
        else if (q.relevant.some((r) => new RegExp(`[ ;:_]${r.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(:|;|$)`, "m").test(text))) named++;
      }
      const share = (k) => (labelled.length ? (k / labelled.length).toFixed(3) : "—");
      rows.push(`| ${label} | ${budget} | ${kb(max)} (${loaded} loaded) | ${share(hit)} | ${share(named)} | ${labelled.length ? n(Math.round(spent / labelled.length)) : "—"} |`);
    }
  }
  return rows.join("\n");
}

/** Model turns from the task to the real tool running, for tools found by search and tools listed. */
function turns() {
  return [
    "| how the tool is reached | bridge | native (Anthropic, Responses) |",
    "|---|---|---|",
    "| found by search (summarized server) | 3: `tool_search` → `tool_describe` → `tool_call` | 2: search (loads it) → the tool itself |",
    "| listed by name | 2: `tool_describe` → `tool_call` | 2: search of its exact name → the tool itself |",
    "| several listed tools | 1 + n: batched describe → n × `tool_call` | 1 + n: one search of the exact names → n calls |",
    "| e2e scripts (tests/js/e2e*.test.mjs) | 7 requests: 2 tools run (one reject) | 7 requests: 3 tool runs (one reject), no describe |",
  ].join("\n");
}

console.log(costs());
console.log("");
console.log(turns());
console.log("");
console.log(loadBudgets());
