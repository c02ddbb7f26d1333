// One explicit state (SPEC §0, §9): the free functions keep nothing (wasm memory does not grow past
// what one call needs, whatever the number of toolboxes), give a Shelf's results and errors on every
// shared case (unwritable schemas included), and `Shelf.update` gives a new Shelf's results.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { assemble, search, describe, unwrap, Shelf, ToolshelfError } from "toolshelf";
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

test("a prepared Shelf of 3,397 tools takes under 10.5 MiB of wasm memory, its text's 2.1x", async () => {
  const { growth, textBytes, matches, error } = await inWorker("./prepared-memory.mjs");
  assert.equal(error, undefined);
  assert.equal(matches, 5);
  // The text (5.2 MB) is the one copy of the defs: the catalog keeps where in it the strings search
  // reads lie (offsets, not copies), and the index's postings take the rest of the room reserved for
  // the work (10 MiB in all today, 2.02x the text; docs/benchmarks.md, "Snapshots").
  assert.ok(growth <= 10.5 * 2 ** 20, `wasm memory grew ${growth} bytes`);
  assert.ok(growth <= 2.1 * textBytes, `wasm memory grew ${growth} bytes for a ${textBytes}-byte toolbox`);
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

// SPEC §15: update() accepts every toolbox new Shelf accepts and then answers as the new
// Shelf, whatever tools are left out of the deferred set (bridge names, custom bridgeNames, an
// assembly's own bridge tools fed back).

/** A tool def in `format` (the five formats of SPEC §2.1). */
function inFormatOf(format, name, description, schema) {
  switch (format) {
    case "openai":
      return { type: "function", function: { name, description, parameters: schema } };
    case "responses":
      return { type: "function", name, description, parameters: schema };
    case "anthropic":
      return { name, description, input_schema: schema };
    case "mcp":
      return { name, description, inputSchema: schema };
    default:
      return { name, description, parameters: schema };
  }
}

/** The outcome of `f` as plain data, an error as its code and message (never a raw TypeError). */
function settled(f) {
  try {
    return { value: f() };
  } catch (e) {
    assert.ok(e instanceof ToolshelfError, `not a ToolshelfError: ${e?.stack ?? e}`);
    return { error: `${e.code}: ${e.message}` };
  }
}

/** Every answer of a shelf, as JSON text: assembly, searches, describe and unwraps of every name. */
function allAnswers(shelf, extraNames = []) {
  const assembly = shelf.assemble();
  const names = new Set(extraNames);
  for (const t of assembly.tools) names.add(t.function?.name ?? t.name);
  for (const m of shelf.search("a e i o u", { limit: 50 }).matches) names.add(m.name);
  const out = [JSON.stringify(assembly)];
  for (const q of ["create issue", "list", "docs search", "refund", "x", "", ...names]) out.push(JSON.stringify(shelf.search(q, { limit: 5 })));
  for (const name of [...names, "no_such_tool"]) {
    out.push(JSON.stringify(shelf.describe(name)));
    out.push(JSON.stringify(settled(() => shelf.unwrap({ name: "tool_call", arguments: { name, arguments: { path: "p" } } }))));
    out.push(JSON.stringify(settled(() => shelf.unwrap({ name, arguments: { id: "1" } }))));
  }
  return out;
}

/** Asserts `shelf` answers as `fresh`: the same JSON, the caller's very objects where fresh has them. */
function assertAnswersAs(shelf, fresh, toolbox, label) {
  const got = allAnswers(shelf);
  const want = allAnswers(fresh);
  const at = want.findIndex((w, i) => w !== got[i]);
  assert.equal(at, -1, `${label}: answer ${at} differs\n got: ${got[at]?.slice(0, 800)}\nwant: ${want[at]?.slice(0, 800)}`);
  const defs = new Set([...(Array.isArray(toolbox.tools) ? toolbox.tools : []), ...Object.values(toolbox.servers ?? {}).flat()]);
  const [a, b] = [shelf.assemble().tools, fresh.assemble().tools];
  b.forEach((t, i) => defs.has(t) && assert.equal(a[i], t, `${label}: tool ${i} is the caller's own object`));
}

test("update past a left-out tool: every variant, bridge and native mode, as a new Shelf", () => {
  const schema = { type: "object", properties: { path: { type: "string" } } };
  const fedBack = new Shelf({ servers: { s: [tool("a")] } }, { contextLength: 2000 }).assemble().tools.find((t) => t.function?.name === "tool_search");
  assert.ok(fedBack, "the bridge's own search tool");
  const variants = [
    ["tool_search", tool("tool_search", "Mine."), {}],
    ["tool_call", tool("tool_call", "Mine."), {}],
    ["tool_describe", tool("tool_describe", "Mine."), {}],
    ["custom search", tool("find_tools", "Mine."), { bridgeNames: { search: "find_tools" } }],
    ["custom call", tool("run_tool", "Mine."), { bridgeNames: { call: "run_tool" } }],
    ["custom describe", tool("show_tool", "Mine."), { bridgeNames: { describe: "show_tool" } }],
    ["own bridge tool fed back", fedBack, {}],
  ];
  for (const mode of ["bridge", "native"]) {
    for (const [variant, leftOut, extra] of variants) {
      const options = { ...extra, mode, contextLength: 2000 };
      const first = tool("first", "First."), third = tool("third", "Third.");
      const gh = [first, leftOut, tool("second", "Second."), third];
      const other = [tool("other_one", "Other."), leftOut];
      const shelf = new Shelf({ servers: { gh, other } }, options);
      const next = { servers: { gh: [first, leftOut, tool("second", "Changed."), third], other } };
      const label = `${mode}, ${variant}`;
      assert.doesNotThrow(() => shelf.update(next), label);
      const fresh = new Shelf(next, options);
      assertAnswersAs(shelf, fresh, next, label);
      assert.deepEqual(shelf.snapshot(), fresh.snapshot(), `${label}: snapshot`);
      // A loaded snapshot of it updates alike.
      const loaded = Shelf.fromSnapshot(shelf.snapshot());
      const again = { servers: { gh: [first, leftOut, tool("second", "Again."), third], other } };
      assert.doesNotThrow(() => loaded.update(again), `${label}: a loaded shelf`);
      assertAnswersAs(loaded, new Shelf(again, options), again, `${label}: a loaded shelf`);
      for (const s of [shelf, fresh, loaded]) s.free();
    }
  }
});

/** A seeded generator (mulberry32): the same sessions every run; the seed is in every message. */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { below: (n) => Math.floor(next() * Math.max(n, 1)), chance: (p) => next() < p, pick: (items) => items[Math.floor(next() * items.length)] };
}

const SERVERS = ["gh", "linear", "a b", "x.y", "builtin", "s", "__proto__"];
const NAMES = ["create_issue", "list_items", "search_docs", "get", "tool_search", "tool_call", "tool_describe", "find_tools", "run_tool", "show_tool", " padded ", "mcp__gh__merge", "a.b/c d"];
const DESCRIPTIONS = ["Create an issue in a repository.", "List every item, e.g. projects", "", "Ünïcode \"quote\" <b>HTML</b>", "Search the documentation."];
const OPTIONS = [
  {},
  { qualify: true },
  { qualify: false },
  { mode: "native" },
  { mode: "native", contextLength: 2000 },
  { bridgeNames: { search: "find_tools", call: "run_tool", describe: "show_tool" } },
  { contextLength: 2000, batch: true },
  { alwaysLoad: ["gh"], contextLength: 4000 },
  { defer: ["get", "create_issue"] },
  { format: "anthropic" },
  { mode: "native", bridgeNames: ["find_tools", "show_tool", "run_tool"], contextLength: 3000 },
];
const FORMATS = ["openai", "responses", "anthropic", "mcp", "gemini"];

/** One random session of updates, each compared with a new Shelf (answers, objects, snapshots, errors). */
function updateSession(seed) {
  const r = rng(seed);
  const options = r.pick(OPTIONS);
  let format = r.pick(FORMATS);
  const tiny = { servers: { s: [inFormatOf(format, "t", "T.", { type: "object" })] } };
  const bridgeDefs = settled(() => new Shelf(tiny, options).assemble().tools).value?.filter((t) => (t.function?.name ?? t.name) !== "t") ?? [];
  const def = () => {
    if (bridgeDefs.length && r.chance(0.08)) return r.pick(bridgeDefs);
    const schema = { type: "object" };
    if (r.chance(0.6)) {
      const p = r.pick(["path", "query", "id"]);
      schema.properties = { [p]: { type: "string", description: "The thing." } };
      if (r.chance(0.5)) schema.required = [p];
    }
    return inFormatOf(format, r.pick(NAMES), r.pick(DESCRIPTIONS), schema);
  };
  const list = (most) => Array.from({ length: r.below(most + 1) }, def);
  const toolboxOf = (direct, servers) => {
    const box = direct === undefined ? {} : { tools: direct };
    box.servers = Object.create(null);
    for (const [name, defs] of servers) box.servers[name] = defs;
    return box;
  };
  const entries = (box) => Object.keys(box.servers).map((n) => [n, box.servers[n]]);
  let box;
  for (let tries = 0; tries < 6; tries++) {
    const servers = new Map();
    for (let i = r.below(4) + 1; i > 0; i--) servers.set(r.pick(SERVERS), list(5));
    box = toolboxOf(r.chance(0.5) ? list(2) : undefined, servers);
    if (!settled(() => new Shelf(box, options).free()).error) break;
  }
  const start = settled(() => new Shelf(box, options));
  if (start.error) return 0;
  const shelf = start.value;
  let steps = 0;
  try {
    for (let step = 0; step < 6; step++) {
      let direct = box.tools;
      let servers = entries(box).map(([n, l]) => [n, [...l]]);
      const pickList = () => servers[r.below(servers.length)]?.[1];
      switch (r.below(13)) {
        case 0: { const name = r.pick(SERVERS); if (!servers.some(([n]) => n === name)) servers.push([name, list(4)]); break; }
        case 1: if (servers.length) servers.splice(r.below(servers.length), 1); break;
        case 2: servers.reverse(); break;
        case 3: { const l = pickList(); if (l?.length) l[r.below(l.length)] = def(); break; }
        case 4: { const l = pickList(); if (l?.length > 1) { const [i, j] = [r.below(l.length), r.below(l.length)]; [l[i], l[j]] = [l[j], l[i]]; } break; }
        case 5: { const l = pickList(); l?.splice(r.below(l.length + 1), 0, def()); break; }
        case 6: { const l = pickList(); if (l?.length) l.splice(r.below(l.length), 1); break; }
        case 7: { const name = r.pick(SERVERS); if (servers.length && !servers.some(([n]) => n === name)) servers[r.below(servers.length)][0] = name; break; }
        case 8: { const l = pickList(); if (l?.length) { const i = r.below(l.length); l[i] = structuredClone(l[i]); } break; }
        case 9: { const [from, to] = [pickList(), pickList()]; if (from?.length && to) to.push(from[0]); break; }
        case 10: direct = direct !== undefined && r.chance(0.5) ? undefined : list(2); break;
        case 11: {
          // Every def in another format: new objects throughout.
          const to = r.pick(FORMATS);
          const rewrite = (t) => {
            const fields = t.function ?? t;
            return inFormatOf(to, fields.name ?? "x", fields.description ?? "", fields.parameters ?? fields.input_schema ?? fields.inputSchema ?? { type: "object" });
          };
          direct = direct?.map(rewrite);
          servers = servers.map(([n, l]) => [n, l.map(rewrite)]);
          format = to;
          break;
        }
        default: break; // the same objects again
      }
      const next = toolboxOf(direct, servers);
      const label = `seed ${seed}, step ${step}, options ${JSON.stringify(options)}, toolbox ${JSON.stringify(next).slice(0, 1500)}`;
      const fresh = settled(() => new Shelf(next, options));
      const before = fresh.error ? allAnswers(shelf) : null;
      const loaded = Shelf.fromSnapshot(shelf.snapshot());
      const updated = settled(() => shelf.update(next));
      const updatedLoaded = settled(() => loaded.update(next));
      if (fresh.error) {
        assert.equal(updated.error, fresh.error, `${label}: the error of new Shelf`);
        assert.equal(updatedLoaded.error, fresh.error, `${label}: a loaded shelf, the error of new Shelf`);
        assert.deepEqual(allAnswers(shelf), before, `${label}: a failed update changed the shelf`);
      } else {
        assert.equal(updated.error, undefined, label);
        assert.equal(updatedLoaded.error, undefined, `${label}: a loaded shelf`);
        assertAnswersAs(shelf, fresh.value, next, label);
        assertAnswersAs(loaded, fresh.value, next, `${label}: a loaded shelf`);
        assert.deepEqual(shelf.snapshot(), fresh.value.snapshot(), `${label}: snapshot`);
        assert.deepEqual(shelf.snapshot({ toolbox: false }), fresh.value.snapshot({ toolbox: false }), `${label}: snapshot without the toolbox`);
        fresh.value.free();
        box = next;
        steps++;
      }
      loaded.free();
    }
  } finally {
    shelf.free();
  }
  return steps;
}

test("update is a new Shelf for random toolboxes and update sequences (seeded; SPEC §15)", () => {
  let steps = 0;
  for (let seed = 1; seed <= 150; seed++) steps += updateSession(seed);
  assert.ok(steps > 400, `${steps} updates compared`);
});
