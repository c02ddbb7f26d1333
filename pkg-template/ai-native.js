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

/** Direct tools and server ToolSets as a toolbox of `def(name, tool)` defs. */
function toolboxOf(direct, servers, def) {
  return {
    tools: Object.entries(direct).map(([name, tool]) => def(name, tool)),
    servers: Object.fromEntries(Object.entries(servers).map(([server, set]) => [server, Object.entries(set).map(([n, t]) => def(n, t))])),
  };
}

/**
 * What runs before a real tool: where the SDK does not validate its input itself and `asCall`
 * is given, toolshelf validates `asCall(args, execution)` (the provider's call shape; a reject's
 * text is the tool's answer, nothing runs); then `onCall`, whose string declines the call.
 */
function runsBefore(shelf, onCall, call, real, asCall) {
  return async (input, execution) => {
    let args = input ?? {};
    if (asCall && !validatesItself(real)) {
      const u = shelf.unwrap(asCall(args, execution));
      if (u.kind !== "call") return u.content; // the reject: nothing ran
      args = u.arguments; // coerced where the schema asks
    }
    const verdict = onCall ? await onCall({ ...call, arguments: args }, execution) : undefined;
    return typeof verdict === "string" ? verdict : args;
  };
}

/**
 * Direct tools plus deferred tools by server (ToolSets) → `{ tools, prepareStep, shelf, assembly }`
 * for @ai-sdk/anthropic. `onCall(call, execution)` sees each real call first, direct tools' too
 * (`server` undefined; return a string to decline it, with that reason for the model).
 */
export function createAnthropicNativeToolshelf({ tools: direct = {}, servers = {}, options = {}, onCall, embedding } = {}) {
  const toolbox = toolboxOf(direct, servers, anthropicDef);
  const shelf = new Shelf(toolbox, { ...options, format: "anthropic", mode: "native" });
  const assembly = shelf.assemble();
  if (assembly.mode !== "native") {
    // Over 10,000 deferred tools (the API's limit): the bridge, with every guarantee of toolshelf/ai.
    shelf.free();
    return createToolshelf({ tools: direct, servers, options: { ...options, mode: "bridge" }, onCall, embedding });
  }
  const directDefs = new Set(toolbox.tools);
  const names = new Set(assembly.tools.map((def) => def.name));
  /** What runs before a real tool: toolshelf's validation of its `tool_use` (if `checked`), then `onCall`. */
  const before = (call, real, checked) => runsBefore(shelf, onCall, call, real, checked
    ? (args, execution) => ({ type: "tool_use", id: execution?.toolCallId ?? "", name: call.name, input: args })
    : null);

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
    } else if (found) {
      // A server tool the request carries as it is (alwaysLoad; every tool with `enabled: off`).
      const call = { name: def.name, server: found.server, tool: found.tool };
      tools[def.name] = onCall ? withProperties(found.real, before(call, found.real, false)) : found.real;
      always.push(def.name);
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

// ---------------------------------------------------------------------------------------------
// The native path for @ai-sdk/openai (SPEC §11, OpenAI Responses): `createOpenAINativeToolshelf`
// gives generateText/streamText the direct tools as they are, the SDK's own client tool search
// (`openai.tools.toolSearch({ execution: "client", execute })`, the listing in its description),
// whose `execute` answers with toolshelf's matches as per-server namespaces, and every deferred
// tool as the caller's own AI SDK tool with `providerOptions.openai.omitFromRequestTools` (kept out
// of the request, in the ToolSet so that the SDK validates and runs the model's calls of it).
// The SDK hands a `function_call` to the ToolSet by its `name` alone (the namespace reaches the
// tool only as providerMetadata), so inside a namespace each function has its ToolSet name: its
// own name, or `mcp__<server>__<tool>` where two tools share a name.

/** An AI SDK tool as a Responses function (`strict` as the SDK sends one: the tool's own, else false). */
function responsesDef(name, tool) {
  const description = typeof tool?.description === "string" ? tool.description : "";
  return { type: "function", name, description, parameters: inputSchemaOf(tool), strict: tool?.strict ?? false };
}

/**
 * The ToolSet name of each server tool (`server` → own name → name): its own name, or its
 * qualified name when another tool has that name (toolshelf's `qualify: auto`) or `qualifyAll`.
 */
function toolSetNames(direct, servers, qualifyAll) {
  const uses = new Map();
  const count = (name) => uses.set(name, (uses.get(name) ?? 0) + 1);
  Object.keys(direct).forEach(count);
  for (const set of Object.values(servers)) Object.keys(set).forEach(count);
  return new Map(Object.entries(servers).map(([server, set]) => [server, new Map(Object.keys(set).map((tool) =>
    [tool, qualifyAll || uses.get(tool) > 1 ? qualifiedName(server, tool) : tool]))]));
}

/** A `tool_search_output`'s tools with each namespace's functions under their ToolSet names. */
function withToolSetNames(tools, names) {
  return tools.map((space) => (space?.type === "namespace" && Array.isArray(space.tools)
    ? { ...space, tools: space.tools.map((f) => ({ ...f, name: names.get(space.name)?.get(f.name) ?? f.name })) }
    : space));
}

/** Whether a model message part is the result of the search tool `name` that carries a reject's reason. */
const rejectedSearch = (name) => (part) => part?.type === "tool-result" && part.toolName === name
  && part.output?.type === "json" && typeof part.output.value?.reason === "string";

/**
 * Direct tools plus deferred tools by server (ToolSets) → `{ tools, prepareStep, shelf, assembly }`
 * for @ai-sdk/openai's Responses models. `toolSearch` is `openai.tools.toolSearch` (the SDK's
 * factory of its `tool_search` tool). `onCall(call, execution)` sees each real call first, direct
 * tools' too (`server` undefined; return a string to decline it, with that reason for the model).
 */
export function createOpenAINativeToolshelf({ toolSearch, tools: direct = {}, servers = {}, options = {}, onCall } = {}) {
  if (typeof toolSearch !== "function") {
    throw new TypeError("createOpenAINativeToolshelf: toolSearch must be the SDK's factory, openai.tools.toolSearch from @ai-sdk/openai");
  }
  const toolbox = toolboxOf(direct, servers, responsesDef);
  const shelf = new Shelf(toolbox, { ...options, format: "responses", mode: "native" });
  const assembly = shelf.assemble();
  if (assembly.mode !== "native") {
    // No protocol to speak (the bridge was kept, with a warning): createToolshelf's bridge.
    shelf.free();
    return createToolshelf({ tools: direct, servers, options: { ...options, mode: "bridge" }, onCall });
  }
  // toolshelf's own names: qualified where names clash, or all of them (`qualify: true`, seen by
  // describing one tool whose name is unique by its own name).
  let names = toolSetNames(direct, servers, false);
  const unique = [...names].flatMap(([server, map]) => [...map].filter(([tool, name]) => tool === name).map(([tool]) => [server, tool]))[0];
  if (unique && shelf.describe(qualifiedName(...unique))) names = toolSetNames(direct, servers, true);

  /** What runs before a real tool: toolshelf's validation of its `function_call` (unless `namespace` is null), then `onCall`. */
  const before = (call, real, namespace) => runsBefore(shelf, onCall, call, real, namespace === null ? null : (args, execution) => {
    const named = namespace ? { namespace, name: call.tool } : { name: call.name }; // a namespace's tool by its own name
    return { type: "function_call", call_id: execution?.toolCallId ?? "", ...named, arguments: JSON.stringify(args) };
  });
  const wrapped = (real, call, namespace, extra) => (onCall || namespace !== null ? withProperties(real, before(call, real, namespace), extra) : real);

  const tools = {};
  const put = (name, tool) => Object.defineProperty(tools, name, { value: tool, enumerable: true, writable: true, configurable: true });
  const sent = new Set(); // the server tools the request carries (alwaysLoad, tier 0)
  const serverDefs = new Map(); // a server def given to the shelf → [server, own name, the caller's tool]
  for (const [server, set] of Object.entries(servers)) {
    Object.entries(set).forEach(([tool, real], i) => serverDefs.set(toolbox.servers[server][i], [server, tool, real]));
  }
  const byName = new Map([...serverDefs.values()].map((found) => [names.get(found[0]).get(found[1]), found]));
  const directDefs = new Set(toolbox.tools);
  let searchName;
  for (const def of assembly.tools) {
    if (directDefs.has(def)) {
      put(def.name, wrapped(direct[def.name], { name: def.name, server: undefined, tool: def.name }, null));
    } else if (def.type === "tool_search") {
      searchName = ["tool_search", "toolshelf_search"].find((name) => !Object.hasOwn(direct, name)) ?? "toolshelf_tool_search";
      put(searchName, toolSearch({
        execution: "client",
        description: def.description,
        parameters: def.parameters,
        /** A search answered by the shelf: the matches to load; a reject's reason goes to the model in prepareStep. */
        execute: async (input, execution) => {
          const u = shelf.unwrap({ type: "tool_search_call", call_id: input?.call_id ?? execution?.toolCallId ?? null, execution: "client", arguments: input?.arguments });
          const loaded = withToolSetNames(u.item.tools, names);
          return u.kind === "reject" ? { tools: loaded, reason: u.content } : { tools: loaded };
        },
      }));
    } else if (serverDefs.has(def) || byName.has(def.name)) {
      // A server tool the request carries (alwaysLoad; every tool with `enabled: off`), as the
      // caller's def or, renamed by qualify, by its name.
      const found = serverDefs.get(def) ?? byName.get(def.name);
      const [server, tool, real] = found;
      sent.add(found);
      put(def.name, wrapped(real, { name: def.name, server, tool }, ""));
    }
  }
  /** A deferred tool: the caller's, out of the request (loaded by a search), in the ToolSet. */
  const deferredTool = (name, namespace, tool, real, server = namespace) => {
    if (Object.hasOwn(tools, name)) return; // a name the core left out (a bridge tool's)
    const providerOptions = { ...real?.providerOptions, openai: { ...real?.providerOptions?.openai, omitFromRequestTools: true } };
    put(name, wrapped(real, { name, server, tool }, namespace, { providerOptions }));
  };
  for (const found of serverDefs.values()) if (!sent.has(found)) deferredTool(names.get(found[0]).get(found[1]), ...found);
  // Direct tools named in `defer`: the core's pseudo-server `builtin`, under their own names.
  const deferred = Array.isArray(options.defer) ? options.defer : [];
  for (const name of Object.keys(direct)) {
    if (!deferred.includes(name) || Object.hasOwn(tools, name)) continue;
    if (!names.has("builtin")) names.set("builtin", new Map());
    names.get("builtin").set(name, name);
    deferredTool(name, "builtin", name, direct[name], undefined);
  }
  return {
    tools,
    shelf,
    assembly,
    /**
     * For generateText/streamText: a rejected search's reason (a `tool_search_output` has no text)
     * follows its result as a system message, as the README's loop sends it.
     */
    prepareStep({ messages } = {}) {
      if (!searchName || !Array.isArray(messages) || !messages.some((m) => m?.role === "tool" && Array.isArray(m.content) && m.content.some(rejectedSearch(searchName)))) return undefined;
      return {
        messages: messages.flatMap((m) => {
          const reasons = m?.role === "tool" && Array.isArray(m.content) ? m.content.filter(rejectedSearch(searchName)).map((p) => p.output.value.reason) : [];
          return [m, ...reasons.map((reason) => ({ role: "system", content: reason }))];
        }),
      };
    },
  };
}
