// `npx toolshelf eval` (docs/cli.md), run as a user runs it: the installed bin on real catalogs
// with queries files made from the labelled keyword and model sets. Its figures and each miss's
// ranks are checked against the package's own Shelf.search computed here, and the labelled sets'
// totals against the table of docs/search.md (made by `cargo run --profile native --example
// retrieval`); the hybrid figures with the committed all-MiniLM-L6-v2 vectors; --min-hit5's exit
// codes; every bad line of a queries file reported by its number.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Shelf } from "toolshelf";
import { dataDir, grouped, keywordQueries, repoDir } from "./support.mjs";
import { embeddingKey, readVectors } from "./embeddings.mjs";
import { everythingServer } from "./mcp-servers.mjs";
import { cliRunner } from "./cli-support.mjs";

const EVERYTHING = join(repoDir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const { dir, toolshelf, bin, file } = cliRunner("toolshelf-eval-", { timeout: 120_000 });

const jsonl = (queries) => queries.map((q) => JSON.stringify({ query: q.query, expect: q.expect })).join("\n") + "\n";
/** A labelled query's tools as a queries file names them: `server::tool` (the sets' form) is `server/tool`. */
const expectOf = (relevant) => relevant.map((r) => r.replace("::", "/"));
const labelled = (set) => JSON.parse(readFileSync(join(dataDir, `queries-${set}.json`), "utf8"));

/** The catalogs of a labelled set, each with its queries as a queries file takes them, in first-seen order. */
function byCatalog(queries) {
  const out = new Map();
  for (const q of queries) {
    if (!out.has(q.catalog)) out.set(q.catalog, []);
    out.get(q.catalog).push({ query: q.query, expect: expectOf(q.relevant) });
  }
  return out;
}

/**
 * What the package answers for the queries: each query's rank of its first expected tool in
 * Shelf.search (to 50, the most a search returns; null when absent) and its score, and hit@1,
 * hit@5, MRR@10. An expected name here is a tool's own name in a one-server catalog, which
 * Shelf.describe answers with the tool (its `name` the one the model is shown).
 */
function oracle(toolbox, queries, { vectors } = {}) {
  assert.equal(Object.keys(toolbox.servers).length, 1, "own names are unique in a one-server toolbox");
  const shelf = new Shelf(toolbox, { maxSearchLimit: 50 });
  if (vectors) shelf.setEmbeddings({ model: vectors.model, vectors: vectors.tools });
  const names = (expect) => new Set(expect.map((e) => shelf.describe(e)?.name).filter((n) => n !== undefined));
  const answers = queries.map((q) => {
    const wanted = names(q.expect);
    assert.ok(wanted.size > 0, `${q.query}: ${q.expect}`);
    const result = shelf.search(q.query, { limit: 50, ...(vectors ? { vector: vectors.queries[q.query] } : {}) });
    const at = result.matches.findIndex((m) => wanted.has(m.name));
    return { rank: at < 0 ? null : at + 1, score: at < 0 ? null : result.matches[at].score, name: at < 0 ? null : result.matches[at].name, top: result.matches.slice(0, 5).map((m) => m.name), searched: result.matches.length };
  });
  shelf.free();
  const ranks = answers.map((a) => a.rank);
  const hits1 = ranks.filter((r) => r === 1).length;
  const hits5 = ranks.filter((r) => r !== null && r <= 5).length;
  const rr = ranks.reduce((s, r) => s + (r !== null && r <= 10 ? 1 / r : 0), 0);
  return { answers, figures: { queries: ranks.length, hits1, hits5, hit1: hits1 / ranks.length, hit5: hits5 / ranks.length, mrr10: rr / ranks.length } };
}

const fixtures = new Map();
const fixture = (stem) => fixtures.get(stem) ?? fixtures.set(stem, readVectors(stem)).get(stem);
/** A vector as JSON numbers: 9 significant digits give each float32 back (the package takes float32). */
const numbers = (vector) => Array.from(vector, (v) => Number(v.toPrecision(9)));

/** A --vectors file for a toolbox and its queries, from the committed fixtures (tests/data/embeddings). */
function vectorsFor(toolbox, queries, set) {
  const shelf = new Shelf(toolbox);
  const toolVectors = fixture("tools");
  const queryVectors = fixture(`queries-${set}`);
  const tools = {};
  for (const { key } of shelf.embeddingTexts()) tools[key] = numbers(toolVectors.get(key));
  shelf.free();
  const byQuery = {};
  for (const q of queries) byQuery[q.query] = numbers(queryVectors.get(embeddingKey(q.query)));
  return { model: toolVectors.model, tools, queries: byQuery };
}

const CLOUDFLARE = grouped(["cloudflare-api-2024-08"]);
const cloudflareQueries = byCatalog(keywordQueries()).get("cloudflare-api-2024-08");
const cloudflarePath = file("cloudflare.json", CLOUDFLARE);
const cloudflareQueriesPath = file("cloudflare.jsonl", jsonl(cloudflareQueries));
const share = (n) => n.toFixed(3);

test("eval: hit@1, hit@5 and MRR@10 of Cloudflare's keyword queries are Shelf.search's, each miss with its ranks", () => {
  const r = toolshelf(["eval", cloudflarePath, cloudflareQueriesPath]);
  assert.equal(r.status, 0, r.stderr);
  const { answers, figures } = oracle(CLOUDFLARE, cloudflareQueries);
  const lines = r.stdout.split("\n");
  assert.equal(lines[0], `${cloudflareQueries.length} queries of ${cloudflareQueriesPath} on 1,533 deferred tools (${cloudflarePath})`);
  assert.match(r.stdout, new RegExp(`^lexical +${share(figures.hit1)} \\(${figures.hits1}/${figures.queries}\\) +${share(figures.hit5)} \\(${figures.hits5}/${figures.queries}\\) +${share(figures.mrr10)}$`, "m"));
  const misses = answers.map((a, i) => ({ ...a, line: i + 1, q: cloudflareQueries[i] })).filter((a) => a.rank === null || a.rank > 5);
  assert.ok(misses.length > 0, "Cloudflare's keyword queries have misses to show");
  assert.match(r.stdout, new RegExp(`^misses: ${misses.length} `, "m"));
  for (const miss of misses) {
    const block = r.stdout.slice(r.stdout.indexOf(`${cloudflareQueriesPath}:${miss.line}  ${JSON.stringify(miss.q.query)}`));
    assert.ok(block.length < r.stdout.length, `the miss of line ${miss.line} is listed`);
    const [, expected, place, ...top] = block.split("\n");
    assert.equal(expected, `  expected: ${miss.q.expect.join(", ")}`);
    if (miss.rank === null) assert.match(place, /^ {2}lexical: not (found|in the first 50)/);
    else assert.match(place, new RegExp(`^  lexical: ${miss.name} at rank ${miss.rank}, score ${miss.score.toFixed(2)}(, partial)?$`));
    miss.top.forEach((name, i) => assert.match(top[i], new RegExp(`^    ${i + 1}\\. ${name} +score [\\d.]+( +partial)? +in text: `), `line ${miss.line}, result ${i + 1}`));
  }
  assert.equal(r.stderr, "");
});

test("eval --json: the figures and every miss as the package ranks them", () => {
  const r = bin(["eval", cloudflarePath, cloudflareQueriesPath, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  const { answers, figures } = oracle(CLOUDFLARE, cloudflareQueries);
  assert.deepEqual(report.figures, { lexical: figures });
  assert.equal(report.queries.count, cloudflareQueries.length);
  assert.equal(report.toolbox.deferredCount, 1533);
  const misses = answers.map((a, i) => ({ ...a, line: i + 1 })).filter((a) => a.rank === null || a.rank > 5);
  assert.deepEqual(report.misses.map((m) => m.line), misses.map((m) => m.line));
  report.misses.forEach((m, i) => {
    const want = misses[i];
    assert.equal(m.query, cloudflareQueries[want.line - 1].query);
    assert.equal(m.lexical.rank, want.rank);
    assert.equal(m.lexical.expected?.score ?? null, want.score);
    assert.deepEqual(m.lexical.top.map((t) => t.name), want.top);
    assert.ok(m.lexical.top.every((t) => Array.isArray(t.inText)));
  });
  // A miss beyond the first 5 has its rank (Cloudflare's "get user details" is one).
  assert.ok(report.misses.some((m) => m.lexical.rank > 5), JSON.stringify(report.misses.map((m) => m.lexical.rank)));
});

test("eval --min-hit5: exit 5 below the share, 0 at or above it; a bad share is a usage error", () => {
  const { figures } = oracle(CLOUDFLARE, cloudflareQueries);
  assert.ok(figures.hit5 < 1);
  const below = bin(["eval", cloudflarePath, cloudflareQueriesPath, "--min-hit5", String(figures.hit5 + 0.001)]);
  assert.equal(below.status, 5, below.stderr);
  assert.match(below.stderr, new RegExp(`^toolshelf: lexical hit@5 ${share(figures.hit5)} is below --min-hit5 `, "m"));
  assert.match(below.stdout, /is below it$/m);
  const at = bin(["eval", cloudflarePath, cloudflareQueriesPath, "--min-hit5", String(figures.hit5), "--json"]);
  assert.equal(at.status, 0, at.stderr);
  assert.deepEqual(JSON.parse(at.stdout).minHit5, { min: figures.hit5, mode: "lexical", hit5: figures.hit5, passed: true });
  assert.equal(bin(["eval", cloudflarePath, cloudflareQueriesPath, "--min-hit5", "0"]).status, 0);
  for (const bad of ["90%", "1.5", "-0.1", "high"]) {
    const r = bin(["eval", cloudflarePath, cloudflareQueriesPath, "--min-hit5", bad]);
    assert.equal(r.status, 2, bad);
    assert.match(r.stderr, /--min-hit5: expected a share from 0 to 1/);
  }
});

test("eval: an expected name as shown, as the tool's own name or as server/tool counts alike; an own name two servers share counts for either", () => {
  const toolbox = grouped(["github-mcp-server", "linear-mcp-official"]);
  const path = file("github-linear.json", toolbox);
  const shelf = new Shelf(toolbox);
  const merge = shelf.search("merge pull request", { limit: 1 }).matches[0];
  assert.equal(merge.name, shelf.describe("merge_pull_request").name, "GitHub's merge_pull_request, first");
  // "list_issues" is GitHub's and Linear's: both answer the exact name; this query finds Linear's first.
  const pair = shelf.search("list_issues", { limit: 2 }).matches;
  assert.deepEqual(pair.map((m) => m.server).sort(), ["github", "linear"]);
  const query = "list issues in my linear workspace";
  const first = shelf.search(query, { limit: 1 }).matches[0];
  shelf.free();
  assert.equal(first.name, pair.find((m) => m.server === "linear").name);

  const figures = (expect, q = "merge pull request", options = []) => {
    const r = bin(["eval", path, file("forms.jsonl", jsonl([{ query: q, expect }])), "--json", ...options]);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout).figures.lexical;
  };
  for (const expect of [[merge.name], ["merge_pull_request"], ["github/merge_pull_request"], [merge.name, "merge_pull_request"]]) {
    assert.equal(figures(expect).hits1, 1, JSON.stringify(expect));
  }
  assert.equal(figures(["list_issues"], query).hits1, 1, "an own name counts on any server");
  assert.equal(figures(["github/list_issues"], query).hits1, 0, "server/tool is that server's only");
  assert.equal(figures(["github/list_issues", "linear/list_issues"], query).hits1, 1, "any one of the list");
  // qualify "auto" shows unclashed tools by their own names: server/tool and own names still resolve.
  const auto = ["--options", '{"qualify":"auto"}'];
  assert.equal(figures(["github/merge_pull_request"], "merge pull request", auto).hits1, 1);
  assert.equal(figures(["merge_pull_request"], "merge pull request", auto).hits1, 1);
  assert.equal(figures(["list_issues"], query, auto).hits1, 1, "the clashing pair, qualified, by their own name");
  assert.equal(figures(["github/list_issues"], query, auto).hits1, 0);
});

test("eval: each bad line of a queries file named by its number (exit 3); usage errors (exit 2)", () => {
  const good = JSON.stringify({ query: "create zone", expect: ["zones-post"] });
  const cases = [
    [`${good}\n\n{"query": "x", "expect": ["zones-post"],}\n`, /bad1\.jsonl:3:41: not valid JSON: expected a property name in double quotes, found '}'/],
    [`${good}\n{"expect": ["zones-post"]}\n`, /bad2\.jsonl:2: "query" must be the query's text, got none/],
    [`${good}\n{"query": "x", "expect": "zones-post"}\n`, /bad3\.jsonl:2: "expect" must be a list of one or more tool names, got "zones-post"/],
    [`${good}\n{"query": "x", "expect": []}\n`, /bad4\.jsonl:2: "expect" must be a list of one or more tool names, got \[\]/],
    [`${good}\n["create zone"]\n`, /bad5\.jsonl:2: expected an object \{"query": "\.\.\.", "expect": \["tool", \.\.\.\]\}, got a list/],
    [`${good}\n{"query": "x", "expect": ["no_such_tool"]}\n`, /bad6\.jsonl:2: no deferred tool of the toolbox answers to "no_such_tool"/],
    [`${good}\n{"query": "x", "expect": ["stripe/zones-post"]}\n`, /bad7\.jsonl:2: no deferred tool of the toolbox answers to "stripe\/zones-post"/],
    ["\n\n", /bad8\.jsonl: no queries/],
  ];
  cases.forEach(([text, message], i) => {
    const r = bin(["eval", cloudflarePath, file(`bad${i + 1}.jsonl`, text)]);
    assert.equal(r.status, 3, `case ${i + 1}: ${r.stderr}`);
    assert.match(r.stderr, message, `case ${i + 1}`);
    assert.equal(r.stdout, "", `case ${i + 1}: nothing on stdout`);
  });
  const missing = bin(["eval", cloudflarePath, join(dir, "missing.jsonl")]);
  assert.equal(missing.status, 3);
  assert.match(missing.stderr, /queries: no such file: .*missing\.jsonl/);
  for (const [args, message] of [
    [["eval", cloudflarePath], /eval needs a toolbox and a queries file/],
    [["eval", cloudflarePath, cloudflareQueriesPath, "extra"], /unexpected argument "extra" for eval/],
    [["eval", cloudflarePath, cloudflareQueriesPath, "--limit", "3"], /unknown flag --limit for eval \(a flag of search\)/],
    [["eval", "-", "-"], /only one input can be stdin/],
  ]) {
    const r = bin(args);
    assert.equal(r.status, 2, args.join(" "));
    assert.match(r.stderr, message);
    assert.match(r.stderr, /\nusage: toolshelf eval /);
  }
});

test("eval: the toolbox from stdin, the queries from a file; --help", () => {
  const r = toolshelf(["eval", "-", cloudflareQueriesPath, "--json"], { input: readFileSync(cloudflarePath, "utf8") });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).figures.lexical, oracle(CLOUDFLARE, cloudflareQueries).figures);
  for (const args of [["eval", "--help"], ["help", "eval"]]) {
    const help = bin(args);
    assert.equal(help.status, 0);
    assert.ok(help.stdout.startsWith("usage: toolshelf eval <toolbox.json | -> <queries.jsonl> [flags]"));
    assert.match(help.stdout, /--vectors <file>[\s\S]*--min-hit5 <share> +exit 5 when hit@5 is below it[\s\S]*--mcp-config <file>/);
  }
  assert.match(bin(["--help"]).stdout, /toolshelf eval +<toolbox\.json \| -> <queries\.jsonl>[\s\S]*  5  eval: hit@5 below --min-hit5/);
});

test("eval --mcp-config: the tools of a client config's servers, as tools/list gives them; a server left out is exit 4, a gate missed exit 5", async () => {
  const reference = everythingServer();
  const client = await reference.client();
  const { tools } = await client.listTools();
  await reference.close();
  const toolbox = { servers: { everything: tools } };
  const queries = [
    { query: "add two numbers", expect: ["get-sum"] },
    { query: "echo back a message", expect: ["everything/echo"] },
    { query: "print the environment variables", expect: ["get-env"] },
    { query: "a tiny picture", expect: ["get-tiny-image"] },
  ];
  const queriesPath = file("everything.jsonl", jsonl(queries));
  const shelf = new Shelf(toolbox, { format: "mcp", maxSearchLimit: 50 });
  const ranks = queries.map((q) => {
    const wanted = new Set(q.expect.map((e) => shelf.describe(e.replace("everything/", "")).name));
    const at = shelf.search(q.query, { limit: 50 }).matches.findIndex((m) => wanted.has(m.name));
    return at < 0 ? null : at + 1;
  });
  shelf.free();
  const hits5 = ranks.filter((r) => r !== null && r <= 5).length;
  const config = (servers) => file("eval-mcp.json", { mcpServers: servers });
  const everything = { command: process.execPath, args: [EVERYTHING, "stdio"] };
  const r = toolshelf(["eval", "--mcp-config", config({ everything }), queriesPath, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.toolbox.kind, "mcp-config");
  assert.equal(report.toolbox.deferredCount, tools.length);
  assert.equal(report.figures.lexical.hits1, ranks.filter((x) => x === 1).length);
  assert.equal(report.figures.lexical.hits5, hits5);

  const withMissing = config({ everything, missing: { command: join(dir, "no-such-mcp-server"), args: [] } });
  const partial = toolshelf(["eval", "--mcp-config", withMissing, queriesPath]);
  assert.equal(partial.status, 4, partial.stderr);
  assert.match(partial.stderr, /server "missing" left out/);
  assert.match(partial.stdout, /^4 queries of .*everything\.jsonl on \d+ deferred tools \(the MCP servers of .*eval-mcp\.json\)$/m);
  const unreachable = [...queries, { query: "frobnicate the quux", expect: ["echo"] }];
  const gated = toolshelf(["eval", "--mcp-config", withMissing, file("everything-miss.jsonl", jsonl(unreachable)), "--min-hit5", "1"]);
  assert.equal(gated.status, 5, `the gate's code before the partial one\n${gated.stderr}`);
});

test("eval --vectors: the hybrid figures beside the lexical ones are Shelf.search's with the query vectors", () => {
  const vectors = vectorsFor(CLOUDFLARE, cloudflareQueries, "keyword");
  const vectorsPath = file("cloudflare-vectors.json", vectors);
  const r = bin(["eval", cloudflarePath, cloudflareQueriesPath, "--vectors", vectorsPath, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.deepEqual(report.figures.lexical, oracle(CLOUDFLARE, cloudflareQueries).figures);
  const hybrid = oracle(CLOUDFLARE, cloudflareQueries, { vectors });
  assert.deepEqual(report.figures.hybrid, hybrid.figures);
  for (const m of report.misses) assert.equal(m.hybrid.rank, hybrid.answers[m.line - 1].rank, `line ${m.line}`);
  const text = bin(["eval", cloudflarePath, cloudflareQueriesPath, "--vectors", vectorsPath, "--min-hit5", "1"]);
  assert.match(text.stdout, new RegExp(`^hybrid +${share(hybrid.figures.hit1)} \\(${hybrid.figures.hits1}/42\\) +${share(hybrid.figures.hit5)} `, "m"));
  assert.match(text.stdout, /^--min-hit5 1: hybrid hit@5 /m, "with --vectors the gate is the hybrid's");
  assert.equal(text.status, hybrid.figures.hit5 < 1 ? 5 : 0);

  const noQuery = { ...vectors, queries: { ...vectors.queries } };
  delete noQuery.queries["create zone"];
  const missing = bin(["eval", cloudflarePath, cloudflareQueriesPath, "--vectors", file("no-query.json", noQuery)]);
  assert.equal(missing.status, 3);
  assert.match(missing.stderr, /no vector for the query of .*cloudflare\.jsonl:7 \("create zone"\)/);
  const short = bin(["eval", cloudflarePath, cloudflareQueriesPath, "--vectors", file("short.json", { ...vectors, queries: { ...vectors.queries, "create zone": [1, 2] } })]);
  assert.equal(short.status, 3);
  assert.match(short.stderr, /--vectors: the vector of the query of .*cloudflare\.jsonl:7: 2 dimensions, but the shelf's vectors have 384/);
  const model = bin(["eval", cloudflarePath, cloudflareQueriesPath, "--vectors", file("no-model.json", { tools: {}, queries: {} })]);
  assert.equal(model.status, 3);
  assert.match(model.stderr, /"model" must be the embedding model's name/);
});

// docs/search.md's tables, made on the core's SearchIndex with each catalog (or union) its own
// toolbox: "Retrieval today" (`cargo run --profile native --example retrieval`) and the hybrid
// column of "Semantic retrieval" (`--example retrieval_vectors`, the committed vectors). `eval` on
// the same toolboxes, through the package's Shelf, gives the same keyword and model figures.
test("eval on the labelled keyword and model sets, each catalog its own toolbox: the figures of docs/search.md, lexical and hybrid", () => {
  const page = readFileSync(join(repoDir, "docs", "search.md"), "utf8");
  const row = (section, set) => {
    const line = page.split(section)[1].split("\n").find((l) => l.startsWith(`| ${set} |`));
    assert.ok(line, `docs/search.md's ${section} has the ${set} row`);
    return line.split("|").map((c) => c.trim());
  };
  const documented = (set) => {
    const [, , queries, r1, r5, mrr] = row("## Retrieval today", set);
    const hybrid = row("## Semantic retrieval", set)[4].split(" / ");
    return {
      lexical: { queries: Number(queries), hit1: r1, hit5: r5, mrr10: mrr },
      hybrid: { queries: Number(queries), hit1: hybrid[0], hit5: hybrid[1], mrr10: hybrid[2] },
    };
  };
  for (const set of ["keyword", "model"]) {
    const sums = { lexical: { queries: 0, hits1: 0, hits5: 0, rr: 0 }, hybrid: { queries: 0, hits1: 0, hits5: 0, rr: 0 } };
    for (const [catalog, queries] of byCatalog(labelled(set))) {
      const toolbox = grouped(catalog.split("+"));
      const vectors = file(`${set}-${catalog}-vectors.json`, vectorsFor(toolbox, queries, set));
      const r = bin(["eval", file(`${set}-${catalog}.json`, toolbox), file(`${set}-${catalog}.jsonl`, jsonl(queries)), "--vectors", vectors, "--json"]);
      assert.equal(r.status, 0, `${set} ${catalog}: ${r.stderr}`);
      const report = JSON.parse(r.stdout).figures;
      for (const mode of ["lexical", "hybrid"]) {
        const f = report[mode];
        sums[mode].queries += f.queries;
        sums[mode].hits1 += f.hits1;
        sums[mode].hits5 += f.hits5;
        sums[mode].rr += f.mrr10 * f.queries;
      }
    }
    const figures = Object.fromEntries(Object.entries(sums).map(([mode, s]) => [mode, { queries: s.queries, hit1: share(s.hits1 / s.queries), hit5: share(s.hits5 / s.queries), mrr10: share(s.rr / s.queries) }]));
    assert.deepEqual(figures, documented(set), set);
  }
});
