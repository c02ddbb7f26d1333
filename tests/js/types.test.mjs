// The package's TypeScript types, checked as a user's compiler sees them: `tsc` compiles usage.mts
// and the documentation's examples against the installed package, strict, without skipLibCheck,
// under each module resolution that reads the exports map, with the repository's pinned TypeScript
// (5.9) and the latest (7, the native compiler: devDependency `typescript-7`). The pinned
// compiler's node16 build is then run, so the types and the runtime agree.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoDir } from "./support.mjs";

// [name, the package's folder in node_modules]: the pinned TypeScript, then the latest.
const COMPILERS = [["TypeScript 5.9", "typescript"], ["TypeScript 7", "typescript-7"]];
const tscOf = (dir) => join(repoDir, "node_modules", dir, "bin", "tsc");
const work = join(process.cwd(), "ts");
mkdirSync(work, { recursive: true });

const BASE = {
  strict: true,
  skipLibCheck: false, // the package's own .d.ts files are checked too
  target: "es2022",
  typeRoots: [join(repoDir, "node_modules", "@types")],
  types: ["node"],
};

// [name, compiler options]: how TypeScript users resolve the package.
// [name, compiler options, whether WebAssembly's types are there (usage-dom.mts)]: how TypeScript users
// resolve the package. Without lib "dom" (a Node-only project) the package's own types must still compile.
const CONFIGS = [
  ["node16 (Node ESM)", { module: "node16", moduleResolution: "node16", lib: ["es2022", "dom"], outDir: join(work, "out") }, true],
  ["bundler", { module: "preserve", moduleResolution: "bundler", lib: ["es2022", "dom"], noEmit: true }, true],
  ["node16 without the DOM lib (a Node-only project)", { module: "node16", moduleResolution: "node16", lib: ["es2022"], noEmit: true }, false],
];

/** Runs tsc (of `compiler`, a folder of node_modules) on `files` (absolute paths) with `options`; returns its diagnostics, "" when clean. */
function typeCheck(name, options, files, compiler = "typescript") {
  const config = join(work, `tsconfig.${compiler}.${name.replace(/\W+/g, "-")}.json`);
  writeFileSync(config, JSON.stringify({ compilerOptions: { ...BASE, ...options }, files }, null, 2));
  try {
    execFileSync(process.execPath, [tscOf(compiler), "-p", config], { encoding: "utf8", timeout: 180_000, stdio: "pipe" });
    return "";
  } catch (e) {
    return `${e.stdout}${e.stderr}`;
  }
}

/**
 * The ```ts blocks that import the package (or its adapters) in the installed README (the npm
 * page), the repository's README, the contract's §0 (docs/SPEC.md), docs/guide.md and
 * docs/adapters.md, each as a module with the shared prelude beside it.
 */
function exampleFiles() {
  const readme = readFileSync(new URL(import.meta.resolve("toolshelf/package.json").replace(/package\.json$/, "README.md")), "utf8");
  const docs = [join(repoDir, "README.md"), ...["SPEC.md", "guide.md", "adapters.md"].map((name) => join(repoDir, "docs", name))].map((path) => readFileSync(path, "utf8"));
  const blocks = [...[readme, ...docs].join("\n").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).filter((c) => /from "toolshelf(\/\w+)?"/.test(c));
  assert.ok(blocks.length >= 14, "the npm page's five loops, the README's, SPEC §0, the guide's and the adapters' six examples");
  const prelude = join(work, "prelude.mts");
  writeFileSync(prelude, PRELUDE);
  return [prelude, join(process.cwd(), "sdk-types.mts"), ...blocks.map((code, i) => {
    const file = join(work, `example-${i}.mts`);
    writeFileSync(file, code);
    return file;
  })];
}

// What the documentation's examples leave undefined, as global declarations (an example that
// declares a name itself shadows them), typed with the real SDKs' types: the loops are checked
// against the real \`openai\`, \`@anthropic-ai/sdk\`, \`ai\` and \`@modelcontextprotocol/sdk\` types.
const PRELUDE = `export {};
declare global {
  type OpenAIClient = import("openai").default;
  type ChatTool = import("openai").default.ChatCompletionFunctionTool;
  const coreTools: ChatTool[];
  const githubTools: ChatTool[];
  const linearTools: ChatTool[];
  const coreResponsesTools: import("openai").default.Responses.FunctionTool[];
  const coreAnthropicTools: import("@anthropic-ai/sdk").default.Tool[];
  const githubAnthropicTools: import("@anthropic-ai/sdk").default.Tool[];
  const linearAnthropicTools: import("@anthropic-ai/sdk").default.Tool[];
  function linearConnected(): boolean;
  const githubResponsesTools: import("openai").default.Responses.FunctionTool[];
  const anthropic: import("@anthropic-ai/sdk").default;
  const coreToolSet: import("ai").ToolSet;
  const manyTools: import("ai").ToolSet;
  const githubToolSet: import("ai").ToolSet;
  const linearToolSet: import("ai").ToolSet;
  const call: import("openai").default.ChatCompletionMessageToolCall;
  const githubClient: import("@modelcontextprotocol/sdk/client/index.js").Client;
  const linearClient: import("@modelcontextprotocol/sdk/client/index.js").Client;
  const question: string;
  const model: string;
  const messages: import("openai").default.ChatCompletionMessageParam[];
  const openai: OpenAIClient;
  function runTool(server: string | undefined, tool: string, args: Record<string, unknown>): Promise<string>;
  function askUser(toolCall: { toolName: string; input: unknown }): Promise<boolean>;
}
`;

// One tsc run per configuration and compiler (each takes seconds): usage.mts, whose
// @ts-expect-error lines also prove that wrong uses are reported, with the package's own .d.ts
// files checked too. The pinned compiler's node16 run emits the build the last test runs.
for (const [compilerName, compiler] of COMPILERS) {
  test(`${compilerName}: usage.mts type-checks under every resolution`, () => {
    const files = [join(process.cwd(), "usage.mts")];
    const dom = join(process.cwd(), "usage-dom.mts");
    for (const [name, options, wasmTypes] of CONFIGS) {
      const emit = compiler === "typescript" ? options : { ...options, outDir: undefined, noEmit: true };
      assert.equal(typeCheck(name, emit, wasmTypes ? [...files, dom] : files, compiler), "", `${compilerName}, ${name}`);
    }
  });
}

// The documentation's examples as written, against the real SDKs' types, and sdk-types.mts (what
// each SDK's own types make of the package's: tools arrays and native answers). The SDKs' own .d.ts
// files are not ours to check (one needs @types/json-schema, another trips node16 on its CommonJS
// copy): skipLibCheck, so only the examples' use of them is checked; the package's .d.ts were
// checked above.
for (const [compilerName, compiler] of COMPILERS) {
  test(`${compilerName}: the README's, SPEC §0's, docs/guide.md's and docs/adapters.md's loops type-check against the real openai, @anthropic-ai/sdk, ai and MCP SDK types`, () => {
    const [name, options] = CONFIGS[0];
    assert.equal(typeCheck(`${name} examples`, { ...options, skipLibCheck: true, outDir: undefined, noEmit: true }, exampleFiles(), compiler), "", `${compilerName}, ${name}`);
  });
}

test("the compiled usage.mts runs: the types describe what the package does", () => {
  const out = execFileSync(process.execPath, [join(work, "out", "usage.mjs")], { encoding: "utf8", timeout: 30_000, stdio: "pipe" });
  assert.match(out, /usage\.mts ran/);
});
