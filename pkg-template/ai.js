// toolshelf/ai: the Vercel AI SDK (`ai`, a peer dependency). `createToolshelf` turns direct tools
// and deferred tools by server (any ToolSet, e.g. from @ai-sdk/mcp) into what generateText and
// streamText take: the direct tools as they are plus bridge tools whose `execute` answers
// tool_search / tool_describe here and, for tool_call, runs the real tool's `execute` after
// validation (a reject goes back to the model as the tool result; nothing runs). `toolshelfSearch`
// is a `search` callback for the AI SDK's own `toolSearch({ search })` (tools with deferLoading).
import { asSchema, jsonSchema, tool as aiTool } from "ai";
import { Shelf } from "toolshelf";

/** The JSON Schema of an AI SDK tool's input (zod, Standard Schema or jsonSchema()), else any object. */
function inputJsonSchema(tool) {
  try {
    const schema = asSchema(tool?.inputSchema).jsonSchema;
    return schema && typeof schema === "object" && !("then" in schema) ? schema : { type: "object" };
  } catch {
    return { type: "object" }; // a schema the SDK cannot write as JSON Schema: no validation, the call passes
  }
}

/** An AI SDK tool as an MCP-format tool def (the toolbox's one format). */
function toDef(name, tool) {
  const description = typeof tool?.description === "string" ? tool.description : "";
  return { name, description, inputSchema: inputJsonSchema(tool) };
}

/** A cheap identity of the servers: each ToolSet object and its tool names. */
function signature(servers) {
  return Object.entries(servers).map(([server, set]) => [server, set, Object.keys(set).join("\0")]);
}

function sameSignature(a, b) {
  return a.length === b.length && a.every(([server, set, keys], i) => server === b[i][0] && set === b[i][1] && keys === b[i][2]);
}

/**
 * Direct tools plus deferred tools by server → `{ tools, prepareStep, shelf, assembly, update }`.
 * `servers` may be a function: `prepareStep` calls it before every step and re-assembles when a
 * server or its tool list changed (the `tools` object is updated in place).
 */
export function createToolshelf({ tools: direct = {}, servers = {}, options = {}, onCall } = {}) {
  const toolSet = {};
  let state;

  const readServers = () => (typeof servers === "function" ? servers() : servers) ?? {};

  /** The real tool behind an unwrapped call: a server's tool, or a direct one (also `defer`red ones). */
  const target = (call) => (call.server !== undefined && Object.hasOwn(state.servers, call.server)
    ? state.servers[call.server][call.tool]
    : direct[call.tool ?? call.name]);

  async function run(name, input, execution) {
    const unwrapped = state.shelf.unwrap({ name, arguments: input ?? {}, id: execution?.toolCallId });
    if (unwrapped.kind !== "call") return unwrapped.content; // an answer, or a reject: nothing ran
    const call = { name: unwrapped.name, server: unwrapped.server, tool: unwrapped.tool ?? unwrapped.name, arguments: unwrapped.arguments };
    const verdict = onCall ? await onCall(call, execution) : undefined;
    if (typeof verdict === "string") return verdict; // the hook declined, with a reason for the model
    const real = target(unwrapped);
    if (typeof real?.execute !== "function") return `${call.tool} has no execute function here; it was not invoked.`;
    return real.execute(unwrapped.arguments, execution);
  }

  /** A model-visible tool that goes through unwrap: a bridge tool, or a deferred tool in tier 0. */
  const routed = (def) => aiTool({
    description: def.description,
    inputSchema: jsonSchema(def.inputSchema),
    execute: (input, execution) => run(def.name, input, execution),
  });

  function prepare(next) {
    const toolbox = {
      tools: Object.entries(direct).map(([name, tool]) => toDef(name, tool)),
      servers: Object.fromEntries(Object.entries(next).map(([server, set]) => [server, Object.entries(set).map(([n, t]) => toDef(n, t))])),
    };
    const shelf = new Shelf(toolbox, { ...options, format: "mcp" });
    const previous = state?.shelf;
    state = { servers: next, signature: signature(next), shelf, assembly: shelf.assemble() };
    previous?.free?.();
    for (const key of Object.keys(toolSet)) delete toolSet[key];
    const directDefs = new Set(toolbox.tools);
    for (const def of state.assembly.tools) toolSet[def.name] = directDefs.has(def) ? direct[def.name] : routed(def);
  }

  prepare(readServers());
  return {
    tools: toolSet,
    get shelf() { return state.shelf; },
    get assembly() { return state.assembly; },
    /** Re-assembles with these servers. */
    update(next) {
      servers = next;
      prepare(readServers());
    },
    /** For generateText/streamText: re-assembles before a step when the servers changed. */
    prepareStep() {
      const next = readServers();
      if (!sameSignature(signature(next), state.signature)) prepare(next);
      return undefined;
    },
  };
}

/**
 * A `search` callback for the AI SDK's `toolSearch({ search })`: toolshelf's ranking over the
 * candidate tools the SDK passes (names and descriptions; with `tools`, their input schemas too,
 * whose parameter names count). The prepared index is kept in the callback and rebuilt only when
 * the candidates change.
 */
export function toolshelfSearch({ tools, limit = 10, server = "deferred" } = {}) {
  let key;
  let shelf;
  return ({ query, tools: candidates }) => {
    const nextKey = candidates.map((t) => `${t.name}\u0000${t.description ?? ""}`).join("\u0001");
    if (nextKey !== key) {
      const defs = candidates.map((t) => ({
        name: t.name,
        description: t.description ?? "",
        inputSchema: tools?.[t.name] ? inputJsonSchema(tools[t.name]) : { type: "object" },
      }));
      shelf?.free?.();
      shelf = new Shelf({ servers: { [server]: defs } }, { format: "mcp", maxSearchLimit: 50 });
      key = nextKey;
    }
    return shelf.search(query, { limit }).matches.map((m) => m.name);
  };
}
export { createAnthropicNativeToolshelf } from "./ai-native.js";
