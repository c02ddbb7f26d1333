// What inspect prints: the cost of a request in each mode counted on what a provider request carries,
// and the report as text (tables, short descriptions).
import { assemble } from "./node.js";
import { fromMcpTool } from "./mcp.js";
import { put } from "./rules.js";

export const num = (n) => n.toLocaleString("en-US");

/** The tool objects of a toolbox as given (an assembly's direct tools are these very objects). */
export function givenTools(toolbox) {
  if (Array.isArray(toolbox)) return new Set(toolbox);
  const set = new Set(Array.isArray(toolbox?.tools) ? toolbox.tools : []);
  for (const list of Object.values(toolbox?.servers ?? {})) if (Array.isArray(list)) for (const t of list) set.add(t);
  return set;
}

/** A tool's format, from its shape (the bridge tools come out in the toolbox's format). */
export function formatOf(tool) {
  if (tool === null || typeof tool !== "object") return undefined;
  if (tool.type === "function" && tool.function) return "openai";
  if (tool.type === "function" || tool.type === "tool_search") return "responses";
  if ("input_schema" in tool) return "anthropic";
  if ("inputSchema" in tool) return "mcp";
  return "gemini";
}

/** An MCP-format toolbox with every tool as toolshelf/mcp's fromMcpTool gives it in `format`. */
export function convertMcp(toolbox, format) {
  const each = (list) => (Array.isArray(list) ? list.map((t) => fromMcpTool(t, format)) : list);
  if (Array.isArray(toolbox)) return each(toolbox);
  const out = { ...toolbox };
  if (toolbox.tools !== undefined) out.tools = each(toolbox.tools);
  if (toolbox.servers && typeof toolbox.servers === "object") {
    out.servers = {};
    for (const [name, list] of Object.entries(toolbox.servers)) put(out.servers, name, each(list));
  }
  return out;
}

/** Left-aligned columns, two spaces apart; `right` holds the indexes of right-aligned columns. */
export function table(rows, right = []) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows.map((r) => r.map((cell, c) => (right.includes(c) ? String(cell).padStart(widths[c]) : String(cell).padEnd(widths[c]))).join("  ").trimEnd());
}

/** The first line of `text`, at most `max` code points, cut at a word with "…". */
export function short(text, max) {
  const line = String(text ?? "").split("\n")[0].trim();
  const points = [...line];
  if (points.length <= max) return line;
  const cut = points.slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

export const TIERS = {
  0: "every tool passes through (no deferred tool, or enabled: off)",
  1: "the bridge; the listing names tools one by one",
  2: "the bridge; the listing shows server lines only, or nothing",
};

export const FORMS = {
  none: "no listing",
  full: "every server listed tool by tool, with short descriptions",
  names: "every server listed as one line of names",
  mixed: "servers at different levels",
  groups: "every server as one summary line",
};

/**
 * What one request costs in each mode (eager, bridge, native), counted on the tools as a provider
 * request carries them: in the toolbox's own format, or for MCP tools/list items (whose title,
 * outputSchema and annotations no request carries) as Anthropic tools, the name, description and
 * input schema every provider sends; native also as Responses tools. `costsFormat` says which.
 */
export function requestCosts(toolbox, options, format, deferredCount) {
  const costsFormat = format === "mcp" ? "anthropic" : format;
  const box = format === "mcp" ? convertMcp(toolbox, costsFormat) : toolbox;
  const opts = format === "mcp" ? { ...options, format: costsFormat } : options;
  const cost = (a, as) => ({ ...(as ? { as } : {}), contextTokens: a.contextTokens, requestBytes: a.requestBytes });
  const bridge = assemble(box, { ...opts, mode: "bridge" });
  const costs = [{ mode: "eager", ...cost(assemble(box, { ...opts, enabled: "off" })) }, { mode: "bridge", ...cost(bridge) }];
  const native = assemble(box, { ...opts, mode: "native" });
  if (native.mode === "native") costs.push({ mode: "native", ...cost(native, format === "mcp" ? costsFormat : undefined) });
  if (format === "mcp" && deferredCount > 0) {
    costs.push({ mode: "native", ...cost(assemble(convertMcp(toolbox, "responses"), { ...options, format: "responses", mode: "native" }), "responses") });
  } else if (native.mode !== "native") {
    const why = native.warnings.find((w) => !bridge.warnings.includes(w)) ?? (deferredCount === 0 ? "no deferred tool" : "not available");
    costs.push({ mode: "native", unavailable: why });
  }
  return { costsFormat, costs };
}

export function inspectText(r, options) {
  const out = [];
  const src = r.source;
  const from = src.kind === "mcp-config"
    ? `${src.servers - src.failed.length} of ${src.servers} MCP servers of ${src.path === "-" ? "stdin" : src.path}${src.failed.length ? ` (left out: ${src.failed.map((f) => f.server).join(", ")})` : ""}`
    : src.path === "-" ? "stdin" : src.path;
  const context = options?.contextLength ?? options?.context_length;
  out.push(...table([
    ["toolbox", `${from}: ${num(r.directCount)} direct, ${num(r.deferredCount)} deferred tool${r.deferredCount === 1 ? "" : "s"} on ${r.servers.length} server${r.servers.length === 1 ? "" : "s"}`],
    ["format", r.format ?? "unknown (no tools)"],
    ["tier", `${r.tier}: ${TIERS[r.tier]}`],
    ["form", `${r.form}: ${FORMS[r.form] ?? ""}`],
    ["mode", r.mode],
    ["context", context === undefined ? "not given (--options '{\"contextLength\":200000}')"
      : Number.isFinite(Number(context)) ? `${num(Number(context))} tokens` : `${JSON.stringify(context)} (not a number: see the warnings)`],
    ["budget", `${num(r.budgetTokens)} tokens for the listing; it takes ${num(r.listingTokens)}`],
    ["deferred", `${num(r.deferredTokens)} tokens of tool definitions kept out of the request`],
    ["fingerprint", r.fingerprint],
  ]));
  if (r.servers.length) {
    out.push("", ...table([["server", "tools", "level"], ...r.servers.map((s) => [s.name, num(s.tools), s.level])], [1]));
  }
  out.push("", `per request (first request of a conversation), the tools as ${r.costsFormat ?? "the toolbox's"} tools`);
  const rows = [["", "context tokens", "request bytes", ""]];
  for (const c of r.costs) {
    const label = c.mode === "eager" ? "eager (every schema)" : c.mode === "native" && c.as ? `native, as ${c.as} tools` : c.mode;
    if (c.unavailable) rows.push([label, "-", "-", c.unavailable]);
    else {
      const share = c.contextTokens / Math.max(1, r.costs[0].contextTokens);
      const note = c.mode === "eager" ? "" : share < 1 ? `${(100 * share).toFixed(1)}% of eager's tokens` : `${share.toFixed(1)}x eager's tokens`;
      rows.push([label, num(c.contextTokens), num(c.requestBytes), note]);
    }
  }
  out.push(...table(rows, [1, 2]).map((l) => `  ${l}`));
  if (r.format === "mcp") {
    out.push("  (what a request carries of an MCP tool: its name, description and input schema, not its title,",
      "  outputSchema or annotations; converted as toolshelf/mcp's fromMcpTool does; --format sets the format)");
  }
  out.push("", r.warnings.length ? "warnings" : "warnings: none");
  for (const w of r.warnings) out.push(`  - ${w}`);
  if (r.listing !== undefined) {
    out.push("");
    if (r.listing === null) out.push("listing: none (tier 0: no search tool)");
    else {
      out.push(`listing (the description of ${r.listing.tool}, as the model reads it)`);
      out.push(...r.listing.description.split("\n").map((l) => (l === "" ? "" : `  ${l}`)));
    }
  }
  return out.join("\n");
}
