// toolshelf/ai, the native path for @ai-sdk/anthropic (SPEC §11): `createAnthropicNativeToolshelf`
// gives generateText/streamText the direct tools as they are, toolshelf's search tool (never
// deferred, the listing in its description) whose answer goes to the model as tool-reference parts,
// and every deferred tool with `providerOptions.anthropic.deferLoading`, its `execute` running the
// real tool after validation. `prepareStep` keeps only the deferred tools the conversation has
// loaded in the request (`activeTools`), as `assemble({ messages })` does.
import { asSchema, jsonSchema, tool as aiTool } from "ai";
import { Shelf } from "toolshelf";

/** The JSON Schema of an AI SDK tool's input, else any object (as toolshelf/ai reads it). */
function inputSchemaOf(tool) {
  try {
    const schema = asSchema(tool?.inputSchema).jsonSchema;
    return schema && typeof schema === "object" && !("then" in schema) ? { type: "object", ...schema } : { type: "object" };
  } catch {
    return { type: "object" };
  }
}

/** An AI SDK tool as an Anthropic tool def. */
function anthropicDef(name, tool) {
  return { name, description: typeof tool?.description === "string" ? tool.description : "", input_schema: inputSchemaOf(tool) };
}

/** A native search answer (tool_reference blocks, a text block) as the AI SDK's tool output. */
function referenceOutput({ output }) {
  if (!Array.isArray(output)) return { type: "text", value: String(output) }; // a reject's text
  return {
    type: "content",
    value: output.map((block) => (block.type === "tool_reference"
      ? { type: "custom", providerOptions: { anthropic: { type: "tool-reference", toolName: block.tool_name } } }
      : { type: "text", text: block.text })),
  };
}

/** The names the conversation's tool-reference parts loaded (AI SDK model messages). */
function loadedNames(messages = []) {
  const names = new Set();
  for (const message of messages) {
    if (message?.role !== "tool" || !Array.isArray(message.content)) continue;
    for (const part of message.content) {
      const value = part?.type === "tool-result" && part.output?.type === "content" ? part.output.value : [];
      for (const item of value) {
        const reference = item?.type === "custom" ? item.providerOptions?.anthropic : undefined;
        if (reference?.type === "tool-reference" && typeof reference.toolName === "string") names.add(reference.toolName);
      }
    }
  }
  return names;
}

/**
 * Direct tools plus deferred tools by server (ToolSets) → `{ tools, prepareStep, shelf, assembly }`
 * for @ai-sdk/anthropic. `onCall(call, execution)` sees each real call first (return a string to
 * decline it, with that reason for the model).
 */
export function createAnthropicNativeToolshelf({ tools: direct = {}, servers = {}, options = {}, onCall } = {}) {
  const toolbox = {
    tools: Object.entries(direct).map(([name, tool]) => anthropicDef(name, tool)),
    servers: Object.fromEntries(Object.entries(servers).map(([server, set]) => [server, Object.entries(set).map(([n, t]) => anthropicDef(n, t))])),
  };
  const shelf = new Shelf(toolbox, { ...options, format: "anthropic", mode: "native" });
  const assembly = shelf.assemble();
  const directDefs = new Set(toolbox.tools);

  async function run(name, input, execution) {
    const u = shelf.unwrap({ type: "tool_use", id: execution?.toolCallId ?? "", name, input: input ?? {} });
    if (u.kind !== "call") return u.content; // a search's blocks, a describe, or a reject: nothing ran
    const call = { name: u.name, server: u.server, tool: u.tool ?? u.name, arguments: u.arguments };
    const verdict = onCall ? await onCall(call, execution) : undefined;
    if (typeof verdict === "string") return verdict;
    const real = u.server !== undefined && Object.hasOwn(servers, u.server) ? servers[u.server][call.tool] : direct[call.tool];
    if (typeof real?.execute !== "function") return `${call.tool} has no execute function here; it was not invoked.`;
    return real.execute(u.arguments, execution);
  }

  const tools = {};
  const always = [];
  for (const def of assembly.tools) {
    if (directDefs.has(def)) {
      tools[def.name] = direct[def.name];
      always.push(def.name);
      continue;
    }
    const deferred = def.defer_loading === true;
    tools[def.name] = aiTool({
      description: def.description,
      inputSchema: jsonSchema(def.input_schema),
      execute: (input, execution) => run(def.name, input, execution),
      ...(deferred ? { providerOptions: { anthropic: { deferLoading: true } } } : { toModelOutput: referenceOutput }),
    });
    if (!deferred) always.push(def.name);
  }
  return {
    tools,
    shelf,
    assembly,
    /** For generateText/streamText: only the deferred tools the conversation loaded are sent. */
    prepareStep({ messages } = {}) {
      if (assembly.mode !== "native") return undefined;
      const loaded = [...loadedNames(messages)].filter((name) => Object.hasOwn(tools, name) && !always.includes(name));
      return { activeTools: [...always, ...loaded] };
    },
  };
}
