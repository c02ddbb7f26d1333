// toolshelf/ai's native paths (SPEC §11), re-exported by ai.js (which adds the bridge fallback):
// for @ai-sdk/anthropic, the direct tools as they are, toolshelf's search tool (never deferred, the
// listing in its description) whose answer goes to the model as tool-reference parts, and every
// deferred tool as the caller's own AI SDK tool with `providerOptions.anthropic.deferLoading`; for
// @ai-sdk/openai's Responses models, the SDK's own client tool search answered by toolshelf and
// every deferred tool as the caller's own tool kept out of the request. The model calls a loaded
// tool directly, so the SDK itself applies its approval, its input validation, its context and its
// output mapping, as for any tool.
//
// A conversation (SPEC §14): `prepareStep` writes the AI SDK's messages as the provider history the
// core reads, and every answer, validation and reject is the core's for that history. The names
// the ToolSet holds are the ones the core sends (provider-valid names for MCP names such as
// `events.search`), the ones the history uses keep their tool after a clashing attach, and a tool
// the history used that is gone answers with the core's `unavailable_tool` reject. Each step's
// `activeTools` is the direct tools, the search tool and what the conversation loaded, so a wrong
// name's error lists those only; `repairToolCall` answers it with the core's reject instead.
import { NoSuchToolError, asSchema, jsonSchema, tool as aiTool } from "ai";
import { Shelf } from "toolshelf";
// The core's own naming (SPEC §16, one authority): the name a server's tool is shown under.
import { toolName } from "./wasm/toolshelf.js";
import {
  DEFERRED_DIRECT, anthropicHistory, calledTools, embeddingSearch, inputJsonSchema, isPromise, loadToolbox, loadedFunctions, observers, own,
  put, responsesHistory, sameSignature, serverLists, serversOf, signature, withProperties,
} from "./ai-shared.js";

/**
 * The key of the mark each def given to the core carries: `[server or null, own name]`. The core
 * keeps a def's other members, so the defs it sends back (renamed, deferred, or under the name a
 * history uses) say which tool they are. The mark never reaches a provider: the SDK builds the
 * request from the ToolSet, and toolshelf's search outputs are written without it.
 */
const MARK = "toolshelf_source";

/** The JSON Schema of an AI SDK tool's input as an object schema (toolshelf/ai's one reader, ai-shared.js). */
const inputSchemaOf = (tool) => ({ type: "object", ...inputJsonSchema(tool).schema });

/** An AI SDK tool as an Anthropic tool def. */
function anthropicDef(name, tool) {
  return { name, description: typeof tool?.description === "string" ? tool.description : "", input_schema: inputSchemaOf(tool) };
}

/** An AI SDK tool as a Responses function (`strict` as the SDK sends one: the tool's own, else false). */
function responsesDef(name, tool) {
  const description = typeof tool?.description === "string" ? tool.description : "";
  return { type: "function", name, description, parameters: inputSchemaOf(tool), strict: tool?.strict ?? false };
}

/** A def's mark as `{ server, own }` (server null for a direct tool), or undefined (a def the core made). */
function sourceOf(def) {
  const mark = def?.[MARK];
  return Array.isArray(mark) && mark.length === 2 && typeof mark[1] === "string" && (mark[0] === null || typeof mark[0] === "string")
    ? { server: mark[0], own: mark[1] }
    : undefined;
}

/** A def without its mark. */
function unmarked(def) {
  if (def === null || typeof def !== "object" || !Object.hasOwn(def, MARK)) return def;
  const { [MARK]: _, ...rest } = def;
  return rest;
}

const sourceKey = (source) => JSON.stringify([source.server, source.own]);

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

/** Whether the SDK validates `tool`'s input itself (zod, Standard Schema, `jsonSchema(…, { validate })`). */
function validatesItself(tool) {
  try {
    return typeof asSchema(tool?.inputSchema).validate === "function";
  } catch {
    return false;
  }
}

const isAsyncIterable = (value) => value != null && typeof value[Symbol.asyncIterator] === "function";

/**
 * The toolbox of a native adapter, kept on one `Shelf` updated in place: direct tools and server
 * ToolSets as marked defs (`write(name, tool)`; each the same object while its tool is, so
 * `Shelf.update` keeps what it read), a server the core refuses left out with a warning, a real
 * server named `builtin` renamed. `servers` is an object or a function (sync or async) read before
 * every step; `update(servers)` re-prepares now.
 */
function nativeToolbox({ direct, servers, options, write, onPrepared }) {
  const defs = new WeakMap(); // tool object → Map(sourceKey → def)
  let shelf;
  let state = { version: 0 };
  let first; // an async `servers` function's first result, for the first step

  function marked(server, name, tool) {
    const key = JSON.stringify([server, name]);
    const cache = tool !== null && typeof tool === "object" ? defs.get(tool) ?? new Map() : undefined;
    if (cache?.has(key)) return cache.get(key);
    const def = { ...write(name, tool), [MARK]: [server, name] };
    if (cache) {
      cache.set(key, def);
      defs.set(tool, cache);
    }
    return def;
  }

  function prepare(next) {
    const warnings = [];
    const directDefs = Object.entries(direct).map(([name, tool]) => marked(null, name, tool));
    const { routes, lists } = serverLists(next, (seenAs, server, name, tool) => marked(seenAs, name, tool), warnings);
    const loaded = loadToolbox(shelf, (box) => new Shelf(box, options), directDefs, lists);
    shelf = loaded.shelf;
    for (const [name] of loaded.left) routes.delete(name);
    // Every deferred tool; over 10,000 (Anthropic's limit) the core keeps the bridge without a
    // conversation, so the tools of an empty one (the direct tools and the search tool) stand in.
    const whole = shelf.assemble();
    const assembly = whole.mode === "native" ? whole : shelf.assemble({ messages: [] });
    state = {
      version: state.version + 1,
      routes,
      directDefs: new Set(directDefs),
      signature: signature(next),
      assembly,
      warnings: [...warnings, ...loaded.left.map(([, warning]) => warning)].map((w) => `toolshelf/ai: ${w}`),
    };
    onPrepared?.(state);
  }

  const refresh = (next) => {
    if (!sameSignature(signature(next), state.signature)) prepare(next);
  };

  return {
    get shelf() { return shelf; },
    get state() { return state; },
    /** Prepares the servers given at creation; false when they come from an async function (not read yet). */
    start() {
      const value = serversOf(servers);
      if (isPromise(value)) {
        first = value;
        prepare({});
        return false;
      }
      prepare(value);
      return true;
    },
    /** A source as the marks write it: the core's `builtin` (the direct tools in `defer`) is null. */
    normal(source) {
      return source.server === DEFERRED_DIRECT && !state.routes.has(DEFERRED_DIRECT) ? { server: null, own: source.own } : source;
    },
    /** The caller's tool of a source, or undefined. */
    real(source) {
      const { server, own: name } = this.normal(source);
      if (server === null) return own(direct, name);
      const route = state.routes.get(server);
      return route ? own(route.set, name) : undefined;
    },
    /** The server as the caller named it (`builtin` for a renamed one), undefined for a direct tool. */
    serverName(server) {
      return server === null || (server === DEFERRED_DIRECT && !state.routes.has(server)) ? undefined : state.routes.get(server)?.server ?? server;
    },
    /** Reads the servers before a step (then `then()`), re-preparing when they changed. */
    step(then) {
      const next = first ?? serversOf(servers);
      first = undefined;
      if (isPromise(next)) return next.then((read) => { refresh(read); return then(); });
      refresh(next);
      return then();
    },
    update(next, then) {
      const value = serversOf(next);
      const apply = (read) => {
        prepare(read);
        servers = next;
        first = undefined;
        then?.();
      };
      return isPromise(value) ? value.then(apply) : apply(value);
    },
  };
}

/**
 * What runs before a real tool: where the SDK does not validate its input itself and `asCall` is
 * given, the core reads the call (`asCall(args, execution)`, with the conversation): a reject's text
 * is the tool's answer and nothing runs; then `onCall`, whose string declines the call.
 */
function runsBefore(unwrap, onCall, call, real, asCall, watch) {
  return async (input, execution) => {
    let args = input ?? {};
    if (asCall && !validatesItself(real)) {
      const u = unwrap(asCall(args, execution), execution);
      if (u.kind !== "call") {
        watch?.reject?.({ name: call.name, arguments: args, id: execution?.toolCallId }, u.content);
        return u.content; // the reject: nothing ran
      }
      args = u.arguments; // coerced where the schema asks
    }
    const verdict = onCall ? await onCall({ ...call, arguments: args }, execution) : undefined;
    return typeof verdict === "string" ? verdict : args;
  };
}

/**
 * A name the conversation uses that the ToolSet has no tool for (a tool detached, or bound anew):
 * the core answers the call with the history (the `unavailable_tool` reject, usually). Where it
 * routes the call to a tool after all, that tool runs, unless it needs approval (asked only for a
 * tool called by its own name).
 */
function standIn({ name, description, schema, providerOptions, asCall, unwrap, realOf, serverName, onCall, watch }) {
  return aiTool({
    description,
    inputSchema: jsonSchema(schema ?? { type: "object" }),
    providerOptions,
    execute: async (input, execution) => {
      const rejected = (reason) => {
        watch?.reject?.({ name, arguments: input ?? {}, id: execution?.toolCallId }, reason);
        return reason;
      };
      const u = unwrap(asCall(input ?? {}, execution), execution);
      if (u.kind !== "call") return rejected(typeof u.content === "string" ? u.content : JSON.stringify(u.content));
      const real = realOf({ server: u.server ?? null, own: u.tool ?? u.name });
      if (typeof real?.execute !== "function") return rejected(`${u.name} has no tool here; it was not invoked.`);
      if (real.needsApproval) return rejected(`${u.name} needs approval: call it by its name as a search loads it; it was not run.`);
      const verdict = onCall ? await onCall({ name: u.name, server: serverName(u.server ?? null), tool: u.tool ?? u.name, arguments: u.arguments }, execution) : undefined;
      if (typeof verdict === "string") return verdict;
      let result = await real.execute(u.arguments, execution);
      if (isAsyncIterable(result)) for await (const value of result) result = value;
      return result;
    },
  });
}

/** Keeps `tools` (the SDK's ToolSet, in place) equal to `wanted` (name → tool). */
function syncToolSet(tools, wanted) {
  for (const name of Object.keys(tools)) if (!wanted.has(name)) delete tools[name];
  for (const [name, tool] of wanted) if (tools[name] !== tool) put(tools, name, tool);
}

/** `repairToolCall`'s answer to a name the step's tools do not hold: the tool it stands for, or the core's text. */
function repairer({ unwrap, asCall, keyOf, searchName, watch }) {
  return async ({ toolCall, tools, error, messages }) => {
    if (!NoSuchToolError.isInstance(error)) return null; // invalid input: the SDK's own error
    let input;
    try {
      input = toolCall.input?.trim() ? JSON.parse(toolCall.input) : {};
    } catch {
      input = {};
    }
    const u = unwrap(asCall(toolCall, input), { messages });
    const rejected = (reason) => {
      watch?.reject?.({ name: toolCall.toolName, arguments: input, id: toolCall.toolCallId }, reason);
      return new Error(reason);
    };
    if (u.kind === "call") {
      const key = keyOf({ server: u.server ?? null, own: u.tool ?? u.name });
      if (key !== undefined && own(tools, key) !== undefined) return { ...toolCall, toolName: key };
      throw rejected(`${toolCall.toolName} is not loaded: search for it with ${searchName()} first, then call it by the name the search gives.`);
    }
    throw rejected(typeof u.content === "string" ? u.content : `${toolCall.toolName} is not a tool here; search with ${searchName()}.`);
  };
}

// ---------------------------------------------------------------------------------------------
// @ai-sdk/anthropic: the ToolSet holds every deferred tool under the name the core sends it by
// (each with `deferLoading`), and each step's `activeTools` are the tools `assemble({ messages })`
// carries for the conversation: the direct tools, the search tool, the referenced tools under the
// names the history uses, stand-ins for the gone ones.

/**
 * The box's assembly as the adapter shows it (the core's marks taken off the tools, the adapter's
 * warnings first), made again only when the box's state changes.
 */
function exposedAssembly(box) {
  let exposed;
  return () => {
    if (exposed?.version !== box.state.version) {
      const { assembly } = box.state;
      exposed = { version: box.state.version, assembly: { ...assembly, tools: assembly.tools.map(unmarked), warnings: [...box.state.warnings, ...assembly.warnings] } };
    }
    return exposed.assembly;
  };
}

/**
 * A native adapter: its ToolSet, `methods`, and the state both adapters expose (`shelf`, the
 * toolbox's `assembly` with the adapter's warnings, `warnings`), read from `box` when asked.
 */
function adapter(box, tools, methods) {
  const exposed = exposedAssembly(box);
  return Object.defineProperties({ tools, ...methods }, {
    shelf: { get: () => box.shelf, enumerable: true },
    assembly: { get: exposed, enumerable: true },
    warnings: { get: () => box.state.warnings, enumerable: true },
  });
}

/**
 * Direct tools plus deferred tools by server (ToolSets, or a function of them) → `{ tools,
 * prepareStep, repairToolCall, update, shelf, assembly, warnings }` for @ai-sdk/anthropic; undefined
 * where the core keeps the bridge (over 10,000 deferred tools at creation).
 */
export function anthropicNative({ tools: direct = {}, servers = {}, options = {}, onCall, onSearch, onReject, onWarning, embedding } = {}) {
  const box = nativeToolbox({ direct, servers, options: { ...options, format: "anthropic", mode: "native" }, write: anthropicDef });
  if (box.start() && box.shelf.assemble().mode !== "native") {
    // Over 10,000 deferred tools (the API's limit) without a conversation: the bridge, with every guarantee of toolshelf/ai.
    box.shelf.free();
    return undefined;
  }
  const semantic = embedding?.model ? embeddingSearch(embedding) : undefined;
  const watch = observers({ onSearch, onReject, onWarning });
  const serverName = (server) => box.serverName(server) ?? server;
  const history = (messages) => anthropicHistory(messages);
  const unwrap = (call, execution) => box.shelf.unwrap(call, history(execution?.messages));
  const asCall = (name) => (args, execution) => ({ type: "tool_use", id: execution?.toolCallId ?? "", name, input: args });

  const tools = {};
  const cache = new Map(); // a def's name → { id, tool }: the same tool object while it stands for the same thing
  let step = { defs: [] }; // the last step's assembly, for repairToolCall

  /** A search (or a reject) answered by the shelf with the conversation: nothing real runs here. */
  const answer = (name) => async (input, execution) => {
    const call = { type: "tool_use", id: execution?.toolCallId ?? "", name, input: input ?? {} };
    const context = history(execution?.messages);
    const u = semantic ? await semantic.unwrap(box.shelf, call, context) : box.shelf.unwrap(call, context);
    if (u.kind === "answer") watch.searchShelf(box.shelf, input, serverName);
    else if (u.kind === "reject") watch.reject?.({ name, arguments: input ?? {}, id: execution?.toolCallId }, u.content);
    return u.content;
  };

  /** The ToolSet's tool for a def of the core's. */
  function toolFor(def) {
    const source = sourceOf(def);
    const real = source ? box.real(source) : undefined;
    const deferred = def.defer_loading === true;
    const id = source ? `${sourceKey(source)}${deferred}` : `${deferred}${def.description}\0${JSON.stringify(def.input_schema)}`;
    const cached = cache.get(def.name);
    if (cached?.id === id && cached.real === real) return cached.tool;
    let made;
    if (source && real !== undefined && box.state.directDefs.has(def)) {
      made = onCall ? withProperties(real, runsBefore(unwrap, onCall, { name: def.name, server: undefined, tool: def.name }, real, null, watch)) : real;
    } else if (source && real !== undefined) {
      const call = { name: def.name, server: box.serverName(source.server), tool: source.own };
      if (deferred) {
        const providerOptions = { ...real.providerOptions, anthropic: { ...real.providerOptions?.anthropic, deferLoading: true } };
        made = withProperties(real, runsBefore(unwrap, onCall, call, real, asCall(def.name), watch), { providerOptions });
      } else {
        // A server tool the request carries as it is (alwaysLoad; every tool with `enabled: off`).
        made = onCall ? withProperties(real, runsBefore(unwrap, onCall, call, real, null, watch)) : real;
      }
    } else if (deferred || source) {
      // The core's stand-in for a tool the history references that is gone: its reject.
      made = standIn({ name: def.name, description: def.description, schema: def.input_schema, providerOptions: { anthropic: { deferLoading: true } }, asCall: asCall(def.name), unwrap, realOf: (source) => box.real(source), serverName: (server) => box.serverName(server), onCall, watch });
    } else {
      // toolshelf's own search tool (never deferred): its answer reaches the model as tool-reference parts.
      made = aiTool({ description: def.description, inputSchema: jsonSchema(def.input_schema), execute: answer(def.name), toModelOutput: referenceOutput });
    }
    cache.set(def.name, { id, real, tool: made });
    return made;
  }

  /**
   * Every tool of the toolbox's assembly, and those of the step's (the names its history uses,
   * stand-ins). A step's names stay in the ToolSet until the toolbox changes, so that one
   * conversation's step never takes out a name another one's step sends.
   */
  let extras = new Map();
  function fill(stepDefs = []) {
    const wanted = new Map();
    for (const def of box.state.assembly.tools) wanted.set(def.name, toolFor(def));
    for (const def of stepDefs) extras.set(def.name, toolFor(def));
    for (const [name, tool] of extras) wanted.set(name, tool);
    syncToolSet(tools, wanted);
  }
  let filled = -1;
  const ready = () => {
    if (filled !== box.state.version) {
      cache.clear();
      extras = new Map();
      fill();
      filled = box.state.version;
    }
  };
  ready();

  const searchName = () => box.state.assembly.tools.find((def) => !sourceOf(def) && def.defer_loading !== true)?.name ?? "tool_search";
  /** The name the step's assembly gives a tool (for repairToolCall), or undefined. */
  const keyOf = (source) => {
    const wanted = box.normal(source);
    return step.defs.find((def) => {
      const s = sourceOf(def);
      return s && s.server === wanted.server && s.own === wanted.own;
    })?.name;
  };

  // The assembly exposed holds every deferred tool; mode, listing, contextTokens, warnings, fingerprint.
  return adapter(box, tools, {
    /**
     * For generateText/streamText: the servers read (a function's, sync or async), then the
     * conversation's tools: `activeTools` is what `assemble({ messages })` carries for it.
     */
    prepareStep({ messages } = {}) {
      return box.step(() => {
        ready();
        const assembly = box.shelf.assemble(history(messages));
        fill(assembly.tools);
        step = { defs: assembly.tools };
        return { activeTools: assembly.tools.map((def) => def.name) };
      });
    },
    /** For generateText/streamText's `repairToolCall`: a wrong name is answered with toolshelf's reject, never a listing. */
    repairToolCall: repairer({ unwrap, asCall: (toolCall, input) => asCall(toolCall.toolName)(input, { toolCallId: toolCall.toolCallId }), keyOf, searchName, watch }),
    /** Re-assembles with other servers (an object, or a function read before every step); a failure leaves the adapter as it was. */
    update(next) {
      return box.update(next, ready);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// @ai-sdk/openai (Responses): the SDK's client `tool_search` answered by toolshelf with per-server
// namespaces, and every deferred tool as the caller's tool with `omitFromRequestTools` (out of the
// request, in the ToolSet, so that the SDK validates and runs the model's calls of it). The SDK
// hands a `function_call` to the ToolSet by its `name` alone (the namespace reaches the tool only as
// providerMetadata), so each function has one ToolSet name across namespaces, which is the name
// the search output gives it: the name the core shows the tool under (SPEC §16, asked of the core:
// a pure function of server and tool, unique across servers; a caller's direct tool of that name
// keeps it and the deferred one takes a suffix). A name once given to a tool stays that tool's for
// the adapter's life; a name whose tool is gone answers with the core's `unavailable_tool` reject.

/** Whether a model message part is the result of the search tool `name` that carries a reject's reason. */
const rejectedSearch = (name) => (part) => part?.type === "tool-result" && part.toolName === name
  && part.output?.type === "json" && typeof part.output.value?.reason === "string";

/**
 * Direct tools plus deferred tools by server (ToolSets, or a function of them) → `{ tools,
 * prepareStep, repairToolCall, update, shelf, assembly, warnings }` for @ai-sdk/openai's Responses
 * models; undefined where the core keeps the bridge. `toolSearch` is `openai.tools.toolSearch`.
 */
export function openaiNative({ toolSearch, tools: direct = {}, servers = {}, options = {}, onCall, onSearch, onReject, onWarning } = {}) {
  if (typeof toolSearch !== "function") {
    throw new TypeError("createOpenAINativeToolshelf: toolSearch must be the SDK's factory, openai.tools.toolSearch from @ai-sdk/openai");
  }
  const deferredDirect = new Set(Array.isArray(options.defer) ? options.defer : []);
  const searchName = ["tool_search", "toolshelf_search"].find((name) => !Object.hasOwn(direct, name)) ?? "toolshelf_tool_search";

  // The ToolSet names of deferred tools, for the adapter's life (sourceKey → name, name → source),
  // and what the core calls each in its outputs (namespace\0name → the core's function name).
  const names = new Map();
  const sources = new Map();
  const coreNames = new Map();

  /** Gives every deferred tool of the toolbox a ToolSet name (those already given are kept). */
  function nameTools(state) {
    const all = [];
    for (const name of Object.keys(direct)) if (deferredDirect.has(name)) all.push({ server: null, own: name });
    for (const [server, { set }] of [...state.routes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      for (const name of Object.keys(set).sort()) all.push({ server, own: name });
    }
    const reserved = (name) => name === searchName || (Object.hasOwn(direct, name) && !deferredDirect.has(name)) || sources.has(name);
    for (const source of all) {
      const key = sourceKey(source);
      if (names.has(key)) continue;
      // The name the core shows the model for the tool (wire::tool_name: a pure function of
      // (server, tool), unique across servers); a caller's direct tool of that name keeps it.
      const shown = toolName(source.server ?? DEFERRED_DIRECT, source.own);
      let name = shown;
      for (let n = 2; reserved(name); n++) name = `${shown.slice(0, 60)}_${n}`;
      names.set(key, name);
      sources.set(name, source);
    }
  }

  const box = nativeToolbox({ direct, servers, options: { ...options, format: "responses", mode: "native" }, write: responsesDef, onPrepared: nameTools });
  if (box.start() && box.shelf.assemble().mode !== "native") {
    // No protocol to speak (the bridge was kept, with a warning): createToolshelf's bridge.
    box.shelf.free();
    return undefined;
  }

  /** A function's name as the core knows it: its name in the core's output, else its own name. */
  const coreName = (namespace, name) => coreNames.get(`${namespace}\0${name}`) ?? sources.get(name)?.own ?? name;
  const history = (messages) => responsesHistory(messages, searchName, coreName);
  const unwrap = (call, execution) => box.shelf.unwrap(call, history(execution?.messages));
  const watch = observers({ onSearch, onReject, onWarning });
  const functionCall = (namespace, name) => (args, execution) => ({
    type: "function_call", call_id: execution?.toolCallId ?? "", name, arguments: JSON.stringify(args ?? {}), ...(namespace === undefined ? {} : { namespace }),
  });

  /** A search answered by the shelf with the conversation; its functions under their ToolSet names, unmarked. */
  async function search(input, execution) {
    const call = { type: "tool_search_call", call_id: input?.call_id ?? execution?.toolCallId ?? null, execution: "client", arguments: input?.arguments };
    const u = box.shelf.unwrap(call, history(execution?.messages));
    const loaded = (u.item?.tools ?? []).map((space) => {
      if (space?.type !== "namespace" || !Array.isArray(space.tools)) return unmarked(space);
      return { ...space, tools: space.tools.map((f) => {
        const source = sourceOf(f);
        const name = source ? names.get(sourceKey(source)) : undefined;
        if (name === undefined) return unmarked(f);
        coreNames.set(`${space.name}\0${name}`, f.name);
        return { ...unmarked(f), name };
      }) };
    });
    if (u.kind === "reject") {
      watch.reject?.({ name: searchName, arguments: input?.arguments ?? {}, id: call.call_id ?? undefined }, u.content);
      return { tools: loaded, reason: u.content };
    }
    watch.searchShelf(box.shelf, input?.arguments, (server) => box.serverName(server) ?? server);
    return { tools: loaded };
  }

  const tools = {};
  const cache = new Map(); // ToolSet name → { id, real, tool }
  let sent = []; // names of the server tools the request carries (alwaysLoad, tier 0)

  /** A caller's tool: as given, or wrapped so that the core reads its call first and onCall sees it. */
  function wrapped(name, real, call, asCall, extra) {
    const id = `${JSON.stringify([call.server ?? null, call.tool])}${asCall ? "checked" : ""}${extra ? "deferred" : ""}`;
    const cached = cache.get(name);
    if (cached?.id === id && cached.real === real) return cached.tool;
    const made = onCall || asCall || extra ? withProperties(real, runsBefore(unwrap, onCall, call, real, asCall, watch), extra) : real;
    cache.set(name, { id, real, tool: made });
    return made;
  }

  /** The ToolSet for the current toolbox: direct tools, the search tool, the tools sent, every deferred tool. */
  function toolbox() {
    const wanted = new Map();
    const { state } = box;
    const sentSources = new Set();
    sent = [];
    for (const def of state.assembly.tools) {
      const source = sourceOf(def);
      if (def.type === "tool_search") {
        const id = `${def.description}\0${JSON.stringify(def.parameters)}`;
        if (cache.get(searchName)?.id !== id) cache.set(searchName, { id, tool: toolSearch({ execution: "client", description: def.description, parameters: def.parameters, execute: search }) });
        wanted.set(searchName, cache.get(searchName).tool);
      } else if (source && state.directDefs.has(def)) {
        wanted.set(def.name, wrapped(def.name, box.real(source), { name: def.name, server: undefined, tool: def.name }, null));
      } else if (source && box.real(source) !== undefined) {
        // A server tool the request carries (alwaysLoad; every tool with `enabled: off`), by the name the core gives it.
        wanted.set(def.name, wrapped(def.name, box.real(source), { name: def.name, server: box.serverName(source.server), tool: source.own }, functionCall(undefined, def.name)));
        sent.push(def.name);
        sentSources.add(sourceKey(source));
      }
    }
    const deferred = [];
    for (const name of Object.keys(direct)) if (deferredDirect.has(name)) deferred.push({ server: null, own: name });
    for (const [server, { set }] of state.routes) for (const name of Object.keys(set)) deferred.push({ server, own: name });
    for (const source of deferred) {
      const name = names.get(sourceKey(source));
      if (name === undefined || wanted.has(name) || sentSources.has(sourceKey(source))) continue; // sent, or a name the core keeps
      const real = box.real(source);
      const providerOptions = { ...real?.providerOptions, openai: { ...real?.providerOptions?.openai, omitFromRequestTools: true } };
      const namespace = source.server ?? DEFERRED_DIRECT;
      wanted.set(name, wrapped(name, real, { name, server: box.serverName(source.server), tool: source.own }, functionCall(namespace, source.own), { providerOptions }));
    }
    return wanted;
  }

  let base = new Map();
  let filled = -1;
  const ready = () => {
    if (filled !== box.state.version) {
      base = toolbox();
      extras = new Map();
      filled = box.state.version;
    }
  };

  /** A stand-in for a name the conversation uses that no tool of the toolbox has now. */
  function gone(name, namespace) {
    const id = `gone\0${namespace ?? ""}`;
    const cached = cache.get(name);
    if (cached?.id === id) return cached.tool;
    const made = standIn({
      name,
      description: `${name}: no longer available.`,
      providerOptions: { openai: { omitFromRequestTools: true } },
      asCall: (args, execution) => functionCall(namespace, namespace === undefined ? name : coreName(namespace, name))(args, execution),
      unwrap, realOf: (source) => box.real(source), serverName: (server) => box.serverName(server), onCall, watch,
    });
    cache.set(name, { id, tool: made });
    return made;
  }

  /** The ToolSet for a conversation (`messages`): the toolbox's, plus stand-ins; and its active names. */
  let extras = new Map(); // stand-ins, kept until the toolbox changes (another conversation may send them)
  function conversation(messages) {
    ready();
    const wanted = new Map(base);
    for (const [name, tool] of extras) if (!wanted.has(name)) wanted.set(name, tool);
    const active = new Set([searchName, ...sent]);
    for (const name of Object.keys(direct)) if (!deferredDirect.has(name) && wanted.has(name)) active.add(name);
    const used = [...loadedFunctions(messages, searchName), ...calledTools(messages).map(([name, namespace]) => [namespace, name])];
    for (const [namespace, name] of used) {
      if (name === searchName) continue;
      if (!wanted.has(name)) {
        const made = gone(name, namespace);
        extras.set(name, made);
        wanted.set(name, made);
      }
      active.add(name);
    }
    syncToolSet(tools, wanted);
    return [...active].filter((name) => wanted.has(name));
  }
  conversation([]);

  /** The ToolSet name of a source (for repairToolCall), or undefined. */
  const keyOf = (source) => {
    const wanted = box.normal(source);
    return names.get(sourceKey(wanted)) ?? (wanted.server === null ? wanted.own : undefined);
  };

  return adapter(box, tools, {
    /**
     * For generateText/streamText: the servers read (a function's, sync or async); `activeTools`
     * the direct tools, the search tool and the functions the conversation loaded or called; a
     * rejected search's reason (a `tool_search_output` has no text) follows its result as a system
     * message, as the README's loop sends it.
     */
    prepareStep({ messages } = {}) {
      return box.step(() => {
        const activeTools = conversation(messages);
        if (!Array.isArray(messages) || !messages.some((m) => m?.role === "tool" && Array.isArray(m.content) && m.content.some(rejectedSearch(searchName)))) return { activeTools };
        return {
          activeTools,
          messages: messages.flatMap((m) => {
            const reasons = m?.role === "tool" && Array.isArray(m.content) ? m.content.filter(rejectedSearch(searchName)).map((p) => p.output.value.reason) : [];
            return [m, ...reasons.map((reason) => ({ role: "system", content: reason }))];
          }),
        };
      });
    },
    /** For generateText/streamText's `repairToolCall`: a wrong name is answered with toolshelf's reject, never a listing. */
    repairToolCall: repairer({
      unwrap,
      asCall: (toolCall, input) => {
        const namespace = [toolCall.providerMetadata, toolCall.providerOptions].map((o) => o && Object.values(o).find((v) => typeof v?.namespace === "string")?.namespace).find(Boolean);
        return functionCall(namespace, namespace === undefined ? toolCall.toolName : coreName(namespace, toolCall.toolName))(input, { toolCallId: toolCall.toolCallId });
      },
      keyOf,
      searchName: () => searchName,
      watch,
    }),
    /** Re-assembles with other servers (an object, or a function read before every step); a failure leaves the adapter as it was. */
    update(next) {
      return box.update(next, () => conversation([]));
    },
  });
}
