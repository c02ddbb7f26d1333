// The gateway's stdio transports (Node only; MCP SDK Transport objects): an upstream MCP server as a
// child process leading a process group of its own, so that ending it ends whatever it started too,
// and the downstream client on this process's stdin and stdout. Both read newline-delimited JSON-RPC
// within MAX_MESSAGE_BYTES per message (limits.js): an over-long message is dropped and the request
// it answers (or asks) is answered with an error, the connection kept.
import { spawn } from "node:child_process";
import process from "node:process";
import { PassThrough } from "node:stream";
import { LineReader, MAX_MESSAGE_BYTES, messageId, tooLargeError } from "./limits.js";

/** How long an upstream has to exit after its stdin closes, then after SIGTERM, before SIGKILL. */
export const GRACE_MS = 2_000;
const POLL_MS = 25;
/** Environment variables a child inherits (the MCP SDK's choice: enough to find and run a program). */
const INHERITED = process.platform === "win32"
  ? ["APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PATHEXT", "PROCESSOR_ARCHITECTURE", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE", "PROGRAMFILES"]
  : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Process groups are POSIX's; on Windows the SDK's own transport is used (gateway.js). */
export const GROUPS = process.platform !== "win32";

function inheritedEnv() {
  const env = {};
  for (const key of INHERITED) {
    const value = process.env[key];
    if (value !== undefined && !value.startsWith("()")) env[key] = value; // not a shell function
  }
  return env;
}

/** Reads JSON-RPC lines of `bytes` into `deliver(message)`; a line that is not JSON is `onError`'s. */
function jsonLines(deliver, onError, onOversized) {
  const decoder = new TextDecoder();
  return new LineReader(MAX_MESSAGE_BYTES, (line) => {
    const text = decoder.decode(line).replace(/\r$/, "");
    if (text.trim() === "") return;
    let message;
    try {
      message = JSON.parse(text);
    } catch (error) {
      onError(new Error(`a line that is not JSON (${error.message})`));
      return;
    }
    deliver(message);
  }, onOversized);
}

/**
 * An upstream MCP server as a child process, in a process group of its own. `close()` ends it as
 * a group: its stdin is closed, then after GRACE_MS the group gets SIGTERM, after GRACE_MS more
 * SIGKILL; it resolves once the group is gone. `kill()` sends SIGKILL at once (for a process that
 * is exiting). An upstream that exits on its own has what it left behind in its group ended the same
 * way. A response over the cap answers its request with a TOO_LARGE error.
 */
export class ProcessTransport {
  onmessage;
  onerror;
  onclose;
  #spec;
  #child = null;
  #stderr = new PassThrough();
  #pending = new Set(); // ids of requests sent and not answered
  #ended = null;
  #closing = null;

  constructor({ command, args = [], env, cwd }) {
    this.#spec = { command, args, env, cwd };
  }

  get pid() {
    return this.#child?.pid ?? null;
  }

  get stderr() {
    return this.#stderr;
  }

  start() {
    return new Promise((resolve, reject) => {
      const { command, args, env, cwd } = this.#spec;
      const child = spawn(command, args, { env: { ...inheritedEnv(), ...env }, cwd, stdio: ["pipe", "pipe", "pipe"], detached: GROUPS, windowsHide: true });
      this.#child = child;
      this.#ended = new Promise((done) => child.once("close", done));
      const reader = jsonLines((message) => this.#receive(message), (error) => this.onerror?.(error), (head, tail) => this.#oversized(head, tail));
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", resolve);
      child.once("close", () => {
        reader.clear();
        if (this.#closing === null) this.#closing = this.#endGroup(); // it exited by itself: what it started goes too
        this.onclose?.();
      });
      child.stdout.on("data", (chunk) => reader.push(chunk));
      child.stdout.on("error", (error) => this.onerror?.(error));
      child.stdin.on("error", (error) => this.onerror?.(error));
      child.stderr.pipe(this.#stderr);
    });
  }

  send(message) {
    const child = this.#child;
    if (child === null || child.exitCode !== null || !child.stdin.writable) return Promise.reject(new Error("Not connected"));
    if (message.method !== undefined && message.id !== undefined) this.#pending.add(message.id);
    return new Promise((resolve) => {
      if (child.stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else child.stdin.once("drain", resolve);
    });
  }

  /** Ends the process and its group (see the class comment); resolves when they are gone. */
  close() {
    if (this.#child === null) return Promise.resolve();
    this.#closing ??= (async () => {
      try {
        this.#child.stdin.end();
      } catch {
        // already closed
      }
      await this.#endGroup();
    })();
    return this.#closing;
  }

  /** SIGKILL to the process group now (synchronous: for an exit handler). */
  kill() {
    if (this.#child !== null) this.#signal("SIGKILL");
  }

  async #endGroup() {
    if (await this.#goneWithin(GRACE_MS)) return;
    this.#signal("SIGTERM");
    if (await this.#goneWithin(GRACE_MS)) return;
    this.#signal("SIGKILL");
    await this.#goneWithin(GRACE_MS);
  }

  /** Whether the process has exited and nothing is left in its group, waiting up to `ms`. */
  async #goneWithin(ms) {
    const until = Date.now() + ms;
    for (;;) {
      if (this.#child.exitCode !== null || this.#child.signalCode !== null) {
        if (!this.#groupAlive()) return true;
      }
      if (Date.now() >= until) return false;
      await sleep(POLL_MS);
    }
  }

  #groupAlive() {
    if (!GROUPS) return false;
    try {
      process.kill(-this.#child.pid, 0);
      return true;
    } catch (error) {
      return error.code === "EPERM";
    }
  }

  #signal(signal) {
    try {
      if (GROUPS) process.kill(-this.#child.pid, signal);
      else this.#child.kill(signal);
    } catch {
      // gone already
    }
  }

  #receive(message) {
    if (message?.id !== undefined && message.method === undefined) this.#pending.delete(message.id);
    this.onmessage?.(message);
  }

  #oversized(head, tail) {
    const id = messageId(head, tail);
    if (id !== undefined && this.#pending.has(id)) {
      this.#pending.delete(id);
      this.onmessage?.(tooLargeError(id, "result"));
    } else this.onerror?.(new Error(`a message over ${MAX_MESSAGE_BYTES} bytes was dropped`));
  }
}

/**
 * The downstream client on this process's stdin and stdout (as the SDK's StdioServerTransport, with
 * a message over the cap answered with a TOO_LARGE error when it is a request, and reported to
 * `onerror` either way, the connection kept).
 */
export class StdioServer {
  onmessage;
  onerror;
  onclose;
  #stdin;
  #stdout;
  #reader;
  #onData = (chunk) => this.#reader.push(chunk);
  #onError = (error) => this.onerror?.(error);

  constructor(stdin = process.stdin, stdout = process.stdout) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#reader = jsonLines((message) => this.onmessage?.(message), (error) => this.onerror?.(error), (head, tail) => this.#oversized(head, tail));
  }

  async start() {
    this.#stdin.on("data", this.#onData);
    this.#stdin.on("error", this.#onError);
  }

  send(message) {
    return new Promise((resolve) => {
      if (this.#stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#stdout.once("drain", resolve);
    });
  }

  async close() {
    this.#stdin.off("data", this.#onData);
    this.#stdin.off("error", this.#onError);
    this.#stdin.pause();
    this.#reader.clear();
    this.onclose?.();
  }

  #oversized(head, tail) {
    const id = messageId(head, tail);
    this.onerror?.(new Error(`a client message over ${MAX_MESSAGE_BYTES} bytes was dropped${id === undefined ? "" : " (answered with an error)"}`));
    if (id !== undefined) this.send(tooLargeError(id, "request")).catch(() => {});
  }
}
