// The API every entry exports. Toolboxes cross into wasm as JSON text (JSON.stringify is the fastest
// way V8 has to hand over a large object graph); results come back as JSON text in which each tool
// the caller gave is its input position, so the caller gets back the very same objects.
import { ShelfHandle } from "./wasm/toolshelf.js";
import { ToolshelfError, call, coreString, ensureReady, flatten, hydrate, isDeepFrozen, readToolbox, toJson } from "./common.js";
import { assembleOutlined } from "./outline.js";

export { ToolshelfError };

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

// ---- Prepared toolboxes of the stateless functions.
//
// An agent calls the stateless functions with the same toolbox turn after turn, so each call
// looks for a toolbox it prepared before (the last MEMO_SIZE ones, fewer when their JSON passes
// MEMO_TEXT_LENGTH; each with its wasm-side ShelfHandle and search index) instead of parsing
// and indexing it again. The rule:
//
// 1. Same content: the toolbox's JSON text (what JSON.stringify writes, which is what the core
//    reads) and the options' JSON text equal a prepared one's. This holds for any objects, new or
//    old, and sees every change, however deep, because the text is written anew on every call;
//    it saves the wasm work, not JSON.stringify.
// 2. Same frozen objects, no JSON.stringify at all: when every tool def is deeply frozen (frozen
//    plain objects and arrays all the way down, data properties only, no toJSON) — which no code
//    can undo, so its JSON can never change — and the toolbox holds the very same tool objects,
//    under the same server names and in the same places, as a prepared toolbox whose tools were
//    already deeply frozen when it was prepared, and the options' text is the same.
//
// A mutated tool is therefore always seen (an unfrozen tool is compared by its text; a frozen one
// cannot be mutated); `Object.freeze` your tool defs (deeply) to get the second, cheaper check.
// Results are written afresh from the prepared plan each call, with the caller's objects of this
// call put in place, so callers may change what they get back.
const MEMO_SIZE = 4;
/** JSON text kept at most, summed over the remembered toolboxes (the newest is always kept). */
const MEMO_TEXT_LENGTH = 8_000_000;
const memo = []; // most recently used first: { optionsText, text, shape, frozenFlat, handle, assembly }
const deepFrozenTools = new WeakSet();

function allDeepFrozen(flat) {
  if ("toJSON" in Object.prototype || "toJSON" in Array.prototype) return false;
  for (const tool of flat) {
    if (tool !== null && typeof tool === "object") {
      if (deepFrozenTools.has(tool)) continue;
      if (!isDeepFrozen(tool, 0)) return false;
      deepFrozenTools.add(tool);
    } else if (typeof tool === "function") {
      return false;
    }
  }
  return true;
}

/** The prepared toolbox for this call (from the memo, or made now) and the caller's tool defs. */
function prepared(toolbox, options) {
  const optionsText = toJson(options, "options");
  const { flat, shape } = readToolbox(toolbox);
  const frozen = shape !== null && allDeepFrozen(flat);
  let at = -1;
  if (frozen) {
    at = memo.findIndex(
      (e) =>
        e.frozenFlat !== null &&
        e.shape === shape &&
        e.optionsText === optionsText &&
        e.frozenFlat.length === flat.length &&
        e.frozenFlat.every((tool, i) => tool === flat[i]),
    );
  }
  let text;
  if (at < 0) {
    text = toJson(toolbox, "toolbox");
    at = memo.findIndex((e) => e.optionsText === optionsText && e.text.length === text.length && e.text === text);
  }
  let entry;
  if (at >= 0) {
    [entry] = memo.splice(at, 1);
    if (frozen) Object.assign(entry, { shape, frozenFlat: flat });
  } else {
    const handle = call(() => new ShelfHandle(text, optionsText));
    entry = { optionsText, text, shape, frozenFlat: frozen ? flat : null, handle, assembly: undefined };
  }
  memo.unshift(entry);
  let kept = 0;
  for (let i = 0; i < memo.length; i++) {
    kept += memo[i].text.length;
    if (i > 0 && (i >= MEMO_SIZE || kept > MEMO_TEXT_LENGTH)) {
      for (const gone of memo.splice(i)) release(gone.handle);
      break;
    }
  }
  return { entry, flat };
}

// Releasing a prepared toolbox of thousands of tools takes milliseconds of wasm work, so it is
// done after the current call's work (a zero-delay timer), unless several are already waiting.
const releasing = [];
function release(handle) {
  releasing.push(handle);
  if (releasing.length > 2 || typeof setTimeout !== "function") {
    while (releasing.length) releasing.pop().free();
  } else if (releasing.length === 1) {
    setTimeout(() => {
      while (releasing.length) releasing.pop().free();
    }, 0)?.unref?.();
  }
}

/**
 * Stateless assemble: the model-visible tools for `toolbox` under `options`. It reads the
 * toolbox's outline (outline.js), and takes the full way only where an outline cannot do.
 */
export function assemble(toolbox, options) {
  ensureReady();
  return assembleOutlined(toolbox, options) ?? assembleWhole(toolbox, options);
}

function assembleWhole(toolbox, options) {
  const { entry, flat } = prepared(toolbox, options);
  entry.assembly ??= entry.handle.assemble();
  return hydrate(entry.assembly, flat);
}

/** Stateless search over the toolbox's deferred tools; `options.limit` sets the number of hits. */
export function search(toolbox, query, options) {
  ensureReady();
  const [rest, limit] = splitLimit(options);
  const { entry } = prepared(toolbox, rest);
  return JSON.parse(entry.handle.search(coreString(query), limit));
}

/** Stateless describe: a deferred tool's whole description and schema, or null. */
export function describe(toolbox, name, options) {
  ensureReady();
  const { entry } = prepared(toolbox, options);
  return JSON.parse(entry.handle.describe(coreString(name)));
}

/** Stateless unwrap: the model's tool call (any provider's shape) → call | answer | reject. */
export function unwrap(toolbox, toolCall, options) {
  ensureReady();
  const { entry } = prepared(toolbox, options);
  return unwrapped(call(() => entry.handle.unwrap(toJson(toolCall, "call"))), toolCall);
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
    return JSON.parse(this.#handle.search(coreString(query), limit));
  }

  /** A deferred tool's whole description and schema, or null. */
  describe(name) {
    return JSON.parse(this.#handle.describe(coreString(name)));
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
