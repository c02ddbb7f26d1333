// The AI SDK adapter's agent loop on each supported `ai` major (scripts/matrix runs this file in a
// fresh project per major, tests/matrix/ai6 and ai7, with the packed package installed beside the
// SDK as a user's `npm install` would, and under each tested Node). The model is the SDK's own
// MockLanguageModelV3 (`ai/test`, in ai 6 and ai 7), scripted: it searches, calls the deferred tool
// the search showed it (by that name) with a missing argument, reads the reject, calls again, calls
// the other server's list_issues by its full name (mcp__linear__list_issues, as the listing heads
// linear's tools), a tool by its own name, a direct tool, and answers. Tools are zod schemas and
// JSON schemas.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { createToolshelf } from "toolshelf/ai";

const aiVersion = JSON.parse(readFileSync(new URL(import.meta.resolve("ai/package.json")), "utf8")).version;
const expectedMajor = process.env.TOOLSHELF_AI_MAJOR;

test(`ai ${aiVersion} on Node ${process.versions.node}: the project has the major it stands for`, () => {
  if (expectedMajor) assert.equal(aiVersion.split(".")[0], expectedMajor);
});

/** GitHub and Linear servers (both have list_issues) and a direct tool; each execute records its run. */
function toolbox(runs) {
  const ran = (server, name) => async (input) => { runs.push([server, name, input]); return `${server}/${name} ran`; };
  const object = (properties, required) => jsonSchema({ type: "object", properties, required });
  return {
    tools: {
      read_file: tool({ description: "Read a file of the workspace.", inputSchema: z.object({ path: z.string() }), execute: ran(undefined, "read_file") }),
    },
    servers: {
      github: {
        create_issue: tool({
          description: "Create a new issue in a GitHub repository.",
          inputSchema: object({ owner: { type: "string" }, repo: { type: "string" }, title: { type: "string" }, body: { type: "string" } }, ["owner", "repo", "title"]),
          execute: ran("github", "create_issue"),
        }),
        list_issues: tool({ description: "List issues in a GitHub repository.", inputSchema: object({ owner: { type: "string" }, repo: { type: "string" } }, ["owner", "repo"]), execute: ran("github", "list_issues") }),
        get_file_contents: tool({ description: "Get the contents of a file from a GitHub repository.", inputSchema: object({ path: { type: "string" } }, ["path"]), execute: ran("github", "get_file_contents") }),
      },
      linear: {
        list_issues: tool({ description: "List issues in the user's Linear workspace.", inputSchema: z.object({ limit: z.number().int().optional() }), execute: ran("linear", "list_issues") }),
        save_issue: tool({ description: "Create or update a Linear issue.", inputSchema: z.object({ title: z.string().min(3), team: z.string() }), execute: ran("linear", "save_issue") }),
      },
    },
  };
}

/** The name the search answer (the first tool result the model saw) gave GitHub's create_issue. */
const createIssue = (seen) => JSON.parse(seen[1].result).matches.find((m) => m.description.startsWith("Create a new issue in a GitHub")).name;

// Each step: [tool, input], or a function of what the model saw giving one.
const SCRIPT = [
  ["tool_search", { query: "create issue github" }],
  (seen) => ["tool_call", { name: createIssue(seen), arguments: { owner: "o", repo: "r" } }],
  (seen) => ["tool_call", { name: createIssue(seen), arguments: { owner: "o", repo: "r", title: "Crash" } }],
  ["tool_call", { name: "mcp__linear__list_issues", arguments: { limit: 5 } }],
  ["tool_call", { name: "save_issue", arguments: { title: "ab", team: "eng" } }],
  ["read_file", { path: "README.md" }],
];
const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };
const finish = (reason) => ({ unified: reason, raw: reason });

/** The last tool result the model was sent, as text. */
function lastToolResult(prompt) {
  const message = prompt.findLast((m) => m.role === "tool");
  if (!message) return undefined;
  const part = message.content.findLast((p) => p.type === "tool-result");
  const output = part.output;
  return typeof output.value === "string" ? output.value : JSON.stringify(output.value);
}

/** A scripted model: step i sends SCRIPT[i] (or the answer); records the tools and results it saw. */
function scriptedModel(seen) {
  const step = (options) => {
    seen.push({ tools: (options.tools ?? []).map((t) => t.name), result: lastToolResult(options.prompt) });
    const next = SCRIPT[seen.length - 1];
    return typeof next === "function" ? next(seen) : next;
  };
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const next = step(options);
      return next
        ? { content: [{ type: "tool-call", toolCallId: `c${seen.length}`, toolName: next[0], input: JSON.stringify(next[1]) }], finishReason: finish("tool-calls"), usage, warnings: [] }
        : { content: [{ type: "text", text: "Filed it." }], finishReason: finish("stop"), usage, warnings: [] };
    },
    doStream: async (options) => {
      const next = step(options);
      const parts = next
        ? [{ type: "tool-call", toolCallId: `c${seen.length}`, toolName: next[0], input: JSON.stringify(next[1]) }]
        : [{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Filed it." }, { type: "text-end", id: "t" }];
      const chunks = [{ type: "stream-start", warnings: [] }, ...parts, { type: "finish", finishReason: finish(next ? "tool-calls" : "stop"), usage }];
      return { stream: new ReadableStream({ start(c) { for (const chunk of chunks) c.enqueue(chunk); c.close(); } }) };
    },
  });
}

/** What every loop must show, whichever call drove it. */
function checkLoop(text, seen, runs, calls) {
  assert.equal(text, "Filed it.");
  assert.equal(seen.length, SCRIPT.length + 1);
  for (const s of seen) assert.deepEqual(s.tools, ["read_file", "tool_search", "tool_describe", "tool_call"], "the model sees the direct tool and the bridge");
  const created = createIssue(seen);
  assert.ok(JSON.parse(seen[1].result).matches.some((m) => m.name === created && m.server === "github"), seen[1].result);
  assert.ok(seen[2].result.startsWith(`${created} was not invoked: `), seen[2].result);
  assert.match(seen[2].result, /not invoked: .*title/, "the missing argument is rejected, nothing ran");
  assert.equal(seen[3].result, "github/create_issue ran");
  assert.equal(seen[4].result, "linear/list_issues ran");
  assert.doesNotMatch(seen[5].result, /ran$/, "zod's min(3) refused the title: save_issue did not run");
  assert.equal(seen[6].result, "undefined/read_file ran");
  assert.deepEqual(runs, [
    ["github", "create_issue", { owner: "o", repo: "r", title: "Crash" }],
    ["linear", "list_issues", { limit: 5 }],
    [undefined, "read_file", { path: "README.md" }],
  ], "each real tool ran once, with the corrected arguments");
  assert.deepEqual(calls, [["github", "create_issue", created], ["linear", "list_issues", "mcp__linear__list_issues"], [undefined, "read_file", "read_file"]],
    "onCall saw the real tools under the names the model called, never the bridge (save_issue failed its validation first)");
}

for (const [name, drive] of [
  ["generateText", async (options) => (await generateText(options)).text],
  ["streamText", async (options) => { const result = streamText(options); return await result.text; }],
]) {
  test(`ai ${aiVersion}, ${name}: search, a reject, the corrected call, a qualified call, zod validation, a direct tool`, async () => {
    const runs = [], seen = [], calls = [];
    const shelf = createToolshelf({ ...toolbox(runs), options: { contextLength: 200_000 }, onCall: (call) => { calls.push([call.server, call.tool, call.name]); } });
    // Each server's tools go by names of their own (mcp__<server>__<tool>): both list_issues, no clash to warn of.
    assert.deepEqual(shelf.assembly.warnings, []);
    assert.deepEqual(shelf.shelf.search("list issues").matches.filter((m) => m.name.endsWith("list_issues")).map((m) => [m.server, m.name]).sort(),
      [["github", "mcp__github__list_issues"], ["linear", "mcp__linear__list_issues"]]);
    const text = await drive({ model: scriptedModel(seen), prompt: "File the crash as a GitHub issue.", tools: shelf.tools, prepareStep: shelf.prepareStep, stopWhen: stepCountIs(20) });
    checkLoop(text, seen, runs, calls);
  });
}
