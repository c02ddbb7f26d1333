// toolshelf/gateway: toolshelf as an MCP server. A Gateway connects to the upstream MCP servers of
// an MCP client config (stdio, Streamable HTTP and, by fallback, the older HTTP+SSE, through
// @modelcontextprotocol/sdk's Client), keeps their tools on a Shelf, and serves downstream clients
// the assembly: the bridge tools (tool_search with the listing in its description, tool_describe,
// tool_call) and the tools of the servers the options pin (`alwaysLoad`). A downstream tools/call is
// unwrapped by the Shelf (a search or describe answered here, a bad call rejected with the reason, a
// call validated against its tool's schema) and a real call is run on its upstream under the tool's
// own name, within a total time cap: the upstream's result comes back as it was sent, progress and
// cancellation passing both ways. An upstream's `notifications/tools/list_changed` updates the
// Shelf, and downstream clients are told `notifications/tools/list_changed` (at most once a second)
// only when the tools they are served changed. An upstream that fails to start or dies is named in
// the search tool's description with a short fixed reason (its details go to `onWarning` and
// `status()`), its tools' calls answer that it is unavailable, and it is reconnected with a bounded
// backoff; the others keep serving. Every message read is capped (limits.js). State lives in the
// Gateway object (and a handler's sessions in the handler); nothing is kept at module level.
import { Shelf, ToolshelfError } from "toolshelf";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { LineReader, MAX_MESSAGE_BYTES, messageId, readBody, tooLargeError } from "./limits.js";
import { callMcpTool, failureReason, listAllTools, redact, serverNames, upstreamSpec, watchTools } from "./mcp.js";
import { put, qualifiedNameRefusal } from "./rules.js";

export { upstreamSpec };

const SDK = "@modelcontextprotocol/sdk";
/** Node's stdio transports with process groups (stdio.js), named so that bundlers for Workers leave them out. */
const STDIO_MODULE = "./stdio.js";
const DEFAULTS = Object.freeze({
  timeout: 10_000, // to connect to an upstream and list its tools
  callTimeout: 60_000, // per call, in all: progress notifications do not extend it
  listChangedMs: 1_000, // at most one notifications/tools/list_changed to clients per this
  closeMs: 8_000, // what close() waits for an upstream to end (a stdio one gets SIGKILL after 4 s)
  maxTools: 10_000,
  maxPages: 1_000,
  reconnect: Object.freeze({ initialMs: 1_000, maxMs: 60_000, maxAttempts: Infinity }),
});
/** The key of an MCP client config that holds the gateway's own settings. */
const CONFIG_KEY = "toolshelf";

/**
 * A JSON Schema validator that judges nothing: the gateway hands results on as the upstream sent
 * them (the downstream client validates its structured content itself), and Workers may not compile
 * code at run time (the SDK's default validator, Ajv, does).
 */
const NO_VALIDATION = Object.freeze({ getValidator: () => (input) => ({ valid: true, data: input, errorMessage: undefined }) });

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const text = (t) => ({ content: [{ type: "text", text: t }] });
const failure = (t) => ({ content: [{ type: "text", text: t }], isError: true });
/** A message cut to `max` code points (upstream errors and stderr can be anything). */
const cut = (message, max = 300) => {
  const s = String(message ?? "").replace(/\s+/g, " ").trim();
  return s.length > max ? `${[...s].slice(0, max).join("")}…` : s;
};

/**
 * An HTTP upstream with each `${NAME}` of its url and headers filled from `env` (a Worker's secrets
 * and variables); an upstream naming one `env` lacks is an `{ error }` saying which.
 */
function filled(spec, env) {
  if (!spec.http) return spec;
  const missing = new Set();
  const fill = (text) => text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name) => (typeof env[name] === "string" ? env[name] : (missing.add(name), "")));
  const url = fill(spec.http.url);
  const headers = spec.http.headers && Object.fromEntries(Object.entries(spec.http.headers).map(([k, v]) => [k, fill(v)]));
  return missing.size ? { error: `no ${[...missing].join(", ")} in the environment (its url or headers name it)` } : { http: { ...spec.http, url, headers } };
}

/**
 * An MCP client config (`{"mcpServers": {...}}`, or VS Code's `{"servers": {...}}`) → the
 * upstreams by name (each an `upstreamSpec`) and the gateway's options from its `"toolshelf"` key
 * (Shelf options such as `alwaysLoad` and `contextLength`). With `env`, each `${NAME}` in an HTTP
 * upstream's url and headers is `env.NAME`. Throws a TypeError saying what is wrong when the config
 * has no servers object.
 */
export function readConfig(config, { env } = {}) {
  if (!isObject(config)) throw new TypeError(`an MCP client config is a JSON object with "mcpServers", got ${Array.isArray(config) ? "an array" : JSON.stringify(config)}`);
  const entries = config.mcpServers ?? config.servers;
  if (!isObject(entries)) {
    throw new TypeError(`the MCP client config has no "mcpServers" object (the shape Claude Desktop, Cursor and VS Code write: {"mcpServers": {"name": {"command": ..., "args": [...]}}})`);
  }
  const upstreams = {};
  for (const name of Object.keys(entries)) {
    const spec = upstreamSpec(entries[name]);
    put(upstreams, name, env ? filled(spec, env) : spec);
  }
  const options = config[CONFIG_KEY];
  if (options !== undefined && !isObject(options)) throw new TypeError(`"${CONFIG_KEY}" in the MCP client config is not an object of toolshelf options`);
  return { upstreams, options: options ?? {} };
}

/**
 * A failure of an upstream: `reason`, the short fixed words the model may read ("timed out", "HTTP
 * 401", "failed to start"…), and `message`, the details for the operator (credentials and queries of
 * URLs taken out).
 */
class UpstreamFailure extends Error {
  constructor(reason, details) {
    super(redact(cut(details)));
    this.reason = reason;
  }
}

/**
 * An error as an UpstreamFailure: its fixed reason from mcp.js's failureReason (after `what` failed,
 * as "tools/list failed (timed out)"), its details after `what` too.
 */
function upstreamFailure(error, what) {
  if (error instanceof UpstreamFailure) return error;
  const cause = error?.cause?.code ?? error?.cause?.message;
  const details = `${error?.message ?? String(error)}${cause && !String(error?.message).includes(cause) ? ` (${cause})` : ""}`;
  const reason = failureReason(error);
  const told = reason === "failed" || details.includes(reason) ? details : `${reason}: ${details}`;
  if (what === undefined) return new UpstreamFailure(reason, told);
  return new UpstreamFailure(reason === "failed" ? `${what} failed` : `${what} failed (${reason})`, `${what} failed: ${told}`);
}

/** Settles after `ms` at most (a close that hangs is not waited for). */
const within = (promise, ms) => {
  let timer;
  return Promise.race([Promise.resolve(promise).catch(() => undefined), new Promise((resolve) => { timer = setTimeout(resolve, ms); })]).finally(() => clearTimeout(timer));
};

/**
 * A signal that aborts after `ms` or when `outer` aborts, whichever is first; `expired()` tells
 * whether the time ran out; `dispose()` lets go of the timer and of `outer` (AbortSignal.timeout
 * and AbortSignal.any would hold both until the time is up).
 */
function deadline(ms, outer) {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException(`timed out after ${ms} ms`, "TimeoutError"));
  }, ms);
  const onAbort = () => controller.abort(outer.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    expired: () => expired,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    },
  };
}

/** A promise that rejects with `signal`'s reason when it aborts (and never settles otherwise). */
const aborted = (signal) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));

/**
 * toolshelf as an MCP server in front of upstream MCP servers (see the module comment and
 * docs/gateway.md). Make one with `new Gateway({ upstreams, options })` or
 * `Gateway.fromConfig(mcpJson)`, `await gateway.start()`, then serve it: `gateway.server()` is an
 * SDK `Server` to connect to a transport (one per downstream session), or call `listTools()` and
 * `callTool()` directly.
 */
export class Gateway {
  #options;
  #settings;
  #upstreams = new Map(); // by toolbox name (a config's "builtin" is "builtin_2": mcp.js's serverNames)
  #shelf = null;
  #snapshot = false;
  #tools = [];
  #key = "";
  #facts = null;
  #servers = new Set();
  #listeners = new Set();
  #warnings = [];
  #closed = false;
  #started = null;
  #live = false;
  #statusOnly = false;
  #told = { at: -Infinity, timer: null };

  /**
   * `upstreams`: by name, each an `upstreamSpec` or a config entry (`{command, args, env}` or
   * `{url, headers}`); `options`: the Shelf's options (`alwaysLoad` pins servers' tools as direct
   * tools); `snapshot`: bytes of `toolshelf snapshot` (or `shelf.snapshot()`) to serve from at
   * once, the catalog then fixed and the upstreams connected on their first call. See gateway.d.ts.
   */
  constructor({ upstreams = {}, options = {}, snapshot, connect, connection = "persistent", timeout, callTimeout, maxTools, maxPages, reconnect, onWarning, name = "toolshelf", version = "0" } = {}) {
    if (!isObject(upstreams)) throw new TypeError("Gateway: upstreams is an object of MCP servers by name");
    if (!isObject(options)) throw new TypeError("Gateway: options is an object of toolshelf options");
    if (connection !== "persistent" && connection !== "per-call") throw new TypeError(`Gateway: connection is "persistent" or "per-call", got ${JSON.stringify(connection)}`);
    this.#options = { ...options, format: "mcp" };
    this.#settings = {
      connect,
      perCall: connection === "per-call",
      timeout: timeout ?? DEFAULTS.timeout,
      callTimeout: callTimeout ?? DEFAULTS.callTimeout,
      maxTools: maxTools ?? DEFAULTS.maxTools,
      maxPages: maxPages ?? DEFAULTS.maxPages,
      reconnect: { ...DEFAULTS.reconnect, ...reconnect },
      onWarning,
      info: { name, version },
    };
    const served = serverNames(Object.keys(upstreams), (w) => this.#warn(w));
    for (const key of Object.keys(upstreams)) {
      const given = upstreams[key];
      const spec = given && (given.stdio || given.http || given.skip || given.error) ? given : upstreamSpec(given);
      const up = { name: served.get(key), configName: key, spec, state: "idle", reason: undefined, error: undefined, client: null, transport: null, tools: undefined, attempts: 0, timer: null, unwatch: null, connecting: null, generation: 0 };
      if (spec.skip) Object.assign(up, { state: "disabled", reason: "disabled", error: spec.skip });
      else if (spec.error) Object.assign(up, { state: "failed", reason: "misconfigured", error: redact(spec.error) });
      this.#upstreams.set(up.name, up);
    }
    if (snapshot !== undefined) {
      try {
        // The snapshot must have been made with the options served here (the config's "toolshelf" key, format mcp).
        this.#shelf = Shelf.fromSnapshot(snapshot, undefined, this.#options);
      } catch (error) {
        if (error?.code !== "invalid_snapshot") throw error;
        throw new TypeError(`Gateway: the snapshot does not fit this gateway (${error.message}); make it from the same MCP client config, whose "toolshelf" options it records: toolshelf snapshot --mcp-config mcp.json -o shelf.bin`, { cause: error });
      }
      this.#snapshot = true;
      this.#refresh();
    }
  }

  /**
   * A Gateway of an MCP client config's servers and its `"toolshelf"` options (`settings.options`
   * are laid over them); with `settings.env`, `${NAME}` in HTTP upstreams is filled (readConfig).
   */
  static fromConfig(config, { env, ...settings } = {}) {
    const { upstreams, options } = readConfig(config, env === undefined ? {} : { env });
    return new Gateway({ ...settings, upstreams, options: { ...options, ...settings.options } });
  }

  /**
   * Connects to every upstream at once and lists its tools, each within `timeout`; resolves when
   * each has answered or failed (a failed one is retried in the background). With a snapshot it
   * connects nothing: each upstream is connected on its first call.
   */
  start() {
    this.#started ??= (async () => {
      if (!this.#snapshot) await Promise.all([...this.#upstreams.values()].map((up) => (up.state === "idle" ? this.#connect(up) : undefined)));
      this.#live = true;
      this.#refresh();
      return this.status();
    })();
    return this.#started;
  }

  /** The tools a downstream client is served: pinned direct tools, then the bridge tools (MCP tools/list items). */
  listTools() {
    return this.#tools;
  }

  /** The assembly's facts (tier, form, servers, fingerprint, warnings) of what is served now. */
  get assembly() {
    return this.#facts;
  }

  /** Warnings so far: upstreams left out, cut-off listings, options repaired (the last 100). */
  get warnings() {
    return [...this.#warnings];
  }

  /**
   * Each upstream's state (`ready`, `connecting`, `down` (retried), `failed` (not retried),
   * `disabled` or `idle`), with `reason` (the words the model reads) and `error` (the details).
   */
  status() {
    return [...this.#upstreams.values()].map((up) => {
      const failing = up.state !== "ready" ? up.error !== undefined : up.listError !== undefined;
      const [reason, error] = up.state !== "ready" ? [up.reason, up.error] : [up.listReason, up.listError];
      return {
        name: up.name,
        state: up.state,
        tools: up.tools?.length ?? this.#facts?.servers.find((server) => server.name === up.name)?.tools ?? 0,
        ...(failing ? { reason, error } : {}),
        attempts: up.attempts,
        ...(up.transport?.pid ? { pid: up.transport.pid } : {}),
      };
    });
  }

  /** Calls `listener()` each time the served tools change (after `listTools()` has the new ones). Returns a function that removes it. */
  onToolsChanged(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Runs a downstream tools/call: `{ name, arguments }` → a CallToolResult. A bridge search or
   * describe is answered here (text content), a call the Shelf rejects comes back as an `isError`
   * text result saying why (nothing runs), and a real call is run on its upstream under the tool's
   * own name within `callTimeout` in all: its result is returned as the upstream sent it. `signal`
   * cancels the upstream call; `onprogress` hears its progress notifications. Never throws.
   */
  async callTool(params, { signal, onprogress } = {}) {
    const name = typeof params?.name === "string" ? params.name : "";
    if (this.#statusOnly) return failure(`${name || "The call"} was not run: ${this.#tools[0]?.description ?? "no upstream server has tools"}`);
    if (this.#shelf === null) return failure(`${name || "The call"} was not run: no upstream server's tools are available yet.`);
    let call;
    try {
      call = this.#shelf.unwrap({ name, arguments: params?.arguments ?? {} });
    } catch (error) {
      return failure(`${name} was not run: ${error?.message ?? error}`);
    }
    if (call.kind === "answer") return text(typeof call.content === "string" ? call.content : JSON.stringify(call.content));
    if (call.kind === "reject") return failure(call.content);
    const up = call.server === undefined ? undefined : this.#upstreams.get(call.server);
    if (up === undefined) return failure(`${call.name} was not run: it is not a tool of an upstream MCP server.`);
    const cap = deadline(this.#settings.callTimeout, signal);
    try {
      // The SDK's own request timeout is set past the cap, so that the cap is what ends a call.
      const result = await this.#run(up, call, { signal: cap.signal, onprogress, timeout: this.#settings.callTimeout + 1_000 });
      if (cap.expired()) return failure(`${call.name} was stopped on server "${up.name}": it ran past the gateway's call time cap (${this.#settings.callTimeout} ms).`);
      return result;
    } finally {
      cap.dispose();
    }
  }

  /** `call` run on `up` (connected per call, or on its kept connection) with the SDK's request `options`. */
  async #run(up, call, options) {
    if (this.#settings.perCall) {
      // A connection of this call's own (a Worker's I/O belongs to the request that made it).
      if (up.state === "failed" || up.state === "disabled") return failure(`${call.name} was not run: ${this.#unavailable(up)}`);
      let opened;
      const connecting = deadline(this.#settings.timeout, options.signal);
      try {
        opened = await this.#open(up, connecting.signal);
      } catch (error) {
        const failed = connecting.expired() ? new UpstreamFailure("timed out", `timed out after ${this.#settings.timeout} ms`) : upstreamFailure(error);
        this.#warn(`server "${up.name}": ${failed.message}`);
        return failure(`${call.name} was not run: server "${up.name}" is unavailable (${failed.reason}).`);
      } finally {
        connecting.dispose();
      }
      try {
        return resultOf(await callMcpTool({ [up.name]: opened.client }, call, options));
      } finally {
        await within(opened.client.close(), this.#settings.timeout);
      }
    }
    if (up.state === "idle") await this.#connect(up); // served from a snapshot: connected on its first call
    if (up.state !== "ready" || up.client === null) return failure(`${call.name} was not run: ${this.#unavailable(up)}`);
    return resultOf(await callMcpTool({ [up.name]: up.client }, call, options));
  }

  /**
   * A new SDK `Server` serving this gateway (connect it to a transport; one per downstream
   * session): tools/list gives `listTools()`, tools/call runs `callTool()` with the request's
   * cancellation and its progress token, and `notifications/tools/list_changed` is sent when the
   * served tools change.
   */
  server({ listChanged = true } = {}) {
    const server = new Server(this.#settings.info, { capabilities: { tools: { listChanged } }, jsonSchemaValidator: NO_VALIDATION });
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      await this.start();
      return { tools: this.listTools() };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      await this.start();
      const token = request.params?._meta?.progressToken ?? extra?._meta?.progressToken;
      // Progress is sent in order, and all of it before the result (a stateless HTTP response ends with the result).
      let sent = Promise.resolve();
      const onprogress = token === undefined ? undefined : (progress) => {
        sent = sent.then(() => extra.sendNotification({ method: "notifications/progress", params: { ...progress, progressToken: token } })).catch(() => {});
      };
      const result = await this.callTool(request.params, { signal: extra?.signal, onprogress });
      await sent;
      return result;
    });
    if (!listChanged) return server; // a server of one request (stateless HTTP): nothing to tell it later
    this.#servers.add(server);
    const onclose = server.onclose;
    server.onclose = () => {
      this.#servers.delete(server);
      onclose?.();
    };
    return server;
  }

  /**
   * Closes every upstream connection (a stdio upstream's process group ended: stdin closed, then
   * SIGTERM, then SIGKILL) and stops reconnecting; served `Server`s are closed too. Resolves when
   * they are gone.
   */
  async close() {
    this.#closed = true;
    clearTimeout(this.#told.timer);
    const ups = [...this.#upstreams.values()];
    for (const up of ups) {
      clearTimeout(up.timer);
      up.unwatch?.();
    }
    await Promise.all([
      ...ups.map((up) => this.#disconnect(up)),
      ...[...this.#servers].map((s) => within(s.close(), DEFAULTS.closeMs)),
    ]);
    this.#servers.clear();
    this.#listeners.clear();
    this.#shelf?.free();
    this.#shelf = null;
  }

  /** Sends SIGKILL to every upstream process group at once (synchronous: for a process that is exiting). */
  kill() {
    this.#closed = true;
    for (const up of this.#upstreams.values()) up.transport?.kill?.();
  }

  // -------------------------------------------------------------------------------------------

  #warn(message) {
    const kept = redact(message);
    this.#warnings.push(kept);
    if (this.#warnings.length > 100) this.#warnings.splice(0, this.#warnings.length - 100);
    try {
      this.#settings.onWarning?.(kept);
    } catch {
      // an observer's failure is not the gateway's
    }
  }

  /** Why a call of `up`'s tools cannot run now, in the fixed words the model may read. */
  #unavailable(up) {
    const why = up.reason ?? "not connected";
    if (up.state === "failed" || up.state === "disabled") return `server "${up.name}" is unavailable (${why}).`;
    return `server "${up.name}" is unavailable (${why}); the gateway is reconnecting to it, so a later call may succeed.`;
  }

  /** Ends `up`'s connection (and its process group), waiting for it within closeMs. */
  async #disconnect(up) {
    const { client, transport } = up;
    up.client = null;
    up.transport = null;
    if (client) await within(client.close(), DEFAULTS.closeMs);
    else if (transport) await within(transport.close(), DEFAULTS.closeMs);
  }

  /** The client transport of `up`: stdio (a process group of its own), Streamable HTTP or SSE, or the `connect` setting's. */
  async #transport(up, kind, onStderr) {
    const { connect } = this.#settings;
    if (typeof connect === "function") return connect(up.configName, up.spec);
    if (up.spec.stdio) {
      const transport = await stdioTransport(up.spec.stdio);
      transport.stderr?.on?.("data", onStderr);
      return transport;
    }
    const { url, headers } = basicAuth(up.spec.http);
    const options = { requestInit: headers ? { headers } : undefined, fetch: cappedFetch((input, init) => fetch(input, init)) };
    if (kind === "sse") {
      const { SSEClientTransport } = await import(`${SDK}/client/sse.js`);
      return new SSEClientTransport(new URL(url), options);
    }
    return new StreamableHTTPClientTransport(new URL(url), options);
  }

  /**
   * A connected SDK Client on `up`, within `signal`: `{ client, transport }`. An HTTP upstream given
   * by `url` alone is tried over Streamable HTTP, then over the older HTTP+SSE (as `inspect` does).
   * Rejects with an UpstreamFailure.
   */
  async #open(up, signal) {
    const sse = up.spec.http?.sse;
    const kinds = sse === "only" ? ["sse"] : sse === "fallback" ? ["streamable", "sse"] : ["streamable"];
    let first;
    for (const kind of kinds) {
      try {
        return await this.#openOnce(up, kind, signal);
      } catch (error) {
        first ??= error;
        if (signal.aborted) break;
      }
    }
    throw first;
  }

  async #openOnce(up, kind, signal) {
    let stderrTail = "";
    const transport = await this.#transport(up, kind, (chunk) => {
      stderrTail = (stderrTail + chunk).slice(-2_000);
    });
    const client = new Client(this.#settings.info, { jsonSchemaValidator: NO_VALIDATION });
    try {
      await Promise.race([client.connect(transport, { signal, timeout: this.#settings.timeout }), aborted(signal)]);
    } catch (error) {
      await within(client.close(), DEFAULTS.closeMs);
      const failed = signal.aborted ? new UpstreamFailure("timed out", `timed out after ${this.#settings.timeout} ms`) : upstreamFailure(error);
      const started = up.spec.stdio && failed.reason === "connection closed" ? new UpstreamFailure("failed to start", "it exited, or closed its stdout, before it was connected") : failed;
      const last = stderrTail.split("\n").map((l) => l.trim()).filter(Boolean).slice(-3).join(" / ");
      throw new UpstreamFailure(started.reason, last ? `${started.message} (its stderr: ${cut(last)})` : started.message);
    }
    return { client, transport };
  }

  /** Connects `up` (once at a time) and lists its tools; on failure marks it down and schedules a retry. */
  #connect(up) {
    up.connecting ??= (async () => {
      up.state = "connecting";
      up.attempts++;
      const generation = ++up.generation;
      const connecting = deadline(this.#settings.timeout);
      const { signal } = connecting;
      let opened;
      try {
        opened = await this.#open(up, signal);
        const warnings = [];
        // Served from a snapshot, the catalog is the snapshot's: the connection is for calls alone.
        const tools = this.#snapshot ? [] : await Promise.race([
          listAllTools(opened.client, { signal, maxPages: this.#settings.maxPages, maxTools: this.#settings.maxTools, server: up.name, onWarning: (w) => warnings.push(w) }),
          aborted(signal),
        ]).catch((error) => {
          throw signal.aborted ? new UpstreamFailure("tools/list failed (timed out)", `tools/list timed out after ${this.#settings.timeout} ms`) : upstreamFailure(error, "tools/list");
        });
        warnings.forEach((w) => this.#warn(w));
        if (this.#closed || generation !== up.generation) {
          await within(opened.client.close(), DEFAULTS.closeMs);
          return;
        }
        Object.assign(up, { client: opened.client, transport: opened.transport, state: "ready", reason: undefined, error: undefined, listReason: undefined, listError: undefined, attempts: 0 });
        if (!this.#snapshot) up.tools = this.#usable(up.name, tools);
        if (this.#settings.perCall) await this.#disconnect(up);
        else this.#watch(up);
      } catch (error) {
        if (opened) await within(opened.client.close(), DEFAULTS.closeMs);
        const failed = upstreamFailure(error);
        Object.assign(up, { state: "down", reason: failed.reason, error: failed.message });
        this.#warn(`server "${up.name}": ${failed.message}`);
        this.#schedule(up);
      } finally {
        connecting.dispose();
        up.connecting = null;
      }
      if (this.#live) this.#refresh();
    })();
    return up.connecting;
  }

  /** The tools of a listing the Shelf can hold; a tool without a usable name is left out, with a warning. */
  #usable(server, tools) {
    const kept = [];
    for (const tool of tools) {
      if (!isObject(tool) || typeof tool.name !== "string" || tool.name === "") {
        this.#warn(`server "${server}": a tools/list item without a name was left out`);
        continue;
      }
      const refused = qualifiedNameRefusal(tool.name);
      if (refused) {
        this.#warn(`server "${server}": ${cut(refused, 200)}; it was left out`);
        continue;
      }
      kept.push(isObject(tool.inputSchema) ? tool : { ...tool, inputSchema: { type: "object" } });
    }
    return kept;
  }

  /** Watches `up`'s tools/list_changed and its connection's close. */
  #watch(up) {
    const generation = up.generation;
    up.unwatch?.();
    up.unwatch = watchTools([[up.name, up.client]], { [up.name]: up.tools ?? [] }, {
      maxPages: this.#settings.maxPages,
      maxTools: this.#settings.maxTools,
      notificationSchema: ToolListChangedNotificationSchema,
      onWarning: (w) => this.#warn(w),
      onToolsChanged: (change) => {
        if (generation !== up.generation || this.#closed) return;
        if (change.reason === "list_changed") {
          up.tools = this.#usable(up.name, change.tools ?? []);
          up.listReason = undefined;
          up.listError = undefined;
          if (this.#live) this.#refresh();
        } else if (change.reason === "failed") {
          // Its last good list is kept: the server still answers calls.
          up.listReason = "its tools/list failed; its last list is kept";
          up.listError = "its tools/list failed after it said its tools changed; its last list is kept";
          if (this.#live) this.#refresh();
        } else this.#lost(up, generation);
      },
    });
  }

  /** `up`'s connection is gone: its tools stay listed (answering that it is unavailable) and it is reconnected. */
  #lost(up, generation) {
    if (generation !== up.generation || this.#closed || up.state !== "ready") return;
    up.unwatch?.();
    up.unwatch = null;
    this.#disconnect(up); // what its process left behind in its group is ended
    Object.assign(up, { state: "down", reason: "connection closed", error: "its connection closed" });
    this.#warn(`server "${up.name}": its connection closed`);
    this.#schedule(up);
    if (this.#live) this.#refresh();
  }

  /** The next reconnection of `up`, after a backoff doubling from `initialMs` to `maxMs`, unless `maxAttempts` are spent. */
  #schedule(up) {
    if (this.#closed) return;
    const { initialMs, maxMs, maxAttempts } = this.#settings.reconnect;
    if (up.attempts >= maxAttempts) {
      up.state = "failed";
      up.error = `${up.error}; gave up after ${up.attempts} attempts`;
      return;
    }
    const delay = Math.min(maxMs, initialMs * 2 ** Math.max(0, up.attempts - 1));
    clearTimeout(up.timer);
    up.timer = setTimeout(() => {
      up.timer = null;
      if (!this.#closed && up.state === "down") this.#connect(up);
    }, delay);
    up.timer?.unref?.();
  }

  /** The toolbox of every upstream's last known tools. */
  #toolbox() {
    const servers = {};
    for (const up of this.#upstreams.values()) if (up.tools !== undefined) put(servers, up.name, up.tools);
    return { servers };
  }

  /**
   * Prepares the Shelf for the upstreams' tools as they are now and recomputes the served tools;
   * listeners hear of it when they changed. A server whose tools the core refuses is left out, with
   * a warning (the rest are served).
   */
  #refresh() {
    if (this.#closed) return;
    if (!this.#snapshot) {
      const toolbox = this.#toolbox();
      try {
        if (this.#shelf === null) this.#shelf = new Shelf(toolbox, this.#options);
        else this.#shelf.update(toolbox);
      } catch (error) {
        if (!(error instanceof ToolshelfError)) throw error;
        this.#refuse(toolbox, error);
      }
    }
    const assembly = this.#shelf.assemble();
    // Named until back: an upstream being reconnected keeps its last reason (the bytes do not flap with each attempt).
    const notes = [];
    for (const up of this.#upstreams.values()) {
      if (up.state !== "ready" && up.state !== "disabled" && up.reason !== undefined) notes.push(`${up.name} (${up.reason})`);
      else if (up.state === "ready" && up.listReason !== undefined) notes.push(`${up.name} (${up.listReason})`);
    }
    const note = notes.length ? `\n\nUnavailable now: ${notes.join("; ")}. A call to their tools answers with an error until they are back.` : "";
    // The search tool is the first the assembly made (not an upstream's): the core's bridge names, repairs included.
    const search = assembly.tools.find((t) => !this.#isUpstreamTool(t));
    let tools = note && search ? assembly.tools.map((t) => (t === search ? { ...t, description: `${t.description}${note}` } : t)) : assembly.tools;
    // Nothing to serve but upstreams that failed: a search tool that says so, not an empty list.
    this.#statusOnly = tools.length === 0 && note !== "";
    if (this.#statusOnly) tools = [this.#statusTool(notes)];
    const key = `${assembly.fingerprint}\n${note}`;
    for (const w of assembly.warnings) if (!this.#facts?.warnings.includes(w)) this.#warn(w);
    this.#facts = assembly;
    this.#tools = tools;
    if (key === this.#key) return;
    const first = this.#key === "";
    this.#key = key;
    if (!first) this.#announce();
  }

  /** Tells clients and listeners that the served tools changed: at once, or (within listChangedMs of the last time) once at its end. */
  #announce() {
    if (this.#told.timer !== null) return;
    const wait = this.#told.at + DEFAULTS.listChangedMs - Date.now();
    if (wait <= 0) return this.#tell();
    this.#told.timer = setTimeout(() => {
      this.#told.timer = null;
      this.#tell();
    }, wait);
    this.#told.timer.unref?.();
  }

  #tell() {
    if (this.#closed) return;
    this.#told.at = Date.now();
    for (const server of this.#servers) server.sendToolListChanged().catch(() => {});
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // a listener's failure is not the gateway's
      }
    }
  }

  /** The search tool's name while no upstream has tools (no assembly made one): the options' `bridgeNames` (its first), else tool_search. */
  #searchName() {
    const names = this.#options.bridgeNames;
    return (Array.isArray(names) ? names[0] : names?.search) ?? "tool_search";
  }

  /** Whether `tool` is one of an upstream's own (a pinned tool), not one the assembly made. */
  #isUpstreamTool(tool) {
    for (const up of this.#upstreams.values()) if (up.tools?.includes(tool)) return true;
    return false;
  }

  /** The search tool served while no upstream has tools: its description, and any call of it, name the unavailable upstreams. */
  #statusTool(notes) {
    const description = `No upstream MCP server has tools to offer now. Unavailable now: ${notes.join("; ")}. The gateway is reconnecting; the tools appear when a server is back.`;
    return { name: this.#searchName(), description, inputSchema: { type: "object", properties: { query: { type: "string" } } } };
  }

  /**
   * The core refused the toolbox: each server is tried alone, and those it refuses alone are left
   * out; the rest are tried together once. Only when that is refused too (a clash between servers,
   * as `qualify: false` makes one) are they added one by one in name order, and one whose addition
   * is refused is left out. Each server's tools are read once in the common case.
   */
  #refuse(toolbox, error) {
    const names = Object.keys(toolbox.servers).sort();
    const ok = (servers) => {
      try {
        new Shelf({ servers }, this.#options).free();
        return true;
      } catch {
        return false;
      }
    };
    const leaveOut = (name) => {
      const up = this.#upstreams.get(name);
      up.listReason = "its tools were refused";
      up.listError = `its tools were refused (${cut(error.message, 200)})`;
      this.#warn(`server "${name}" left out: toolshelf refused its tools (${cut(error.message, 200)})`);
    };
    const alone = names.filter((name) => {
      const one = {};
      put(one, name, toolbox.servers[name]);
      if (ok(one)) return true;
      leaveOut(name);
      return false;
    });
    let kept = {};
    for (const name of alone) put(kept, name, toolbox.servers[name]);
    if (!ok(kept)) {
      kept = {};
      for (const name of alone) {
        const trial = { ...kept };
        put(trial, name, toolbox.servers[name]);
        if (ok(trial)) kept = trial;
        else leaveOut(name);
      }
    }
    if (this.#shelf === null) this.#shelf = new Shelf({ servers: kept }, this.#options);
    else this.#shelf.update({ servers: kept });
  }
}

/**
 * An HTTP upstream's URL without its credentials (fetch refuses a URL holding them) and its headers
 * with them as `Authorization: Basic` (unless the headers have an Authorization of their own).
 */
function basicAuth({ url, headers }) {
  const parsed = new URL(url);
  if (parsed.username === "" && parsed.password === "") return { url, headers };
  const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = "";
  parsed.password = "";
  const given = headers ?? {};
  const hasAuthorization = Object.keys(given).some((key) => key.toLowerCase() === "authorization");
  const bytes = new TextEncoder().encode(credentials);
  return { url: parsed.href, headers: hasAuthorization ? given : { ...given, Authorization: `Basic ${btoa(String.fromCharCode(...bytes))}` } };
}

/** callMcpTool's answer as a CallToolResult: the upstream's result as sent, or the failure's text. */
const resultOf = (answer) => (isObject(answer.result) ? answer.result : failure(answer.content));

/**
 * A stdio upstream's transport: on POSIX a process group of its own (stdio.js), so that ending it
 * ends what it started; on Windows the SDK's StdioClientTransport.
 */
async function stdioTransport(spec) {
  let module;
  try {
    module = await import(STDIO_MODULE);
  } catch (error) {
    throw new UpstreamFailure("failed to start", `stdio servers need Node (${error?.message ?? error})`);
  }
  if (module.GROUPS) return new module.ProcessTransport(spec);
  const { StdioClientTransport } = await import(`${SDK}/client/stdio.js`);
  return new StdioClientTransport({ ...spec, stderr: "pipe" });
}

/** The ids of the JSON-RPC requests among parsed messages (one, or a batch). */
const requestIdsOf = (messages) => [messages].flat().filter((m) => isObject(m) && m.method !== undefined && m.id !== undefined).map((m) => m.id);

/** The ids of the JSON-RPC requests in a POST body (text), or none. */
function requestIds(body) {
  if (typeof body !== "string") return [];
  try {
    return requestIdsOf(JSON.parse(body));
  } catch {
    return [];
  }
}

const NEWLINE = new Uint8Array([10]);

/**
 * A TransformStream over an SSE body passing each line within MAX_MESSAGE_BYTES; a longer line (a
 * message over the cap) is replaced by an error answering the request it answered.
 */
function cappedEventStream(ids) {
  const encoder = new TextEncoder();
  let reader;
  return new TransformStream({
    start(controller) {
      reader = new LineReader(MAX_MESSAGE_BYTES, (line) => {
        controller.enqueue(line);
        controller.enqueue(NEWLINE);
      }, (head, tail) => {
        const id = messageId(head, tail) ?? (ids.length === 1 ? ids[0] : undefined);
        if (id !== undefined) controller.enqueue(encoder.encode(`data: ${JSON.stringify(tooLargeError(id, "result"))}\n`));
      });
    },
    transform(chunk) {
      reader.push(chunk);
    },
  });
}

/**
 * A fetch for an upstream's HTTP transport whose responses carry no message over MAX_MESSAGE_BYTES:
 * an SSE body is passed line by line (an over-long line answered with an error instead), any other
 * body read up to the cap (a JSON body over it answered with an error for each request it answers,
 * another cut). The request and the connection are kept.
 */
function cappedFetch(base) {
  return async (url, init) => {
    const response = await base(url, init);
    if (response.body === null) return response;
    const ids = requestIds(init?.body);
    const head = { status: response.status, statusText: response.statusText, headers: response.headers };
    if ((response.headers.get("content-type") ?? "").includes("text/event-stream")) return new Response(response.body.pipeThrough(cappedEventStream(ids)), head);
    const body = await readBody(response);
    if (!body.tooLarge) return new Response(body.text, head);
    const errors = ids.map((id) => tooLargeError(id, "result"));
    return response.ok && errors.length ? new Response(JSON.stringify(errors.length === 1 ? errors[0] : errors), { ...head, headers: { "content-type": "application/json" } }) : new Response("", head);
  };
}

/** SHA-256 of a string's UTF-8 bytes. */
const sha256 = async (value) => new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value)));

/**
 * Whether a request's `Authorization: Bearer <token>` holds `token`, compared in constant time:
 * both sides are hashed first, so neither the token's length nor where the texts differ shows in
 * the time taken.
 */
export async function bearerMatches(request, token) {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer[ \t]+(.+)$/i.exec(header.trim());
  const [given, wanted] = await Promise.all([sha256(match ? match[1] : ""), sha256(token)]);
  let diff = match ? 0 : 1;
  for (let i = 0; i < wanted.length; i++) diff |= given[i] ^ wanted[i];
  return diff === 0;
}

const SESSIONS = Object.freeze({ idleMs: 30 * 60_000, goneMs: 10_000, max: 1_000 });

/** A JSON-RPC error response of the handler's own (401, 403, 404, 405, 413, 503). */
function refusal(status, code, message, headers = {}) {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), { status, headers: { "content-type": "application/json", ...headers } });
}

/**
 * Why a request's Origin or Host is not allowed (the Streamable HTTP spec: a present Origin not
 * allowed is 403, against DNS rebinding), or undefined. `allowedHosts`: the Host values accepted
 * (a loopback bind's own names), or undefined for any.
 */
function originRefusal(request, allowedOrigins, allowedHosts) {
  const origin = request.headers.get("origin");
  if (origin !== null && !allowedOrigins.includes(origin)) return `Forbidden: Origin ${JSON.stringify(cut(origin, 100))} is not allowed`;
  if (allowedHosts && !allowedHosts.includes((request.headers.get("host") ?? "").toLowerCase())) return "Forbidden: this Host is not served here";
  return undefined;
}

/**
 * `response` whose body, when its client goes before it ends, runs `onGone()` first, and whose end
 * either way runs `onEnd()`. Without a body, `onEnd()` runs at once.
 */
function watched(response, { onGone, onEnd }) {
  if (response.body === null) {
    onEnd();
    return response;
  }
  const reader = response.body.getReader();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd();
  };
  const body = new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          end();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        end();
      }
    },
    cancel(reason) {
      if (!ended) onGone();
      reader.cancel(reason).catch(() => {});
      end();
    },
  }, { highWaterMark: 0 });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Tells an SDK Server (through its transport) that the client went: each request of `ids` is cancelled, so its upstream call is. */
function cancelRequests(transport, ids) {
  for (const requestId of ids) transport.onmessage?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "the client disconnected" } });
}

/**
 * A fetch handler serving `gateway` over MCP Streamable HTTP at `path`, behind a bearer token: a
 * request with an `Origin` not in `allowedOrigins` (or, with `allowedHosts`, another `Host`) gets
 * 403, one without `Authorization: Bearer <token>` 401, both before any body byte is read; a body
 * over MAX_MESSAGE_BYTES gets 413. Stateless by default (each POST its own Server and transport; GET
 * and DELETE 405): for Cloudflare Workers, Deno, Bun. With `sessions` (true, or `{ idleMs, goneMs,
 * max }`) each client's session keeps its Server (list_changed on its GET stream, a
 * `notifications/cancelled` reaching its call), released on DELETE, `goneMs` after its GET stream
 * closes with nothing else open, `idleMs` after its last exchange, or (the least recently used idle
 * one) when `max` are open: `toolshelf serve --port`. A client that goes during a call cancels it
 * on its upstream. `handler.close()` ends every session.
 */
export function httpHandler(gateway, { token, path = "/mcp", allowedOrigins = [], allowedHosts, sessions = false } = {}) {
  if (typeof token !== "string" || token.length < 16) throw new TypeError("httpHandler: a bearer token of at least 16 characters is required (the gateway must not be an open proxy)");
  if (!Array.isArray(allowedOrigins)) throw new TypeError("httpHandler: allowedOrigins is a list of origins (\"https://app.example.com\")");
  const hosts = allowedHosts?.map((h) => h.toLowerCase());
  const serve = sessions ? sessionServer(gateway, sessions === true ? SESSIONS : { ...SESSIONS, ...sessions }) : statelessServer(gateway);
  const handle = async (request) => {
    const url = new URL(request.url);
    if (url.pathname !== path) return new Response("not found\n", { status: 404 });
    const forbidden = originRefusal(request, allowedOrigins, hosts);
    if (forbidden) return refusal(403, -32000, forbidden);
    if (!(await bearerMatches(request, token))) return refusal(401, -32001, "Unauthorized: send Authorization: Bearer <token>", { "www-authenticate": 'Bearer realm="toolshelf"' });
    let parsedBody;
    if (request.method === "POST") {
      const body = await readBody(request);
      if (body.tooLarge) return refusal(413, -32000, `Payload Too Large: a request body is at most ${MAX_MESSAGE_BYTES} bytes`);
      try {
        parsedBody = JSON.parse(body.text);
      } catch {
        return refusal(400, -32700, "Parse error: the body is not JSON");
      }
    }
    return serve.handle(request, parsedBody);
  };
  handle.close = () => serve.close();
  return handle;
}

/** Each POST served by a Server and transport of its own, closed when its response ends (or its client goes: its calls cancelled). */
function statelessServer(gateway) {
  return {
    async handle(request, parsedBody) {
      if (request.method !== "POST") return refusal(405, -32000, "Method Not Allowed: this endpoint is stateless (POST only)", { allow: "POST" });
      const server = gateway.server({ listChanged: false });
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      await server.connect(transport);
      const response = await transport.handleRequest(request, { parsedBody });
      const close = () => server.close().catch(() => {});
      return watched(response, { onGone: close, onEnd: close });
    },
    close: async () => {},
  };
}

/** Sessions kept by id (see httpHandler), each a Server and transport, released when its client goes. */
function sessionServer(gateway, { idleMs, goneMs, max }) {
  const open = new Map(); // id → { server, transport, exchanges, used, timer }
  const release = (session) => {
    if (open.get(session.transport.sessionId) !== session) return;
    open.delete(session.transport.sessionId);
    clearTimeout(session.timer);
    session.server.close().catch(() => {});
  };
  const rest = (session, ms) => {
    clearTimeout(session.timer);
    session.timer = setTimeout(() => release(session), ms);
    session.timer.unref?.();
  };
  const evictIdle = () => {
    let oldest;
    for (const session of open.values()) if (session.exchanges === 0 && (oldest === undefined || session.used < oldest.used)) oldest = session;
    if (oldest) release(oldest);
    return oldest !== undefined;
  };
  const start = async () => {
    if (open.size >= max && !evictIdle()) return undefined;
    const session = { server: gateway.server(), transport: null, exchanges: 0, used: Date.now(), timer: null, gone: false };
    session.transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => open.set(id, session),
    });
    session.transport.onclose = () => release(session);
    await session.server.connect(session.transport);
    return session;
  };
  return {
    async handle(request, parsedBody) {
      const id = request.headers.get("mcp-session-id");
      const session = id === null ? (request.method === "POST" ? await start() : undefined) : open.get(id);
      if (session === undefined) {
        return id === null && request.method === "POST"
          ? refusal(503, -32000, `Service Unavailable: ${max} sessions are open`)
          : refusal(id === null ? 400 : 404, -32001, id === null ? "Bad Request: no Mcp-Session-Id" : "Session not found");
      }
      session.exchanges++;
      session.used = Date.now();
      session.gone = false;
      clearTimeout(session.timer);
      const ids = requestIdsOf(parsedBody ?? []);
      const response = await session.transport.handleRequest(request, { parsedBody });
      if (id === null && session.transport.sessionId === undefined) session.server.close().catch(() => {}); // not an initialize
      return watched(response, {
        onGone: () => {
          if (ids.length) cancelRequests(session.transport, ids);
          else if (request.method === "GET") session.gone = true;
        },
        onEnd: () => {
          session.exchanges--;
          if (session.exchanges === 0 && open.get(session.transport.sessionId) === session) rest(session, session.gone ? goneMs : idleMs);
        },
      });
    },
    close: async () => {
      for (const session of [...open.values()]) release(session);
    },
  };
}
