// toolshelf behind the peers' interface, through the built npm package (../pkg, boundary included:
// the toolbox crosses into wasm as JSON text and results come back as JSON text).
import { readFileSync } from "node:fs";
import { Shelf, assemble, search } from "../pkg/node.js";
import * as glue from "../pkg/wasm/toolshelf.js"; // internal: the bench times the stages
import { toolboxOf } from "./data.mjs";

const { initSync, ShelfHandle } = glue;

export { Shelf, assemble, search, ShelfHandle };

/** The wasm instance's exports (the package instantiated it at import; this returns the same one). */
export const wasmExports = initSync({ module: readFileSync(new URL("../pkg/wasm/toolshelf_bg.wasm", import.meta.url)) });

/**
 * `text` as UTF-8 in a TextRoom, as the package's api.js writes a toolbox there: [room, bytes
 * written]. The second argument is the glue of the package to write into (by default ../pkg's).
 */
export function textRoom(text, { TextRoom, wasmMemory } = glue) {
  const encoder = new TextEncoder();
  let size = text.length + (text.length >> 9) + 16;
  const room = new TextRoom(size);
  let { read, written } = encoder.encodeInto(text, new Uint8Array(wasmMemory().buffer, room.at(), size));
  while (read < text.length) {
    room.grow(written, (text.length - read) * 3);
    size = written + (text.length - read) * 3;
    const more = encoder.encodeInto(text.slice(read), new Uint8Array(wasmMemory().buffer, room.at() + written, size - written));
    read += more.read;
    written += more.written;
  }
  return [room, written];
}

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
