// Writes wide, long and deep inputs into fuzz/corpus/<target>/ (`hostile-*` files), so that every
// fuzz run starts from shapes that would take long on a path growing faster than n·log n;
// scripts/fuzz runs it before fuzzing and passes libFuzzer `-timeout`, which makes such a slow input
// a finding like a crash. Generated at fuzz time (they are ~0.3 MB each), never committed.
//
//   node fuzz/hostile-seeds.mjs [n]     # n = 20000 by default
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const n = Number(process.argv[2] ?? 20_000);
const dir = new URL("./corpus/", import.meta.url).pathname;
const range = (k) => Array.from({ length: k }, (_, i) => i);
const keys = (k) => Object.fromEntries(range(k).map((i) => [`key_${i}`, i]));
const properties = (k) => Object.fromEntries(range(k).map((i) => [`key_${i}`, { type: "integer" }]));
const tool = (name, description, schema = { type: "object" }) => ({ name, description, input_schema: schema });
const j = JSON.stringify;

const seeds = {
  json_parse: {
    "wide-object": j(keys(n)),
    "wide-object-repeated-keys": `{${range(n).map((i) => `"k${i % 100}":${i}`).join(",")}}`,
    "array-of-objects": j(range(n).map((i) => ({ a: i, b: `x${i}` }))),
    "long-string": j("word \" \\ \n é 😀 ".repeat(n)),
    "lone-surrogates": j("\ud800a\udc00b\u{10FFFF}".repeat(n / 4)),
    "deep": "[".repeat(128) + "]".repeat(128),
    "long-numbers": j(range(n).map((i) => i * 1.000001e-7)),
  },
  validate: {
    "wide-properties": `${j({ type: "object", properties: properties(n), additionalProperties: false })}\0${j(keys(n))}`,
    "long-required": `${j({ type: "object", required: Object.keys(keys(n)) })}\0${j(keys(n))}`,
    "long-enum": `${j({ enum: range(n).map((i) => `v${i}`) })}\0"nope"`,
    "many-any-of": `${j({ anyOf: range(n / 10).map((i) => ({ type: "object", required: [`k${i}`] })) })}\0{"x":1}`,
    "ref-into-wide-definitions": `${j({ definitions: properties(n), type: "array", items: { $ref: `#/definitions/key_${n - 1}` } })}\0${j(range(n))}`,
    "ref-chain": `${j({ definitions: Object.fromEntries(range(n).map((i) => [`d${i}`, { $ref: `#/definitions/d${(i + 1) % n}` }])), $ref: "#/definitions/d0" })}\0 1`,
    "wide-const": `${j({ const: keys(n / 4) })}\0${j(Object.fromEntries(Object.entries(keys(n / 4)).reverse()))}`,
    "long-string": `${j({ type: "string", maxLength: 5 })}\0${j("é".repeat(n * 10))}`,
  },
  toolbox: {
    "many-tools-one-server": `${j({ servers: { s: range(n / 4).map((i) => tool(`tool_${i}`, `Does thing ${i}. More.`)) } })}\0{}\0create issue`,
    "many-servers": `${j({ servers: Object.fromEntries(range(n / 4).map((i) => [`server${i}`, [tool(`t${i}`, "A tool.")]])) })}\0{"contextLength":1000}\0t1`,
    "long-options": `${j({ tools: range(n / 8).map((i) => tool(`d${i}`, "A tool.")), servers: Object.fromEntries(range(n / 8).map((i) => [`s${i}`, [tool(`t${i}`, "A tool.")]])) })}\0${j({ alwaysLoad: range(n / 8).map((i) => `s${i}`), defer: range(n / 8).map((i) => `d${i}`) })}\0t`,
    "long-description": `${j({ servers: { s: [tool("t", "word ".repeat(n * 5))] } })}\0{}\0word`,
    "long-query": `${j({ servers: { s: [tool("create_issue", "Create an issue.")] } })}\0{}\0${"create issue ".repeat(n)}`,
    "wide-schema": `${j({ servers: { s: [tool("t", "A tool.", { type: "object", properties: properties(n) })] } })}\0{}\0key`,
  },
  unwrap: {
    "wide-arguments": j({ type: "tool_use", id: "1", name: "tool_call", input: { name: "mcp__github__create_issue", arguments: keys(n) } }),
    "array-arguments": j({ type: "tool_use", id: "1", name: "tool_call", input: { name: "mcp__github__create_issue", arguments: { owner: "o", repo: "r", title: "t", labels: range(n).map(String) } } }),
    "long-query": j({ type: "tool_use", id: "1", name: "tool_search", input: { query: "create issue ".repeat(n) } }),
    "many-queries": j({ type: "tool_use", id: "1", name: "tool_search", input: { queries: range(n).map((i) => `query ${i}`) } }),
    "unknown-long-name": j({ type: "tool_use", id: "1", name: "tool_describe", input: { name: "x".repeat(n * 10) } }),
    "deep-ref-arguments": j({ type: "tool_use", id: "1", name: "tool_call", input: { name: "mcp__github__search_code", arguments: { opts: JSON.parse(`${'{"next":'.repeat(100)}null${"}".repeat(100)}`) } } }),
  },
};

let written = 0;
for (const [target, files] of Object.entries(seeds)) {
  mkdirSync(join(dir, target), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, target, `hostile-${name}`), text);
    written += Buffer.byteLength(text);
  }
}
console.log(`hostile seeds: ${Object.values(seeds).reduce((k, f) => k + Object.keys(f).length, 0)} files, ${(written / 1e6).toFixed(1)} MB in fuzz/corpus/`);
