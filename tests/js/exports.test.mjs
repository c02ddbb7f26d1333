// The installed package's shape: every target of the exports map exists, each condition resolves to
// the entry meant for it (Node's resolver, and a bundler's for the conditions Node cannot take), the
// tarball holds what `files` says and no more, and each entry works from a fresh process: the Node
// entry is ready at import, the slim entry throws `not_initialized` until one of its loaders ran.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { assemble } from "toolshelf";
import { repoDir, tool } from "./support.mjs";

const pkgDir = dirname(fileURLToPath(import.meta.resolve("toolshelf/package.json")));
const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));

/** Every file an exports entry can lead to, whatever the conditions. */
function targets(entry) {
  return typeof entry === "string" ? [entry] : Object.values(entry).flatMap(targets);
}

/** A bundler's resolution of one subpath under a set of conditions (first matching key wins, in order). */
function resolveWith(entry, conditions) {
  if (typeof entry === "string") return entry;
  for (const [key, value] of Object.entries(entry)) {
    if (key === "default" || conditions.includes(key)) {
      const found = resolveWith(value, conditions);
      if (found) return found;
    }
  }
  return undefined;
}

/** Node's own resolution of `specifier` from the consumer project, run with extra `--conditions`. */
function nodeResolve(specifier, conditions) {
  const flags = conditions.map((c) => `--conditions=${c}`);
  const code = `console.log(import.meta.resolve(${JSON.stringify(specifier)}))`;
  const url = execFileSync(process.execPath, [...flags, "--input-type=module", "-e", code], { encoding: "utf8", timeout: 20_000, stdio: "pipe" });
  return "./" + relative(pkgDir, fileURLToPath(url.trim()));
}

test("every target of the exports map, and `types`, is in the installed package", () => {
  const all = [...Object.values(pkg.exports).flatMap(targets), pkg.types];
  for (const target of all) assert.ok(existsSync(join(pkgDir, target)), `${target} is missing from the tarball`);
  assert.ok(all.length >= 10, "the walk found the map's entries");
});

// [what resolves, specifier, conditions a runtime or bundler sets, the file it must get]
const RESOLUTIONS = [
  ["Node", "toolshelf", ["node", "import"], "./node.js"],
  ["workerd (wrangler's conditions)", "toolshelf", ["workerd", "worker", "browser", "import"], "./workerd.js"],
  ["other Worker runtimes", "toolshelf", ["worker", "browser", "import"], "./workerd.js"],
  ["browser bundlers", "toolshelf", ["browser", "import"], "./web.js"],
  ["any other runtime (no condition it knows)", "toolshelf", ["import"], "./web.js"],
  ["slim in Node", "toolshelf/slim", ["node", "import"], "./slim.js"],
  ["slim in workerd", "toolshelf/slim", ["workerd", "worker", "browser", "import"], "./slim.js"],
  ["the .wasm for custom loaders", "toolshelf/toolshelf_bg.wasm", ["browser", "import"], "./wasm/toolshelf_bg.wasm"],
  ["TypeScript", "toolshelf", ["types", "import"], "./index.d.ts"],
  ["TypeScript, slim", "toolshelf/slim", ["types", "import"], "./slim.d.ts"],
  ["the AI SDK adapter, any runtime", "toolshelf/ai", ["workerd", "worker", "browser", "import"], "./ai.js"],
  ["the MCP SDK adapter, any runtime", "toolshelf/mcp", ["node", "import"], "./mcp.js"],
  ["TypeScript, toolshelf/ai", "toolshelf/ai", ["types", "import"], "./ai.d.ts"],
  ["TypeScript, toolshelf/mcp", "toolshelf/mcp", ["types", "import"], "./mcp.d.ts"],
  ["the MCP gateway, any runtime", "toolshelf/gateway", ["workerd", "node", "import"], "./gateway.js"],
  ["TypeScript, toolshelf/gateway", "toolshelf/gateway", ["types", "import"], "./gateway.d.ts"],
];

test("each runtime's conditions resolve to its entry", () => {
  for (const [who, specifier, conditions, expected] of RESOLUTIONS) {
    const subpath = "." + specifier.slice("toolshelf".length);
    assert.equal(resolveWith(pkg.exports[subpath], conditions), expected, who);
  }
});

test("Node's resolver agrees with the exports map, condition by condition", () => {
  // Node always sets `node` and `import`; `--conditions` adds the rest (and outranks nothing that comes first).
  const cases = [
    ["toolshelf", [], "./node.js"],
    ["toolshelf", ["workerd"], "./workerd.js"],
    ["toolshelf", ["worker"], "./workerd.js"],
    ["toolshelf/slim", [], "./slim.js"],
    ["toolshelf/ai", [], "./ai.js"],
    ["toolshelf/mcp", ["workerd"], "./mcp.js"],
    ["toolshelf/gateway", [], "./gateway.js"],
    ["toolshelf/toolshelf_bg.wasm", [], "./wasm/toolshelf_bg.wasm"],
    ["toolshelf/package.json", [], "./package.json"],
  ];
  for (const [specifier, conditions, expected] of cases) {
    assert.equal(nodeResolve(specifier, conditions), expected, `${specifier} with [${conditions}]`);
  }
  assert.throws(() => nodeResolve("toolshelf/api.js", []), /ERR_PACKAGE_PATH_NOT_EXPORTED/, "internals stay private");
});

test("the tarball holds exactly the package's files, README included", () => {
  const files = listFiles(pkgDir).sort();
  const expected = ["README.md", "ai.d.ts", "ai.js", "ai-approval.js", "ai-mcp.js", "ai-native.d.ts", "ai-native.js", "ai-shared.js", "mcp.d.ts", "mcp.js", "gateway.d.ts", "gateway.js", "api.js", "cli.js", "cli-args.js", "cli-errors.js", "cli-eval.js", "cli-explain.js", "cli-json.js", "cli-mcp.js", "cli-report.js", "common.js", "index.d.ts", "limits.js", "node.js", "package.json", "rules.js", "serve.js", "slim.d.ts", "slim.js", "state.js",
    "stdio.js", "toolbox-text.js", "types.d.ts", "web.js", "workerd.js", "wasm/toolshelf.js", "wasm/toolshelf_bg.wasm"];
  const licenses = files.filter((f) => /^LICEN[CS]E/i.test(f));
  assert.deepEqual(files.filter((f) => !licenses.includes(f)), expected.sort());
  assert.deepEqual(licenses, ["LICENSE-APACHE", "LICENSE-MIT"], "package.json says MIT OR Apache-2.0");
  assert.equal(readFileSync(join(pkgDir, "README.md"), "utf8"), readFileSync(join(repoDir, "pkg-template", "README.md"), "utf8"), "the npm page is pkg-template/README.md");
});

// The npm page is read where the repository is not: every link and image is an absolute URL (none
// of the tarball's files is linked: npm shows no file of it), on the repository package.json names,
// and no command is one of the repository's scripts, which a package user does not have.
test("the packed README links absolutely, into the package's repository, and names no repository script", () => {
  const readme = readFileSync(join(pkgDir, "README.md"), "utf8");
  const prose = readme.replace(/```[\s\S]*?```/g, "");
  const targets = [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)[^)]*\)/g)].map((m) => m[1]);
  targets.push(...[...prose.matchAll(/^\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]), ...[...readme.matchAll(/<(?:a|img)\b[^>]*(?:href|src)="([^"]+)"/g)].map((m) => m[1]));
  assert.ok(targets.length >= 10, `the README links the docs: ${targets.join(", ")}`);
  const local = targets.filter((t) => !/^https:\/\//.test(t) && !t.startsWith("#"));
  assert.deepEqual(local, [], "no relative link or image");
  const repository = pkg.repository.url.replace(/^git\+/, "").replace(/\.git$/, "");
  const offsite = targets.filter((t) => t.startsWith("https://") && !t.startsWith(repository) && !t.startsWith(repository.replace("https://github.com/", "https://raw.githubusercontent.com/")));
  assert.deepEqual(offsite, [], `links go to ${repository}`);
  assert.ok(targets.includes(`${repository.replace("https://github.com/", "https://raw.githubusercontent.com/")}/main/docs/demo.png`), "the demo picture by absolute URL");
  const anchors = new Set([...readme.matchAll(/^#+ (.+)$/gm)].map((m) => m[1].toLowerCase().replace(/[^\w\- ]/g, "").replace(/ /g, "-")));
  for (const t of targets.filter((t) => t.startsWith("#"))) assert.ok(anchors.has(t.slice(1)), `${t} is a heading of the README`);
  assert.doesNotMatch(readme, /(^|[\s`(])(\.\/)?scripts\//m, "no repository script (scripts/…)");
  assert.doesNotMatch(readme, /\.ci\/|cargo |wasm-pack/, "no repository tooling");
});

// An editor's hover shows the .d.ts comments where the repository is not: what they point to is a
// URL (none of docs/ is in the tarball), and each SPEC section named is a link to its heading.
test("the types' comments point to the docs by absolute URL, each SPEC § a link to its heading", () => {
  const spec = readFileSync(join(repoDir, "docs", "SPEC.md"), "utf8");
  const anchors = new Set([...spec.matchAll(/^## (.+)$/gm)].map((m) => m[1].toLowerCase().replace(/[^\w\- ]/g, "").replace(/ /g, "-")));
  const base = "https://github.com/toolshelf/toolshelf/blob/main/docs/";
  for (const file of listFiles(pkgDir).filter((f) => f.endsWith(".d.ts") && f !== "gateway.d.ts")) {
    const text = readFileSync(join(pkgDir, file), "utf8");
    assert.doesNotMatch(text.replaceAll(base, ""), /(?<![\w/])docs\/\w+\.md/, `${file}: a docs/ path that is not a URL`);
    const links = [...text.matchAll(/\{@link (\S+) SPEC §[\d.]+\}/g)].map((m) => m[1]);
    assert.equal(links.length, (text.match(/SPEC\s+§/g) ?? []).length, `${file}: a SPEC § that is not a link`);
    for (const url of links) {
      assert.ok(url.startsWith(`${base}SPEC.md#`) && anchors.has(url.split("#")[1]), `${file}: ${url} is a heading of docs/SPEC.md`);
    }
  }
});

function listFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path).map((f) => `${name}/${f}`) : [name];
  });
}

// Each entry in a fresh Node process (one wasm instance per process, so every loader really runs).
// PROBE assembles a small toolbox and prints the facts every variant must agree on.
const TOOLBOX = { tools: [tool("read_file")], servers: { linear: [tool("create_issue")] } };
const PRELUDE = `
import { readFileSync } from "node:fs";
const wasmUrl = new URL(import.meta.resolve("toolshelf/toolshelf_bg.wasm"));
const bytes = readFileSync(wasmUrl);
const toolbox = ${JSON.stringify(TOOLBOX)};
const probe = (api) => { const a = api.assemble(toolbox, { contextLength: 200000 }); return { tier: a.tier, fingerprint: a.fingerprint, direct: a.tools[0] === toolbox.tools[0] }; };
const codeOf = (f) => { try { f(); return "no throw"; } catch (e) { return e.code; } };
const print = (x) => console.log(JSON.stringify(x));
`;

// [entry and loader, module code after PRELUDE]
const ENTRIES = [
  ["node entry, ready at import", `import * as api from "toolshelf"; await api.init(); print(probe(api));`],
  ["slim: initSync(bytes)", `import * as api from "toolshelf/slim"; api.initSync(bytes); print(probe(api));`],
  ["slim: initSync(WebAssembly.Module)", `import * as api from "toolshelf/slim"; api.initSync(new WebAssembly.Module(bytes)); print(probe(api));`],
  ["slim: initSync({ module })", `import * as api from "toolshelf/slim"; api.initSync({ module: bytes }); print(probe(api));`],
  ["slim: await init(bytes)", `import * as api from "toolshelf/slim"; await api.init(bytes); print(probe(api));`],
  ["slim: await init(Response)", `import * as api from "toolshelf/slim"; await api.init(new Response(bytes, { headers: { "content-type": "application/wasm" } })); print(probe(api));`],
  ["slim: await init(WebAssembly.Module)", `import * as api from "toolshelf/slim"; await api.init(await WebAssembly.compile(bytes)); print(probe(api));`],
];

function runModule(code) {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", PRELUDE + code], { encoding: "utf8", timeout: 30_000, stdio: "pipe" });
  return JSON.parse(out.trim().split("\n").pop());
}

test("every entry and loader gives the same assembly, with the caller's objects", () => {
  const expected = { tier: 1, fingerprint: assemble(TOOLBOX, { contextLength: 200000 }).fingerprint, direct: true };
  for (const [name, code] of ENTRIES) assert.deepEqual(runModule(code), expected, name);
});

test("the slim entry throws not_initialized from every function until a loader ran", () => {
  const result = runModule(`
    import * as api from "toolshelf/slim";
    const calls = {
      assemble: () => api.assemble(toolbox),
      search: () => api.search(toolbox, "issue"),
      describe: () => api.describe(toolbox, "create_issue"),
      unwrap: () => api.unwrap(toolbox, { name: "read_file", arguments: {} }),
      Shelf: () => new api.Shelf(toolbox),
    };
    const before = Object.fromEntries(Object.entries(calls).map(([k, f]) => [k, codeOf(f)]));
    const isError = (() => { try { api.assemble(toolbox); } catch (e) { return e instanceof api.ToolshelfError && e instanceof Error; } })();
    api.initSync(bytes);
    const after = Object.fromEntries(Object.entries(calls).map(([k, f]) => [k, codeOf(f)]));
    print({ before, isError, after });`);
  const every = (code) => ({ assemble: code, search: code, describe: code, unwrap: code, Shelf: code });
  assert.deepEqual(result, { before: every("not_initialized"), isError: true, after: every("no throw") });
});

test("the core has no runtime dependency: the entries import only the package's own files; `ai` is an optional peer of toolshelf/ai, the MCP SDK of the CLI's --mcp-config and toolshelf/gateway", () => {
  assert.equal(pkg.dependencies, undefined);
  assert.deepEqual(pkg.peerDependencies, { ai: "^6.0.0 || ^7.0.0", "@modelcontextprotocol/sdk": ">=1.10" }, "ai 6 and 7: tests/matrix runs the adapter on both");
  assert.deepEqual(pkg.peerDependenciesMeta, { ai: { optional: true }, "@modelcontextprotocol/sdk": { optional: true } });
  const bare = (file) => [...readFileSync(join(pkgDir, file), "utf8").matchAll(/(?:\bfrom|^\s*import)\s*["']([^"'.][^"']*)["']/gm)].map((m) => m[1])
    .filter((specifier) => !specifier.startsWith("node:")); // the runtime's built-ins are no dependency
  for (const file of listFiles(pkgDir).filter((f) => f.endsWith(".js") && !["ai.js", "ai-approval.js", "ai-mcp.js", "ai-native.js", "ai-shared.js", "gateway.js"].includes(f))) {
    assert.deepEqual(bare(file), [], `${file} imports no other package`);
  }
  assert.deepEqual(bare("ai.js").sort(), ["ai", "toolshelf"], "toolshelf/ai imports the AI SDK and the package itself");
  assert.deepEqual(bare("ai-native.js").sort(), ["ai", "toolshelf"], "its native path too (re-exported by ai.js)");
  assert.deepEqual(bare("ai-shared.js"), ["ai"], "the helpers both share");
  assert.deepEqual(bare("ai-mcp.js"), ["ai"], "MCP clients as ToolSets (through the package's own mcp.js)");
  assert.deepEqual(bare("gateway.js").sort(), ["@modelcontextprotocol/sdk/client/index.js", "@modelcontextprotocol/sdk/client/streamableHttp.js", "@modelcontextprotocol/sdk/server/index.js",
    "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js", "@modelcontextprotocol/sdk/types.js", "toolshelf"], "toolshelf/gateway imports the MCP SDK (no Node-only module of it) and the package itself");
});

test("package.json: the Node versions tested, and where the project lives (Cargo.toml's repository)", () => {
  assert.deepEqual(pkg.engines, { node: ">=20" }, "Node 20, 22 and 24 run the packed-package tests (scripts/test, scripts/matrix)");
  const cargo = readFileSync(join(repoDir, "Cargo.toml"), "utf8").match(/^repository = "([^"]+)"/m)[1];
  assert.deepEqual(pkg.repository, { type: "git", url: `git+${cargo}.git` });
  assert.equal(pkg.homepage, `${cargo}#readme`);
  assert.deepEqual(pkg.bugs, { url: `${cargo}/issues` });
});
