// The committed all-MiniLM-L6-v2 fixtures (tests/data/embeddings/, scripts/embed fixtures) read in
// JS, as the JS tests of semantic retrieval use them: model and dimension, every vector unit length
// within its int8 rounding, a vector for every labelled query, and, through the installed package's
// `embeddingTexts()`, one for every deferred tool of every catalog a labelled set runs on.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as toolshelf from "toolshelf";
import { grouped } from "./support.mjs";
import { catalogsUsed, dot, embeddingKey, labelledQuerySets, readVectors } from "./embeddings.mjs";

const MODEL = "all-MiniLM-L6-v2";
const DIM = 384;

/** Model, dimension, and each vector's norm within √dim · scale/2 of 1 (int8 moves a value ≤ scale/2). */
function assertWellFormed(stem, vectors) {
  assert.equal(vectors.model, MODEL, stem);
  assert.equal(vectors.dim, DIM, stem);
  const { values, scales } = vectors;
  for (let i = 0; i < vectors.count; i++) {
    let sum = 0;
    for (let j = i * DIM; j < (i + 1) * DIM; j++) sum += values[j] * values[j];
    const norm = Math.sqrt(sum) * scales[i];
    const bound = (Math.sqrt(DIM) * scales[i]) / 2;
    assert.ok(Math.abs(norm - 1) <= bound, `${stem}: vector ${i} has norm ${norm} (bound ${bound})`);
  }
}

test("every labelled query has a vector by the key of its text, one per distinct query", () => {
  for (const [stem, queries] of Object.entries(labelledQuerySets())) {
    const vectors = readVectors(stem);
    assertWellFormed(stem, vectors);
    const keys = new Set(queries.map((q) => embeddingKey(q.query)));
    for (const { query } of queries) assert.ok(vectors.get(embeddingKey(query)), `${stem}: no vector for ${JSON.stringify(query)}`);
    assert.equal(vectors.count, keys.size, `${stem}: one vector per distinct query, no more`);
  }
});

test(
  "every deferred tool of every labelled catalog has a vector by the package's embedding key",
  () => {
    const tools = readVectors("tools");
    assertWellFormed("tools", tools);
    const expected = new Set();
    for (const catalog of catalogsUsed()) {
      const shelf = new toolshelf.Shelf(grouped([catalog]));
      const texts = shelf.embeddingTexts();
      shelf.free?.();
      assert.ok(texts.length > 0, catalog);
      for (const { key, text } of texts) {
        assert.equal(embeddingKey(text), key, `${catalog}: the fixtures' key function is the package's`);
        assert.ok(tools.get(key), `${catalog}: no vector for ${key} ${JSON.stringify(text)}`);
        expected.add(key);
      }
    }
    assert.deepEqual(new Set(tools.keys), expected, "the tools fixture holds exactly the current texts' vectors");
  },
);

test("the vectors are the model's: a model-phrased request is nearer its tool than an unrelated one", () => {
  const tools = readVectors("tools");
  const queries = readVectors("queries-model");
  // Texts as the core writes them for GitHub's catalog (server words, name words, description).
  const star = tools.get(embeddingKey("github star repository: Star a GitHub repository"));
  const gist = tools.get(embeddingKey("github create gist: Create a new gist"));
  const bookmark = queries.get(embeddingKey("bookmark this repo so I can find it later"));
  const snippet = queries.get(embeddingKey("save this snippet as a secret gist"));
  assert.ok(star && gist && bookmark && snippet, "fixtures for the two GitHub texts and the two model-phrased queries");
  assert.ok(dot(bookmark, star) > dot(bookmark, gist) + 0.05, `bookmark: ${dot(bookmark, star)} vs ${dot(bookmark, gist)}`);
  assert.ok(dot(snippet, gist) > dot(snippet, star) + 0.05, `snippet: ${dot(snippet, gist)} vs ${dot(snippet, star)}`);
});
