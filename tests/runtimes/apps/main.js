// The bundled page's code (Vite and webpack): the package imported as their docs show for a wasm
// package (no plugin, no config: the glue's `new URL("toolshelf_bg.wasm", import.meta.url)` makes the
// .wasm an asset), `await init()`, then the smoke suite on the tool lists the test server gives.
import * as api from "toolshelf";
import { report } from "./page.mjs";

report(api, () => api.init());
