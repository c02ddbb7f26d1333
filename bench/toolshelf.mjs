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
 * The server and own name of a search match (a qualified name loses its `mcp__<server>__`; a
 * server name is written with `_` for what a tool name cannot hold, and a name past 64 characters
 * is cut and ends in `_` and 8 hex digits of a hash).
 */
function ownName(match) {
  const prefix = `mcp__${match.server}__`;
  if (match.name.startsWith(prefix)) return match.name.slice(prefix.length);
  if (!match.name.startsWith("mcp__")) return match.name;
  const rest = match.name.slice(5);
  const cut = rest.indexOf("__");
  return cut > 0 ? rest.slice(cut + 2) : match.name;
}

/** For the catalog `entries`, the function from a search match to its entry's index (or undefined). */
export function entryIndex(entries) {
  const at = new Map(entries.map((e, i) => [`${e.server}\u0000${e.tool.function.name}`, i]));
  const byServer = new Map();
  entries.forEach((e, i) => (byServer.get(e.server) ?? byServer.set(e.server, []).get(e.server)).push([e.tool.function.name, i]));
  return (match) => entryOf(at, byServer, match);
}

/** The entry index of a match: by server and own name, or for a cut name, the one tool of its server it begins. */
function entryOf(at, byServer, match) {
  const own = ownName(match);
  const exact = at.get(`${match.server}\u0000${own}`);
  if (exact !== undefined) return exact;
  const hashed = /^(.*)_[0-9a-f]{8}$/.exec(own);
  if (!hashed) return undefined;
  const begins = (byServer.get(match.server) ?? []).filter(([name]) => name.startsWith(hashed[1].replace(/_$/, "")));
  return begins.length === 1 ? begins[0][1] : undefined;
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
