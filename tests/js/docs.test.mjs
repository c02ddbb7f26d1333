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
// same servers), never by a format written here (doc-examples.mjs). The AI SDK example on ai 6 and
// ai 7: tests/matrix/readme-ai.test.mjs; the ```ts blocks of docs/ type-checked: types.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LOOPS, PAGES, blocks, runModule, startModelServer, startNativeModelServer } from "./doc-examples.mjs";
import { repoDir } from "./support.mjs";

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
