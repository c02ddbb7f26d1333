// Memory after indexing, measured in a worker thread (its own V8 isolate and its own wasm instance),
// so nothing an earlier measurement left behind is counted. Run by bench.mjs; needs --expose-gc.
//   heap: the isolate's used heap after GC, with the index built, minus the same before building
//   wasm: growth of toolshelf's wasm linear memory (64 KiB pages) over the same span
import { parentPort, workerData } from "node:worker_threads";
import { getHeapStatistics } from "node:v8";

const { lib, names, qualify } = workerData;
const { entriesOf, toolboxOf } = await import("./data.mjs");
const entries = entriesOf(names);
const collect = () => {
  for (let i = 0; i < 3; i++) globalThis.gc();
  return getHeapStatistics().used_heap_size;
};

let index;
let heapBefore;
let wasmBefore = 0;
let wasmAfter = 0;
if (lib === "toolshelf") {
  const ts = await import("./toolshelf.mjs");
  const toolbox = toolboxOf(entries);
  const options = ts.optionsFor(qualify);
  heapBefore = collect();
  wasmBefore = ts.wasmMemoryBytes();
  index = new ts.Shelf(toolbox, options);
  index.search("warm up", { limit: 1 });
  wasmAfter = ts.wasmMemoryBytes();
} else {
  const { peers } = await import("./peers.mjs");
  const peer = peers[lib];
  heapBefore = collect();
  index = peer.build(entries);
}
const heapAfter = collect();
parentPort.postMessage({ heap: heapAfter - heapBefore, wasm: wasmAfter - wasmBefore, kept: index !== undefined });
