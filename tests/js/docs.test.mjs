// The READMEs run as a newcomer runs them (automerge runs its README too): every fenced block of the
// npm page (the installed README) and of the repository's README, as written, with nothing defined
// for it. A `ts` block is transpiled and imported in this project, its real SDK clients sent to the
// scripted model servers (OPENAI_BASE_URL, ANTHROPIC_BASE_URL: the SDKs' own variables) and its
// `npx -y @modelcontextprotocol/server-…` commands starting the reference servers from the
// repository's node_modules (an `npx` on PATH does that, offline; any other npx command is npm's);
// a `json` block named by the page is written where its commands read it; an `sh` block's
// `npx toolshelf` lines run the installed bin. A block that is not run here says why (its check lives
// elsewhere, or it installs from the registry), by name in the test's output: none is left out
// silently. The model calls the tools by the names the package shows (asked of a Shelf of the
// same servers), never by a format written here. The ai 6 and ai 7 type checks of the AI SDK block:
// tests/matrix (adapter-types.test.mjs); all ```ts blocks of docs/: types.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Shelf } from "toolshelf";
import { mcpServers } from "toolshelf/mcp";
import { startModelServer, startNativeModelServer } from "./model-server.mjs";
import { repoDir } from "./support.mjs";

const ts = createRequire(join(repoDir, "package.json"))("typescript");
const PAGES = {
  "the npm page": new URL(import.meta.resolve("toolshelf/package.json").replace(/package\.json$/, "README.md")),
  "the repository's README": join(repoDir, "README.md"),
};

/** The fenced blocks of a Markdown page, list items' indented ones too: `{ lang, code, line }`. */
function blocks(markdown) {
  return [...markdown.matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)].map((m) => ({
    lang: m[2], code: m[3].replace(new RegExp(`^${m[1]}`, "gm"), ""), line: markdown.slice(0, m.index).split("\n").length,
  }));
}

// An `npx` first on PATH: `npx -y @modelcontextprotocol/server-<name> …` starts that reference server
// from the repository's node_modules; every other command goes to npm's npx.
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
const LOOPS = [
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
async function runModule(code, env, label) {
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

/** Why a block is not run by this test, or undefined when it is. */
function notRun({ lang, code }) {
  if (lang === "ts" && code.startsWith("declare module")) return "a declaration: type-checked with the esbuild app (tests/runtimes/bundlers.test.mjs)";
  if (lang === "js" && code.includes("toolshelf/toolshelf_bg.wasm")) return "esbuild's loader: built and run in Chromium (tests/runtimes/bundlers.test.mjs)";
  if (lang === "js" && code.includes("embeddingTexts")) return "an outline of the calls around your own embedding model (embedAll, embed): each call runs in tests/js/semantic.test.mjs";
  if (lang === "sh" && /scripts\/(demo|test)/.test(code)) return "the repository's own scripts (this test is one of their steps)";
  if (lang === "sh" && !/^npx toolshelf /m.test(code)) return "installs from the registry: this project has the packed tarball installed instead";
  return undefined;
}

for (const [page, path] of Object.entries(PAGES)) {
  test(`${page}: every block runs as written (or says where it is checked)`, async (t) => {
    const all = blocks(readFileSync(path, "utf8"));
    assert.ok(all.length > 0);
    const ran = [];
    for (const block of all) {
      const where = `${page}:${block.line} (${block.lang})`;
      const why = notRun(block);
      if (why) {
        t.diagnostic(`not run here: ${where}: ${why}`);
        continue;
      }
      if (block.lang === "json") {
        const config = JSON.parse(block.code);
        assert.ok(config.mcpServers, `${where}: the page's one JSON file is its mcp.json`);
        writeFileSync(join(process.cwd(), "mcp.json"), block.code);
      } else if (block.lang === "sh") {
        for (const line of block.code.split("\n").filter((l) => l.trim() && !l.startsWith("npx toolshelf "))) {
          t.diagnostic(`not run here: ${where}: ${line.replace(/\s+#.*/, "")}: installs from the registry (this project has the packed tarball installed)`);
        }
        for (const line of block.code.split("\n").filter((l) => l.startsWith("npx toolshelf "))) {
          const r = spawnSync("bash", ["-c", line], { encoding: "utf8", timeout: 60_000 });
          assert.equal(r.status, 0, `${where}: ${line}\n${r.stderr}`);
          if (line.includes(" search ")) assert.match(r.stdout, /get-sum/, `${where}: the search finds the tool that adds`);
          if (line.includes(" inspect ")) assert.match(r.stdout, /everything/, `${where}: inspect shows the server`);
        }
      } else if (block.lang === "ts") {
        const loop = LOOPS.find((l) => l.matches(block.code));
        assert.ok(loop, `${where}: a loop this test knows`);
        const model = await (loop.native ? startNativeModelServer : startModelServer)(await loop.script());
        try {
          await runModule(block.code, loop.env(model.url), `${page}-${block.line}`);
          loop.check(model.requests);
        } finally {
          await model.close();
        }
      } else {
        assert.fail(`${where}: a block of a language this test cannot run`);
      }
      ran.push(where);
    }
    t.diagnostic(`ran: ${ran.join(", ")}`);
  });
}

// docs/*.md: each JSON block parses (an MCP client config as the gateway and the CLI read it, or
// output), so a reader copying one gets valid JSON.
test("every JSON block of docs/ parses", () => {
  for (const name of ["cli.md", "gateway.md", "guide.md", "adapters.md", "options.md"]) {
    for (const block of blocks(readFileSync(join(repoDir, "docs", name), "utf8")).filter((b) => b.lang === "json")) {
      assert.doesNotThrow(() => JSON.parse(block.code), `docs/${name}:${block.line}`);
    }
  }
});
