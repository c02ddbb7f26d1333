// toolshelf/ai's .d.ts files against this project's `ai` (6 or 7): tsc with the repository's pinned
// TypeScript (5.9) and the latest (7) over adapter-types.mts, strict and without skipLibCheck. The
// SDK's own .d.ts need types this project does not install (json-schema, and Node's for ai 6's
// http imports): their diagnostics are not ours and are left out; the package's and the example's
// must be none, and the example's @ts-expect-error proves the types are not `any`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LOOPS, PAGES, blocks } from "./doc-examples.mjs";

const repoDir = process.env.TOOLSHELF_REPO;
const aiVersion = JSON.parse(readFileSync(new URL(import.meta.resolve("ai/package.json")), "utf8")).version;

const COMPILERS = [["TypeScript 5.9 (pinned)", "typescript"], ["TypeScript 7 (latest)", "typescript-7"]];
for (const [name, dir] of COMPILERS) {
  test(`ai ${aiVersion}, ${name}: toolshelf/ai's types with the SDK's generateText and streamText`, () => {
    const tsc = join(repoDir, "node_modules", dir, "bin", "tsc");
    const version = JSON.parse(readFileSync(join(repoDir, "node_modules", dir, "package.json"), "utf8")).version;
    const config = `tsconfig.${dir}.json`;
    writeFileSync(config, JSON.stringify({
      compilerOptions: { strict: true, skipLibCheck: false, noEmit: true, target: "es2022", module: "node16", moduleResolution: "node16", lib: ["es2022", "dom"],
        typeRoots: [join(repoDir, "node_modules", "@types")], types: ["node"] },
      files: ["adapter-types.mts"],
    }));
    let out = "";
    try {
      execFileSync(process.execPath, [tsc, "-p", config], { encoding: "utf8", stdio: "pipe", timeout: 180_000 });
    } catch (e) {
      out = `${e.stdout}${e.stderr}`;
    }
    const ours = out.split("\n").filter((line) => /^(adapter-types\.mts|node_modules\/toolshelf\/)/.test(line));
    const theirs = out.split("\n").filter((line) => /^node_modules\/(ai|@ai-sdk|zod|@standard-schema)\//.test(line));
    assert.deepEqual(ours, [], `tsc ${version}:\n${out}`);
    assert.equal(out.split("\n").filter((l) => /error TS/.test(l)).length, theirs.length, `only the SDK's own .d.ts may have diagnostics:\n${out}`);
  });
}

// The npm page's AI SDK example as written, with this major's @ai-sdk/openai and the MCP SDK
// (readme-ai.test.mjs runs it): its own diagnostics must be none.
test(`ai ${aiVersion}: the npm page's AI SDK example type-checks as written (TypeScript 5.9)`, () => {
  const loop = LOOPS.find((l) => l.name === "Vercel AI SDK");
  const example = blocks(readFileSync(PAGES["the npm page"], "utf8")).find((b) => b.lang === "ts" && loop.matches(b.code));
  assert.ok(example, "the npm page has the AI SDK example");
  writeFileSync("readme-ai.mts", example.code);
  writeFileSync("tsconfig.readme.json", JSON.stringify({
    compilerOptions: { strict: true, skipLibCheck: true, noEmit: true, target: "es2022", module: "node16", moduleResolution: "node16", lib: ["es2022", "dom"],
      typeRoots: [join(repoDir, "node_modules", "@types")], types: ["node"] },
    files: ["readme-ai.mts"],
  }));
  let out = "";
  try {
    execFileSync(process.execPath, [join(repoDir, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.readme.json"], { encoding: "utf8", stdio: "pipe", timeout: 180_000 });
  } catch (e) {
    out = `${e.stdout}${e.stderr}`;
  }
  assert.equal(out, "", `ai ${aiVersion}:\n${out}`);
});
