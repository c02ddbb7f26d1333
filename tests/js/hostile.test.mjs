// Hostile schemas and calls through the package: what a malicious or broken MCP server
// could publish, and what a prompt-injected model could send, never traps the wasm instance,
// never leaves a Shelf unusable, and never lets a found violation through. The same shapes are
// timed natively in tests/hostile.rs and through the package by `scripts/bench --hostile`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Shelf, unwrap, search, ToolshelfError } from "toolshelf";

const oneTool = (inputSchema) => ({ servers: { s: [{ name: "t", description: "A tool.", inputSchema }] } });
const viaBridge = (args, id = "c1") => ({ type: "tool_use", id, name: "tool_call", input: { name: "t", arguments: args } });
const refs = (n, target) => Array.from({ length: n }, () => ({ $ref: target }));

/** `anyOf` of n `$ref`s to a node whose `anyOf` holds n `$ref`s to `leaf`: n² paths to one leaf. */
const fanOut = (n, leaf) => ({
  type: "object",
  properties: { v: { anyOf: refs(n, "#/$defs/inner") } },
  $defs: { inner: { anyOf: refs(n, "#/$defs/leaf") }, leaf },
});

test("a 40 KB schema of 600 × 600 $ref paths to 1,500 types is a reject, and the Shelf stays usable", () => {
  const types = Array.from({ length: 1500 }, (_, i) => (i % 2 ? "null" : "boolean"));
  const toolbox = oneTool(fanOut(600, { type: types }));
  assert.ok(JSON.stringify(toolbox).length < 45_000);
  const shelf = new Shelf(toolbox);
  const u = shelf.unwrap(viaBridge({ v: "hello" }));
  assert.equal(u.kind, "reject");
  assert.equal(u.id, "c1");
  assert.match(u.content, /expected boolean or null, got string "hello" \(anyOf at arguments\.v\)/);
  assert.ok(u.content.length < 10_000, `${u.content.length} characters`);
  // Used afterwards: a valid call, an update and a free all work.
  assert.equal(shelf.unwrap(viaBridge({ v: true })).kind, "call");
  shelf.update(oneTool({ type: "object" }));
  assert.equal(shelf.unwrap(viaBridge({ v: "hello" })).kind, "call");
  shelf.free();
  // The free function answers the same, with no error from its handle.
  assert.equal(unwrap(toolbox, viaBridge({ v: "hello" })).kind, "reject");
});

test("a 2M-character key under additionalProperties: anyOf of 2,500 $refs is a reject with the key cut", () => {
  const schema = { type: "object", additionalProperties: { anyOf: refs(2500, "#/$defs/d") }, $defs: { d: { type: "integer" } } };
  const u = unwrap(oneTool(schema), viaBridge({ ["k".repeat(2_000_000)]: "x" }));
  assert.equal(u.kind, "reject");
  assert.ok(u.content.includes(`(anyOf at arguments["${"k".repeat(100)}…"])`), u.content.slice(0, 300));
  assert.ok(u.content.length < 9_000, `${u.content.length} characters`);
});

test("an anyOf of n $refs to n type names writes each type once (was a 67.5 MB message)", () => {
  const n = 10_000;
  const names = Array.from({ length: n }, (_, i) => ["null", "boolean", "array"][i % 3]);
  const schema = { type: "object", properties: { v: { anyOf: refs(n, "#/$defs/t") } }, $defs: { t: { type: names } } };
  const u = unwrap(oneTool(schema), viaBridge({ v: {} }));
  assert.equal(u.kind, "reject");
  assert.match(u.content, /expected null, boolean or array, got object \(anyOf at arguments\.v\)/);
  assert.ok(u.content.length < 9_000, `${u.content.length} characters`);
});

test("a violation once found is a reject, however many ids come before or after it", () => {
  const schema = {
    type: "object",
    properties: { ids: { type: "array", items: { type: "integer" } }, mode: { enum: ["a", "b"] } },
    additionalProperties: false,
  };
  const shelf = new Shelf(oneTool(schema));
  for (const count of [400_000, 600_000]) {
    const ids = Array(count).fill(1);
    for (const args of [{ ids, mode: "zzz", extra: 1 }, { mode: "zzz", ids, extra: 1 }, { ids, extra: 1 }]) {
      const u = shelf.unwrap(viaBridge(args));
      assert.equal(u.kind, "reject", `${count} ids, keys ${Object.keys(args)}`);
      assert.match(u.content, /\((enum at arguments\.mode|additionalProperties at arguments)\)/);
    }
  }
  shelf.free();
});

test("arguments nested too deep are a reject in every provider shape, never a throw", () => {
  const shelf = new Shelf(oneTool({ type: "object" }));
  const nested = (levels) => {
    const root = {};
    let at = root;
    for (let i = 1; i < levels; i++) at = at.a = {};
    return root;
  };
  const said = "t was not run: the arguments nest deeper than 128 levels. Send the arguments as a JSON object.";
  for (const levels of [129, 5_000, 50_000]) {
    const args = nested(levels);
    const calls = [
      { type: "tool_use", id: "c1", name: "t", input: args },
      { type: "tool_use", id: "c1", name: "tool_call", input: { name: "t", arguments: args } },
      { type: "function_call", call_id: "c1", name: "tool_call", arguments: { name: "t", arguments: args } },
    ];
    if (levels < 5_000) calls.push({ id: "c1", type: "function", function: { name: "t", arguments: JSON.stringify(args) } });
    for (const call of calls) {
      const u = shelf.unwrap(call);
      assert.deepEqual({ kind: u.kind, id: u.id, content: u.content }, { kind: "reject", id: "c1", content: said }, `${levels} levels`);
    }
  }
  // 128 levels are judged (and pass) in every shape.
  const args = nested(128);
  assert.equal(shelf.unwrap({ type: "tool_use", id: "c1", name: "t", input: args }).kind, "call");
  assert.equal(shelf.unwrap({ type: "tool_use", id: "c1", name: "tool_call", input: { name: "t", arguments: args } }).kind, "call");
  shelf.free();
});

test("a call the validator cannot judge in full passes with a warning for the agent", () => {
  // Two alternatives that both recurse: 2^60 paths, cut off by the evaluation depth.
  const v = { anyOf: [{ type: "array", items: { $ref: "#/properties/v" } }, { type: "array", items: { $ref: "#/properties/v" } }] };
  const shelf = new Shelf(oneTool({ type: "object", properties: { v } }));
  let deep = [5];
  for (let i = 0; i < 100; i++) deep = [deep];
  const u = shelf.unwrap(viaBridge({ v: deep }));
  assert.equal(u.kind, "call");
  assert.equal(u.warnings.length, 1);
  assert.ok(u.warnings[0].startsWith(`arguments of ${u.name} not fully validated`), `${u.warnings[0]}: names the tool by its shown name, the call's name`);
  assert.deepEqual([u.server, u.tool], ["s", "t"]);
  assert.equal(shelf.unwrap(viaBridge({ v: [[]] })).warnings, undefined, "judged in full: no warning");
  shelf.free();
});

test("a freed Shelf throws code freed from every method; freeing twice is harmless", () => {
  const shelf = new Shelf(oneTool({ type: "object" }));
  shelf.assemble();
  shelf.free();
  for (const use of [() => shelf.assemble(), () => shelf.search("tool"), () => shelf.describe("t"), () => shelf.unwrap(viaBridge({})), () => shelf.update(oneTool({}))]) {
    assert.throws(use, (e) => e instanceof ToolshelfError && e.code === "freed");
  }
  shelf.free();
});

test("update keeps an own __proto__ key, so it is refused as new Shelf refuses it", () => {
  const bad = JSON.parse('{"servers": {"s": []}, "__proto__": []}');
  const refusal = (() => {
    try {
      new Shelf(bad);
    } catch (e) {
      return e.code;
    }
  })();
  assert.equal(refusal, "invalid_toolbox");
  const shelf = new Shelf(oneTool({ type: "object" }));
  assert.throws(() => shelf.update(bad), (e) => e instanceof ToolshelfError && e.code === refusal);
  assert.equal(shelf.unwrap(viaBridge({})).kind, "call", "a failed update leaves the shelf as it was");
  shelf.free();
});

test("limit: null is the default limit, as tool_search reads it", () => {
  const toolbox = { servers: { s: Array.from({ length: 10 }, (_, i) => ({ name: `list_things_${i}`, description: "List things.", inputSchema: {} })) } };
  const shelf = new Shelf(toolbox);
  const viaModel = JSON.parse(shelf.unwrap({ name: "tool_search", arguments: { query: "list things", limit: null } }).content);
  assert.equal(shelf.search("list things", { limit: null }).matches.length, viaModel.matches.length);
  assert.equal(search(toolbox, "list things", { limit: null }).matches.length, 5);
  shelf.free();
});
