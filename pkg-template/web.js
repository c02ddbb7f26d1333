// Browser and bundler entry: `await init()` fetches and instantiates the .wasm beside this file
// (or the URL, Response, bytes or WebAssembly.Module you pass), once.
import initWasm from "./wasm/toolshelf.js";
import { state } from "./state.js";

export * from "./api.js";

let ready;
/** Loads the wasm module; call once before anything else (later calls return the same promise). */
export function init(moduleOrPath) {
  ready ??= initWasm(moduleOrPath === undefined ? undefined : { module_or_path: moduleOrPath }).then(() => {
    state.ready = true;
  });
  return ready;
}
