// Every programmer error of SPEC §8 from every function that can raise it: a ToolshelfError (an
// Error subclass, exported) with its stable `code` and a message that says where. Model mistakes and
// odd options never throw. (`not_initialized` needs a fresh process: exports.test.mjs.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { assemble, describe, search, Shelf, ToolshelfError, unwrap } from "toolshelf";
import { toolshelfError, tool } from "./support.mjs";

const cyclic = () => {
  const o = { name: "a" };
  o.self = o;
  return o;
};
const nested = (depth) => JSON.parse("[".repeat(depth) + "]".repeat(depth));

// [what, toolbox, code, message]
const TOOLBOX_ERRORS = [
  ["a number", 42, "invalid_toolbox", /^toolbox: expected a list of tools or \{tools, servers\}, got a number/],
  ["null", null, "invalid_toolbox", /got null/],
  ["undefined", undefined, "invalid_toolbox", /got null/],
  ["a string", "tools", "invalid_toolbox", /got a string/],
  ["tools not a list", { tools: {} }, "invalid_toolbox", /^tools: expected a list of tools/],
  ["servers a list", { servers: [] }, "invalid_toolbox", /^servers: expected an object/],
  ["a server not a list", { servers: { github: 5 } }, "invalid_toolbox", /^servers\.github: expected a list/],
  ["a BigInt", [1n], "invalid_toolbox", /cannot be written as JSON/],
  ["a cycle", [cyclic()], "invalid_toolbox", /cannot be written as JSON/],
  ["a tool not an object", { tools: [5] }, "invalid_tool", /^tools\[0\]: a tool must be an object/],
  ["a tool without a name", { servers: { github: [tool("a"), { type: "function", function: {} }] } }, "invalid_tool", /^servers\.github\[1\]/],
  ["a duplicate name", [tool("a"), tool("a")], "duplicate_tool", /^\[1\]: duplicate tool name "a", also at \[0\]/],
  ["a duplicate qualify: auto makes", { tools: [tool("mcp__y__a")], servers: { x: [tool("a")], y: [tool("a")] } }, "duplicate_tool",
    /^servers\.y\[0\]: duplicate tool name "mcp__y__a", also at tools\[0\].*qualify/],
  ["mixed formats", [{ name: "a", input_schema: {} }, { name: "b", inputSchema: {} }], "mixed_formats", /^\[1\]: a tool in mcp format/],
  ["nesting deeper than 128", [{ name: "a", parameters: { default: nested(200) } }], "too_large", /deeper than 128/],
  ["more than 100,000 tools", Array.from({ length: 100_001 }, (_, i) => ({ name: `t${i}`, parameters: {} })), "too_large", /100001 tools, more than 100000/],
];

// Every function that takes a toolbox, as [name, call].
const TAKERS = [
  ["assemble", (box) => assemble(box, { contextLength: 200_000 })],
  ["search", (box) => search(box, "issue")],
  ["describe", (box) => describe(box, "a")],
  ["unwrap", (box) => unwrap(box, { name: "a", arguments: {} })],
  ["new Shelf", (box) => new Shelf(box)],
];

test("a bad toolbox throws the same ToolshelfError from every function", () => {
  for (const [what, toolbox, code, message] of TOOLBOX_ERRORS) {
    // The 100,001-tool toolbox takes a second per call: one function is enough for it.
    const takers = toolbox?.length > 100_000 ? TAKERS.slice(0, 1) : TAKERS;
    for (const [name, take] of takers) assert.throws(() => take(toolbox), toolshelfError(ToolshelfError, code, message), `${what} → ${name}`);
  }
});

test("qualify: false makes a name two servers share a duplicate_tool from every function; auto qualifies it", () => {
  const toolbox = { servers: { x: [tool("a")], y: [tool("a")] } };
  const off = { qualify: false };
  const takers = [
    () => assemble(toolbox, off), () => search(toolbox, "a", off), () => describe(toolbox, "a", off),
    () => unwrap(toolbox, { name: "a", arguments: {} }, off), () => new Shelf(toolbox, off),
  ];
  for (const take of takers) assert.throws(take, toolshelfError(ToolshelfError, "duplicate_tool", /^servers\.y\[0\].*also at servers\.x\[0\]/));
  const auto = assemble(toolbox, { qualify: "auto" });
  assert.match(auto.warnings.join("\n"), /^qualify: 2 deferred tools share their name with another tool \("a"\)/);
  assert.equal(describe(toolbox, "mcp__y__a", { qualify: "auto" })?.server, "y");
  // The default shows every server tool qualified: no clash to warn about.
  assert.deepEqual(assemble(toolbox).warnings, []);
  assert.equal(describe(toolbox, "mcp__y__a")?.server, "y");
});

test("50,000 tools are accepted (SPEC §8's floor)", () => {
  const toolbox = Array.from({ length: 50_000 }, (_, i) => ({ name: `mcp__s__t${i}`, parameters: {} }));
  assert.equal(assemble(toolbox).deferredCount, 50_000);
});

// [what, call, message]: calls unwrap cannot read at all (a model's mistakes are rejects, not these).
const CALL_ERRORS = [
  ["null", null, /^call: expected a tool call object, got null/],
  ["undefined", undefined, /^call: expected a tool call object, got undefined/],
  ["a string", "tool_call", /got a string/],
  ["a number", 7, /got a number/],
  ["a list", [{ name: "a" }], /got an array/],
  ["a BigInt argument", { name: "a", arguments: { n: 1n } }, /^call: cannot be written as JSON/],
  ["a cycle", cyclic(), /^call: cannot be written as JSON/],
];

test("an unreadable call throws invalid_call from unwrap and Shelf.unwrap", () => {
  const toolbox = { tools: [tool("a")], servers: { s: [tool("b")] } };
  const shelf = new Shelf(toolbox);
  for (const [what, call, message] of CALL_ERRORS) {
    assert.throws(() => unwrap(toolbox, call), toolshelfError(ToolshelfError, "invalid_call", message), what);
    assert.throws(() => shelf.unwrap(call), toolshelfError(ToolshelfError, "invalid_call", message), `${what} (Shelf)`);
  }
  // The shelf is still usable after its errors.
  assert.equal(shelf.unwrap({ name: "a", arguments: {} }).kind, "call");
});

test("an error keeps the JS Error's shape: name, message, stack, instanceof", () => {
  try {
    assemble(42);
    assert.fail("no throw");
  } catch (e) {
    assert.ok(e instanceof ToolshelfError && e instanceof Error);
    assert.equal(e.name, "ToolshelfError");
    assert.equal(Object.prototype.toString.call(e), "[object Error]");
    assert.match(String(e), /^ToolshelfError: toolbox: /);
    assert.equal(typeof e.stack, "string");
  }
});

test("options, queries and names never throw: odd ones are repaired with a warning or read as text", () => {
  const toolbox = { tools: [tool("a")], servers: { s: [tool("b")] } };
  // [what, options, warnings expected]
  const options = [["a BigInt", { n: 1n }, 1], ["a cycle", cyclic(), 1], ["a string", "x", 1], ["a number", 42, 1],
    ["null", null, 0], ["undefined", undefined, 0], ["a negative context", { contextLength: -5 }, 1]];
  for (const [what, value, warnings] of options) assert.equal(assemble(toolbox, value).warnings.length, warnings, what);
  for (const query of [42, null, undefined, { toString: () => "b" }, "x".repeat(5000)]) {
    assert.equal(typeof search(toolbox, query).totalAvailable, "number", String(query).slice(0, 20));
  }
  for (const name of [42, null, undefined, {}]) assert.equal(describe(toolbox, name), null);
});

test("a misspelled option name is a warning that names the option meant, in the spelling used", () => {
  const toolbox = { tools: [tool("a")], servers: { s: [tool("b")] } };
  assert.deepEqual(assemble(toolbox, { contextLenght: 200_000 }).warnings, ['unknown option "contextLenght" ignored (did you mean "contextLength"?)']);
  assert.deepEqual(assemble(toolbox, { always_laod: ["s"] }).warnings, ['unknown option "always_laod" ignored (did you mean "always_load"?)']);
  assert.deepEqual(assemble(toolbox, { temperature: 0 }).warnings, ['unknown option "temperature" ignored']);
});
