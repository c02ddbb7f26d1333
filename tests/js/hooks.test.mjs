// The observing hooks of toolshelf/ai: onSearch(query, matches, unknownWords) after a
// search is answered and onReject(call, reason) when toolshelf rejects a model's call, in the
// bridge (through generateText with the AI SDK's MockLanguageModelV3) and in both native adapters
// (their tools' execute and repairToolCall, as the SDK calls them). A hook that throws is reported
// to onWarning and changes nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { openai } from "@ai-sdk/openai";
import { createAnthropicNativeToolshelf, createOpenAINativeToolshelf, createToolshelf } from "toolshelf/ai";

function servers(runs) {
  const t = (server, name, description, properties, required = []) => tool({
    description, inputSchema: jsonSchema({ type: "object", properties, required }),
    execute: async (input) => { runs.push([server, name, input]); return `${server}/${name} ran`; },
  });
  return {
    github: {
      list_issues: t("github", "list_issues", "List issues in a GitHub repository.", { owner: { type: "string" }, repo: { type: "string" } }, ["owner", "repo"]),
      create_issue: t("github", "create_issue", "Create a new issue in a GitHub repository.", { owner: { type: "string" }, repo: { type: "string" }, title: { type: "string" } }, ["owner", "repo", "title"]),
    },
    weather: { get_forecast: t("weather", "get_forecast", "Get the weather forecast for a city.", { city: { type: "string" } }, ["city"]) },
  };
}

/** A mock model that makes the given tool calls, one per step, then answers "done". */
function scripted(calls) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const call = calls[step++];
      const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
      if (!call) return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
      return { content: [{ type: "tool-call", toolCallId: `c${step}`, toolName: call[0], input: JSON.stringify(call[1]) }], finishReason: { unified: "tool-calls", raw: "tool_use" }, usage, warnings: [] };
    },
  });
}

test("bridge through generateText: onSearch hears each query with its matches and unknown words, onReject each reject; the loop is unchanged", async () => {
  const runs = [];
  const searches = [];
  const rejects = [];
  const shelf = createToolshelf({
    servers: servers(runs),
    options: { enabled: "on" },
    onSearch: (query, matches, unknownWords) => searches.push({ query, names: matches.map((m) => `${m.server}/${m.name}`), partial: matches.map((m) => m.partial), unknownWords }),
    onReject: (call, reason) => rejects.push({ call, reason }),
  });
  assert.deepEqual(Object.keys(shelf.tools), ["tool_search", "tool_describe", "tool_call"]);
  const result = await generateText({
    model: scripted([
      ["tool_search", { query: "github issues zorblax" }],
      ["tool_call", { name: "no_such_tool", arguments: {} }],
      ["tool_call", { name: "create_issue", arguments: { owner: "o" } }],
      ["tool_search", { queries: ["weather forecast", "create issue"] }],
      ["tool_call", { name: "list_issues", arguments: { owner: "o", repo: "r" } }],
    ]),
    tools: shelf.tools,
    prepareStep: shelf.prepareStep,
    stopWhen: stepCountIs(10),
    prompt: "go",
  });
  assert.equal(result.text, "done");
  assert.deepEqual(runs, [["github", "list_issues", { owner: "o", repo: "r" }]], "only the valid call ran");
  assert.equal(searches.length, 3, JSON.stringify(searches));
  assert.equal(searches[0].query, "github issues zorblax");
  assert.deepEqual(searches[0].unknownWords, ["zorblax"]);
  // A tool's shown name as the package gives it (describe by its own name, which one tool answers to).
  const shown = (server, tool) => `${server}/${shelf.shelf.describe(tool).name}`;
  assert.ok(searches[0].names.includes(shown("github", "list_issues")), JSON.stringify(searches[0]));
  assert.ok(searches[0].partial.every(Boolean), "an unknown word makes every match partial");
  assert.deepEqual(searches.slice(1).map((s) => [s.query, s.names[0], s.unknownWords]), [
    ["weather forecast", shown("weather", "get_forecast"), []],
    ["create issue", shown("github", "create_issue"), []],
  ], "a batched search: one onSearch per query");
  assert.deepEqual(rejects.map((r) => [r.call.name, r.call.arguments.name, r.call.id]), [["tool_call", "no_such_tool", "c2"], ["tool_call", "create_issue", "c3"]]);
  assert.match(rejects[0].reason, /no tool named "no_such_tool"/);
  assert.match(rejects[1].reason, /create_issue was not invoked/);
  const toolOutputs = result.steps.flatMap((s) => s.toolResults.map((r) => r.output));
  assert.equal(toolOutputs[1], rejects[0].reason, "the model reads the reject the hook heard");
});

test("a hook that throws (or rejects) is reported to onWarning and the call is answered as without it", async () => {
  const runs = [];
  const warnings = [];
  const shelf = createToolshelf({
    servers: servers(runs),
    options: { enabled: "on" },
    onSearch: () => { throw new Error("search hook broke"); },
    onReject: async () => { throw new Error("reject hook broke"); },
    onWarning: (w) => warnings.push(w),
  });
  const plain = createToolshelf({ servers: servers([]), options: { enabled: "on" } });
  const execution = { toolCallId: "x", messages: [] };
  const search = { query: "github issues" };
  assert.equal(await shelf.tools.tool_search.execute(search, execution), await plain.tools.tool_search.execute(search, execution));
  const bad = { name: "nope", arguments: {} };
  assert.equal(await shelf.tools.tool_call.execute(bad, { ...execution, toolCallId: "y" }), await plain.tools.tool_call.execute(bad, { ...execution, toolCallId: "y" }));
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(warnings, ["toolshelf/ai: onSearch threw, ignored: search hook broke", "toolshelf/ai: onReject threw, ignored: reject hook broke"]);
});

test("Anthropic native: onSearch after the search tool answers, onReject for a deferred tool's bad input and repairToolCall's wrong name", async () => {
  const runs = [];
  const searches = [];
  const rejects = [];
  const shelf = createAnthropicNativeToolshelf({
    servers: servers(runs),
    onSearch: (query, matches, unknownWords) => searches.push([query, matches.map((m) => `${m.server}/${m.name}`), unknownWords]),
    onReject: (call, reason) => rejects.push([call.name, call.id, reason]),
  });
  const searchName = Object.keys(shelf.tools).find((name) => !shelf.tools[name].providerOptions?.anthropic?.deferLoading);
  const answer = await shelf.tools[searchName].execute({ query: "weather forecast zorblax" }, { toolCallId: "s1", messages: [] });
  assert.ok(Array.isArray(answer));
  const forecast = shelf.shelf.describe("get_forecast").name; // the name the package shows it under
  assert.deepEqual(searches, [["weather forecast zorblax", [`weather/${forecast}`], ["zorblax"]]]);
  await shelf.tools[searchName].execute({ query: "" }, { toolCallId: "s2", messages: [] });
  assert.equal(rejects.length, 1);
  assert.deepEqual(rejects[0].slice(0, 2), [searchName, "s2"]);
  // A deferred tool whose jsonSchema the SDK does not validate: the core reads the call first.
  const reason = await shelf.tools[forecast].execute({}, { toolCallId: "t1", messages: [] });
  assert.deepEqual(runs, []);
  assert.deepEqual(rejects[1], [forecast, "t1", reason]);
  const { NoSuchToolError } = await import("ai");
  await assert.rejects(shelf.repairToolCall({
    toolCall: { type: "tool-call", toolCallId: "t2", toolName: "no_such_tool", input: "{}" },
    tools: shelf.tools, error: new NoSuchToolError({ toolName: "no_such_tool" }), messages: [],
  }));
  assert.deepEqual(rejects[2].slice(0, 2), ["no_such_tool", "t2"]);
});

test("OpenAI native: onSearch after the client tool_search answers, onReject for a rejected search", async () => {
  const searches = [];
  const rejects = [];
  const shelf = createOpenAINativeToolshelf({
    toolSearch: openai.tools.toolSearch,
    servers: servers([]),
    onSearch: (query, matches, unknownWords) => searches.push([query, matches.map((m) => `${m.server}/${m.name}`), unknownWords]),
    onReject: (call, reason) => rejects.push([call.name, reason]),
  });
  const search = shelf.tools.tool_search;
  const out = await search.execute({ call_id: "s1", arguments: { query: "create github issue" } }, { toolCallId: "s1", messages: [] });
  assert.ok(out.tools.length > 0);
  assert.equal(searches.length, 1);
  assert.equal(searches[0][0], "create github issue");
  assert.equal(searches[0][1][0], `github/${shelf.shelf.describe("create_issue").name}`);
  const bad = await search.execute({ call_id: "s2", arguments: { query: "" } }, { toolCallId: "s2", messages: [] });
  assert.equal(typeof bad.reason, "string");
  assert.deepEqual(rejects, [["tool_search", bad.reason]]);
});
