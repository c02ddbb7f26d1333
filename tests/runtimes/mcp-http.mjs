// A real MCP server over Streamable HTTP on 127.0.0.1 (the MCP SDK's low-level `Server` with its
// StreamableHTTPServerTransport, stateless: a server and transport per request) serving a catalog's
// tools. A Worker's MCP client (the Agents SDK's `this.mcp`) connects to it as to a remote server.
// Every tools/call is recorded in `calls`, every HTTP request counted (`requests`) and its
// Authorization header kept (`auths`); a call answers "<tool> ran with <arguments>".
import { createServer } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/** OpenAI Chat tool defs (the catalogs' format) as MCP tools/list items. */
export function mcpTools(openAiTools) {
  return openAiTools.map(({ function: f }) => ({ name: f.name, description: f.description ?? "", inputSchema: { type: "object", ...(f.parameters ?? {}) } }));
}

/** Serves `tools` as MCP server `name` at `<url>/mcp`; resolves `{ url, calls, requests, auths, close }`. `delayMs`: each answer waits that long first (a remote server's round trip). */
export async function httpMcpServer(name, tools, { delayMs = 0 } = {}) {
  const calls = [];
  const auths = new Set();
  let requests = 0;
  const mcpServer = () => {
    const server = new Server({ name, version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      calls.push(structuredClone(request.params));
      const known = tools.some((t) => t.name === request.params.name);
      return known
        ? { content: [{ type: "text", text: `${request.params.name} ran with ${JSON.stringify(request.params.arguments ?? {})}` }] }
        : { content: [{ type: "text", text: `unknown tool ${request.params.name}` }], isError: true };
    });
    return server;
  };
  const http = createServer(async (req, res) => {
    requests++;
    auths.add(req.headers.authorization);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (new URL(req.url, "http://localhost").pathname !== "/mcp") return res.writeHead(404).end();
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const server = mcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      transport.close().catch(() => {});
      server.close().catch(() => {});
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, raw ? JSON.parse(raw) : undefined);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    }
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${http.address().port}/mcp`,
    calls,
    auths,
    get requests() {
      return requests;
    },
    close: () => new Promise((r) => {
      http.closeAllConnections?.();
      http.close(r);
    }),
  };
}
