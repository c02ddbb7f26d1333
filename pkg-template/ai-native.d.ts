// toolshelf/ai, the native paths for @ai-sdk/anthropic and @ai-sdk/openai (SPEC §11).
import type { JSONValue, ModelMessage, Tool, ToolSet } from "ai";
import type { AnthropicTool, Assembly, ResponsesTool, Shelf } from "./types.js";
import type { ToolshelfInput } from "./ai.js";

export interface AnthropicNativeToolshelf {
  /**
   * For generateText/streamText: the direct tools (your objects), the search tool (its answers
   * go to the model as tool-reference parts) and every deferred tool with
   * `providerOptions.anthropic.deferLoading`, whose `execute` validates and runs the real tool.
   */
  readonly tools: ToolSet;
  /** For generateText/streamText: sends only the deferred tools the conversation loaded (`activeTools`). */
  prepareStep: (options?: { messages?: readonly unknown[] }) => { activeTools: string[] } | undefined;
  /** The prepared toolbox. */
  readonly shelf: Shelf<AnthropicTool, "native">;
  /** The assembly's facts (mode, listing, contextTokens, warnings, fingerprint). */
  readonly assembly: Assembly<AnthropicTool>;
}

/** Direct tools plus deferred tools by server → native Anthropic tool search for the AI SDK. */
export declare function createAnthropicNativeToolshelf(
  input?: Omit<ToolshelfInput, "servers"> & { servers?: Record<string, ToolSet> },
): AnthropicNativeToolshelf;

/** What toolshelf gives the SDK's tool search factory (`openai.tools.toolSearch` of @ai-sdk/openai). */
export interface OpenAIToolSearchArgs {
  execution: "client";
  /** The listing: what the deferred tools are and how a search loads them. */
  description: string;
  /** `{ query, limit? }`, or the batched shape. */
  parameters: Record<string, unknown>;
  /** Answers a `tool_search_call` with the matches to load, as per-server namespaces. */
  execute: (input: { arguments?: unknown; call_id?: string | null }) => Promise<{ tools: Array<{ [key: string]: JSONValue | undefined }> }>;
}

export interface OpenAINativeToolshelf {
  /**
   * For generateText/streamText: the direct tools (your objects), the SDK's client `tool_search`
   * answered by toolshelf, and every deferred tool as your own tool with
   * `providerOptions.openai.omitFromRequestTools` (out of the request until a search loads it;
   * in a namespace under its name here: its own, or `mcp__<server>__<tool>` where two share it).
   */
  readonly tools: ToolSet;
  /** For generateText/streamText: a rejected search's reason follows its result as a system message. */
  prepareStep: (options?: { messages?: readonly ModelMessage[] }) => { messages: ModelMessage[] } | undefined;
  /** The prepared toolbox. */
  readonly shelf: Shelf<ResponsesTool, "native">;
  /** The assembly's facts (mode, listing, contextTokens, warnings, fingerprint). */
  readonly assembly: Assembly<ResponsesTool>;
}

/** Direct tools plus deferred tools by server → native OpenAI Responses tool search for the AI SDK. */
export declare function createOpenAINativeToolshelf(
  input: Omit<ToolshelfInput, "servers" | "toolApproval"> & {
    /** The SDK's factory: `openai.tools.toolSearch` from @ai-sdk/openai. */
    toolSearch: (args: OpenAIToolSearchArgs) => Tool<any, any>;
    servers?: Record<string, ToolSet>;
  },
): OpenAINativeToolshelf;
