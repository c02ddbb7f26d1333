// The token picture: what every schema costs when sent eagerly versus what the assembled array costs,
// per server. Counts follow the contract (SPEC §2.1): a tool's size is the code points of its compact
// JSON, its token estimate ceil(size / 4). A server's share of the listing is measured on the listing text.
import { groupByServer, toolName, toolDescription } from "./toolbox.js";

/** Unicode code points of a string (a surrogate pair is one). */
export function codePoints(text) {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

export const tokensOf = (text) => Math.ceil(codePoints(text) / 4);

const toolTokenCache = new WeakMap();

/** A tool's token estimate, measured once per tool object. */
export function toolTokens(tool) {
  if (tool === null || typeof tool !== "object") return tokensOf(JSON.stringify(tool) ?? "");
  if (!toolTokenCache.has(tool)) toolTokenCache.set(tool, tokensOf(JSON.stringify(tool)));
  return toolTokenCache.get(tool);
}

export const sumTokens = (tools) => tools.reduce((sum, tool) => sum + toolTokens(tool), 0);

/** The listing text the model reads: the search bridge tool's description. */
export function listingText(assembly, searchName = "tool_search") {
  const search = assembly.tools.find((tool) => toolName(tool) === searchName || tool?.type === "tool_search");
  return search ? toolDescription(search) : "";
}

/**
 * Tokens each server's block takes in the listing. The blocks follow the listing's last empty line,
 * one per server in the assembly's order: a heading line (however the core writes the server's
 * name), then its tools' "- " lines. No shares when the lines do not make one block per server.
 */
export function listingShares(listing, serverNames) {
  const lines = listing.split("\n");
  const blocks = lines.slice(lines.lastIndexOf("") + 1);
  const chars = [];
  for (const line of blocks) {
    if (!line.startsWith("- ")) chars.push(0);
    if (chars.length) chars[chars.length - 1] += codePoints(line) + 1;
  }
  if (chars.length !== serverNames.length) return new Map();
  return new Map(serverNames.map((server, i) => [server, Math.ceil(chars[i] / 4)]));
}

/**
 * `{eager, assembled, direct, rows}`: tokens of every schema sent eagerly, of the assembled array,
 * of the direct tools, and per server `{name, tools, level, eager, listed}` in the assembly's order.
 */
export function tokenPicture(toolbox, assembly, searchName) {
  const { direct, servers } = groupByServer(toolbox);
  const shares = listingShares(listingText(assembly, searchName), assembly.servers.map((s) => s.name));
  const rows = assembly.servers.map(({ name, tools, level }) => ({
    name,
    tools,
    level,
    eager: sumTokens(servers[name] ?? []),
    listed: assembly.tier === 0 ? sumTokens(servers[name] ?? []) : shares.get(name) ?? 0,
  }));
  const directTokens = sumTokens(direct);
  return {
    eager: directTokens + rows.reduce((sum, row) => sum + row.eager, 0),
    // What the context pays: Anthropic keeps native deferred tools out of it (Assembly.contextTokens).
    assembled: assembly.mode === "native" ? assembly.contextTokens : sumTokens(assembly.tools),
    direct: directTokens,
    rows,
  };
}
