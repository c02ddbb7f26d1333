#!/usr/bin/env node
// The package's command line (docs/cli.md), for a person trying a toolbox from the shell and for
// build steps: `inspect` shows what the model would see (tier, form, listing, per-server levels,
// the cost of a request eagerly, through the bridge and natively), `search` ranks the deferred
// tools for a query as the model's tool_search would, `snapshot` writes the bytes
// `Shelf.fromSnapshot` loads (SPEC §13). The toolbox comes from a JSON file, stdin, or the
// tools/list of every server in an MCP client config (`--mcp-config`, through the optional peer
// @modelcontextprotocol/sdk). `serve` runs toolshelf/gateway: an MCP server over stdio (or
// Streamable HTTP with --port) in front of every server of an MCP client config (docs/gateway.md).
// Warnings and failures go to stderr; exit codes are in EXIT. This file holds the commands and their
// help; each other job has its own module: cli-args.js (arguments), cli-json.js (JSON read with its
// errors' places), cli-mcp.js (the MCP connector), cli-report.js (inspect's costs and text),
// cli-explain.js (why a search matched), cli-eval.js (eval: labelled queries' figures and misses),
// cli-errors.js (exit codes, errors, stderr).
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { Shelf, ToolshelfError, assemble } from "./node.js";
import { EXIT, InputError, UsageError, note, warn } from "./cli-errors.js";
import { parseArgs, positiveInteger } from "./cli-args.js";
import { parseJson, readOptions, readStdin, readText } from "./cli-json.js";
import { SDK_MISSING, mcpToolbox } from "./cli-mcp.js";
import { formatOf, givenTools, inspectText, num, requestCosts, short } from "./cli-report.js";
import { inText } from "./cli-explain.js";
import { evalHelp, evaluate } from "./cli-eval.js";

const FORMATS = ["openai", "responses", "anthropic", "mcp", "gemini"];
const DEFAULT_TIMEOUT_MS = 10_000;
const DOCS = "https://github.com/toolshelf/toolshelf/blob/main/docs/cli.md";

// ---------------------------------------------------------------------------------------------
// Help

const INPUT_HELP = `input (one of):
  <toolbox.json>          a toolbox: a JSON list of tools, or {"tools": [...], "servers": {"name": [...]}}
  -                       the toolbox's JSON from stdin (inspect and snapshot also read a piped
                          stdin when no file is given)
  --mcp-config <file>     every server of an MCP client config ({"mcpServers": {...}} as Claude Desktop,
                          Cursor and VS Code write it; "-" for stdin): their tools/list, one server
                          each (needs @modelcontextprotocol/sdk installed); its "toolshelf" key's
                          options are used as toolshelf serve uses them (--options laid over them)
  --timeout <ms>          per MCP server, to start and list its tools (default ${DEFAULT_TIMEOUT_MS})

options:
  --options <json|file>   the options of new Shelf, JSON text or a JSON file: '{"contextLength":200000}'
  --format <format>       the tool format instead of detecting it: ${FORMATS.join(", ")};
                          with --mcp-config, the format the servers' tools are given in (default mcp)
  -h, --help              this help`;

const SERVE_HELP = `usage: toolshelf serve --config <mcp.json> [flags]

An MCP server (over stdio, or Streamable HTTP with --port) in front of every server of an MCP client
config: it serves the bridge tools (tool_search with the listing of every upstream tool in its
description, tool_describe, tool_call) and the tools of the servers the config pins, and runs each
call on its upstream, its result passed back as the upstream sent it. Toolshelf options come from the
config's "toolshelf" key ({"alwaysLoad": ["server"], "contextLength": 200000}) and --options.
Warnings go to stderr; stdout is the MCP connection. Docs: docs/gateway.md.

  --config <mcp.json>     the MCP client config ({"mcpServers": {...}}; also --mcp-config); "\${NAME}"
                          in an HTTP server's url or headers is the environment variable NAME
  --options <json|file>   toolshelf options, laid over the config's "toolshelf" key
  --timeout <ms>          per upstream, to start and list its tools (default ${DEFAULT_TIMEOUT_MS})
  --call-timeout <ms>     per call, in all: progress does not extend it (default 60000)
  --port <n>              serve Streamable HTTP at http://<host>:<n>/mcp instead of stdio; the bearer
                          token is $TOOLSHELF_GATEWAY_TOKEN (one is made and printed when unset)
  --host <host>           the address --port listens on (default 127.0.0.1)
  --allow-origin <list>   origins (comma-separated) whose browsers may call --port; a request with
                          another Origin gets 403

needs @modelcontextprotocol/sdk: npx -y -p toolshelf -p @modelcontextprotocol/sdk toolshelf serve --config mcp.json`;

const HELP = {
  toolshelf: `toolshelf: keep many MCP tools behind a search tool; try a toolbox from the shell

usage:
  toolshelf inspect  [<toolbox.json> | -] [flags]           what the model sees: tier, listing, cost per request
  toolshelf search   <toolbox.json | -> <query...> [flags]  the deferred tools a query finds, ranked, with why
  toolshelf snapshot [<toolbox.json> | -] -o <shelf.bin>    the bytes Shelf.fromSnapshot loads, for build steps
  toolshelf eval     <toolbox.json | -> <queries.jsonl>     hit@1, hit@5, MRR of labelled queries, and each miss
  toolshelf serve --config <mcp.json> [--port <n>]          an MCP server: every server of the config behind tool_search
  toolshelf help <command>                                  a command's flags (or: toolshelf <command> --help)
  toolshelf --version

${INPUT_HELP}

exit codes:
  0  ok
  1  toolshelf refused the toolbox (its error code is printed: invalid_toolbox, duplicate_tool, ...)
  2  usage: an unknown command or flag, a bad flag value, --options that is not a JSON object
  3  input not read: a file missing, unreadable or not JSON, empty stdin, @modelcontextprotocol/sdk
     missing, every MCP server failed; or the snapshot not written
  4  done, but some MCP servers were left out (each one reported on stderr)
  5  eval: hit@5 below --min-hit5

More: ${DOCS}`,

  inspect: `usage: toolshelf inspect [<toolbox.json> | - | --mcp-config <mcp.json>] [flags]

What the model would be given for the toolbox: tier and form, the listing budget, each server's
level and tool count, the listing (the search tool's description, as the model reads it), what one
request costs in context tokens and request bytes eagerly (every schema: enabled "off"), through the
bridge and natively (mode "native": Anthropic and OpenAI Responses formats; an MCP toolbox is also
shown converted to both), and the assembly's warnings.

  --json                  the report as JSON (the assembly's facts, the listing, the costs, warnings)
  --no-listing            leave the listing text out of the report

${INPUT_HELP}`,

  search: `usage: toolshelf search <toolbox.json | -> <query...> [flags]
       toolshelf search --mcp-config <mcp.json> <query...> [flags]

The deferred tools that a tool_search for <query> returns, best first: name, server, the core's
score, whether the match is partial (it misses a distinctive query word), the description and the
required parameters. "unknown words" are query words no tool holds (the core's). "in text" lists the
query words the CLI finds in the tool's name, server, description or parameters by a plain
comparison (lowercase, common suffixes dropped): the core's ranking also stems, folds synonyms
(add → create) and gives a tool a share of its server's best score, so it can rank a tool on more
than "in text" shows. Words after "--" are query words even when they start with "-".

  --limit <n>             how many matches (default: the searchDefaultLimit option, 5; at most
                          maxSearchLimit, 20 unless --options raises it, up to 50)
  --json                  the core's search result as JSON, each match with "inText" added

${INPUT_HELP}`,

  snapshot: `usage: toolshelf snapshot [<toolbox.json> | - | --mcp-config <mcp.json>] -o <shelf.bin> [flags]

Prepares the toolbox with the options new Shelf takes, search index included, and writes a snapshot
for Shelf.fromSnapshot(bytes[, toolbox, options]).

  -o, --output <file>     where to write the snapshot (required)
  --without-toolbox       leave the toolbox's text out (fromSnapshot then needs the toolbox)

${INPUT_HELP}`,

  serve: SERVE_HELP,
  eval: evalHelp(INPUT_HELP),
};

// ---------------------------------------------------------------------------------------------
// The command line

/** Flags every command takes: `true` when the flag takes a value. */
const COMMON_FLAGS = { "--options": true, "--format": true, "--mcp-config": true, "--timeout": true, "--help": false };
const FLAGS = {
  inspect: { ...COMMON_FLAGS, "--json": false, "--no-listing": false },
  search: { ...COMMON_FLAGS, "--json": false, "--limit": true },
  snapshot: { ...COMMON_FLAGS, "--output": true, "--without-toolbox": false },
  eval: { ...COMMON_FLAGS, "--json": false, "--vectors": true, "--min-hit5": true },
  serve: { "--config": true, "--mcp-config": true, "--options": true, "--timeout": true, "--call-timeout": true, "--port": true, "--host": true, "--allow-origin": true, "--help": false },
};
const SHORT = { "-h": "--help", "-o": "--output" };

// ---------------------------------------------------------------------------------------------
// The toolbox: a file, stdin, or an MCP client config

/**
 * The toolbox and options a command works on, from its flags and the positional argument naming
 * the toolbox (undefined: stdin when piped). `partial` when MCP servers were left out.
 */
async function loadInput(flags, file) {
  // No --options: none given to the core (a snapshot records the options text, so `{}` would differ).
  let options = flags["--options"] === undefined ? undefined : readOptions(flags["--options"]);
  const format = flags["--format"];
  if (format !== undefined && !FORMATS.includes(format)) {
    throw new UsageError(`--format: expected one of ${FORMATS.join(", ")}, got ${JSON.stringify(format)}`);
  }
  const timeout = flags["--timeout"] === undefined ? DEFAULT_TIMEOUT_MS : positiveInteger("--timeout", flags["--timeout"]);
  if (flags["--timeout"] !== undefined && flags["--mcp-config"] === undefined) throw new UsageError("--timeout is for --mcp-config (the time each server has)");
  if (flags["--mcp-config"] !== undefined) {
    const config = flags["--mcp-config"];
    const text = config === "-" ? await readStdin("--mcp-config") : readText(config, "--mcp-config");
    const json = parseJson(text, { label: config === "-" ? "--mcp-config stdin" : config, file: true, Kind: InputError });
    const { servers, failed, total } = await mcpToolbox(json, { format: format ?? "mcp", timeout, label: config === "-" ? "stdin" : config });
    // The config's "toolshelf" options under --options, as toolshelf serve reads them: what inspect
    // shows and what a snapshot records are what the gateway serves from the same config.
    const own = json["toolshelf"];
    if (own !== undefined && (own === null || typeof own !== "object" || Array.isArray(own))) {
      throw new InputError(`--mcp-config ${config === "-" ? "stdin" : config}: "toolshelf" is not an object of toolshelf options`);
    }
    options = { ...own, ...options, format: format ?? "mcp" };
    return { toolbox: { servers }, options, source: { kind: "mcp-config", path: config, servers: total, failed }, partial: failed.length > 0 };
  }
  if (format !== undefined) options = { ...options, format };
  const fromStdin = file === undefined || file === "-";
  const label = fromStdin ? "stdin" : file;
  const text = fromStdin ? await readStdin("toolbox") : readText(file, "toolbox");
  const toolbox = parseJson(text, { label, file: true, Kind: InputError });
  if (toolbox !== null && typeof toolbox === "object" && !Array.isArray(toolbox) && "mcpServers" in toolbox) {
    throw new UsageError(`${label} is an MCP client config, not a toolbox: use --mcp-config ${fromStdin ? "-" : file}`);
  }
  return { toolbox, options, source: { kind: fromStdin ? "stdin" : "file", path: fromStdin ? "-" : file }, partial: false };
}

const toolName = (t) => t?.function?.name ?? t?.name ?? (t?.type === "tool_search" ? "tool_search (client)" : "?");

// ---------------------------------------------------------------------------------------------
// Commands

/** inspect: the assembly of the toolbox with the options, and its cost in each mode. */
async function inspect({ flags, positionals }) {
  if (positionals.length > (flags["--mcp-config"] === undefined ? 1 : 0)) {
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals.at(-1))} for inspect (it takes one toolbox)`);
  }
  const input = await loadInput(flags, positionals[0]);
  const { toolbox, options } = input;
  const given = givenTools(toolbox);
  const main = assemble(toolbox, options);
  const searchTool = main.tools.find((t) => !given.has(t));
  const eager = assemble(toolbox, { ...options, enabled: "off" });
  const format = options?.format ?? formatOf(searchTool) ?? formatOf(eager.tools[0]);
  const { costsFormat, costs } = requestCosts(toolbox, options, format, main.deferredCount);
  const report = {
    source: input.source,
    format: format ?? null,
    tier: main.tier,
    form: main.form,
    mode: main.mode,
    directCount: eager.tools.length - main.deferredCount,
    deferredCount: main.deferredCount,
    deferredTokens: main.deferredTokens,
    budgetTokens: main.budgetTokens,
    listingTokens: main.listingTokens,
    servers: main.servers,
    fingerprint: main.fingerprint,
    costsFormat: costsFormat ?? null,
    listing: searchTool ? { tool: toolName(searchTool), description: searchTool.description ?? searchTool.function?.description ?? "" } : null,
    costs,
    warnings: main.warnings,
  };
  if (flags["--no-listing"]) delete report.listing;
  if (flags["--json"]) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    console.log(inspectText(report, options));
  }
  return input.partial ? EXIT.partial : EXIT.ok;
}

/** search: the deferred tools a query finds, as the model's tool_search would get them. */
async function search({ flags, positionals }) {
  const fromConfig = flags["--mcp-config"] !== undefined;
  const [file, ...rest] = fromConfig ? [undefined, ...positionals] : positionals;
  const query = rest.join(" ").trim();
  if (file === undefined && !fromConfig) throw new UsageError("search needs a toolbox and a query: toolshelf search <toolbox.json | -> <query...>");
  if (query === "") throw new UsageError(`search needs a query after the toolbox: toolshelf search ${file ?? "--mcp-config <mcp.json>"} "create an issue"`);
  const limit = flags["--limit"] === undefined ? undefined : positiveInteger("--limit", flags["--limit"]);
  if (file !== undefined && file !== "-" && !fromConfig) {
    let exists = true;
    try {
      statSync(file);
    } catch {
      exists = false;
    }
    if (!exists) throw new InputError(`toolbox: no such file: ${file} (to read the toolbox from stdin: toolshelf search - <query...>)`);
  }
  const input = await loadInput(flags, file);
  const shelf = new Shelf(input.toolbox, input.options);
  let result;
  let matches;
  try {
    for (const w of shelf.assemble().warnings) warn(w);
    result = shelf.search(query, limit === undefined ? undefined : { limit });
    matches = result.matches.map((m) => {
      let described;
      try {
        described = shelf.describe(m.name);
      } catch {
        // the description and name are still compared
      }
      return { ...m, inText: inText(query, result.unknownWords, m, described) };
    });
  } finally {
    shelf.free();
  }
  const max = Number(input.options?.maxSearchLimit ?? input.options?.max_search_limit ?? 20);
  if (limit !== undefined && limit > max) warn(`--limit ${limit} is above maxSearchLimit (${max}): at most ${max} matches (--options '{"maxSearchLimit":50}' raises it, to 50)`);
  if (result.error) throw new UsageError(`search: ${result.error}`);
  if (flags["--json"]) {
    console.log(JSON.stringify({ ...result, matches }, null, 2));
    return input.partial ? EXIT.partial : EXIT.ok;
  }
  const out = [];
  const of = `${num(result.totalAvailable)} deferred tool${result.totalAvailable === 1 ? "" : "s"}`;
  out.push(`${JSON.stringify(query)}: ${matches.length} match${matches.length === 1 ? "" : "es"} of ${of}`);
  if (result.unknownWords.length) out.push(`unknown words: ${result.unknownWords.join(", ")} (no tool holds them, so every match is partial)`);
  if (matches.length === 0) {
    out.push(`no tool shares a word with the query${result.servers?.length ? `; servers: ${result.servers.map((s) => `${s.name} (${num(s.tools)} tools)`).join(", ")}` : ""}`);
  } else {
    const nameWidth = Math.max(...matches.map((m) => m.name.length));
    const serverWidth = Math.max(...matches.map((m) => m.server.length));
    const rankWidth = String(matches.length).length;
    const indent = " ".repeat(rankWidth + 2);
    matches.forEach((m, i) => {
      out.push("");
      out.push(`${String(i + 1).padStart(rankWidth)}. ${m.name.padEnd(nameWidth)}  ${m.server.padEnd(serverWidth)}  score ${m.score.toFixed(2)}${m.partial ? "  partial" : ""}`);
      if (m.description) out.push(`${indent}${short(m.description, 100)}`);
      const facts = [`in text: ${m.inText.length ? m.inText.join(", ") : "none"}`];
      if (m.required.length) facts.push(`required: ${m.required.join(", ")}`);
      out.push(`${indent}${facts.join("   ")}`);
    });
    out.push("", "score, partial and unknown words are the core's. in text: the query's words the CLI finds in the tool's name, server,",
      "description or parameters by a plain comparison (the ranking also stems, folds synonyms and shares a server's score).");
  }
  console.log(out.join("\n"));
  return input.partial ? EXIT.partial : EXIT.ok;
}

/** snapshot: the bytes of `new Shelf(toolbox, options).snapshot()`, written to -o. */
async function snapshot({ flags, positionals }) {
  if (positionals.length > (flags["--mcp-config"] === undefined ? 1 : 0)) {
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals.at(-1))} for snapshot (it takes one toolbox; -o names the output)`);
  }
  const output = flags["--output"];
  if (output === undefined || output === "") throw new UsageError("snapshot needs -o <file>: toolshelf snapshot toolbox.json -o shelf.bin");
  const input = await loadInput(flags, positionals[0]);
  const holdToolbox = !flags["--without-toolbox"];
  const shelf = new Shelf(input.toolbox, input.options);
  let bytes;
  let facts;
  try {
    facts = shelf.assemble();
    for (const w of facts.warnings) warn(w);
    bytes = shelf.snapshot({ toolbox: holdToolbox });
  } finally {
    shelf.free();
  }
  try {
    writeFileSync(output, bytes);
  } catch (e) {
    throw new InputError(`-o ${output}: cannot write the snapshot: ${e.code === "ENOENT" ? "no such directory" : e.message}`);
  }
  console.log(`${output}: ${bytes.length} bytes (${facts.deferredCount} deferred tools, tier ${facts.tier}${holdToolbox ? ", toolbox held" : ""})`);
  return input.partial ? EXIT.partial : EXIT.ok;
}

/** serve's module (serve.js), whose static imports need the MCP SDK (an optional peer dependency). */
async function serveModule() {
  try {
    return await import("./serve.js");
  } catch (e) {
    if (e?.code === "ERR_MODULE_NOT_FOUND" && e.message.includes("@modelcontextprotocol/sdk")) {
      throw new InputError(SDK_MISSING.replace("--mcp-config needs", "serve needs").replace("toolshelf ...", "toolshelf serve --config mcp.json"));
    }
    throw e;
  }
}

/** serve: toolshelf/gateway over stdio (or Streamable HTTP with --port) until the client goes (serve.js). */
async function serve({ flags, positionals }) {
  if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} for serve (the config is given with --config)`);
  if (flags["--config"] !== undefined && flags["--mcp-config"] !== undefined) throw new UsageError("--config and --mcp-config are the same flag: give one");
  const path = flags["--config"] ?? flags["--mcp-config"];
  if (path === undefined) throw new UsageError("serve needs --config <mcp.json>: toolshelf serve --config ~/.cursor/mcp.json");
  if (path === "-") throw new UsageError("serve reads its config from a file: stdin is the MCP connection");
  const options = flags["--options"] === undefined ? undefined : readOptions(flags["--options"]);
  const timeout = flags["--timeout"] === undefined ? DEFAULT_TIMEOUT_MS : positiveInteger("--timeout", flags["--timeout"]);
  const callTimeout = flags["--call-timeout"] === undefined ? undefined : positiveInteger("--call-timeout", flags["--call-timeout"]);
  const port = flags["--port"] === undefined ? undefined : /^\d+$/.test(flags["--port"]) && Number(flags["--port"]) <= 65535 ? Number(flags["--port"]) : NaN;
  if (Number.isNaN(port)) throw new UsageError(`--port: expected a port number, got ${JSON.stringify(flags["--port"])}`);
  for (const flag of ["--host", "--allow-origin"]) if (flags[flag] !== undefined && port === undefined) throw new UsageError(`${flag} is for --port (Streamable HTTP)`);
  const allowedOrigins = flags["--allow-origin"] === undefined ? [] : flags["--allow-origin"].split(",").map((o) => o.trim()).filter(Boolean);
  for (const origin of allowedOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) throw new UsageError(`--allow-origin: ${JSON.stringify(origin)} is not an origin (scheme://host[:port], no path: https://app.example.com)`);
  }
  const config = parseJson(readText(path, "--config"), { label: path, file: true, Kind: InputError });
  const module = await serveModule();
  const version = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")).version;
  return module.serve({ config, path, options, timeout, callTimeout, port, host: flags["--host"], allowedOrigins, version, note, warn });
}

const COMMANDS = { inspect, search, snapshot, serve, eval: (parsed) => evaluate(parsed, { loadInput }) };

async function main(args) {
  const [first, ...rest] = args;
  if (first === undefined) {
    console.error(HELP.toolshelf);
    return EXIT.usage;
  }
  if (first === "-h" || first === "--help") {
    console.log(HELP.toolshelf);
    return EXIT.ok;
  }
  if (first === "-V" || first === "--version") {
    console.log(JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")).version);
    return EXIT.ok;
  }
  if (first === "help") {
    const topic = rest[0] ?? "toolshelf";
    if (!(topic in HELP)) throw new UsageError(`unknown command ${JSON.stringify(topic)}: toolshelf help lists inspect, search, snapshot, serve and eval`);
    console.log(HELP[topic]);
    return EXIT.ok;
  }
  if (!(first in COMMANDS)) {
    throw new UsageError(first.startsWith("-")
      ? `unknown flag ${first}: a command comes first (inspect, search, snapshot, serve, eval); toolshelf --help`
      : `unknown command ${JSON.stringify(first)}: the commands are inspect, search, snapshot, serve and eval; toolshelf --help`);
  }
  const parsed = parseArgs(first, rest, { FLAGS, SHORT });
  if (parsed.help) {
    console.log(HELP[first]);
    return EXIT.ok;
  }
  return COMMANDS[first](parsed);
}

let code;
const args = process.argv.slice(2);
// A reader that stops early (`| head`) ends the output, not with a stack trace.
process.stdout.on("error", (e) => process.exit(e.code === "EPIPE" ? (code ?? EXIT.ok) : EXIT.input));
try {
  code = await main(args);
} catch (e) {
  if (e instanceof UsageError) {
    console.error(`toolshelf: ${e.message}`);
    const usage = (HELP[args[0]] ?? "").split("\n\n")[0];
    console.error(usage.startsWith("usage:") ? usage : "usage: toolshelf <inspect | search | snapshot | serve | eval> ...; toolshelf --help");
    code = EXIT.usage;
  } else if (e instanceof InputError) {
    console.error(`toolshelf: ${e.message}`);
    code = EXIT.input;
  } else if (e instanceof ToolshelfError) {
    console.error(`toolshelf: ${e.code}: ${e.message}`);
    code = EXIT.toolshelf;
  } else {
    console.error(`toolshelf: unexpected failure (please report it): ${e?.stack ?? e}`);
    code = EXIT.toolshelf;
  }
}
// Exit at once: a server's connection the SDK failed to close must not keep the CLI running.
process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
