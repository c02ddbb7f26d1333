// What only compiles where the WebAssembly types are loaded (lib "dom", or Workers' types): the
// loaders take a compiled WebAssembly.Module. types.test.mjs checks it with the DOM configurations.
import * as slim from "toolshelf/slim";
import type { WasmModule } from "toolshelf/slim";

declare const bytes: Uint8Array<ArrayBuffer>;
const module: WasmModule = new WebAssembly.Module(bytes);
const same: WebAssembly.Module = module;
slim.initSync(same);
await slim.init(await WebAssembly.compile(bytes));
// (No negative check here: WebAssembly.Module is an empty interface, so any object fits it.)
