// The body of state.test.mjs's prepared-memory test, run in a worker (its own wasm instance, whose
// memory nothing else has grown): a Shelf of the REST catalog (3,397 tools) prepared and searched
// once, as bench/memory.mjs measures it; the wasm memory's growth over that span.
import { parentPort } from "node:worker_threads";
import { Shelf } from "toolshelf";
import { grouped } from "./support.mjs";

/** The package's own wasm instance (the glue's `initSync` returns the instance it already has). */
const glue = await import(new URL("./wasm/toolshelf.js", import.meta.resolve("toolshelf")));
const wasmMemory = () => glue.initSync({ module: new Uint8Array() }).memory.buffer.byteLength;

try {
  const toolbox = grouped(["rest-apis-flat-3400"]);
  const textBytes = Buffer.byteLength(JSON.stringify(toolbox));
  const before = wasmMemory();
  const shelf = new Shelf(toolbox, {});
  const matches = shelf.search("create customer", { limit: 5 }).matches.length;
  parentPort.postMessage({ growth: wasmMemory() - before, textBytes, matches });
} catch (error) {
  parentPort.postMessage({ error: String(error?.stack ?? error) });
}
