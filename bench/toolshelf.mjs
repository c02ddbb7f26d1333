// toolshelf behind the peers' interface, through the built npm package (../pkg, boundary included:
// the toolbox crosses into wasm as JSON text and results come back as JSON text).
import { readFileSync } from "node:fs";
import { Shelf, assemble, search } from "../pkg/node.js";
import { initSync, ShelfHandle, TextRoom, wasmMemory } from "../pkg/wasm/toolshelf.js"; // internal: the bench times the stages
import { toolboxOf } from "./data.mjs";

export { Shelf, assemble, search, ShelfHandle };

/** The wasm instance's exports (the package instantiated it at import; this returns the same one). */
export const wasmExports = initSync({ module: readFileSync(new URL("../pkg/wasm/toolshelf_bg.wasm", import.meta.url)) });

/** `text` as UTF-8 in a TextRoom, as the package's api.js writes a toolbox there: [room, bytes written]. */
export function textRoom(text) {
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

/** The server and own name of a search match (a qualified name loses its `mcp__<server>__`). */
export function ownName(match) {
  const prefix = `mcp__${match.server}__`;
  return match.name.startsWith(prefix) ? match.name.slice(prefix.length) : match.name;
}

/** The peers' interface: build = `new Shelf` + the first search (the index is built lazily). */
export const toolshelf = {
  build(entries, qualify = new Set(entries.map((e) => e.server)).size > 1) {
    const shelf = new Shelf(toolboxOf(entries), optionsFor(qualify));
    shelf.search("warm up", { limit: 1 });
    const at = new Map(entries.map((e, i) => [`${e.server}\u0000${e.tool.function.name}`, i]));
    return { shelf, at };
  },
  search({ shelf, at }, query, k) {
    return shelf.search(query, { limit: k }).matches.map((m) => at.get(`${m.server}\u0000${ownName(m)}`));
  },
};
