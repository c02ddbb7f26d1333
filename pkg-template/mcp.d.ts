// toolshelf/mcp: connected MCP clients (@modelcontextprotocol/sdk's `Client`, or anything with its
// listTools/callTool methods) as a toolbox's servers, and an unwrapped call run on the right client.
import type { GeminiTool, McpTool, OpenAiTool, ToolFormat, Unwrapped } from "./types.js";

/**
 * The tool def each format gives: what `fromMcpTool` writes (Responses tools with `strict: false`),
 * typed no tighter than each SDK's own tool type (OpenAI's `ChatCompletionFunctionTool` and
 * Responses `FunctionTool`, Anthropic's `Tool`), so that direct tools typed with the SDK and these
 * share a toolbox whichever of the two TypeScript infers its tool type from (TypeScript 7 may pick
 * the servers').
 */
export interface ToolOfFormat {
  mcp: McpTool;
  openai: OpenAiTool;
  responses: { type: "function"; name: string; description?: string | null; parameters: McpTool["inputSchema"] | null; strict: boolean | null };
  anthropic: { name: string; description?: string; input_schema: { type: "object"; [key: string]: unknown } };
  gemini: GeminiTool;
}

/** What toolshelf/mcp uses of an MCP SDK `Client` (a connected one is one of these). */
export interface McpClientLike {
  listTools(params?: { cursor?: string }, options?: { signal?: AbortSignal }): Promise<{ tools: McpTool[]; nextCursor?: string }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, resultSchema?: undefined, options?: CallOptions): Promise<unknown>;
  /** The server's name from initialize; used when clients are given as a list. */
  getServerVersion?(): { name: string } | undefined;
  /** Where a client is watched (`onToolsChanged`): its handler of `notifications/tools/list_changed` is set. */
  setNotificationHandler?(schema: any, handler: (notification: any) => void | Promise<void>): void;
  removeNotificationHandler?(method: string): void;
  /** Called when the connection closes; a watched client's server is then left out. */
  onclose?: (() => void) | undefined;
}

/** What `onToolsChanged` is told: one server's tools changed, and the servers as they are now. */
export interface ToolsChange<F extends ToolFormat = "mcp"> {
  /** The server whose tools changed. */
  server: string;
  /**
   * `list_changed`: it sent `notifications/tools/list_changed` and its tools were listed anew;
   * `failed`: that listing failed or its tools are unusable (the server is left out, with a
   * warning); `closed`: its client's connection closed (the server is left out).
   */
  reason: "list_changed" | "failed" | "closed";
  /** Every watched server's tools now, a new object (the other servers' lists the same arrays): give it to `Shelf.update`. */
  servers: Record<string, ToolOfFormat[F][]>;
  /** The server's new tools, in the format asked; undefined when it is left out. */
  tools?: ToolOfFormat[F][];
}

/** How clients are watched. */
export interface WatchOptions<F extends ToolFormat = "mcp"> {
  /** Called after each change of one server's tools (see ToolsChange). */
  onToolsChanged: (change: ToolsChange<F>) => void;
  /**
   * The MCP SDK's `ToolListChangedNotificationSchema` (from "@modelcontextprotocol/sdk/types.js"),
   * for `setNotificationHandler`; by default toolshelf/mcp's own schema of that method, which the
   * SDK's 1.x releases read.
   */
  notificationSchema?: unknown;
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
  options: ListingOptions & { format?: F } & WatchOptions<F>,
): Promise<{ servers: Record<string, ToolOfFormat[F][]>; clients: Record<string, C>; warnings: string[]; unwatch: () => void }>;
export declare function mcpServers<C extends McpClientLike, F extends ToolFormat = "mcp">(
  clients: C[] | Record<string, C>,
  options?: ListingOptions & { format?: F; onToolsChanged?: undefined },
): Promise<{ servers: Record<string, ToolOfFormat[F][]>; clients: Record<string, C>; warnings: string[] }>;

/**
 * Watches named clients whose tools `servers` holds: on a client's
 * `notifications/tools/list_changed` its tools are listed anew (every page, within the caps) and
 * `onToolsChanged` gets the servers with its new list; a failed listing or a closed client leaves
 * that server out. Notifications during a listing make it read once more (a stale list is not
 * told). The handler is set with `setNotificationHandler`, calling on the one it replaces; a
 * client without it is a warning. Returns `unwatch()`, which puts back what it replaced.
 */
export declare function watchTools<C extends McpClientLike, F extends ToolFormat = "mcp">(
  clients: Array<[string, C]> | Record<string, C>,
  servers: Record<string, ToolOfFormat[F][]>,
  options: Omit<ListingOptions, "signal"> & { format?: F } & WatchOptions<F>,
): () => void;

/** An MCP tool result's content as one tool message: text items as they are, other items as JSON. */
export declare function toolMessage(result: unknown): string;

/**
 * Runs an unwrapped call (kind "call" with a server) through `callTool` on its server's client,
 * under the tool's own (server-side) name. `content` is the tool message to send back. Never
 * rejects for the call's failures: a call no client serves (a direct tool, server "builtin"), a
 * JSON-RPC error and a timeout are `isError: true` results whose `content` says what happened in
 * fixed words (`failureReason`: never the server's own text); `error` holds what was thrown.
 */
export declare function callMcpTool(
  clients: Record<string, McpClientLike>,
  call: Extract<Unwrapped, { kind: "call" }>,
  options?: CallOptions,
): Promise<{ content: string; result: unknown; isError: boolean; error?: unknown }>;

/** A progress notification's params (`notifications/progress`), as the MCP SDK hands them to `onprogress`. */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
  [key: string]: unknown;
}

/**
 * callMcpTool's options: the MCP SDK's RequestOptions, given to `callTool` as they are (others it
 * takes, such as `task`, pass through too).
 */
export interface CallOptions {
  /** Asks the server for progress notifications and hears each; one that throws is ignored. */
  onprogress?: (progress: McpProgress) => void;
  /** Cancels the call: the SDK sends `notifications/cancelled` and the result says it was cancelled. Already aborted: nothing runs. */
  signal?: AbortSignal;
  /** Milliseconds to wait for the result (the SDK's default is 60 seconds). */
  timeout?: number;
  /** Whether each progress notification starts `timeout` again. */
  resetTimeoutOnProgress?: boolean;
  /** Milliseconds to wait at most, whatever the progress. */
  maxTotalTimeout?: number;
  [option: string]: unknown;
}

/** How to reach one server of an MCP client config, or why not (`upstreamSpec`). */
export type UpstreamSpec =
  | { stdio: { command: string; args: string[]; env?: Record<string, string>; cwd?: string } }
  | { http: { url: string; headers?: Record<string, string>; sse: "only" | "fallback" | "never" } }
  | { skip: string }
  | { error: string };

/**
 * How to reach an MCP client config entry (`{command, args, env}` or `{url, headers}`, as desktop
 * clients and IDEs write it): `{ stdio }`, `{ http }`, `{ skip }` (disabled) or `{ error }` (why not).
 */
export declare function upstreamSpec(entry: unknown): UpstreamSpec;

/**
 * Each server's name in a toolbox: its own, except "builtin" (the `defer` pseudo-server), which
 * becomes "builtin_2" (or the next free name), `onWarning` told. What mcpServers and the gateway use.
 */
export declare function serverNames(names: readonly string[], onWarning?: (warning: string) => void): Map<string, string>;

/** A short fixed reason for an MCP failure ("timed out", "HTTP 401", "connection refused", "internal error"…): the only words of it a model reads. */
export declare function failureReason(error: unknown): string;

/** Text with every URL in it stripped of credentials, query and fragment. */
export declare function redact(text: unknown): string;
