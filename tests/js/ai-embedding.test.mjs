// toolshelf/ai's `embedding: { model }` (SPEC §12) with the real AI SDK: @ai-sdk/openai's embedding
// model against a scripted OpenAI embeddings endpoint on 127.0.0.1 serving the committed
// all-MiniLM-L6-v2 fixture vectors, and its Chat model against the scripted model server. The
// tools are embedded once (embedMany), each search query once (embed); the model reads the fused
// answer, the same as a Shelf given the same vectors; a failing endpoint leaves searches lexical.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { Shelf } from "toolshelf";
import { createAnthropicNativeToolshelf, createToolshelf } from "toolshelf/ai";
import { startEmbeddingServer, startModelServer } from "./model-server.mjs";
import { catalog, grouped } from "./support.mjs";
import { embeddingKey, readVectors } from "./embeddings.mjs";

const TOOLS = readVectors("tools");
const QUERIES = readVectors("queries-model");
const vectorOf = (text) => TOOLS.get(embeddingKey(text)) ?? QUERIES.get(embeddingKey(text));

/** GitHub's and Linear's tools as AI SDK ToolSets by server (their MCP defs, as @ai-sdk/mcp gives them). */
function servers() {
  const out = {};
  for (const name of ["github-mcp-server", "linear-mcp-official"]) {
    for (const { server, tool: def } of catalog(name)) {
      const f = def.function;
      (out[server] ??= {})[f.name] = tool({ description: f.description, inputSchema: jsonSchema(f.parameters), execute: async () => "ran" });
    }
  }
  return out;
}

/** The answer a Shelf of the same tools gives with the fixture vectors (MCP format, as the adapter prepares it). */
function expectedAnswer(query, options = {}) {
  const toolbox = { tools: [], servers: {} };
  for (const [server, set] of Object.entries(servers())) {
    toolbox.servers[server] = Object.entries(set).map(([name, t]) => ({ name, description: t.description, inputSchema: t.inputSchema.jsonSchema }));
  }
  const shelf = new Shelf(toolbox, { ...options, format: "mcp" });
  shelf.setEmbeddings({ model: "x", vectors: shelf.embeddingTexts().map(({ key }) => TOOLS.get(key)) });
  const answer = shelf.search(query, { limit: 5, vector: vectorOf(query) }).matches.map((m) => m.name);
  shelf.free();
  return answer;
}

const QUERY = "make a new repo for my side project";

test("generateText: the model's tool_search is answered with the embedding model's vectors fused in", async () => {
  const embeddings = await startEmbeddingServer(vectorOf);
  const model = await startModelServer([{ tool: "tool_search", arguments: { query: QUERY, limit: 5 } }, { tool: "tool_search", arguments: { query: "who am I" } }, { text: "done" }]);
  try {
    const provider = createOpenAI({ apiKey: "test", baseURL: `${embeddings.url}/v1` });
    const shelf = createToolshelf({ servers: servers(), embedding: { model: provider.embedding("all-MiniLM-L6-v2") } });
    const chat = createOpenAI({ apiKey: "test", baseURL: `${model.url}/v1` }).chat("scripted");
    await generateText({ model: chat, tools: shelf.tools, prepareStep: shelf.prepareStep, prompt: "Do it.", stopWhen: stepCountIs(4) });
    const read = JSON.parse(model.requests[1].results[0].content);
    assert.deepEqual(read.matches.map((m) => m.name), expectedAnswer(QUERY));
    const lexical = new Shelf(grouped(["github-mcp-server", "linear-mcp-official"])).search(QUERY, { limit: 5 }).matches.map((m) => m.name);
    assert.notDeepEqual(read.matches.map((m) => m.name), lexical, "the vectors changed the answer");
    const createRepository = shelf.shelf.describe("create_repository").name; // as the package shows it
    assert.ok(read.matches.some((m) => m.name === createRepository), JSON.stringify(read.matches.map((m) => m.name)));
    // The tools were embedded once (in as few requests as the SDK makes), then one embed per query.
    const texts = embeddings.requests.flatMap((r) => r.input);
    assert.equal(new Set(texts).size, texts.length, "no text embedded twice");
    assert.deepEqual(embeddings.requests.slice(-2).map((r) => r.input), [[QUERY], ["who am I"]]);
    assert.equal(texts.length, shelf.shelf.embeddingTexts().length + 2);
    assert.ok(embeddings.requests.every((r) => r.model === "all-MiniLM-L6-v2" && r.encoding === "float"));
  } finally {
    await Promise.all([embeddings.close(), model.close()]);
  }
});

test("a failing embeddings endpoint: the search is lexical and onWarning hears it", async () => {
  const embeddings = await startEmbeddingServer(vectorOf, { fail: true });
  try {
    const warnings = [];
    const provider = createOpenAI({ apiKey: "test", baseURL: `${embeddings.url}/v1` });
    const shelf = createToolshelf({ servers: servers(), embedding: { model: provider.embedding("m"), maxRetries: 0, onWarning: (w) => warnings.push(w) } });
    const content = await shelf.tools.tool_search.execute({ query: QUERY }, { toolCallId: "c1", messages: [] });
    const lexical = shelf.shelf.unwrap({ name: "tool_search", arguments: { query: QUERY } }).content;
    assert.equal(content, lexical);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /embedding the tools failed/);
  } finally {
    await embeddings.close();
  }
});

test("createAnthropicNativeToolshelf: the native search tool's tool_reference answer is fused", async () => {
  const embeddings = await startEmbeddingServer(vectorOf);
  try {
    const provider = createOpenAI({ apiKey: "test", baseURL: `${embeddings.url}/v1` });
    // loadLimit 5: every match loads, so the fused ranking's matches are all references.
    const native = createAnthropicNativeToolshelf({ servers: servers(), options: { contextLength: 200_000, loadLimit: 5 }, embedding: { model: provider.embedding("all-MiniLM-L6-v2") } });
    const search = Object.entries(native.tools).find(([, t]) => t.type === "provider" || /search/.test(t.id ?? ""))?.[1] ?? native.tools.tool_search;
    const output = await search.execute({ query: QUERY }, { toolCallId: "s1", messages: [] });
    const names = output.filter((b) => b.type === "tool_reference").map((b) => b.tool_name);
    assert.ok(names.includes(native.shelf.describe("create_repository").name), JSON.stringify(output));
    assert.ok(embeddings.requests.at(-1).input[0] === QUERY);
  } finally {
    await embeddings.close();
  }
});
