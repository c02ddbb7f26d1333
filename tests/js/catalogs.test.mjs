// search, describe and unwrap from JS over the real catalogs of tests/data, through the installed
// package: the same ranking and scores as the native build, each deferred tool described whole,
// bridge calls in every provider's shape turned back into the real tool, arguments checked against
// the real schemas, and the caller's objects handed back by reference where they are untouched.
import { test } from "node:test";
import assert from "node:assert/strict";
import { describe, search, Shelf, unwrap } from "toolshelf";
import { catalog, grouped, nativeSearches, tool } from "./support.mjs";

const shelves = new Map();
/** One Shelf per catalog and options, built once (the stateless functions are checked against it). */
function shelfFor(toolbox, options, key) {
  if (!shelves.has(key)) shelves.set(key, new Shelf(toolbox, options));
  return shelves.get(key);
}

const toolboxes = new Map();
function toolboxOf(name) {
  if (!toolboxes.has(name)) toolboxes.set(name, grouped([name]));
  return toolboxes.get(name);
}

test("search ranks and scores as the native build does, for every labelled query", () => {
  const native = nativeSearches();
  assert.ok(native.length >= 200, "the whole keyword query set");
  native.forEach(({ catalog: name, options, query, limit, result }, i) => {
    const toolbox = toolboxOf(name);
    const shelf = shelfFor(toolbox, options, `${name} ${JSON.stringify(options)}`);
    assert.deepEqual(shelf.search(query, { limit }), result, `${name}: ${query}`);
    // The stateless form rebuilds the index each call: compare it on a sample to keep the run short.
    if (i % 8 === 0) assert.deepEqual(search(toolbox, query, { ...options, limit }), result, `${name}: ${query} (stateless)`);
  });
});

test("search over the 3,397 REST tools: bounded, scoped and the same from Shelf and the free function", () => {
  const toolbox = grouped(["rest-apis-flat-3400"]);
  const shelf = shelfFor(toolbox, null, "rest-apis-flat-3400");
  for (const [query, limit, server] of [["stripe create customer", 5, "stripe"], ["twilio send sms message", 3, "twilio"], ["cloudflare dns record", 20, "cloudflare"]]) {
    const result = shelf.search(query, { limit });
    assert.equal(result.totalAvailable, 3397);
    assert.ok(result.matches.length > 0 && result.matches.length <= limit, `${query}: ${result.matches.length} matches`);
    assert.equal(result.matches[0].server, server, query);
    assert.deepEqual(search(toolbox, query, { limit }), result, query);
  }
});

const QUALIFIED = { contextLength: 200_000, qualify: true };
const githubAndLinear = () => grouped(["github-mcp-server", "linear-mcp-official"], [tool("read_file")]);

/** Every deferred tool of a grouped toolbox with its server and its name under `qualify`. */
function* qualifiedTools(toolbox) {
  for (const [server, tools] of Object.entries(toolbox.servers)) {
    for (const def of tools) yield { server, def, name: `mcp__${server}__${def.function.name}` };
  }
}

test("describe gives every deferred tool whole, and the bridge answers the same", () => {
  const toolbox = githubAndLinear();
  const shelf = shelfFor(toolbox, QUALIFIED, "github+linear qualified");
  let described = 0;
  for (const { server, def, name } of qualifiedTools(toolbox)) {
    const d = shelf.describe(name);
    assert.deepEqual(d, { name, server, description: def.function.description, parameters: def.function.parameters }, name);
    const answer = shelf.unwrap({ name: "tool_describe", arguments: { name } });
    assert.equal(answer.kind, "answer", name);
    assert.deepEqual(JSON.parse(answer.content), d, `${name}: the model reads what describe returns`);
    described++;
  }
  assert.equal(described, 117 + 38);
  const saveIssue = describe(toolbox, "mcp__linear__save_issue", QUALIFIED);
  assert.equal(saveIssue?.server, "linear");
  assert.deepEqual(saveIssue, shelf.describe("mcp__linear__save_issue"), "the stateless form agrees");
  // A qualified tool's own name finds it when no other tool has it (SPEC §2.2); list_issues is both servers'.
  assert.deepEqual(shelf.describe("create_issue"), shelf.describe("mcp__github__create_issue"));
  for (const name of ["read_file", "list_issues", "mcp__github__nope", ""]) assert.equal(shelf.describe(name), null, name);
});

// One bridge call in each provider's shape: [shape, make(name, args, id), id carried back].
const SHAPES = [
  ["{name, arguments} object", (name, args) => ({ name, arguments: args }), undefined],
  ["{name, arguments} JSON text", (name, args, id) => ({ id, name, arguments: JSON.stringify(args) }), "p1"],
  ["OpenAI Chat tool_calls[i]", (name, args, id) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } }), "call_1"],
  ["OpenAI Responses function_call", (name, args, id) => ({ type: "function_call", call_id: id, name, arguments: JSON.stringify(args) }), "fc_1"],
  ["Anthropic tool_use", (name, args, id) => ({ type: "tool_use", id, name, input: args }), "toolu_1"],
  ["Gemini functionCall", (name, args) => ({ name, args }), undefined],
];

test("tool_call in every provider's shape unwraps to the real tool with checked arguments", () => {
  const toolbox = githubAndLinear();
  const shelf = shelfFor(toolbox, QUALIFIED, "github+linear qualified");
  const args = { owner: "o", repo: "r", title: "Crash", body: "Steps…" };
  for (const [shape, make, id] of SHAPES) {
    const call = make("tool_call", { name: "mcp__github__create_issue", arguments: args }, id);
    const expected = { kind: "call", name: "mcp__github__create_issue", server: "github", tool: "create_issue", arguments: args, viaBridge: true };
    if (id) expected.id = id;
    assert.deepEqual(shelf.unwrap(call), expected, shape);
    assert.deepEqual(unwrap(toolbox, call, QUALIFIED), expected, `${shape} (stateless)`);
  }
});

test("arguments are checked against each real schema: missing required parameters are rejected", () => {
  const toolbox = githubAndLinear();
  const shelf = shelfFor(toolbox, QUALIFIED, "github+linear qualified");
  let rejected = 0;
  for (const { server, def, name } of qualifiedTools(toolbox)) {
    const required = def.function.parameters?.required ?? [];
    const u = shelf.unwrap({ name: "tool_call", arguments: { name, arguments: {} } });
    if (required.length === 0) {
      assert.deepEqual([u.kind, u.server, u.tool], ["call", server, def.function.name], name);
    } else {
      assert.equal(u.kind, "reject", name);
      assert.match(u.content, new RegExp(`^${name} was not invoked: .*${required[0]}`), name);
      rejected++;
    }
  }
  assert.ok(rejected > 100, `${rejected} tools have required parameters`);
});

test("model mistakes are rejects with a way out, never throws", () => {
  const shelf = shelfFor(githubAndLinear(), QUALIFIED, "github+linear qualified");
  // [call, what the reject must say]
  const cases = [
    [{ name: "tool_call", arguments: { name: "read_file", arguments: { path: "a" } } }, /read_file/],
    [{ name: "tool_call", arguments: { name: "mcp__github__create_isue", arguments: {} } }, /mcp__github__create_issue/],
    [{ name: "tool_call", arguments: { name: "tool_search", arguments: {} } }, /tool_search/],
    [{ name: "tool_call", arguments: "{not json" }, /JSON/],
    [{ name: "tool_call", arguments: { name: "mcp__github__create_issue", arguments: { owner: "o", repo: "r", title: 5 } } }, /arguments\.title/],
    [{ name: "nope" }, /nope/],
    [{ arguments: {} }, /no tool name/],
  ];
  for (const [call, says] of cases) {
    const u = shelf.unwrap(call);
    assert.equal(u.kind, "reject", JSON.stringify(call));
    assert.match(u.content, says, JSON.stringify(call));
  }
});

test("a direct tool's untouched arguments come back as the very object the model sent", () => {
  const read = tool("read_file");
  const toolbox = { tools: [read], servers: { linear: catalog("linear-mcp-official").map((e) => e.tool) } };
  const shelf = new Shelf(toolbox, { contextLength: 200_000 });
  // [shape, the call, where its arguments object is]
  const cases = [
    ["{name, arguments}", { name: "read_file", arguments: { path: "a", extra: [1, { deep: true }] } }, (c) => c.arguments],
    ["Anthropic tool_use", { type: "tool_use", id: "t", name: "read_file", input: { path: "a" } }, (c) => c.input],
    ["Gemini functionCall", { name: "read_file", args: { path: "a" } }, (c) => c.args],
  ];
  for (const [shape, call, sent] of cases) {
    for (const u of [shelf.unwrap(call), unwrap(toolbox, call)]) {
      assert.equal(u.kind, "call", shape);
      assert.equal(u.viaBridge, false, shape);
      assert.equal(u.arguments, sent(call), `${shape}: the same object`);
      assert.equal("untouched" in u, false, `${shape}: no internal marker leaks`);
    }
  }
  // Arguments sent as JSON text are parsed (a new object, of course).
  const text = shelf.unwrap({ id: "c", type: "function", function: { name: "read_file", arguments: '{"path":"a"}' } });
  assert.deepEqual(text, { kind: "call", name: "read_file", arguments: { path: "a" }, id: "c", viaBridge: false });
  shelf.free();
});
