// Semantic retrieval (SPEC §12) through the packed package: embeddingTexts (the core's keys and
// order), setEmbeddings in texts order (Float32Array or number arrays) and by key, search with a
// query vector, unwrapAsync with an embed function (bridge, batched, native Anthropic and native
// Responses shapes; embed called once per query; a failing embed is the lexical answer with
// warnings), update keeping vectors, invalid_embeddings; and, with the committed all-MiniLM-L6-v2
// fixtures, the model-phrased set's hybrid recall against lexical through the package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Shelf, ToolshelfError } from "toolshelf";
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

/** The deferred tools' names in order (every tool of a grouped toolbox is deferred). */
const namesOf = (toolbox) => Object.values(toolbox.servers).flat().map((t) => t.function?.name ?? t.name);

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
    assert.equal(named.matches[0].name, "create_issue");
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
  assert.throws(() => shelf.setEmbeddings({ model: "m", vectors: vectors.map(() => new Float32Array(0)) }), bad(/0 dimensions: a vector has 1 to 4096/));
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
    assert.ok(u.warnings?.length === 1 && /embed failed/.test(u.warnings[0]), JSON.stringify(u.warnings));
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
    const target = namesOf(format(f))[12];
    let calls = 0;
    const embed = (text) => (calls++, near(vectors[12], rnd));
    const call = f === "anthropic"
      ? { type: "tool_use", id: "s1", name: "tool_search", input: { query: "zzqx" } }
      : { type: "tool_search_call", call_id: "ts_1", execution: "client", arguments: { query: "zzqx" } };
    const u = await shelf.unwrapAsync(call, { embed });
    assert.equal(calls, 1, f);
    assert.equal(u.kind, "answer", JSON.stringify(u));
    const first = f === "anthropic" ? u.content.find((b) => b.type === "tool_reference")?.tool_name : u.item.tools[0]?.tools?.[0]?.name ?? u.item.tools[0]?.name;
    assert.equal(first, target, f);
    assert.deepEqual(await shelf.unwrapAsync(call, { embed: () => { throw new Error("down"); } }).then((x) => x.warnings?.length), 1);
    shelf.free();
  }
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

test("a snapshot holds the vectors (issue 31): fromSnapshot answers vector searches and unwrapAsync as the shelf it was taken from", async () => {
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
  shelf.free();
});
