// toolshelf behind the peers' interface, through the built npm package (../pkg, boundary included:
// the toolbox crosses into wasm as JSON text and results come back as JSON text).
import { readFileSync } from "node:fs";
import { Shelf, assemble, search } from "../pkg/node.js";
import * as glue from "../pkg/wasm/toolshelf.js"; // internal: the bench times the stages
import { toolboxOf } from "./data.mjs";
import { toolboxRoom } from "../pkg/toolbox-text.js"; // internal: the toolbox into wasm memory, as the package writes it

const { initSync, ShelfHandle } = glue;

export { Shelf, assemble, search, ShelfHandle, toolboxRoom };

/** The wasm instance's exports (the package instantiated it at import; this returns the same one). */
export const wasmExports = initSync({ module: readFileSync(new URL("../pkg/wasm/toolshelf_bg.wasm", import.meta.url)) });

/** Bytes of wasm linear memory (grows in 64 KiB pages, never shrinks). */
export const wasmMemoryBytes = () => wasmExports.memory.buffer.byteLength;

/** Options of every benchmark toolbox: a 200K context, `qualify` where names clash, room for 10 hits. */
export const optionsFor = (qualify) => ({ contextLength: 200_000, qualify, maxSearchLimit: 50 });

/**
 * For the catalog `entries`, the function from a search match to its entry's index (or undefined):
 * a match names its tool by the shown name the core makes of (server, tool) (`toolName`), or, under
 * `qualify: false`, by the tool's own name.
 */
export function entryIndex(entries) {
  const at = new Map();
  entries.forEach((e, i) => {
    at.set(`${e.server}\u0000${glue.toolName(e.server, e.tool.function.name)}`, i);
    at.set(`${e.server}\u0000${e.tool.function.name}`, i);
  });
  return (match) => at.get(`${match.server}\u0000${match.name}`);
}

/** The peers' interface: build = `new Shelf` + the first search (the index is built lazily). */
export const toolshelf = {
  build(entries, qualify = new Set(entries.map((e) => e.server)).size > 1) {
    const shelf = new Shelf(toolboxOf(entries), optionsFor(qualify));
    shelf.search("warm up", { limit: 1 });
    return { shelf, indexOf: entryIndex(entries) };
  },
  search({ shelf, indexOf }, query, k) {
    return shelf.search(query, { limit: k }).matches.map(indexOf);
  },
};
