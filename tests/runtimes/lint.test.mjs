// The packed tarball through the linters the ecosystem uses, and what npm would publish.
// - publint: no error, no warning, no suggestion.
// - arethetypeswrong under its `esm-only` profile (the package is ESM only, SPEC §9: a `require`
//   of it is Node's require(esm), which attw's strict profile reports as CJSResolvesToESM): no
//   problem, and every JS entry's types resolve to its own .d.ts under node16 (ESM) and bundler
//   resolution. The `./toolshelf_bg.wasm` subpath is an asset for `import.meta.resolve` /
//   `new URL(…)` (custom loaders), not a module with types, so it is left out of attw's entries.
// - `npm publish --dry-run` lists exactly the files a user needs: package.json, README, licences,
//   every export and `bin` target and every file they import (JS and types), nothing else.
// - The README (the npm page) states the package's sizes: within 5% of the real tarball's and .wasm's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { bin, exec, pkgDir, repoDir, tarball } from "./support.mjs";

const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));

test("publint: the packed tarball has no error, warning or suggestion", async () => {
  const { code, stdout, stderr } = await exec(bin("publint"), ["run", tarball, "--level", "suggestion", "--strict"]);
  assert.equal(code, 0, stdout + stderr);
  assert.match(stdout, /All good!/, stdout);
});

test("arethetypeswrong (esm-only profile): no problem; every entry's types resolve to its .d.ts", async () => {
  const { code, stdout, stderr } = await exec(bin("attw"), [tarball, "--profile", "esm-only", "--exclude-entrypoints", "./toolshelf_bg.wasm", "--format", "json"]);
  assert.equal(code, 0, stderr + stdout.slice(0, 4000));
  const { analysis } = JSON.parse(stdout);
  const jsEntries = Object.keys(pkg.exports).filter((k) => typeof pkg.exports[k] === "object");
  assert.deepEqual(Object.keys(analysis.entrypoints).filter((k) => k !== "./package.json").sort(), jsEntries.sort());
  for (const entry of jsEntries) {
    const want = `/node_modules/toolshelf/${pkg.exports[entry].types.replace(/^\.\//, "")}`;
    for (const kind of ["node16-esm", "bundler"]) {
      const resolution = analysis.entrypoints[entry].resolutions[kind];
      assert.equal(resolution.resolution?.fileName, want, `${entry} under ${kind}`);
      assert.deepEqual(resolution.visibleProblems ?? [], [], `${entry} under ${kind}`);
    }
  }
});

/** Every file reached from `files` by relative imports, re-exports and `/// <reference path>`s (JS and .d.ts). */
function reached(files) {
  const seen = new Set(files);
  for (const file of seen) {
    if (!/\.(m?js|d\.ts)$/.test(file)) continue;
    const source = readFileSync(join(pkgDir, file), "utf8");
    const specifiers = [...source.matchAll(/(?:\bfrom|^\s*import|\bimport\()\s*["'](\.{1,2}\/[^"']+)["']/gm), ...source.matchAll(/<reference path="([^"]+)"/g)];
    for (const [, specifier] of specifiers) {
      let target = normalize(join(dirname(file), specifier));
      // A .d.ts names its sibling declarations by their .js names (TypeScript's convention).
      if (file.endsWith(".d.ts") && target.endsWith(".js")) target = target.replace(/\.js$/, ".d.ts");
      seen.add(target);
    }
  }
  return seen;
}

/** The files the exports map, `types`, `main` and `bin` point at. */
function entryFiles() {
  const targets = [];
  const walk = (value) => (typeof value === "string" ? targets.push(value) : value && Object.values(value).forEach(walk));
  walk(pkg.exports);
  walk(pkg.bin);
  for (const key of ["main", "module", "types", "browser"]) if (typeof pkg[key] === "string") targets.push(pkg[key]);
  return targets.map((t) => normalize(t));
}

test("npm publish --dry-run lists only what a user needs: the entries, what they import, README, licences", async () => {
  const { code, stdout, stderr } = await exec("npm", ["publish", "--dry-run", "--json", "--ignore-scripts"], { cwd: pkgDir });
  assert.equal(code, 0, stderr);
  const listed = JSON.parse(stdout.slice(stdout.indexOf("{"))).toolshelf.files.map((f) => f.path).sort();
  const needed = new Set([...reached(entryFiles()), "package.json", "README.md", "LICENSE-MIT", "LICENSE-APACHE"]);
  assert.deepEqual(listed, [...needed].sort());
  console.log(`npm publish --dry-run: ${listed.length} files`);
});

test("the README (the npm page) gives the tarball's and the .wasm's sizes within 5%", async () => {
  const readme = readFileSync(join(pkgDir, "README.md"), "utf8");
  assert.equal(readme, readFileSync(join(repoDir, "pkg-template", "README.md"), "utf8"));
  const stated = readme.match(/a (\d+) KB download/);
  assert.ok(stated, "the README says “a N KB download”");
  const actual = readFileSync(tarball).length / 1000;
  assert.ok(Math.abs(Number(stated[1]) - actual) / actual <= 0.05, `README: ${stated[1]} KB, tarball ${actual.toFixed(0)} KB (${relative(repoDir, tarball)})`);
  const wasmStated = readme.match(/the \.wasm: (\d+) KB gzip/);
  assert.ok(wasmStated, "the README says “the .wasm: N KB gzip”");
  const wasmGzip = gzipSync(readFileSync(join(pkgDir, "wasm", "toolshelf_bg.wasm")), { level: 9 }).length / 1000;
  assert.ok(Math.abs(Number(wasmStated[1]) - wasmGzip) / wasmGzip <= 0.05, `README: ${wasmStated[1]} KB, the .wasm ${wasmGzip.toFixed(0)} KB gzip`);
  console.log(`sizes: tarball ${actual.toFixed(0)} KB, .wasm ${wasmGzip.toFixed(0)} KB gzip (README: ${stated[1]} KB, ${wasmStated[1]} KB)`);
  for (const section of ["npm install toolshelf", "## Runtimes and bundlers", 'import { Shelf } from "toolshelf"']) assert.ok(readme.includes(section), section);
});
