// What the package's API module shares with the entries (not exported to users): the error class,
// the readiness check and the JSON boundary.
import { state } from "./state.js";

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

/** `JSON.stringify(value)`; what cannot be written (a BigInt, a cycle) is the programmer error for `what`. */
export function toJson(value, what) {
  try {
    return JSON.stringify(value ?? null);
  } catch (e) {
    // A call nested past the stack JSON.stringify has (5,000 levels): written with its depths
    // beyond CALL_DEPTH_WRITTEN left out, still deeper than the core reads, which rejects it as
    // arguments too deep for the model to fix, as it does the same arguments sent as JSON text.
    if (what === "call" && e instanceof RangeError) {
      try {
        return JSON.stringify(value, depthCapped(CALL_DEPTH_WRITTEN));
      } catch {
        // reported below
      }
    }
    // Options never throw: unwritable options reach the core as a non-object, which it reports as a warning.
    if (what === "options") return JSON.stringify(`unwritable options: ${e.message}`);
    const code = what === "call" ? "invalid_call" : "invalid_toolbox";
    throw new ToolshelfError(code, `${what}: cannot be written as JSON (${e.message})`);
  }
}

/** Deeper than the core parses a call (128 levels of arguments and the call's own few). */
const CALL_DEPTH_WRITTEN = 200;

/** A `JSON.stringify` replacer that writes containers deeper than `limit` levels as `null`. */
function depthCapped(limit) {
  const depths = new WeakMap();
  return function (key, value) {
    if (value === null || typeof value !== "object") return value;
    const depth = (depths.get(this) ?? 0) + 1;
    if (depth > limit) return null;
    depths.set(value, depth);
    return value;
  };
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

/**
 * Runs a call into wasm, rethrowing the core's errors as this module's `ToolshelfError`. A trap of
 * the instance (a defect: the core is built never to trap) becomes `internal_error`, naming it.
 */
export function call(fn) {
  try {
    return fn();
  } catch (e) {
    if (e && e.name === "ToolshelfError" && !(e instanceof ToolshelfError)) throw new ToolshelfError(e.code, e.message);
    if (e instanceof WebAssembly.RuntimeError) {
      throw new ToolshelfError("internal_error", `toolshelf's wasm instance trapped (${e.message}): please report this input`);
    }
    throw e;
  }
}
