// toolshelf/ai: the Vercel AI SDK (`ai`, a peer dependency). `createToolshelf` turns direct tools
// and deferred tools by server (any ToolSet, e.g. from @ai-sdk/mcp) into what generateText and
// streamText take: the direct tools plus bridge tools whose `execute` answers tool_search /
// tool_describe here and, for tool_call, runs the real tool as the SDK runs a tool it was given
// directly: its own input validation (the transformed value is what `execute` gets), its approval
// (`needsApproval`, `toolApproval`), its context, `toModelOutput` and a generator `execute`.
// Every call is read with the conversation so far (SPEC §14), so a name keeps its meaning across
// attaches and a tool detached answers as unavailable.
// `toolshelfSearch` is a `search` callback for the AI SDK's own `toolSearch({ search })`.
import { InvalidToolInputError, TypeValidationError, asSchema, jsonSchema, tool as aiTool } from "ai";
import { Shelf } from "toolshelf";
// The core's own naming (SPEC §16, one authority): the name a server's tool is shown under.
import { toolName } from "./wasm/toolshelf.js";
import { anthropicNative, openaiNative } from "./ai-native.js";
import { McpToolError, mcpToolSets } from "./ai-mcp.js";
import { NOT_APPLICABLE, approvalStatus } from "./ai-approval.js";
import {
  DEFERRED_DIRECT, anthropicHistory, embeddingSearch, isAsyncGeneratorFunction, isPromise, isToolboxError, loadToolbox, observers,
  inputJsonSchema, own, put, sameSignature, serverLists, serversOf, signature, withProperties,
} from "./ai-shared.js";

export { embeddingSearch, McpToolError };

/** Per-call records (approvals asked, outputs to render) are kept for at most this many calls. */
const RECORDS = 1024;

const isAsyncIterable = (value) => value != null && typeof value[Symbol.asyncIterator] === "function";

/** A Map that forgets its oldest entry past `RECORDS` (records of calls the SDK never completed). */
function records() {
  const map = new Map();
  return {
    set(key, value) {
      map.delete(key);
      map.set(key, value);
      if (map.size > RECORDS) map.delete(map.keys().next().value);
    },
    get: (key) => map.get(key),
    clear: () => map.clear(),
    take(key) {
      const value = map.get(key);
      map.delete(key);
      return value;
    },
  };
}

/** A tool's description: a string, or AI SDK 7's `({ context }) => string`. */
function describeTool(tool, context) {
  if (typeof tool?.description === "string") return { text: tool.description };
  if (typeof tool?.description !== "function") return { text: "" };
  try {
    const text = tool.description({ context, experimental_sandbox: undefined });
    return typeof text === "string" ? { text } : { text: "", problem: "its description function gave no string" };
  } catch (error) {
    return { text: "", problem: `its description function threw (${error?.message ?? error})` };
  }
}

/** Validates `value` with an AI SDK schema as the SDK does (safeValidateTypes): the transformed value, or throws. */
async function validated(schema, value, wrap) {
  if (schema == null) return value;
  const validate = asSchema(schema).validate;
  if (validate == null) return value;
  let result;
  try {
    result = await validate(value);
  } catch (cause) {
    throw wrap(TypeValidationError.wrap({ value, cause }));
  }
  if (!result.success) throw wrap(TypeValidationError.wrap({ value, cause: result.error }));
  return result.value;
}

/** The model output the SDK makes of a tool's result when the tool has no `toModelOutput`. */
function defaultModelOutput(output) {
  if (typeof output === "string") return { type: "text", value: output };
  const text = output === undefined ? undefined : JSON.stringify(output);
  return { type: "json", value: text === undefined ? null : JSON.parse(text) };
}


/** The last value of an async iterable (a tool `execute` that streams). */
async function lastOf(iterable) {
  let last;
  for await (const value of iterable) last = value;
  return last;
}

/**
 * Reads `servers` (a value, or a function read now and before every step, sync or async) as ToolSets
 * by server, MCP clients and mcpServers' result made into ToolSets once each (ai-mcp.js).
 */
function serversReader({ onProgress, onWarning = (w) => console.warn(w) }) {
  const memo = new WeakMap();
  const toolSets = (value) => mcpToolSets(value, { memo, onProgress, onWarning });
  return (servers) => {
    const value = serversOf(servers);
    return isPromise(value) ? value.then(toolSets) : toolSets(value);
  };
}

/**
 * Direct tools plus deferred tools by server → `{ tools, prepareStep, toolApproval, shelf, assembly,
 * warnings, update }`. `servers` may be a function (sync or async): `prepareStep` calls it before
 * every step and re-assembles when a server or its tool list changed (the `tools` object is updated
 * in place). Each call is unwrapped with the step's conversation (SPEC §14).
 */
export function createToolshelf({ tools: direct = {}, servers = {}, options = {}, onCall, onSearch, onReject, onWarning, onProgress, toolApproval, embedding } = {}) {
  if (direct === null || typeof direct !== "object" || Array.isArray(direct)) {
    throw new TypeError(`toolshelf/ai: tools is ${Array.isArray(direct) ? "an array" : direct === null ? "null" : typeof direct}; expected an AI SDK ToolSet (an object of tools by name)`);
  }
  const watch = observers({ onSearch, onReject, onWarning });
  const readServers = serversReader({ onProgress, onWarning });
  const semantic = embedding?.model ? embeddingSearch(embedding) : undefined;
  const toolSet = {};
  const defs = new WeakMap(); // tool object → its MCP def, so that Shelf.update keeps what it read
  const asked = records(); // toolCallId → the approval status the SDK was told, for execute
  const outputs = records(); // toolCallId → the real tool and its input, for toModelOutput
  const unwraps = records(); // toolCallId → the call unwrapped (input hooks, approval, execute: one unwrap)
  const resolved = records(); // toolCallId → the call read and validated (one validation per call)
  let state; // { shelf, servers, routes, signature, assembly, warnings }
  let shelf;
  let seen = {}; // what the last prepareStep was given: toolsContext, runtimeContext

  /** The MCP def of a tool, the same object while the tool and its name are the same. */
  function defOf(name, tool, problems, where, cache = true) {
    const cached = cache && tool !== null && typeof tool === "object" ? defs.get(tool) : undefined;
    if (cached?.name === name) {
      for (const problem of cached.problems) problems.push(`${where}: ${problem}`);
      return cached.def;
    }
    const description = describeTool(tool, own(seen.toolsContext, name));
    const input = inputJsonSchema(tool);
    const own_ = [description.problem, input.problem].filter(Boolean);
    const def = { name, description: description.text, inputSchema: input.schema };
    if (cache && tool !== null && typeof tool === "object") defs.set(tool, { name, def, problems: own_ });
    for (const problem of own_) problems.push(`${where}: ${problem}`);
    return def;
  }

  /** The toolbox for `next` (servers by name), with the routes back from the names the core sees. */
  function toolboxOf(next) {
    const warnings = [];
    const directDefs = Object.entries(direct).map(([name, tool]) => defOf(name, tool, warnings, `tool "${name}"`, false)); // its own objects: told apart from server defs
    const { routes, lists } = serverLists(next, (seenAs, server, name, tool) => defOf(name, tool, warnings, `server "${server}", tool "${name}"`), warnings);
    return { directDefs, routes, lists, warnings };
  }

  function prepare(next) {
    const box = toolboxOf(next);
    let left;
    ({ shelf, left } = loadToolbox(shelf, (toolbox) => new Shelf(toolbox, { ...options, format: "mcp" }), box.directDefs, box.lists));
    for (const [name] of left) box.routes.delete(name);
    const warnings = [...box.warnings, ...left.map(([, warning]) => warning)].map((w) => `toolshelf/ai: ${w}`);
    unwraps.clear();
    resolved.clear();
    const assembly = shelf.assemble();
    assembly.warnings = [...warnings, ...assembly.warnings];
    state = { servers: next, routes: box.routes, signature: signature(next), assembly, warnings };
    for (const key of Object.keys(toolSet)) delete toolSet[key];
    const directDefs = new Map(box.directDefs.map((def) => [def, def.name]));
    for (const def of assembly.tools) {
      put(toolSet, def.name, directDefs.has(def) ? directTool(def.name) : routed(def));
    }
  }

  /** A direct tool as given, or, with `onCall`, the same tool whose `execute` asks `onCall` first. */
  function directTool(name) {
    const tool = direct[name];
    if (!onCall || typeof tool?.execute !== "function") return tool;
    return withProperties(tool, async (input, execution) => {
      const verdict = await onCall({ name, server: undefined, tool: name, arguments: input }, execution);
      return typeof verdict === "string" ? verdict : input;
    });
  }

  /** The real tool behind an unwrapped call, with the call `onCall` sees, or undefined. */
  function target(u) {
    const name = u.tool ?? u.name;
    if (u.server === undefined || u.server === DEFERRED_DIRECT) {
      return Object.hasOwn(direct, name) ? { tool: direct[name], call: { name: u.name, server: undefined, tool: name, arguments: u.arguments } } : undefined;
    }
    const route = state.routes.get(u.server);
    if (!route || !Object.hasOwn(route.set, name)) return undefined;
    return { tool: route.set[name], call: { name: u.name, server: route.server, tool: name, arguments: u.arguments } };
  }

  /**
   * A bridge call read as the SDK reads a direct tool's call: unwrapped and validated by the core,
   * then by the tool's own `inputSchema` (its transformed value is the input), its context read
   * and checked by its `contextSchema`. `{ content }` when the core answered or rejected it.
   */
  /** The unwrapped call, unwrapped once per tool call id (approval, then execute). */
  function unwrapCall(name, input, execution) {
    const id = execution?.toolCallId;
    const json = JSON.stringify(input ?? {});
    const memo = id === undefined ? undefined : unwraps.get(id);
    if (memo && memo.name === name && memo.json === json) return memo.u;
    const u = shelf.unwrap({ name, arguments: input ?? {}, id }, historyOf(execution));
    if (id !== undefined) unwraps.set(id, { name, json, u });
    return u;
  }

  /**
   * The conversation the SDK gave this call (`messages`: what the model was sent for the step), as
   * the history the core reads (SPEC §14): names bound by earlier calls keep their tool, and a tool
   * the conversation used that is gone is an `unavailable_tool` reject. The bridge's own tools'
   * inputs are kept (they name the tools called and described); a direct tool's are not read.
   */
  function historyOf(execution) {
    const messages = execution?.messages;
    return Array.isArray(messages) && messages.length > 0 ? anthropicHistory(messages, (name) => own(direct, name) === undefined) : undefined;
  }

  function resolve(name, input, execution) {
    const id = execution?.toolCallId;
    const json = JSON.stringify(input ?? {});
    const memo = id === undefined ? undefined : resolved.get(id);
    if (memo && memo.name === name && memo.json === json) return memo.promise;
    const promise = read(name, input, execution);
    if (id !== undefined) resolved.set(id, { name, json, promise });
    return promise;
  }

  async function read(name, input, execution) {
    let u = unwrapCall(name, input, execution);
    // A search answered with the embedding model's vectors fused in (SPEC §12).
    if (semantic && u.kind === "answer") u = await semantic.unwrap(shelf, { name, arguments: input ?? {}, id: execution?.toolCallId }, historyOf(execution));
    const modelCall = { name, arguments: input ?? {}, id: execution?.toolCallId };
    if (u.kind === "answer") watch.searchShelf(shelf, input, (server) => state.routes.get(server)?.server ?? server);
    if (u.kind === "reject") watch.reject?.(modelCall, u.content);
    if (u.kind !== "call") return { content: u.content };
    const found = target(u);
    if (!found) {
      const content = `${u.name} has no tool here; it was not invoked.`;
      watch.reject?.(modelCall, content);
      return { content };
    }
    const { tool, call } = found;
    // The error names the tool as the model called it (its shown name or the short form it typed).
    const value = await validated(tool?.inputSchema, u.arguments,
      (cause) => new InvalidToolInputError({ toolName: typeof input?.name === "string" ? input.name : u.name, toolInput: JSON.stringify(u.arguments), cause }));
    const toolsContext = execution?.toolsContext ?? seen.toolsContext;
    const given = own(toolsContext, call.name) ?? own(toolsContext, call.tool);
    const context = tool?.contextSchema == null ? given : await validated(tool.contextSchema, given, (e) => e);
    return { tool, call: { ...call, arguments: value }, value, context };
  }

  /**
   * The approval status of a resolved call, as the SDK's own resolution gives it for a direct
   * tool: `toolApproval` (by the name the model knows, else the tool's own name; or a function),
   * else the tool's `needsApproval` (boolean or function).
   */
  function approval(r, { toolCallId, messages, runtimeContext, toolsContext }) {
    return approvalStatus(toolApproval, r.tool, {
      toolCall: { type: "tool-call", toolCallId, toolName: r.call.name, input: r.value },
      tools: { [r.call.name]: r.tool },
      names: [r.call.name, r.call.tool],
      toolContext: r.context,
      toolsContext: toolsContext ?? seen.toolsContext ?? {},
      runtimeContext: runtimeContext ?? seen.runtimeContext,
      messages: messages ?? [],
    });
  }

  /** Resolves a bridge call's approval for the SDK and records what the SDK was told. */
  async function ask(name, input, options) {
    let r;
    try {
      r = await resolve(name, input, options);
    } catch {
      return NOT_APPLICABLE; // invalid input: nothing to approve; execute reports the error
    }
    if (!r.tool) return NOT_APPLICABLE;
    const status = await approval(r, options);
    if (options?.toolCallId !== undefined) asked.set(options.toolCallId, { input: JSON.stringify(input ?? {}), status });
    return status;
  }

  /** Runs a resolved call after its approval: declined, denied or unasked calls run nothing. */
  async function admit(name, input, execution) {
    const r = await resolve(name, input, execution);
    unwraps.take(execution?.toolCallId);
    resolved.take(execution?.toolCallId);
    if (!r.tool) return r;
    const record = execution?.toolCallId === undefined ? undefined : asked.take(execution.toolCallId);
    const known = record && record.input === JSON.stringify(input ?? {});
    const status = known ? record.status : await approval(r, execution ?? {});
    if (status.type === "denied") return { content: `${r.call.name} was not run: its approval was denied${status.reason ? ` (${status.reason})` : ""}.` };
    if (status.type === "user-approval" && !known) {
      return { content: `${r.call.name} needs approval before it runs, and none was asked for this call, so it was not run.` };
    }
    const verdict = onCall ? await onCall(r.call, execution) : undefined;
    if (typeof verdict === "string") return { content: verdict }; // the hook declined, with a reason for the model
    if (typeof r.tool?.execute !== "function") return { content: `${r.call.tool} has no execute function here; it was not invoked.` };
    if (execution?.toolCallId !== undefined) outputs.set(execution.toolCallId, { tool: r.tool, value: r.value });
    return { run: () => r.tool.execute(r.value, { ...execution, context: r.context }) };
  }

  /**
   * `execute` of a bridge tool. A real tool whose `execute` is an async generator is streamed (its
   * values are the SDK's preliminary results, the last the result); otherwise the result is awaited.
   */
  function execute(name) {
    return (input, execution) => {
      const u = unwrapCall(name, input, execution);
      if (u.kind === "call" && isAsyncGeneratorFunction(target(u)?.tool?.execute)) {
        return (async function* () {
          const admitted = await admit(name, input, execution);
          if (!admitted.run) return yield admitted.content;
          try {
            yield* admitted.run();
          } catch (error) {
            outputs.take(execution?.toolCallId); // a tool error: the SDK renders it, not toModelOutput
            throw error;
          }
        })();
      }
      return (async () => {
        const admitted = await admit(name, input, execution);
        if (!admitted.run) return admitted.content;
        try {
          const result = await admitted.run();
          return isAsyncIterable(result) ? await lastOf(result) : result;
        } catch (error) {
          outputs.take(execution?.toolCallId); // a tool error: the SDK renders it, not toModelOutput
          throw error;
        }
      })();
    };
  }

  /** A model-visible tool that goes through unwrap: a bridge tool, or a deferred tool in tier 0. */
  const routed = (def) => aiTool({
    description: def.description,
    inputSchema: jsonSchema(def.inputSchema),
    needsApproval: async (input, options) => (await ask(def.name, input, options)).type === "user-approval",
    onInputAvailable: async ({ input, ...options }) => {
      // The real tool's input hooks, when its input is whole, as generateText calls a direct tool's.
      const r = await resolve(def.name, input, options).catch(() => undefined);
      if (r?.tool?.onInputStart) await r.tool.onInputStart({ ...options, context: r.context });
      if (r?.tool?.onInputAvailable) await r.tool.onInputAvailable({ ...options, input: r.value, context: r.context });
    },
    execute: execute(def.name),
    toModelOutput: ({ toolCallId, input, output }) => {
      const ran = outputs.take(toolCallId);
      return ran?.tool?.toModelOutput ? ran.tool.toModelOutput({ toolCallId, input: ran.value, output }) : defaultModelOutput(output);
    },
  });

  /** For generateText's `toolApproval`: bridge calls as their real tool, the rest as the SDK would. */
  async function sdkToolApproval({ toolCall, tools, toolsContext, runtimeContext, messages }) {
    const name = toolCall.toolName;
    const ours = own(toolSet, name);
    if (ours !== undefined && own(direct, name) === undefined) {
      return ask(name, toolCall.input, { toolCallId: toolCall.toolCallId, messages, toolsContext, runtimeContext });
    }
    return approvalStatus(toolApproval, own(tools, name), { toolCall, tools, names: [name], toolContext: own(toolsContext, name), toolsContext, runtimeContext, messages });
  }

  // An async `servers` function: the adapter starts with no server, and the first step awaits it.
  let first = readServers(servers);
  if (isPromise(first)) prepare({});
  else {
    prepare(first);
    first = undefined;
  }
  /** Re-assembles when the servers read differ from the current ones (by identity and tool names). */
  const refresh = (next) => {
    if (!sameSignature(signature(next), state.signature)) prepare(next);
  };
  return {
    tools: toolSet,
    get shelf() { return shelf; },
    get assembly() { return state.assembly; },
    get warnings() { return state.warnings; },
    toolApproval: sdkToolApproval,
    /**
     * Re-assembles with these servers (an object, or a function read now and before every step,
     * which may be async: then so is update); when that fails, the adapter is left as it was.
     */
    update(next) {
      const value = readServers(next);
      const apply = (read) => {
        prepare(read);
        servers = next;
        first = undefined;
      };
      return isPromise(value) ? value.then(apply) : apply(value);
    },
    /**
     * For generateText/streamText: re-assembles before a step when the servers changed (a promise
     * when `servers` is an async function).
     */
    prepareStep({ toolsContext, runtimeContext } = {}) {
      seen = { toolsContext, runtimeContext };
      asked.clear(); // what the SDK was told about a call counts for its own step only
      const next = first ?? readServers(servers);
      first = undefined;
      if (isPromise(next)) return next.then((read) => { refresh(read); return undefined; });
      refresh(next);
      return undefined;
    },
  };
}

/**
 * A `search` callback for the AI SDK's `toolSearch({ search })`: toolshelf's ranking over the
 * candidate tools the SDK passes (names and descriptions; with `tools`, their input schemas too,
 * whose parameter names count). The prepared index is kept in the callback and rebuilt only when
 * the candidates change. A candidate the core refuses (an empty name, a schema too deep) is left
 * out and reported to `onWarning`; a repeated name is searched once.
 */
export function toolshelfSearch({ tools, limit = 10, server = "deferred", onWarning = (w) => console.warn(w) } = {}) {
  let last = [];
  let shelf;
  let ownNames = new Map(); // the name the core shows each candidate under → the candidate's name
  const same = (candidates) => candidates.length === last.length
    && candidates.every((t, i) => t.name === last[i][0] && (t.description ?? "") === last[i][1]);
  const build = (defs) => new Shelf({ servers: { [server]: defs } }, { format: "mcp", maxSearchLimit: 50 });
  return ({ query, tools: candidates }) => {
    if (!shelf || !same(candidates)) {
      const names = new Set();
      const defs = [];
      for (const t of candidates) {
        if (names.has(t.name)) {
          onWarning(`toolshelfSearch: tool "${t.name}" is given twice; searched once`);
          continue;
        }
        names.add(t.name);
        const schema = own(tools, t.name) ? inputJsonSchema(tools[t.name]).schema : { type: "object" };
        defs.push({ name: t.name, description: t.description ?? "", inputSchema: schema });
      }
      let next;
      try {
        next = build(defs);
      } catch (error) {
        if (!isToolboxError(error)) throw error;
        next = build(defs.filter((def) => {
          try {
            build([def]).free();
            return true;
          } catch (e) {
            if (!isToolboxError(e)) throw e;
            onWarning(`toolshelfSearch: tool ${JSON.stringify(def.name)} left out: ${e.message}`);
            return false;
          }
        }));
      }
      shelf?.free?.();
      shelf = next;
      ownNames = new Map([...names].map((name) => [toolName(server, name), name]));
      last = candidates.map((t) => [t.name, t.description ?? ""]);
    }
    return shelf.search(query, { limit }).matches.map((m) => ownNames.get(m.name) ?? m.name);
  };
}

/**
 * Native tool search with @ai-sdk/anthropic (SPEC §11): see ai-native.js. Where the core keeps the
 * bridge (over 10,000 deferred tools at creation), createToolshelf's bridge.
 */
export function createAnthropicNativeToolshelf(input = {}) {
  const { tools, servers, options, onCall, onSearch, onReject, onWarning, onProgress, embedding } = input;
  return mcpAware(input, anthropicNative)
    ?? createToolshelf({ tools, servers, options: { ...options, mode: "bridge" }, onCall, onSearch, onReject, onWarning, onProgress, embedding });
}

/**
 * Native tool search with @ai-sdk/openai's Responses models (SPEC §11): see ai-native.js. Where the
 * core keeps the bridge, createToolshelf's bridge.
 */
export function createOpenAINativeToolshelf(input = {}) {
  const { tools, servers, options, onCall, onSearch, onReject, onWarning, onProgress } = input;
  return mcpAware(input, openaiNative)
    ?? createToolshelf({ tools, servers, options: { ...options, mode: "bridge" }, onCall, onSearch, onReject, onWarning, onProgress });
}

/**
 * A native adapter made with `servers` read as createToolshelf reads them (MCP clients and
 * mcpServers' result included), its `update` too; undefined where the core keeps the bridge.
 */
function mcpAware(input, make) {
  const read = serversReader(input);
  const servers = (given) => (typeof given === "function" ? () => read(given) : read(given));
  const adapter = make({ ...input, servers: servers(input.servers) });
  if (adapter) {
    const update = adapter.update.bind(adapter);
    adapter.update = (next) => update(servers(next));
  }
  return adapter;
}
