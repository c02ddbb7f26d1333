// toolshelf/ai: the Vercel AI SDK (`ai` 6 or 7, a peer dependency).
import type { EmbeddingModel, Tool, ToolSet } from "ai";
// generateText's `toolApproval` is ai 7's: ai 6 exports neither type, and there both are `any`.
// @ts-ignore -- compiles against ai 6 too (tests/matrix: tsc over ai 6 and ai 7)
import type { GenericToolApprovalFunction, ToolApprovalConfiguration } from "ai";
import type { Assembly, McpTool, Options, Shelf } from "./types.js";
import type { McpClientLike, McpProgress } from "./mcp.js";
import type { AnthropicNativeToolshelf, OpenAINativeToolshelf, OpenAIToolSearchArgs } from "./ai-native.js";

/** A real call about to run: where it goes, under the tool's own name, with validated arguments. */
export interface RealCall {
  /** The name the model is shown for the tool (a server's: `mcp__<server>__<tool>` by default). */
  name: string;
  /** The server it belongs to (as given to createToolshelf); undefined for a direct tool, `defer`red ones too. */
  server?: string;
  /** The tool's own name: the key of its ToolSet. */
  tool: string;
  arguments: Record<string, unknown>;
}

/** An @ai-sdk/mcp client (`createMCPClient`): its own `tools()` is the server's ToolSet. */
export interface AiSdkMcpClientLike {
  tools(): PromiseLike<ToolSet>;
  toolsFromDefinitions(...args: any[]): ToolSet;
}

/** What toolshelf/mcp's `mcpServers` returns (in its default format, "mcp"). */
export interface McpServersResult {
  servers: Record<string, McpTool[]>;
  clients: Record<string, McpClientLike>;
  warnings: string[];
}

/**
 * One server's tools: an AI SDK ToolSet, or a connected MCP client whose tools toolshelf lists
 * (the MCP SDK's `Client`: every tools/list page, calls through `callMcpTool`; an @ai-sdk/mcp client:
 * its `tools()`).
 */
export type ServerTools = ToolSet | McpClientLike | AiSdkMcpClientLike;

/** The servers, as a value: by name, connected MCP SDK clients in a list (named by their servers), or mcpServers' result. */
export type ServersValue = Record<string, ServerTools> | McpClientLike[] | McpServersResult;

/**
 * Deferred tools by server, or a function read before every step, which may be async (then
 * `prepareStep` and `update` return promises): an attached server is used from the next step on, a
 * detached one's tools answer as unavailable. Where clients' tools must be listed, the adapter
 * starts with none and the first step (or an awaited `prepareStep()`) waits for them; each client is
 * listed once.
 */
export type ServersInput = ServersValue | PromiseLike<ServersValue> | (() => ServersValue | PromiseLike<ServersValue>);

/** How an MCP tool's failure reaches the AI SDK (a tool error the model reads): the text, and the MCP result. */
export declare class McpToolError extends Error {
  name: "McpToolError";
  /** The CallToolResult (`isError: true`) the failure makes, as callMcpTool gives it. */
  result: unknown;
}

/** A match `onSearch` hears: the tool's name as the model knows it, its server (as given), whether it is partial. */
export interface SearchHookMatch {
  name: string;
  server: string;
  description?: string;
  required?: string[];
  partial: boolean;
  /** The core's score (native adapters). */
  score?: number;
}

/** A model's call `onReject` hears: the tool it named (the bridge's `tool_call` too), its input, its call id. */
export interface RejectedCall {
  name: string;
  arguments: unknown;
  id?: string;
}

export interface ToolshelfInput {
  /** Direct tools: the model always sees them, as they are. */
  tools?: ToolSet;
  /** Deferred tools by server, or a function read before every step (sync or async). */
  servers?: ServersInput;
  /** toolshelf's options (contextLength, thresholdPct, qualify, bridgeNames, …); `format` is set for you. */
  options?: Options;
  /**
   * Called before a real tool runs, with the real tool (never the bridge): hooks, approvals, logs.
   * Return a string to decline: it goes back to the model as the tool result and nothing runs.
   */
  onCall?: (call: RealCall, execution: ExecutionOptions) => unknown;
  /**
   * Called after a search is answered (each query of a batched one): the query, its matches (the
   * bridge's: as its answer gives them; native: the core's ranking of the query) and the query's
   * words no tool holds. Observes only: not awaited, its result is ignored.
   */
  onSearch?: (query: string, matches: SearchHookMatch[], unknownWords: string[]) => unknown;
  /**
   * Called when toolshelf rejects a model's call (nothing runs): the call as the model made it
   * and the reason, which is what the model reads. Observes only: not awaited.
   */
  onReject?: (call: RejectedCall, reason: string) => unknown;
  /**
   * Hears a hook (`onSearch`, `onReject`) that threw or rejected, and an MCP client whose tools could
   * not be listed (its server left out); the loop goes on. Default console.warn.
   */
  onWarning?: (warning: string) => void;
  /** Hears the progress notifications of a call to an MCP SDK client's tool, with the real call. */
  onProgress?: (progress: McpProgress, call: RealCall) => void;
  /**
   * Approval of the real tools, in generateText's `toolApproval` shape, keyed by the name the model
   * knows (else the tool's own name). Applied to calls through the bridge as the SDK applies it to a
   * direct tool; pass `shelf.toolApproval` as generateText's `toolApproval` to have the SDK apply it.
   */
  toolApproval?: ToolApprovalConfiguration<ToolSet, unknown>;
  /**
   * Semantic search ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#12-semantic-retrieval-embeddings-the-caller-supplies SPEC §12}) with an AI SDK embedding model: the tools' texts embedded by
   * `embedMany` before the first search (each text once), each search query by `embed`, fused
   * into the ranking. `name` is the model name the vectors carry (default `provider:modelId`);
   * a failed embedding makes the search lexical and is told to `onWarning` (default console.warn).
   */
  embedding?: EmbeddingOption;
}

export interface Toolshelf {
  /** For generateText/streamText: the direct tools (your objects) and the bridge tools. Updated in place. */
  readonly tools: ToolSet;
  /**
   * For generateText/streamText: re-assembles before a step when `servers` (a function) changed; a
   * promise when that function is async. Calls are read with the step's conversation ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#14-conversations-correct-across-turns-not-only-call-by-call SPEC §14}).
   */
  prepareStep: (step?: { toolsContext?: unknown; runtimeContext?: unknown; [option: string]: unknown }) => undefined | Promise<undefined>;
  /**
   * For generateText/streamText's `toolApproval`: a bridge call is judged as its real tool (the
   * `toolApproval` given to createToolshelf, else the tool's `needsApproval`), any other tool as the
   * SDK would judge it.
   */
  toolApproval: GenericToolApprovalFunction<ToolSet, any, any>;
  /** The adapter's own warnings of the current assembly (servers left out or renamed, schemas); also first in `assembly.warnings`. */
  readonly warnings: string[];
  /** The prepared toolbox (search, describe, unwrap for programs). */
  readonly shelf: Shelf<McpTool>;
  /** The current assembly's facts (tier, listing, warnings, fingerprint). */
  readonly assembly: Assembly<McpTool>;
  /**
   * Re-assembles with other servers (an object, or a function read now and before every step);
   * when that throws, the adapter is left as it was. A promise when the function is async.
   */
  update(servers: ServersInput): void | Promise<void>;
}

export declare function createToolshelf(input?: ToolshelfInput): Toolshelf;

/** What a tool's `execute` is given: the SDK's ToolExecutionOptions (generic in ai 7, not in ai 6). */
export type ExecutionOptions = Parameters<NonNullable<Tool["execute"]>>[1];

/** The `embedding` option: an AI SDK embedding model and how its vectors are named and reported. */
export interface EmbeddingOption {
  model: EmbeddingModel;
  name?: string;
  onWarning?: (warning: string) => void;
  /** Passed to embed / embedMany as they are (`dimensions`, `maxRetries`, `headers`, `providerOptions`...). */
  [setting: string]: unknown;
}

/** What both adapters use for `embedding`: `unwrap(shelf, call)` embeds and searches. */
export declare function embeddingSearch(option: EmbeddingOption): { unwrap(shelf: Shelf<any, any>, call: unknown): Promise<any> };

/** The AI SDK's `toolSearch({ search })` callback shape. */
export type ToolSearchCallback = (options: { query: string; tools: Array<{ name: string; description?: string }> }) => string[];

/**
 * toolshelf's ranking as the `search` of the AI SDK's `toolSearch({ search })` (tools marked
 * `deferLoading: true`). With `tools` (the ToolSet), parameter names count too.
 */
export declare function toolshelfSearch(options?: { tools?: ToolSet; limit?: number; server?: string; onWarning?: (warning: string) => void }): ToolSearchCallback;
export type { AnthropicNativeToolshelf, OpenAINativeToolshelf, OpenAIToolSearchArgs } from "./ai-native.js";

/**
 * Direct tools plus deferred tools by server → native Anthropic tool search for the AI SDK
 * ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#11-native-tool-search-mode-native SPEC §11}). Over 10,000 deferred tools at creation, createToolshelf's bridge is returned instead.
 */
export declare function createAnthropicNativeToolshelf(input?: ToolshelfInput): AnthropicNativeToolshelf;

/** Direct tools plus deferred tools by server → native OpenAI Responses tool search for the AI SDK ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#11-native-tool-search-mode-native SPEC §11}). */
export declare function createOpenAINativeToolshelf(
  input: Omit<ToolshelfInput, "toolApproval"> & {
    /** The SDK's factory: `openai.tools.toolSearch` from @ai-sdk/openai. */
    toolSearch: (args: OpenAIToolSearchArgs) => Tool<any, any>;
  },
): OpenAINativeToolshelf;
