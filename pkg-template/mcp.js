// toolshelf/mcp: the MCP TypeScript SDK's connected `Client`s as a toolbox's servers (every
// tools/list page), and an unwrapped call run on the right client under the tool's own name.
// It imports nothing: a client is anything with the SDK Client's listTools/callTool methods.

/** Every tool a client lists, following `nextCursor` through all pages. */
export async function listAllTools(client, options) {
  const tools = [];
  const seen = new Set();
  let cursor;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor }, options);
    tools.push(...(page.tools ?? []));
    seen.add(cursor);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && !seen.has(cursor)); // a server repeating a cursor ends the listing
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

/**
 * Connected clients (a list, named by their servers, or an object by name) → the servers of a
 * toolbox, each with all its tools in `format`, and the clients by the same names.
 */
export async function mcpServers(clients, { format = "mcp", signal } = {}) {
  const named = Array.isArray(clients) ? clients.map((c, i) => [serverName(c, i), c]) : Object.entries(clients);
  const byName = {};
  for (const [name, client] of named) {
    if (Object.hasOwn(byName, name)) throw new TypeError(`toolshelf/mcp: two clients named "${name}" (pass clients by name)`);
    byName[name] = client;
  }
  const lists = await Promise.all(named.map(([, client]) => listAllTools(client, signal ? { signal } : undefined)));
  const servers = {};
  named.forEach(([name], i) => { servers[name] = lists[i].map((tool) => fromMcpTool(tool, format)); });
  return { servers, clients: byName };
}

/** An MCP tool result's content as one tool message: text items as they are, other items as JSON. */
export function toolMessage(result) {
  if (!Array.isArray(result?.content)) return JSON.stringify(result?.toolResult ?? result ?? null);
  return result.content.map((item) => (item?.type === "text" ? item.text : JSON.stringify(item))).join("\n");
}

/**
 * Runs an unwrapped `call` (kind "call" with a server) through `client.callTool` on its server,
 * under the tool's own (server-side) name; returns the tool message, the raw result and isError.
 */
export async function callMcpTool(clients, call, options) {
  const client = call.server === undefined ? undefined : clients[call.server];
  if (!client || !Object.hasOwn(clients, call.server)) {
    throw new TypeError(`toolshelf/mcp: no client for server ${JSON.stringify(call.server)} (tool ${JSON.stringify(call.name)})`);
  }
  const result = await client.callTool({ name: call.tool ?? call.name, arguments: call.arguments }, undefined, options);
  return { content: toolMessage(result), result, isError: result?.isError === true };
}
