// The Web Worker of main-worker.js: the package's browser use, with the answers posted back.
import * as api from "toolshelf";
import { report } from "./page.mjs";

report(api, () => api.init(), (out) => postMessage(out));
