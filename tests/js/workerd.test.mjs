// The package in the real Cloudflare Workers runtime: workerd (npm `workerd`) serves, on a free
// loopback port, a Worker that imports "toolshelf" as a user's Worker does. Bundle-free: Node's
// resolver picks the entry under the `workerd` condition, and every module it reaches (its static
// relative imports, the .wasm among them) is embedded in the capnp config under its path in the
// package, the .wasm as a precompiled `wasm` module, as wrangler would upload it. Node fetches the
// Worker's answers for the real GitHub + Linear catalogs and compares them with its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { assemble, search, unwrap } from "toolshelf";
import * as nodeApi from "toolshelf";
import { catalog, nativeAnswers, nativeInput, surrogateAnswers, surrogates, tool } from "./support.mjs";
import { capnpConfig, freePort, moduleGraph, startWorkerd, workerdEntry } from "./workerd-support.mjs";

const work = join(process.cwd(), "workerd");

// The Worker's input: the same toolbox, options, queries and calls Node answers.
const INPUT = {
  toolbox: { tools: [tool("read_file")], servers: { github: catalog("github-mcp-server").map((e) => e.tool), linear: catalog("linear-mcp-official").map((e) => e.tool) } },
  options: { contextLength: 200_000, qualify: true },
  queries: ["create pull request", "linear issue comments", "send gmail email", ""],
  calls: [
    { type: "tool_use", id: "toolu_1", name: "tool_call", input: { name: "mcp__github__create_issue", arguments: { owner: "o", repo: "r", title: "Crash" } } },
    { type: "tool_use", id: "toolu_2", name: "tool_call", input: { name: "mcp__github__create_issue", arguments: { owner: "o" } } },
    { type: "tool_use", id: "toolu_3", name: "tool_search", input: { query: "merge pull request" } },
    { type: "tool_use", id: "toolu_4", name: "read_file", input: { path: "a" } },
  ],
  surrogates: surrogates(),
  native: nativeInput(),
};

const WORKER = `
import { assemble, search, unwrap, Shelf, ToolshelfError } from "toolshelf";
import input from "./input.json";
${surrogateAnswers.toString()}
${nativeAnswers.toString()}
const codeOf = (f) => { try { f(); return "no throw"; } catch (e) { return e instanceof ToolshelfError ? e.code : String(e); } };
export default {
  async fetch() {
    const { toolbox, options } = input;
    const a = assemble(toolbox, options);
    const shelf = new Shelf(toolbox, options);
    const body = {
      assembly: { ...a, tools: a.tools.length },
      directIsSameObject: a.tools[0] === toolbox.tools[0],
      // The same objects again, then new objects: the same result (nothing is kept between calls).
      againIsSame: JSON.stringify(assemble(toolbox, options)) === JSON.stringify(a),
      clonedIsSame: JSON.stringify(assemble(structuredClone(toolbox), options)) === JSON.stringify(a),
      searches: input.queries.map((q) => search(toolbox, q, options)),
      unwraps: input.calls.map((c) => unwrap(toolbox, c, options)),
      shelfFingerprint: shelf.assemble().fingerprint,
      error: codeOf(() => assemble(42)),
      surrogates: surrogateAnswers({ assemble, search, unwrap, Shelf }, input.surrogates),
      native: nativeAnswers({ assemble, unwrap, Shelf }, input.native),
    };
    shelf.free();
    return Response.json(body);
  },
};`;

/** Node's own answers to the same input. */
function expected() {
  const { toolbox, options } = INPUT;
  const a = assemble(toolbox, options);
  return {
    assembly: { ...a, tools: a.tools.length },
    directIsSameObject: true,
    againIsSame: true,
    clonedIsSame: true,
    searches: INPUT.queries.map((q) => search(toolbox, q, options)),
    unwraps: INPUT.calls.map((c) => unwrap(toolbox, c, options)),
    shelfFingerprint: a.fingerprint,
    error: "invalid_toolbox",
    surrogates: surrogateAnswers(nodeApi, surrogates()),
    native: nativeAnswers(nodeApi, nativeInput()),
  };
}

test("the workerd entry in workerd: the same assembly, fingerprint, searches and unwraps as Node", { timeout: 180_000 }, async (t) => {
  mkdirSync(work, { recursive: true });
  const entry = workerdEntry();
  assert.match(entry, /node_modules\/toolshelf\/workerd\.js$/);
  const graph = moduleGraph(entry).map((f) => relative(dirname(entry), f)).sort();
  assert.deepEqual(graph, ["api.js", "common.js", "state.js", "toolbox-text.js", "wasm/toolshelf.js", "wasm/toolshelf_bg.wasm", "workerd.js"]);
  writeFileSync(join(work, "worker.js"), WORKER);
  writeFileSync(join(work, "input.json"), JSON.stringify(INPUT));
  const port = await freePort();
  writeFileSync(join(work, "config.capnp"), capnpConfig({ work, port, entry }));
  const server = await startWorkerd({ work, configFile: "config.capnp", port });
  try {
    t.diagnostic(`workerd answered ${Math.round(server.readyMs)} ms after spawn`);
    const response = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(30_000) });
    assert.equal(response.status, 200, server.output());
    const body = await response.json();
    assert.deepEqual(body, expected());
    // And the answers are meaningful: a real call, a reject, a search answer, a direct call.
    assert.deepEqual(body.unwraps.map((u) => u.kind), ["call", "reject", "answer", "call"]);
    assert.equal(body.assembly.fingerprint, assemble(INPUT.toolbox, INPUT.options).fingerprint);
    const lone = JSON.parse(body.surrogates);
    assert.equal(lone.fingerprints[0], lone.fingerprints[1], "lone surrogates: one fingerprint on both paths");
  } finally {
    server.stop();
  }
});

// A hybrid Shelf's snapshot in a Worker (SPEC §15): the snapshot, with the all-MiniLM-L6-v2 vectors
// of the GitHub and Linear tools, imported as a Data module and loaded at module scope; the Worker's
// vector searches and unwrapAsync answers (its embed a table of the queries' fixture vectors) are
// the live Node shelf's, byte for byte.
const HYBRID_WORKER = `
import { Shelf } from "toolshelf";
import bytes from "./shelf.bin";
import input from "./input.json";
const shelf = Shelf.fromSnapshot(bytes);
export default {
  async fetch() {
    const vector = (q) => Float32Array.from(input.vectors[q]);
    const searches = input.queries.map((q) => shelf.search(q, { limit: 8, vector: vector(q) }));
    const unwraps = [];
    for (const call of input.calls) unwraps.push(await shelf.unwrapAsync(call, { embed: async (q) => vector(q) }));
    return Response.json({ searches, unwraps, vectors: shelf.embeddingTexts().length });
  },
};`;

test("a hybrid Shelf's snapshot loaded at module scope in workerd answers vector searches as the live shelf", { timeout: 180_000 }, async (t) => {
  const { readVectors, embeddingKey } = await import("./embeddings.mjs");
  const { keywordQueries } = await import("./support.mjs");
  const toolbox = { servers: { github: catalog("github-mcp-server").map((e) => e.tool), linear: catalog("linear-mcp-official").map((e) => e.tool) } };
  const live = new nodeApi.Shelf(toolbox, { qualify: true });
  const tools = readVectors("tools");
  const byKey = {};
  for (const { key } of live.embeddingTexts()) if (tools.get(key)) byKey[key] = tools.get(key);
  assert.ok(Object.keys(byKey).length > 40, `${Object.keys(byKey).length} tool vectors`);
  live.setEmbeddings({ model: tools.model, vectors: byKey });
  const queryVectors = readVectors("queries-keyword");
  const vectors = {};
  for (const { query } of keywordQueries()) {
    const v = queryVectors.get(embeddingKey(query));
    if (v && Object.keys(vectors).length < 24) vectors[query] = [...v];
  }
  const queries = Object.keys(vectors);
  const calls = [
    ...queries.slice(0, 6).map((query) => ({ type: "tool_use", id: "t", name: "tool_search", input: { query } })),
    { type: "tool_use", id: "b", name: "tool_search", input: { queries: queries.slice(6, 9) } },
  ];
  const hybridWork = join(work, "hybrid");
  mkdirSync(hybridWork, { recursive: true });
  writeFileSync(join(hybridWork, "worker.js"), HYBRID_WORKER);
  writeFileSync(join(hybridWork, "input.json"), JSON.stringify({ vectors, queries, calls }));
  writeFileSync(join(hybridWork, "shelf.bin"), live.snapshot());
  const port = await freePort();
  const config = capnpConfig({ work: hybridWork, port, entry: workerdEntry(), extraModules: ['(name = "shelf.bin", data = embed "shelf.bin")'] });
  writeFileSync(join(hybridWork, "config.capnp"), config);
  const server = await startWorkerd({ work: hybridWork, configFile: "config.capnp", port });
  try {
    t.diagnostic(`workerd answered ${Math.round(server.readyMs)} ms after spawn`);
    const response = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(30_000) });
    assert.equal(response.status, 200, server.output());
    const body = await response.json();
    const expected = { searches: queries.map((q) => live.search(q, { limit: 8, vector: Float32Array.from(vectors[q]) })), unwraps: [], vectors: live.embeddingTexts().length };
    for (const call of calls) expected.unwraps.push(await live.unwrapAsync(call, { embed: async (q) => Float32Array.from(vectors[q]) }));
    assert.deepEqual(body, JSON.parse(JSON.stringify(expected)));
    assert.ok(body.unwraps.every((u) => u.kind === "answer" && u.warnings === undefined), "fused answers, no lexical fallback");
    // The vectors count: a query only similar to a tool finds it as the live shelf does, not lexically.
    const lexical = queries.map((q) => live.search(q, { limit: 8 }));
    assert.notDeepEqual(body.searches, JSON.parse(JSON.stringify(lexical)), "the vectors change some ranking");
  } finally {
    server.stop();
    live.free();
  }
});
