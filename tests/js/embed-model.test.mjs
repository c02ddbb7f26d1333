// The committed fixtures against the real model in Node, when scripts/embed has installed it
// (target/embed: the ONNX graph and tokenizer, @huggingface/transformers on onnxruntime-node, loaded
// from local files only): transformers.js reproduces the similarities sentence-transformers
// publishes for all-MiniLM-L6-v2, and re-embeds a sample of tool texts and labelled queries to
// within cosine 0.99 of every fixture vector. Without the model the tests report a skip and why.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as toolshelf from "toolshelf";
import { grouped } from "./support.mjs";
import { catalogsUsed, dot, embedDir, embeddingKey, labelledQuerySets, localModel, readVectors } from "./embeddings.mjs";

const MIN_COSINE = 0.99;
const PER_CATALOG = 6;
const PER_SET = 10;

const local = localModel();
const skip = local.missing ?? false;
const embed = (texts) => local.embed(texts);
const model = () => local.pipeline();

/** Every `n`th item of a list, from the first, at most `k` of them. */
const spread = (list, k) => list.filter((_, i) => i % Math.max(1, Math.floor(list.length / k)) === 0).slice(0, k);

/** Tool texts `{ catalog, key, text }` of each labelled catalog: the package's embeddingTexts(), or the file scripts/embed fixtures wrote. */
function toolTexts() {
  if (typeof toolshelf.Shelf?.prototype?.embeddingTexts === "function") {
    return catalogsUsed().flatMap((catalog) => {
      const shelf = new toolshelf.Shelf(grouped([catalog]));
      const texts = shelf.embeddingTexts().map(({ key, text }) => ({ catalog, key, text }));
      shelf.free?.();
      return texts;
    });
  }
  const file = join(embedDir, "texts.jsonl");
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line)) : [];
}

test("transformers.js on the converted graph reproduces sentence-transformers' published similarities", { skip }, async () => {
  const [a, b, c] = await embed(["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]);
  // sentence-transformers' README: model.similarity(...) → 0.6660, 0.1046, 0.1411 for all-MiniLM-L6-v2.
  for (const [got, want] of [[dot(a, b), 0.666], [dot(a, c), 0.1046], [dot(b, c), 0.1411]]) {
    assert.ok(Math.abs(got - want) < 5e-4, `${got} vs published ${want}`);
  }
  // fastembed's test suite: the first values of "hello world" under this model, to 1e-3.
  const [hello] = await embed(["hello world"]);
  [-0.034478, 0.03102, 0.00673, 0.02611, -0.039362].forEach((want, i) => assert.ok(Math.abs(hello[i] - want) < 1e-4, `hello world[${i}]: ${hello[i]} vs ${want}`));
  const tokens = (await model()).tokenizer("word ".repeat(400), { truncation: true }).input_ids.dims;
  assert.deepEqual(tokens, [1, 256], "cut at 256 word pieces, as sentence-transformers cuts this model");
});

test(`a sample of tool texts and labelled queries re-embedded in Node is within cosine ${MIN_COSINE} of the fixtures`, { skip }, async (t) => {
  const tools = readVectors("tools");
  const texts = toolTexts();
  assert.ok(texts.length > 0, "tool texts: the package's embeddingTexts() or target/embed/texts.jsonl");
  const byCatalog = new Map();
  for (const x of texts) (byCatalog.get(x.catalog) ?? byCatalog.set(x.catalog, []).get(x.catalog)).push(x);
  const sample = [...byCatalog.values()].flatMap((list) => spread(list, PER_CATALOG));
  for (const [stem, queries] of Object.entries(labelledQuerySets())) {
    const vectors = readVectors(stem);
    for (const { query } of spread(queries, PER_SET)) sample.push({ catalog: stem, key: embeddingKey(query), text: query, vectors });
  }
  const started = performance.now();
  const fresh = await embed(sample.map((s) => s.text));
  const ms = performance.now() - started;
  let least = 1;
  sample.forEach((s, i) => {
    assert.equal(embeddingKey(s.text), s.key, `${s.catalog}: key of ${JSON.stringify(s.text)}`);
    const stored = (s.vectors ?? tools).get(s.key);
    assert.ok(stored, `${s.catalog}: no fixture for ${JSON.stringify(s.text)}`);
    const cosine = dot(fresh[i], stored) / Math.sqrt(dot(stored, stored));
    least = Math.min(least, cosine);
    assert.ok(cosine >= MIN_COSINE, `${s.catalog}: ${JSON.stringify(s.text)} cosine ${cosine}`);
  });
  t.diagnostic(`${sample.length} texts re-embedded in ${(ms / 1000).toFixed(1)} s (${((sample.length * 1000) / ms).toFixed(0)} texts/s); least cosine to the fixture ${least.toFixed(5)}`);
});
