// MCP servers as the ToolSets toolshelf/ai reads: a connected MCP SDK `Client` (its tools listed
// by toolshelf/mcp, every page), an @ai-sdk/mcp client (its own `tools()`), or what toolshelf/mcp's
// `mcpServers` returns. A tool of an MCP SDK client runs through `callMcpTool`: the step's abort
// signal cancels it on the server, its progress notifications reach `onProgress`, and a failure
// (a JSON-RPC error, a timeout, an `isError` result) is thrown as an `McpToolError`, which the AI
// SDK hands the model as the tool's error. Anything else is a TypeError that names what was expected.
import { jsonSchema, tool as aiTool } from "ai";
import { callMcpTool, mcpServers } from "./mcp.js";
import { put } from "./rules.js";

const EXPECTED = "an object of servers by name, each an AI SDK ToolSet or a connected MCP client "
  + "(the MCP SDK's Client, or @ai-sdk/mcp's), or what toolshelf/mcp's mcpServers() returns";

/** An MCP tool's failure as the AI SDK's tool error: the text the model reads, the MCP result for programs. */
export class McpToolError extends Error {
  constructor(ran) {
    super(ran.content, ran.error === undefined ? undefined : { cause: ran.error });
    this.name = "McpToolError";
    this.result = ran.result;
  }
}

const isObject = (value) => value !== null && typeof value === "object";
/** @ai-sdk/mcp's client: it makes its own ToolSet. */
const isAiSdkMcpClient = (value) => isObject(value) && typeof value.tools === "function" && typeof value.toolsFromDefinitions === "function";
/** The MCP SDK's Client (or anything with its listTools/callTool). */
const isMcpClient = (value) => isObject(value) && !isAiSdkMcpClient(value) && typeof value.listTools === "function" && typeof value.callTool === "function";
const isClient = (value) => isMcpClient(value) || isAiSdkMcpClient(value);
/** What mcpServers returns: `{ servers, clients, warnings }`, tools/list items by server. */
const isMcpServersResult = (value) => isObject(value) && !Array.isArray(value) && isObject(value.servers) && isObject(value.clients)
  && Array.isArray(value.warnings) && Object.values(value.servers).every(Array.isArray);

/** An MCP tools/list item as an AI SDK tool whose `execute` runs it through `callMcpTool`. */
function mcpTool(def, server, clients, onProgress) {
  if (!isObject(def) || typeof def.name !== "string" || !isObject(def.inputSchema)) {
    throw new TypeError(`toolshelf/ai: server "${server}" holds a tool that is not an MCP tools/list item (name and inputSchema): pass mcpServers() a client in its default format "mcp"`);
  }
  return aiTool({
    description: def.description ?? "",
    inputSchema: jsonSchema(def.inputSchema),
    execute: async (input, execution) => {
      const call = { kind: "call", name: def.name, server, tool: def.name, arguments: input ?? {}, viaBridge: false };
      const progress = onProgress ? { onprogress: (p) => onProgress(p, { name: def.name, server, tool: def.name, arguments: call.arguments }) } : {};
      const ran = await callMcpTool(clients, call, { signal: execution?.abortSignal, ...progress });
      if (ran.isError) throw new McpToolError(ran);
      return ran.content;
    },
  });
}

/**
 * mcpServers' result (tools/list items and clients by server) as ToolSets by server. A server's
 * list read before (the same array, as `onToolsChanged` keeps the lists of servers that did not
 * change) gives the same ToolSet, so only a changed server is prepared again.
 */
function toolSetsOfListing({ servers, clients }, { memo, onProgress }) {
  const sets = {};
  for (const [server, defs] of Object.entries(servers)) {
    const known = memo.get(defs);
    if (known?.server === server && known.clients === clients) {
      put(sets, server, known.value);
      continue;
    }
    const set = {};
    for (const def of defs) set[def.name] = mcpTool(def, server, clients, onProgress);
    memo.set(defs, { server, clients, value: set });
    put(sets, server, set);
  }
  return sets;
}

/** Why a server's value is not one createToolshelf takes, or undefined. */
function wrongServer(server, value) {
  if (Array.isArray(value)) {
    return `server "${server}" is an array (MCP tools/list items?); expected an AI SDK ToolSet or a connected MCP client. For mcpServers()'s result, pass the whole result, which holds the clients that run the tools`;
  }
  return undefined;
}

/**
 * Reads `servers` as given to createToolshelf into ToolSets by server: the value itself when it
 * holds ToolSets only; else the ToolSets made from the MCP clients in it (a promise when a client's
 * tools must be listed). Each input object and client is read once (`memo`), so the same servers
 * give the same ToolSets, step after step.
 */
export function mcpToolSets(servers, { memo, onProgress, onWarning }) {
  if (servers == null) return {};
  if (!isObject(servers)) throw new TypeError(`toolshelf/ai: servers is ${typeof servers}; expected ${EXPECTED}`);
  const known = memo.get(servers);
  if (known) return known.value;
  let value;
  if (isMcpServersResult(servers)) value = toolSetsOfListing(servers, { memo, onProgress });
  else if (Array.isArray(servers)) {
    if (servers.length === 0 || !servers.every(isMcpClient)) throw new TypeError(`toolshelf/ai: servers is an array${servers.length ? " of something other than MCP SDK clients" : ""}; expected ${EXPECTED}`);
    value = listClients(servers, { memo, onProgress, onWarning });
  } else {
    for (const [server, set] of Object.entries(servers)) {
      const why = wrongServer(server, set);
      if (why) throw new TypeError(`toolshelf/ai: ${why}`);
    }
    if (!Object.values(servers).some(isClient)) return servers;
    value = withClientsListed(servers, { memo, onProgress, onWarning });
  }
  memo.set(servers, { value });
  return value;
}

/** Lists MCP SDK clients (a list, named by their servers, or an object by name) into ToolSets. */
async function listClients(clients, { memo, onProgress, onWarning }) {
  const listing = await mcpServers(clients, { onWarning: (w) => onWarning?.(`toolshelf/ai: ${w}`) });
  return toolSetsOfListing(listing, { memo, onProgress });
}

/** An object of servers with clients among its ToolSets: the clients' tools listed, in the order given. */
async function withClientsListed(servers, options) {
  const entries = Object.entries(servers);
  const sdkClients = Object.fromEntries(entries.filter(([, v]) => isMcpClient(v)));
  const [listed, ...aiSdkSets] = await Promise.all([
    Object.keys(sdkClients).length ? listClients(sdkClients, options) : {},
    ...entries.filter(([, v]) => isAiSdkMcpClient(v)).map(([server, client]) => client.tools().then((set) => [server, set], (error) => {
      options.onWarning?.(`toolshelf/ai: server "${server}" left out: its tools could not be read (${error?.message ?? error})`);
      return [server, undefined];
    })),
  ]);
  const aiSdk = new Map(aiSdkSets);
  const sets = {};
  for (const [server, value] of entries) {
    const set = isMcpClient(value) ? listed[server] : isAiSdkMcpClient(value) ? aiSdk.get(server) : value;
    if (set !== undefined) put(sets, server, set);
  }
  return sets;
}
