// toolshelf/ai, the native path for @ai-sdk/anthropic (SPEC §11).
import type { ToolSet } from "ai";
import type { AnthropicTool, Assembly, Shelf } from "./types.js";
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
