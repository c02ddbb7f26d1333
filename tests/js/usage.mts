// Every export and type of the installed package, as a TypeScript user writes them. types.test.mjs
// type-checks this file against the package (moduleResolution node16 and bundler, strict) and runs
// the compiled output, so the types and the runtime must agree. Each `@ts-expect-error` is an
// assertion: the line must NOT compile (were a type `any`, the directive itself would fail).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  assemble,
  describe,
  init,
  search,
  Shelf,
  ToolshelfError,
  unwrap,
  type AnthropicTool,
  type Assembly,
  type Described,
  type EmbeddingText,
  type EmbeddingsStored,
  type ErrorCode,
  type Form,
  type GeminiTool,
  type JsonSchema,
  type Level,
  type McpTool,
  type OpenAiTool,
  type Options,
  type ResponsesTool,
  type SearchMatch,
  type SearchOptions,
  type SearchResult,
  type ToolCall,
  type Toolbox,
  type ToolDef,
  type ToolFormat,
  type ToolResultBlock,
  type ToolSearchOutputItem,
  type TriState,
  type Unwrapped,
} from "toolshelf";
import * as slim from "toolshelf/slim";

await init(); // a no-op in Node; browsers need it

const schema: JsonSchema = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };

// One tool in each of the five formats.
const openai: OpenAiTool = { type: "function", function: { name: "read_file", description: "Read a file.", parameters: schema } };
const responses: ResponsesTool = { type: "function", name: "read_file", parameters: schema, strict: true };
const anthropic: AnthropicTool = { name: "read_file", description: "Read a file.", input_schema: schema, cache_control: { type: "ephemeral" } };
const mcp: McpTool = { name: "read_file", title: "Read", inputSchema: schema, annotations: { readOnlyHint: true } };
const gemini: GeminiTool = { name: "read_file", parameters: schema };
const anyFormat: ToolDef[] = [openai, responses, anthropic, mcp, gemini];
assert.equal(anyFormat.length, 5);


// Toolboxes: a flat list, or direct tools plus deferred tools by server.
const issue = (name: string): AnthropicTool => ({ name, description: `${name} in Linear.`, input_schema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] } });
const flat: Toolbox<McpTool> = [mcp, { name: "mcp__linear__create_issue", inputSchema: schema }];
const toolbox: Toolbox<AnthropicTool> = { tools: [anthropic], servers: { linear: [issue("create_issue"), issue("list_issues")] } };

// Options: every key, and the values the lenient reader takes.
const tri: TriState[] = ["auto", "on", "off", true, false, "yes", "no", "1", "0", 1, 0];
const format: ToolFormat = "anthropic";
const options: Options = {
  contextLength: 200_000, enabled: tri[0], thresholdPct: 5, listingMaxTokens: 20_000, listing: "auto",
  searchDefaultLimit: 5, maxSearchLimit: 20, batch: false, bridgeNames: { call: "invoke_tool" },
  alwaysLoad: [], defer: [], format, qualify: false, context_length: 200_000,
};
const listBridgeNames: Options = { bridgeNames: ["find", "load", "run"] };
assert.equal(assemble(toolbox, listBridgeNames).tools.at(-1)?.name, "run");

// assemble keeps the toolbox's tool type, and hands back the caller's own objects.
const assembly: Assembly<AnthropicTool> = assemble(toolbox, options);
const first: AnthropicTool = assembly.tools[0];
assert.equal(first, anthropic);
const tier: 0 | 1 | 2 = assembly.tier;
const form: Form = assembly.form;
const levels: Level[] = assembly.servers.map((s) => s.level);
const counts: number[] = [assembly.deferredCount, assembly.deferredTokens, assembly.budgetTokens, assembly.listingTokens];
const fingerprint: string = assembly.fingerprint;
const warnings: string[] = assembly.warnings;
assert.deepEqual([tier, form, levels, warnings], [1, "full", ["full"], []]);
assert.ok(counts.every((n) => n >= 0) && /^[0-9a-f]+$/.test(fingerprint));
assert.equal(assemble(flat).tools[0], mcp);

// search: options with a limit; matches with scores and partial marks; the query's words no tool
// holds; servers only when nothing matched.
const searchOptions: SearchOptions = { ...options, limit: 3 };
const found: SearchResult = search(toolbox, "create issue", searchOptions);
const hit: SearchMatch | undefined = found.matches[0];
assert.equal(hit?.name, "create_issue");
const required: string[] = hit?.required ?? [];
const score: number = hit?.score ?? 0;
const partial: boolean = hit?.partial ?? true;
assert.ok(required.includes("title") && score > 0 && !partial && found.totalAvailable === 2);
const nothing = search(toolbox, "send gmail email");
const servers: { name: string; tools: number }[] = nothing.servers ?? [];
assert.deepEqual(servers, [{ name: "linear", tools: 2 }]);
const unknownWords: string[] = nothing.unknownWords;
assert.ok(unknownWords.includes("gmail"));
const empty: string | undefined = search(toolbox, " ").error;
assert.ok(empty);

// describe: a deferred tool whole, or null.
const described: Described | null = describe(toolbox, "create_issue", options);
if (described) {
  const parameters: JsonSchema = described.parameters;
  assert.deepEqual([described.server, parameters.required], ["linear", ["title"]]);
}
assert.equal(describe(toolbox, "read_file"), null);

// unwrap: every call shape, and the result narrowed by `kind`.
const calls: ToolCall[] = [
  { name: "tool_call", arguments: { name: "create_issue", arguments: { title: "Crash" } } },
  { name: "tool_call", arguments: '{"name":"create_issue","arguments":{"title":"Crash"}}', id: "1" },
  { id: "2", type: "function", function: { name: "tool_search", arguments: '{"query":"issue"}' } },
  { type: "function_call", call_id: "3", name: "tool_describe", arguments: '{"name":"list_issues"}' },
  { type: "tool_use", id: "4", name: "read_file", input: { path: "a" } },
  { name: "read_file", args: { path: "a" } },
];

function handle(u: Unwrapped): string {
  switch (u.kind) {
    case "call": {
      const where: string = `${u.server ?? "direct"}/${u.tool ?? u.name}`;
      const args: Record<string, unknown> = u.arguments;
      const bridged: boolean = u.viaBridge;
      return `${where} ${JSON.stringify(args)} ${bridged}`;
    }
    case "answer":
      return u.content;
    case "reject":
      return `rejected: ${u.content}`;
  }
}
const kinds = calls.map((c) => unwrap(toolbox, c).kind);
assert.deepEqual(kinds, ["call", "call", "answer", "answer", "call", "call"]);
assert.match(handle(unwrap(toolbox, calls[0]!)), /^linear\/create_issue /);

// Shelf: prepared once; the same answers as the free functions.
const shelf = new Shelf(toolbox, options);
const again: Assembly<AnthropicTool> = shelf.assemble();
assert.deepEqual(again, assembly);
const limited: SearchResult = shelf.search("issue", { limit: 1 });
assert.equal(limited.matches.length, 1);
const loaded: Described | null = shelf.describe("list_issues");
const answered: Unwrapped = shelf.unwrap(calls[2]!);
assert.equal(loaded?.name, "list_issues");
assert.equal(answered.kind, "answer");
// A call typed `any` (JSON.parse's) is read as a tool call: narrowing by kind reaches the server.
const parsed: any = JSON.parse('{"name":"tool_call","arguments":{"name":"create_issue","arguments":{"title":"Crash"}}}');
const fromJson = shelf.unwrap({ ...parsed, name: "invoke_tool" }); // this shelf's bridgeNames
const fromJsonServer: string | undefined = fromJson.kind === "call" ? fromJson.server : undefined;
assert.equal(fromJsonServer, "linear");
const fromJsonFree = unwrap(toolbox, parsed);
assert.equal(fromJsonFree.kind === "call" ? fromJsonFree.tool : undefined, "create_issue");
shelf.free();

// Errors: a ToolshelfError with a typed code.
try {
  assemble([openai, openai]);
  assert.fail("a duplicate tool throws");
} catch (e) {
  if (!(e instanceof ToolshelfError)) throw e;
  const code: ErrorCode = e.code;
  const asError: Error = e;
  assert.equal(code, "duplicate_tool");
  assert.match(asError.message, /duplicate tool name/);
}

// The slim entry: initSync with bytes (or a module: usage-dom.mts), or await init with a Response.
const wasmUrl = new URL(import.meta.resolve("toolshelf/toolshelf_bg.wasm"));
const bytes = new Uint8Array(readFileSync(wasmUrl));
slim.initSync(bytes);
slim.initSync(readFileSync(wasmUrl)); // a Node Buffer as it is
const later: Promise<void> = slim.init(new Response(bytes, { headers: { "content-type": "application/wasm" } }));
await later;
const viaSlim: Assembly<AnthropicTool> = slim.assemble(toolbox, options);
assert.equal(viaSlim.fingerprint, assembly.fingerprint);
const slimShelf: slim.Shelf = new slim.Shelf(flat);
slimShelf.free();

/** What must not compile; never called (some of it would throw). Each line is one assertion. */
export function mustNotCompile(u: Unwrapped): void {
  // @ts-expect-error an OpenAI tool's type is "function"
  const badOpenAi: OpenAiTool = { type: "tool", function: { name: "x" } };
  // @ts-expect-error an Anthropic tool needs input_schema
  const badAnthropic: AnthropicTool = { name: "x" };
  // @ts-expect-error servers map names to lists of tools
  const badToolbox: Toolbox = { servers: { linear: issue("x") } };
  // @ts-expect-error five formats only
  const badFormat: ToolFormat = "xml";
  // @ts-expect-error three bridge names, not two
  const badBridge: Options = { bridgeNames: ["find", "load"] };
  // @ts-expect-error tier is 0 | 1 | 2
  const badTier: Assembly["tier"] = 3;
  // @ts-expect-error an OpenAI Chat call's arguments are JSON text
  const badCall: ToolCall = { id: "x", type: "function", function: { name: "a", arguments: {} } };
  // @ts-expect-error codes are a closed set
  const badCode: ErrorCode = "oops";
  // @ts-expect-error content exists only once `kind` says answer or reject
  const content: string = u.content;
  void [badOpenAi, badAnthropic, badToolbox, badFormat, badBridge, badTier, badCall, badCode, content];
  // @ts-expect-error a toolbox is not a number
  assemble(42);
  // @ts-expect-error Shelf.search takes a limit, not toolbox options
  new Shelf(toolbox).search("issue", { qualify: true });
  // @ts-expect-error initSync needs the module or its bytes
  slim.initSync();
  // @ts-expect-error describe takes a name
  describe(toolbox);
}

console.log("usage.mts ran");

// Native mode (SPEC §11): Anthropic answers may be tool_reference blocks, a tool_search_call gives an item.
{
  const anthropicTool = { name: "a", input_schema: { type: "object" } };
  const native = new Shelf({ servers: { s: [anthropicTool] } }, { mode: "native" });
  const assembly = native.assemble({ messages: [] });
  const mode: "bridge" | "native" = assembly.mode;
  const costs: number = assembly.contextTokens + assembly.requestBytes;
  assert.equal(mode, "native");
  assert.ok(costs > 0);
  const u = native.unwrap({ type: "tool_use", id: "t", name: "tool_search", input: { query: "a" } });
  if (u.kind === "answer") {
    const blocks: string | ToolResultBlock[] = u.content;
    assert.ok(Array.isArray(blocks));
  }
  const responsesTool = { type: "function" as const, name: "r", parameters: { type: "object" } };
  const searched = unwrap({ servers: { s: [responsesTool] } }, { type: "tool_search_call", call_id: "c", arguments: { query: "r" } }, { mode: "native" });
  const item: ToolSearchOutputItem = searched.item;
  assert.equal(item.call_id, "c");
  assert.equal(item.tools[0]?.tools[0]?.name, "r");
}

// Semantic retrieval (SPEC §12): texts, vectors in order or by key, a query vector, unwrapAsync.
{
  const shelf = new Shelf({ servers: { s: [{ type: "function" as const, function: { name: "create_issue", description: "Create an issue." } }] } });
  const texts: EmbeddingText[] = shelf.embeddingTexts();
  shelf.setEmbeddings({ model: "m", vectors: texts.map(() => new Float32Array([1, 0])) });
  shelf.setEmbeddings({ model: "m", vectors: Object.fromEntries(texts.map(({ key }) => [key, [0, 1]])) });
  const hits: SearchResult = shelf.search("issue", { limit: 3, vector: [0.5, 0.5] });
  assert.ok(hits.matches.length > 0);
  const u = await shelf.unwrapAsync({ name: "tool_search", arguments: { query: "issue" } }, { embed: async () => [1, 1] });
  const warnings: string[] | undefined = u.warnings;
  assert.equal(warnings, undefined);
  // SPEC §15: a Map by key, what is held, and the bounds of unwrapAsync (embed told when to stop).
  const stored: EmbeddingsStored = shelf.setEmbeddings({ model: "m", vectors: new Map(texts.map(({ key }) => [key, [1, 1]])) });
  assert.deepEqual(stored, { stored: 1, missing: 0, unknownKeys: [] });
  const bounded = await shelf.unwrapAsync(
    { name: "tool_search", arguments: { query: "issue" } },
    { embed: (_text: string, { signal }: { signal: AbortSignal }) => new Promise<number[]>((resolve) => signal.addEventListener("abort", () => resolve([1, 1]))), timeoutMs: 10, signal: new AbortController().signal },
  );
  assert.match(bounded.warnings?.[0] ?? "", /did not answer within 10 ms/);
  shelf.setEmbeddings(null);
  assert.throws(() =>
    // @ts-expect-error vectors are arrays of numbers or Float32Arrays
    shelf.setEmbeddings({ model: "m", vectors: ["x"] }),
  );
}
