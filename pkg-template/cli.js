#!/usr/bin/env node
// The package's command line (docs/cli.md), for a person trying a toolbox from the shell and for
// build steps: `inspect` shows what the model would see (tier, form, listing, per-server levels,
// the cost of a request eagerly, through the bridge and natively), `search` ranks the deferred
// tools for a query as the model's tool_search would, `snapshot` writes the bytes
// `Shelf.fromSnapshot` loads (SPEC §13). The toolbox comes from a JSON file, stdin, or the
// tools/list of every server in an MCP client config (`--mcp-config`, through the optional peer
// @modelcontextprotocol/sdk). `serve` runs toolshelf/gateway: an MCP server over stdio (or
// Streamable HTTP with --port) in front of every server of an MCP client config (docs/gateway.md).
// Warnings and failures go to stderr; exit codes are in EXIT.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { Shelf, ToolshelfError, assemble } from "./node.js";
import { fromMcpTool, mcpServers, upstreamSpec } from "./mcp.js";
import { put } from "./rules.js";

/** Exit codes (docs/cli.md). */
const EXIT = Object.freeze({
  ok: 0,
  toolshelf: 1, // the core refused the toolbox (ToolshelfError, its code printed)
  usage: 2, // the command line: unknown command or flag, a bad flag value, --options not a JSON object
  input: 3, // input not read: a file missing, unreadable or not JSON, stdin empty, the MCP SDK missing,
  // every MCP server failed; or the snapshot not written
  partial: 4, // done, but some MCP servers of --mcp-config were left out (each reported on stderr)
});

const FORMATS = ["openai", "responses", "anthropic", "mcp", "gemini"];
const DEFAULT_TIMEOUT_MS = 10_000;
const DOCS = "https://github.com/toolshelf/toolshelf/blob/main/docs/cli.md";

/** A mistake on the command line (exit 2); printed with the command's usage line. */
class UsageError extends Error {}
/** Input that could not be read: a file, stdin, an MCP config or its servers (exit 3). */
class InputError extends Error {}

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

  --config <mcp.json>     the MCP client config ({"mcpServers": {...}}; also --mcp-config)
  --options <json|file>   toolshelf options, laid over the config's "toolshelf" key
  --timeout <ms>          per upstream, to start and list its tools (default ${DEFAULT_TIMEOUT_MS})
  --call-timeout <ms>     per call, started again by each progress notification (default 60000)
  --port <n>              serve Streamable HTTP at http://<host>:<n>/mcp instead of stdio; the bearer
                          token is $TOOLSHELF_GATEWAY_TOKEN (one is made and printed when unset)
  --host <host>           the address --port listens on (default 127.0.0.1)

needs @modelcontextprotocol/sdk: npx -y -p toolshelf -p @modelcontextprotocol/sdk toolshelf serve --config mcp.json`;

const HELP = {
  toolshelf: `toolshelf: keep many MCP tools behind a search tool; try a toolbox from the shell

usage:
  toolshelf inspect  [<toolbox.json> | -] [flags]           what the model sees: tier, listing, cost per request
  toolshelf search   <toolbox.json | -> <query...> [flags]  the deferred tools a query finds, ranked, with why
  toolshelf snapshot [<toolbox.json> | -] -o <shelf.bin>    the bytes Shelf.fromSnapshot loads, for build steps
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
};

// ---------------------------------------------------------------------------------------------
// The command line

/** Flags every command takes: `true` when the flag takes a value. */
const COMMON_FLAGS = { "--options": true, "--format": true, "--mcp-config": true, "--timeout": true, "--help": false };
const FLAGS = {
  inspect: { ...COMMON_FLAGS, "--json": false, "--no-listing": false },
  search: { ...COMMON_FLAGS, "--json": false, "--limit": true },
  snapshot: { ...COMMON_FLAGS, "--output": true, "--without-toolbox": false },
  serve: { "--config": true, "--mcp-config": true, "--options": true, "--timeout": true, "--call-timeout": true, "--port": true, "--host": true, "--help": false },
};
const SHORT = { "-h": "--help", "-o": "--output" };

/**
 * A command's arguments: `flags` by long name (a value, or true) and the positional arguments.
 * `--flag value`, `--flag=value`, `-o value`; `-` is positional (stdin); `--` ends the flags.
 */
function parseArgs(command, args) {
  const known = FLAGS[command];
  const flags = {};
  const positionals = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg === "-" || !arg.startsWith("-") || /^-\d/.test(arg)) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const written = eq === -1 ? arg : arg.slice(0, eq);
    const name = SHORT[written] ?? written;
    if (!(name in known)) {
      const elsewhere = Object.keys(FLAGS).filter((c) => c !== command && name in FLAGS[c]);
      const near = Object.keys(known).find((k) => distance(k, name) <= 2);
      const hint = elsewhere.length ? ` (a flag of ${elsewhere.join(" and ")})` : near ? ` (did you mean ${near}?)` : "";
      throw new UsageError(`unknown flag ${written} for ${command}${hint}; toolshelf ${command} --help lists its flags`);
    }
    if (name === "--help") return { help: true };
    if (!known[name]) {
      if (eq !== -1) throw new UsageError(`${written} takes no value`);
      flags[name] = true;
    } else if (name in flags) {
      throw new UsageError(`${written} given twice`);
    } else if (eq !== -1) {
      flags[name] = arg.slice(eq + 1);
    } else {
      if (i + 1 >= args.length) throw new UsageError(`${written} needs a value`);
      flags[name] = args[++i];
    }
  }
  return { flags, positionals };
}

/** Levenshtein distance, for "did you mean" (flags are short). */
function distance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** A flag's value as a positive integer. */
function positiveInteger(flag, value) {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag}: expected a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

// ---------------------------------------------------------------------------------------------
// JSON with positions

/**
 * Where `text` stops being JSON and why: `{ position, message }` (position in UTF-16 code units,
 * from 0, as JSON.parse counts), or undefined when it is JSON. JSON.parse's own messages name a
 * position for some errors only, so the CLI finds it itself (iteratively: any depth).
 */
function jsonError(text) {
  let i = 0;
  const n = text.length;
  const found = () => {
    if (i >= n) return "the end of the text";
    const c = String.fromCodePoint(text.codePointAt(i));
    return /[\p{L}\p{N}\p{P}\p{S}]/u.test(c) ? (c === "'" ? `"'"` : `'${c}'`) : `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  };
  const fail = (expected) => ({ position: i, message: `expected ${expected}, found ${found()}` });
  const space = () => {
    while (i < n && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const string = () => {
    i++; // the opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return undefined;
      }
      if (c < 0x20) return { position: i, message: "a control character in a string (escape it, e.g. \\n)" };
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return { position: i, message: "a bad \\u escape (4 hex digits follow \\u)" };
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          i += 2;
        } else {
          return { position: i, message: e === undefined ? "a string not closed (a \" is missing)" : `a bad escape '\\${e}' in a string (JSON has \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)` };
        }
        continue;
      }
      i++;
    }
    return { position: n, message: "a string not closed (a \" is missing)" };
  };
  const digits = () => {
    const from = i;
    while (i < n && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    return i > from;
  };
  const scalar = () => {
    const c = text[i];
    if (c === '"') return string();
    const word = { t: "true", f: "false", n: "null" }[c];
    if (word) {
      for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) return fail(`"${word}"`);
      return undefined;
    }
    if (c !== "-" && !(c >= "0" && c <= "9")) return fail("a value");
    if (c === "-") i++;
    if (text[i] === "0") i++;
    else if (!digits()) return fail("a digit");
    if (text[i] === ".") {
      i++;
      if (!digits()) return fail("a digit after the decimal point");
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      if (!digits()) return fail("a digit in the exponent");
    }
    return undefined;
  };
  const stack = [];
  space();
  // Each turn reads one value, then what follows it until the next value is due.
  for (;;) {
    space();
    const c = text[i];
    let error;
    if (c === "[" || c === "{") {
      stack.push(c);
      i++;
      space();
      if (text[i] === (c === "[" ? "]" : "}")) {
        stack.pop();
        i++;
      } else if (c === "{") {
        if (text[i] !== '"') return fail('a property name in double quotes or "}"');
        if ((error = string())) return error;
        space();
        if (text[i] !== ":") return fail('":" after a property name');
        i++;
        continue;
      } else {
        continue;
      }
    } else if ((error = scalar())) {
      return error;
    }
    // After a value: close containers, or a comma and the next value.
    for (;;) {
      space();
      if (stack.length === 0) return i < n ? fail("the end of the text") : undefined;
      const top = stack[stack.length - 1];
      const close = top === "[" ? "]" : "}";
      if (text[i] === close) {
        stack.pop();
        i++;
        continue;
      }
      if (text[i] !== ",") return fail(`"," or "${close}"`);
      i++;
      space();
      if (top === "{") {
        if (text[i] !== '"') return fail("a property name in double quotes");
        if ((error = string())) return error;
        space();
        if (text[i] !== ":") return fail('":" after a property name');
        i++;
      }
      break;
    }
  }
}

/** 1-based line and column of a position in `text`. */
function lineColumn(text, position) {
  let line = 1;
  let start = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < position; at = text.indexOf("\n", at + 1)) {
    line++;
    start = at + 1;
  }
  return { line, column: position - start + 1 };
}

/**
 * JSON.parse of `text`; on failure an error of `Kind` naming where: `<file>:<line>:<column>` for a
 * file, `at position N` for text given on the command line (`where` says which).
 */
function parseJson(text, { label, file, Kind }) {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // a BOM some editors write
  try {
    return JSON.parse(body);
  } catch (e) {
    if (body.trim() === "") throw new Kind(`${label}: empty, not JSON`);
    const found = jsonError(body);
    if (!found) throw new Kind(`${label}: not valid JSON (${e.message})`);
    const offset = body === text ? 0 : 1;
    if (file) {
      const { line, column } = lineColumn(body, found.position);
      throw new Kind(`${label}:${line}:${column}: not valid JSON: ${found.message}`);
    }
    throw new Kind(`${label}: not valid JSON at position ${found.position + offset}: ${found.message}`);
  }
}

/** A file's text; a missing file, a directory or an unreadable one as such (exit 3 or `Kind`). */
function readText(path, label, Kind = InputError) {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    if (e.code === "ENOENT") throw new Kind(`${label}: no such file: ${path}`);
    if (e.code === "EISDIR") throw new Kind(`${label}: ${path} is a directory, not a JSON file`);
    if (e.code === "EACCES") throw new Kind(`${label}: ${path}: permission denied`);
    throw new Kind(`${label}: cannot read ${path}: ${e.message}`);
  }
}

async function readStdin(label) {
  if (process.stdin.isTTY) throw new UsageError(`no ${label} given: name a file, pipe its JSON in (cat toolbox.json | toolshelf ...), or use --mcp-config <mcp.json>`);
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") throw new InputError(`${label}: stdin is empty (pipe a toolbox's JSON in, or give a file)`);
  return text;
}

/** `--options`: JSON text (anything JSON.parse reads, or text starting `{`/`[`), else a JSON file. */
function readOptions(value) {
  let options;
  const trimmed = value.trim();
  let parsed = true;
  try {
    options = JSON.parse(trimmed);
  } catch {
    parsed = false;
  }
  if (!parsed) {
    if (/^[{["]/.test(trimmed)) {
      options = parseJson(trimmed, { label: "--options", Kind: UsageError });
    } else {
      let isFile = false;
      try {
        isFile = statSync(value).isFile();
      } catch {
        // reported below
      }
      if (!isFile) {
        throw new UsageError(`--options: ${JSON.stringify(value)} is neither JSON text nor a file${trimmed === "" ? "" : " (no such file)"}; give JSON such as '{"contextLength":200000}' or a JSON file's path`);
      }
      options = parseJson(readText(value, "--options", UsageError), { label: `--options ${value}`, file: true, Kind: UsageError });
    }
  }
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new UsageError(`--options: expected a JSON object such as {"contextLength":200000}, got ${Array.isArray(options) ? "an array" : JSON.stringify(options)}`);
  }
  return options;
}

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

const SDK_MISSING = `--mcp-config needs the MCP TypeScript SDK, an optional peer dependency of toolshelf:
  npm i @modelcontextprotocol/sdk          (in the project where toolshelf is installed)
  npx -p toolshelf -p @modelcontextprotocol/sdk toolshelf ...   (without a project)`;

/** The SDK's client classes, imported when --mcp-config is used (an optional peer dependency). */
async function mcpSdk() {
  const sdk = "@modelcontextprotocol/sdk";
  try {
    const [{ Client }, { StdioClientTransport }, { StreamableHTTPClientTransport }, { SSEClientTransport }] = await Promise.all([
      import(`${sdk}/client/index.js`),
      import(`${sdk}/client/stdio.js`),
      import(`${sdk}/client/streamableHttp.js`),
      import(`${sdk}/client/sse.js`),
    ]);
    return { Client, StdioClientTransport, StreamableHTTPClientTransport, SSEClientTransport };
  } catch (e) {
    if (e?.code === "ERR_MODULE_NOT_FOUND" && e.message.includes(`'${sdk}'`)) throw new InputError(SDK_MISSING);
    throw new InputError(`--mcp-config: cannot load ${sdk}: ${e.message}`);
  }
}


/** Why a connection or listing failed, in a few words. */
function reason(e, spec) {
  if (e?.code === "ENOENT" && spec?.stdio) return `command not found: ${spec.stdio.command}`;
  if (e?.code === "EACCES" && spec?.stdio) return `command not executable: ${spec.stdio.command}`;
  if (e?.name === "TimeoutError" || e?.code === -32001) return "timed out";
  if (spec?.stdio && /Connection closed/.test(e?.message)) return "it exited, or closed its stdout, before listing its tools";
  const cause = e?.cause?.code ?? e?.cause?.message;
  const message = `${e?.message ?? String(e)}${cause && !String(e?.message).includes(cause) ? ` (${cause})` : ""}`;
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

/** Settles after `ms` with undefined (a close that hangs is not waited for). */
const within = (promise, ms) => Promise.race([promise.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, ms).unref())]);

/**
 * Connects to every server of an MCP client config at once, lists each one's tools (every page)
 * within `timeout` ms, and closes them: `{ servers, failed, total }`. A server that fails is
 * reported on stderr and left out; none left is an InputError.
 */
async function mcpToolbox(config, { format, timeout, label }) {
  if (config === null || typeof config !== "object" || Array.isArray(config)) throw new InputError(`--mcp-config ${label}: expected a JSON object with "mcpServers" (or VS Code's "servers")`);
  const key = config.mcpServers === undefined && config.servers !== undefined ? "servers" : "mcpServers"; // VS Code's .vscode/mcp.json says "servers"
  const entries = config[key];
  if (config.mcpServers === undefined && entries && typeof entries === "object" && Object.values(entries).some(Array.isArray)) {
    throw new UsageError(`--mcp-config ${label}: this is a toolbox (servers with lists of tools), not an MCP client config: give it without --mcp-config`);
  }
  if (entries === null || typeof entries !== "object" || Array.isArray(entries)) {
    throw new InputError(`--mcp-config ${label}: no "mcpServers" object (the shape Claude Desktop and Cursor write: {"mcpServers": {"name": {"command": ..., "args": [...]}}}; VS Code's .vscode/mcp.json: {"servers": {...}})`);
  }
  const names = Object.keys(entries);
  if (names.length === 0) throw new InputError(`--mcp-config ${label}: "${key}" is empty: no server to read`);
  const sdk = await mcpSdk();
  const results = await Promise.all(names.map((name) => readServer(sdk, name, upstreamSpec(entries[name]), { format, timeout })));
  const servers = {};
  const failed = [];
  let skipped = 0;
  results.forEach((result, i) => {
    const name = names[i];
    for (const w of result.warnings ?? []) warn(w);
    if (result.skip) {
      skipped++;
      note(`server "${name}" skipped: ${result.skip}`);
    } else if (result.error) {
      failed.push({ server: name, error: result.error });
      console.error(`toolshelf: server "${name}" left out: ${result.error}`);
    } else {
      put(servers, name, result.tools);
    }
  });
  const read = names.length - failed.length - skipped;
  if (read === 0) {
    throw new InputError(`--mcp-config ${label}: no server's tools could be read (${failed.length} failed${skipped ? `, ${skipped} disabled` : ""})`);
  }
  return { servers, failed, total: names.length };
}

/** One server: connected, listed and closed within `timeout` ms; `{ tools }`, `{ error }` or `{ skip }`. */
async function readServer(sdk, name, spec, { format, timeout }) {
  if (spec.skip || spec.error) return spec;
  const signal = AbortSignal.timeout(timeout);
  let stderrTail = "";
  const attempt = async (transport) => {
    const client = new sdk.Client({ name: "toolshelf-cli", version: "1.0.0" });
    try {
      await client.connect(transport, { signal, timeout });
      const warnings = [];
      const { servers, warnings: left } = await mcpServers({ [name]: client }, { format, signal, onWarning: (w) => warnings.push(w) });
      if (!Object.hasOwn(servers, name)) return { error: left.at(-1)?.replace(/^server "[^"]*" left out: /, "") ?? "no tools read" };
      return { tools: servers[name], warnings };
    } finally {
      await within(client.close(), 2000);
    }
  };
  try {
    if (spec.stdio) {
      const transport = new sdk.StdioClientTransport({ ...spec.stdio, stderr: "pipe" });
      transport.stderr?.on("data", (chunk) => {
        stderrTail = (stderrTail + chunk).slice(-2000);
      });
      return await attempt(transport);
    }
    const { url, headers, sse } = spec.http;
    const requestInit = headers ? { headers } : undefined;
    if (sse === "only") return await attempt(new sdk.SSEClientTransport(new URL(url), { requestInit }));
    try {
      return await attempt(new sdk.StreamableHTTPClientTransport(new URL(url), { requestInit }));
    } catch (e) {
      if (sse === "never" || signal.aborted) throw e;
      // Servers of the older HTTP+SSE transport refuse the streamable POST: try SSE on the same URL.
      try {
        return await attempt(new sdk.SSEClientTransport(new URL(url), { requestInit }));
      } catch (again) {
        if (signal.aborted) throw again;
        return { error: `${url}: streamable HTTP: ${reason(e)}; SSE: ${reason(again)}` };
      }
    }
  } catch (e) {
    const why = signal.aborted ? `timed out after ${timeout} ms (--timeout)` : `${spec.http ? `${spec.http.url}: ` : ""}${reason(e, spec)}`;
    // The server's last words on stderr (up to three lines: the cause often comes before a hint).
    const last = stderrTail.split("\n").map((l) => l.trim()).filter(Boolean).slice(-3).join(" / ");
    return { error: last ? `${why} (its stderr: ${last.length > 300 ? `${last.slice(0, 300)}…` : last})` : why };
  }
}

// ---------------------------------------------------------------------------------------------
// Output

const warn = (message) => console.error(`toolshelf: warning: ${message}`);
const note = (message) => console.error(`toolshelf: ${message}`);
const num = (n) => n.toLocaleString("en-US");
const toolName = (t) => t?.function?.name ?? t?.name ?? (t?.type === "tool_search" ? "tool_search (client)" : "?");

/** The tool objects of a toolbox as given (an assembly's direct tools are these very objects). */
function givenTools(toolbox) {
  if (Array.isArray(toolbox)) return new Set(toolbox);
  const set = new Set(Array.isArray(toolbox?.tools) ? toolbox.tools : []);
  for (const list of Object.values(toolbox?.servers ?? {})) if (Array.isArray(list)) for (const t of list) set.add(t);
  return set;
}

/** A tool's format, from its shape (the bridge tools come out in the toolbox's format). */
function formatOf(tool) {
  if (tool === null || typeof tool !== "object") return undefined;
  if (tool.type === "function" && tool.function) return "openai";
  if (tool.type === "function" || tool.type === "tool_search") return "responses";
  if ("input_schema" in tool) return "anthropic";
  if ("inputSchema" in tool) return "mcp";
  return "gemini";
}

/** An MCP-format toolbox with every tool as toolshelf/mcp's fromMcpTool gives it in `format`. */
function convertMcp(toolbox, format) {
  const each = (list) => (Array.isArray(list) ? list.map((t) => fromMcpTool(t, format)) : list);
  if (Array.isArray(toolbox)) return each(toolbox);
  const out = { ...toolbox };
  if (toolbox.tools !== undefined) out.tools = each(toolbox.tools);
  if (toolbox.servers && typeof toolbox.servers === "object") {
    out.servers = {};
    for (const [name, list] of Object.entries(toolbox.servers)) put(out.servers, name, each(list));
  }
  return out;
}

/** Left-aligned columns, two spaces apart; `right` holds the indexes of right-aligned columns. */
function table(rows, right = []) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows.map((r) => r.map((cell, c) => (right.includes(c) ? String(cell).padStart(widths[c]) : String(cell).padEnd(widths[c]))).join("  ").trimEnd());
}

/** The first line of `text`, at most `max` code points, cut at a word with "…". */
function short(text, max) {
  const line = String(text ?? "").split("\n")[0].trim();
  const points = [...line];
  if (points.length <= max) return line;
  const cut = points.slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

const TIERS = {
  0: "every tool passes through (no deferred tool, or enabled: off)",
  1: "the bridge; the listing names tools one by one",
  2: "the bridge; the listing shows server lines only, or nothing",
};
const FORMS = {
  none: "no listing",
  full: "every server listed tool by tool, with short descriptions",
  names: "every server listed as one line of names",
  mixed: "servers at different levels",
  groups: "every server as one summary line",
};

// ---------------------------------------------------------------------------------------------
// Commands

/**
 * What one request costs in each mode (eager, bridge, native), counted on the tools as a provider
 * request carries them: in the toolbox's own format, or for MCP tools/list items (whose title,
 * outputSchema and annotations no request carries) as Anthropic tools, the name, description and
 * input schema every provider sends; native also as Responses tools. `costsFormat` says which.
 */
function requestCosts(toolbox, options, format, deferredCount) {
  const costsFormat = format === "mcp" ? "anthropic" : format;
  const box = format === "mcp" ? convertMcp(toolbox, costsFormat) : toolbox;
  const opts = format === "mcp" ? { ...options, format: costsFormat } : options;
  const cost = (a, as) => ({ ...(as ? { as } : {}), contextTokens: a.contextTokens, requestBytes: a.requestBytes });
  const bridge = assemble(box, { ...opts, mode: "bridge" });
  const costs = [{ mode: "eager", ...cost(assemble(box, { ...opts, enabled: "off" })) }, { mode: "bridge", ...cost(bridge) }];
  const native = assemble(box, { ...opts, mode: "native" });
  if (native.mode === "native") costs.push({ mode: "native", ...cost(native, format === "mcp" ? costsFormat : undefined) });
  if (format === "mcp" && deferredCount > 0) {
    costs.push({ mode: "native", ...cost(assemble(convertMcp(toolbox, "responses"), { ...options, format: "responses", mode: "native" }), "responses") });
  } else if (native.mode !== "native") {
    const why = native.warnings.find((w) => !bridge.warnings.includes(w)) ?? (deferredCount === 0 ? "no deferred tool" : "not available");
    costs.push({ mode: "native", unavailable: why });
  }
  return { costsFormat, costs };
}

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

function inspectText(r, options) {
  const out = [];
  const src = r.source;
  const from = src.kind === "mcp-config"
    ? `${src.servers - src.failed.length} of ${src.servers} MCP servers of ${src.path === "-" ? "stdin" : src.path}${src.failed.length ? ` (left out: ${src.failed.map((f) => f.server).join(", ")})` : ""}`
    : src.path === "-" ? "stdin" : src.path;
  const context = options?.contextLength ?? options?.context_length;
  out.push(...table([
    ["toolbox", `${from}: ${num(r.directCount)} direct, ${num(r.deferredCount)} deferred tool${r.deferredCount === 1 ? "" : "s"} on ${r.servers.length} server${r.servers.length === 1 ? "" : "s"}`],
    ["format", r.format ?? "unknown (no tools)"],
    ["tier", `${r.tier}: ${TIERS[r.tier]}`],
    ["form", `${r.form}: ${FORMS[r.form] ?? ""}`],
    ["mode", r.mode],
    ["context", context === undefined ? "not given (--options '{\"contextLength\":200000}')"
      : Number.isFinite(Number(context)) ? `${num(Number(context))} tokens` : `${JSON.stringify(context)} (not a number: see the warnings)`],
    ["budget", `${num(r.budgetTokens)} tokens for the listing; it takes ${num(r.listingTokens)}`],
    ["deferred", `${num(r.deferredTokens)} tokens of tool definitions kept out of the request`],
    ["fingerprint", r.fingerprint],
  ]));
  if (r.servers.length) {
    out.push("", ...table([["server", "tools", "level"], ...r.servers.map((s) => [s.name, num(s.tools), s.level])], [1]));
  }
  out.push("", `per request (first request of a conversation), the tools as ${r.costsFormat ?? "the toolbox's"} tools`);
  const rows = [["", "context tokens", "request bytes", ""]];
  for (const c of r.costs) {
    const label = c.mode === "eager" ? "eager (every schema)" : c.mode === "native" && c.as ? `native, as ${c.as} tools` : c.mode;
    if (c.unavailable) rows.push([label, "-", "-", c.unavailable]);
    else {
      const share = c.contextTokens / Math.max(1, r.costs[0].contextTokens);
      const note = c.mode === "eager" ? "" : share < 1 ? `${(100 * share).toFixed(1)}% of eager's tokens` : `${share.toFixed(1)}x eager's tokens`;
      rows.push([label, num(c.contextTokens), num(c.requestBytes), note]);
    }
  }
  out.push(...table(rows, [1, 2]).map((l) => `  ${l}`));
  if (r.format === "mcp") {
    out.push("  (what a request carries of an MCP tool: its name, description and input schema, not its title,",
      "  outputSchema or annotations; converted as toolshelf/mcp's fromMcpTool does; --format sets the format)");
  }
  out.push("", r.warnings.length ? "warnings" : "warnings: none");
  for (const w of r.warnings) out.push(`  - ${w}`);
  if (r.listing !== undefined) {
    out.push("");
    if (r.listing === null) out.push("listing: none (tier 0: no search tool)");
    else {
      out.push(`listing (the description of ${r.listing.tool}, as the model reads it)`);
      out.push(...r.listing.description.split("\n").map((l) => (l === "" ? "" : `  ${l}`)));
    }
  }
  return out.join("\n");
}

/** Lowercase words of a text as the core splits names (snake, kebab, camel, dotted, digits). */
function words(text) {
  const out = [];
  for (const run of String(text ?? "").match(/[A-Za-z0-9]+/g) ?? []) {
    const pieces = run.split(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])/);
    if (pieces.length > 1) out.push(run.toLowerCase());
    for (const p of pieces) out.push(p.toLowerCase());
  }
  return out;
}

/** A word with a common English suffix dropped, for the CLI's plain comparison (not the core's stemmer). */
const root = (w) => (w.length > 3 ? w.replace(/(?:ing|ed|es|s|e)$/, "") : w);

/** The core's English stop words (src/search/tokenize.rs): never listed as found. */
const STOPWORDS = new Set(
  ("a about an and are as at be by can could do does for from how i if in into is it " +
    "its me my of on or our please should so that the this to us we what which will with would you").split(" "),
);

/**
 * The query's words (stop words and the core's unknown words left out) found in the text the core
 * indexes for a match: its name, server, description, top-level parameter names and their
 * descriptions (`described`: the tool as `shelf.describe` gives it).
 */
function inText(query, unknown, match, described) {
  const unknownSet = new Set(unknown.map((w) => w.toLowerCase()));
  const properties = described?.parameters?.properties;
  const params = properties !== null && typeof properties === "object" ? Object.entries(properties) : [];
  const text = [match.name, match.server, match.description, ...params.map(([k, v]) => `${k} ${typeof v?.description === "string" ? v.description : ""}`)];
  const have = new Set(words(text.join(" ")).map(root));
  const found = [];
  for (const w of words(query)) {
    if (STOPWORDS.has(w) || unknownSet.has(w) || found.includes(w)) continue;
    if (have.has(root(w))) found.push(w);
  }
  return found;
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

/** The gateway module, whose static imports need the MCP SDK (an optional peer dependency). */
async function gatewayModule() {
  try {
    return await import("./gateway.js");
  } catch (e) {
    if (e?.code === "ERR_MODULE_NOT_FOUND" && e.message.includes("@modelcontextprotocol/sdk")) {
      throw new InputError(SDK_MISSING.replace("--mcp-config needs", "serve needs").replace("toolshelf ...", "toolshelf serve --config mcp.json"));
    }
    throw e;
  }
}

/** serve: toolshelf/gateway over stdio (or Streamable HTTP with --port) until the client goes. */
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
  if (flags["--host"] !== undefined && port === undefined) throw new UsageError("--host is for --port (the address Streamable HTTP listens on)");
  const config = parseJson(readText(path, "--config"), { label: path, file: true, Kind: InputError });
  const { Gateway, httpHandler, readConfig } = await gatewayModule();
  try {
    readConfig(config);
  } catch (e) {
    throw new InputError(`--config ${path}: ${e.message}`);
  }
  const version = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")).version;
  const gateway = Gateway.fromConfig(config, { options, timeout, callTimeout, name: "toolshelf", version, onWarning: warn });
  const names = Object.keys(config.mcpServers ?? config.servers);
  if (port !== undefined) return serveHttp(gateway, httpHandler, { port, host: flags["--host"] ?? "127.0.0.1", names });
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const server = gateway.server();
  const closed = new Promise((resolve) => {
    server.onclose = resolve;
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  await server.connect(new StdioServerTransport());
  const status = await gateway.start();
  note(`serving ${status.filter((s) => s.state === "ready").length} of ${names.length} MCP servers over stdio`);
  await closed;
  await gateway.close();
  return EXIT.ok;
}

/** serve --port: Node's HTTP server in front of the gateway's fetch handler, until SIGINT/SIGTERM. */
async function serveHttp(gateway, httpHandler, { port, host, names }) {
  const { createServer } = await import("node:http");
  let token = process.env.TOOLSHELF_GATEWAY_TOKEN;
  if (token === undefined || token === "") {
    const { randomBytes } = await import("node:crypto");
    token = randomBytes(24).toString("base64url");
    note(`TOOLSHELF_GATEWAY_TOKEN is not set; this run's bearer token: ${token}`);
  } else if (token.length < 16) throw new UsageError("TOOLSHELF_GATEWAY_TOKEN: at least 16 characters");
  const handle = httpHandler(gateway, { token });
  const server = createServer(async (req, res) => {
    const controller = new AbortController();
    res.once("close", () => controller.abort());
    try {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
      const request = new Request(`http://${req.headers.host ?? `${host}:${port}`}${req.url}`, {
        method: req.method,
        headers,
        body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
        signal: controller.signal,
      });
      const response = await handle(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) for await (const chunk of response.body) res.write(chunk);
      res.end();
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(controller.signal.aborted ? undefined : `toolshelf: ${e?.message ?? e}\n`);
    }
  });
  await new Promise((resolve, reject) => server.once("error", reject).listen(port, host, resolve));
  const address = server.address();
  const status = await gateway.start();
  note(`serving ${status.filter((s) => s.state === "ready").length} of ${names.length} MCP servers at http://${host.includes(":") ? `[${host}]` : host}:${address.port}/mcp`);
  await new Promise((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  server.close();
  server.closeAllConnections?.();
  await gateway.close();
  return EXIT.ok;
}

const COMMANDS = { inspect, search, snapshot, serve };

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
    if (!(topic in HELP)) throw new UsageError(`unknown command ${JSON.stringify(topic)}: toolshelf help lists inspect, search, snapshot and serve`);
    console.log(HELP[topic]);
    return EXIT.ok;
  }
  if (!(first in COMMANDS)) {
    throw new UsageError(first.startsWith("-")
      ? `unknown flag ${first}: a command comes first (inspect, search, snapshot, serve); toolshelf --help`
      : `unknown command ${JSON.stringify(first)}: the commands are inspect, search, snapshot and serve; toolshelf --help`);
  }
  const parsed = parseArgs(first, rest);
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
    console.error(usage.startsWith("usage:") ? usage : "usage: toolshelf <inspect | search | snapshot | serve> ...; toolshelf --help");
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
