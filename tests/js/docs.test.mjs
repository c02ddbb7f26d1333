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
// same servers), never by a format written here (doc-examples.mjs). docs/cli.md's terminal sessions
// run too, each line of output they show printed; every JSON block of docs/ parses. The AI SDK
// example on ai 6 and ai 7: tests/matrix/readme-ai.test.mjs; the ```ts blocks of docs/ that import
// the package, type-checked: types.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LOOPS, PAGES, blocks, runModule, startModelServer, startNativeModelServer } from "./doc-examples.mjs";
import { grouped, keywordQueries, repoDir } from "./support.mjs";
import { embeddingKey, readVectors } from "./embeddings.mjs";
import { Shelf } from "toolshelf";

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

// docs/cli.md's terminal sessions: each `$ npx toolshelf …` line run with the installed bin in a
// folder holding the page's toolbox.json (GitHub + Linear, 155 tools), eval's queries.jsonl (their
// labelled keyword queries) and vectors.json (those tools' and queries' committed all-MiniLM-L6-v2
// vectors, as eval --vectors reads them), and every line of output the
// page shows printed by it (stdout and stderr; a line the page elides is not compared). A command
// whose input the page does not show (an options.json, an MCP server in Docker) is named, not run.
test("docs/cli.md: every terminal session runs as shown", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "toolshelf-cli-doc-"));
  const catalogs = ["github-mcp-server", "linear-mcp-official"];
  const toolbox = grouped(catalogs);
  writeFileSync(join(dir, "toolbox.json"), JSON.stringify(toolbox));
  const queries = keywordQueries().filter((q) => catalogs.includes(q.catalog));
  writeFileSync(join(dir, "queries.jsonl"), queries.map((q) => JSON.stringify({ query: q.query, expect: q.relevant })).join("\n") + "\n");
  const [toolVectors, queryVectors] = [readVectors("tools"), readVectors("queries-keyword")];
  const shelf = new Shelf(toolbox);
  const tools = Object.fromEntries(shelf.embeddingTexts().map(({ key }) => [key, Array.from(toolVectors.get(key))]));
  shelf.free();
  const byQuery = Object.fromEntries(queries.map((q) => [q.query, Array.from(queryVectors.get(embeddingKey(q.query)))]));
  writeFileSync(join(dir, "vectors.json"), JSON.stringify({ model: toolVectors.model, tools, queries: byQuery }));
  const bin = join(dirname(fileURLToPath(import.meta.resolve("toolshelf/package.json"))), "cli.js");
  const sessions = blocks(readFileSync(join(repoDir, "docs", "cli.md"), "utf8")).filter((b) => b.lang === "console");
  assert.ok(sessions.length >= 5);
  let ran = 0;
  for (const session of sessions) {
    const parts = session.code.split(/^\$ /m).slice(1).map((part) => part.split("\n"));
    for (const [command, ...shown] of parts) {
      const where = `docs/cli.md:${session.line}: $ ${command}`;
      const why = /^echo /.test(command) ? "the exit code of the command before it"
        : /--mcp-config/.test(command) ? "its config starts GitHub's server in Docker; cli.test.mjs runs --mcp-config on real servers"
        : /options\.json/.test(command) ? "its options.json is not on the page; cli.test.mjs runs a file's JSON error" : undefined;
      if (why) {
        t.diagnostic(`not run here: ${where}: ${why}`);
        continue;
      }
      assert.match(command, /^npx toolshelf /, where);
      const r = spawnSync("bash", ["-c", command.replace(/^npx toolshelf /, `"${process.execPath}" "${bin}" `)], { cwd: dir, encoding: "utf8", timeout: 60_000 });
      const printed = new Set(`${r.stderr}\n${r.stdout}`.split("\n").map((l) => l.trimEnd()));
      for (const line of shown.map((l) => l.trimEnd()).filter((l) => l !== "" && !/elided|\.\.\./.test(l))) {
        assert.ok(printed.has(line), `${where}: the page shows a line it does not print:\n${line}\n--- printed:\n${r.stderr}${r.stdout}`);
      }
      ran++;
    }
  }
  t.diagnostic(`ran ${ran} commands of docs/cli.md`);
});
