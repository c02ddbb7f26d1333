// The npm page's AI SDK example in a user's project on this `ai` major (6 or 7), with the
// @ai-sdk/openai release made for it and the MCP SDK, run as written against the scripted model
// server and server-everything (doc-examples.mjs, shared with tests/js/docs.test.mjs: the offline
// `npx`, the script, what the model must have read); adapter-types.test.mjs type-checks it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { LOOPS, PAGES, blocks, runModule, startModelServer } from "./doc-examples.mjs";

const aiVersion = JSON.parse(readFileSync(new URL(import.meta.resolve("ai/package.json")), "utf8")).version;
const loop = LOOPS.find((l) => l.name === "Vercel AI SDK");
const example = blocks(readFileSync(PAGES["the npm page"], "utf8")).find((b) => b.lang === "ts" && loop.matches(b.code));

test(`ai ${aiVersion} on Node ${process.versions.node}: the npm page's AI SDK example runs as written`, async () => {
  assert.ok(example, "the npm page has the AI SDK example");
  const model = await startModelServer(await loop.script());
  try {
    await runModule(example.code, loop.env(model.url), `readme-ai-${process.versions.node}`);
    loop.check(model.requests);
  } finally {
    await model.close();
  }
});
