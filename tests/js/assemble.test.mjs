// assemble through the installed package (Node entry): the shared cases, identity of the caller's
// objects, the Shelf class, errors with codes, and the same bytes as the native Rust build.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assemble, describe, Shelf, ToolshelfError, init } from "toolshelf";
import { assembleCases, grouped, nativeResults, tool } from "./support.mjs";

test("the shared assemble cases give the expected tiers, forms and levels", async () => {
  await init(); // a no-op in Node, kept so shared code can always call it
  for (const c of assembleCases()) {
    const a = assemble(grouped(c.catalogs), c.options);
    assert.equal(a.tier, c.expect.tier, c.name);
    assert.equal(a.form, c.expect.form, c.name);
    for (const [server, level] of Object.entries(c.expect.levels)) {
      assert.equal(a.servers.find((s) => s.name === server)?.level, level, `${c.name}: ${server}`);
    }
    assert.deepEqual(a.warnings, [], c.name);
  }
});

test("every runtime gives the same bytes: facts and fingerprint equal the native build's", () => {
  const native = nativeResults();
  const cases = assembleCases();
  assert.equal(native.length, cases.length);
  cases.forEach((c, i) => {
    const a = assemble(grouped(c.catalogs), c.options);
    const { name, tools, toolsJsonLength, ...facts } = native[i];
    assert.equal(name, c.name);
    assert.equal(a.tools.length, tools, c.name);
    assert.deepEqual({ ...a, tools: undefined }, { ...facts, tools: undefined }, c.name);
    assert.equal([...JSON.stringify(a.tools)].length, toolsJsonLength, c.name);
  });
});

test("direct tools come back as the very objects given", () => {
  const read = tool("read_file"), write = tool("write_file");
  const toolbox = grouped(["linear-mcp-official"], [read, write]);
  const a = assemble(toolbox, { contextLength: 200_000 });
  assert.equal(a.tools[0], read);
  assert.equal(a.tools[1], write);
  assert.deepEqual(a.tools.slice(2).map((t) => t.function.name), ["tool_search", "tool_describe", "tool_call"]);
  const off = assemble(toolbox, { enabled: "off" });
  assert.equal(off.tools.length, 2 + 38);
  assert.equal(off.tools[0], read);
  // A server's tool is shown under the name that identifies it (SPEC §16), the one describe gives;
  // the rest of its def is the caller's.
  const first = toolbox.servers.linear[0];
  const shown = describe(toolbox, first.function.name).name;
  assert.notEqual(shown, first.function.name);
  assert.deepEqual(off.tools[2], { ...first, function: { ...first.function, name: shown } });
  // With short names (qualify: "auto") and no clash, the server's tools too are the very objects.
  const short = assemble(toolbox, { enabled: "off", qualify: "auto" });
  assert.equal(short.tools[0], read);
  assert.equal(short.tools[2], first);
});

test("the fingerprint is stable under shuffling and changes with the toolbox", () => {
  const toolbox = grouped(["github-mcp-server", "linear-mcp-official"]);
  const options = { contextLength: 200_000, qualify: true };
  const a = assemble(toolbox, options);
  const shuffled = { servers: { linear: [...toolbox.servers.linear].reverse(), github: [...toolbox.servers.github].reverse() } };
  assert.equal(assemble(shuffled, options).fingerprint, a.fingerprint);
  assert.equal(JSON.stringify(assemble(shuffled, options).tools), JSON.stringify(a.tools));
  const fewer = { servers: { linear: toolbox.servers.linear.slice(1), github: toolbox.servers.github } };
  assert.notEqual(assemble(fewer, options).fingerprint, a.fingerprint);
});

test("a Shelf gives what the free function gives", () => {
  const toolbox = grouped(["linear-mcp-official", "cloudflare-api-2024-08"], [tool("bash")]);
  const options = { contextLength: 200_000 };
  const shelf = new Shelf(toolbox, options);
  const first = shelf.assemble();
  assert.deepEqual(first, assemble(toolbox, options));
  assert.equal(first.tools[0], toolbox.tools[0]);
  assert.notEqual(shelf.assemble(), first, "a fresh object each call");
  assert.deepEqual(shelf.assemble(), first);
  shelf.free();
});

test("programmer errors are ToolshelfErrors with a code and a path", () => {
  const cases = [
    [42, "invalid_toolbox", /toolbox: expected a list of tools/],
    [{ servers: { github: [tool("a"), { type: "function", function: {} }] } }, "invalid_tool", /servers\.github\[1\]/],
    [[tool("a"), tool("a")], "duplicate_tool", /\[1\]: duplicate tool name "a", also at \[0\]/],
    [[{ name: "a", input_schema: {} }, { name: "b", inputSchema: {} }], "mixed_formats", /\[1\]: a tool in mcp format/],
    [[1n], "invalid_toolbox", /cannot be written as JSON/],
  ];
  for (const [toolbox, code, message] of cases) {
    assert.throws(() => assemble(toolbox), (e) => e instanceof ToolshelfError && e instanceof Error && e.code === code && message.test(e.message));
    assert.throws(() => new Shelf(toolbox), (e) => e instanceof ToolshelfError && e.code === code);
  }
});

test("options never throw: repairs are warnings", () => {
  const a = assemble(grouped(["linear-mcp-official"]), { contextLength: "lots", thresholdPct: 500, colour: "red" });
  assert.equal(a.warnings.length, 3, a.warnings.join("\n"));
  assert.equal(a.budgetTokens, 10_000);
  assert.equal(assemble([tool("a")], "not an object").warnings.length, 1);
});
