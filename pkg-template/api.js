// The API every entry exports. Toolboxes cross into wasm as JSON text (JSON.stringify is the fastest
// way V8 has to hand over a large object graph); results come back as JSON text in which each tool
// the caller gave is its input position, so the caller gets back the very same objects.
import { assembleJson, ShelfHandle } from "./wasm/toolshelf.js";
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
    throw new ToolshelfError(what === "toolbox" ? "invalid_toolbox" : "invalid_options", `${what}: cannot be written as JSON (${e.message})`);
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

/** Stateless assemble: the model-visible tools for `toolbox` under `options`. */
export function assemble(toolbox, options) {
  ensureReady();
  const text = call(() => assembleJson(toJson(toolbox, "toolbox"), toJson(options, "options")));
  return hydrate(text, flatten(toolbox));
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

  /** Releases the wasm memory now rather than at garbage collection. */
  free() {
    this.#handle.free();
  }
}
