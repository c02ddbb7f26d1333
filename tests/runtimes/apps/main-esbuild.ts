// The bundled page's code for esbuild, in TypeScript (esbuild strips the types; the test runs tsc
// on it first), as the npm page's recipe has it. esbuild leaves `new URL(…, import.meta.url)` in
// the package alone, so the .wasm is imported through the package's `toolshelf/toolshelf_bg.wasm`
// export with esbuild's `file` loader (`--loader:.wasm=file`: the file is copied beside the bundle
// and the import is its path relative to the bundle; wasm.d.ts tells TypeScript so). That path is
// resolved against the bundle's own URL: a page in another folder than the bundle (`/app/` with
// the bundle in `/app/assets/`) finds it too, where `init(wasmUrl)` would fetch it beside the page.
import * as api from "toolshelf";
import wasmUrl from "toolshelf/toolshelf_bg.wasm";
import { report } from "./page.mjs";

report(api, () => api.init(new URL(wasmUrl, import.meta.url)));
