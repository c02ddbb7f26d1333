// Deno (npm `deno`: the binary ships in @deno/linux-x64-glibc, nothing is downloaded) on the packed
// package as a Deno user installs it: `npm:toolshelf` resolved from the node_modules npm made of the
// tarball (`"nodeModulesDir": "manual"`, so Deno fetches nothing from a registry). Deno picks the
// package's `node` entry (its conditions are deno, node, import, default), which reads the .wasm
// with node:fs: the smoke suite must give Node's bytes with read access to the package alone.
// Then `deno check` type-checks the README's agent loop (the block as written, bare "toolshelf"
// from package.json) with Deno's own TypeScript.
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bin, exec, here, nodeAnswers, pkgDir, repoDir, servers, workDir } from "./support.mjs";
import { meaningful } from "./smoke.mjs";

const dir = join(workDir, "deno");
const env = { DENO_DIR: join(dir, "cache"), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };

function prepare() {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "deno.json"), JSON.stringify({ nodeModulesDir: "manual" }));
  copyFileSync(join(here, "smoke.mjs"), join(dir, "smoke.mjs"));
  writeFileSync(join(dir, "servers.json"), JSON.stringify(servers()));
  writeFileSync(join(dir, "main.ts"), `import * as api from "npm:toolshelf";
import { smoke, toolboxOf } from "./smoke.mjs";
const servers = JSON.parse(await Deno.readTextFile(new URL("./servers.json", import.meta.url)));
console.log(smoke(api, toolboxOf(servers)));
`);
}

test("Deno runs the smoke suite on npm:toolshelf with Node's answers, reading only the package", { timeout: 180_000 }, async () => {
  prepare();
  const version = await exec(bin("deno"), ["--version"], { env });
  assert.equal(version.code, 0, version.stderr);
  const run = await exec(bin("deno"), ["run", `--allow-read=${pkgDir},${dir}`, "main.ts"], { cwd: dir, env });
  assert.equal(run.code, 0, run.stderr);
  const answers = run.stdout.trim();
  assert.deepEqual(meaningful(answers), []);
  assert.equal(answers, await nodeAnswers(), "Deno's answers are Node's, byte for byte");
  console.log(`deno: ${version.stdout.split("\n")[0]}; smoke suite in ${run.ms} ms`);
});

/** The README's first ```ts block (the agent loop), as written but for its imports of the OpenAI and MCP SDKs. */
function readmeLoop() {
  const readme = readFileSync(join(repoDir, "README.md"), "utf8");
  const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).find((code) => code.includes('from "toolshelf"') && code.includes("unwrap"));
  assert.ok(block, "the README has the agent loop");
  const sdkImports = /^import .* from "(openai|@modelcontextprotocol\/sdk\/[^"]+)";\n/gm;
  assert.equal(block.match(sdkImports)?.length, 3, "the loop imports OpenAI's client and the MCP SDK's Client and stdio transport");
  return block.replace(sdkImports, "");
}

// The SDKs the loop imports (not installed here: the package's own types are what is checked),
// declared with the shapes the loop uses of them.
const DECLARATIONS = `import type { OpenAiTool, ToolCall } from "toolshelf";
import type { McpClientLike } from "toolshelf/mcp";
type Message = { role: string; content: string | null; tool_call_id?: string; tool_calls?: Extract<ToolCall, { type: "function" }>[] };
declare namespace OpenAI { type ChatCompletionFunctionTool = OpenAiTool; type ChatCompletionMessageParam = Message; }
declare class OpenAI {
  chat: { completions: { create(body: { model: string; messages: Message[]; tools: unknown[] }): Promise<{ choices: { message: Message }[] }> } };
}
declare class Client implements McpClientLike {
  constructor(info: { name: string; version: string });
  connect(transport: StdioClientTransport): Promise<void>;
  close(): Promise<void>;
  listTools: McpClientLike["listTools"];
  callTool: McpClientLike["callTool"];
}
declare class StdioClientTransport { constructor(options: { command: string; args: string[] }); }
`;

test("deno check: the README's agent loop type-checks against the package's types", { timeout: 180_000 }, async () => {
  prepare();
  const loop = readmeLoop();
  writeFileSync(join(dir, "readme-loop.ts"), `${DECLARATIONS}\n${loop}\nexport {};\n`);
  const check = await exec(bin("deno"), ["check", "readme-loop.ts"], { cwd: dir, env });
  assert.equal(check.code, 0, check.stderr + check.stdout);
  // And the checker does read the package's types: a wrong use of them fails.
  writeFileSync(join(dir, "wrong.ts"), `import { Shelf } from "toolshelf";\nconst n: number = new Shelf([]).assemble().tools;\nexport { n };\n`);
  const wrong = await exec(bin("deno"), ["check", "wrong.ts"], { cwd: dir, env });
  assert.notEqual(wrong.code, 0);
  assert.match(wrong.stderr, /TS2322/);
});
