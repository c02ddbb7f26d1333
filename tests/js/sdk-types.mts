// What the SDKs' own types make of the package's (types.test.mjs compiles this with the
// documentation's examples, TypeScript 5.9 and 7): toolboxes typed with each SDK's tool type, the
// assembled tools given to that SDK's tools parameter, and native Anthropic search answers as the
// SDK's `tool_result` content blocks. Type-checked only, never run.
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import { Shelf, assemble, unwrap } from "toolshelf";
import { callMcpTool, mcpServers } from "toolshelf/mcp";
import { createAnthropicNativeToolshelf, createToolshelf } from "toolshelf/ai";

declare const anthropicTools: Anthropic.Tool[];
declare const chatTools: OpenAI.ChatCompletionFunctionTool[];
declare const responsesTools: OpenAI.Responses.FunctionTool[];
declare const toolUse: Anthropic.ToolUseBlock;
declare const client: import("@modelcontextprotocol/sdk/client/index.js").Client;

// Tools arrays: each SDK's tools parameter takes what assemble gives for its own tool type.
const chat: OpenAI.ChatCompletionTool[] = new Shelf({ tools: chatTools, servers: { s: chatTools } }).assemble().tools;
const anthropicBridge: Anthropic.ToolUnion[] = assemble({ tools: anthropicTools, servers: { s: anthropicTools } }).tools;
const anthropicNative: Anthropic.ToolUnion[] = new Shelf({ servers: { s: anthropicTools } }, { mode: "native" }).assemble({ messages: [] }).tools;
const responses: OpenAI.Responses.Tool[] = new Shelf({ servers: { s: responsesTools } }, { mode: "native" }).assemble().tools;

// Native Anthropic: a search's answer is tool_reference (or text) blocks, typed so, and a
// tool_result takes it as it is.
const native = new Shelf({ tools: anthropicTools, servers: { github: anthropicTools } }, { mode: "native" });
const u = native.unwrap(toolUse, { messages: [] });
if (u.kind === "answer") {
  const result: Anthropic.ToolResultBlockParam = { type: "tool_result", tool_use_id: toolUse.id, content: u.content };
  // @ts-expect-error: not only text: the answer may be blocks
  const text: string = u.content;
  void result, text;
}
// The stateless unwrap knows the mode from its options.
const stateless = unwrap({ servers: { github: anthropicTools } }, toolUse, { mode: "native" });
if (stateless.kind === "answer") {
  const content: Anthropic.ToolResultBlockParam["content"] = stateless.content;
  void content;
}
// The bridge answers text, whatever the tool type.
const bridged = new Shelf({ servers: { github: anthropicTools } }).unwrap(toolUse);
if (bridged.kind === "answer") {
  const text: string = bridged.content;
  void text;
}

// toolshelf/mcp with SDK-typed direct tools: the servers in the SDK's format, routed back.
const { servers, clients } = await mcpServers({ github: client }, { format: "anthropic" });
const shelf = new Shelf({ tools: anthropicTools, servers }, { contextLength: 200_000 });
const call = shelf.unwrap(toolUse);
const content: string = call.kind === "call" ? (await callMcpTool(clients, call)).content : call.content;
const { servers: chatServers } = await mcpServers({ github: client }, { format: "openai" });
const chatShelf = new Shelf({ tools: chatTools, servers: chatServers });
const chatAssembled: OpenAI.ChatCompletionTool[] = chatShelf.assemble().tools;

// callMcpTool passes the SDK's RequestOptions: progress, cancellation, timeouts.
const stop = new AbortController();
const progressed = await callMcpTool(chatShelfClients(), { kind: "call", name: "t", server: "github", tool: "t", arguments: {}, viaBridge: true }, {
  onprogress: (p) => console.log(p.progress, p.total, p.message),
  signal: stop.signal,
  timeout: 30_000,
  resetTimeoutOnProgress: true,
  maxTotalTimeout: 600_000,
});
const progressedText: string = progressed.content;
function chatShelfClients() { return { github: client }; }

// The observing hooks of toolshelf/ai.
const hooked = createToolshelf({
  onSearch: (query, matches, unknownWords) => console.log(query.length, matches.map((m) => `${m.server}/${m.name} ${m.partial}`), unknownWords.join()),
  onReject: (call, reason) => console.log(call.name, call.id, reason.length),
  onWarning: (warning) => console.warn(warning),
});
const hookedNative = createAnthropicNativeToolshelf({ onSearch: async () => {}, onReject: () => undefined });

// toolshelf/ai straight from MCP clients: by name, a list, or mcpServers' result; a wrong shape is an error.
const fromClients = createToolshelf({ servers: { github: client }, onProgress: (p, call) => console.log(call.server, call.tool, p.progress, p.total) });
const listing = await mcpServers({ github: client });
const fromListing = createToolshelf({ servers: listing, tools: {} });
const fromList = createAnthropicNativeToolshelf({ servers: [client] });
// @ts-expect-error mcpServers' tool arrays alone cannot be run: the clients are needed
createToolshelf({ servers: listing.servers });
// @ts-expect-error a ToolSet is an object of tools by name, not an array
createToolshelf({ tools: listing.servers.github });

export { fromClients, fromList, fromListing, hooked, hookedNative, progressedText };
export { anthropicBridge, anthropicNative, chat, chatAssembled, content, responses };
