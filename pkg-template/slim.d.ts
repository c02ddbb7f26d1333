import type { WasmBytes, WasmModule } from "./types.js";
export * from "./types.js";
/** Instantiates from a URL, Response, bytes or WebAssembly.Module. */
export declare function init(moduleOrPath: string | URL | Request | Response | WasmBytes | WasmModule): Promise<void>;
/** Instantiates synchronously from a WebAssembly.Module or the module's bytes. */
export declare function initSync(module: WasmBytes | WasmModule): void;
