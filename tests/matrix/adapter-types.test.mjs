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
