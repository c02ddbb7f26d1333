// The package's TypeScript types, checked as a user's compiler sees them: `tsc` (the repository's
// pinned TypeScript) compiles usage.mts and the documentation's examples against the installed
// package, strict, without skipLibCheck, under each module resolution that reads the exports map.
// The node16 build is then run, so the types and the runtime agree.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoDir } from "./support.mjs";

const tsc = join(repoDir, "node_modules", "typescript", "bin", "tsc");
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

/** Runs tsc on `files` (absolute paths) with `options`; returns its diagnostics, "" when clean. */
function typeCheck(name, options, files) {
  const config = join(work, `tsconfig.${name.replace(/\W+/g, "-")}.json`);
  writeFileSync(config, JSON.stringify({ compilerOptions: { ...BASE, ...options }, files }, null, 2));
  try {
    execFileSync(process.execPath, [tsc, "-p", config], { encoding: "utf8", timeout: 120_000, stdio: "pipe" });
    return "";
  } catch (e) {
    return `${e.stdout}${e.stderr}`;
  }
}

/** The ```ts blocks of the installed README and of the contract (docs/SPEC.md) that import the package. */
function exampleFiles() {
  const readme = readFileSync(new URL(import.meta.resolve("toolshelf/package.json").replace(/package\.json$/, "README.md")), "utf8");
  const spec = readFileSync(join(repoDir, "docs", "SPEC.md"), "utf8");
  const blocks = [...`${readme}\n${spec}`.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).filter((c) => c.includes('from "toolshelf"'));
  assert.ok(blocks.length >= 2, "README and SPEC §0 examples");
  return blocks.map((code, i) => {
    const file = join(work, `example-${i}.mts`);
    writeFileSync(file, DECLARATIONS + code);
    return file;
  });
}

// What the documentation's examples leave undefined, typed as an OpenAI-client user has them.
const DECLARATIONS = `
import type { OpenAiTool, ToolCall } from "toolshelf";
declare const coreTools: OpenAiTool[];
declare const githubTools: OpenAiTool[];
declare const linearTools: OpenAiTool[];
declare const model: string;
declare const messages: { role: string; content: string; tool_call_id?: string }[];
declare const openai: { chat: { completions: { create(request: { model: string; messages: unknown[]; tools: OpenAiTool[] }):
  Promise<{ choices: { message: { tool_calls?: ToolCall[] } }[] }> } } };
declare function runTool(server: string | undefined, tool: string, args: Record<string, unknown>): Promise<string>;
`;

// One tsc run per configuration (each takes seconds): usage.mts, whose @ts-expect-error lines also
// prove that wrong uses are reported, and the documentation's examples as written.
test("usage.mts and the documentation's examples type-check under every resolution", () => {
  const files = [join(process.cwd(), "usage.mts"), ...exampleFiles()];
  const dom = join(process.cwd(), "usage-dom.mts");
  for (const [name, options, wasmTypes] of CONFIGS) {
    assert.equal(typeCheck(name, options, wasmTypes ? [...files, dom] : files), "", name);
  }
});

test("the compiled usage.mts runs: the types describe what the package does", () => {
  const out = execFileSync(process.execPath, [join(work, "out", "usage.mjs")], { encoding: "utf8", timeout: 30_000, stdio: "pipe" });
  assert.match(out, /usage\.mts ran/);
});
