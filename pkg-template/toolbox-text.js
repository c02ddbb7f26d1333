// The toolbox as the core takes it: its JSON.stringify text as UTF-8, written straight into room
// in wasm memory (or as bytes of their own, for a snapshot). V8 writes one large JSON text as a
// rope of pieces, at two bytes a character as soon as any character is past Latin-1, and
// encodeInto must flatten it first; written def by def, the same text comes in short flat pieces,
// most at one byte a character (new Shelf + first search of the 5.2 MB REST toolbox: 87 ms against
// 97 written whole in Node 22, 82 against 100 in Node 24, the same in Node 20; docs/benchmarks.md,
// "Snapshots").
import { TextRoom, wasmMemory } from "./wasm/toolshelf.js";
import { call, toJson } from "./common.js";

const encoder = new TextEncoder();

/** Thrown where a `toJSON` would be called with another key than JSON.stringify gives it. */
const UNCUT = Symbol("uncut");

/**
 * The toolbox's JSON text, UTF-8 in a room of wasm memory: `[room, bytes written]`. It is exactly
 * `JSON.stringify(toolbox)`: a toolbox that cannot be written whole (a cycle, a BigInt) or with a
 * `toJSON` where it is cut is written whole, and its error is JSON.stringify's.
 */
export function toolboxRoom(toolbox) {
  return roomOf(toolboxParts(toolbox));
}

/** The toolbox's JSON text as UTF-8 bytes of their own (a snapshot's toolbox: copied in at its size). */
export function toolboxBytes(toolbox) {
  return encoder.encode(toolboxParts(toolbox).join(""));
}

/** Texts whose concatenation is `JSON.stringify(toolbox)`, each tool def its own. */
export function toolboxParts(toolbox) {
  const parts = [];
  try {
    toolboxInto(parts, plain(toolbox));
    return parts;
  } catch {
    return [toJson(toolbox, "toolbox")];
  }
}

/** `value`, when JSON.stringify would write it as it is (no `toJSON` of its own); else throws. */
function plain(value) {
  if (value !== null && (typeof value === "object" || typeof value === "bigint") && typeof value.toJSON === "function") {
    throw UNCUT;
  }
  return value;
}

/** An object whose members JSON.stringify writes as `Object.keys` lists them (no boxed primitive). */
function plainObject(value) {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function toolboxInto(parts, toolbox) {
  if (Array.isArray(toolbox)) return defsInto(parts, toolbox);
  if (!plainObject(toolbox)) return jsonInto(parts, toolbox);
  objectInto(parts, toolbox, (key, value) => {
    if (key === "tools") defsInto(parts, value);
    else if (key === "servers" && plainObject(value)) objectInto(parts, value, (_, list) => defsInto(parts, list));
    else jsonInto(parts, value);
  });
}

/** A list of tool defs, each def's text a part; anything else as JSON.stringify writes it. */
function defsInto(parts, list) {
  if (!Array.isArray(list)) return jsonInto(parts, list);
  parts.push("[");
  for (let i = 0; i < list.length; i++) {
    if (i > 0) parts.push(",");
    jsonInto(parts, plain(list[i]));
  }
  parts.push("]");
}

/** An object's members as JSON.stringify writes them: those it leaves out (undefined, functions, symbols) left out. */
function objectInto(parts, object, valueInto) {
  let separator = "{";
  for (const key of Object.keys(object)) {
    const value = plain(object[key]);
    if (value === undefined || typeof value === "function" || typeof value === "symbol") continue;
    parts.push(`${separator}${JSON.stringify(key)}:`);
    separator = ",";
    valueInto(key, value);
  }
  parts.push(separator === "{" ? "{}" : "}");
}

/** `value`'s JSON text (`null` for what JSON.stringify leaves out, as in a list). */
function jsonInto(parts, value) {
  parts.push(JSON.stringify(value) ?? "null");
}

/**
 * `parts` as UTF-8 in a TextRoom, one after the other: `[room, bytes written]`. The room starts
 * at the texts' length and a little more (JSON text is mostly ASCII); what does not fit then gets
 * room for three bytes per UTF-16 unit left, at most what it needs.
 */
export function roomOf(parts) {
  let left = 0;
  for (const part of parts) left += part.length;
  let size = left + (left >> 9) + 16;
  const room = call(() => new TextRoom(size));
  // A view of wasm memory is made after each growth (a growth detaches the old buffer).
  let memory = new Uint8Array(wasmMemory().buffer);
  let start = room.at();
  let at = 0;
  for (const part of parts) {
    // A list's brackets and commas, one ASCII character each: written as the byte they are.
    if (part.length === 1 && part.charCodeAt(0) < 0x80 && at < size) {
      memory[start + at++] = part.charCodeAt(0);
      left -= 1;
      continue;
    }
    let { read, written } = encoder.encodeInto(part, memory.subarray(start + at, start + size));
    at += written;
    while (read < part.length) {
      const more = (left - read) * 3;
      call(() => room.grow(at, more));
      size = at + more;
      memory = new Uint8Array(wasmMemory().buffer);
      start = room.at();
      const next = encoder.encodeInto(part.slice(read), memory.subarray(start + at, start + size));
      read += next.read;
      at += next.written;
    }
    left -= part.length;
  }
  return [room, at];
}
