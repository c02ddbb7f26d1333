// The gateway's caps on what it reads, in one place, for every transport (stdio and HTTP, upstream
// and downstream): a JSON-RPC message is read only up to MAX_MESSAGE_BYTES. A line-delimited stream
// (stdio, and the `data:` lines of an SSE stream) is cut into lines by `LineReader`, which drops an
// over-long line as it arrives and keeps only its first and last bytes, from which `messageId` reads
// the JSON-RPC id so the request it answers can be answered with an error instead. Universal (no
// Node API): used by toolshelf/gateway in Workers too.

/** Bytes of one JSON-RPC message (a request body, a stdio line, an SSE data line). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** The JSON-RPC error code of a message the gateway dropped for being over the cap. */
export const TOO_LARGE = -32042;
const EDGE = 512; // bytes kept of each end of an over-long line

const NEWLINE = 10;

/** `a` and `b` as one array of bytes. */
function joined(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * Splits a byte stream into lines (without their "\n"), each within `max` bytes: `onLine(bytes)`
 * for each. A line over `max` is not kept: `onOversized(head, tail)` gets its first and last bytes
 * once it ends. What is held at any time is at most `max` bytes.
 */
export class LineReader {
  #max;
  #onLine;
  #onOversized;
  #parts = [];
  #size = 0;
  #over = null; // { head, tail } while an over-long line is being skipped

  constructor(max, onLine, onOversized) {
    this.#max = max;
    this.#onLine = onLine;
    this.#onOversized = onOversized;
  }

  /** Reads a chunk of bytes. */
  push(chunk) {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      this.#take(chunk.subarray(start, end === -1 ? chunk.length : end));
      if (end === -1) return;
      this.#endLine();
      start = end + 1;
    }
  }

  /** Drops what is held (a stream that ended mid-line). */
  clear() {
    this.#parts = [];
    this.#size = 0;
    this.#over = null;
  }

  #take(piece) {
    if (piece.length === 0) return;
    if (this.#over) {
      this.#over.tail = joined(this.#over.tail, piece).slice(-EDGE);
      return;
    }
    if (this.#size + piece.length <= this.#max) {
      this.#parts.push(piece.slice());
      this.#size += piece.length;
      return;
    }
    const held = this.#line();
    const all = held.length >= EDGE ? held : joined(held, piece.subarray(0, EDGE));
    this.#over = { head: all.slice(0, EDGE), tail: joined(held.slice(-EDGE), piece).slice(-EDGE) };
    this.#parts = [];
    this.#size = 0;
  }

  #line() {
    if (this.#parts.length === 1) return this.#parts[0];
    const out = new Uint8Array(this.#size);
    let at = 0;
    for (const part of this.#parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  #endLine() {
    if (this.#over) {
      const { head, tail } = this.#over;
      this.#over = null;
      this.#onOversized(head, tail);
      return;
    }
    const line = this.#line();
    this.#parts = [];
    this.#size = 0;
    this.#onLine(line);
  }
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
const ID_FIRST = new RegExp(String.raw`^(?:data:)?\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);

/**
 * The JSON-RPC id of a message known only by its first and last bytes, or undefined: an id written
 * first (after "jsonrpc") or last, at the top level (nothing but "}" after it).
 */
export function messageId(head, tail) {
  const decode = (bytes) => new TextDecoder().decode(bytes);
  const found = ID_FIRST.exec(decode(head)) ?? ID_LAST.exec(decode(tail).replace(/\r$/, ""));
  if (!found) return undefined;
  try {
    return JSON.parse(found[1]);
  } catch {
    return undefined;
  }
}

/** The JSON-RPC error answering request `id` whose message was over the cap. */
export function tooLargeError(id, what = "message") {
  return { jsonrpc: "2.0", id, error: { code: TOO_LARGE, message: `the ${what} was over ${MAX_MESSAGE_BYTES} bytes (toolshelf's cap) and was dropped` } };
}

/**
 * A request's body as text, read only up to `max` bytes: `{ text }`, or `{ tooLarge: true }` as soon
 * as the declared Content-Length or the bytes read pass `max` (the rest is not read).
 */
export async function readBody(request, max = MAX_MESSAGE_BYTES) {
  if (Number(request.headers.get("content-length")) > max) return { tooLarge: true };
  if (request.body === null) return { text: "" };
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      reader.cancel().catch(() => {}); // the rest is not read
      return { tooLarge: true };
    }
    text += decoder.decode(value, { stream: true });
  }
  return { text: text + decoder.decode() };
}
