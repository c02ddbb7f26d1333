// toolshelf/ai over the real GitHub and Linear catalogs as AI SDK ToolSets (both have list_issues):
// the tools object generateText/streamText get, routing of tool_call to the right server's execute
// under the tool's own name, rejects that run nothing, onCall declining, update, and the toolSearch
// callback. The same adapter drives real clients and MCP servers in e2e.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { jsonSchema, tool } from "ai";
import { createToolshelf, toolshelfSearch } from "toolshelf/ai";
import { catalog } from "./support.mjs";

/** A catalog as a ToolSet whose execute records `[server, name, input]` in `runs`. */
function toolSet(name, server, runs) {
  return Object.fromEntries(catalog(name).map(({ tool: def }) => {
    const f = def.function;
    return [f.name, tool({ description: f.description, inputSchema: jsonSchema(f.parameters), execute: async (input) => { runs.push([server, f.name, input]); return `${server}/${f.name} ran`; } })];
  }));
}

const execution = (toolCallId) => ({ toolCallId, messages: [] });

test("GitHub + Linear ToolSets: direct tools as given, the bridge, list_issues qualified, calls routed by server", async () => {
  const runs = [];
  const readFile = tool({ description: "Read a file.", inputSchema: jsonSchema({ type: "object", properties: { path: { type: "string" } } }), execute: async () => "file" });
  const seen = [];
  const shelf = createToolshelf({
    tools: { read_file: readFile },
    servers: { github: toolSet("github-mcp-server", "github", runs), linear: toolSet("linear-mcp-official", "linear", runs) },
    options: { contextLength: 200_000 },
    onCall: (call) => { seen.push(call); return call.tool === "delete_file" ? "declined by policy" : undefined; },
  });
  assert.deepEqual(Object.keys(shelf.tools), ["read_file", "tool_search", "tool_describe", "tool_call"]);
  // With onCall, a direct tool is the caller's tool with an execute that asks onCall first;
  // without it, the caller's very object (the next test).
  const { execute: wrapped, ...rest } = shelf.tools.read_file;
  assert.deepEqual(rest, { description: readFile.description, inputSchema: readFile.inputSchema });
  assert.notEqual(wrapped, readFile.execute);
  assert.equal(createToolshelf({ tools: { read_file: readFile } }).tools.read_file, readFile, "without onCall, the direct tool is the caller's object");
  // Every server's tool goes by its shown name (SPEC §16): a name two servers share is no clash to warn about.
  assert.doesNotMatch(shelf.assembly.warnings.join("\n"), /share their name/);
  assert.equal(shelf.assembly.deferredCount, 117 + 38);

  const callTool = shelf.tools.tool_call;
  assert.equal(await callTool.execute({ name: "mcp__linear__list_issues", arguments: { limit: 5 } }, execution("c1")), "linear/list_issues ran");
  assert.equal(await callTool.execute({ name: "mcp__github__list_issues", arguments: { owner: "o", repo: "r" } }, execution("c2")), "github/list_issues ran");
  assert.equal(await callTool.execute({ name: "create_issue", arguments: { owner: "o", repo: "r", title: "t" } }, execution("c3")), "github/create_issue ran");
  const rejected = await callTool.execute({ name: "create_issue", arguments: { owner: "o" } }, execution("c4"));
  assert.match(rejected, /create_issue was not invoked/);
  const ambiguous = await callTool.execute({ name: "list_issues", arguments: {} }, execution("c5"));
  assert.match(ambiguous, /mcp__github__list_issues/);
  assert.equal(await callTool.execute({ name: "delete_file", arguments: { owner: "o", repo: "r", path: "p", message: "m", branch: "b" } }, execution("c6")), "declined by policy");
  assert.deepEqual(runs, [
    ["linear", "list_issues", { limit: 5 }],
    ["github", "list_issues", { owner: "o", repo: "r" }],
    ["github", "create_issue", { owner: "o", repo: "r", title: "t" }],
  ], "each real tool ran once; the reject, the ambiguous name and the declined call ran nothing");
  assert.deepEqual(seen.map((c) => [c.server, c.tool, c.name]), [
    ["linear", "list_issues", "mcp__linear__list_issues"],
    ["github", "list_issues", "mcp__github__list_issues"],
    ["github", "create_issue", shelf.shelf.describe("create_issue").name],
    ["github", "delete_file", shelf.shelf.describe("delete_file").name],
  ], "onCall sees the real tools, never the bridge");

  const found = JSON.parse(await shelf.tools.tool_search.execute({ query: "linear list issues" }, execution("c7")));
  assert.ok(found.matches.some((m) => m.name === "mcp__linear__list_issues"), JSON.stringify(found));
  const described = JSON.parse(await shelf.tools.tool_describe.execute({ name: "save_issue" }, execution("c8")));
  assert.equal(described.server, "linear");

  // update: Linear detached; the same tools object now lists GitHub only, and Linear's tools are gone.
  const before = shelf.tools;
  shelf.update({ github: toolSet("github-mcp-server", "github", runs) });
  assert.equal(shelf.tools, before);
  assert.equal(shelf.assembly.deferredCount, 117);
  assert.deepEqual(shelf.assembly.warnings, [], "no clash left: list_issues is GitHub's own name again");
  assert.match(await shelf.tools.tool_call.execute({ name: "save_issue", arguments: {} }, execution("c9")), /no tool named "save_issue"/);
});

test("servers as a function: prepareStep re-assembles only when a server or its tool names changed", () => {
  const runs = [];
  const github = toolSet("github-mcp-server", "github", runs);
  let servers = { github };
  const shelf = createToolshelf({ servers: () => servers });
  const first = shelf.shelf;
  shelf.prepareStep();
  assert.equal(shelf.shelf, first, "same servers: nothing re-prepared");
  servers = { github, linear: toolSet("linear-mcp-official", "linear", runs) };
  const firstAssembly = shelf.assembly;
  shelf.prepareStep();
  assert.equal(shelf.shelf, first, "the Shelf is updated in place (a kept .shelf stays usable)");
  assert.notEqual(shelf.assembly, firstAssembly, "re-assembled");
  assert.equal(shelf.assembly.deferredCount, 117 + 38);
  assert.match(shelf.tools.tool_search.description, /\n\S*linear\S* \(38 tools\):/, "the listing's heading of linear");
});

test("servers as an async function: the adapter starts empty, the first step awaits it, update() too; a server read anew only when it changed", async () => {
  const runs = [];
  const github = toolSet("github-mcp-server", "github", runs);
  const linear = toolSet("linear-mcp-official", "linear", runs);
  let reads = 0;
  let servers = { github };
  const shelf = createToolshelf({ servers: async () => { reads++; return servers; } });
  assert.equal(shelf.assembly.deferredCount, 0, "nothing read yet");
  const step = shelf.prepareStep();
  assert.equal(typeof step?.then, "function", "a promise: the SDK awaits it");
  assert.equal(await step, undefined);
  assert.equal(reads, 1, "the first step used the call made at creation");
  assert.equal(shelf.assembly.deferredCount, 117);
  const first = shelf.assembly;
  await shelf.prepareStep();
  assert.equal(shelf.assembly, first, "same servers: not re-assembled");
  servers = { github, linear };
  await shelf.prepareStep();
  assert.equal(shelf.assembly.deferredCount, 117 + 38);
  await shelf.update(async () => ({ linear }));
  assert.equal(shelf.assembly.deferredCount, 38, "update with an async function awaits it");
});

test("toolshelfSearch ranks the candidates the AI SDK passes and returns only their names", () => {
  const runs = [];
  const tools = toolSet("github-mcp-server", "github", runs);
  const candidates = Object.entries(tools).map(([name, t]) => ({ name, description: t.description }));
  const search = toolshelfSearch({ tools });
  const names = search({ query: "merge pull request", tools: candidates });
  assert.equal(names[0], "merge_pull_request");
  assert.ok(names.length <= 10 && names.every((n) => Object.hasOwn(tools, n)));
  const fewer = candidates.filter((c) => c.name !== "merge_pull_request");
  assert.ok(!search({ query: "merge pull request", tools: fewer }).includes("merge_pull_request"), "rebuilt for other candidates");
});
