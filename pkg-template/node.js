// Node (and Deno) entry: the wasm module is read and instantiated at import, so the API is ready.
import { readFileSync } from "node:fs";
import { initSync } from "./wasm/toolshelf.js";
import { state } from "./state.js";

initSync({ module: readFileSync(new URL("./wasm/toolshelf_bg.wasm", import.meta.url)) });
state.ready = true;

export * from "./api.js";
/** Already initialised at import; kept so code shared with browsers can always `await init()`. */
export async function init() {}
