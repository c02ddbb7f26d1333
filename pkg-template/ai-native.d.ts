// toolshelf/ai, the native paths for @ai-sdk/anthropic and @ai-sdk/openai ({@link https://github.com/toolshelf/toolshelf/blob/main/docs/SPEC.md#11-native-tool-search-mode-native SPEC §11}); the
// factories are declared in ai.d.ts (toolshelf/ai), which adds the bridge fallback.
import type { JSONValue, ModelMessage, ToolCallRepairFunction, ToolSet } from "ai";
import type { AnthropicTool, Assembly, ResponsesTool, Shelf } from "./types.js";
import type { ServersInput } from "./ai.js";

export interface AnthropicNativeToolshelf {
  /**
   * For generateText/streamText: the direct tools (your objects), the search tool (its answers
   * go to the model as tool-reference parts) and every deferred tool under the name the core sends
   * it by (`mcp__<server>__<tool>`, provider-valid: sentry's `events.search` is
   * `mcp__sentry__events_search-57e62340`), with
   * `providerOptions.anthropic.deferLoading`; `prepareStep` adds the names a conversation uses
   * (their tool, or a stand-in answering `unavailable_tool`). Updated in place.
   */
  readonly tools: ToolSet;
  /**
   * For generateText/streamText: reads the servers (a function's, maybe async: then a promise),
   * and sends what `assemble({ messages })` carries for the conversation: `activeTools` is the
   * direct tools, the search tool and the tools the conversation loaded.
   */
  prepareStep: (options?: { messages?: readonly unknown[] }) => { activeTools: string[] } | Promise<{ activeTools: string[] }>;
  /**
   * For generateText/streamText's `repairToolCall`: a name the step's tools do not hold is the
   * tool it stands for (a loaded tool called by its own name, while one tool has it), else fails
   * with toolshelf's reject text, which the model reads instead of the SDK's list of tools.
   */
  repairToolCall: ToolCallRepairFunction<ToolSet>;
  /** Re-assembles with other servers; a failure leaves the adapter as it was (a promise for an async function). */
  update(servers: ServersInput): void | Promise<void>;
  /** The prepared toolbox (its defs carry a `toolshelf_source` mark the adapter reads; nothing sends them). */
  readonly shelf: Shelf<AnthropicTool, "native">;
  /** The toolbox's assembly (every deferred tool; mode, listing, contextTokens, warnings, fingerprint). */
  readonly assembly: Assembly<AnthropicTool>;
  /** The adapter's own warnings (servers left out or renamed); also first in `assembly.warnings`. */
  readonly warnings: string[];
}

/** What toolshelf gives the SDK's tool search factory (`openai.tools.toolSearch` of @ai-sdk/openai). */
export interface OpenAIToolSearchArgs {
  execution: "client";
  /** The listing: what the deferred tools are and how a search loads them. */
  description: string;
  /** `{ query, limit? }`, or the batched shape. */
  parameters: Record<string, unknown>;
  /** Answers a `tool_search_call` with the matches to load, as per-server namespaces. */
  execute: (input: { arguments?: unknown; call_id?: string | null }, options?: { toolCallId?: string; messages?: readonly unknown[] }) => Promise<{ tools: Array<{ [key: string]: JSONValue | undefined }> }>;
}

export interface OpenAINativeToolshelf {
  /**
   * For generateText/streamText: the direct tools (your objects), the SDK's client `tool_search`
   * answered by toolshelf, and every deferred tool as your own tool with
   * `providerOptions.openai.omitFromRequestTools` (out of the request until a search loads it).
   * In its server's namespace a function has its name here: the name the core shows the tool
   * under (`mcp__<server>__<tool>`, e.g. `mcp__sentry__events_search-57e62340`; where a direct
   * tool of yours has that name, the deferred one takes a suffix); a name once given keeps its
   * tool for the adapter's life. Updated in place.
   */
  readonly tools: ToolSet;
  /**
   * For generateText/streamText: reads the servers (a function's, maybe async: then a promise);
   * `activeTools` is the direct tools, the search tool and the functions the conversation loaded;
   * a rejected search's reason follows its result as a system message.
   */
  prepareStep: (options?: { messages?: readonly ModelMessage[] }) => Step | Promise<Step>;
  /** For generateText/streamText's `repairToolCall`: as AnthropicNativeToolshelf's. */
  repairToolCall: ToolCallRepairFunction<ToolSet>;
  /** Re-assembles with other servers; a failure leaves the adapter as it was (a promise for an async function). */
  update(servers: ServersInput): void | Promise<void>;
  /** The prepared toolbox (its defs carry a `toolshelf_source` mark the adapter reads; nothing sends them). */
  readonly shelf: Shelf<ResponsesTool, "native">;
  /** The toolbox's assembly (mode, listing, contextTokens, warnings, fingerprint). */
  readonly assembly: Assembly<ResponsesTool>;
  /** The adapter's own warnings (servers left out or renamed); also first in `assembly.warnings`. */
  readonly warnings: string[];
}

/** What the OpenAI adapter's prepareStep gives the SDK. */
type Step = { activeTools: string[]; messages?: ModelMessage[] };
