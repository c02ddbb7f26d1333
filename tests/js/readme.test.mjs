// The contract's §0 (docs/SPEC.md) runs: its ```ts block is transpiled with TypeScript, given
// stand-ins for what the contract leaves undefined (the tool lists, an OpenAI client whose model
// answers with scripted tool calls, the agent's runTool), and imported as a module. The stand-ins
// record what the example did, and the test checks that record. The READMEs, whose examples
// define what they use, run as written in docs.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { assemble, ToolshelfError } from "toolshelf";
import { catalog, repoDir, toolshelfError } from "./support.mjs";

const ts = createRequire(join(repoDir, "package.json"))("typescript");

/**
 * The ```ts blocks of a Markdown text that import the package. Blocks that import an adapter
 * (toolshelf/ai, toolshelf/mcp) need real clients and servers: e2e.test.mjs runs those loops and
 * types.test.mjs type-checks the blocks as written.
 */
function examples(markdown) {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1])
    .filter((code) => code.includes('from "toolshelf"') && !code.includes('from "toolshelf/'))
    .filter((code) => !code.includes('mode: "native"')); // native.test.mjs runs those against the model server
}

/** Tool lists from the real catalogs, by server. */
const servers = (name) => catalog(name).map((e) => e.tool);

// What the examples leave undefined. The scripted model calls GitHub's create_issue by the name the
// package shows for it (describe's answer for the tool's own name, which one tool has).
const PRELUDE = `
import { catalog as __catalog } from "./support.mjs";
import { describe as __describe } from "toolshelf";
const __tools = (name) => __catalog(name).map((e) => e.tool);
const __tool = (name) => ({ type: "function", function: { name, description: name + " tool", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } } });
const coreTools = [__tool("read_file"), __tool("write_file")];
const githubTools = __tools("github-mcp-server");
const linearTools = __tools("linear-mcp-official");
const __createIssue = __describe({ servers: { github: githubTools, linear: linearTools } }, "create_issue").name;
const model = "stand-in";
const messages = [{ role: "user", content: "Open an issue for the crash." }];
const __call = (id, name, args) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });
const __toolCalls = [
  __call("c1", "tool_search", { query: "github create issue" }),
  __call("c2", "tool_describe", { name: __createIssue }),
  __call("c3", "tool_call", { name: __createIssue, arguments: { owner: "o", repo: "r", title: "Crash" } }),
  __call("c4", "read_file", { path: "README.md" }),
  __call("c5", "tool_call", { name: __createIssue, arguments: { owner: "o", repo: "r" } }),
];
const record = globalThis.__example = { coreTools, messages, requests: [], runs: [], createIssue: __createIssue };
const openai = { chat: { completions: { create: async (request) => {
  record.requests.push(request);
  return { choices: [{ message: { role: "assistant", tool_calls: __toolCalls } }] };
} } } };
const runTool = async (server, tool, args) => { record.runs.push({ server, tool, args }); return "ok"; };
`;

let fileNumber = 0;
/** Transpiles one example, writes it beside the tests (so "toolshelf" resolves), runs it, returns its record. */
async function run(code) {
  const prelude = PRELUDE;
  const js = ts.transpileModule(prelude + code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const file = join(process.cwd(), `example-${process.pid}-${fileNumber++}.mjs`);
  writeFileSync(file, js);
  await import(pathToFileURL(file).href);
  return globalThis.__example;
}

/** What every example shows: the model got the core tools (the very objects) and the bridge. */
function checkRequest(record) {
  assert.equal(record.requests.length, 1);
  const tools = record.requests[0].tools;
  assert.equal(tools[0], record.coreTools[0], "core tools pass through as the same objects");
  assert.equal(tools[1], record.coreTools[1]);
  assert.deepEqual(tools.slice(2).map((t) => t.function.name), ["tool_search", "tool_describe", "tool_call"]);
  // GitHub's heading: the prefix of its tools' shown names.
  const prefix = record.createIssue.slice(0, -"create_issue".length);
  assert.ok(tools[2].function.description.includes(`\n${prefix}* (117 tools):\n`), prefix);
  assert.match(tools[2].function.description, /\n- create_issue: /);
}

test("the contract's §0 agent loop runs: real calls reach runTool, bridge calls are answered", async () => {
  const blocks = examples(readFileSync(join(repoDir, "docs", "SPEC.md"), "utf8"));
  assert.equal(blocks.length, 1, "SPEC §0 is the one runnable example of the contract");
  const record = await run(blocks[0]);
  checkRequest(record);
  assert.deepEqual(record.runs, [
    { server: "github", tool: "create_issue", args: { owner: "o", repo: "r", title: "Crash" } },
    { server: undefined, tool: "read_file", args: { path: "README.md" } },
  ]);
  const replies = Object.fromEntries(record.messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, m.content]));
  assert.deepEqual(Object.keys(replies), ["c1", "c2", "c3", "c4", "c5"]);
  const shown = record.createIssue;
  assert.equal(shown, "mcp__github__create_issue", "SPEC §16: mcp__<server>__<tool> for plain names");
  assert.ok(JSON.parse(replies.c1).matches.some((m) => m.name === shown && m.server === "github"), replies.c1);
  assert.equal(JSON.parse(replies.c2).name, shown);
  assert.equal(replies.c3, "ok");
  assert.match(replies.c5, new RegExp(`^${shown} was not invoked: .*title`));
});

test("the examples' toolbox with the real GitHub and Linear servers: qualify auto, true and false", () => {
  const toolbox = { servers: { github: servers("github-mcp-server"), linear: servers("linear-mcp-official") } };
  assert.throws(() => assemble(toolbox, { contextLength: 200_000, qualify: false }), toolshelfError(ToolshelfError, "duplicate_tool", /list_issues/));
  const auto = assemble(toolbox, { contextLength: 200_000, qualify: "auto" });
  assert.equal(auto.deferredCount, 117 + 38);
  assert.match(auto.warnings.join("\n"), /^qualify: 2 deferred tools share their name with another tool \("list_issues"\)/m);
  const listing = auto.tools[0].function.description;
  assert.match(listing, /mcp__github__list_issues/);
  assert.match(listing, /mcp__linear__list_issues/);
  assert.match(listing, /\n- create_issue:/, "a name no other tool has stays as it is");
  const qualified = assemble(toolbox, { contextLength: 200_000, qualify: true });
  assert.equal(qualified.deferredCount, 117 + 38);
  assert.match(qualified.tools[0].function.description, /\nmcp__linear__\* \(38 tools\):\n[\s\S]*\n- save_issue: /);
  assert.deepEqual(qualified.warnings, []);
  // The default is qualify true: every tool under its server's prefix, whatever clashes.
  assert.deepEqual(assemble(toolbox, { contextLength: 200_000 }), qualified);
});
