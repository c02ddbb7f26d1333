// The CLI's MCP connector (--mcp-config): every server of an MCP client config connected at once
// with the MCP SDK (an optional peer dependency, imported when used), its tools listed within a
// timeout, the servers that fail reported and left out.
import { InputError, UsageError, note, warn } from "./cli-errors.js";
import { mcpServers, upstreamSpec } from "./mcp.js";
import { put } from "./rules.js";

export const SDK_MISSING = `--mcp-config needs the MCP TypeScript SDK, an optional peer dependency of toolshelf:
  npm i @modelcontextprotocol/sdk          (in the project where toolshelf is installed)
  npx -p toolshelf -p @modelcontextprotocol/sdk toolshelf ...   (without a project)`;

/** The SDK's client classes, imported when --mcp-config is used (an optional peer dependency). */
export async function mcpSdk() {
  const sdk = "@modelcontextprotocol/sdk";
  try {
    const [{ Client }, { StdioClientTransport }, { StreamableHTTPClientTransport }, { SSEClientTransport }] = await Promise.all([
      import(`${sdk}/client/index.js`),
      import(`${sdk}/client/stdio.js`),
      import(`${sdk}/client/streamableHttp.js`),
      import(`${sdk}/client/sse.js`),
    ]);
    return { Client, StdioClientTransport, StreamableHTTPClientTransport, SSEClientTransport };
  } catch (e) {
    if (e?.code === "ERR_MODULE_NOT_FOUND" && e.message.includes(`'${sdk}'`)) throw new InputError(SDK_MISSING);
    throw new InputError(`--mcp-config: cannot load ${sdk}: ${e.message}`);
  }
}

/** Why a connection or listing failed, in a few words. */
export function reason(e, spec) {
  if (e?.code === "ENOENT" && spec?.stdio) return `command not found: ${spec.stdio.command}`;
  if (e?.code === "EACCES" && spec?.stdio) return `command not executable: ${spec.stdio.command}`;
  if (e?.name === "TimeoutError" || e?.code === -32001) return "timed out";
  if (spec?.stdio && /Connection closed/.test(e?.message)) return "it exited, or closed its stdout, before listing its tools";
  const cause = e?.cause?.code ?? e?.cause?.message;
  const message = `${e?.message ?? String(e)}${cause && !String(e?.message).includes(cause) ? ` (${cause})` : ""}`;
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

/** Settles after `ms` with undefined (a close that hangs is not waited for). */
export const within = (promise, ms) => Promise.race([promise.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, ms).unref())]);

/**
 * Connects to every server of an MCP client config at once, lists each one's tools (every page)
 * within `timeout` ms, and closes them: `{ servers, failed, total }`. A server that fails is
 * reported on stderr and left out; none left is an InputError.
 */
export async function mcpToolbox(config, { format, timeout, label }) {
  if (config === null || typeof config !== "object" || Array.isArray(config)) throw new InputError(`--mcp-config ${label}: expected a JSON object with "mcpServers" (or VS Code's "servers")`);
  const key = config.mcpServers === undefined && config.servers !== undefined ? "servers" : "mcpServers"; // VS Code's .vscode/mcp.json says "servers"
  const entries = config[key];
  if (config.mcpServers === undefined && entries && typeof entries === "object" && Object.values(entries).some(Array.isArray)) {
    throw new UsageError(`--mcp-config ${label}: this is a toolbox (servers with lists of tools), not an MCP client config: give it without --mcp-config`);
  }
  if (entries === null || typeof entries !== "object" || Array.isArray(entries)) {
    throw new InputError(`--mcp-config ${label}: no "mcpServers" object (the shape Claude Desktop and Cursor write: {"mcpServers": {"name": {"command": ..., "args": [...]}}}; VS Code's .vscode/mcp.json: {"servers": {...}})`);
  }
  const names = Object.keys(entries);
  if (names.length === 0) throw new InputError(`--mcp-config ${label}: "${key}" is empty: no server to read`);
  const sdk = await mcpSdk();
  const results = await Promise.all(names.map((name) => readServer(sdk, name, upstreamSpec(entries[name]), { format, timeout })));
  const servers = {};
  const failed = [];
  let skipped = 0;
  results.forEach((result, i) => {
    const name = names[i];
    for (const w of result.warnings ?? []) warn(w);
    if (result.skip) {
      skipped++;
      note(`server "${name}" skipped: ${result.skip}`);
    } else if (result.error) {
      failed.push({ server: name, error: result.error });
      console.error(`toolshelf: server "${name}" left out: ${result.error}`);
    } else {
      put(servers, name, result.tools);
    }
  });
  const read = names.length - failed.length - skipped;
  if (read === 0) {
    throw new InputError(`--mcp-config ${label}: no server's tools could be read (${failed.length} failed${skipped ? `, ${skipped} disabled` : ""})`);
  }
  return { servers, failed, total: names.length };
}

/** One server: connected, listed and closed within `timeout` ms; `{ tools }`, `{ error }` or `{ skip }`. */
export async function readServer(sdk, name, spec, { format, timeout }) {
  if (spec.skip || spec.error) return spec;
  const signal = AbortSignal.timeout(timeout);
  let stderrTail = "";
  const attempt = async (transport) => {
    const client = new sdk.Client({ name: "toolshelf-cli", version: "1.0.0" });
    try {
      await client.connect(transport, { signal, timeout });
      const warnings = [];
      const { servers, warnings: left } = await mcpServers({ [name]: client }, { format, signal, onWarning: (w) => warnings.push(w) });
      if (!Object.hasOwn(servers, name)) return { error: left.at(-1)?.replace(/^server "[^"]*" left out: /, "") ?? "no tools read" };
      return { tools: servers[name], warnings };
    } finally {
      await within(client.close(), 2000);
    }
  };
  try {
    if (spec.stdio) {
      const transport = new sdk.StdioClientTransport({ ...spec.stdio, stderr: "pipe" });
      transport.stderr?.on("data", (chunk) => {
        stderrTail = (stderrTail + chunk).slice(-2000);
      });
      return await attempt(transport);
    }
    const { url, headers, sse } = spec.http;
    const requestInit = headers ? { headers } : undefined;
    if (sse === "only") return await attempt(new sdk.SSEClientTransport(new URL(url), { requestInit }));
    try {
      return await attempt(new sdk.StreamableHTTPClientTransport(new URL(url), { requestInit }));
    } catch (e) {
      if (sse === "never" || signal.aborted) throw e;
      // Servers of the older HTTP+SSE transport refuse the streamable POST: try SSE on the same URL.
      try {
        return await attempt(new sdk.SSEClientTransport(new URL(url), { requestInit }));
      } catch (again) {
        if (signal.aborted) throw again;
        return { error: `${url}: streamable HTTP: ${reason(e)}; SSE: ${reason(again)}` };
      }
    }
  } catch (e) {
    const why = signal.aborted ? `timed out after ${timeout} ms (--timeout)` : `${spec.http ? `${spec.http.url}: ` : ""}${reason(e, spec)}`;
    // The server's last words on stderr (up to three lines: the cause often comes before a hint).
    const last = stderrTail.split("\n").map((l) => l.trim()).filter(Boolean).slice(-3).join(" / ");
    return { error: last ? `${why} (its stderr: ${last.length > 300 ? `${last.slice(0, 300)}…` : last})` : why };
  }
}
