// The bundled page's code for esbuild, in TypeScript (esbuild strips the types; the test runs tsc
// on it first). esbuild leaves `new URL(…, import.meta.url)` alone, so the .wasm is imported
// through the package's `toolshelf/toolshelf_bg.wasm` export with esbuild's `file` loader
// (`--loader:.wasm=file`: the file is copied beside the bundle and the import is its URL; wasm.d.ts
// tells TypeScript so).
import * as api from "toolshelf";
import wasmUrl from "toolshelf/toolshelf_bg.wasm";
import { report } from "./page.mjs";

report(api, () => api.init(wasmUrl));
