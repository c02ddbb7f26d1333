// toolshelf/mcp: connected MCP clients (@modelcontextprotocol/sdk's `Client`, or anything with its
// listTools/callTool methods) as a toolbox's servers, and an unwrapped call run on the right client.
import type { GeminiTool, McpTool, OpenAiTool, ToolFormat, Unwrapped } from "./types.js";

/** The tool def each format gives: what `fromMcpTool` writes (Responses tools with `strict: false`). */
export interface ToolOfFormat {
  mcp: McpTool;
  openai: OpenAiTool & { function: { description: string; parameters: McpTool["inputSchema"] } };
  responses: { type: "function"; name: string; description: string; parameters: McpTool["inputSchema"]; strict: boolean };
  anthropic: { name: string; description: string; input_schema: { type: "object"; [key: string]: unknown } };
  gemini: GeminiTool & { description: string; parameters: McpTool["inputSchema"] };
}

/** What toolshelf/mcp uses of an MCP SDK `Client` (a connected one is one of these). */
export interface McpClientLike {
  listTools(params?: { cursor?: string }, options?: { signal?: AbortSignal }): Promise<{ tools: McpTool[]; nextCursor?: string }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, resultSchema?: undefined, options?: { signal?: AbortSignal; timeout?: number }): Promise<unknown>;
  /** The server's name from initialize; used when clients are given as a list. */
  getServerVersion?(): { name: string } | undefined;
}

/** Bounds of a listing; a cut-off is reported as a warning. */
export interface ListingOptions {
  /** Rejects the listing as soon as it aborts (between pages and during one). */
  signal?: AbortSignal;
  /** Pages read per server at most (default 1,000). */
  maxPages?: number;
  /** Tools kept per server at most (default 10,000). */
  maxTools?: number;
  /** Called with each warning: a cut-off, tool names listed more than once, a server left out or renamed. */
  onWarning?: (warning: string) => void;
}

/**
 * Every tool a client lists, following `nextCursor` page by page within `maxPages` and `maxTools`,
 * each tool name kept once; yields to the event loop between pages.
 */
export declare function listAllTools(client: McpClientLike, options?: ListingOptions & { server?: string }): Promise<McpTool[]>;

/** A tools/list item in one of toolshelf's formats (`mcp`, the default, returns it as it is). */
export declare function fromMcpTool<F extends ToolFormat = "mcp">(tool: McpTool, format?: F): ToolOfFormat[F];

/**
 * Connected clients → a toolbox's `servers` (each client's tools, in `format`), the clients by the
 * same names and the warnings. A list is named by each server's own name (`getServerVersion().name`).
 * A client whose listing fails or whose tools have no usable names is left out with a warning; a
 * server named "builtin" (the `defer` pseudo-server) is renamed "builtin_2". Rejects only when
 * `signal` aborts.
 */
export declare function mcpServers<C extends McpClientLike, F extends ToolFormat = "mcp">(
  clients: C[] | Record<string, C>,
  options?: ListingOptions & { format?: F },
): Promise<{ servers: Record<string, ToolOfFormat[F][]>; clients: Record<string, C>; warnings: string[] }>;

/** An MCP tool result's content as one tool message: text items as they are, other items as JSON. */
export declare function toolMessage(result: unknown): string;

/**
 * Runs an unwrapped call (kind "call" with a server) through `callTool` on its server's client,
 * under the tool's own (server-side) name. `content` is the tool message to send back. Never
 * rejects for the call's failures: a call no client serves (a direct tool, server "builtin"), a
 * JSON-RPC error and a timeout are `isError: true` results whose `content` says what happened
 * (`error` holds what was thrown).
 */
export declare function callMcpTool(
  clients: Record<string, McpClientLike>,
  call: Extract<Unwrapped, { kind: "call" }>,
  options?: { signal?: AbortSignal; timeout?: number },
): Promise<{ content: string; result: unknown; isError: boolean; error?: unknown }>;
