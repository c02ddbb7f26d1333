// The body of state.test.mjs's memory test, run in a worker (its own wasm instance): every free
// function on 50 different toolboxes, the wasm memory after the first two and after all; then
// with ten Shelfs kept, to show the measure sees kept toolboxes.
import { parentPort } from "node:worker_threads";
import assert from "node:assert/strict";
import { assemble, search, describe, unwrap, Shelf } from "toolshelf";
import { grouped } from "./support.mjs";

/** The package's own wasm instance (the glue's `initSync` returns the instance it already has). */
const glue = await import(new URL("./wasm/toolshelf.js", import.meta.resolve("toolshelf")));
const wasmMemory = () => glue.initSync({ module: new Uint8Array() }).memory.buffer.byteLength;

try {
  const base = grouped(["github-mcp-server", "linear-mcp-official", "stripe-api-2022-04"]);
  // Toolbox k: the same servers, one description changed, so no two toolboxes have the same JSON.
  const variant = (k) => {
    const servers = structuredClone(base.servers);
    servers.stripe[k % servers.stripe.length].function.description += ` (variant ${k})`;
    return { servers };
  };
  const name = `mcp__linear__${base.servers.linear[0].function.name}`;
  const options = { contextLength: 200_000, qualify: true };
  const every = (toolbox) => {
    assert.equal(assemble(toolbox, options).tier, 1);
    assert.ok(search(toolbox, "create issue", { ...options, limit: 3 }).matches.length > 0);
    assert.equal(describe(toolbox, name, options)?.name, name);
    assert.equal(unwrap(toolbox, { name: "tool_search", arguments: { query: "list issues" } }, options).kind, "answer");
  };
  every(variant(0));
  every(variant(1));
  const afterOne = wasmMemory();
  for (let k = 2; k < 52; k++) every(variant(k));
  const afterFifty = wasmMemory();
  const kept = [52, 53, 54, 55, 56, 57, 58, 59, 60, 61].map((k) => new Shelf(variant(k), options));
  kept.forEach((shelf) => shelf.search("create issue"));
  const withKept = wasmMemory();
  kept.forEach((shelf) => shelf.free());
  parentPort.postMessage({ afterOne, afterFifty, withKept });
} catch (e) {
  parentPort.postMessage({ error: String(e?.stack ?? e) });
}
