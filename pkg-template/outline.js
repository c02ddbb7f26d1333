// Stateless assemble from an outline of the toolbox. assemble reads little of a tool def: what tells
// the format (`type`, `function`, which schema key it has), the name and the description; the
// schemas, nearly all of a toolbox's bytes, only count through their size. So instead of writing
// the whole toolbox as JSON (≈30 ms for the 2,105-tool benchmark toolbox), the core is given an
// outline: each tool def with only those keys, a placeholder in place of its schema (≈2 ms).
//
// What an outline cannot tell is taken from the caller's objects:
// - the fingerprint hashes the model-visible array, written anew on every call (direct tools whole,
//   so a change deep inside one is seen; the bridge tools from the plan);
// - `deferredTokens` needs every deferred tool's whole JSON: it is computed when first read (a
//   getter that then becomes a plain property), from the tool defs as they are at that moment;
// - tier 0 shows every tool as given (and renames tools under `qualify`): that takes the full way.
// An outline holds no schema, so assemble never fails on one (cycles, BigInt, nesting past 128
// levels) where `new Shelf` would: such a toolbox fails at search, describe and unwrap instead.
//
// The plans of the last OUTLINE_MEMO_SIZE toolboxes are kept (fewer when their outlines are long),
// with the tool objects they were seen with. The same tool objects as last turn are recognised
// without writing anything: each tool's outline fields (read with `.`) are compared with the values
// they had then; new objects are outlined and compared by the outline's text.
import { outlinePlan, fingerprint } from "./wasm/toolshelf.js";
import { call, hydrate, isDeepFrozen, isPlainArray, isPlainObject, readToolbox, toJson } from "./common.js";

const OUTLINE_MEMO_SIZE = 8;
/** Outline text kept at most, summed over the remembered entries (the newest is always kept). */
const OUTLINE_MEMO_TEXT_LENGTH = 8_000_000;
const SCHEMA_KEYS = new Set(["parameters", "input_schema", "inputSchema"]);
const NAMING_KEYS = new Set(["type", "name", "description"]);
/**
 * Most recently used first: { optionsText, shape, defs (a weak reference to each tool def it was
 * last seen with, `holdWeakly`; null when let go), fields, text, planText, deferred, made, visible,
 * fingerprint, whole }.
 */
const memo = [];
/** Sizes (code points of the JSON) of deeply frozen tool defs, which can never change. */
const frozenSizes = new WeakMap();

/** Whether JSON.stringify writes a property holding `value` (it skips the others). */
function written(value) {
  return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
}

function hasToJson(value) {
  return value !== null && typeof value === "object" && typeof value.toJSON === "function";
}

/**
 * The outline of one tool def: its own keys the core reads (`type`, `name`, `description`, and
 * `function` outlined in turn), each schema key holding 0. A def that is not an object is kept as
 * it is (the core reports it). `undefined` when the outline cannot stand for the def (an object
 * that is not plain data, or a schema with `toJSON`): the caller then takes the full way.
 */
function outlineOf(def, nested = false) {
  if (def === null || typeof def !== "object" || isPlainArray(def)) return def;
  if (!isPlainObject(def)) return undefined;
  const outline = {};
  for (const key of Object.keys(def)) {
    const value = def[key];
    if (!written(value)) continue;
    if (NAMING_KEYS.has(key)) {
      outline[key] = value;
    } else if (SCHEMA_KEYS.has(key)) {
      if (hasToJson(value)) return undefined;
      outline[key] = 0;
    } else if (key === "function" && !nested) {
      const inner = isPlainObject(value) ? outlineOf(value, true) : hasToJson(value) ? undefined : value;
      if (inner === undefined) return undefined;
      outline.function = inner;
    }
  }
  return outline;
}

/**
 * The values an outline was made from, to tell later whether the same def still has them. No
 * object of the def is kept (only names, descriptions and flags), so the memo never keeps an old
 * toolbox's schemas alive.
 */
function fieldsOf(def) {
  const fn = def.function;
  const holder = fn !== null && typeof fn === "object";
  const has = (value) => written(value) && !hasToJson(value);
  return [def.type, def.name, def.description, has(def.parameters), has(def.input_schema), has(def.inputSchema), holder, holder ? fieldsOf(fn) : fn];
}

function sameFields(def, f) {
  const fn = def.function;
  const holder = fn !== null && typeof fn === "object";
  const has = (value, flag) => !hasToJson(value) && written(value) === flag;
  return (
    def.type === f[0] &&
    def.name === f[1] &&
    def.description === f[2] &&
    has(def.parameters, f[3]) &&
    has(def.input_schema, f[4]) &&
    has(def.inputSchema, f[5]) &&
    holder === f[6] &&
    (holder ? isPlainObject(fn) && sameFields(fn, f[7]) : fn === f[7])
  );
}

/** The toolbox with every tool def outlined, in the same structure; `undefined` as `outlineOf`. */
export function outlineToolbox(toolbox) {
  const list = (defs) => {
    const out = defs.map((def) => outlineOf(def));
    return out.includes(undefined) ? undefined : out;
  };
  if (Array.isArray(toolbox)) return list(toolbox);
  const outline = {};
  for (const key of Object.keys(toolbox)) {
    // readToolbox gave a shape, so the keys are `tools` (a plain array) and `servers` (plain object of plain arrays).
    if (key === "tools") {
      outline.tools = list(toolbox.tools);
      if (outline.tools === undefined) return undefined;
    } else {
      const servers = Object.create(null); // a server named "__proto__" stays a server
      for (const [name, defs] of Object.entries(toolbox.servers)) {
        servers[name] = list(defs);
        if (servers[name] === undefined) return undefined;
      }
      outline.servers = servers;
    }
  }
  return outline;
}

/** Code points of a `JSON.stringify` text (which holds surrogates only in pairs). */
function codePoints(text) {
  let n = text.length;
  if (!/[\ud800-\udbff]/.test(text)) return n;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) n--;
  }
  return n;
}

function sizeOf(def) {
  const known = frozenSizes.get(def);
  if (known !== undefined) return known;
  const size = codePoints(toJson(def, "toolbox"));
  if (Object.isFrozen(def) && isDeepFrozen(def, 0)) frozenSizes.set(def, size);
  return size;
}

function setValue(target, key, value) {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** `deferredTokens` as a getter that sums the deferred tools' token estimates when first read. */
function defineDeferredTokens(assembly, deferred) {
  Object.defineProperty(assembly, "deferredTokens", {
    enumerable: true,
    configurable: true,
    get() {
      const tokens = deferred.reduce((sum, def) => sum + Math.ceil(sizeOf(def) / 4), 0);
      setValue(this, "deferredTokens", tokens);
      return tokens;
    },
    set(value) {
      setValue(this, "deferredTokens", value);
    },
  });
}

/** The memo entry made with the very same tool objects, all still holding the same outline fields. */
function sameObjects(optionsText, shape, flat) {
  return memo.findIndex(
    (e) =>
      e.optionsText === optionsText &&
      e.shape === shape &&
      e.defs !== null &&
      e.defs.length === flat.length &&
      e.defs.every((ref, i) => ref.deref() === flat[i] && sameFields(flat[i], e.fields[i])),
  );
}

/** The memo entry for this call, found or made; `undefined` when the outline cannot be used. */
function entryFor(toolbox, options) {
  const optionsText = toJson(options, "options");
  const { flat, shape } = readToolbox(toolbox);
  if (shape === null) return undefined;
  let at = sameObjects(optionsText, shape, flat);
  let entry;
  if (at >= 0) {
    [entry] = memo.splice(at, 1);
  } else {
    const outline = outlineToolbox(toolbox);
    if (outline === undefined) return undefined;
    const text = toJson(outline, "toolbox");
    const same = memo.find((e) => e.optionsText === optionsText && e.text === text);
    // A new entry even for a known text (sharing its plan): the objects it was last seen with stay
    // recognisable too. Every def is an object now: the core accepted this outline before.
    const plan = same ?? newEntry(text, optionsText); // throws for a bad toolbox
    entry = { ...plan, shape, defs: flat.map(holdWeakly), fields: flat.map(fieldsOf) };
  }
  memo.unshift(entry);
  trimMemo();
  return { entry, flat };
}

/**
 * A reference to a tool def that does not keep it alive. workerd has no WeakRef (Cloudflare
 * enables it only with a compatibility flag): there the reference is strong, and only the newest
 * entry keeps its tool defs (`trimMemo`), so the memo holds one toolbox's objects at most.
 */
const holdWeakly = typeof WeakRef === "function" ? (def) => new WeakRef(def) : (def) => ({ deref: () => def });

/** Keeps the newest entry, and older ones while they are few and their outlines short enough. */
function trimMemo() {
  if (typeof WeakRef !== "function") for (const old of memo.slice(1)) old.defs = null;
  let kept = 0;
  for (let i = 0; i < memo.length; i++) {
    kept += memo[i].text.length;
    if (i > 0 && (i >= OUTLINE_MEMO_SIZE || kept > OUTLINE_MEMO_TEXT_LENGTH)) {
      memo.length = i;
      return;
    }
  }
}

function newEntry(text, optionsText) {
  const planText = call(() => outlinePlan(text, optionsText));
  const plan = JSON.parse(planText);
  const made = plan.tools.map((tool) => (typeof tool === "number" ? undefined : JSON.stringify(tool)));
  // Tier 0 shows every tool as given: the outline cannot stand for them.
  return { optionsText, text, planText, deferred: plan.deferred, made, whole: plan.tier === 0, visible: "", fingerprint: "" };
}

/** The fingerprint of the model-visible tools, written now (direct tools may have changed inside). */
function fingerprintOf(entry, tools) {
  let visible = "[";
  tools.forEach((tool, i) => {
    if (i > 0) visible += ",";
    visible += entry.made[i] ?? toJson(tool, "toolbox");
  });
  visible += "]";
  if (visible !== entry.visible) {
    entry.fingerprint = fingerprint(visible);
    entry.visible = visible;
  }
  return entry.fingerprint;
}

/**
 * Stateless assemble from the toolbox's outline, or `undefined` when it must take the full way
 * (tier 0, or tool defs that are not plain data).
 */
export function assembleOutlined(toolbox, options) {
  const found = entryFor(toolbox, options);
  if (found === undefined || found.entry.whole) return undefined;
  const { entry, flat } = found;
  const assembly = hydrate(entry.planText, flat);
  delete assembly.deferred;
  assembly.fingerprint = fingerprintOf(entry, assembly.tools);
  defineDeferredTokens(
    assembly,
    entry.deferred.map((at) => flat[at]),
  );
  return assembly;
}
