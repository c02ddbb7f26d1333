// toolshelf/ai's helpers shared by the bridge adapter (ai.js) and the native ones (ai-native.js),
// so that neither imports the other in a circle: tool wrapping, servers read per step (sync or
// async), a toolbox prepared with a refused server left out, the conversation of the AI SDK's
// model messages written as the provider-shaped history the core reads (SPEC §14), and the
// embedding search both use.
import { asSchema, embed, embedMany } from "ai";
import { DEFERRED_DIRECT, freeName, put, qualifiedNameRefusal, serverNameSeen } from "./rules.js";

export { DEFERRED_DIRECT, freeName, put };

/** The pattern Anthropic and OpenAI require of tool, function and namespace names. */
export const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export const own = (object, key) => (object != null && Object.hasOwn(object, key) ? object[key] : undefined);

/** Whether `value` is a thenable (an async `servers` function's result). */
export const isPromise = (value) => value != null && typeof value.then === "function";

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

/** A cheap identity of the servers: each ToolSet object and its tool names. */
export function signature(servers) {
  return Object.entries(servers).map(([server, set]) => [server, set, Object.keys(set ?? {}).join("\0")]);
}

export function sameSignature(a, b) {
  return a.length === b.length && a.every(([server, set, keys], i) => server === b[i][0] && set === b[i][1] && keys === b[i][2]);
}

/**
 * The JSON Schema of an AI SDK tool's input (zod, Standard Schema or jsonSchema()) and, when the
 * SDK cannot write it whole, why: a schema with parts JSON Schema cannot express (`z.date()`) is
 * written with those parts open (`{}`, Standard JSON Schema's `unrepresentable: "any"`) where the
 * schema library can, else as any object.
 */
export function inputJsonSchema(tool) {
  try {
    const schema = asSchema(tool?.inputSchema).jsonSchema;
    if (schema && typeof schema === "object" && typeof schema.then !== "function") return { schema };
    return { schema: { type: "object" }, problem: "its input schema is not a JSON Schema object" };
  } catch (error) {
    const partial = openSchema(tool?.inputSchema);
    return partial
      ? { schema: partial, problem: `parts of its input schema cannot be written as JSON Schema (${error.message}); those parameters are shown open` }
      : { schema: { type: "object" }, problem: `its input schema cannot be written as JSON Schema (${error.message}); the model sees no parameters` };
  }
}

/** A Standard JSON Schema written with the parts JSON Schema cannot express left open, or undefined. */
function openSchema(schema) {
  try {
    const written = schema?.["~standard"]?.jsonSchema?.input?.({ target: "draft-07", libraryOptions: { unrepresentable: "any" } });
    if (!written || typeof written !== "object") return undefined;
    const { $schema: _, ...rest } = written;
    return rest;
  } catch {
    return undefined;
  }
}

/** Why a server's tool list is refused before the core reads it, or undefined. */
export function refusal(set) {
  if (set === null || typeof set !== "object") return "its tools are not a ToolSet object";
  for (const name of Object.keys(set)) {
    if (name === "") return "a tool has an empty name";
    const qualified = qualifiedNameRefusal(name);
    if (qualified) return qualified;
  }
  return undefined;
}

/**
 * The servers of an adapter's toolbox (ToolSets by server) as the core's server lists, by the name
 * the core sees, and the routes back to each server as given: a server refused before the core
 * reads it is left out, a real server named `builtin` renamed, each with a warning pushed to
 * `warnings`. `defOf(seenAs, server, name, tool)` makes a tool's def.
 */
export function serverLists(servers, defOf, warnings) {
  const taken = new Set(Object.keys(servers));
  const routes = new Map(); // the server name the core sees → { server: as given, set }
  const lists = new Map();
  for (const [server, set] of Object.entries(servers)) {
    const why = refusal(set);
    if (why) {
      warnings.push(`server "${server}" left out: ${why}`);
      continue;
    }
    const seenAs = serverNameSeen(server, taken, (w) => warnings.push(w));
    routes.set(seenAs, { server, set });
    lists.set(seenAs, Object.entries(set).map(([name, tool]) => defOf(seenAs, server, name, tool)));
  }
  return { routes, lists };
}

/** Whether an error is the core's verdict on a toolbox (a server can be left out for it). */
export function isToolboxError(error) {
  return error?.name === "ToolshelfError" && !["not_initialized", "freed"].includes(error.code);
}

/**
 * The servers to use: `servers` itself, or what the function returns (a value or a promise), `{}`
 * for nothing. A function that throws throws here (the caller decides what that means).
 */
export function serversOf(servers) {
  const value = typeof servers === "function" ? servers() : servers;
  return isPromise(value) ? Promise.resolve(value).then((v) => v ?? {}) : value ?? {};
}

/**
 * Loads a toolbox (direct defs, server lists by name) onto `shelf` (`Shelf.update`) or a new one
 * (`make(toolbox)`), and returns `{ shelf, left }`, `left` the servers left out as `[name,
 * warning]`. When the whole toolbox fails, the servers are added one at a time, in the order given,
 * and each that fails is left out; a failure of the direct tools alone is the caller's and throws,
 * with the shelf as it was.
 */
export function loadToolbox(shelf, make, directDefs, lists) {
  const toolbox = (names) => {
    const servers = Object.create(null);
    for (const name of names) servers[name] = lists.get(name);
    return { tools: directDefs, servers };
  };
  const load = (box) => {
    if (shelf) shelf.update(box);
    else shelf = make(box);
  };
  try {
    load(toolbox(lists.keys()));
    return { shelf, left: [] };
  } catch (error) {
    if (!isToolboxError(error)) throw error;
  }
  load(toolbox([]));
  const accepted = [];
  const left = [];
  for (const name of lists.keys()) {
    try {
      shelf.update(toolbox([...accepted, name]));
      accepted.push(name);
    } catch (error) {
      if (!isToolboxError(error)) throw error;
      left.push([name, `server "${name}" left out: ${error.message}`]);
    }
  }
  return { shelf, left };
}

// ---------------------------------------------------------------------------------------------
// The conversation (SPEC §14). The AI SDK hands prepareStep, execute, needsApproval and
// repairToolCall its model messages; the core reads a provider's history. Only what names tools is
// written: calls, the `tool_reference` parts of a tool result (Anthropic), the functions a
// `tool_search_output` loaded (Responses). Anything else is skipped, whatever its shape.

/** The tool-call parts of an assistant message and the tool-result parts of a tool message. */
function* partsOf(messages) {
  if (!Array.isArray(messages)) return;
  for (const message of messages) {
    if (message === null || typeof message !== "object" || !Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part === null || typeof part !== "object") continue;
      if ((part.type === "tool-call" && message.role === "assistant") || (part.type === "tool-result" && message.role === "tool")) {
        if (typeof part.toolName === "string") yield part;
      }
    }
  }
}

/** The names of a tool result's tool-reference parts (Anthropic native search answers). */
export function referencesOf(output) {
  if (output?.type !== "content" || !Array.isArray(output.value)) return [];
  const names = [];
  for (const item of output.value) {
    const reference = item?.type === "custom" ? item.providerOptions?.anthropic : undefined;
    if (reference?.type === "tool-reference" && typeof reference.toolName === "string") names.push(reference.toolName);
  }
  return names;
}

/**
 * AI SDK model messages as Anthropic `messages` for the core: each call a `tool_use` block (its
 * input only where `withInput(name)` says so: the bridge's call and describe tools name tools in
 * theirs), each tool result with tool-reference parts a `tool_result` of `tool_reference` blocks.
 */
export function anthropicHistory(messages, withInput = () => false) {
  const out = [];
  for (const part of partsOf(messages)) {
    if (part.type === "tool-call") {
      const input = withInput(part.toolName) && part.input !== null && typeof part.input === "object" ? part.input : {};
      out.push({ role: "assistant", content: [{ type: "tool_use", id: String(part.toolCallId ?? ""), name: part.toolName, input }] });
      continue;
    }
    const references = referencesOf(part.output).map((name) => ({ type: "tool_reference", tool_name: name }));
    if (references.length > 0) {
      out.push({ role: "user", content: [{ type: "tool_result", tool_use_id: String(part.toolCallId ?? ""), content: references }] });
    }
  }
  return { messages: out };
}

/** The namespace of a Responses tool-call part (`providerOptions.openai.namespace`, whatever the provider's options name). */
export function namespaceOf(part) {
  for (const options of [part?.providerOptions, part?.providerMetadata]) {
    if (options === null || typeof options !== "object") continue;
    for (const value of Object.values(options)) if (typeof value?.namespace === "string") return value.namespace;
  }
  return undefined;
}

/**
 * AI SDK model messages as Responses input items for the core: each call a `function_call` (with
 * its namespace), each result of the search tool `searchName` a `tool_search_output` of the
 * namespaces it loaded; `coreName(namespace, name)` writes a function's name as the core knows it.
 */
export function responsesHistory(messages, searchName, coreName = (_, name) => name) {
  const input = [];
  for (const part of partsOf(messages)) {
    if (part.toolName === searchName) {
      const tools = part.type === "tool-result" && part.output?.type === "json" ? part.output.value?.tools : undefined;
      if (!Array.isArray(tools)) continue;
      input.push({ type: "tool_search_output", call_id: String(part.toolCallId ?? ""), execution: "client", status: "completed", tools: tools.map((space) => (space?.type === "namespace" && Array.isArray(space.tools)
        ? { type: "namespace", name: String(space.name), tools: space.tools.map((f) => ({ type: "function", name: coreName(String(space.name), String(f?.name)) })) }
        : { type: "function", name: String(space?.name) })) });
    } else if (part.type === "tool-call") {
      const namespace = namespaceOf(part);
      const name = namespace === undefined ? part.toolName : coreName(namespace, part.toolName);
      input.push({ type: "function_call", call_id: String(part.toolCallId ?? ""), name, arguments: "{}", ...(namespace === undefined ? {} : { namespace }) });
    }
  }
  return { input };
}

/** The function names (ToolSet keys) each of the search tool's results loaded, with their namespaces. */
export function loadedFunctions(messages, searchName) {
  const loaded = [];
  for (const part of partsOf(messages)) {
    if (part.type !== "tool-result" || part.toolName !== searchName || part.output?.type !== "json") continue;
    for (const space of Array.isArray(part.output.value?.tools) ? part.output.value.tools : []) {
      if (space?.type === "namespace" && Array.isArray(space.tools)) for (const f of space.tools) loaded.push([String(space.name), String(f?.name)]);
      else if (space?.type === "function") loaded.push([undefined, String(space.name)]);
    }
  }
  return loaded;
}

/** The calls of the conversation: `[toolName, namespace]` of each tool-call part. */
export function calledTools(messages) {
  const calls = [];
  for (const part of partsOf(messages)) if (part.type === "tool-call") calls.push([part.toolName, namespaceOf(part)]);
  return calls;
}

// ---------------------------------------------------------------------------------------------

/**
 * Semantic search with an AI SDK embedding model (`embedding: { model }` of createToolshelf and
 * createAnthropicNativeToolshelf): `unwrap(shelf, call)` is `shelf.unwrapAsync(call, { embed })`,
 * the shelf's tools embedded first with `embedMany` (each text once: vectors are kept by key across
 * updates), a query with `embed`. `name` is the model name given to setEmbeddings (default: the
 * model's `provider:modelId`); `onWarning` hears a failed embedding (the search is then lexical).
 * `unwrapAsync` takes no conversation: a search so answered names tools by their provider names.
 */
export function embeddingSearch({ model, name, onWarning = (w) => console.warn(w), ...settings }) {
  const modelName = name ?? (typeof model === "string" ? model : `${model.provider ?? "model"}:${model.modelId ?? "embedding"}`);
  const known = new Map(); // key → vector, across updates
  const ready = new WeakMap(); // shelf → the texts' keys last set, joined
  async function prepare(shelf) {
    const texts = shelf.embeddingTexts();
    const keys = texts.map((t) => t.key).join();
    if (ready.get(shelf) === keys) return;
    const missing = texts.filter((t) => !known.has(t.key));
    if (missing.length > 0) {
      const { embeddings } = await embedMany({ model, values: missing.map((t) => t.text), ...settings });
      missing.forEach((t, i) => known.set(t.key, embeddings[i]));
    }
    shelf.setEmbeddings({ model: modelName, vectors: texts.map((t) => known.get(t.key)) });
    ready.set(shelf, keys);
  }
  // unwrapAsync's signal aborts when it stops waiting (its timeoutMs): the request stops too.
  const embedQuery = async (text, { signal } = {}) => (await embed({ model, value: text, abortSignal: signal, ...settings })).embedding;
  return {
    async unwrap(shelf, call, context) {
      try {
        await prepare(shelf);
      } catch (error) {
        onWarning(`toolshelf/ai: embedding the tools failed, searches are lexical: ${error?.message ?? error}`);
        return shelf.unwrap(call, context);
      }
      const u = await shelf.unwrapAsync(call, { embed: embedQuery });
      for (const warning of u.warnings ?? []) onWarning(`toolshelf/ai: ${warning}`);
      return u;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The observing hooks of both adapters: `onSearch(query, matches, unknownWords)` after a search is
// answered, `onReject(call, reason)` when toolshelf rejects a model's call (nothing runs). Neither
// is awaited, neither changes an answer: one that throws (or whose promise rejects) is reported to
// `onWarning` (default console.warn) and the loop goes on.

/**
 * The hooks of an adapter, each safe to call: `search(query, matches, unknownWords)`,
 * `reject(call, reason)`, and `searchShelf(shelf, input, serverName)`, which calls `search` with
 * the shelf's own search of each query a search call asks.
 */
export function observers({ onSearch, onReject, onWarning = (w) => console.warn(w) } = {}) {
  const report = (hook, error) => {
    try {
      onWarning(`toolshelf/ai: ${hook} threw, ignored: ${error?.message ?? error}`);
    } catch {
      // a failing onWarning is not the loop's business either
    }
  };
  const safe = (hook, fn) => (typeof fn !== "function" ? undefined : (...args) => {
    try {
      const result = fn(...args);
      if (isPromise(result)) Promise.resolve(result).catch((error) => report(hook, error));
    } catch (error) {
      report(hook, error);
    }
  });
  const search = safe("onSearch", onSearch);
  const reject = safe("onReject", onReject);
  return {
    search,
    reject,
    /**
     * Calls `search` with the shelf's own search of each query a search call's input asks
     * (`{query, limit}`, or a batched `{queries: [...]}`): the facts come from the shelf, never
     * from the text of the answer the model reads (SPEC §16).
     */
    searchShelf(shelf, input, serverName = (server) => server) {
      if (typeof input === "string") {
        try {
          input = JSON.parse(input);
        } catch {
          return;
        }
      }
      if (!search || input === null || typeof input !== "object") return;
      const asked = Array.isArray(input.queries)
        ? input.queries.map((q) => (typeof q === "string" ? { query: q, limit: input.limit } : q))
        : [input];
      for (const { query, limit } of asked.filter((q) => typeof q?.query === "string")) {
        let result;
        try {
          result = shelf.search(query, Number.isInteger(limit) ? { limit } : {});
        } catch (error) {
          report("onSearch", error);
          continue;
        }
        if (result.error) continue;
        search(query, result.matches.map((m) => ({ ...m, server: serverName(m.server) })), result.unknownWords ?? []);
      }
    },
  };
}
