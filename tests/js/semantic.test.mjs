// Semantic retrieval (SPEC §12) through the packed package: embeddingTexts (the core's keys and
// order), setEmbeddings in texts order (Float32Array or number arrays) and by key, search with a
// query vector, unwrapAsync with an embed function (bridge, batched, native Anthropic and native
// Responses shapes; embed called once per query; a failing embed is the lexical answer with
// warnings), update keeping vectors, invalid_embeddings; SPEC §15's bounds (every bad input to
// setEmbeddings, search and embed; unwrapAsync's timeoutMs and signal); and, with the committed
// all-MiniLM-L6-v2 fixtures, the model-phrased set's hybrid recall against lexical through the package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assemble, Shelf, ToolshelfError } from "toolshelf";
import { dataDir, grouped, inFormat, catalog, toolshelfError } from "./support.mjs";
import { readVectors, embeddingKey } from "./embeddings.mjs";

const DIMS = 32;

/** A seeded generator of vectors (xorshift), so every run plants the same neighbours. */
function generator(seed) {
  let s = BigInt(seed) || 1n;
  const next = () => {
    s ^= BigInt.asUintN(64, s << 13n);
    s ^= s >> 7n;
    s ^= BigInt.asUintN(64, s << 17n);
    return Number(s >> 11n) / 2 ** 53 * 2 - 1;
  };
  return () => Float32Array.from({ length: DIMS }, next);
}

/** `vector` moved a little. */
const near = (vector, rnd) => Float32Array.from(vector, (x, i) => x + 0.1 * rnd()[i % DIMS]);

function fnv1a(text) {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
  return hash.toString(16).padStart(16, "0");
}

const box = () => grouped(["github-mcp-server", "linear-mcp-official"]);

/**
 * The deferred tools' names in order (every tool of a grouped toolbox is deferred), as the model is
 * shown them (SPEC §16): the package's own tier-0 assembly (`enabled: "off"`) lists every tool so.
 */
const namesOf = (toolbox, options) => assemble(toolbox, { ...options, enabled: "off" }).tools.map((t) => t.function?.name ?? t.name);

function shelfWithVectors(seed = 1, options) {
  const shelf = new Shelf(box(), options);
  const rnd = generator(seed);
  const texts = shelf.embeddingTexts();
  const vectors = texts.map(() => rnd());
  shelf.setEmbeddings({ model: "test-model", vectors });
  return { shelf, texts, vectors };
}

test("embeddingTexts: one per deferred tool, in order, keyed by FNV-1a of the text", () => {
  const shelf = new Shelf(box());
  const texts = shelf.embeddingTexts();
  assert.equal(texts.length, shelf.assemble().deferredCount);
  for (const { key, text } of texts) assert.equal(key, fnv1a(text));
  assert.ok(texts.some((t) => t.text.startsWith("github create issue: ")), texts[0].text);
  shelf.free();
});

test("no query vector: every answer is the lexical one, with or without vectors set", () => {
  const plain = new Shelf(box());
  const { shelf } = shelfWithVectors(2);
  for (const q of ["create issue", "list pull requests", "who am I", "send an email with gmail", "create_issue", "x"]) {
    assert.deepEqual(shelf.search(q, { limit: 10 }), plain.search(q, { limit: 10 }), q);
    const call = { name: "tool_search", arguments: { query: q } };
    assert.deepEqual(shelf.unwrap(call), plain.unwrap(call), q);
  }
  plain.free();
  shelf.free();
});

test("a planted neighbour is found (partial), by Float32Array or number array; an exact name still ranks first", () => {
  const { shelf, texts, vectors } = shelfWithVectors(3);
  const rnd = generator(33);
  const names = namesOf(box());
  assert.equal(shelf.search("zzqx", { limit: 3 }).matches.length, 0, "lexically nothing");
  for (const doc of [0, 17, 60, texts.length - 1]) {
    const vector = near(vectors[doc], rnd);
    for (const v of [vector, Array.from(vector)]) {
      const r = shelf.search("zzqx", { limit: 3, vector: v });
      assert.equal(r.matches[0].name, names[doc], texts[doc].text);
      assert.ok(r.matches.every((m) => m.partial), "similarity alone is never full");
    }
    const named = shelf.search("create_issue", { limit: 3, vector });
    assert.equal(named.matches[0].name, shelf.describe("create_issue").name);
  }
  shelf.free();
});

test("setEmbeddings by key adds to the vectors; update keeps those of unchanged tools", () => {
  const shelf = new Shelf(box());
  const rnd = generator(4);
  const texts = shelf.embeddingTexts();
  const byKey = Object.fromEntries(texts.map(({ key }) => [key, rnd()]));
  shelf.setEmbeddings({ model: "test-model", vectors: byKey });
  const doc = 5;
  const probe = near(byKey[texts[doc].key], generator(44));
  const before = shelf.search("zzqx", { limit: 3, vector: probe }).matches.map((m) => m.name);
  const next = box();
  next.servers.linear = next.servers.linear.slice(1); // one tool less
  shelf.update(next);
  assert.deepEqual(shelf.search("zzqx", { limit: 3, vector: probe }).matches.map((m) => m.name), before);
  shelf.free();
});

test("vectors that do not fit are invalid_embeddings, and the shelf keeps what it had", () => {
  const { shelf, vectors } = shelfWithVectors(5);
  const bad = toolshelfError.bind(null, ToolshelfError, "invalid_embeddings");
  assert.throws(() => shelf.setEmbeddings({ model: "m", vectors: vectors.slice(1) }), bad());
  assert.throws(() => shelf.setEmbeddings({ model: "m", vectors: [vectors[0].subarray(1), ...vectors.slice(1)] }), bad());
  assert.throws(() => shelf.setEmbeddings({ model: "m", vectors: vectors.map((v, i) => (i === 3 ? v.map(() => NaN) : v)) }), bad());
  assert.throws(() => shelf.setEmbeddings({ model: "other", vectors: { [shelf.embeddingTexts()[0].key]: vectors[0] } }), bad());
  assert.throws(() => shelf.setEmbeddings({ model: "m", vectors: "no" }), bad());
  assert.throws(() => shelf.setEmbeddings({ model: {}, vectors }), bad(/model/));
  assert.throws(() => shelf.setEmbeddings({ vectors }), bad(/model/));
  assert.throws(() => shelf.setEmbeddings({ model: "m", vectors: vectors.map(() => new Float32Array(0)) }), bad(/vector 0: empty \(a vector has 1 to 4096 dimensions\)/));
  assert.throws(() => shelf.search("issue", { vector: new Float32Array(DIMS + 1) }), bad());
  assert.ok(shelf.search("zzqx", { vector: vectors[0] }).matches.length > 0, "the vectors set before are kept");
  shelf.setEmbeddings(null);
  assert.throws(() => shelf.search("issue", { vector: vectors[0] }), bad(/without embeddings/));
  shelf.free();
});

test("unwrapAsync: one embed per distinct query, the fused answer; other calls as unwrap; embed failing → lexical with warnings", async () => {
  const { shelf, texts, vectors } = shelfWithVectors(6);
  const rnd = generator(66);
  const planted = { "zzqx": 10, "qqzy": 20 };
  const asked = [];
  const embed = async (text) => {
    asked.push(text);
    return near(vectors[planted[text] ?? 0], rnd);
  };
  const one = await shelf.unwrapAsync({ name: "tool_search", arguments: { query: "zzqx" } }, { embed });
  assert.equal(one.kind, "answer");
  assert.equal(JSON.parse(one.content).matches[0].name, namesOf(box())[10], texts[10].text);
  assert.deepEqual(asked, ["zzqx"]);
  asked.length = 0;
  const batched = await shelf.unwrapAsync({ name: "tool_search", arguments: { queries: ["zzqx", "qqzy", "zzqx"] } }, { embed });
  assert.deepEqual(asked.sort(), ["qqzy", "zzqx"]);
  const groups = JSON.parse(batched.content).results;
  assert.equal(groups.length, 3);
  assert.ok(groups.every((g) => g.matches.length > 0));
  asked.length = 0;
  const describe = { name: "tool_describe", arguments: { name: "create_issue" } };
  assert.deepEqual(await shelf.unwrapAsync(describe, { embed }), shelf.unwrap(describe));
  const real = { name: "tool_call", arguments: { name: "get_me", arguments: {} } };
  assert.deepEqual(await shelf.unwrapAsync(real, { embed }), shelf.unwrap(real));
  assert.deepEqual(asked, [], "no embed for anything but a search");
  const search = { name: "tool_search", arguments: { query: "create issue" } };
  for (const failing of [async () => { throw new Error("rate limited"); }, async () => new Float32Array(3), () => "nope"]) {
    const u = await shelf.unwrapAsync(search, { embed: failing });
    assert.equal(u.content, shelf.unwrap(search).content);
    assert.ok(u.warnings?.length === 1 && /embed failed|is unusable/.test(u.warnings[0]), JSON.stringify(u.warnings));
  }
  shelf.free();
});

test("unwrapAsync in native mode: answers in the providers' native shapes, fused", async () => {
  const format = (f) => {
    const servers = {};
    for (const name of ["github-mcp-server", "linear-mcp-official"]) for (const { server, tool } of catalog(name)) (servers[server] ??= []).push(inFormat(tool, f));
    return { servers };
  };
  for (const f of ["anthropic", "responses"]) {
    const shelf = new Shelf(format(f), { contextLength: 200_000, mode: "native" });
    const rnd = generator(7);
    const vectors = shelf.embeddingTexts().map(() => rnd());
    shelf.setEmbeddings({ model: "test-model", vectors });
    const target = namesOf(format(f), { mode: "native" })[12];
    let calls = 0;
    const embed = (text) => (calls++, near(vectors[12], rnd));
    const call = f === "anthropic"
      ? { type: "tool_use", id: "s1", name: "tool_search", input: { query: "zzqx" } }
      : { type: "tool_search_call", call_id: "ts_1", execution: "client", arguments: { query: "zzqx" } };
    const u = await shelf.unwrapAsync(call, { embed });
    assert.equal(calls, 1, f);
    assert.equal(u.kind, "answer", JSON.stringify(u));
    if (f === "anthropic") assert.equal(u.content.find((b) => b.type === "tool_reference")?.tool_name, target, f);
    else {
      // Responses: the tool's server as the namespace, the tool by its own (provider-valid) name inside.
      const own = format(f).servers.github[12];
      assert.equal(shelf.describe(target).server, "github");
      assert.deepEqual([u.item.tools[0]?.name, u.item.tools[0]?.tools?.[0]?.name], ["github", own.name], f);
    }
    assert.deepEqual(await shelf.unwrapAsync(call, { embed: () => { throw new Error("down"); } }).then((x) => x.warnings?.length), 1);
    shelf.free();
  }
});

// SPEC §15: every embeddings input validated, nothing changed on error; every unusable, late or
// failing query vector a lexical search with a warning; unwrapAsync bounded by timeoutMs and signal.

const invalid = (message) => toolshelfError(ToolshelfError, "invalid_embeddings", message);
/** A vector with `value` at component `at` (the rest of `base`). */
const with_ = (base, at, value) => Array.from(base, (x, i) => (i === at ? value : x));

test("setEmbeddings: each bad input is invalid_embeddings naming the first bad one, and changes nothing", () => {
  const shelf = new Shelf(box());
  const texts = shelf.embeddingTexts();
  const rnd = generator(9);
  const good = texts.map(() => rnd());
  const key = (i) => texts[i].key;
  const cases = [
    ["an empty model name, no vectors (dropped every held vector)", { model: "", vectors: [] }, /model/],
    ["an empty model name", { model: "", vectors: good }, /model/],
    ["a blank model name", { model: "  ", vectors: good }, /model/],
    ["a model that is not a string", { model: 7, vectors: good }, /model/],
    ["no model", { vectors: good }, /model/],
    ["not an object", "vectors", /setEmbeddings/],
    ["vectors missing", { model: "m" }, /vectors/],
    ["vectors a string", { model: "m", vectors: "no" }, /vectors/],
    ["vectors one flat Float32Array", { model: "m", vectors: new Float32Array(DIMS * texts.length) }, /vectors/],
    ["an empty object (accepted and ignored, the dimension locked at 1)", { model: "m", vectors: {} }, /no vectors/],
    ["an empty Map", { model: "m", vectors: new Map() }, /no vectors/],
    ["an empty array", { model: "m", vectors: [] }, /0 vectors for \d+/],
    ["an object with no known key", { model: "m", vectors: { "0123456789abcdef": good[0] } }, /0123456789abcdef/],
    ["a Map with no known key", { model: "m", vectors: new Map([["0123456789abcdef", good[0]]]) }, /0123456789abcdef/],
    ["a key that is not a key", { model: "m", vectors: { [key(0)]: good[0], nope: good[1] } }, /nope/],
    ["a Map key that is not a string", { model: "m", vectors: new Map([[1, good[0]]]) }, /key/],
    ["one vector too few", { model: "m", vectors: good.slice(1) }, new RegExp(`${texts.length - 1} vectors for ${texts.length}`)],
    ["an empty vector", { model: "m", vectors: good.map((v, i) => (i === 2 ? new Float32Array(0) : v)) }, /vector 2: empty/],
    ["all vectors empty", { model: "m", vectors: good.map(() => []) }, /vector 0: empty/],
    ["a vector of another length", { model: "m", vectors: good.map((v, i) => (i === 4 ? v.subarray(1) : v)) }, /vector 4: 31 dimensions/],
    ["NaN", { model: "m", vectors: good.map((v, i) => (i === 3 ? with_(v, 5, NaN) : v)) }, /vector 3: component 5 is NaN/],
    ["NaN in a Float32Array", { model: "m", vectors: good.map((v, i) => (i === 3 ? Float32Array.from(with_(v, 5, NaN)) : v)) }, /vector 3: component 5 is NaN/],
    ["Infinity", { model: "m", vectors: good.map((v, i) => (i === 6 ? with_(v, 0, Infinity) : v)) }, /vector 6: component 0 is infinite/],
    ["-Infinity", { model: "m", vectors: good.map((v, i) => (i === 6 ? with_(v, 1, -Infinity) : v)) }, /vector 6: component 1 is infinite/],
    ["a float beyond float32", { model: "m", vectors: good.map((v, i) => (i === 7 ? with_(v, 2, 1e39) : v)) }, /vector 7: component 2 is 1e\+39, beyond float32/],
    ["beyond float32 in a Float64Array", { model: "m", vectors: good.map((v, i) => (i === 7 ? Float64Array.from(with_(v, 2, -1e39)) : v)) }, /vector 7: component 2 is -1e\+39, beyond float32/],
    ["an all-zero vector", { model: "m", vectors: good.map((v, i) => (i === 8 ? new Float32Array(DIMS) : v)) }, /vector 8: all zero/],
    ["a vector zero in float32", { model: "m", vectors: good.map((v, i) => (i === 8 ? Array(DIMS).fill(1e-50) : v)) }, /vector 8: all zero/],
    ["a component that is not a number", { model: "m", vectors: good.map((v, i) => (i === 9 ? with_(v, 3, "1") : v)) }, /vector 9: component 3 is a string/],
    ["a vector that is not one", { model: "m", vectors: good.map((v, i) => (i === 9 ? "x" : v)) }, /vector 9: expected a Float32Array or an array of numbers, got string/],
    ["a bad vector by key (Record)", { model: "m", vectors: { [key(0)]: good[0], [key(1)]: with_(good[1], 0, NaN) } }, new RegExp(`${key(1)}: component 0 is NaN`)],
    ["a bad vector by key (Map)", { model: "m", vectors: new Map([[key(0), good[0]], [key(1), new Float32Array(DIMS)]]) }, new RegExp(`${key(1)}: all zero`)],
    ["a bad vector under an unknown key", { model: "m", vectors: { [key(0)]: good[0], "0123456789abcdef": with_(good[1], 0, NaN) } }, /0123456789abcdef: component 0 is NaN/],
  ];
  const probe = near(good[11], generator(99));
  for (const [what, input, message] of cases) {
    // On a shelf without vectors: the failed call fixes no dimension, sets no vector.
    assert.throws(() => shelf.setEmbeddings(input), invalid(message), what);
    assert.throws(() => shelf.search("zzqx", { vector: probe }), invalid(/without embeddings/), `${what}: vectors set`);
  }
  // A valid call after all of them: any dimension is taken (none was fixed), a Map by key is taken.
  shelf.setEmbeddings({ model: "m", vectors: new Map(texts.map(({ key: k }, i) => [k, Float32Array.from([...good[i], 1])])) });
  assert.equal(shelf.search("zzqx", { limit: 1, vector: Float32Array.from([...probe, 1]) }).matches[0].name, namesOf(box())[11], "a Map by key is taken");
  shelf.setEmbeddings({ model: "m", vectors: good });
  const before = shelf.search("zzqx", { limit: 5, vector: probe });
  assert.equal(before.matches[0].name, namesOf(box())[11]);
  for (const [what, input, message] of cases) {
    // On a shelf with vectors: the failed call keeps them as they were.
    assert.throws(() => shelf.setEmbeddings(input), invalid(message), what);
    assert.deepEqual(shelf.search("zzqx", { limit: 5, vector: probe }), before, `${what}: the vectors held changed`);
  }
  shelf.free();
});

test("setEmbeddings by key: a Map or a Record, unknown keys reported and ignored, a shelf without deferred tools takes none", () => {
  const shelf = new Shelf(box());
  const texts = shelf.embeddingTexts();
  const rnd = generator(10);
  const vectors = texts.map(() => rnd());
  const first = shelf.setEmbeddings({ model: "m", vectors: new Map([[texts[0].key, vectors[0]], ["0123456789abcdef", vectors[1]]]) });
  assert.deepEqual(first, { stored: 1, missing: texts.length - 1, unknownKeys: ["0123456789abcdef"] });
  const rest = Object.fromEntries(texts.slice(1).map(({ key }, i) => [key, vectors[i + 1]]));
  assert.deepEqual(shelf.setEmbeddings({ model: "m", vectors: rest }), { stored: texts.length, missing: 0, unknownKeys: [] });
  const probe = near(vectors[20], generator(100));
  const byKey = shelf.search("zzqx", { limit: 5, vector: probe });
  assert.deepEqual(shelf.setEmbeddings({ model: "m", vectors }), { stored: texts.length, missing: 0, unknownKeys: [] });
  assert.deepEqual(shelf.search("zzqx", { limit: 5, vector: probe }), byKey, "by key as in order");
  assert.throws(() => shelf.setEmbeddings({ model: "m", vectors: { [texts[0].key]: [1, 2, 3] } }), invalid(/3 dimensions, but the shelf's vectors have 32/));
  assert.deepEqual(shelf.setEmbeddings(null), { stored: 0, missing: texts.length, unknownKeys: [] });
  assert.throws(() => shelf.search("zzqx", { vector: probe }), invalid(/without embeddings/));
  shelf.free();
  // Every tool direct: nothing to embed; no vectors is no error (and fixes nothing), a vector is.
  const direct = new Shelf([{ type: "function", function: { name: "only", description: "The only tool." } }]);
  assert.deepEqual(direct.embeddingTexts(), []);
  for (const vectors of [[], {}, new Map()]) assert.deepEqual(direct.setEmbeddings({ model: "m", vectors }), { stored: 0, missing: 0, unknownKeys: [] });
  assert.throws(() => direct.setEmbeddings({ model: "m", vectors: [[1, 2]] }), invalid(/1 vectors for 0/));
  direct.free();
});

test("search with a bad query vector is invalid_embeddings naming why", () => {
  const { shelf } = shelfWithVectors(12);
  const base = generator(120)();
  const cases = [
    [with_(base, 1, NaN), /component 1 is NaN/],
    [with_(base, 1, Infinity), /component 1 is infinite/],
    [with_(base, 1, -Infinity), /component 1 is infinite/],
    [with_(base, 1, 1e39), /component 1 is 1e\+39, beyond float32/],
    [new Float32Array(DIMS), /all zero/],
    [Array(DIMS).fill(1e-50), /all zero/],
    [[], /0 dimensions/],
    [base.subarray(1), /31 dimensions/],
    ["x", /expected a Float32Array or an array of numbers/],
    [with_(base, 0, "1"), /component 0 is a string/],
  ];
  for (const [vector, message] of cases) assert.throws(() => shelf.search("issue", { vector }), invalid(message), String(message));
  shelf.free();
});

const SEARCH = { name: "tool_search", arguments: { query: "create issue" } };

test("unwrapAsync: an unusable query vector is the lexical answer with a warning naming the query", async () => {
  const { shelf } = shelfWithVectors(13);
  const lexical = shelf.unwrap(SEARCH);
  const base = generator(130)();
  const bad = [
    ["NaN", with_(base, 4, NaN), /component 4 is NaN/],
    ["NaN in a Float32Array", Float32Array.from(with_(base, 4, NaN)), /component 4 is NaN/],
    ["Infinity", with_(base, 4, Infinity), /component 4 is infinite/],
    ["-Infinity", Float32Array.from(with_(base, 4, -Infinity)), /component 4 is infinite/],
    ["1e39", with_(base, 4, 1e39), /component 4 is 1e\+39, beyond float32/],
    ["all zero", new Float32Array(DIMS), /all zero/],
    ["zero in float32", Array(DIMS).fill(1e-46), /all zero/],
    ["empty", new Float32Array(0), /empty/],
    ["wrong length", base.subarray(3), /29 dimensions, but the shelf's vectors have 32/],
    ["a string", "nope", /expected a Float32Array or an array of numbers, got string/],
    ["null", null, /got null/],
    ["an object", { 0: 1 }, /got object/],
    ["an array with a string", with_(base, 2, "x"), /component 2 is a string/],
  ];
  for (const [what, vector, reason] of bad) {
    for (const embed of [() => vector, async () => vector]) {
      const u = await shelf.unwrapAsync(SEARCH, { embed });
      assert.equal(u.content, lexical.content, what);
      assert.equal(u.warnings?.length, 1, `${what}: ${JSON.stringify(u.warnings)}`);
      assert.match(u.warnings[0], /"create issue"/, what);
      assert.match(u.warnings[0], reason, what);
      assert.match(u.warnings[0], /lexical/, what);
    }
  }
  shelf.free();
});

test("unwrapAsync, batched: each query's vector is judged alone; a bad one's query is lexical, with its warning", async () => {
  const { shelf, vectors } = shelfWithVectors(14);
  const rnd = generator(140);
  const call = { name: "tool_search", arguments: { queries: ["zzqx", "qqzy", "create issue"] } };
  const good = { zzqx: near(vectors[10], rnd), qqzy: near(vectors[20], rnd), "create issue": near(vectors[30], rnd) };
  const fused = await shelf.unwrapAsync(call, { embed: (q) => good[q] });
  assert.equal(fused.warnings, undefined);
  const embed = (q) => (q === "qqzy" ? new Float32Array(DIMS) : good[q]);
  const one = await shelf.unwrapAsync(call, { embed });
  assert.equal(one.warnings?.length, 1, JSON.stringify(one.warnings));
  assert.match(one.warnings[0], /"qqzy".*all zero/);
  const groups = JSON.parse(one.content).results;
  const [fusedGroups, lexicalGroups] = [JSON.parse(fused.content).results, JSON.parse(shelf.unwrap(call).content).results];
  assert.deepEqual(groups[0], fusedGroups[0], "zzqx still fused");
  assert.deepEqual(groups[1], lexicalGroups[1], "qqzy lexical");
  assert.deepEqual(groups[2], fusedGroups[2], "create issue still fused");
  shelf.free();
});

test("unwrapAsync on a shelf without vectors: the lexical answer, a warning, no embed", async () => {
  const shelf = new Shelf(box());
  let calls = 0;
  const u = await shelf.unwrapAsync(SEARCH, { embed: () => (calls++, new Float32Array(DIMS).fill(1)) });
  assert.equal(u.content, shelf.unwrap(SEARCH).content);
  assert.equal(calls, 0);
  assert.equal(u.warnings?.length, 1, JSON.stringify(u.warnings));
  assert.match(u.warnings[0], /no vectors.*setEmbeddings/);
  const call = { name: "tool_call", arguments: { name: "get_me", arguments: {} } };
  assert.deepEqual(await shelf.unwrapAsync(call, { embed: () => [1] }), shelf.unwrap(call), "no warning for a call that searches nothing");
  shelf.free();
});

/** An embed that never answers, recording the signal it was given. */
function hanging(signals = []) {
  return (text, options) => {
    signals.push(options?.signal);
    return new Promise(() => {});
  };
}

test("unwrapAsync never waits past timeoutMs: a hanging embed gives the lexical answer with a warning", { timeout: 30_000 }, async () => {
  const { shelf, vectors } = shelfWithVectors(15);
  const lexical = shelf.unwrap(SEARCH);
  for (const timeoutMs of [0, 50, 300]) {
    const signals = [];
    const start = performance.now();
    const u = await shelf.unwrapAsync(SEARCH, { embed: hanging(signals), timeoutMs });
    const took = performance.now() - start;
    assert.ok(took >= timeoutMs - 5, `${timeoutMs}: returned after ${took} ms, before its bound`);
    assert.ok(took < timeoutMs + 5_000, `${timeoutMs}: returned after ${took} ms`);
    assert.equal(u.content, lexical.content);
    assert.equal(u.warnings?.length, 1, JSON.stringify(u.warnings));
    assert.match(u.warnings[0], new RegExp(`did not answer within ${timeoutMs} ms.*"create issue".*lexical`));
    assert.equal(signals.length, 1);
    assert.ok(signals[0] instanceof AbortSignal && signals[0].aborted, "embed's signal is aborted at the bound");
  }
  // A batch: the queries answered in time are fused, the late one is lexical.
  const call = { name: "tool_search", arguments: { queries: ["zzqx", "qqzy"] } };
  const u = await shelf.unwrapAsync(call, { embed: (q) => (q === "zzqx" ? near(vectors[10], generator(150)) : new Promise(() => {})), timeoutMs: 50 });
  assert.equal(u.warnings?.length, 1, JSON.stringify(u.warnings));
  assert.match(u.warnings[0], /"qqzy"/);
  const groups = JSON.parse(u.content).results;
  assert.equal(groups[0].matches[0], namesOf(box())[10], "zzqx fused (batched matches are names)");
  assert.deepEqual(groups[1], JSON.parse(shelf.unwrap(call).content).results[1]);
  shelf.free();
});

test("unwrapAsync: an aborted signal, before or while embed runs, gives the lexical answer with a warning", { timeout: 30_000 }, async () => {
  const { shelf } = shelfWithVectors(16);
  const lexical = shelf.unwrap(SEARCH);
  let calls = 0;
  const before = await shelf.unwrapAsync(SEARCH, { embed: () => (calls++, [1]), signal: AbortSignal.abort(new Error("user left")) });
  assert.equal(calls, 0, "no embed when already aborted");
  assert.equal(before.content, lexical.content);
  assert.equal(before.warnings?.length, 1, JSON.stringify(before.warnings));
  assert.match(before.warnings[0], /aborted.*user left.*lexical/);
  const controller = new AbortController();
  const signals = [];
  setTimeout(() => controller.abort(), 50);
  const start = performance.now();
  const during = await shelf.unwrapAsync(SEARCH, { embed: hanging(signals), signal: controller.signal, timeoutMs: 60_000 });
  const took = performance.now() - start;
  assert.ok(took < 10_000, `returned after ${took} ms, the timeout being 60 s`);
  assert.equal(during.content, lexical.content);
  assert.equal(during.warnings?.length, 1, JSON.stringify(during.warnings));
  assert.match(during.warnings[0], /aborted.*"create issue".*lexical/);
  assert.ok(signals[0].aborted, "embed's signal follows the caller's");
  // AbortSignal.timeout as the bound.
  const timed = await shelf.unwrapAsync(SEARCH, { embed: hanging(), signal: AbortSignal.timeout(30) });
  assert.match(timed.warnings?.[0] ?? "", /aborted/);
  shelf.free();
});

test("unwrapAsync: an embed failing after its bound is no unhandled rejection; odd options warn and use the defaults", { timeout: 30_000 }, async () => {
  const { shelf, vectors } = shelfWithVectors(17);
  const unhandled = [];
  const record = (e) => unhandled.push(e);
  process.on("unhandledRejection", record);
  try {
    const late = () => new Promise((_, reject) => setTimeout(() => reject(new Error("late failure")), 80));
    const u = await shelf.unwrapAsync(SEARCH, { embed: late, timeoutMs: 10 });
    assert.match(u.warnings[0], /did not answer within 10 ms/);
    const throwing = await shelf.unwrapAsync(SEARCH, { embed: () => { throw new Error("sync failure"); } });
    assert.match(throwing.warnings[0], /embed failed for "create issue": sync failure/);
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    process.off("unhandledRejection", record);
  }
  assert.deepEqual(unhandled, []);
  const embed = () => near(vectors[10], generator(170));
  const fused = await shelf.unwrapAsync(SEARCH, { embed });
  for (const timeoutMs of [-1, NaN, "10", {}]) {
    const u = await shelf.unwrapAsync(SEARCH, { embed, timeoutMs });
    assert.equal(u.content, fused.content, String(timeoutMs));
    assert.equal(u.warnings?.length, 1, JSON.stringify(u.warnings));
    assert.match(u.warnings[0], /timeoutMs/);
  }
  const odd = await shelf.unwrapAsync(SEARCH, { embed, signal: "stop" });
  assert.equal(odd.content, fused.content);
  assert.match(odd.warnings?.[0] ?? "", /signal/);
  const notAFunction = await shelf.unwrapAsync(SEARCH, { embed: "openai" });
  assert.equal(notAFunction.content, shelf.unwrap(SEARCH).content);
  assert.match(notAFunction.warnings?.[0] ?? "", /embed is not a function/);
  assert.deepEqual(await shelf.unwrapAsync(SEARCH, { embed, timeoutMs: Infinity }), fused, "Infinity: no time bound");
  assert.deepEqual(await shelf.unwrapAsync(SEARCH), shelf.unwrap(SEARCH), "no embed: unwrap");
  shelf.free();
});

const model = JSON.parse(readFileSync(join(dataDir, "queries-model.json"), "utf8"));

test("with the MiniLM fixtures: the model-phrased set's hybrid recall@5 through the package beats lexical", () => {
  const tools = readVectors("tools");
  const queries = readVectors("queries-model");
  const shelves = new Map();
  let [lexical, hybrid] = [0, 0];
  for (const q of model) {
    if (!shelves.has(q.catalog)) {
      const toolbox = grouped(q.catalog.split("+"));
      const shelf = new Shelf(toolbox, Object.keys(toolbox.servers).length > 1 ? { qualify: true } : {});
      shelf.setEmbeddings({ model: tools.model, vectors: Object.fromEntries(shelf.embeddingTexts().map(({ key }) => [key, tools.get(key)])) });
      shelves.set(q.catalog, shelf);
    }
    const shelf = shelves.get(q.catalog);
    const labels = q.relevant.map((l) => (l.includes("::") ? { server: l.split("::")[0], name: l.split("::")[1] } : { server: null, name: l }));
    const relevant = (m) => labels.some(({ server, name }) => (server === null || server === m.server) && (m.name === name || m.name === `mcp__${m.server}__${name}`));
    const vector = queries.get(embeddingKey(q.query));
    assert.ok(vector, q.query);
    lexical += shelf.search(q.query, { limit: 5 }).matches.some(relevant) ? 1 : 0;
    hybrid += shelf.search(q.query, { limit: 5, vector }).matches.some(relevant) ? 1 : 0;
  }
  for (const shelf of shelves.values()) shelf.free();
  const [l, h] = [lexical / model.length, hybrid / model.length];
  console.log(`model set through the package: recall@5 lexical ${l.toFixed(3)}, hybrid ${h.toFixed(3)}`);
  assert.ok(h >= l && h >= 0.771, `hybrid recall@5 ${h.toFixed(3)}, lexical ${l.toFixed(3)}`);
});

test("a snapshot holds the vectors: fromSnapshot answers vector searches and unwrapAsync as the shelf it was taken from", async () => {
  const { shelf, vectors } = shelfWithVectors(8);
  const probe = near(vectors[9], generator(88));
  const embed = async (text) => near(vectors[(text.length * 7) % vectors.length], generator(text.length));
  const calls = [
    { name: "tool_search", arguments: { query: "zzqx" } },
    { name: "tool_search", arguments: { query: "create issue" } },
    { name: "tool_search", arguments: { queries: ["who am I", "list pull requests"] } },
  ];
  const loads = {
    "toolbox held": Shelf.fromSnapshot(shelf.snapshot()),
    "toolbox given": Shelf.fromSnapshot(shelf.snapshot({ toolbox: false }), box()),
  };
  for (const [how, loaded] of Object.entries(loads)) {
    assert.deepEqual(loaded.embeddingTexts(), shelf.embeddingTexts(), how);
    for (const q of ["zzqx", "create issue", "who am I", "list pull requests"]) {
      assert.deepEqual(loaded.search(q, { limit: 8, vector: probe }), shelf.search(q, { limit: 8, vector: probe }), `${how}: ${q}`);
    }
    for (const call of calls) {
      const [got, want] = [await loaded.unwrapAsync(call, { embed }), await shelf.unwrapAsync(call, { embed })];
      assert.deepEqual(got, want, `${how}: ${JSON.stringify(call)}`);
      assert.equal(got.warnings, undefined, `${how}: fused, not lexical`);
    }
    assert.deepEqual(loaded.snapshot(), shelf.snapshot(), `${how}: the same bytes again`);
    loaded.free();
  }
  // After an update that kept servers (the snapshot is of the toolbox prepared anew): the vectors kept.
  const next = box();
  next.servers.linear = next.servers.linear.slice(1);
  shelf.update(next);
  const after = Shelf.fromSnapshot(shelf.snapshot());
  for (const q of ["zzqx", "create issue"]) {
    assert.deepEqual(after.search(q, { limit: 8, vector: probe }), shelf.search(q, { limit: 8, vector: probe }), `after an update: ${q}`);
  }
  after.free();
  shelf.free();
});
