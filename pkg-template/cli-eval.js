// `toolshelf eval`: how well a toolbox's search finds the tools labelled queries expect: hit@1,
// hit@5 and MRR@10 over the queries, and for each miss the ranked results with the words each
// matched (cli-explain.js) and where the expected tool ranked; lexically, and with `--vectors`
// also fused with embeddings (SPEC §12). Every rank and score is the core's (Shelf.search); an
// expected name is resolved by the core too (Shelf.describe, and the shown name of a server's
// tool from the wasm glue's toolName). `--min-hit5` makes it a gate for a team's CI (EXIT.below).
import { Shelf, ToolshelfError } from "./node.js";
import { toolName } from "./wasm/toolshelf.js";
import { EXIT, InputError, UsageError, note, warn } from "./cli-errors.js";
import { jsonError, parseJson, readStdin, readText } from "./cli-json.js";
import { inText } from "./cli-explain.js";
import { num } from "./cli-report.js";

/** How deep a search looks for the expected tool: the most one search returns (maxSearchLimit's cap). */
const DEPTH = 50;
/** The ranks hit@5 and MRR@10 look at. */
const TOP = 5;
const MRR_DEPTH = 10;

/** eval's help; `inputHelp` is the input and options part every command shares (cli.js). */
export const evalHelp = (inputHelp) => `usage: toolshelf eval <toolbox.json | -> <queries.jsonl> [flags]
       toolshelf eval --mcp-config <mcp.json> <queries.jsonl> [flags]

How well search finds the tools your queries expect. <queries.jsonl> holds one query a line:
  {"query": "list open pull requests", "expect": ["list_pull_requests", "search_pull_requests"]}
An expected name is the name the model is shown (by default mcp__github__list_pull_requests), a
tool's own name (any server's tool of that name), or server/tool (github/list_pull_requests); any
one of the list in the results counts as a hit. A name no deferred tool answers to, or a line that
is not such an object, is an error naming the line (exit 3). Blank lines are skipped.

Prints hit@1 and hit@5 (the share of queries with an expected tool first, in the first 5) and MRR@10
(the mean of 1/rank of the first expected tool, 0 past rank 10), then each miss: the query, its first
5 results with the query words each holds ("in text", as toolshelf search shows them), and the
expected tool's rank and score (searched to rank ${DEPTH}, the most a search returns). Ranks and scores
are the core's, as tool_search gives them with the options given.

  --vectors <file>        also rank with embeddings (hybrid), shown beside the lexical figures:
                          {"model": "<name>", "tools": {"<key>": [numbers], ...},
                           "queries": {"<query as written>": [numbers], ...}}
                          "tools" is what Shelf.setEmbeddings takes: vectors by the keys of
                          Shelf.embeddingTexts() (or a list in that order); every query needs one
  --min-hit5 <share>      exit ${EXIT.below} when hit@5 is below it (0 to 1: 0.9); with --vectors, the hybrid's
  --json                  the figures and the misses as JSON

${inputHelp}`;

/** A share as the report prints it. */
const share = (n) => n.toFixed(3);

/** The queries of a JSONL text: `[{ line, query, expect }]`; a bad line is an InputError naming it. */
export function readQueries(text, label) {
  const queries = [];
  const lines = text.split("\n");
  lines.forEach((raw, i) => {
    const line = i + 1;
    const body = (i === 0 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw).replace(/\r$/, "");
    if (body.trim() === "") return;
    const where = `${label}:${line}`;
    let value;
    try {
      value = JSON.parse(body);
    } catch (e) {
      const found = jsonError(body);
      throw new InputError(found ? `${where}:${found.position + 1}: not valid JSON: ${found.message}` : `${where}: not valid JSON (${e.message})`);
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new InputError(`${where}: expected an object {"query": "...", "expect": ["tool", ...]}, got ${Array.isArray(value) ? "a list" : JSON.stringify(value)}`);
    }
    const { query, expect } = value;
    if (typeof query !== "string" || query.trim() === "") {
      throw new InputError(`${where}: "query" must be the query's text, got ${query === undefined ? "none" : JSON.stringify(query)}`);
    }
    if (!Array.isArray(expect) || expect.length === 0 || !expect.every((e) => typeof e === "string" && e !== "")) {
      throw new InputError(`${where}: "expect" must be a list of one or more tool names, got ${expect === undefined ? "none" : JSON.stringify(expect)}`);
    }
    queries.push({ line, query, expect });
  });
  if (queries.length === 0) throw new InputError(`${label}: no queries (one JSON object a line: {"query": "...", "expect": ["tool"]})`);
  return queries;
}

/** `--min-hit5`'s value: a share from 0 to 1. */
function minShare(value) {
  const n = /^(?:0|1|0?\.\d+|[01]\.\d*)$/.test(value) ? Number(value) : NaN;
  if (!(n >= 0 && n <= 1)) throw new UsageError(`--min-hit5: expected a share from 0 to 1 (0.9), got ${JSON.stringify(value)}`);
  return n;
}

/** `--vectors`' file: `{ model, tools, queries }`, checked for shape (the vectors themselves by the core). */
function readVectors(path) {
  const json = parseJson(readText(path, "--vectors"), { label: path, file: true, Kind: InputError });
  const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!isObject(json)) throw new InputError(`--vectors ${path}: expected {"model", "tools", "queries"}, got ${Array.isArray(json) ? "a list" : JSON.stringify(json)}`);
  if (typeof json.model !== "string") throw new InputError(`--vectors ${path}: "model" must be the embedding model's name`);
  if (!isObject(json.tools) && !Array.isArray(json.tools)) throw new InputError(`--vectors ${path}: "tools" must be the tools' vectors by key (Shelf.embeddingTexts() keys) or a list in that order`);
  if (!isObject(json.queries)) throw new InputError(`--vectors ${path}: "queries" must be an object of vectors by query text`);
  return json;
}

/**
 * The shown names an expected name stands for, asked of the core: the tool `describe` finds by it
 * (a shown name, or an own name only one tool has), a server's tool by `server/tool`, and every
 * server's tool whose own name it is (by the name `toolName(server, name)` shows it under, which
 * describe finds whenever the tool is shown so: by default, or when qualify "auto" qualifies it).
 */
function resolver(shelf, servers) {
  const cache = new Map();
  const found = (name) => shelf.describe(name)?.name;
  return (expected) => {
    if (cache.has(expected)) return cache.get(expected);
    const names = new Set();
    const slash = expected.indexOf("/");
    const server = slash > 0 ? servers.find((s) => expected.startsWith(`${s}/`) && expected.length > s.length + 1) : undefined;
    if (server !== undefined) {
      // The name shown by default, or (qualify "auto" or false) the own name if that server's.
      const own = expected.slice(server.length + 1);
      const described = shelf.describe(toolName(server, own)) ?? shelf.describe(own);
      if (described?.server === server) names.add(described.name);
    } else {
      const name = found(expected);
      if (name !== undefined) names.add(name);
      for (const s of servers) {
        const other = found(toolName(s, expected));
        if (other !== undefined) names.add(other);
      }
    }
    cache.set(expected, names);
    return names;
  };
}

/** One mode's answer to a query: the expected tool's place and the first results, with the words each holds. */
function judge(shelf, q, wanted, options, label) {
  let result;
  try {
    result = shelf.search(q.query, { limit: DEPTH, ...options });
  } catch (e) {
    if (e instanceof ToolshelfError && options.vector !== undefined) throw new InputError(`--vectors: the vector of the query of ${label}:${q.line}: ${e.message}`);
    throw e;
  }
  const at = result.matches.findIndex((m) => wanted.has(m.name));
  const hit = at >= 0 ? result.matches[at] : undefined;
  return {
    rank: at >= 0 ? at + 1 : null,
    expected: hit ? { name: hit.name, server: hit.server, rank: at + 1, score: hit.score, partial: hit.partial } : null,
    searched: result.matches.length,
    unknownWords: result.unknownWords,
    top: result.matches.slice(0, TOP).map((m) => {
      let described;
      try {
        described = shelf.describe(m.name);
      } catch {
        // the name and description are still compared
      }
      return { name: m.name, server: m.server, score: m.score, partial: m.partial, inText: inText(q.query, result.unknownWords, m, described) };
    }),
  };
}

/** hit@1, hit@5 and MRR@10 of the ranks (null: not found). */
function figures(ranks) {
  const n = ranks.length;
  const hits1 = ranks.filter((r) => r === 1).length;
  const hits5 = ranks.filter((r) => r !== null && r <= TOP).length;
  const rr = ranks.reduce((sum, r) => sum + (r !== null && r <= MRR_DEPTH ? 1 / r : 0), 0);
  return { queries: n, hits1, hits5, hit1: hits1 / n, hit5: hits5 / n, mrr10: rr / n };
}

/** Where the expected tool was, in words. */
function placeText(answer) {
  const e = answer.expected;
  if (e) return `${e.name} at rank ${e.rank}, score ${e.score === null ? "-" : e.score.toFixed(2)}${e.partial ? ", partial" : ""}`;
  return answer.searched < DEPTH ? `not found (the search matched ${answer.searched} tool${answer.searched === 1 ? "" : "s"})` : `not in the first ${DEPTH}`;
}

/** The report as text. */
function report({ label, queriesLabel, deferred, modes, stats, misses, gate }) {
  const out = [];
  out.push(`${num(stats[modes[0]].queries)} quer${stats[modes[0]].queries === 1 ? "y" : "ies"} of ${queriesLabel} on ${num(deferred)} deferred tools (${label})`, "");
  const rows = [["", "hit@1", "hit@5", "MRR@10"], ...modes.map((m) => {
    const s = stats[m];
    return [m, `${share(s.hit1)} (${s.hits1}/${s.queries})`, `${share(s.hit5)} (${s.hits5}/${s.queries})`, share(s.mrr10)];
  })];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) out.push(r.map((cell, c) => cell.padEnd(widths[c])).join("  ").trimEnd());
  out.push("");
  if (misses.length === 0) {
    out.push(`misses: none (every query has an expected tool in the first ${TOP}${modes.length > 1 ? " in each mode" : ""})`);
  } else {
    out.push(`misses: ${misses.length} (no expected tool in the first ${TOP}${modes.length > 1 ? " in some mode" : ""})`);
    for (const miss of misses) {
      out.push("", `${queriesLabel}:${miss.line}  ${JSON.stringify(miss.query)}`, `  expected: ${miss.expect.join(", ")}`);
      for (const m of modes) {
        const answer = miss[m];
        out.push(`  ${m}: ${placeText(answer)}${answer.rank !== null && answer.rank <= TOP ? " (a hit)" : ""}`);
        if (answer.unknownWords.length) out.push(`    unknown words: ${answer.unknownWords.join(", ")}`);
        const nameWidth = Math.max(...answer.top.map((t) => t.name.length));
        answer.top.forEach((t, i) => {
          const score = t.score === null ? "-" : t.score.toFixed(2);
          out.push(`    ${i + 1}. ${t.name.padEnd(nameWidth)}  score ${score}${t.partial ? "  partial" : ""}  in text: ${t.inText.length ? t.inText.join(", ") : "none"}`);
        });
      }
    }
    out.push("", "ranks, scores, partial and unknown words are the core's; in text: the query's words the CLI finds in the tool's",
      "name, server, description or parameters (as toolshelf search shows them).");
  }
  if (gate) out.push("", `--min-hit5 ${gate.min}: ${gate.mode} hit@5 ${share(gate.hit5)} ${gate.passed ? "reaches it" : "is below it"}`);
  return out.join("\n");
}

/**
 * eval: the figures of the queries file on the toolbox. `loadInput(flags, file)` is the CLI's
 * reader of a toolbox (a file, stdin or --mcp-config), as the other commands use it.
 */
export async function evaluate({ flags, positionals }, { loadInput }) {
  const fromConfig = flags["--mcp-config"] !== undefined;
  const [file, queriesPath, ...rest] = fromConfig ? [undefined, ...positionals] : positionals;
  if (rest.length) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])} for eval (it takes a toolbox and a queries file)`);
  if (queriesPath === undefined) throw new UsageError(`eval needs ${fromConfig ? "" : "a toolbox and "}a queries file: toolshelf eval ${fromConfig ? "--mcp-config mcp.json" : "toolbox.json"} queries.jsonl`);
  const min = flags["--min-hit5"] === undefined ? undefined : minShare(flags["--min-hit5"]);
  if (queriesPath === "-" && (file === "-" || (fromConfig && flags["--mcp-config"] === "-"))) throw new UsageError("only one input can be stdin: the toolbox or the queries");
  const queriesLabel = queriesPath === "-" ? "stdin" : queriesPath;
  const queries = readQueries(queriesPath === "-" ? await readStdin("queries") : readText(queriesPath, "queries"), queriesLabel);
  const vectors = flags["--vectors"] === undefined ? undefined : readVectors(flags["--vectors"]);
  if (vectors) {
    const missing = queries.find((q) => !Object.hasOwn(vectors.queries, q.query));
    if (missing) throw new InputError(`--vectors ${flags["--vectors"]}: no vector for the query of ${queriesLabel}:${missing.line} (${JSON.stringify(missing.query)}): "queries" holds them by the query's text`);
  }

  const input = await loadInput(flags, file);
  // The rank of an expected tool is looked for as deep as a search goes; maxSearchLimit changes
  // how many matches a search may return, not their order.
  const shelf = new Shelf(input.toolbox, { ...input.options, maxSearchLimit: DEPTH });
  try {
    const assembly = shelf.assemble();
    for (const w of assembly.warnings) warn(w);
    const resolve = resolver(shelf, assembly.servers.map((s) => s.name));
    const wanted = queries.map((q) => {
      const names = new Set();
      for (const e of q.expect) {
        const found = resolve(e);
        if (found.size === 0) {
          throw new InputError(`${queriesLabel}:${q.line}: no deferred tool of the toolbox answers to ${JSON.stringify(e)} (the name the model is shown with these options, a tool's own name, or <server>/<tool>)`);
        }
        for (const n of found) names.add(n);
      }
      return names;
    });
    const modes = ["lexical"];
    if (vectors) {
      let stored;
      try {
        stored = shelf.setEmbeddings({ model: vectors.model, vectors: vectors.tools });
      } catch (e) {
        if (e instanceof ToolshelfError) throw new InputError(`--vectors ${flags["--vectors"]}: ${e.message}`);
        throw e;
      }
      if (stored.missing > 0) warn(`--vectors: ${stored.missing} of ${num(stored.stored + stored.missing)} deferred tools have no vector (those are ranked lexically only)`);
      if (stored.unknownKeys.length > 0) warn(`--vectors: ${stored.unknownKeys.length} tool vectors have a key no deferred tool has (ignored)`);
      modes.push("hybrid");
    }
    const answers = queries.map((q, i) => {
      const answer = { lexical: judge(shelf, q, wanted[i], {}, queriesLabel) };
      if (vectors) answer.hybrid = judge(shelf, q, wanted[i], { vector: vectors.queries[q.query] }, queriesLabel);
      return answer;
    });
    const stats = Object.fromEntries(modes.map((m) => [m, figures(answers.map((a) => a[m].rank))]));
    const misses = [];
    queries.forEach((q, i) => {
      if (modes.some((m) => !(answers[i][m].rank !== null && answers[i][m].rank <= TOP))) misses.push({ ...q, ...answers[i] });
    });
    const gateMode = modes.at(-1);
    const gate = min === undefined ? undefined : { min, mode: gateMode, hit5: stats[gateMode].hit5, passed: stats[gateMode].hit5 >= min };
    const source = { ...input.source, deferredCount: assembly.deferredCount };
    if (flags["--json"]) {
      const json = {
        toolbox: source,
        queries: { path: queriesPath, count: queries.length },
        figures: stats,
        misses: misses.map((miss) => ({ line: miss.line, query: miss.query, expect: miss.expect, ...Object.fromEntries(modes.map((m) => [m, miss[m]])) })),
      };
      if (gate) json.minHit5 = gate;
      console.log(JSON.stringify(json, null, 2));
    } else {
      const label = input.source.kind === "mcp-config" ? `the MCP servers of ${input.source.path === "-" ? "stdin" : input.source.path}` : input.source.path === "-" ? "stdin" : input.source.path;
      console.log(report({ label, queriesLabel, deferred: assembly.deferredCount, modes, stats, misses, gate }));
    }
    if (gate && !gate.passed) {
      note(`${gate.mode} hit@5 ${share(gate.hit5)} is below --min-hit5 ${gate.min}`);
      return EXIT.below;
    }
    return input.partial ? EXIT.partial : EXIT.ok;
  } finally {
    shelf.free();
  }
}
