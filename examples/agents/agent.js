// A Cloudflare Agents SDK agent (npm `agents`) whose MCP tools go through toolshelf. The agent
// connects its MCP servers with `this.addMcpServer` (the SDK keeps the connections in the Durable
// Object and restores them after hibernation); each turn takes the SDK's own AI SDK conversion of
// every server's tools (`this.mcp.getAITools({ serverName })`, one ToolSet per server) and gives
// them to `createToolshelf` from `toolshelf/ai` as deferred servers: the model sees the three
// bridge tools and a listing sized to the budget, searches and describes locally, and its
// `tool_call`s run the real MCP tool's `execute` after validation.
//   POST /agents/toolshelf-agent/<name>/servers {servers: {name: url}}  connect MCP servers
//   POST /agents/toolshelf-agent/<name> {prompt}                        one turn → {answer, steps, calls, assembly}
//   env.MODEL_URL  an OpenAI-compatible endpoint (…/v1/chat/completions); env.OPENAI_API_KEY, env.MODEL optional
import { createOpenAI } from "@ai-sdk/openai";
import { Agent, routeAgentRequest } from "agents";
import { generateText, stepCountIs } from "ai";
import { createToolshelf } from "toolshelf/ai";

export class ToolshelfAgent extends Agent {
  async onRequest(request) {
    if (request.method !== "POST") return new Response("POST a prompt, or servers to connect", { status: 405 });
    const body = await request.json();
    if (new URL(request.url).pathname.endsWith("/servers")) return Response.json(await this.connect(body.servers));
    return Response.json(await this.turn(body.prompt));
  }

  /** Connects each MCP server by name (its id too, so the SDK names its tools `tool_<name>_<tool>`). */
  async connect(servers) {
    const states = {};
    for (const [name, url] of Object.entries(servers)) states[name] = (await this.addMcpServer(name, url, { id: name })).state;
    return states;
  }

  /** The connected servers' tools as AI SDK ToolSets, by server name. */
  toolSets() {
    const names = new Set(Object.values(this.getMcpServers().servers).map((server) => server.name));
    return Object.fromEntries([...names].map((name) => [name, this.mcp.getAITools({ serverName: name })]));
  }

  async turn(prompt) {
    await this.mcp.waitForConnections({ timeout: 10_000 }); // after hibernation the SDK reconnects first
    const calls = [];
    const shelf = createToolshelf({
      servers: this.toolSets(),
      options: { contextLength: 200_000 },
      onCall: (call) => void calls.push({ server: call.server, tool: call.tool, arguments: call.arguments }), // hooks see the real tool
    });
    try {
      const openai = createOpenAI({ baseURL: `${this.env.MODEL_URL}/v1`, apiKey: this.env.OPENAI_API_KEY ?? "unset" });
      const result = await generateText({
        model: openai.chat(this.env.MODEL ?? "gpt-4.1"),
        prompt,
        tools: shelf.tools,
        prepareStep: shelf.prepareStep,
        stopWhen: stepCountIs(10),
      });
      const { tier, form, deferredCount, listingTokens, warnings } = shelf.assembly;
      return { answer: result.text, steps: result.steps.length, calls, tools: Object.keys(shelf.tools), assembly: { tier, form, deferredCount, listingTokens, warnings } };
    } finally {
      shelf.shelf.free();
    }
  }
}

export default {
  async fetch(request, env) {
    return (await routeAgentRequest(request, env)) ?? new Response("Not found", { status: 404 });
  },
};
