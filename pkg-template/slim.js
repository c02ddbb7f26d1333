// Slim entry for custom loaders: nothing is loaded at import. Call `initSync({ module })` with a
// WebAssembly.Module or bytes, or `await init(urlOrResponseOrModule)`, before using the API.
import initWasm, { initSync as initWasmSync } from "./wasm/toolshelf.js";
import { state } from "./state.js";

export * from "./api.js";

/** Instantiates from a WebAssembly.Module or the module's bytes. */
export function initSync(module) {
  initWasmSync({ module: module?.module ?? module });
  state.ready = true;
}

/** Instantiates from a URL, Response, bytes or WebAssembly.Module. */
export async function init(moduleOrPath) {
  await initWasm({ module_or_path: moduleOrPath });
  state.ready = true;
}
