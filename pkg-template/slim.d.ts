export * from "./types.js";
/** Instantiates from a URL, Response, bytes or WebAssembly.Module. */
export declare function init(moduleOrPath: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<void>;
/** Instantiates synchronously from a WebAssembly.Module or the module's bytes. */
export declare function initSync(module: BufferSource | WebAssembly.Module): void;
