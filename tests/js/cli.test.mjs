// The package's command line (docs/cli.md), run as a user runs it: `npx toolshelf …` in the
// project the packed package is installed in. `inspect` and `search` on the real catalogs, their
// figures checked against the library's own answers; `--json`; the toolbox from stdin; an MCP client
// config with the reference server (@modelcontextprotocol/server-everything) over stdio, streamable
// HTTP and the older SSE transport, beside servers that do not exist, crash or never answer; the
// SDK missing; every bad input reported by name with its exit code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Shelf, assemble } from "toolshelf";
import { fromMcpTool } from "toolshelf/mcp";
import { everythingServer } from "./mcp-servers.mjs";
import { grouped, keywordQueries, repoDir } from "./support.mjs";
import { cliRunner, here } from "./cli-support.mjs";

const EVERYTHING = join(repoDir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const { dir, toolshelf, bin, file } = cliRunner("toolshelf-cli-");

const num = (n) => n.toLocaleString("en-US");
const githubLinear = grouped(["github-mcp-server", "linear-mcp-official"]);
const githubLinearPath = file("github-linear.json", githubLinear);
const OPTIONS = { contextLength: 200_000 };

/**
 * The name the model is shown for `server`'s tool `own` (its own name), as the package gives it:
 * describe accepts a tool's own name while one tool answers to it, and answers with the shown name.
 */
function shownName(shelf, server, own) {
  const described = shelf.describe(own);
  assert.equal(described?.server, server, `${own}: one tool of ${server} answers to it`);
  return described.name;
}

/** The toolbox with each OpenAI-format tool as an Anthropic one. */
function asAnthropic(toolbox) {
  const convert = (t) => ({ name: t.function.name, description: t.function.description, input_schema: { type: "object", ...t.function.parameters } });
  return { servers: Object.fromEntries(Object.entries(toolbox.servers).map(([name, tools]) => [name, tools.map(convert)])) };
}

test("inspect: tier, form, budget, servers, cost per request in each mode, warnings and the listing of GitHub + Linear", () => {
  const r = toolshelf(["inspect", githubLinearPath, "--options", JSON.stringify(OPTIONS)]);
  assert.equal(r.status, 0, r.stderr);
  const a = assemble(githubLinear, OPTIONS);
  const eager = assemble(githubLinear, { ...OPTIONS, enabled: "off" });
  const lines = r.stdout.split("\n");
  assert.ok(lines.includes(`toolbox      ${githubLinearPath}: 0 direct, 155 deferred tools on 2 servers`), r.stdout);
  assert.ok(lines.includes("format       openai"));
  assert.ok(lines.includes("tier         1: the bridge; the listing names tools one by one"));
  assert.ok(lines.includes("form         full: every server listed tool by tool, with short descriptions"));
  assert.ok(lines.includes("context      200,000 tokens"));
  assert.ok(lines.includes(`budget       ${num(a.budgetTokens)} tokens for the listing; it takes ${num(a.listingTokens)}`));
  assert.ok(lines.includes("server  tools  level"));
  assert.ok(lines.includes("github    117  full"));
  assert.ok(lines.includes("linear     38  full"));
  const row = (label) => lines.find((l) => l.startsWith(`  ${label} `))?.trim().split(/\s{2,}/);
  assert.deepEqual(row("eager (every schema)"), ["eager (every schema)", num(eager.contextTokens), num(eager.requestBytes)]);
  assert.deepEqual(row("bridge").slice(0, 3), ["bridge", num(a.contextTokens), num(a.requestBytes)]);
  assert.match(row("native").join(" "), /native - - mode: native needs the anthropic or responses format, not openai/);
  // Every deferred tool shown under its server's prefix: no name is shared, so no warning.
  assert.deepEqual(a.warnings, []);
  assert.ok(lines.includes("warnings: none"));
  assert.ok(lines.includes("listing (the description of tool_search, as the model reads it)"));
  const shelf = new Shelf(githubLinear, OPTIONS);
  const prefix = shownName(shelf, "github", "create_issue").slice(0, -"create_issue".length);
  shelf.free();
  assert.ok(lines.includes(`  ${prefix}* (117 tools):`), "github's heading: the prefix of its tools' shown names");
  assert.ok(lines.includes("  - create_issue: Create a new issue in a GitHub repository with a title and…"));
  const search = a.tools.find((t) => t.function.name === "tool_search").function.description;
  assert.ok(r.stdout.includes(search.split("\n").map((l) => (l ? `  ${l}` : l)).join("\n")), "the listing as the model reads it, whole");
  assert.equal(r.stderr, "");

  // qualify "auto" (short names, qualified on a clash): the assembly's warning names the shared name.
  const auto = { ...OPTIONS, qualify: "auto" };
  const autoRun = toolshelf(["inspect", githubLinearPath, "--options", JSON.stringify(auto), "--no-listing"]);
  assert.equal(autoRun.status, 0, autoRun.stderr);
  const autoWarnings = assemble(githubLinear, auto).warnings;
  assert.equal(autoWarnings.length, 1);
  assert.match(autoWarnings[0], /^qualify: 2 deferred tools share their name with another tool \("list_issues"\)/);
  const autoLines = autoRun.stdout.split("\n");
  assert.equal(autoLines[autoLines.indexOf("warnings") + 1], `  - ${autoWarnings[0]}`, "the assembly's warning");

  // Anthropic tools: the native row is the core's native assembly (deferred tools sent, kept out of the context).
  const anthropic = asAnthropic(githubLinear);
  const native = assemble(anthropic, { ...OPTIONS, mode: "native" });
  assert.equal(native.mode, "native");
  const n = toolshelf(["inspect", file("anthropic.json", anthropic), "--options", JSON.stringify(OPTIONS), "--no-listing"]);
  assert.equal(n.status, 0, n.stderr);
  const nativeRow = n.stdout.split("\n").find((l) => l.startsWith("  native "))?.trim().split(/\s{2,}/);
  assert.deepEqual(nativeRow.slice(0, 3), ["native", num(native.contextTokens), num(native.requestBytes)]);
  assert.ok(n.stdout.split("\n").includes("format       anthropic"));
  assert.doesNotMatch(n.stdout, /^listing/m, "--no-listing");

  // 3,397 REST tools at 200K: server lines only.
  const rest = grouped(["cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04"]);
  const restRun = toolshelf(["inspect", file("rest.json", rest), "--options", JSON.stringify(OPTIONS)]);
  const restAssembly = assemble(rest, OPTIONS);
  assert.equal(restRun.status, 0, restRun.stderr);
  assert.ok(restRun.stdout.includes(`tier         ${restAssembly.tier}:`));
  assert.ok(restRun.stdout.includes(`form         ${restAssembly.form}:`));
  for (const s of restAssembly.servers) assert.match(restRun.stdout, new RegExp(`^${s.name} +${num(s.tools)}  ${s.level}$`, "m"));
});

test("inspect --json: the assembly's facts, the listing and the costs, as the library gives them", () => {
  const r = toolshelf(["inspect", githubLinearPath, "--json", `--options=${JSON.stringify(OPTIONS)}`]);
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  const a = assemble(githubLinear, OPTIONS);
  for (const key of ["tier", "form", "mode", "deferredCount", "deferredTokens", "budgetTokens", "listingTokens", "servers", "fingerprint", "warnings"]) {
    assert.deepEqual(report[key], a[key], key);
  }
  assert.equal(report.format, "openai");
  assert.equal(report.directCount, 0);
  assert.deepEqual(report.listing, { tool: "tool_search", description: a.tools[0].function.description });
  const eager = assemble(githubLinear, { ...OPTIONS, enabled: "off" });
  assert.deepEqual(report.costs.slice(0, 2), [
    { mode: "eager", contextTokens: eager.contextTokens, requestBytes: eager.requestBytes },
    { mode: "bridge", contextTokens: a.contextTokens, requestBytes: a.requestBytes },
  ]);
  assert.equal(report.costs[2].mode, "native");
  assert.match(report.costs[2].unavailable, /not openai/);
});

test("search: ranked matches with score, partial, unknown words and the words found, on labelled queries", () => {
  const shelf = new Shelf(githubLinear);
  const r = toolshelf(["search", githubLinearPath, "create", "an", "issue"]);
  assert.equal(r.status, 0, r.stderr);
  const expected = shelf.search("create an issue");
  const lines = r.stdout.split("\n");
  assert.equal(lines[0], `"create an issue": ${expected.matches.length} matches of 155 deferred tools`);
  const first = expected.matches[0];
  assert.equal(first.name, shownName(shelf, "github", "create_issue"));
  assert.match(lines[2], new RegExp(`^1\\. ${first.name} +github  score ${first.score.toFixed(2)}$`));
  assert.equal(lines[3], "   Create a new issue in a GitHub repository with a title and optional body.");
  assert.equal(lines[4], "   in text: create, issue   required: owner, repo, title");
  assert.equal(r.stderr, "", "no warning: every tool has a name of its own");

  // qualify "auto": short names where no other tool has them, and the assembly's warning on stderr.
  const auto = new Shelf(githubLinear, { qualify: "auto" });
  const autoRun = toolshelf(["search", githubLinearPath, "create", "an", "issue", "--limit", "1", "--options", '{"qualify":"auto"}']);
  assert.equal(autoRun.status, 0, autoRun.stderr);
  const autoFirst = auto.search("create an issue", { limit: 1 }).matches[0];
  assert.equal(autoFirst.name, "create_issue");
  assert.equal(autoRun.stdout.split("\n")[2], `1. create_issue  github  score ${autoFirst.score.toFixed(2)}`, "one match: no padding");
  assert.deepEqual(autoRun.stderr.trimEnd().split("\n"), auto.assemble().warnings.map((w) => `toolshelf: warning: ${w}`), "the assembly's warnings go to stderr");
  assert.match(autoRun.stderr, /warning: qualify: 2 deferred tools/);
  auto.free();

  // Labelled GitHub keyword queries: the CLI's first match is the library's; for these, a relevant tool.
  const labelled = keywordQueries().filter((q) => q.catalog === "github-mcp-server").slice(0, 6);
  const relevantFirst = ["github create issue", "create pull request", "merge pull request", "add comment to issue", "search code"];
  for (const { query, relevant } of labelled) {
    const out = toolshelf(["search", githubLinearPath, query, "--limit", "1"]).stdout;
    const top = shelf.search(query, { limit: 1 }).matches[0].name;
    assert.match(out.split("\n")[2], new RegExp(`^1\\. ${top} `), query);
    if (relevantFirst.includes(query)) assert.ok(relevant.map((own) => shownName(shelf, "github", own)).includes(top), `${query}: ${top}`);
  }

  // Words no tool holds: reported, every match partial.
  const unknown = toolshelf(["search", githubLinearPath, "frobnicate the pull request reviewers", "--limit", "2"]);
  assert.equal(unknown.status, 0);
  assert.ok(unknown.stdout.includes("unknown words: frobnicate (no tool holds them, so every match is partial)"));
  assert.match(unknown.stdout, new RegExp(`^1\\. ${shownName(shelf, "github", "request_pull_request_reviewers")} +github +score [\\d.]+ +partial$`, "m"));
  assert.match(unknown.stdout, /in text: pull, request, reviewers/);
  assert.equal((unknown.stdout.match(/^\d\. /gm) ?? []).length, 2, "--limit 2");
  shelf.free();
});

test("search --json: the core's result, each match with the words the CLI found", () => {
  const r = toolshelf(["search", githubLinearPath, "merge pull request", "--json", "--limit", "3"]);
  assert.equal(r.status, 0, r.stderr);
  const result = JSON.parse(r.stdout);
  const shelf = new Shelf(githubLinear);
  const expected = shelf.search("merge pull request", { limit: 3 });
  const merge = shownName(shelf, "github", "merge_pull_request");
  shelf.free();
  assert.deepEqual({ ...result, matches: result.matches.map(({ inText, ...m }) => m) }, expected);
  assert.equal(result.matches[0].name, merge);
  assert.deepEqual(result.matches[0].inText, ["merge", "pull", "request"]);
});

test("the toolbox from stdin: inspect without a file, search with -", () => {
  const text = readFileSync(githubLinearPath, "utf8");
  const inspect = toolshelf(["inspect", "--no-listing"], { input: text });
  assert.equal(inspect.status, 0, inspect.stderr);
  assert.ok(inspect.stdout.startsWith("toolbox      stdin: 0 direct, 155 deferred tools on 2 servers"));
  const search = toolshelf(["search", "-", "create issue", "--limit", "1"], { input: text });
  assert.equal(search.status, 0, search.stderr);
  const shelf = new Shelf(githubLinear);
  assert.match(search.stdout, new RegExp(`^1\\. ${shownName(shelf, "github", "create_issue")} `, "m"));
  shelf.free();
  const empty = toolshelf(["inspect"], { input: "" });
  assert.equal(empty.status, 3);
  assert.match(empty.stderr, /toolbox: stdin is empty/);
});

test("snapshot: warnings on stderr, the bytes of shelf.snapshot(), from stdin too", () => {
  const out = join(dir, "shelf.bin");
  const r = toolshelf(["snapshot", "-", "-o", out], { input: readFileSync(githubLinearPath, "utf8") });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /shelf\.bin: \d+ bytes \(155 deferred tools, tier 1, toolbox held\)/);
  assert.equal(r.stderr, "", "no warning: every tool has a name of its own");
  assert.deepEqual(new Uint8Array(readFileSync(out)), new Shelf(githubLinear).snapshot());

  // qualify "auto": the assembly's warning on stderr, the options recorded in the snapshot.
  const auto = toolshelf(["snapshot", "-", "-o", out, "--options", '{"qualify":"auto"}'], { input: readFileSync(githubLinearPath, "utf8") });
  assert.equal(auto.status, 0, auto.stderr);
  assert.match(auto.stderr, /^toolshelf: warning: qualify: 2 deferred tools share their name with another tool \("list_issues"\)/);
  assert.deepEqual(new Uint8Array(readFileSync(out)), new Shelf(githubLinear, { qualify: "auto" }).snapshot());
});

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** server-everything over HTTP (`streamableHttp` or `sse`) on a free port, once it listens. */
async function httpEverything(transport) {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, transport], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`server-everything ${transport} did not start: ${seen}`)), 20_000);
    child.stderr.on("data", (chunk) => {
      seen += chunk;
      if (/listening on port|running on port/i.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => reject(new Error(`server-everything ${transport} exited (${code}): ${seen}`)));
  });
  return { port, stop: () => child.kill() };
}

test("--mcp-config: every server's tools/list (stdio, streamable HTTP, SSE by fallback); a missing command, a crash and a hang reported and left out", async () => {
  const reference = everythingServer();
  const client = await reference.client();
  const { tools } = await client.listTools();
  await reference.close();
  const http = await httpEverything("streamableHttp");
  const sse = await httpEverything("sse");
  try {
    const config = file("mcp.json", {
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, "stdio"], env: { TOOLSHELF_TEST: "1" } },
        remote: { url: `http://127.0.0.1:${http.port}/mcp`, headers: { "X-Toolshelf-Test": "1" } },
        legacy: { url: `http://127.0.0.1:${sse.port}/sse` },
        missing: { command: join(dir, "no-such-mcp-server"), args: [] },
        crashes: { command: process.execPath, args: ["-e", "console.error('no API key set'); process.exit(1)"] },
        hangs: { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] },
      },
    });
    const started = Date.now();
    const r = toolshelf(["inspect", "--mcp-config", config, "--timeout", "4000", "--json", "--no-listing"]);
    assert.ok(Date.now() - started < 30_000, "the hanging server is given up at its timeout");
    assert.equal(r.status, 4, `some servers left out: exit 4\n${r.stderr}`);
    const report = JSON.parse(r.stdout);
    assert.deepEqual(report.servers.map((s) => [s.name, s.tools]), [["everything", tools.length], ["legacy", tools.length], ["remote", tools.length]]);
    assert.equal(report.format, "mcp");
    assert.deepEqual(report.source.failed.map((f) => f.server), ["missing", "crashes", "hangs"]);
    // Costs counted on what a provider request carries of an MCP tool: as Anthropic tools (no title,
    // outputSchema or annotations), the format said; native also as Responses tools.
    assert.equal(report.costsFormat, "anthropic");
    assert.deepEqual(report.costs.map((c) => [c.mode, c.as]), [["eager", undefined], ["bridge", undefined], ["native", "anthropic"], ["native", "responses"]]);
    const asAnthropic = tools.map((t) => fromMcpTool(t, "anthropic"));
    assert.equal(report.costs[0].requestBytes, assemble({ servers: { everything: asAnthropic, remote: asAnthropic, legacy: asAnthropic } }, { enabled: "off" }).requestBytes, "eager: the schemas a request carries");
    assert.ok(report.costs[0].requestBytes < 3 * JSON.stringify(tools).length, "less than the three servers' tools/list items whole");
    assert.match(r.stderr, /server "missing" left out: command not found: .*no-such-mcp-server/);
    assert.match(r.stderr, /server "crashes" left out: .*\(its stderr: no API key set\)/);
    assert.match(r.stderr, /server "hangs" left out: timed out after 4000 ms \(--timeout\)/);

    // The servers' tools in the format asked for; a search over them.
    const search = toolshelf(["search", "--mcp-config", config, "--format", "anthropic", "--timeout", "2000", "echo", "--limit", "1", "--json"]);
    assert.equal(search.status, 4);
    assert.equal(JSON.parse(search.stdout).matches[0].description, tools.find((t) => t.name === "echo").description);
  } finally {
    http.stop();
    sse.stop();
  }

  // Every server failing: nothing to show, exit 3.
  const none = file("none.json", { mcpServers: { missing: { command: join(dir, "nope") }, bad: { url: 42 } } });
  const r = toolshelf(["inspect", "--mcp-config", none]);
  assert.equal(r.status, 3);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /server "bad" left out: "url" is not a string/);
  assert.match(r.stderr, /no server's tools could be read \(2 failed\)/);
});

test("--mcp-config without @modelcontextprotocol/sdk: says to install it", () => {
  const project = mkdtempSync(join(tmpdir(), "toolshelf-nosdk-"));
  mkdirSync(join(project, "node_modules"));
  cpSync(join(here, "node_modules", "toolshelf"), join(project, "node_modules", "toolshelf"), { recursive: true });
  const config = file("one.json", { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } });
  const r = spawnSync(process.execPath, [join(project, "node_modules", "toolshelf", "cli.js"), "inspect", "--mcp-config", config], { cwd: project, encoding: "utf8" });
  assert.equal(r.status, 3);
  assert.match(r.stderr, /needs the MCP TypeScript SDK, an optional peer dependency/);
  assert.match(r.stderr, /npm i @modelcontextprotocol\/sdk/);
});

test("bad input: each reported by name, with its exit code, nothing on stdout", () => {
  const badOptions = file("opts.json", '{\n  "contextLength": 200000\n  "mode": "native"\n}\n');
  const badToolbox = file("bad.json", '{"servers": {"a": [1, 2,]}}');
  const mcpConfig = file("config-as-toolbox.json", { mcpServers: { x: { command: "x" } } });
  const cases = [
    [["inspect", githubLinearPath, "--foo"], 2, /^toolshelf: unknown flag --foo for inspect; toolshelf inspect --help lists its flags\nusage: toolshelf inspect/],
    [["inspect", githubLinearPath, "--limit", "3"], 2, /unknown flag --limit for inspect \(a flag of search\)/],
    [["inspect", githubLinearPath, "--options", '{"contextLength": }'], 2, /--options: not valid JSON at position 18: expected a value, found '}'/],
    [["inspect", githubLinearPath, "--options", '{"contextLength": 200000,}'], 2, /--options: not valid JSON at position 25: expected a property name in double quotes, found '}'/],
    [["inspect", githubLinearPath, "--options", badOptions], 2, /--options .*opts\.json:3:3: not valid JSON: expected "," or "}", found '"'/],
    [["inspect", githubLinearPath, "--options", join(dir, "missing-options.json")], 2, /--options: ".*missing-options\.json" is neither JSON text nor a file \(no such file\)/],
    [["inspect", githubLinearPath, "--options", "[200000]"], 2, /--options: expected a JSON object .*, got an array/],
    [["inspect", githubLinearPath, "--options"], 2, /--options needs a value/],
    [["inspect", join(dir, "missing.json")], 3, /toolbox: no such file: .*missing\.json/],
    [["inspect", dir], 3, /is a directory, not a JSON file/],
    [["inspect", badToolbox], 3, /bad\.json:1:25: not valid JSON: expected a value, found ']'/],
    [["inspect", mcpConfig], 2, /is an MCP client config, not a toolbox: use --mcp-config/],
    [["inspect", file("invalid.json", { servers: { s: "nope" } })], 1, /^toolshelf: invalid_toolbox: servers\.s: expected a list of tools/],
    [["inspect", githubLinearPath, "--options", '{"qualify": false}'], 1, /^toolshelf: duplicate_tool: /],
    [["inspect", githubLinearPath, "extra"], 2, /unexpected argument "extra" for inspect/],
    [["inspect", githubLinearPath, "--format", "xml"], 2, /--format: expected one of openai, responses, anthropic, mcp, gemini, got "xml"/],
    [["inspect", githubLinearPath, "--timeout", "100"], 2, /--timeout is for --mcp-config/],
    [["inspect", "--mcp-config", githubLinearPath], 2, /this is a toolbox \(servers with lists of tools\), not an MCP client config: give it without --mcp-config/],
    [["inspect", "--mcp-config", file("no-servers.json", { servers: 1 })], 3, /no "mcpServers" object .*VS Code's \.vscode\/mcp\.json: \{"servers"/],
    [["inspect", "--mcp-config", file("empty-vscode.json", { servers: {} })], 3, /"servers" is empty: no server to read/],
    [["inspect", "--mcp-config", file("empty-claude.json", { mcpServers: {} })], 3, /"mcpServers" is empty: no server to read/],
    [["search", githubLinearPath], 2, /search needs a query after the toolbox/],
    [["search", githubLinearPath, "issue", "--limit", "many"], 2, /--limit: expected a positive integer, got "many"/],
    [["search", join(dir, "missing.json"), "create", "issue"], 3, /no such file: .*missing\.json \(to read the toolbox from stdin: toolshelf search - <query\.\.\.>\)/],
    [["search", githubLinearPath, "issue", "--json=yes"], 2, /--json takes no value/],
    [["snapshot", githubLinearPath], 2, /snapshot needs -o <file>[\s\S]*usage: toolshelf snapshot/],
    [["snapshot", githubLinearPath, "-o", join(dir, "no", "such", "dir", "shelf.bin")], 3, /cannot write the snapshot: no such directory/],
    [["frobnicate"], 2, /unknown command "frobnicate": the commands are inspect, search, snapshot, serve and eval/],
    [[], 2, /^toolshelf: keep many MCP tools/],
  ];
  for (const [args, status, stderr] of cases) {
    const r = bin(args);
    assert.equal(r.status, status, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, stderr, args.join(" "));
    assert.doesNotMatch(r.stderr, /ENOENT|at file:|\n\s+at /, `${args.join(" ")}: no raw error or stack`);
    if (args.length) assert.equal(r.stdout, "", `${args.join(" ")}: stdout`);
  }
});

test("--help: the whole and per command, on stdout, exit 0; --version", () => {
  const whole = toolshelf(["--help"]); // npx once, the rest through the bin link
  assert.equal(whole.status, 0);
  assert.match(whole.stdout, /toolshelf inspect/);
  assert.match(whole.stdout, /exit codes:\n  0  ok\n  1  toolshelf refused the toolbox[\s\S]*  2  usage[\s\S]*  3  input not read[\s\S]*  4  done, but some MCP servers were left out/);
  for (const command of ["inspect", "search", "snapshot"]) {
    for (const args of [[command, "--help"], [command, "-h"], ["help", command]]) {
      const r = bin(args);
      assert.equal(r.status, 0, args.join(" "));
      assert.ok(r.stdout.startsWith(`usage: toolshelf ${command}`), args.join(" "));
      assert.match(r.stdout, /--mcp-config <file>/);
      assert.equal(r.stderr, "");
    }
  }
  const version = bin(["--version"]);
  assert.equal(version.stdout.trim(), JSON.parse(readFileSync(join(here, "node_modules", "toolshelf", "package.json"), "utf8")).version);
});
