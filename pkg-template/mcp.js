// toolshelf/mcp: the MCP TypeScript SDK's connected `Client`s as a toolbox's servers (every
// tools/list page, within caps), and an unwrapped call run on the right client under the tool's own
// name, its failures returned as tool errors. It imports no other package: a client is anything with
// the SDK Client's listTools/callTool methods. With `onToolsChanged`, each client's
// `notifications/tools/list_changed` re-reads that server's tools and the callback gets the servers
// anew (a closed client's server left out), for `Shelf.update` or an adapter's `update`.
import { MAX_MESSAGE_BYTES, TOO_LARGE } from "./limits.js";
import { DEFERRED_DIRECT, put, qualifiedNameRefusal, serverNameSeen } from "./rules.js";

/** The notification a server sends when its tool list changed (MCP, `tools.listChanged`). */
const TOOLS_CHANGED = "notifications/tools/list_changed";
/**
 * What the MCP SDK's `setNotificationHandler` reads of a notification schema, for that method:
 * its method literal (`shape.method.value`, as a zod 3 literal gives it) and a parse taking any
 * params. Used unless the caller passes the SDK's own `ToolListChangedNotificationSchema`.
 */
const TOOLS_CHANGED_SCHEMA = Object.freeze({
  shape: Object.freeze({ method: Object.freeze({ value: TOOLS_CHANGED }) }),
  safeParse: (data) => ({ success: true, data }),
  parse: (data) => data,
});
const MAX_PAGES = 1000;
const MAX_TOOLS = 10000;

/** Lets timers and I/O run between pages (an in-memory transport answers in microtasks only). */
const yieldToEventLoop = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * One tools/list page. With `signal`, the client gets a signal of this page's own (aborted with the
 * caller's), so that what a client hangs on a signal per request is let go with the page, and the
 * page rejects as soon as the caller's signal aborts, whether or not the client heeds it.
 */
async function listPage(client, params, signal) {
  if (!signal) return client.listTools(params);
  signal.throwIfAborted();
  const page = new AbortController();
  const onAbort = () => page.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    return await new Promise((resolve, reject) => {
      page.signal.addEventListener("abort", () => reject(page.signal.reason), { once: true });
      client.listTools(params, { signal: page.signal }).then(resolve, reject);
    });
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/**
 * Every tool a client lists, following `nextCursor` page by page up to `maxPages` pages and
 * `maxTools` tools (a cut-off is reported to `onWarning`), a repeated tool name kept once (also
 * reported), a repeated cursor ending the listing. Yields to the event loop between pages and
 * rejects as soon as `signal` aborts. A warning names `server` when one is given.
 */
export async function listAllTools(client, { signal, maxPages = MAX_PAGES, maxTools = MAX_TOOLS, onWarning, server } = {}) {
  const warn = (message) => onWarning?.(server === undefined ? message : `server ${JSON.stringify(server)}: ${message}`);
  const tools = [];
  const names = new Set();
  const cursors = new Set();
  const repeated = new Set();
  let cursor;
  let pages = 0;
  do {
    if (pages >= maxPages) {
      warn(`tools/list cut off after ${pages} pages (maxPages), ${tools.length} tools read`);
      break;
    }
    if (pages > 0) await yieldToEventLoop();
    const page = await listPage(client, cursor === undefined ? undefined : { cursor }, signal);
    pages++;
    cursors.add(cursor);
    const items = Array.isArray(page?.tools) ? page.tools : [];
    for (let i = 0; i < items.length; i++) {
      const tool = items[i];
      const name = tool?.name;
      if (names.has(name)) {
        repeated.add(name);
        continue;
      }
      if (tools.length >= maxTools) {
        warn(`tools/list cut off at ${maxTools} tools (maxTools)`);
        return finish(tools, repeated, warn);
      }
      names.add(name);
      tools.push(tool);
    }
    cursor = page?.nextCursor ?? undefined;
  } while (cursor !== undefined && !cursors.has(cursor)); // a server repeating a cursor ends the listing
  return finish(tools, repeated, warn);
}

function finish(tools, repeated, warn) {
  if (repeated.size) warn(`${repeated.size} tool name(s) listed more than once, kept once: ${[...repeated].slice(0, 5).map((n) => JSON.stringify(n)).join(", ")}`);
  return tools;
}

/** A tools/list item in one of toolshelf's formats (all tools of a toolbox share one). */
export function fromMcpTool(tool, format = "mcp") {
  const description = tool.description ?? "";
  const schema = tool.inputSchema ?? { type: "object" };
  switch (format) {
    case "mcp": return tool;
    case "openai": return { type: "function", function: { name: tool.name, description, parameters: schema } };
    case "responses": return { type: "function", name: tool.name, description, parameters: schema, strict: false };
    case "anthropic": return { name: tool.name, description, input_schema: { type: "object", ...schema } };
    case "gemini": return { name: tool.name, description, parameters: schema };
    default: throw new TypeError(`toolshelf/mcp: unknown format ${JSON.stringify(format)}`);
  }
}

/** A client's server name: the one given, else what it said at initialize. */
function serverName(client, index) {
  const name = client.getServerVersion?.()?.name;
  if (typeof name !== "string" || name === "") {
    throw new TypeError(`toolshelf/mcp: client ${index} has no server name (connect it first, or pass clients by name)`);
  }
  return name;
}

/** Why a server's tools cannot be a toolbox's server list, or undefined (MCP: every tool has a name). */
function refusal(tools) {
  for (const tool of tools) {
    if (tool === null || typeof tool !== "object") return "a tools/list item is not an object";
    if (typeof tool.name !== "string" || tool.name === "") return "a tool has no name";
    const qualified = qualifiedNameRefusal(tool.name);
    if (qualified) return qualified;
  }
  return undefined;
}

/**
 * The name each server of `names` has in a toolbox: its own, except "builtin" (the core's
 * pseudo-server of the direct tools named in `defer`), which becomes "builtin_2" (or the next name
 * free); `onWarning` hears of the rename. A Map from each given name to its toolbox name.
 */
export function serverNames(names, onWarning) {
  const taken = new Set(names);
  return new Map(names.map((name) => [name, serverNameSeen(name, taken, (w) => onWarning?.(w))]));
}

/**
 * Connected clients (a list, named by their servers, or an object by name) → the servers of a
 * toolbox, each with its tools in `format`, the clients by the same names, and `warnings`. A client
 * whose listing fails, or whose tools are unusable, is left out with a warning naming it; a server
 * named "builtin" (the `defer` pseudo-server) is renamed "builtin_2". Rejects only when `signal`
 * aborts. With `onToolsChanged`, the clients are watched (see `watchTools`) and the result has
 * `unwatch()`.
 */
export async function mcpServers(clients, { format = "mcp", signal, maxPages, maxTools, onWarning, onToolsChanged, notificationSchema } = {}) {
  const given = Array.isArray(clients) ? clients.map((c, i) => [serverName(c, i), c]) : Object.entries(clients);
  const warnings = [];
  const warn = (message) => {
    warnings.push(message);
    onWarning?.(message);
  };
  const seen = new Set();
  for (const [name] of given) {
    if (seen.has(name)) throw new TypeError(`toolshelf/mcp: two clients named "${name}" (pass clients by name)`);
    seen.add(name);
  }
  const served = serverNames(given.map(([name]) => name), warn);
  const named = given.map(([name, client]) => [served.get(name), client]);
  const lists = await Promise.allSettled(named.map(([name, client]) => listAllTools(client, { signal, maxPages, maxTools, onWarning: warn, server: name })));
  signal?.throwIfAborted();
  const servers = {};
  const byName = {};
  named.forEach(([name, client], i) => {
    const listed = lists[i];
    if (listed.status === "rejected") return warn(`server "${name}" left out: tools/list failed (${redact(listed.reason?.message ?? listed.reason)})`);
    const why = refusal(listed.value);
    if (why) return warn(`server "${name}" left out: ${why}`);
    put(servers, name, listed.value.map((tool) => fromMcpTool(tool, format)));
    put(byName, name, client);
  });
  if (typeof onToolsChanged !== "function") return { servers, clients: byName, warnings };
  const unwatch = watchTools(named, servers, { format, maxPages, maxTools, onWarning: warn, onToolsChanged, notificationSchema });
  return { servers, clients: byName, warnings, unwatch };
}

/**
 * Watches named clients (`[name, client]` pairs, or an object by name) whose tools `servers` holds
 * (in `format`): on a client's `notifications/tools/list_changed` its tools are listed anew (every
 * page, within `maxPages`/`maxTools`) and `onToolsChanged({ server, reason: "list_changed",
 * servers, tools })` gets a new servers object with that server's new tools (the others' lists as
 * they were: the same arrays); a listing that fails or whose tools are unusable leaves that server
 * out (`reason: "failed"`, a warning); a client that closes (its `onclose`) leaves its server out
 * (`reason: "closed"`). Changes of one server are read one at a time, the last notification
 * winning. The handler is set with `client.setNotificationHandler` (the SDK's own
 * `ToolListChangedNotificationSchema` if given as `notificationSchema`; by default a schema of that
 * method for the SDK's 1.x releases), replacing and calling on the one set for that method before
 * (the Client's `listChanged.tools` option's); a client without `setNotificationHandler` is reported
 * to `onWarning` and not watched. Returns `unwatch()`, which puts back what it replaced.
 */
export function watchTools(clients, servers, { format = "mcp", maxPages, maxTools, onWarning, onToolsChanged, notificationSchema } = {}) {
  const named = Array.isArray(clients) ? clients : Object.entries(clients);
  let current = servers;
  const undo = [];
  const warn = (message) => onWarning?.(message);
  const emit = (server, reason, tools) => {
    const next = {};
    for (const [name] of named) {
      if (name === server) {
        if (tools !== undefined) put(next, name, tools);
      } else if (Object.hasOwn(current, name)) put(next, name, current[name]);
    }
    current = next;
    onToolsChanged({ server, reason, servers: next, tools });
  };
  for (const [name, client] of named) {
    if (typeof client?.setNotificationHandler !== "function") {
      warn(`server "${name}": its client has no setNotificationHandler, so its tools/list_changed notifications are not read`);
      continue;
    }
    let reading = null;
    let again = false;
    let closed = false;
    const reread = async () => {
      do {
        again = false;
        let tools;
        try {
          tools = await listAllTools(client, { maxPages, maxTools, onWarning: warn, server: name });
        } catch (error) {
          if (closed) return;
          if (again) continue;
          warn(`server "${name}" left out: tools/list failed after tools/list_changed (${redact(error?.message ?? error)})`);
          emit(name, "failed", undefined);
          continue;
        }
        if (closed) return;
        if (again) continue;
        const why = refusal(tools);
        if (why) {
          warn(`server "${name}" left out: ${why}`);
          emit(name, "failed", undefined);
        } else emit(name, "list_changed", tools.map((tool) => fromMcpTool(tool, format)));
      } while (again && !closed);
    };
    const previous = client._notificationHandlers?.get?.(TOOLS_CHANGED);
    client.setNotificationHandler(notificationSchema ?? TOOLS_CHANGED_SCHEMA, async (notification) => {
      if (previous) await previous(notification);
      if (closed) return;
      if (reading) {
        again = true;
        return;
      }
      reading = reread().finally(() => { reading = null; });
      await reading;
    });
    const onclose = client.onclose;
    client.onclose = (...args) => {
      onclose?.(...args);
      if (closed) return;
      closed = true;
      emit(name, "closed", undefined);
    };
    undo.push(() => {
      closed = true;
      client.onclose = onclose;
      if (previous && client._notificationHandlers?.set) client._notificationHandlers.set(TOOLS_CHANGED, previous);
      else client.removeNotificationHandler?.(TOOLS_CHANGED);
    });
  }
  return () => undo.splice(0).forEach((f) => f());
}

/** An MCP tool result's content as one tool message: text items as they are, other items as JSON. */
export function toolMessage(result) {
  if (!Array.isArray(result?.content)) return JSON.stringify(result?.toolResult ?? result ?? null);
  return result.content.map((item) => (item?.type === "text" ? item.text : JSON.stringify(item))).join("\n");
}

const isStringRecord = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && Object.values(v).every((x) => typeof x === "string");

/**
 * How to reach one upstream of an MCP client config, or why not: `{ stdio: {command, args, env,
 * cwd} }`, `{ http: {url, headers, sse} }` (sse: "only", "fallback" or "never"), `{ skip }` (a
 * disabled entry) or `{ error }`. Reads the shapes Claude Desktop, Cursor, VS Code and Windsurf
 * write (`type`/`transport`, `url`/`serverUrl`).
 */
export function upstreamSpec(spec) {
  if (spec === null || typeof spec !== "object" || Array.isArray(spec)) return { error: "its entry is not an object" };
  if (spec.disabled === true) return { skip: "disabled in the config" };
  const type = spec.type ?? spec.transport;
  if (type !== undefined && typeof type !== "string") return { error: `"type" is not a string` };
  const stdio = type === undefined ? typeof spec.command === "string" : type === "stdio";
  if (stdio) {
    if (typeof spec.command !== "string" || spec.command === "") return { error: `no "command" to start it` };
    if (spec.args !== undefined && !(Array.isArray(spec.args) && spec.args.every((a) => typeof a === "string"))) return { error: `"args" is not a list of strings` };
    if (spec.env !== undefined && !isStringRecord(spec.env)) return { error: `"env" is not an object of strings` };
    if (spec.cwd !== undefined && typeof spec.cwd !== "string") return { error: `"cwd" is not a string` };
    return { stdio: { command: spec.command, args: spec.args ?? [], env: spec.env, cwd: spec.cwd } };
  }
  const sse = { sse: "only", http: "never", "streamable-http": "never", streamableHttp: "never", streamable_http: "never" }[type ?? ""] ?? (type === undefined ? "fallback" : undefined);
  if (sse === undefined) return { error: `type ${JSON.stringify(type)} is not one of stdio, http, sse` };
  const url = spec.url ?? spec.serverUrl;
  if (url === undefined) return { error: `neither "command" nor "url": no way to reach it` };
  if (typeof url !== "string") return { error: `"url" is not a string` };
  try {
    new URL(url);
  } catch {
    return { error: `"url" is not a URL: ${JSON.stringify(url)}` };
  }
  if (spec.headers !== undefined && !isStringRecord(spec.headers)) return { error: `"headers" is not an object of strings` };
  return { http: { url, headers: spec.headers, sse } };
}

/** Fixed words for the JSON-RPC error codes a call can fail with (MCP and the SDK's own). */
const CODE_REASONS = Object.freeze({
  [-32700]: "parse error",
  [-32600]: "invalid request",
  [-32601]: "method not found",
  [-32602]: "invalid arguments",
  [-32603]: "internal error",
  [-32000]: "connection closed",
  [-32001]: "timed out",
  [TOO_LARGE]: `its result was over ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB (the gateway's cap) and was dropped; ask for less: a narrower query, fewer items, a page`,
});
/** Fixed words for a system error's code (a process not started, a host not reached). */
const SYSTEM_REASONS = Object.freeze({
  ENOENT: "failed to start: command not found",
  EACCES: "failed to start: command not executable",
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found",
  ETIMEDOUT: "timed out",
  UND_ERR_CONNECT_TIMEOUT: "timed out",
  CERT_HAS_EXPIRED: "TLS certificate refused",
  DEPTH_ZERO_SELF_SIGNED_CERT: "TLS certificate refused",
});

/**
 * A short fixed reason for an MCP failure, the only words of it a model may read (SPEC §16): "timed
 * out", "HTTP 401", "connection refused", "failed to start (command not found)", "internal error"…
 * never the error's own text, which an upstream writes (HTTP bodies, exception messages, URLs).
 */
export function failureReason(error) {
  if (error?.name === "TimeoutError") return "timed out";
  const code = error?.code;
  if (typeof code === "number" && code >= 100 && code <= 599) return `HTTP ${code}`;
  if (typeof code === "number") return Object.hasOwn(CODE_REASONS, code) ? CODE_REASONS[code] : `error ${code}`;
  const system = [code, error?.cause?.code, error?.cause?.cause?.code].find((c) => typeof c === "string" && Object.hasOwn(SYSTEM_REASONS, c));
  if (system) return SYSTEM_REASONS[system];
  if (/^Connection closed/.test(String(error?.message))) return "connection closed";
  return "failed";
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** A URL without its credentials, query and fragment (`…` marks where they were). */
function redactedUrl(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    return "<url>";
  }
  const hidden = url.username !== "" || url.password !== "";
  const tail = url.search !== "" || url.hash !== "";
  url.username = "";
  url.password = "";
  url.search = "";
  url.hash = "";
  const href = hidden ? url.href.replace("://", "://…@") : url.href;
  return tail ? `${href}?…` : href;
}

/** Text with every URL in it stripped of credentials and query (for anything printed or kept: SPEC §16). */
export function redact(text) {
  return String(text ?? "").replace(URL_IN_TEXT, redactedUrl);
}

/** Why a signal aborted, as text. */
const reasonOf = (signal) => signal.reason?.message ?? String(signal.reason ?? "aborted");

/** A failure as a tool result: the message the model reads, with the error for programs. */
function failure(text, error) {
  return { content: text, result: { content: [{ type: "text", text }], isError: true }, isError: true, ...(error !== undefined ? { error } : {}) };
}

/**
 * Runs an unwrapped `call` (kind "call" with a server) through `client.callTool` on its server,
 * under the tool's own (server-side) name; returns the tool message, the raw result and isError.
 * Never throws for the call's failures: a call no client serves (a direct tool, the `defer`
 * pseudo-server "builtin"), a JSON-RPC error, a timeout and a cancelled call come back as
 * `isError: true` results. `options` are the MCP SDK's RequestOptions, passed to `callTool`:
 * `onprogress` (the server's progress notifications; one that throws is ignored), `signal` (an
 * abort cancels the request on the server; an aborted signal runs nothing), `timeout`,
 * `resetTimeoutOnProgress`, `maxTotalTimeout`.
 */
export async function callMcpTool(clients, call, options) {
  const name = call?.name;
  const server = call?.server;
  if (server === undefined || server === DEFERRED_DIRECT) {
    return failure(`${name} is not a tool of an MCP server (it is one of the agent's own tools), so it was not run here.`);
  }
  if (clients == null || !Object.hasOwn(clients, server)) {
    return failure(`${name} belongs to server "${server}", which is not connected, so it was not run.`);
  }
  const signal = options?.signal;
  if (signal?.aborted) return failure(`${name} was cancelled before it ran on server "${server}": ${reasonOf(signal)}`, signal.reason);
  let request = options;
  if (typeof options?.onprogress === "function") {
    const onprogress = options.onprogress;
    request = {
      ...options,
      onprogress: (progress) => {
        try {
          onprogress(progress);
        } catch {
          // an observer's failure does not fail the call
        }
      },
    };
  }
  try {
    const result = await clients[server].callTool({ name: call.tool ?? name, arguments: call.arguments }, undefined, request);
    return { content: toolMessage(result), result, isError: result?.isError === true };
  } catch (error) {
    if (signal?.aborted) return failure(`${name} was cancelled on server "${server}": ${reasonOf(signal)}`, error);
    const code = typeof error?.code === "number" ? ` (error ${error.code})` : "";
    return failure(`${name} failed on server "${server}"${code}: ${failureReason(error)}.`, error);
  }
}
