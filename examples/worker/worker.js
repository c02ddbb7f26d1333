// A Cloudflare Worker running an agent loop with toolshelf. The Shelf is loaded once per isolate, at
// module scope, from a snapshot made at build time (startup has 1 s of CPU; a request on the free
// plan has 10 ms): the toolbox read and the search index built, so startup only copies and checks
// the bytes. A request only assembles (a cached plan), answers the model's tool_search /
// tool_describe calls locally and unwraps its tool_call calls into the real calls, which go to the
// agent's tool runner.
//   env.MODEL_URL  an OpenAI-compatible Chat Completions endpoint (…/v1/chat/completions is appended)
//   env.TOOLS_URL  where real calls are POSTed as {server, tool, arguments}; answers {content}
//   env.OPENAI_API_KEY, env.MODEL  (optional)
// GET / answers the assembly's facts; POST / {prompt} runs the loop and answers {answer, calls, steps}.
import { Shelf } from "toolshelf";
// An ArrayBuffer (a Data module: wrangler.jsonc's rule for .bin), written by the build step
// `npx toolshelf snapshot toolbox.json -o shelf.bin --options '{"contextLength":200000}'` from
// GitHub's and Linear's MCP tools, by server (each shown as mcp__<server>__<tool>: both servers'
// list_issues keep names of their own).
// Without a build step: `new Shelf(toolbox, options)` here, and `shelf.search("warm up")` to build
// the index at startup rather than in the first request.
import snapshot from "./shelf.bin";

const shelf = Shelf.fromSnapshot(snapshot); // the toolbox and its search index are in the snapshot
const assembly = shelf.assemble();

const MAX_STEPS = 10;

async function post(url, body, apiKey) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

/** The agent's side of a real call: here a tool runner reached over HTTP (an MCP gateway, say). */
async function runTool(env, call) {
  const { content } = await post(env.TOOLS_URL, { server: call.server, tool: call.tool ?? call.name, arguments: call.arguments });
  return content;
}

async function agentLoop(prompt, env) {
  const { tools } = shelf.assemble();
  const messages = [{ role: "user", content: prompt }];
  const calls = [];
  for (let step = 1; step <= MAX_STEPS; step++) {
    const reply = await post(`${env.MODEL_URL}/v1/chat/completions`, { model: env.MODEL ?? "gpt-4.1", messages, tools }, env.OPENAI_API_KEY);
    const message = reply.choices[0].message;
    messages.push(message);
    if (!message.tool_calls?.length) return { answer: message.content, calls, steps: step };
    for (const call of message.tool_calls) {
      const u = shelf.unwrap(call); // call | answer | reject
      let content = u.content;
      if (u.kind === "call") {
        calls.push({ server: u.server, tool: u.tool ?? u.name, arguments: u.arguments }); // hooks see the real tool
        content = await runTool(env, u);
      }
      messages.push({ role: "tool", tool_call_id: call.id, content });
    }
  }
  return { answer: null, calls, steps: MAX_STEPS };
}

export default {
  async fetch(request, env) {
    if (request.method === "GET") {
      const { tier, form, deferredCount, listingTokens, fingerprint, warnings } = assembly;
      return Response.json({ tier, form, deferredCount, listingTokens, fingerprint, warnings });
    }
    const { prompt } = await request.json();
    return Response.json(await agentLoop(prompt, env));
  },
};
