// One explicit state (SPEC §0, §9): the free functions keep nothing (wasm memory does not grow past
// what one call needs, whatever the number of toolboxes), give a Shelf's results and errors on every
// shared case (unwritable schemas included), and `Shelf.update` gives a new Shelf's results.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { assemble, search, describe, unwrap, Shelf } from "toolshelf";
import { assembleCases, catalog, dataDir, grouped, keywordQueries, tool } from "./support.mjs";

const unwrapFixture = JSON.parse(readFileSync(join(dataDir, "unwrap-cases.json"), "utf8"));

/** The package's own wasm instance (the glue's `initSync` returns the instance it already has). */
const glue = await import(new URL("./wasm/toolshelf.js", import.meta.resolve("toolshelf")));
const wasmMemory = () => glue.initSync({ module: new Uint8Array() }).memory.buffer.byteLength;

/** The result of `f`, or the thrown error as `{ error: { name, code, message } }`. */
function outcome(f) {
  try {
    return { value: f() };
  } catch (e) {
    return { error: { name: e?.name, code: e?.code, message: e?.message } };
  }
}

/** Every free function's outcome against the same call on a Shelf of the same toolbox and options. */
function assertSame(toolbox, options, { queries = [], names = [], calls = [] }, label) {
  const shelf = outcome(() => new Shelf(toolbox, options));
  const viaShelf = (f) => (shelf.error ? shelf : outcome(() => f(shelf.value)));
  try {
    assert.deepEqual(outcome(() => assemble(toolbox, options)), viaShelf((s) => s.assemble()), `${label}: assemble`);
    for (const q of queries) {
      assert.deepEqual(outcome(() => search(toolbox, q, options)), viaShelf((s) => s.search(q)), `${label}: search ${q}`);
    }
    for (const n of names) {
      assert.deepEqual(outcome(() => describe(toolbox, n, options)), viaShelf((s) => s.describe(n)), `${label}: describe ${n}`);
    }
    for (const c of calls) {
      assert.deepEqual(outcome(() => unwrap(toolbox, c, options)), viaShelf((s) => s.unwrap(c)), `${label}: unwrap`);
    }
  } finally {
    shelf.value?.free();
  }
  return shelf;
}

/** A schema no JSON can hold: a BigInt, a cycle, or a `toJSON` that throws. */
const unwritable = {
  bigint: () => ({ type: "object", properties: { n: { type: "integer", default: 10n } } }),
  cycle: () => {
    const schema = { type: "object", properties: {} };
    schema.properties.self = schema;
    return schema;
  },
  "throwing toJSON": () => ({ type: "object", toJSON() { throw new Error("no"); } }),
};

test("free functions and a Shelf: the same results on every shared assemble case", () => {
  for (const c of assembleCases()) {
    const toolbox = grouped(c.catalogs);
    const [server] = Object.keys(toolbox.servers);
    const first = toolbox.servers[server][0].function.name;
    const shelf = assertSame(toolbox, c.options, { queries: ["create issue", "list"], names: [first, "nope"] }, c.name);
    assert.equal(shelf.error, undefined, c.name);
  }
});

test("free functions and a Shelf: the same unwrap of every shared call", () => {
  const { catalogs, direct, options } = unwrapFixture.toolbox;
  const calls = unwrapFixture.cases.map((c) => c.call);
  assertSame(grouped(catalogs, direct), options, { calls }, "unwrap cases");
});

test("an unwritable schema is the same invalid_toolbox error from every function and from new Shelf", () => {
  for (const [what, schema] of Object.entries(unwritable)) {
    for (const where of ["deferred", "direct"]) {
      const bad = { ...tool("bad_tool"), function: { name: "bad_tool", description: "Bad.", parameters: schema() } };
      const toolbox = where === "deferred" ? { servers: { s: [tool("ok_tool"), bad] } } : { tools: [bad], servers: { s: [tool("ok_tool")] } };
      const shelf = assertSame(toolbox, {}, { queries: ["ok"], names: ["ok_tool"], calls: [{ name: "ok_tool", arguments: {} }] }, `${what} in a ${where} tool`);
      assert.equal(shelf.error?.code, "invalid_toolbox", `${what} in a ${where} tool`);
    }
  }
});

test("deferredTokens is a plain number: the assembly is plain data", () => {
  const toolbox = grouped(["linear-mcp-official"], [tool("read_file")]);
  const a = assemble(toolbox, { contextLength: 200_000 });
  const property = Object.getOwnPropertyDescriptor(a, "deferredTokens");
  assert.equal(typeof property.value, "number");
  assert.ok(property.value > 0);
  assert.deepEqual(JSON.parse(JSON.stringify(a)).deferredTokens, property.value);
});

/** The message of the worker script `file` (its own wasm instance, whose memory no earlier test has grown). */
async function inWorker(file) {
  const worker = new Worker(new URL(file, import.meta.url));
  const message = await new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  await worker.terminate();
  return message;
}

test("the free functions keep nothing: 50 toolboxes do not grow wasm memory past what one call needs", async () => {
  const { afterOne, afterFifty, withKept, error } = await inWorker("./state-memory.mjs");
  assert.equal(error, undefined);
  // One 64 KiB page of slack for the allocator's bookkeeping; a memo of even one more toolbox
  // (several MiB here) would show.
  assert.ok(afterFifty <= afterOne + 65536, `wasm memory grew from ${afterOne} to ${afterFifty} bytes over 50 toolboxes`);
  // The measure sees kept toolboxes: ten prepared Shelfs grow it (ten, not three: each call first
  // reserves room for ten times its toolbox's text in one memory growth, and a few Shelfs fit in it).
  assert.ok(withKept > afterFifty + 2 ** 20, `ten kept Shelfs: ${withKept} bytes, against ${afterFifty}`);
});

test("a prepared Shelf of 3,397 tools takes under 12 MiB of wasm memory (issue 20), its text's 2.3x", async () => {
  const { growth, textBytes, matches, error } = await inWorker("./prepared-memory.mjs");
  assert.equal(error, undefined);
  assert.equal(matches, 5);
  // The text (5.2 MB) is the one copy of the defs; the catalog and the index take the room reserved
  // for the work, and the index's postings take its entries' memory (11.1 MiB; 12.0 before). The
  // bench adds the JS heap's 0.05 MiB to this for the 12 MiB target.
  assert.ok(growth <= 12 * 2 ** 20 - 2 ** 18, `wasm memory grew ${growth} bytes`);
  assert.ok(growth <= 2.3 * textBytes, `wasm memory grew ${growth} bytes for a ${textBytes}-byte toolbox`);
});

/** Every answer of a Shelf, as plain data, for comparing an updated shelf with a new one. */
function answers(shelf, toolbox, queries) {
  const servers = Object.entries(toolbox.servers ?? {});
  const names = servers.flatMap(([server, list]) => list.slice(0, 3).map((t) => `mcp__${server}__${t.function.name}`));
  return {
    assembly: JSON.stringify(shelf.assemble()),
    searches: queries.map((q) => shelf.search(q, { limit: 5 })),
    described: names.map((n) => shelf.describe(n)),
    unwraps: names.map((n) => shelf.unwrap({ name: "tool_call", arguments: { name: n, arguments: {} } })),
  };
}

test("Shelf.update gives a new Shelf's results: attach, detach, change one tool, rename a server", () => {
  const options = { contextLength: 200_000, qualify: true };
  const queries = keywordQueries().slice(0, 20).map((q) => q.query);
  const start = grouped(["github-mcp-server", "linear-mcp-official"], [tool("read_file")]);
  const stripe = catalog("stripe-api-2022-04").map((e) => e.tool);
  const changedGithub = [...start.servers.github];
  changedGithub[3] = { ...changedGithub[3], function: { ...changedGithub[3].function, description: "Changed." } };
  const { linear, ...withoutLinear } = start.servers;
  const steps = {
    "attach stripe": { ...start, servers: { ...start.servers, stripe } },
    "detach linear": { ...start, servers: withoutLinear },
    "change one tool": { ...start, servers: { ...start.servers, github: changedGithub } },
    "rename a server": { ...start, servers: { gh: start.servers.github, linear } },
    "servers reordered": { ...start, servers: { linear, github: start.servers.github } },
    "a new direct tool": { tools: [tool("read_file"), tool("write_file")], servers: start.servers },
  };
  const shelf = new Shelf(start, options);
  try {
    for (const [step, toolbox] of Object.entries(steps)) {
      shelf.update(toolbox);
      const fresh = new Shelf(toolbox, options);
      try {
        assert.deepEqual(answers(shelf, toolbox, queries), answers(fresh, toolbox, queries), step);
      } finally {
        fresh.free();
      }
      const a = shelf.assemble();
      assert.equal(a.tools[0], toolbox.tools[0], `${step}: direct tools are the caller's objects`);
    }
    // A failed update leaves the shelf as it was.
    const before = answers(shelf, steps["a new direct tool"], queries);
    assert.throws(() => shelf.update({ tools: [tool("a"), tool("a")] }), (e) => e.code === "duplicate_tool");
    assert.deepEqual(answers(shelf, steps["a new direct tool"], queries), before);
  } finally {
    shelf.free();
  }
});
