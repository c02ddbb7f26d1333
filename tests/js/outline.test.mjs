// The stateless assemble reads an outline of the toolbox (pkg-template/outline.js): names,
// descriptions and the keys that tell the format, never the schemas. These tests check that it
// gives exactly what a Shelf (which reads everything) gives, on the real catalogs and on every kind
// of change, and where the outline must give way to the full reading.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assemble, search, Shelf, ToolshelfError } from "toolshelf";
import { assembleCases, deepFreeze, grouped, shelfAssembly, tool } from "./support.mjs";

const options = { contextLength: 200_000, qualify: true };

/** What a toolbox gives through a Shelf, which reads every tool def whole. */
const whole = (toolbox, opts = options) => shelfAssembly(Shelf, toolbox, opts);

/** The error `fn` throws (its code and message), or null. */
function thrown(fn) {
  try {
    fn();
    return null;
  } catch (e) {
    return { code: e.code, message: e.message, isToolshelfError: e instanceof ToolshelfError };
  }
}

test("every shared case: the same assembly as a Shelf, with new, the same, and frozen objects", () => {
  for (const c of assembleCases()) {
    const toolbox = structuredClone(grouped(c.catalogs));
    const expected = whole(toolbox, c.options);
    assert.deepEqual(assemble(toolbox, c.options), expected, `${c.name}: first call`);
    assert.deepEqual(assemble(toolbox, c.options), expected, `${c.name}: the same objects again`);
    assert.deepEqual(assemble(structuredClone(toolbox), c.options), expected, `${c.name}: new objects`);
    const frozen = deepFreeze(structuredClone(toolbox));
    assert.deepEqual(assemble(frozen, c.options), expected, `${c.name}: frozen`);
    assert.deepEqual(assemble(frozen, c.options), expected, `${c.name}: frozen, again`);
  }
});

test("no schema is written: assemble's JSON holds names and descriptions only", () => {
  const marker = "MARKER-deep-in-a-schema";
  const toolbox = structuredClone(grouped(["linear-mcp-official", "github-mcp-server"]));
  for (const list of Object.values(toolbox.servers)) {
    for (const def of list) def.function.parameters.description = marker;
  }
  const stringify = JSON.stringify;
  const texts = [];
  JSON.stringify = function (...args) {
    const text = stringify.apply(this, args);
    texts.push(String(text));
    return text;
  };
  let a;
  try {
    a = assemble(toolbox, options);
  } finally {
    JSON.stringify = stringify;
  }
  assert.ok(texts.length > 0);
  assert.ok(texts.every((text) => !text.includes(marker)), "a schema was written");
  assert.ok(a.deferredTokens > 0);
  assert.deepEqual(a, whole(toolbox));
});

test("deferredTokens is computed when first read, then stays a plain property", () => {
  const toolbox = structuredClone(grouped(["linear-mcp-official"]));
  const a = assemble(toolbox, { contextLength: 200_000 });
  const before = Object.getOwnPropertyDescriptor(a, "deferredTokens");
  assert.equal(typeof before.get, "function", "a getter until read");
  assert.ok(before.enumerable);
  const tokens = a.deferredTokens;
  assert.equal(tokens, whole(toolbox, { contextLength: 200_000 }).deferredTokens);
  const after = Object.getOwnPropertyDescriptor(a, "deferredTokens");
  assert.equal(after.value, tokens, "a data property once read");
  assert.deepEqual(Object.keys(a), Object.keys(whole(toolbox, { contextLength: 200_000 })), "keys in the same order");
  const b = assemble(toolbox, { contextLength: 200_000 });
  assert.equal(JSON.parse(JSON.stringify(b)).deferredTokens, tokens, "JSON.stringify reads it");
  assert.equal({ ...assemble(toolbox, { contextLength: 200_000 }) }.deferredTokens, tokens, "a spread reads it");
  const c = assemble(toolbox, { contextLength: 200_000 });
  c.deferredTokens = 7;
  assert.equal(c.deferredTokens, 7, "assignable like any property");
});

test("a change deep inside a direct tool changes the fingerprint; deep inside a deferred one, the tokens", () => {
  const direct = tool("read_file", "Reads a file.");
  const toolbox = { tools: [direct], servers: structuredClone(grouped(["linear-mcp-official"]).servers) };
  const first = assemble(toolbox, options);
  direct.function.parameters.properties.path.description = "Where the file is.";
  const changed = assemble(toolbox, options);
  assert.notEqual(changed.fingerprint, first.fingerprint);
  assert.deepEqual(changed, whole(toolbox));
  const deferred = toolbox.servers.linear[0];
  const tokens = changed.deferredTokens;
  deferred.function.parameters.properties.extra = { type: "string", description: "x".repeat(400) };
  const grown = assemble(toolbox, options);
  assert.equal(grown.fingerprint, changed.fingerprint, "the model sees no deferred schema");
  assert.ok(grown.deferredTokens > tokens + 100, `${grown.deferredTokens} > ${tokens} + 100`);
  assert.deepEqual(grown, whole(toolbox));
});

test("changes to the keys that tell the format are seen on the same objects", () => {
  const toolbox = structuredClone(grouped(["linear-mcp-official"]));
  const options = { contextLength: 200_000 };
  assemble(toolbox, options);
  const def = toolbox.servers.linear[3];
  const holder = def.function;
  delete def.type; // the same object turned into an Anthropic tool def: mixed formats
  delete def.function;
  Object.assign(def, { name: holder.name, input_schema: { type: "object" } });
  const mixed = thrown(() => assemble(toolbox, options));
  assert.equal(mixed?.code, "mixed_formats");
  assert.deepEqual(mixed, thrown(() => new Shelf(toolbox, options)));
  for (const key of Object.keys(def)) delete def[key];
  Object.assign(def, { type: "function", function: holder });
  assert.deepEqual(assemble(toolbox, options), whole(toolbox, options));
  const name = def.function.name;
  def.function.name = "";
  const nameless = thrown(() => assemble(toolbox, options));
  assert.equal(nameless?.code, "invalid_tool");
  assert.deepEqual(nameless, thrown(() => new Shelf(toolbox, options)));
  def.function.name = name;
  def.function = { ...def.function, name: "renamed_tool" }; // a new holder object
  assert.ok(assemble(toolbox, options).tools[0].function.description.includes("renamed_tool"));
  assert.deepEqual(assemble(toolbox, options), whole(toolbox, options));
});

test("tier 0 shows every tool as given, renamed under qualify: the full reading", () => {
  const toolbox = structuredClone(grouped(["linear-mcp-official", "stripe-api-2022-04"]));
  for (const opts of [{ enabled: "off", qualify: true }, { enabled: "off" }]) {
    const a = assemble(toolbox, opts);
    assert.equal(a.tier, 0);
    assert.deepEqual(a, whole(toolbox, opts));
    assert.deepEqual(assemble(toolbox, opts), a, "again");
  }
  const direct = [tool("read_file"), tool("write_file")];
  assert.deepEqual(assemble(direct, options), whole(direct));
  assert.equal(assemble(direct, options).tools[1], direct[1]);
});

test("tool defs that are not plain data are read whole", () => {
  class Def {
    constructor(name) {
      this.type = "function";
      this.function = { name, description: "A class instance.", parameters: { type: "object" } };
    }
  }
  const instances = { servers: { s: [new Def("a"), new Def("b")] } };
  assert.deepEqual(assemble(instances, options), whole(instances));
  const withToJson = structuredClone(grouped(["linear-mcp-official"]));
  withToJson.servers.linear[0].function.parameters = { toJSON: () => ({ type: "object", description: "y".repeat(99) }) };
  assert.deepEqual(assemble(withToJson, options), whole(withToJson));
  const wrapped = structuredClone(grouped(["linear-mcp-official"]));
  wrapped.servers.linear[1] = { type: "function", function: new (class { name = "x"; })() };
  assert.deepEqual(assemble(wrapped, options), whole(wrapped));
});

test("a schema that cannot be written fails where it is read, not in assemble", () => {
  const toolbox = structuredClone(grouped(["linear-mcp-official"]));
  const schema = toolbox.servers.linear[0].function.parameters;
  schema.self = schema; // a cycle
  const a = assemble(toolbox, options);
  assert.equal(a.tier, 1);
  const tokens = thrown(() => a.deferredTokens);
  assert.equal(tokens?.code, "invalid_toolbox");
  assert.ok(tokens.isToolshelfError);
  assert.match(tokens.message, /cannot be written as JSON/);
  assert.equal(thrown(() => new Shelf(toolbox, options))?.code, "invalid_toolbox");
  assert.equal(thrown(() => search(toolbox, "issue", options))?.code, "invalid_toolbox");
});

test("a bad toolbox gives the Shelf's error, first time and every time", () => {
  const cases = [
    { servers: { s: [tool("a"), 5] } },
    { servers: { s: [tool("a"), tool("a")] } },
    { servers: { s: "not a list" } },
    { tools: [tool("a")], servers: { s: [tool("a")] }, extra: 1 },
    [tool("a"), { name: "b", input_schema: {} }],
    { servers: { s: [null] } },
  ];
  for (const toolbox of cases) {
    const expected = thrown(() => new Shelf(toolbox, options));
    assert.ok(expected, JSON.stringify(toolbox));
    assert.deepEqual(thrown(() => assemble(toolbox, options)), expected, JSON.stringify(toolbox));
    assert.deepEqual(thrown(() => assemble(toolbox, options)), expected, `${JSON.stringify(toolbox)} again`);
  }
});
