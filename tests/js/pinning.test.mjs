// Per-tool alwaysLoad and defer, and directWhenFits, as users of the adapters meet them: one MCP
// tool of a real MCP server (the SDK's Server over InMemoryTransport, catalog Linear) kept direct
// is sent under its name, unwraps to its server and own name, and callMcpTool runs it on that
// server; a tool whose MCP name no provider accepts is sent under a made name that routes back; in
// toolshelf/ai a pinned server tool is a tool of the ToolSet whose execute runs the server's tool
// (validated first, as through the bridge); directWhenFits sends a small toolbox as it is.
import { test } from "node:test";
import assert from "node:assert/strict";
import { jsonSchema, tool } from "ai";
import { Shelf } from "toolshelf";
import { callMcpTool, mcpServers } from "toolshelf/mcp";
import { createToolshelf } from "toolshelf/ai";
import { catalogServer, toolServer } from "./mcp-servers.mjs";
import { catalog } from "./support.mjs";

const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

test("toolshelf/mcp: alwaysLoad 'linear/save_issue' keeps that one tool direct, and callMcpTool runs it on Linear", async () => {
  const linear = catalogServer("linear-mcp-official", { serverName: "linear" });
  const github = catalogServer("github-mcp-server", { serverName: "github" });
  try {
    const { servers, clients } = await mcpServers({ linear: await linear.client(), github: await github.client() });
    for (const options of [{ alwaysLoad: ["linear/save_issue"] }, { alwaysLoad: "save_issue" }, { alwaysLoad: ["linear"], defer: ["linear/list_issues", "linear/get_issue"] }]) {
      const shelf = new Shelf({ servers }, { contextLength: 200_000, ...options });
      const { tools, warnings } = shelf.assemble();
      const direct = tools.filter((t) => !["tool_search", "tool_describe", "tool_call"].includes(t.name));
      const expected = Array.isArray(options.defer) ? servers.linear.length - options.defer.length : 1; // the server kept direct but its deferred ones, or the one tool
      assert.equal(direct.length, expected, JSON.stringify(options));
      assert.deepEqual(warnings.filter((w) => !w.startsWith("qualify: 2 deferred tools")), [], JSON.stringify(options));
      const call = shelf.unwrap({ name: "save_issue", arguments: { title: "Pinned", team: "ENG" } });
      assert.deepEqual([call.kind, call.server, call.tool, call.viaBridge], ["call", "linear", "save_issue", false]);
      const ran = await callMcpTool(clients, call);
      assert.equal(ran.isError, false);
      assert.match(ran.content, /^save_issue ran with \{"title":"Pinned","team":"ENG"\}/);
      const bad = shelf.unwrap({ name: "save_issue", arguments: { title: 7 } });
      assert.equal(bad.kind, "reject", "a pinned server tool's arguments are validated as a deferred one's");
    }
    assert.equal(linear.calls.length, 3);
    assert.equal(github.calls.length, 0);
  } finally {
    await Promise.all([linear.close(), github.close()]);
  }
});

test("toolshelf/mcp: a pinned tool whose MCP name holds dots and spaces goes by a provider-valid name that routes back", async () => {
  const server = toolServer("docs.site", [
    { name: "pages.read all", description: "Read every page.", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } },
    { name: "other", description: "Another tool.", inputSchema: { type: "object" } },
  ]);
  try {
    const { servers, clients } = await mcpServers({ "docs.site": await server.client() });
    for (const format of [undefined, "anthropic", "responses", "openai"]) {
      const { servers: inFormat } = format ? await mcpServers({ "docs.site": clients["docs.site"] }, { format }) : { servers };
      const shelf = new Shelf({ servers: inFormat }, { alwaysLoad: ["docs.site/pages.read all"], ...(format ? { format } : {}) });
      const sent = shelf.assemble().tools[0];
      const name = sent.name ?? sent.function?.name;
      assert.match(name, PROVIDER_NAME, String(format));
      const call = shelf.unwrap({ name, arguments: { q: "intro" } });
      assert.deepEqual([call.server, call.tool], ["docs.site", "pages.read all"], String(format));
      const ran = await callMcpTool(clients, call);
      assert.match(ran.content, /^pages\.read all ran with \{"q":"intro"\}/);
    }
  } finally {
    await server.die();
  }
});

test("toolshelf/ai: a pinned server tool is in the ToolSet under its name; its execute validates, then runs the server's tool", async () => {
  const runs = [];
  const linear = Object.fromEntries(catalog("linear-mcp-official").map(({ tool: def }) => {
    const f = def.function;
    return [f.name, tool({ description: f.description, inputSchema: jsonSchema(f.parameters), execute: async (input) => { runs.push([f.name, input]); return `${f.name} ran`; } })];
  }));
  const shelf = createToolshelf({ servers: { linear }, options: { contextLength: 200_000, alwaysLoad: ["linear/save_issue"] } });
  // Its name: the one the core gives Linear's save_issue (SPEC §16), as a call by its own name reads.
  const read = shelf.shelf.unwrap({ name: "save_issue", arguments: { title: "Pinned", team: "ENG" } });
  assert.deepEqual([read.kind, read.server, read.tool], ["call", "linear", "save_issue"]);
  const name = read.name;
  assert.match(name, PROVIDER_NAME);
  assert.deepEqual(Object.keys(shelf.tools), [name, "tool_search", "tool_describe", "tool_call"]);
  const options = { toolCallId: "c1", messages: [] };
  assert.equal(await shelf.tools[name].execute({ title: "Pinned", team: "ENG" }, options), "save_issue ran");
  assert.deepEqual(runs, [["save_issue", { title: "Pinned", team: "ENG" }]]);
  const refused = await shelf.tools[name].execute({ title: 7 }, { toolCallId: "c2", messages: [] });
  assert.match(String(refused), /invalid arguments/);
  assert.equal(runs.length, 1, "a refused call runs nothing");
});

test("directWhenFits: a toolbox within the cap goes as it is (tier 0), a larger one through the bridge; a deferred tool's call is still validated", () => {
  const defs = (name) => catalog(name).map(({ tool: def }) => def);
  const small = { servers: { linear: defs("linear-mcp-official") } };
  const bridged = new Shelf(small, { contextLength: 200_000 }).assemble();
  const tokens = bridged.deferredTokens;
  const fits = new Shelf(small, { contextLength: 200_000, directWhenFits: tokens });
  const a = fits.assemble();
  assert.equal(a.tier, 0);
  // Every tool as the caller gave it, under the name the model is shown for it (SPEC §16).
  const shown = small.servers.linear.map((def) => ({ ...def, function: { ...def.function, name: fits.describe(def.function.name).name } }));
  assert.deepEqual(a.tools, shown, "every tool as the caller gave it");
  assert.ok(a.tools.every((t, i) => fits.describe(t.function.name)?.server === "linear" && t.function.name !== small.servers.linear[i].function.name));
  assert.equal(fits.unwrap({ name: "save_issue", arguments: { title: 7 } }).kind, "reject");
  assert.equal(new Shelf(small, { contextLength: 200_000, directWhenFits: tokens - 1 }).assemble().fingerprint, bridged.fingerprint);
  assert.equal(new Shelf(small, { contextLength: 200_000, directWhenFits: true }).assemble().tier, 0, "within the budget");
  const large = { servers: { linear: defs("linear-mcp-official"), github: defs("github-mcp-server") } };
  assert.notEqual(new Shelf(large, { contextLength: 200_000, directWhenFits: true }).assemble().tier, 0);
});
