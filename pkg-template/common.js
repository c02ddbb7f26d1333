// What the package's API modules share (not exported to users): the error class, the JSON
// boundary, and how a toolbox's tool defs are read in the core's order.
import { state } from "./state.js";

const MAX_FROZEN_DEPTH = 256;

/** A programmer error: `code` is one of SPEC §8's stable codes; `message` says where. */
export class ToolshelfError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "ToolshelfError";
    this.code = code;
  }
}

export function ensureReady() {
  if (!state.ready) {
    throw new ToolshelfError("not_initialized", "toolshelf is not initialised: `await init()` first (browsers and the slim entry)");
  }
}

export function toJson(value, what) {
  try {
    return JSON.stringify(value ?? null);
  } catch (e) {
    // Options never throw: unwritable options reach the core as a non-object, which it reports as a warning.
    if (what === "options") return JSON.stringify(`unwritable options: ${e.message}`);
    const code = what === "call" ? "invalid_call" : "invalid_toolbox";
    throw new ToolshelfError(code, `${what}: cannot be written as JSON (${e.message})`);
  }
}

/**
 * A string as the core keeps strings (ARCHITECTURE.md, "Lone surrogates"): a lone surrogate, which
 * a wasm string cannot carry, as U+10FFFF and a plane-16 stand-in; U+10FFFF itself doubled. For the
 * strings that cross as strings (a query, a name) rather than inside JSON text. Others unchanged.
 */
export function coreString(value) {
  const s = String(value ?? "");
  return /[\p{Cs}\u{10FFFF}]/u.test(s) ? s.replace(/[\p{Cs}\u{10FFFF}]/gu, standIn) : s;
}

function standIn(c) {
  return c.length === 1 ? "\u{10FFFF}" + String.fromCodePoint(0x100000 + c.charCodeAt(0) - 0xd800) : "\u{10FFFF}\u{10FFFF}";
}

export function call(fn) {
  try {
    return fn();
  } catch (e) {
    if (e && e.name === "ToolshelfError" && !(e instanceof ToolshelfError)) throw new ToolshelfError(e.code, e.message);
    throw e;
  }
}

/** Appends `items` to `list` one by one (a spread of 100,000 tools would overflow the call stack). */
function append(list, items) {
  for (const item of items) list.push(item);
}

/** Puts `items` before the elements of `list`, in order. */
function prepend(list, items) {
  const rest = list.splice(0, list.length);
  append(list, items);
  append(list, rest);
}

/** The tool defs in the order the core numbers them: `tools` first, then each server's list. */
export function flatten(toolbox) {
  if (Array.isArray(toolbox)) return toolbox;
  const flat = [];
  if (toolbox && typeof toolbox === "object") {
    if (Array.isArray(toolbox.tools)) append(flat, toolbox.tools);
    const servers = toolbox.servers;
    if (servers && typeof servers === "object" && !Array.isArray(servers)) {
      for (const list of Object.values(servers)) if (Array.isArray(list)) append(flat, list);
    }
  }
  return flat;
}

export function hydrate(text, flat) {
  const assembly = JSON.parse(text);
  assembly.tools = assembly.tools.map((tool) => (typeof tool === "number" ? flat[tool] : tool));
  return assembly;
}

export function isPlainArray(value) {
  return Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype && !("toJSON" in value);
}

export function isPlainObject(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !("toJSON" in value);
}

/** Whether JSON.stringify(value) can never change: primitives, or frozen plain data all the way down. */
export function isDeepFrozen(value, depth) {
  if (value === null || typeof value !== "object") return typeof value !== "function";
  if (depth > MAX_FROZEN_DEPTH || !Object.isFrozen(value)) return false;
  if (!isPlainArray(value) && !isPlainObject(value)) return false;
  for (const key of Object.keys(value)) {
    const property = Reflect.getOwnPropertyDescriptor(value, key);
    if (!property || !("value" in property) || !isDeepFrozen(property.value, depth + 1)) return false;
  }
  return true;
}

/**
 * The tool defs in the core's order (as `flatten`), read once, and the shape of what holds them
 * (root kind, keys, server names, list lengths) when that shape alone fixes the toolbox's JSON
 * around the tools; `shape` is null otherwise (then only the text is compared).
 */
export function readToolbox(toolbox) {
  if (isPlainArray(toolbox)) return { flat: [...toolbox], shape: `[${toolbox.length}]` };
  if (!isPlainObject(toolbox)) return { flat: flatten(toolbox), shape: null };
  const flat = [];
  let shape = "{";
  for (const key of Object.keys(toolbox)) {
    const value = toolbox[key];
    if (key === "tools" && isPlainArray(value)) {
      prepend(flat, value); // `tools` first, whatever the key order
      shape += `tools:${value.length};`;
    } else if (key === "servers" && isPlainObject(value)) {
      shape += "servers:";
      for (const server of Object.keys(value)) {
        const list = value[server];
        if (!isPlainArray(list)) return { flat: flatten(toolbox), shape: null };
        append(flat, list);
        shape += `${JSON.stringify(server)}:${list.length},`;
      }
      shape += ";";
    } else {
      return { flat: flatten(toolbox), shape: null };
    }
  }
  return { flat, shape };
}

