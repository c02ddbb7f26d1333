// The bundled page's code for esbuild, which leaves `new URL(…, import.meta.url)` alone: the .wasm
// is imported through the package's `toolshelf/toolshelf_bg.wasm` export with esbuild's `file`
// loader (`--loader:.wasm=file`: the file is copied beside the bundle and the import is its URL).
import * as api from "toolshelf";
import wasmUrl from "toolshelf/toolshelf_bg.wasm";
import { report } from "./page.mjs";

report(api, () => api.init(wasmUrl));
