// toolshelf's MCP gateway as a Cloudflare Worker: one MCP endpoint (Streamable HTTP at /mcp,
// behind a bearer token) in front of remote MCP servers, serving tool_search, tool_describe and
// tool_call instead of every server's tools. Stateless: each request gets its own SDK Server and
// transport (httpHandler), each real call its own connection to its upstream (connection:
// "per-call": a Worker's I/O belongs to the request that opened it), and the catalog comes from a
// snapshot made at deploy time (shelf.bin, `node snapshot.mjs`), so an isolate starts without
// listing any upstream and without building the search index.
//   mcp.json                         the upstreams ({"mcpServers": {"name": {"url": ..., "headers": ...}}})
//                                    and toolshelf's options ("toolshelf" key); "${NAME}" in a url or
//                                    header is the Worker's secret or variable NAME
//   env.TOOLSHELF_GATEWAY_TOKEN      the bearer token clients send (wrangler secret put; 16+ characters)
//   env.TOOLSHELF_ALLOWED_ORIGINS    origins (comma-separated) whose browsers may call; another Origin gets 403
import { Gateway, httpHandler, readConfig } from "toolshelf/gateway";
import config from "./mcp.json";
// An ArrayBuffer (a Data module: wrangler.jsonc's rule for .bin), written by the build step.
import snapshot from "./shelf.bin";


let served = null; // per isolate: the gateway and its handler, made on the first request (env arrives with it)

function handler(env) {
  const token = env.TOOLSHELF_GATEWAY_TOKEN;
  if (served?.token !== token) {
    const gateway = new Gateway({ ...readConfig(config, { env }), snapshot, connection: "per-call", onWarning: (w) => console.warn(`toolshelf: ${w}`) });
    served?.gateway.close(); // a token rotated: the old gateway's shelf is freed
    const allowedOrigins = (env.TOOLSHELF_ALLOWED_ORIGINS ?? "").split(",").map((o) => o.trim()).filter(Boolean);
    served = { token, gateway, serve: httpHandler(gateway, { token, allowedOrigins }) };
  }
  return served.serve;
}

const unavailable = (why) => new Response(`${why}\n`, { status: 503, headers: { "content-type": "text/plain" } });

export default {
  async fetch(request, env) {
    if (typeof env.TOOLSHELF_GATEWAY_TOKEN !== "string" || env.TOOLSHELF_GATEWAY_TOKEN.length < 16) {
      return unavailable("TOOLSHELF_GATEWAY_TOKEN is not set (16 characters at least): wrangler secret put TOOLSHELF_GATEWAY_TOKEN");
    }
    let serve;
    try {
      serve = handler(env);
    } catch (error) {
      // A snapshot made from another config, say: said plainly rather than as a bare 500.
      return unavailable(`toolshelf gateway: ${error?.message ?? error}`);
    }
    return serve(request);
  },
};
