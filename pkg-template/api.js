// The API every entry exports. Toolboxes cross into wasm as JSON text (JSON.stringify is the fastest
// way V8 has to hand over a large object graph); results come back as JSON text in which each tool
// the caller gave is its input position, so the caller gets back the very same objects.
import { assembleJson, searchJson, describeJson, unwrapJson, ShelfHandle } from "./wasm/toolshelf.js";
import { state } from "./state.js";

/** A programmer error: `code` is one of SPEC §8's stable codes; `message` says where. */
export class ToolshelfError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "ToolshelfError";
    this.code = code;
  }
}

function ensureReady() {
  if (!state.ready) {
    throw new ToolshelfError("not_initialized", "toolshelf is not initialised: `await init()` first (browsers and the slim entry)");
  }
}

function toJson(value, what) {
  try {
    return JSON.stringify(value ?? null);
  } catch (e) {
    // Options never throw: unwritable options reach the core as a non-object, which it reports as a warning.
    if (what === "options") return JSON.stringify(`unwritable options: ${e.message}`);
    const code = what === "call" ? "invalid_call" : "invalid_toolbox";
    throw new ToolshelfError(code, `${what}: cannot be written as JSON (${e.message})`);
  }
}

function call(fn) {
  try {
    return fn();
  } catch (e) {
    if (e && e.name === "ToolshelfError" && !(e instanceof ToolshelfError)) throw new ToolshelfError(e.code, e.message);
    throw e;
  }
}

/** The tool defs in the order the core numbers them: `tools` first, then each server's list. */
function flatten(toolbox) {
  if (Array.isArray(toolbox)) return toolbox;
  const flat = [];
  if (toolbox && typeof toolbox === "object") {
    if (Array.isArray(toolbox.tools)) flat.push(...toolbox.tools);
    const servers = toolbox.servers;
    if (servers && typeof servers === "object" && !Array.isArray(servers)) {
      for (const list of Object.values(servers)) if (Array.isArray(list)) flat.push(...list);
    }
  }
  return flat;
}

function hydrate(text, flat) {
  const assembly = JSON.parse(text);
  assembly.tools = assembly.tools.map((tool) => (typeof tool === "number" ? flat[tool] : tool));
  return assembly;
}

/** The object the model sent as arguments, where unwrap reads it from (same order as the core). */
function sentArguments(call) {
  const holder = call && typeof call.function === "object" && call.function !== null ? call.function : call;
  for (const key of ["arguments", "input", "args"]) if (holder && key in holder) return holder[key];
  return undefined;
}

function unwrapped(text, call) {
  const result = JSON.parse(text);
  if (result.untouched) {
    result.arguments = sentArguments(call);
    delete result.untouched;
  }
  return result;
}

/** `options.limit` apart from the toolbox options, as the core takes it. */
function splitLimit(options) {
  if (!options || typeof options !== "object" || !("limit" in options)) return [options, undefined];
  const { limit, ...rest } = options;
  const n = Math.floor(Number(limit));
  return [rest, Number.isFinite(n) ? Math.min(Math.max(n, 0), 1000) : undefined];
}

/** Stateless assemble: the model-visible tools for `toolbox` under `options`. */
export function assemble(toolbox, options) {
  ensureReady();
  const text = call(() => assembleJson(toJson(toolbox, "toolbox"), toJson(options, "options")));
  return hydrate(text, flatten(toolbox));
}

/** Stateless search over the toolbox's deferred tools; `options.limit` sets the number of hits. */
export function search(toolbox, query, options) {
  ensureReady();
  const [rest, limit] = splitLimit(options);
  return JSON.parse(call(() => searchJson(toJson(toolbox, "toolbox"), String(query ?? ""), toJson(rest, "options"), limit)));
}

/** Stateless describe: a deferred tool's whole description and schema, or null. */
export function describe(toolbox, name, options) {
  ensureReady();
  return JSON.parse(call(() => describeJson(toJson(toolbox, "toolbox"), String(name ?? ""), toJson(options, "options"))));
}

/** Stateless unwrap: the model's tool call (any provider's shape) → call | answer | reject. */
export function unwrap(toolbox, toolCall, options) {
  ensureReady();
  const text = call(() => unwrapJson(toJson(toolbox, "toolbox"), toJson(toolCall, "call"), toJson(options, "options")));
  return unwrapped(text, toolCall);
}

/** A toolbox prepared once, for agents that keep the same tools across turns. */
export class Shelf {
  #handle;
  #flat;
  #assembly;

  constructor(toolbox, options) {
    ensureReady();
    this.#flat = flatten(toolbox);
    this.#handle = call(() => new ShelfHandle(toJson(toolbox, "toolbox"), toJson(options, "options")));
  }

  /** The model-visible tools; the same result every call (a fresh object each time). */
  assemble() {
    this.#assembly ??= this.#handle.assemble();
    return hydrate(this.#assembly, this.#flat);
  }

  /** Searches the deferred tools; `options.limit` sets the number of hits. */
  search(query, options) {
    const [, limit] = splitLimit(options);
    return JSON.parse(this.#handle.search(String(query ?? ""), limit));
  }

  /** A deferred tool's whole description and schema, or null. */
  describe(name) {
    return JSON.parse(this.#handle.describe(String(name ?? "")));
  }

  /** The model's tool call (any provider's shape) → call | answer | reject. */
  unwrap(toolCall) {
    return unwrapped(call(() => this.#handle.unwrap(toJson(toolCall, "call"))), toolCall);
  }

  /** Releases the wasm memory now rather than at garbage collection. */
  free() {
    this.#handle.free();
  }
}
