// The API every entry exports. Toolboxes cross into wasm as JSON text (JSON.stringify is the fastest
// way V8 has to hand over a large object graph); results come back as JSON text in which each tool
// def the caller gave is its place in the toolbox (`[server, i]`, or `[null, i]` for the direct
// list), so the caller gets back the very same objects. Nothing is kept between calls of the free
// functions: each prepares the toolbox, answers, and frees the wasm memory before it returns.
import { ShelfHandle } from "./wasm/toolshelf.js";
import { ToolshelfError, call, coreString, ensureReady, toJson } from "./common.js";
import { toolboxBytes, toolboxRoom } from "./toolbox-text.js";

export { ToolshelfError };

/** The toolbox's lists of tool defs, as the core names places: `null` (direct tools) or a server. */
function listsOf(toolbox) {
  const servers = new Map();
  if (Array.isArray(toolbox)) return { direct: toolbox, servers };
  const holder = toolbox !== null && typeof toolbox === "object" ? toolbox : {};
  const serverLists = holder.servers !== null && typeof holder.servers === "object" ? holder.servers : {};
  for (const name of Object.keys(serverLists)) servers.set(name, serverLists[name]);
  return { direct: holder.tools, servers };
}

/** A snapshot of the lists (their arrays copied), so that later changes to them are seen as changes. */
function snapshot(lists) {
  const copy = (list) => (Array.isArray(list) ? [...list] : list);
  return { direct: copy(lists.direct), servers: new Map([...lists.servers].map(([name, list]) => [name, copy(list)])) };
}

/** The assembly from its JSON text, each place (`[server, i]`) replaced by the caller's tool def. */
function hydrate(text, lists) {
  const assembly = JSON.parse(text);
  assembly.tools = assembly.tools.map((tool) =>
    Array.isArray(tool) ? (tool[0] === null ? lists.direct : lists.servers.get(tool[0]))[tool[1]] : tool,
  );
  return assembly;
}

/** The unwrap result; untouched arguments are handed back as the very object the model sent. */
function unwrapped(text, toolCall) {
  const result = JSON.parse(text);
  if (result.untouched) {
    result.arguments = result.untouched.split(".").reduce((holder, key) => holder[key], toolCall);
    delete result.untouched;
  }
  return result;
}

/** `options.limit` apart from the toolbox options, as the core takes it. */
function splitLimit(options) {
  if (!options || typeof options !== "object" || !("limit" in options)) return [options, undefined];
  const { limit, ...rest } = options;
  if (limit === null || limit === undefined) return [rest, undefined]; // the default, as tool_search reads it
  const n = Math.floor(Number(limit));
  return [rest, Number.isFinite(n) ? Math.min(Math.max(n, 0), 1000) : undefined];
}

function prepare(toolbox, options) {
  const [room, written] = toolboxRoom(toolbox);
  return call(() => new ShelfHandle(room, written, toJson(options, "options")));
}

/** Prepares the toolbox, runs `use` on it, and frees it before returning (or throwing its error). */
function once(toolbox, options, use) {
  ensureReady();
  const handle = prepare(toolbox, options);
  let result;
  try {
    result = call(() => use(handle));
  } catch (e) {
    try {
      handle.free();
    } catch {
      // the error that matters is the call's
    }
    throw e;
  }
  handle.free();
  return result;
}

/** The assembly plan's text: for a request continuing `context` (`{ messages }`), or the plain one. */
function planOf(handle, context) {
  return context == null ? handle.assemble() : call(() => handle.assemble_with(toJson(context, "context")));
}

/**
 * Stateless assemble: the model-visible tools for `toolbox` under `options` (`new Shelf(...).assemble()`);
 * `context` (`{ messages }`) as in `Shelf.assemble`.
 */
export function assemble(toolbox, options, context) {
  return once(toolbox, options, (handle) => hydrate(planOf(handle, context), listsOf(toolbox)));
}

/** Stateless search over the toolbox's deferred tools; `options.limit` sets the number of hits. */
export function search(toolbox, query, options) {
  const [rest, limit] = splitLimit(options);
  return once(toolbox, rest, (handle) => JSON.parse(handle.search(coreString(query), limit)));
}

/** Stateless describe: a deferred tool's whole description and schema, or null. */
export function describe(toolbox, name, options) {
  return once(toolbox, options, (handle) => JSON.parse(handle.describe(coreString(name))));
}

/** The unwrap result's text: for a call continuing `context` (the conversation), or alone. */
function unwrapOf(handle, toolCall, context) {
  const text = toJson(toolCall, "call");
  try {
    return context == null ? handle.unwrap(text) : handle.unwrapWith(text, toJson(context, "context"));
  } catch (e) {
    // JSON carries `undefined` as null: the core's "got null" is said of what the caller passed.
    if (toolCall === undefined && typeof e?.message === "string") e.message = e.message.replace(/\bgot null\b/, "got undefined");
    throw e;
  }
}

/**
 * Stateless unwrap: the model's tool call (any provider's shape) → call | answer | reject;
 * `context` (the conversation so far) as in `Shelf.unwrap`.
 */
export function unwrap(toolbox, toolCall, options, context) {
  return once(toolbox, options, (handle) => unwrapped(call(() => unwrapOf(handle, toolCall, context)), toolCall));
}

/**
 * Whether the toolbox's server lists may be written with references (a def's index in the last
 * list): a plain `{tools, servers}` object whose server lists hold plain objects only, so that no
 * number in them is the caller's (a def that is a number is an error a new Shelf must report).
 */
function referable(toolbox, lists) {
  if (Array.isArray(toolbox) || typeof toolbox?.toJSON === "function" || typeof toolbox?.servers?.toJSON === "function") return false;
  for (const list of lists.servers.values()) {
    if (!Array.isArray(list) || typeof list.toJSON === "function") return false;
    for (const def of list) if (def === null || typeof def !== "object" || Array.isArray(def) || typeof def.toJSON === "function") return false;
  }
  return true;
}

/** Whether two lists hold the very same tool objects in the same order. */
function sameObjects(a, b) {
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((def, i) => def === b[i]);
}

/** The constructor's mark for a shelf Shelf.fromSnapshot loaded. */
const LOADED = Symbol("loaded");

/** A toolbox prepared once, for agents that keep the same tools across turns. */
export class Shelf {
  #handle;
  #lists;
  #assembly;
  #toolbox; // the toolbox last given, for a snapshot after an update that kept servers
  #whole = true; // whether the core holds the whole toolbox's text
  #summaries = new Map(); // a search hit's strings by its tool's index in the catalog, until an update
  #bits = new DataView(new ArrayBuffer(8)); // a score from its bits

  constructor(toolbox, options) {
    ensureReady();
    if (toolbox === LOADED) {
      // Shelf.fromSnapshot: the handle loaded, the lists of the toolbox given (or, undefined, of
      // the one the snapshot holds, parsed when first needed).
      [this.#handle, this.#lists, this.#toolbox] = options;
      return;
    }
    this.#handle = prepare(toolbox, options);
    this.#lists = snapshot(listsOf(toolbox));
    this.#toolbox = toolbox;
  }

  /**
   * A Shelf loaded from `shelf.snapshot()`'s bytes, answering as `new Shelf(toolbox, options)`:
   * the toolbox may be left out when the snapshot holds it (then checked against it when given);
   * options, when given, must read as the snapshot's. `invalid_snapshot` otherwise.
   */
  static fromSnapshot(bytes, toolbox, options) {
    ensureReady();
    const data = snapshotBytes(bytes);
    const given = toolbox !== undefined && toolbox !== null;
    const opts = options === undefined || options === null ? undefined : toJson(options, "options");
    const [room, written] = given ? toolboxRoom(toolbox) : [undefined, 0];
    const handle = call(() => ShelfHandle.fromSnapshot(data, room, written, opts));
    return new Shelf(LOADED, [handle, given ? snapshot(listsOf(toolbox)) : undefined, toolbox]);
  }

  /**
   * The shelf as bytes for `Shelf.fromSnapshot`, its search index built first if no search has
   * built it: `{ toolbox: false }` leaves the toolbox's text out (fromSnapshot then needs it).
   */
  snapshot(options) {
    const handle = this.#live();
    const hold = options?.toolbox !== false;
    const text = this.#whole ? undefined : toolboxBytes(this.#toolbox);
    return call(() => handle.snapshot(hold, text));
  }

  /** The prepared toolbox; after `free()`, the `freed` error (never wasm's null-pointer one). */
  #live() {
    if (this.#handle === null) throw new ToolshelfError("freed", "this Shelf was freed: make a new Shelf");
    return this.#handle;
  }

  /**
   * Prepares `toolbox` in place of this shelf's toolbox, with the same options; the result is
   * that of a new Shelf. A tool def that is the very same object as in the shelf's last toolbox,
   * in the same server's list, is kept as prepared (a server whose list holds only such objects,
   * in the same order, is not even written as JSON); every other def is read anew. A tool def
   * changed in place is not seen: give a changed tool as a new object.
   */
  update(toolbox) {
    if (this.#lists === undefined) {
      this.#lists = heldLists(this.#live());
      this.#assembly = undefined;
    }
    const lists = listsOf(toolbox);
    let partial = toolbox;
    let keep = null; // null: the text is the whole toolbox, nothing kept
    if (referable(toolbox, lists)) {
      // The toolbox with each kept def written as its index in the server's last list, and the
      // lists kept whole left empty: the core takes those tools from the shelf.
      keep = [];
      const servers = Object.create(null); // a server named "__proto__" stays a server
      for (const [name, list] of lists.servers) {
        const last = this.#lists.servers.get(name);
        if (sameObjects(list, last)) {
          keep.push(name);
          servers[name] = [];
        } else if (Array.isArray(last)) {
          const at = new Map(last.map((def, i) => [def, i]));
          servers[name] = list.map((def) => at.get(def) ?? def);
        } else {
          servers[name] = list;
        }
      }
      partial = Object.create(null); // an own "__proto__" key stays a key, as in a new Shelf's JSON
      for (const key of Object.keys(toolbox)) partial[key] = key === "servers" ? servers : toolbox[key];
    }
    const handle = this.#live();
    const [room, written] = toolboxRoom(partial);
    call(() => handle.update(room, written, JSON.stringify(keep)));
    this.#lists = snapshot(lists);
    this.#assembly = undefined;
    this.#summaries = new Map();
    this.#toolbox = toolbox;
    this.#whole = keep === null;
  }

  /**
   * The model-visible tools; the same result every call (a fresh object each time). With
   * `context` (the conversation so far; native Anthropic mode): only the deferred tools the
   * conversation has loaded, under the names it knows them by, and stand-ins for those gone
   * (SPEC §11, §14).
   */
  assemble(context) {
    const handle = this.#live();
    if (context != null) return hydrate(planOf(handle, context), this.#lists ?? heldLists(handle));
    // A shelf loaded from a snapshot without a toolbox has no caller's objects: the core writes
    // the defs (the direct tools' only, behind a bridge) rather than their places.
    this.#assembly ??= call(() => (this.#lists === undefined ? handle.assembleWhole() : handle.assemble()));
    return this.#lists === undefined ? JSON.parse(this.#assembly) : hydrate(this.#assembly, this.#lists);
  }

  /**
   * Searches the deferred tools; `options.limit` sets the number of hits, `options.vector` (the
   * query's embedding, of the model given to setEmbeddings) fuses semantic similarity in (SPEC §12).
   */
  search(query, options) {
    const [, limit] = splitLimit(options);
    const handle = this.#live();
    const vector = options?.vector;
    if (vector != null) return JSON.parse(call(() => handle.searchVector(coreString(query), limit, floats(vector, "vector"))));
    // Each match comes as [tool, high, low, partial] (the score's bits, no decimal text each
    // way); its strings are the tool's, read from the core at its first hit (no description
    // written, decoded and parsed again every search).
    const result = JSON.parse(call(() => handle.searchFound(coreString(query), limit)));
    const bits = this.#bits;
    result.matches = result.matches.map(([tool, high, low, partial]) => {
      let summary = this.#summaries.get(tool);
      if (summary === undefined) this.#summaries.set(tool, (summary = JSON.parse(handle.matchSummary(tool))));
      const { name, server, description, required } = summary;
      let score = null;
      if (high !== null) {
        bits.setUint32(0, high);
        bits.setUint32(4, low);
        score = bits.getFloat64(0);
      }
      return { name, server, description, required: [...required], score, partial };
    });
    return result;
  }

  /** A deferred tool's whole description and schema, or null. */
  describe(name) {
    const handle = this.#live();
    return JSON.parse(call(() => handle.describe(coreString(name))));
  }

  /**
   * The model's tool call (any provider's shape) → call | answer | reject. With `context` (the
   * conversation so far: `{ messages }`, `{ input }` or the array), names route by what the
   * history bound, and a tool it knew that is gone is a reject with `code: "unavailable_tool"`
   * (SPEC §14).
   */
  unwrap(toolCall, context) {
    const handle = this.#live();
    return unwrapped(call(() => unwrapOf(handle, toolCall, context)), toolCall);
  }

  /** What to embed of each deferred tool, in order (SPEC §12): `[{ key, text }]`; `key` is a hash of `text`. */
  embeddingTexts() {
    return JSON.parse(this.#live().embeddingTexts());
  }

  /**
   * The deferred tools' vectors: `{ model, vectors }`, `vectors` one per embeddingTexts entry in
   * order (Float32Array or number arrays; they replace any held), or by key, a Map or a plain
   * object `{ [key]: vector }` (added to those held, of the same model and dimension; a key no
   * deferred tool has is ignored and listed in `unknownKeys`). `null` drops them. Returns what the
   * shelf then holds: `{ stored, missing, unknownKeys }`. Every input is checked first (SPEC §15):
   * `invalid_embeddings`, naming the first bad vector (`vector 3` or `vector <key>`) and why, and
   * the shelf unchanged.
   */
  setEmbeddings(embeddings) {
    const handle = this.#live();
    if (embeddings === null || embeddings === undefined) return JSON.parse(handle.clearEmbeddings());
    if (typeof embeddings !== "object" || Array.isArray(embeddings)) {
      throw invalidEmbeddings(`setEmbeddings: expected { model, vectors } or null, got ${kindOf(embeddings)}`);
    }
    const { model, vectors } = embeddings;
    if (typeof model !== "string") throw invalidEmbeddings(`setEmbeddings: \`model\` must be the embedding model's name (a string), got ${kindOf(model)}`);
    let keys = null;
    let list = vectors;
    if (vectors instanceof Map) {
      keys = [];
      list = [];
      for (const [key, vector] of vectors) {
        if (typeof key !== "string") throw invalidEmbeddings(`setEmbeddings: a key of the Map is ${kindOf(key)}, not a string (embeddingTexts() keys are)`);
        keys.push(key);
        list.push(vector);
      }
    } else if (vectors !== null && typeof vectors === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(vectors))) {
      keys = Object.keys(vectors);
      list = keys.map((key) => vectors[key]);
    } else if (!Array.isArray(vectors)) {
      throw invalidEmbeddings(`setEmbeddings: \`vectors\` must be an array (embeddingTexts order), a Map or an object of vectors by key, got ${kindOf(vectors)}`);
    }
    const [values, dimensions] = flatVectors(list, (i) => `vector ${keys === null ? i : keys[i]}`);
    return JSON.parse(call(() => handle.setEmbeddings(model, dimensions, values, JSON.stringify(keys))));
  }

  /**
   * `unwrap`, with a `tool_search` call's queries embedded by `options.embed` (text →
   * Float32Array | number[], or a promise of one; called once per distinct query, with
   * `{ signal }` as its second argument) and fused into the search (SPEC §12, §15). Any other
   * call is `unwrap`'s answer. Never waits past `options.timeoutMs` (default 10,000; `Infinity`:
   * no time bound) nor past `options.signal`'s abort; a query whose vector is late, unusable
   * (not finite in float32, all zero, empty, of another length, not numbers) or whose `embed`
   * failed is searched lexically, with a line in `warnings`; never a rejection, but for a freed
   * shelf or a call that is not an object (as `unwrap`).
   */
  async unwrapAsync(toolCall, options) {
    const embed = options?.embed;
    const text = toJson(toolCall, "call");
    const handle = this.#live();
    if (embed === undefined || embed === null) return this.unwrap(toolCall);
    const { queries, dimensions } = JSON.parse(call(() => handle.unwrapWithVectors(text, "null", NO_VALUES)));
    if (queries.length === 0) return this.unwrap(toolCall);
    const warnings = [];
    const lexical = (...more) => {
      const result = this.unwrap(toolCall);
      result.warnings = [...(result.warnings ?? []), ...warnings, ...more];
      return result;
    };
    if (typeof embed !== "function") return lexical(`embed is not a function (got ${kindOf(embed)}): the search was lexical`);
    if (dimensions === 0) return lexical("the shelf has no vectors (setEmbeddings first): the search was lexical");
    let timeoutMs = options.timeoutMs ?? EMBED_TIMEOUT_MS;
    if (typeof timeoutMs !== "number" || !(timeoutMs >= 0)) {
      warnings.push(`timeoutMs: expected a number of milliseconds ≥ 0 (or Infinity), got ${kindOf(timeoutMs)}; waited the default ${EMBED_TIMEOUT_MS} ms`);
      timeoutMs = EMBED_TIMEOUT_MS;
    }
    let signal = options.signal ?? undefined;
    if (signal !== undefined && (typeof signal?.aborted !== "boolean" || typeof signal.addEventListener !== "function")) {
      warnings.push(`signal: expected an AbortSignal, got ${kindOf(signal)}; ignored`);
      signal = undefined;
    }
    if (signal?.aborted) return lexical(`aborted before embedding (${reasonOf(signal.reason)}): the search was lexical`);
    const distinct = [...new Set(queries)];
    const outcomes = await embedAll(embed, distinct, dimensions, timeoutMs, signal);
    const sent = [];
    const rows = [];
    distinct.forEach((query, i) => {
      const outcome = outcomes[i];
      if (typeof outcome === "string") warnings.push(outcome);
      else {
        sent.push(query);
        rows.push(outcome);
      }
    });
    if (sent.length === 0) return lexical();
    const values = new Float32Array(sent.length * dimensions);
    rows.forEach((row, i) => values.set(row, i * dimensions));
    let result;
    try {
      result = unwrapped(call(() => this.#live().unwrapWithVectors(text, JSON.stringify(sent), values)), toolCall);
    } catch (e) {
      if (e?.code === "freed") throw e;
      return lexical(`the search with vectors failed (${reasonOf(e)}): the search was lexical`);
    }
    if (warnings.length > 0) result.warnings = [...warnings, ...(result.warnings ?? [])];
    return result;
  }

  /** Releases the wasm memory now rather than at garbage collection; later calls throw `freed`. */
  free() {
    const handle = this.#handle;
    if (handle === null) return; // freeing twice is harmless
    this.#handle = null;
    this.#assembly = undefined;
    handle.free();
  }
}

// Snapshots (SPEC §13): a prepared Shelf, search index included, saved as bytes and loaded with no
// rebuild. Self-contained: the Shelf class above calls these through its two snapshot methods.

/** Lists of the toolbox a loaded snapshot holds (its objects, parsed), for an update that compares with them. */
function heldLists(handle) {
  const text = handle.toolboxText();
  return listsOf(text === undefined ? null : JSON.parse(text));
}

/** The bytes of a snapshot as the core takes them: a Uint8Array, an ArrayBuffer or a view of one. */
function snapshotBytes(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw new ToolshelfError("invalid_snapshot", "snapshot: expected a Uint8Array or an ArrayBuffer, got " + (bytes === null ? "null" : typeof bytes));
}

// Semantic retrieval (SPEC §12, §15): vectors cross into wasm as one Float32Array; what JS alone can
// see (a vector's type, a number beyond float32) is checked here, the rest (NaN, infinite, all
// zero, the dimension) by the core.

/** How long unwrapAsync waits for `embed` by default: a hosted model answers a query in well under a second. */
const EMBED_TIMEOUT_MS = 10_000;
/** setTimeout's longest delay (a longer one fires at once); beyond it, no timer. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;
const NO_VALUES = new Float32Array(0);

const invalidEmbeddings = (message) => new ToolshelfError("invalid_embeddings", message);

/** What a value is, for a message: `null`, `an array`, `a Float32Array`, `a string`, `1e+39`. */
function kindOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return String(value);
  if (typeof value === "object") {
    const name = Object.getPrototypeOf(value)?.constructor?.name;
    return name && name !== "Object" ? `a ${name}` : "an object";
  }
  return typeof value === "undefined" ? "undefined" : `a ${typeof value}`;
}

/** An error's or an abort reason's message. */
function reasonOf(reason) {
  return String(reason?.message ?? reason);
}

/** A query as a warning names it: JSON-quoted, cut to 80 code points (as the core does). */
function quoted(query) {
  const points = Array.from(query);
  return JSON.stringify(points.length > 80 ? points.slice(0, 80).join("") + "…" : query);
}

/**
 * A vector as a Float32Array: one already (the core checks its values), or an array or typed
 * array of numbers, each finite in float32 kept as is; `invalid_embeddings` naming `what` else.
 */
function floats(vector, what) {
  if (vector instanceof Float32Array) return vector;
  if (!Array.isArray(vector) && !(ArrayBuffer.isView(vector) && !(vector instanceof DataView))) {
    throw invalidEmbeddings(`${what}: expected a Float32Array or an array of numbers, got ${vector === null ? "null" : typeof vector}`);
  }
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i];
    if (typeof x !== "number") throw invalidEmbeddings(`${what}: component ${i} is ${x === undefined ? "missing" : `a ${typeof x}`}, not a number`);
    out[i] = x;
    // A finite double that float32 cannot hold (1e39) becomes Infinity there: said here, where it is seen.
    if (Number.isFinite(x) && !Number.isFinite(out[i])) throw invalidEmbeddings(`${what}: component ${i} is ${x}, beyond float32's range`);
  }
  return out;
}

/** Vectors of one length, one after another in one Float32Array, and that length; `name(i)` names vector i. */
function flatVectors(list, name) {
  const rows = list.map((v, i) => floats(v, name(i)));
  const dimensions = rows.length > 0 ? rows[0].length : 0;
  rows.forEach((row, i) => {
    if (row.length === 0) throw invalidEmbeddings(`${name(i)}: empty (a vector has 1 to 4096 dimensions)`);
    if (row.length !== dimensions) throw invalidEmbeddings(`${name(i)}: ${row.length} dimensions, ${name(0)} has ${dimensions}`);
  });
  const values = new Float32Array(rows.length * dimensions);
  rows.forEach((row, i) => values.set(row, i * dimensions));
  return [values, dimensions];
}

/**
 * Each query's vector from `embed`, all asked at once, waiting until every one has answered, the
 * time is up or `signal` aborts: per query, a Float32Array of `dimensions` numbers or a warning
 * (why that query is searched lexically). `embed` gets a signal that aborts when the wait ends
 * early, so that it may stop its own work; what it answers later is dropped, a later failure
 * included (never an unhandled rejection).
 */
function embedAll(embed, queries, dimensions, timeoutMs, signal) {
  const outcomes = new Array(queries.length).fill(undefined);
  const controller = new AbortController();
  return new Promise((resolve) => {
    let pending = queries.length;
    let timer;
    const finish = (late) => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      queries.forEach((query, i) => {
        if (outcomes[i] === undefined) outcomes[i] = late(quoted(query));
      });
      resolve(outcomes);
    };
    const onAbort = () => {
      const reason = reasonOf(signal.reason);
      controller.abort(signal.reason);
      finish((q) => `aborted (${reason}) before embed answered for ${q}: that query was searched lexically`);
    };
    const settle = (i, outcome) => {
      if (outcomes[i] !== undefined) return; // the wait ended before this answer
      outcomes[i] = outcome;
      if (--pending === 0) finish(() => undefined);
    };
    queries.forEach((query, i) => {
      let answer;
      try {
        answer = Promise.resolve(embed(query, { signal: controller.signal }));
      } catch (e) {
        answer = Promise.reject(e);
      }
      answer.then(
        (vector) => settle(i, queryVector(vector, query, dimensions)),
        (e) => settle(i, `embed failed for ${quoted(query)}: ${reasonOf(e)}; that query was searched lexically`),
      );
    });
    if (pending === 0) return;
    signal?.addEventListener("abort", onAbort, { once: true });
    if (timeoutMs <= LONGEST_TIMER_MS) {
      timer = setTimeout(() => {
        controller.abort(new Error(`embed did not answer within ${timeoutMs} ms`));
        finish((q) => `embed did not answer within ${timeoutMs} ms for ${q}: that query was searched lexically`);
      }, timeoutMs);
    }
  });
}

/** `vector` as a query's Float32Array of `dimensions` numbers, or the warning why not. */
function queryVector(vector, query, dimensions) {
  let row;
  try {
    row = floats(vector, "vector");
  } catch (e) {
    return unusableVector(query, e.message.replace(/^vector: /, ""));
  }
  if (row.length === 0) return unusableVector(query, "empty");
  if (row.length !== dimensions) return unusableVector(query, `${row.length} dimensions, but the shelf's vectors have ${dimensions}`);
  return row;
}

/** The warning for a query whose vector cannot be used (the core writes the same for what it checks). */
function unusableVector(query, reason) {
  return `the vector for ${quoted(query)} is unusable (${reason}): that query was searched lexically`;
}
