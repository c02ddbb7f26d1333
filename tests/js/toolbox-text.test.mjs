// The toolbox's JSON text as the package writes it into wasm memory (pkg-template/toolbox-text.js):
// def by def, and always exactly JSON.stringify's text, or JSON.stringify's error. Over every real
// catalog in each toolbox shape, and over the shapes where cutting could differ from a whole
// JSON.stringify: toJSON at each level, members JSON.stringify leaves out, holes, boxed values,
// null-prototype objects, a "__proto__" key, non-list places, cycles and BigInts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Shelf, ToolshelfError } from "toolshelf";
import { catalog, dataDir, tool, toolshelfError } from "./support.mjs";

const pkgDir = dirname(fileURLToPath(import.meta.resolve("toolshelf/package.json")));
const { toolboxParts, toolboxRoom } = await import(pathToFileURL(join(pkgDir, "toolbox-text.js")).href);

const catalogs = readdirSync(join(dataDir, "catalogs"))
  .filter((file) => file.endsWith(".json.gz") && !file.startsWith("queries-"))
  .map((file) => file.replace(/\.json\.gz$/, ""));

/** The toolbox's three shapes: a list, `{servers}`, and `{tools, servers}` with a direct tool. */
function shapes(entries) {
  const servers = {};
  for (const { server, tool: def } of entries) (servers[server] ??= []).push(def);
  const defs = entries.map((e) => e.tool);
  return { list: defs, servers: { servers }, both: { tools: defs.slice(0, 3), servers } };
}

test("every real catalog, in each shape, is written as JSON.stringify writes it, def by def", () => {
  assert.ok(catalogs.length >= 10, `catalogs found: ${catalogs}`);
  for (const name of catalogs) {
    const entries = catalog(name);
    for (const [shape, toolbox] of Object.entries(shapes(entries))) {
      const parts = toolboxParts(toolbox);
      assert.equal(parts.join(""), JSON.stringify(toolbox), `${name} as ${shape}`);
      assert.ok(parts.length > entries.length, `${name} as ${shape}: cut into ${parts.length} parts for ${entries.length} defs`);
    }
  }
});

class Boxed {
  constructor(def) {
    this.def = def;
  }
  toJSON(key) {
    return { ...this.def, description: `written for key ${JSON.stringify(key)}` };
  }
}

test("shapes where a cut could differ from the whole are written as JSON.stringify writes them", () => {
  const a = tool("a_tool");
  const b = tool("b_tool", "Ünïcödé — “quoted” 😀 and a lone \ud800");
  const holey = [a, , b]; // eslint-disable-line no-sparse-arrays
  const nullProto = Object.assign(Object.create(null), { servers: Object.assign(Object.create(null), { s: [a] }) });
  const protoKey = JSON.parse('{"servers": {"__proto__": [{"name": "p", "description": "d", "input_schema": {"type": "object"}}]}}');
  const cases = {
    "a list": [a, b],
    "an empty list": [],
    "an empty object": {},
    "a def with toJSON": [a, new Boxed(b)],
    "a server's list with toJSON": { servers: { s: Object.assign([a], { toJSON: () => [b] }) } },
    "servers with toJSON": { servers: { toJSON: () => ({ t: [b] }), s: [a] } },
    "the toolbox with toJSON": { toJSON: (key) => [tool(`key_${key.length}`)], tools: [a] },
    "a Date as a def": [a, new Date(0)],
    "undefined, a function and a symbol in a list": [a, undefined, () => 1, Symbol("s"), b],
    "undefined, a function and a symbol as members": { tools: undefined, other: () => 1, more: Symbol("s"), servers: { s: [a], t: undefined } },
    "a sparse list": holey,
    "boxed values": { tools: [new String("x"), new Number(2), new Boolean(false)], servers: new String("s") },
    "null-prototype objects": nullProto,
    "a __proto__ server": protoKey,
    "not lists where lists go": { tools: "x", servers: { s: 5, t: null, u: { name: "not a list" } } },
    "servers not an object": { servers: [a] },
    "extra members kept in their order": { b: 1, servers: { s: [a] }, a: [2], 1: "first", tools: [b] },
    "a number": 3,
    "a string": "toolbox",
    "null": null,
    "undefined": undefined,
  };
  for (const [what, toolbox] of Object.entries(cases)) {
    assert.equal(toolboxParts(toolbox).join(""), JSON.stringify(toolbox ?? null), what);
  }
});

test("a toolbox JSON.stringify cannot write gets its error, whatever level holds the fault", () => {
  const cyclic = { servers: { s: [tool("a")] } };
  cyclic.servers.s.push({ name: "b", loop: cyclic });
  const selfList = [tool("a")];
  selfList.push(selfList);
  const cases = {
    "a cycle through the toolbox": cyclic,
    "a list holding itself": selfList,
    "a BigInt in a def": [tool("a"), { ...tool("b"), size: 1n }],
    "a BigInt member of the toolbox": { tools: [], count: 2n },
  };
  for (const [what, toolbox] of Object.entries(cases)) {
    assert.throws(() => toolboxParts(toolbox), toolshelfError(ToolshelfError, "invalid_toolbox", /cannot be written as JSON/), what);
    assert.throws(() => new Shelf(toolbox), toolshelfError(ToolshelfError, "invalid_toolbox", /cannot be written as JSON/), what);
  }
});

test("the room holds the text's UTF-8: a shelf of non-ASCII defs past the first guess reads them all", () => {
  // Three bytes per character in the descriptions: the room, sized at one byte a character, grows.
  const defs = Array.from({ length: 50 }, (_, i) => tool(`t${i}`, "日本語の説明".repeat(200)));
  const [room, written] = toolboxRoom(defs);
  assert.equal(written, new TextEncoder().encode(JSON.stringify(defs)).length);
  room.free();
  const shelf = new Shelf({ servers: { s: defs } }, { contextLength: 1000 });
  assert.equal(shelf.describe("t49")?.description, "日本語の説明".repeat(200));
  shelf.free();
});
