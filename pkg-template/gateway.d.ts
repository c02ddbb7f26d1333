// toolshelf/gateway: toolshelf as an MCP server in front of the upstream MCP servers of an MCP
// client config (needs @modelcontextprotocol/sdk). docs/gateway.md.
import type { Assembly, McpTool, Options } from "./types.js";
import type { McpProgress, UpstreamSpec } from "./mcp.js";

/** One server of an MCP client config, as desktop clients and IDEs write it. */
export type UpstreamEntry =
  | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string; type?: "stdio"; disabled?: boolean }
  | { url: string; headers?: Record<string, string>; type?: "http" | "streamable-http" | "sse"; disabled?: boolean };

/** An MCP client config; the `"toolshelf"` key holds the gateway's Shelf options. */
export interface McpClientConfig {
  mcpServers?: Record<string, UpstreamEntry | Record<string, unknown>>;
  /** VS Code's spelling. */
  servers?: Record<string, UpstreamEntry | Record<string, unknown>>;
  toolshelf?: Options;
  [key: string]: unknown;
}

export { upstreamSpec } from "./mcp.js";
export type { UpstreamSpec } from "./mcp.js";

/** A config's upstreams (each an `upstreamSpec`; with `env`, `${NAME}` in an HTTP upstream's url and headers is `env.NAME`) and its `"toolshelf"` options; throws a TypeError when it has no servers object. */
export declare function readConfig(config: unknown, settings?: { env?: Record<string, unknown> }): { upstreams: Record<string, UpstreamSpec>; options: Options };

/** An upstream's state: `ready`, `connecting`, `down` (reconnected with backoff), `failed` (not retried), `disabled`, `idle` (not connected yet). */
export interface UpstreamStatus {
  name: string;
  state: "ready" | "connecting" | "down" | "failed" | "disabled" | "idle";
  /** Tools listed by its last good tools/list. */
  tools: number;
  /** Why it is not ready (or why its last listing failed), in the short fixed words the model reads ("timed out", "HTTP 401"). */
  reason?: string;
  /** The details, for the operator (an upstream's answer, its stderr; URLs without credentials or query). */
  error?: string;
  /** A stdio upstream's process id (the leader of its process group). */
  pid?: number;
  /** Connection attempts since it was last ready. */
  attempts: number;
}

/** A tools/call result as MCP sends it (an upstream's, passed on as it came). */
export interface CallToolResult {
  content: Array<{ type: string; [key: string]: unknown }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** What an SDK `Server` is to the gateway's users: something to connect to a transport. */
export interface GatewayServer {
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
}

export interface GatewayOptions {
  /** The upstreams by name: MCP client config entries or `upstreamSpec`s. */
  upstreams?: Record<string, UpstreamEntry | UpstreamSpec | Record<string, unknown>>;
  /** The Shelf's options (`format` is always `mcp`); `alwaysLoad` pins servers' tools as direct tools. */
  options?: Options;
  /**
   * Bytes of `toolshelf snapshot` / `shelf.snapshot()` (with its toolbox) to serve from at once:
   * the catalog is then the snapshot's, and each upstream is connected on its first call. It must
   * have been made with this gateway's options and format mcp (`toolshelf snapshot --mcp-config`
   * of the same config does so); another snapshot is refused with a TypeError.
   */
  snapshot?: Uint8Array | ArrayBuffer | ArrayBufferView;
  /** Makes an upstream's client transport instead of stdio / Streamable HTTP (an SDK `Transport`). */
  connect?: (name: string, spec: UpstreamSpec) => unknown | Promise<unknown>;
  /**
   * `persistent` (default): one connection per upstream, watched for tools/list_changed and
   * reconnected; `per-call`: a connection per call, closed after it (Workers, whose I/O belongs to a request).
   */
  connection?: "persistent" | "per-call";
  /** Milliseconds to connect to an upstream and list its tools (default 10,000). */
  timeout?: number;
  /** Milliseconds per call in all: progress notifications do not extend it (default 60,000). */
  callTimeout?: number;
  /** Tools kept per upstream (default 10,000) and tools/list pages read (default 1,000). */
  maxTools?: number;
  maxPages?: number;
  /** Reconnection backoff: from `initialMs` (1,000) doubling to `maxMs` (60,000), `maxAttempts` (unbounded) tries. */
  reconnect?: { initialMs?: number; maxMs?: number; maxAttempts?: number };
  /** Hears each warning: an upstream down or left out, a listing cut off, an option repaired. */
  onWarning?: (warning: string) => void;
  /** The server's name and version in initialize (default "toolshelf"). */
  name?: string;
  version?: string;
}

/** toolshelf as an MCP server in front of upstream MCP servers. */
export declare class Gateway {
  constructor(options?: GatewayOptions);
  /** A Gateway of a config's servers and `"toolshelf"` options (`settings.options` laid over them). */
  static fromConfig(config: McpClientConfig, settings?: Omit<GatewayOptions, "upstreams"> & { env?: Record<string, unknown> }): Gateway;
  /** Connects to every upstream and lists its tools (each within `timeout`); idempotent. */
  start(): Promise<UpstreamStatus[]>;
  /** The tools served now: pinned direct tools, then tool_search, tool_describe, tool_call. */
  listTools(): McpTool[];
  /** The facts of the assembly served now (null before the first). */
  readonly assembly: Assembly<McpTool> | null;
  /** The last 100 warnings. */
  readonly warnings: string[];
  status(): UpstreamStatus[];
  /** Called when the served tools changed; returns a function that removes the listener. */
  onToolsChanged(listener: () => void): () => void;
  /** Runs a downstream tools/call; never rejects. */
  callTool(params: { name: string; arguments?: Record<string, unknown> }, options?: { signal?: AbortSignal; onprogress?: (progress: McpProgress) => void }): Promise<CallToolResult>;
  /**
   * A new SDK `Server` serving this gateway, to connect to a transport (one per session).
   * `listChanged: false`: a server of one request, never told of changes (stateless HTTP).
   */
  server(options?: { listChanged?: boolean }): GatewayServer;
  /** Closes the upstream connections (a stdio upstream's process group: stdin closed, SIGTERM after 2 s, SIGKILL after 2 more) and the served Servers; stops reconnecting. */
  close(): Promise<void>;
  /** SIGKILL to every stdio upstream's process group at once (synchronous, for a process that is exiting). */
  kill(): void;
}

/** Whether a request's `Authorization: Bearer` header holds `token` (compared in constant time). */
export declare function bearerMatches(request: Request, token: string): Promise<boolean>;

/** What `httpHandler` takes. */
export interface HttpHandlerOptions {
  /** The bearer token (16 characters at least): 401 without it, before the body is read. */
  token: string;
  /** Default "/mcp". */
  path?: string;
  /** Origins whose browsers may call: a request with another `Origin` gets 403 (none without an Origin). */
  allowedOrigins?: string[];
  /** `Host` values accepted (a loopback bind's own names: DNS rebinding); any when undefined. */
  allowedHosts?: string[];
  /**
   * Keep a Server per client session (list_changed on its GET stream, cancellation reaching its
   * calls): released on DELETE, `goneMs` (10,000) after its GET stream closes with nothing else
   * open, `idleMs` (30 minutes) after its last exchange, or when `max` (1,000) are open. Default:
   * stateless (a Server per POST; GET and DELETE 405).
   */
  sessions?: boolean | { idleMs?: number; goneMs?: number; max?: number };
}

/**
 * A fetch handler serving the gateway over MCP Streamable HTTP at `path`: 403 for an Origin or Host
 * not allowed, 401 without the token, 413 for a body over 4 MiB. `close()` ends its sessions.
 */
export declare function httpHandler(gateway: Gateway, options: HttpHandlerOptions): ((request: Request) => Promise<Response>) & { close(): Promise<void> };
