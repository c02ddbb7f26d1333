// Cloudflare Workers / workerd entry: Workers compile no wasm at run time, so the module arrives
// precompiled through the import and is instantiated synchronously.
import wasmModule from "./wasm/toolshelf_bg.wasm";
import { initSync } from "./wasm/toolshelf.js";
import { state } from "./state.js";

initSync({ module: wasmModule });
state.ready = true;

export * from "./api.js";
/** Already initialised at import; kept so code shared with browsers can always `await init()`. */
export async function init() {}
