// The types of toolshelf's API, written once; index.d.ts and slim.d.ts re-export them.

/**
 * The .wasm's bytes, for the loaders. Written without the DOM's `BufferSource` so projects that do
 * not load lib "dom" (Node with @types/node) compile; it also takes a Node `Buffer` as it is.
 */
export type WasmBytes = ArrayBuffer | ArrayBufferView;
/** A compiled `WebAssembly.Module` where the WebAssembly types are loaded (lib "dom", Workers types). */
export type WasmModule = typeof globalThis extends { WebAssembly: { Module: abstract new (...args: never[]) => infer M } } ? M : never;

/** JSON Schema of a tool's parameters, as the caller wrote it. */
export type JsonSchema = { [key: string]: unknown };

/** OpenAI Chat Completions tool. */
export interface OpenAiTool {
  type: "function";
  function: { name: string; description?: string; parameters?: JsonSchema; strict?: boolean | null };
}
/** OpenAI Responses tool. */
export interface ResponsesTool {
  type: "function";
  name: string;
  description?: string | null;
  parameters?: JsonSchema | null;
  strict?: boolean | null;
}
/** Anthropic Messages tool. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: JsonSchema;
  [key: string]: unknown;
}
/** MCP `tools/list` item. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: { [key: string]: unknown };
  [key: string]: unknown;
}
/** Gemini function declaration. */
export interface GeminiTool {
  name: string;
  description?: string;
  parameters?: JsonSchema;
}
/** One tool def in any supported format (all tools of one toolbox share one format). */
export type ToolDef = OpenAiTool | ResponsesTool | AnthropicTool | McpTool | GeminiTool;
export type ToolFormat = "openai" | "responses" | "anthropic" | "mcp" | "gemini";

/**
 * Everything one session may use. A flat list (tools named `mcp__<server>__<tool>` are deferred,
 * the rest direct) or direct `tools` plus deferred tools by server.
 */
export type Toolbox<T extends ToolDef = ToolDef> = T[] | { tools?: T[]; servers?: Record<string, T[]> };

export type TriState = "auto" | "on" | "off" | boolean | "yes" | "no" | "1" | "0" | 1 | 0;

/** Options of {@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#3-assembletoolbox-options--assembly SPEC §3.1}; each also accepted in snake_case. Never throws: repairs become warnings. */
export interface Options {
  /** The model's context window in tokens. */
  contextLength?: number;
  /** `off`: everything passes through, no bridge. Default `auto`. */
  enabled?: TriState;
  /** Listing budget as a percentage of the context (0–100, default 5). */
  thresholdPct?: number;
  /** Absolute cap of the listing budget (200–60000, default 20000). */
  listingMaxTokens?: number;
  /** `off`: bridge without listing; `on`: never less than the server summary lines. Default `auto`. */
  listing?: TriState;
  /** Hits when a search gives no limit (default 5). */
  searchDefaultLimit?: number;
  /** Hard cap on a search's limit (1–50, default 20). */
  maxSearchLimit?: number;
  /** Batched bridge shapes (several queries / names per call). */
  batch?: boolean;
  /**
   * Search ranks full matches before partial ones ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#4-searchtoolbox-query-options--searchresult SPEC §4.3}, the default `true`); `false` ranks
   * every match by score and only marks the partial ones (measured slightly better on keyword
   * queries: https://github.com/toolshelf/toolshelf/blob/main/docs/search.md).
   */
  fullMatchesFirst?: boolean;
  /** Bridge tool names, e.g. `{ call: "invoke_tool" }` where a chat template reserves `tool_call`. */
  bridgeNames?: { search?: string; describe?: string; call?: string } | [string, string, string];
  /**
   * Servers and single tools kept direct: a server's name, `"server/tool"` (its own name), or a
   * tool's name (every server's tool of that name). A tool kept direct keeps its server, so its
   * call unwraps to `{server, tool}` (`callMcpTool` runs it). Also a comma-separated string.
   */
  alwaysLoad?: string[] | string;
  /**
   * Tools deferred anyway, named as in `alwaysLoad`: for a server's tool the more precise entry of
   * the two wins and `defer` wins a tie; the caller's own direct tools go under server `builtin`.
   */
  defer?: string[] | string;
  /**
   * Words a tool is also found by, indexed as its description's: `{ "github/get_file_contents":
   * "read a README" }`, each entry named as in `alwaysLoad`. An MCP tool's own `title`,
   * `annotations.title` and `_meta["anthropic/searchHint"]` count too.
   */
  hints?: Record<string, string>;
  /**
   * Send every tool as it is (tier 0, no bridge) when the deferred tools' tokens fit the listing
   * budget (`true`), and this cap too (a number, 100–60000). Off by default ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#3-assembletoolbox-options--assembly SPEC §3.3} bridges
   * whenever a tool is deferred). Measured: pays off for toolboxes up to about 1,000 tokens
   * (https://github.com/toolshelf/toolshelf/blob/main/docs/options.md), so `1000` is the suggested setting.
   */
  directWhenFits?: boolean | number;
  /** Force the toolbox format instead of detecting it. */
  format?: ToolFormat;
  /**
   * The names a server's tools are shown under. `true` (the default): `mcp__<server>__<tool>`
   * for every one, a pure function of the server and the tool made provider-valid (a part that is
   * not gets a short hash), so a name means one tool whatever attaches or detaches. `"auto"`: a
   * tool's own name, renamed so only where another tool also has it (GitHub's and Linear's
   * `list_issues`), with a warning: a weaker guarantee, as a name can change meaning when a server
   * attaches. `false`: own names, a clash a `duplicate_tool` error. Two direct tools with one name
   * are always that error. Also `"yes"`/`"no"`/`1`/`0`.
   */
  qualify?: "auto" | boolean | "true" | "false" | "yes" | "no" | 0 | 1;
  /**
   * `"native"`: the provider loads the deferred tools itself ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#11-native-tool-search-mode-native SPEC §11}), for the `anthropic`
   * format (every deferred tool with `defer_loading`, searches answered with `tool_reference`
   * blocks) and the `responses` format (a client `tool_search` tool, searches answered with a
   * `tool_search_output` item); any other format keeps the bridge, with a warning. Default `"bridge"`.
   */
  mode?: Mode;
  /**
   * Native searches (both providers): the most tokens of tool definitions one answer loads
   * (100–1000000). The top match and tools named exactly always load; the other matches are
   * named (a text block, or the first namespace's description), so a search of an exact name
   * loads one. Unset by default. See https://github.com/toolshelf/toolshelf/blob/main/docs/options.md for the measured trade.
   */
  loadMaxTokens?: number;
  /**
   * Native searches (both providers): the most tools one answer loads (1–50, default 1: a native
   * session then costs no more than the bridge's, https://github.com/toolshelf/toolshelf/blob/main/docs/benchmarks.md). A query that is a tool's
   * exact name loads that tool alone; tools the conversation loaded already do not count.
   */
  loadLimit?: number;
  [snakeCase: string]: unknown;
}

export type Level = "full" | "names" | "summary" | "hidden";
export type Form = "none" | "full" | "names" | "mixed" | "groups";

/** The client tool search tool of OpenAI Responses (native mode, {@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#11-native-tool-search-mode-native SPEC §11}). */
export interface ResponsesToolSearch {
  type: "tool_search";
  execution: "client";
  description: string;
  parameters: JsonSchema;
}
/** One tool of an assembly: native Responses adds its `tool_search` to the toolbox's format. */
export type AssembledTool<T extends ToolDef> = T extends ResponsesTool ? T | ResponsesToolSearch : T;

/** The model-visible tools for one request, and facts about them. */
export interface Assembly<T extends ToolDef = ToolDef> {
  /**
   * Direct tools (the very objects given) then the bridge tools, in the toolbox's format; in
   * native mode the search tool (Anthropic: and the deferred tools with `defer_loading`).
   */
  tools: AssembledTool<T>[];
  tier: 0 | 1 | 2;
  form: Form;
  deferredCount: number;
  /** The deferred tools' summed token estimates. */
  deferredTokens: number;
  budgetTokens: number;
  listingTokens: number;
  servers: { name: string; tools: number; level: Level }[];
  /** Stable hex hash of the tools array's compact JSON, equal in every runtime: a prompt-cache key. */
  fingerprint: string;
  /** `"native"` when the provider loads the deferred tools itself ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#11-native-tool-search-mode-native SPEC §11}). */
  mode: "bridge" | "native";
  /** What the model's context pays for the array (tokens, estimated): Anthropic keeps deferred tools out. */
  contextTokens: number;
  /** The array's compact JSON in UTF-8 bytes: what the request sends. */
  requestBytes: number;
  warnings: string[];
}

/** A request's conversation so far, for `assemble` in native Anthropic mode (its `tool_reference` blocks). */
/**
 * The conversation so far ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#14-conversations-correct-across-turns-not-only-call-by-call SPEC §14}): Anthropic `messages`, Responses `input` items, or the array
 * itself. Only what names tools is read (references, search outputs, calls); the rest is skipped
 * whatever its depth.
 */
export type AssembleContext = { messages: readonly unknown[] } | { input: readonly unknown[] } | readonly unknown[];

export type ErrorCode =
  | "invalid_toolbox"
  | "invalid_tool"
  | "duplicate_tool"
  | "mixed_formats"
  | "invalid_call"
  | "too_large"
  | "invalid_snapshot"
  /** Vectors that do not fit ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#12-semantic-retrieval-embeddings-the-caller-supplies SPEC §12}): another model or dimension, a wrong count, not finite numbers. */
  | "invalid_embeddings"
  | "not_initialized"
  /** A method of a `Shelf` called after its `free()`. */
  | "freed"
  /** The wasm instance trapped: a defect of toolshelf's (please report the input). */
  | "internal_error";

/** A programmer error with a stable code and a message that says where. */
export declare class ToolshelfError extends Error {
  readonly name: "ToolshelfError";
  readonly code: ErrorCode;
}

/** One search hit. */
export interface SearchMatch {
  name: string;
  server: string;
  /** The whole description. */
  description: string;
  /** The schema's required parameter names. */
  required: string[];
  score: number;
  /**
   * Whether the tool misses one of the query's distinctive words (one the catalog holds), or the
   * query has words no tool holds (`unknownWords`). Partial matches rank after every full match.
   */
  partial: boolean;
}

/** What search returns. `servers` is present only when nothing matched. */
export interface SearchResult {
  query: string;
  /** How many deferred tools the search ran over; what the model reads says `total_available` ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#4-searchtoolbox-query-options--searchresult SPEC §4}'s snake_case JSON). */
  totalAvailable: number;
  matches: SearchMatch[];
  /**
   * The query's words that no tool holds (after stemming and normalisation), as written in the
   * query, filler words excluded; when there are some, every match is partial. Empty otherwise.
   */
  unknownWords: string[];
  servers?: { name: string; tools: number }[];
  /** A model error such as an empty query. */
  error?: string;
}

/** A deferred tool as the model loads it. */
export interface Described {
  name: string;
  server: string;
  description: string;
  parameters: JsonSchema;
}

/** A model's tool call in any provider's shape. */
export type ToolCall =
  | { name: string; arguments?: Record<string, unknown> | string; id?: string }
  | { id: string; type: "function"; function: { name: string; arguments: string } }
  /** `namespace`: a function a `tool_search_output` loaded (native Responses), routed to that server. */
  | { type: "function_call"; call_id: string; name: string; arguments: string; id?: string; namespace?: string }
  | { type: "tool_use"; id: string; name: string; input: unknown }
  /** An OpenAI Chat custom tool call: toolshelf makes no custom tools, so it is a reject. */
  | { id: string; type: "custom"; custom: { name: string; input: string } }
  | { name: string; args?: Record<string, unknown>; id?: string };

/** An OpenAI Responses `tool_search_call` item (native mode, {@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#11-native-tool-search-mode-native SPEC §11}). */
export interface ToolSearchCall {
  type: "tool_search_call";
  call_id?: string | null;
  arguments?: unknown;
  id?: string | null;
  execution?: "server" | "client";
  status?: "in_progress" | "completed" | "incomplete" | null;
}

/** A block of an Anthropic `tool_result` that answers a native search: a loaded tool, or a note. */
export type ToolResultBlock = { type: "tool_reference"; tool_name: string } | { type: "text"; text: string };

/** A Responses function loaded by a search, inside its server's namespace. */
export interface NamespaceFunction {
  type: "function";
  name: string;
  description?: string | null;
  parameters?: JsonSchema | null;
  strict?: boolean | null;
}
/** The input item that answers a `tool_search_call`: the matches as per-server namespaces. */
export interface ToolSearchOutputItem {
  type: "tool_search_output";
  call_id: string | null;
  execution: "client";
  status: "completed";
  tools: { type: "namespace"; name: string; description: string; tools: NamespaceFunction[] }[];
}

/** What unwrap makes of a `tool_search_call`: the item to append after it (a reject's has no tools). */
export type SearchCallUnwrapped =
  | { kind: "answer"; item: ToolSearchOutputItem; id?: string }
  | { kind: "reject"; content: string; item: ToolSearchOutputItem; id?: string };

/**
 * A search answer's content: text, or for Anthropic tools with `mode: "native"` (known as such
 * where the Shelf was made) `tool_reference` blocks, which a `tool_result`'s `content` takes as
 * they are. Text for a toolbox of any other (or unknown) tool type or mode. Anthropic tools are
 * known by their `input_schema`: toolshelf's `AnthropicTool` and `@anthropic-ai/sdk`'s `Tool`
 * alike (its blocks are assignable to the SDK's `ToolResultBlockParam["content"]`).
 */
export type AnswerContent<T extends ToolDef = ToolDef, M extends Mode = "bridge"> =
  [M] extends ["native"] ? ([T] extends [{ name: string; input_schema: object }] ? string | ToolResultBlock[] : string) : string;

/** The `mode` option's values. */
export type Mode = "bridge" | "native";
/** Options whose `mode` is `M` (so that a `Shelf` knows its mode's result types). */
export type ModeOptions<M extends Mode> = Options & { mode?: M };

/** What unwrap makes of a tool call. */
export type Unwrapped<T extends ToolDef = ToolDef, M extends Mode = "bridge"> =
  | {
      kind: "call";
      /** The name as the model knows it. */
      name: string;
      /** Where to send it: the server and its own name for the tool. */
      server?: string;
      tool?: string;
      arguments: Record<string, unknown>;
      id?: string;
      viaBridge: boolean;
      /**
       * For the agent, not the model: present when the arguments passed without being judged in
       * full (their schema costs more to check than the validator's work bound; fail-open).
       */
      warnings?: string[];
    }
  | { kind: "answer"; content: AnswerContent<T, M>; id?: string }
  | {
      kind: "reject";
      content: string;
      id?: string;
      /** `unavailable_tool`: the conversation knew the tool, and the toolbox no longer holds it. */
      code?: "unavailable_tool";
    };

export interface SearchOptions extends Options {
  /** Hits wanted (default `searchDefaultLimit`, clamped to `maxSearchLimit`). */
  limit?: number;
}

/**
 * Stateless assemble: the model-visible tools for `toolbox` under `options`, as
 * `new Shelf(toolbox, options).assemble()` gives them (and with the same errors). Nothing is kept
 * after the call; an agent that wants speed across turns keeps a `Shelf`.
 */
export declare function assemble<T extends ToolDef>(toolbox: Toolbox<T>, options?: Options, context?: AssembleContext): Assembly<T>;
/** Stateless search over the toolbox's deferred tools. */
export declare function search(toolbox: Toolbox, query: string, options?: SearchOptions): SearchResult;
/** Stateless describe: a deferred tool's whole description and schema, or null. */
export declare function describe(toolbox: Toolbox, name: string, options?: Options): Described | null;
/** Stateless unwrap: the model's tool call → the real call, a local answer, or a reject. */
// A tool call's overload comes first: a call typed `any` (from JSON.parse) is read as one.
export declare function unwrap<T extends ToolDef, M extends Mode = "bridge">(toolbox: Toolbox<T>, call: ToolCall, options?: ModeOptions<M>, context?: AssembleContext): Unwrapped<T, M>;
export declare function unwrap<T extends ToolDef>(toolbox: Toolbox<T>, call: ToolSearchCall, options?: Options, context?: AssembleContext): SearchCallUnwrapped;
export declare function unwrap<T extends ToolDef, M extends Mode = "bridge">(toolbox: Toolbox<T>, call: ToolCall | ToolSearchCall, options?: ModeOptions<M>, context?: AssembleContext): Unwrapped<T, M> | SearchCallUnwrapped;

/** A toolbox prepared once with its options, for agents that keep the same tools across turns. */
export declare class Shelf<T extends ToolDef = ToolDef, M extends Mode = "bridge"> {
  constructor(toolbox: Toolbox<T>, options?: ModeOptions<M>);
  /**
   * The model-visible tools. With `context` (`{ messages }`) in native Anthropic mode, only the
   * deferred tools the conversation's `tool_reference` blocks name travel ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#11-native-tool-search-mode-native SPEC §11}).
   */
  assemble(context?: AssembleContext): Assembly<T>;
  /** With `vector` (the query's embedding, same model as setEmbeddings'), similarity is fused in ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#12-semantic-retrieval-embeddings-the-caller-supplies SPEC §12}). */
  search(query: string, options?: { limit?: number; vector?: Vector }): SearchResult;
  describe(name: string): Described | null;
  /** With `context` (the conversation so far), names route by what the history bound ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#14-conversations-correct-across-turns-not-only-call-by-call SPEC §14}). */
  unwrap(call: ToolCall, context?: AssembleContext): Unwrapped<T, M>; // first: a call typed `any` is a tool call
  unwrap(call: ToolSearchCall, context?: AssembleContext): SearchCallUnwrapped;
  unwrap(call: ToolCall | ToolSearchCall, context?: AssembleContext): Unwrapped<T, M> | SearchCallUnwrapped;
  /** What to embed of each deferred tool, in order; `key` is a hash of `text` ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#12-semantic-retrieval-embeddings-the-caller-supplies SPEC §12}). */
  embeddingTexts(): EmbeddingText[];
  /**
   * The deferred tools' vectors: in embeddingTexts order (they replace any held), or by key, a
   * Map or a Record (added to those held, same model and dimension; keys no deferred tool has are
   * ignored and listed in `unknownKeys`). `null` drops them. Every input is checked first
   * ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#15-robustness-of-the-optional-parts-embeddings-snapshots-cli SPEC §15}): throws `invalid_embeddings` naming the first bad vector and why (empty, another length,
   * NaN, infinite or beyond float32, all zero, not numbers; an empty model name; no vectors; no
   * key of this shelf), the shelf left as it was.
   */
  setEmbeddings(embeddings: { model: string; vectors: Vector[] | Record<string, Vector> | Map<string, Vector> } | null): EmbeddingsStored;
  /**
   * `unwrap`, a `tool_search` call's queries embedded by `embed` (one call per distinct query) and
   * fused into the search. Bounded by `timeoutMs` (default 10,000) and `signal`: a query whose
   * vector is late, unusable or whose `embed` failed is searched lexically, with a `warnings` line.
   */
  unwrapAsync(call: ToolCall, options?: UnwrapAsyncOptions): Promise<Unwrapped<T, M> & { warnings?: string[] }>;
  unwrapAsync(call: ToolSearchCall, options?: UnwrapAsyncOptions): Promise<SearchCallUnwrapped & { warnings?: string[] }>;
  unwrapAsync(
    call: ToolCall | ToolSearchCall,
    options?: UnwrapAsyncOptions,
  ): Promise<(Unwrapped<T, M> | SearchCallUnwrapped) & { warnings?: string[] }>;
  /**
   * Prepares `toolbox` in place of this shelf's toolbox, with the same options: the results are a
   * new Shelf's. A tool def that is the very same object as in the shelf's last toolbox, in the
   * same server's list, is kept as prepared; every other def is read anew (give a changed tool as
   * a new object: a def changed in place is not seen). On error the shelf is unchanged.
   */
  update(toolbox: Toolbox<T>): void;
  /** Releases the wasm memory now rather than at garbage collection. */
  free(): void;
  /**
   * The shelf as bytes for `Shelf.fromSnapshot` ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#13-snapshots-ready-at-startup SPEC §13}, §15), its search index built first if no
   * search has built it. A snapshot holds the toolbox's JSON text (unless `{ toolbox: false }`:
   * then its fingerprint, and `fromSnapshot` needs the toolbox), the options, the search index and
   * the embeddings `setEmbeddings` gave (as stored: int8 with a scale per vector); nothing of a
   * conversation (a history and the names it binds come with each call).
   */
  snapshot(options?: { toolbox?: boolean }): Uint8Array;
  /**
   * A Shelf loaded from a snapshot, answering byte for byte as the shelf it was taken of: as
   * `new Shelf(toolbox, options)` with the same `setEmbeddings` (vector searches and `unwrapAsync`
   * included). The toolbox may be left out when the snapshot holds it (given, it is checked against
   * the snapshot's); options, when given, must read as the snapshot's. The tools are read from the
   * toolbox's text as `new Shelf` reads them, the index and vectors checked (counts, offsets,
   * indexes, order, UTF-8, one vector per deferred tool). Throws a `ToolshelfError` with code
   * `invalid_snapshot` and a reason for bytes truncated, corrupt, of another version or forged, and
   * for a toolbox or options that differ.
   */
  static fromSnapshot<T extends ToolDef = ToolDef>(
    bytes: Uint8Array | ArrayBuffer | ArrayBufferView,
    toolbox?: Toolbox<T> | null,
    options?: Options | null,
  ): Shelf<T>;
}

/** A vector: a Float32Array or an array of numbers. */
export type Vector = Float32Array | readonly number[];

/** One deferred tool's embedding text ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#12-semantic-retrieval-embeddings-the-caller-supplies SPEC §12}). */
export interface EmbeddingText {
  /** 16 hex digits: FNV-1a 64 of `text`, for keeping vectors across shelves and deployments. */
  key: string;
  /** `[server words] name words: description` (https://github.com/toolshelf/toolshelf/blob/main/docs/search.md, "Semantic retrieval"). */
  text: string;
}

/** What a shelf holds after `setEmbeddings`. */
export interface EmbeddingsStored {
  /** Deferred tools with a vector. */
  stored: number;
  /** Deferred tools without one (ranked lexically). */
  missing: number;
  /** The keys given that no deferred tool has (ignored), in the order given. */
  unknownKeys: string[];
}

/** How `Shelf.unwrapAsync` embeds a search query, and how long it waits ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#15-robustness-of-the-optional-parts-embeddings-snapshots-cli SPEC §15}). */
export interface UnwrapAsyncOptions {
  /**
   * The query's embedding, of the model given to setEmbeddings. `signal` aborts when unwrapAsync
   * stops waiting (timeout or the caller's signal): pass it on to `fetch` to stop the request.
   */
  embed?: (text: string, options: { signal: AbortSignal }) => Vector | Promise<Vector>;
  /**
   * The longest wait for `embed`, in milliseconds (default 10,000; `Infinity`: no time bound).
   * A query not embedded in time is searched lexically, with a warning.
   */
  timeoutMs?: number;
  /** Stops the wait when aborted (already aborted: `embed` is not called); the search is then lexical, with a warning. */
  signal?: AbortSignal;
}
