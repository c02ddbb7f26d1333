// toolshelf's MCP gateway on the Cloudflare Agents SDK's `McpAgent` (npm `agents`): the same MCP
// endpoint as examples/gateway-worker (Streamable HTTP at /mcp behind a bearer token, tool_search,
// tool_describe and tool_call over the upstreams of mcp.json, the catalog from the deploy-time
// snapshot shelf.bin), but each MCP session is a Durable Object holding its own Gateway, whose
// connection to an upstream is opened on the session's first call of one of its tools and kept for
// the session's later calls (one upstream request per call, not a connection per call), and which
// can tell the session `notifications/tools/list_changed` (an upstream down or back).
//   mcp.json                         the upstreams and toolshelf's options, as in examples/gateway-worker;
//                                    "${NAME}" in a url or header is the Worker's secret or variable NAME
//   env.TOOLSHELF_GATEWAY_TOKEN      the bearer token clients send (wrangler secret put; 16+ characters)
import { McpAgent } from "agents/mcp";
import { Gateway, bearerMatches, readConfig } from "toolshelf/gateway";
import config from "./mcp.json";
// An ArrayBuffer (a Data module: wrangler.jsonc's rule for .bin), written by the build step.
import snapshot from "./shelf.bin";


/**
 * One MCP session: its Gateway (from the snapshot; each upstream connected on its first call and
 * kept) and the SDK Server serving it. The object's end (the session's DELETE, or eviction) ends
 * its connections; a woken object connects again on its next call.
 */
export class ToolshelfGateway extends McpAgent {
  gateway = new Gateway({ ...readConfig(config, { env: this.env }), snapshot, onWarning: (w) => console.warn(`toolshelf: ${w}`) });
  server = this.gateway.server();
  async init() {}
}

const mcp = ToolshelfGateway.serve("/mcp", { binding: "TOOLSHELF_GATEWAY" });
const unavailable = (why) => new Response(`${why}\n`, { status: 503, headers: { "content-type": "text/plain" } });

export default {
  async fetch(request, env, ctx) {
    const token = env.TOOLSHELF_GATEWAY_TOKEN;
    if (typeof token !== "string" || token.length < 16) return unavailable("TOOLSHELF_GATEWAY_TOKEN is not set (16 characters at least): wrangler secret put TOOLSHELF_GATEWAY_TOKEN");
    if (new URL(request.url).pathname !== "/mcp") return new Response("not found\n", { status: 404 });
    // The token before anything else: no session, no Durable Object, no upstream for a request without it.
    if (!(await bearerMatches(request, token))) {
      return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Unauthorized: send Authorization: Bearer <token>" }, id: null }), {
        status: 401,
        headers: { "content-type": "application/json", "www-authenticate": 'Bearer realm="toolshelf"' },
      });
    }
    return mcp.fetch(request, env, ctx);
  },
};
