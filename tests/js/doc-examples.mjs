// The READMEs' examples as a newcomer runs them, shared by docs.test.mjs (every block of both
// READMEs) and tests/matrix/readme-ai.test.mjs (the AI SDK example on ai 6 and ai 7): the blocks of a
// page, an `npx` that starts the reference MCP servers offline, each loop's scripted model and what
// the model must have read, and a block run as a module of the project with its environment.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Shelf } from "toolshelf";
import { mcpServers } from "toolshelf/mcp";
import { repoDir } from "./support.mjs";

export { startModelServer, startNativeModelServer } from "./model-server.mjs";

const ts = createRequire(join(repoDir, "package.json"))("typescript");

export const PAGES = {
  "the npm page": new URL(import.meta.resolve("toolshelf/package.json").replace(/package\.json$/, "README.md")),
  "the repository's README": join(repoDir, "README.md"),
};

/** The fenced blocks of a Markdown page, list items' indented ones too: `{ lang, code, line }`. */
export function blocks(markdown) {
  return [...markdown.matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)].map((m) => ({
    lang: m[2], code: m[3].replace(new RegExp(`^${m[1]}`, "gm"), ""), line: markdown.slice(0, m.index).split("\n").length,
  }));
}

// An `npx` first on PATH (set when this module loads): `npx -y @modelcontextprotocol/server-<name> …`
// starts that reference server from the repository's node_modules; every other command goes to npm's npx.
const realNpx = execFileSync("bash", ["-c", "command -v npx"], { encoding: "utf8" }).trim();
const shimDir = mkdtempSync(join(tmpdir(), "toolshelf-docs-"));
writeFileSync(join(shimDir, "npx"), `#!/usr/bin/env bash
[ "$1" = "-y" ] && shift
case "$1" in
  @modelcontextprotocol/server-*) pkg=$1; shift; exec "${process.execPath}" "${join(repoDir, "node_modules")}/$pkg/dist/index.js" "$@" ;;
esac
exec "${realNpx}" "$@"
`);
chmodSync(join(shimDir, "npx"), 0o755);
process.env.PATH = `${shimDir}${delimiter}${process.env.PATH}`;

/** server-everything's tools in `format`, as the examples' `mcpServers` gives them (for the names the package shows). */
async function everythingTools(format) {
  const client = new Client({ name: "docs-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] }));
  try {
    return (await mcpServers({ everything: client }, { format })).servers;
  } finally {
    await client.close();
  }
}

/** The name the model is shown for server-everything's get-sum, by a Shelf of the same servers and options. */
async function shownSum(format, options = {}) {
  const shelf = new Shelf({ servers: await everythingTools(format) }, { contextLength: 200_000, ...options });
  try {
    return shelf.search("get-sum").matches.find((m) => m.server === "everything").name;
  } finally {
    shelf.free();
  }
}

/** What a Responses tool_search_output loads for get-sum: its namespace and function name. */
async function loadedSum() {
  const shelf = new Shelf({ servers: await everythingTools("responses") }, { contextLength: 200_000, mode: "native" });
  try {
    const { item } = shelf.unwrap({ type: "tool_search_call", call_id: "s", execution: "client", arguments: { query: "get-sum" } });
    const namespace = item.tools.find((t) => t.tools.some((f) => f.description.startsWith("Returns the sum")));
    return { namespace: namespace.name, name: namespace.tools.find((f) => f.description.startsWith("Returns the sum")).name };
  } finally {
    shelf.free();
  }
}

const SUM = { a: 2, b: 3 };
const SUMMED = /The sum of 2 and 3 is 5/;

/**
 * Each kind of loop the pages show: how to recognise it, the scripted model it talks to, and what
 * the model must have read (the real tool's answer). `run(url)` sets the SDK's base URL.
 */
export const LOOPS = [
  {
    name: "OpenAI Chat Completions", matches: (code) => code.includes("chat.completions.create"), native: false,
    script: async () => [
      { tool: "tool_search", arguments: { query: "add two numbers" } },
      { tool: "tool_call", arguments: { name: await shownSum("openai"), arguments: SUM } },
      { tool: "get_time", arguments: {} },
      { text: "5, at the time given." },
    ],
    env: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: "test" }),
    check: (requests) => {
      assert.match(requests[2].results.at(-1).content, SUMMED, "server-everything's answer reached the model");
      assert.match(requests[3].results.at(-1).content, /^\d{4}-\d\d-\d\dT/, "the agent's own tool ran");
      const assistant = requests[1].body.messages.findIndex((m) => m.role === "assistant");
      assert.ok(assistant > 0 && requests[1].body.messages[assistant].tool_calls?.length === 1, "the assistant message with its tool_calls precedes its tool message");
      assert.equal(requests[1].body.messages[assistant + 1].role, "tool");
    },
  },
  {
    name: "Anthropic Messages, native", matches: (code) => code.includes("anthropic.messages.create"), native: true,
    script: async () => [
      { tool: "tool_search", arguments: { query: "add two numbers" } },
      { tool: await shownSum("anthropic", { mode: "native" }), arguments: SUM },
      { text: "5." },
    ],
    env: (url) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: "test" }),
    check: (requests) => {
      assert.ok(requests.every((r) => r.status === 200), requests.map((r) => r.error).join("; "));
      const results = requests[2].body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === "tool_result");
      assert.match(JSON.stringify(results.at(-1).content), SUMMED);
    },
  },
  {
    name: "OpenAI Responses, native", matches: (code) => code.includes("responses.create"), native: true,
    script: async () => {
      const { name, namespace } = await loadedSum();
      return [{ search: { query: "add two numbers" } }, { tool: name, namespace, arguments: SUM }, { text: "5." }];
    },
    env: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: "test" }),
    check: (requests) => {
      assert.ok(requests.every((r) => r.status === 200), requests.map((r) => r.error).join("; "));
      const outputs = requests.flatMap((r) => (Array.isArray(r.body.input) ? r.body.input : [])).filter((i) => i.type === "function_call_output");
      assert.match(outputs.at(-1).output, SUMMED);
    },
  },
  {
    name: "Vercel AI SDK", matches: (code) => code.includes("streamText"), native: false,
    script: async () => [
      { tool: "tool_search", arguments: { query: "add two numbers" } },
      { tool: "tool_call", arguments: { name: await shownSum("mcp"), arguments: SUM } },
      { text: "5." },
    ],
    env: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: "test" }),
    check: (requests) => assert.match(requests[2].results.at(-1).content, SUMMED, "server-everything's answer reached the model"),
  },
];

/** Runs one ts block as a module of this project, with `env` set while it runs. */
export async function runModule(code, env, label) {
  const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const file = join(process.cwd(), `docs-example-${process.pid}-${label.replace(/\W+/g, "-")}.mjs`);
  writeFileSync(file, js);
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const log = console.log;
  console.log = () => {}; // the examples print their answers
  try {
    await import(pathToFileURL(file).href);
  } finally {
    console.log = log;
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  }
}
