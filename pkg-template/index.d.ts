import type { WasmBytes, WasmModule } from "./types.js";
export * from "./types.js";
/**
 * Loads the wasm module. Browsers and bundlers: await it once before anything else. Node and
 * Workers are ready at import, where it resolves at once.
 */
export declare function init(moduleOrPath?: string | URL | Request | Response | WasmBytes | WasmModule): Promise<void>;
