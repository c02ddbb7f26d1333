// toolshelf/ai, the native path for @ai-sdk/anthropic (SPEC §11): `createAnthropicNativeToolshelf`
// gives generateText/streamText the direct tools as they are, toolshelf's search tool (never
// deferred, the listing in its description) whose answer goes to the model as tool-reference parts,
// and every deferred tool as the caller's own AI SDK tool with `providerOptions.anthropic.deferLoading`
// added: the model calls it directly, so the SDK itself applies its approval (`needsApproval`,
// `toolApproval`), its input validation, its context and its output mapping, as for any tool.
// `prepareStep` keeps only the deferred tools the conversation has loaded in the request
// (`activeTools`), as `assemble({ messages })` does.
import { asSchema, jsonSchema, tool as aiTool } from "ai";
import { Shelf } from "toolshelf";
import { createToolshelf, embeddingSearch } from "./ai.js";

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
 * toolshelf's name for `tool` of `server` when it is qualified (catalog.rs `qualified_name`):
 * `mcp__<server>__<tool>`, every character but ASCII letters, digits, `-` and `_` written as `_`,
 * a name over 64 characters cut to 55 and ended with `_` and 8 hex digits of its FNV-1a hash.
 */
export function qualifiedName(server, tool) {
  const safe = (text) => Array.from(text, (c) => (/^[A-Za-z0-9_-]$/.test(c) ? c : "_")).join("");
  const name = `mcp__${safe(server)}__${safe(tool)}`;
  if (name.length <= 64) return name;
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(name)) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return `${name.slice(0, 55)}_${(hash >> 32n).toString(16).padStart(8, "0")}`;
}

/** Whether `fn` is an `async function*` (its results are streamed, the last one is the output). */
export function isAsyncGeneratorFunction(fn) {
  return typeof fn === "function" && fn[Symbol.toStringTag] === "AsyncGeneratorFunction";
}

/**
 * `tool` with `execute` calling `before(input, execution)` first: a string declines the call (the
 * model reads it; nothing runs), anything else is the input to run with. Generator functions stay
 * generators, every own property is kept (non-enumerable ones too) and `extra` properties are set:
 * to the SDK it is the same tool.
 */
export function withProperties(tool, before, extra = {}) {
  const properties = Object.getOwnPropertyDescriptors(tool);
  const run = tool.execute;
  if (before && typeof run === "function") {
    const execute = isAsyncGeneratorFunction(run)
      ? async function* (input, execution) {
        const ready = await before(input, execution);
        if (typeof ready === "string") yield ready;
        else yield* run.call(tool, ready, execution);
      }
      : async (input, execution) => {
        const ready = await before(input, execution);
        return typeof ready === "string" ? ready : run.call(tool, ready, execution);
      };
    properties.execute = { value: execute, enumerable: true, writable: true, configurable: true };
  }
  for (const [key, value] of Object.entries(extra)) properties[key] = { value, enumerable: true, writable: true, configurable: true };
  return Object.create(Object.getPrototypeOf(tool), properties);
}

/** Whether the SDK validates `tool`'s input itself (zod, Standard Schema, `jsonSchema(…, { validate })`). */
function validatesItself(tool) {
  try {
    return typeof asSchema(tool?.inputSchema).validate === "function";
  } catch {
    return false;
  }
}

/**
 * Direct tools plus deferred tools by server (ToolSets) → `{ tools, prepareStep, shelf, assembly }`
 * for @ai-sdk/anthropic. `onCall(call, execution)` sees each real call first, direct tools' too
 * (`server` undefined; return a string to decline it, with that reason for the model).
 */
export function createAnthropicNativeToolshelf({ tools: direct = {}, servers = {}, options = {}, onCall, embedding } = {}) {
  const toolbox = {
    tools: Object.entries(direct).map(([name, tool]) => anthropicDef(name, tool)),
    servers: Object.fromEntries(Object.entries(servers).map(([server, set]) => [server, Object.entries(set).map(([n, t]) => anthropicDef(n, t))])),
  };
  const shelf = new Shelf(toolbox, { ...options, format: "anthropic", mode: "native" });
  const assembly = shelf.assemble();
  if (assembly.mode !== "native") {
    // Over 10,000 deferred tools (the API's limit): the bridge, with every guarantee of toolshelf/ai.
    shelf.free();
    return createToolshelf({ tools: direct, servers, options: { ...options, mode: "bridge" }, onCall, embedding });
  }
  const directDefs = new Set(toolbox.tools);
  const names = new Set(assembly.tools.map((def) => def.name));
  /** What runs before a real tool: toolshelf's validation where the SDK has none, then `onCall`. */
  const before = (call, real, checked) => async (input, execution) => {
    let args = input ?? {};
    if (checked && !validatesItself(real)) {
      const u = shelf.unwrap({ type: "tool_use", id: execution?.toolCallId ?? "", name: call.name, input: args });
      if (u.kind !== "call") return u.content; // the reject: nothing ran
      args = u.arguments; // coerced where the schema asks
    }
    const verdict = onCall ? await onCall({ ...call, arguments: args }, execution) : undefined;
    return typeof verdict === "string" ? verdict : args;
  };

  /** The deferred tool the model knows as `name`: the caller's tool, its server and own name. */
  const deferred = new Map();
  for (const [server, set] of Object.entries(servers)) {
    for (const [tool, real] of Object.entries(set)) {
      const qualified = qualifiedName(server, tool);
      deferred.set(names.has(qualified) && !Object.hasOwn(direct, qualified) ? qualified : tool, { server, tool, real });
    }
  }

  /** A search (or a describe, or a reject) answered by the shelf: nothing real runs here. */
  const semantic = embedding?.model ? embeddingSearch(embedding) : undefined;
  const answer = (name) => async (input, execution) => {
    const call = { type: "tool_use", id: execution?.toolCallId ?? "", name, input: input ?? {} };
    return (semantic ? await semantic.unwrap(shelf, call) : shelf.unwrap(call)).content;
  };

  const tools = {};
  const always = [];
  for (const def of assembly.tools) {
    const found = deferred.get(def.name);
    if (directDefs.has(def)) {
      const real = direct[def.name];
      tools[def.name] = onCall ? withProperties(real, before({ name: def.name, server: undefined, tool: def.name }, real, false)) : real;
      always.push(def.name);
    } else if (def.defer_loading === true && found) {
      const providerOptions = { ...found.real.providerOptions, anthropic: { ...found.real.providerOptions?.anthropic, deferLoading: true } };
      const call = { name: def.name, server: found.server, tool: found.tool };
      tools[def.name] = withProperties(found.real, before(call, found.real, true), { providerOptions });
    } else {
      // toolshelf's own search tool (never deferred): its answer reaches the model as tool-reference parts.
      tools[def.name] = aiTool({ description: def.description, inputSchema: jsonSchema(def.input_schema), execute: answer(def.name), toModelOutput: referenceOutput });
      always.push(def.name);
    }
  }
  return {
    tools,
    shelf,
    assembly,
    /** For generateText/streamText: only the deferred tools the conversation loaded are sent. */
    prepareStep({ messages } = {}) {
      const loaded = [...loadedNames(messages)].filter((name) => Object.hasOwn(tools, name) && !always.includes(name));
      return { activeTools: [...always, ...loaded] };
    },
  };
}
