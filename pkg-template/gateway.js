// toolshelf/gateway: toolshelf as an MCP server. A Gateway connects to the upstream MCP servers of
// an MCP client config (stdio and Streamable HTTP, through @modelcontextprotocol/sdk's Client),
// keeps their tools on a Shelf, and serves downstream clients the assembly: the bridge tools
// (tool_search with the listing in its description, tool_describe, tool_call) and the tools of the
// servers the options pin (`alwaysLoad`). A downstream tools/call is unwrapped by the Shelf (a
// search or describe answered here, a bad call rejected with the reason, a call validated against
// its tool's schema) and a real call is run on its upstream under the tool's own name; the
// upstream's result comes back as it was sent, progress and cancellation passing both ways.
// An upstream's `notifications/tools/list_changed` updates the Shelf, and downstream clients are
// told `notifications/tools/list_changed` only when the tools they are served changed. An upstream
// that fails to start or dies is named in the search tool's description, its tools' calls answer
// that it is unavailable, and it is reconnected with a bounded backoff; the others keep serving.
// State lives in the Gateway object; nothing is kept at module level.
import { Shelf, ToolshelfError } from "toolshelf";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { callMcpTool, listAllTools, upstreamSpec, watchTools } from "./mcp.js";

export { upstreamSpec };

const SDK = "@modelcontextprotocol/sdk";
const DEFAULTS = Object.freeze({
  timeout: 10_000, // to connect to an upstream and list its tools
  callTimeout: 60_000, // per call, started again by each progress notification
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

/** Sets `object[key]` as an own property even when the key is "__proto__". */
const put = (object, key, value) => Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
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

/** Why a connection or listing failed, in a few words. */
function reasonOf(error, spec) {
  if (error?.code === "ENOENT" && spec?.stdio) return `command not found: ${spec.stdio.command}`;
  if (error?.code === "EACCES" && spec?.stdio) return `command not executable: ${spec.stdio.command}`;
  if (error?.name === "TimeoutError" || error?.code === -32001) return "timed out";
  if (spec?.stdio && /Connection closed/.test(error?.message)) return "it exited, or closed its stdout";
  const cause = error?.cause?.code ?? error?.cause?.message;
  return cut(`${error?.message ?? String(error)}${cause && !String(error?.message).includes(cause) ? ` (${cause})` : ""}`);
}

/** Settles after `ms` at most (a close that hangs is not waited for). */
const within = (promise, ms) => {
  let timer;
  return Promise.race([Promise.resolve(promise).catch(() => undefined), new Promise((resolve) => { timer = setTimeout(resolve, ms); })]).finally(() => clearTimeout(timer));
};

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
  #upstreams = new Map();
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
    for (const key of Object.keys(upstreams)) {
      const given = upstreams[key];
      const spec = given && (given.stdio || given.http || given.skip || given.error) ? given : upstreamSpec(given);
      this.#upstreams.set(key, { name: key, spec, state: spec.skip ? "disabled" : spec.error ? "failed" : "idle", error: spec.error ?? spec.skip, client: null, tools: undefined, attempts: 0, timer: null, unwatch: null, connecting: null, generation: 0 });
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

  /** A Gateway of an MCP client config's servers and its `"toolshelf"` options (`settings.options` are laid over them). */
  static fromConfig(config, settings = {}) {
    const { upstreams, options } = readConfig(config);
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

  /** Each upstream's state: `ready`, `connecting`, `down` (retried), `failed` (not retried), `disabled` or `idle`. */
  status() {
    return [...this.#upstreams.values()].map((up) => ({
      name: up.name,
      state: up.state,
      tools: up.tools?.length ?? this.#facts?.servers.find((server) => server.name === up.name)?.tools ?? 0,
      ...(up.error !== undefined && up.state !== "ready" ? { error: up.error } : {}),
      ...(up.listError !== undefined && up.state === "ready" ? { error: up.listError } : {}),
      attempts: up.attempts,
    }));
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
   * own name: its result is returned as the upstream sent it. `signal` cancels the upstream call;
   * `onprogress` hears its progress notifications. Never throws.
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
    const options = { signal, onprogress, timeout: this.#settings.callTimeout, resetTimeoutOnProgress: true };
    if (this.#settings.perCall) {
      // A connection of this call's own (a Worker's I/O belongs to the request that made it).
      if (up.state === "failed" || up.state === "disabled") return failure(`${call.name} was not run: ${this.#unavailable(up)}`);
      let client;
      try {
        client = await this.#open(up, AbortSignal.any([AbortSignal.timeout(this.#settings.timeout), ...(signal ? [signal] : [])]));
      } catch (error) {
        return failure(`${call.name} was not run: server "${up.name}" is unavailable (${error?.message ?? error}).`);
      }
      try {
        const result = await callMcpTool({ [up.name]: client }, call, options);
        return isObject(result.result) ? result.result : failure(result.content);
      } finally {
        await within(client.close(), 1_000);
      }
    }
    if (up.state === "idle") await this.#connect(up); // served from a snapshot: connected on its first call
    if (up.state !== "ready" || up.client === null) return failure(`${call.name} was not run: ${this.#unavailable(up)}`);
    const result = await callMcpTool({ [up.name]: up.client }, call, options);
    return isObject(result.result) ? result.result : failure(result.content);
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

  /** Closes every upstream connection and stops reconnecting; served `Server`s are closed too. */
  async close() {
    this.#closed = true;
    const ups = [...this.#upstreams.values()];
    for (const up of ups) {
      clearTimeout(up.timer);
      up.unwatch?.();
    }
    await Promise.all([
      ...ups.map((up) => (up.client ? within(up.client.close(), 2_000) : undefined)),
      ...[...this.#servers].map((s) => within(s.close(), 2_000)),
    ]);
    this.#servers.clear();
    this.#listeners.clear();
    this.#shelf?.free();
    this.#shelf = null;
  }

  // -------------------------------------------------------------------------------------------

  #warn(message) {
    this.#warnings.push(message);
    if (this.#warnings.length > 100) this.#warnings.splice(0, this.#warnings.length - 100);
    try {
      this.#settings.onWarning?.(message);
    } catch {
      // an observer's failure is not the gateway's
    }
  }

  #unavailable(up) {
    const why = up.error ?? "not connected";
    if (up.state === "failed" || up.state === "disabled") return `server "${up.name}" is unavailable (${why}).`;
    return `server "${up.name}" is unavailable (${why}); the gateway is reconnecting to it, so a later call may succeed.`;
  }

  /** A connected SDK Client on `up`'s transport, within `timeout`; rejects with what went wrong. */
  async #open(up, signal) {
    const { connect } = this.#settings;
    let transport;
    let stderrTail = "";
    if (typeof connect === "function") transport = await connect(up.name, up.spec);
    else if (up.spec.stdio) {
      let StdioClientTransport;
      try {
        ({ StdioClientTransport } = await import(`${SDK}/client/stdio.js`));
      } catch (error) {
        throw new Error(`stdio servers need Node and ${SDK}/client/stdio.js (${error?.message ?? error})`);
      }
      transport = new StdioClientTransport({ ...up.spec.stdio, stderr: "pipe" });
      transport.stderr?.on?.("data", (chunk) => {
        stderrTail = (stderrTail + chunk).slice(-2_000);
      });
    } else {
      const { url, headers, sse } = up.spec.http;
      const requestInit = headers ? { headers } : undefined;
      if (sse === "only") {
        const { SSEClientTransport } = await import(`${SDK}/client/sse.js`);
        transport = new SSEClientTransport(new URL(url), { requestInit });
      } else transport = new StreamableHTTPClientTransport(new URL(url), { requestInit });
    }
    const client = new Client(this.#settings.info, { jsonSchemaValidator: NO_VALIDATION });
    try {
      await Promise.race([client.connect(transport, { signal, timeout: this.#settings.timeout }), aborted(signal)]);
    } catch (error) {
      within(client.close(), 1_000);
      const last = stderrTail.split("\n").map((l) => l.trim()).filter(Boolean).slice(-3).join(" / ");
      const why = signal.aborted ? `timed out after ${this.#settings.timeout} ms` : reasonOf(error, up.spec);
      throw new Error(last ? `${why} (its stderr: ${cut(last)})` : why);
    }
    return client;
  }

  /** Connects `up` (once at a time) and lists its tools; on failure marks it down and schedules a retry. */
  #connect(up) {
    up.connecting ??= (async () => {
      up.state = "connecting";
      up.attempts++;
      const generation = ++up.generation;
      const signal = AbortSignal.timeout(this.#settings.timeout);
      let client;
      try {
        client = await this.#open(up, signal);
        const warnings = [];
        // Served from a snapshot, the catalog is the snapshot's: the connection is for calls alone.
        const tools = this.#snapshot ? [] : await Promise.race([
          listAllTools(client, { signal, maxPages: this.#settings.maxPages, maxTools: this.#settings.maxTools, server: up.name, onWarning: (w) => warnings.push(w) }),
          aborted(signal),
        ]).catch((error) => {
          throw new Error(`tools/list failed: ${signal.aborted ? `timed out after ${this.#settings.timeout} ms` : reasonOf(error)}`);
        });
        warnings.forEach((w) => this.#warn(w));
        if (this.#closed || generation !== up.generation) {
          within(client.close(), 1_000);
          return;
        }
        up.client = client;
        up.state = "ready";
        up.error = undefined;
        up.listError = undefined;
        up.attempts = 0;
        if (!this.#snapshot) up.tools = this.#usable(up.name, tools);
        if (this.#settings.perCall) {
          up.client = null;
          within(client.close(), 1_000);
        } else this.#watch(up);
      } catch (error) {
        if (client) within(client.close(), 1_000);
        up.state = "down";
        up.error = cut(error?.message ?? error);
        this.#warn(`server "${up.name}": ${up.error}`);
        this.#schedule(up);
      } finally {
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
      if (/^mcp__.+__./s.test(tool.name)) {
        this.#warn(`server "${server}": tool ${JSON.stringify(cut(tool.name, 80))} was left out (mcp__<server>__<tool> names are toolshelf's)`);
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
          up.listError = undefined;
          if (this.#live) this.#refresh();
        } else if (change.reason === "failed") {
          // Its last good list is kept: the server still answers calls.
          up.listError = "its tools/list failed after it said its tools changed; its last list is kept";
          if (this.#live) this.#refresh();
        } else this.#lost(up, generation, "its connection closed");
      },
    });
  }

  /** `up`'s connection is gone: its tools stay listed (answering that it is unavailable) and it is reconnected. */
  #lost(up, generation, why) {
    if (generation !== up.generation || this.#closed || up.state !== "ready") return;
    up.unwatch?.();
    up.unwatch = null;
    up.client = null;
    up.state = "down";
    up.error = why;
    this.#warn(`server "${up.name}": ${why}`);
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
    // Named until back: an upstream being reconnected keeps its last error (the bytes do not flap with each attempt).
    const down = [...this.#upstreams.values()].filter((up) => up.state !== "ready" && up.state !== "disabled" && up.error !== undefined);
    const listFailed = [...this.#upstreams.values()].filter((up) => up.state === "ready" && up.listError !== undefined);
    const notes = [
      ...down.map((up) => `${up.name} (${up.error ?? up.state})`),
      ...listFailed.map((up) => `${up.name} (${up.listError})`),
    ];
    const note = notes.length ? `\n\nUnavailable now: ${notes.join("; ")}. A call to their tools answers with an error until they are back.` : "";
    const searchName = this.#bridgeName(assembly);
    let tools = note && searchName ? assembly.tools.map((t) => (t.name === searchName ? { ...t, description: `${t.description}${note}` } : t)) : assembly.tools;
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
    if (first) return;
    for (const server of this.#servers) server.sendToolListChanged().catch(() => {});
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // a listener's failure is not the gateway's
      }
    }
  }

  /** The search tool served while no upstream has tools: its description, and any call of it, name the unavailable upstreams. */
  #statusTool(notes) {
    const names = this.#options.bridgeNames;
    const name = (Array.isArray(names) ? names[0] : names?.search) ?? "tool_search";
    const description = `No upstream MCP server has tools to offer now. Unavailable now: ${notes.join("; ")}. The gateway is reconnecting; the tools appear when a server is back.`;
    return { name, description, inputSchema: { type: "object", properties: { query: { type: "string" } } } };
  }

  /** The search tool's name in an assembly (the first bridge tool), or undefined at tier 0. */
  #bridgeName(assembly) {
    if (assembly.tier === 0) return undefined;
    return assembly.tools[assembly.tools.length - 3]?.name;
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

/**
 * A fetch handler serving `gateway` over MCP Streamable HTTP (the SDK's web-standard transport,
 * stateless: each request gets its own Server and transport, so nothing is held per session) at
 * `path`, behind a bearer token: a request without `Authorization: Bearer <token>` gets 401. A
 * tools/call's progress notifications stream back in its response (SSE). For Cloudflare Workers,
 * Deno, Bun, and Node through `toolshelf serve --port`.
 */
export function httpHandler(gateway, { token, path = "/mcp" } = {}) {
  if (typeof token !== "string" || token.length < 16) throw new TypeError("httpHandler: a bearer token of at least 16 characters is required (the gateway must not be an open proxy)");
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname !== path) return new Response("not found\n", { status: 404 });
    if (!(await bearerMatches(request, token))) {
      return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Unauthorized: send Authorization: Bearer <token>" }, id: null }), {
        status: 401,
        headers: { "content-type": "application/json", "www-authenticate": 'Bearer realm="toolshelf"' },
      });
    }
    const server = gateway.server({ listChanged: false });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    return transport.handleRequest(request);
  };
}
