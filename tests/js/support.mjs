// Shared by the JS tests: the fixtures of tests/data (the same files the Rust tests read).
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";

export const dataDir = process.env.TOOLSHELF_DATA ?? new URL("../data/", import.meta.url).pathname;

const cache = new Map();
/** `[{server, tool}]` entries of a catalog; rest-apis-flat-3400 is built from its three parts. */
export function catalog(name) {
  if (name === "rest-apis-flat-3400") {
    return ["cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04"].flatMap(catalog);
  }
  if (!cache.has(name)) {
    const text = gunzipSync(readFileSync(join(dataDir, "catalogs", `${name}.json.gz`))).toString("utf8");
    cache.set(name, JSON.parse(text));
  }
  return cache.get(name);
}

/** `{servers: {...}}` with the catalogs' tools, servers in first-seen order (as the Rust tests build it). */
export function grouped(names, direct = []) {
  const servers = {};
  for (const name of names) for (const { server, tool } of catalog(name)) (servers[server] ??= []).push(tool);
  return direct.length ? { tools: direct, servers } : { servers };
}

export function assembleCases() {
  return JSON.parse(readFileSync(join(dataDir, "assemble-cases.json"), "utf8"));
}

/** A file the native build wrote for the JS tests, named by an environment variable: a missing one fails. */
function nativeFixture(variable, example) {
  const path = process.env[variable];
  if (!path) throw new Error(`${variable} is not set: scripts/test sets it (cargo run --profile native --example ${example} > target/${example}.json)`);
  return JSON.parse(readFileSync(path, "utf8"));
}

/** Results of the same cases computed natively (examples/fixtures.rs). */
export const nativeResults = () => nativeFixture("TOOLSHELF_NATIVE_ASSEMBLE", "fixtures");

export const tool = (name, description = "A tool.") => ({
  type: "function",
  function: { name, description, parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
});

/** The repository (README, docs, root node_modules with tsc, playwright-core and workerd). */
export const repoDir = process.env.TOOLSHELF_REPO ?? new URL("../../", import.meta.url).pathname;

/** The labelled keyword queries shared with the Rust tests: `[{catalog, query, relevant}]`. */
export function keywordQueries() {
  return JSON.parse(readFileSync(join(dataDir, "queries-keyword.json"), "utf8"));
}

/** The same queries searched natively (examples/search_fixtures.rs). */
export const nativeSearches = () => nativeFixture("TOOLSHELF_NATIVE_SEARCH", "search_fixtures");

/** A predicate for assert.throws: a ToolshelfError (and an Error) with `code` and a message matching `message`. */
export function toolshelfError(ToolshelfError, code, message = /./) {
  return (e) => {
    assertError(e instanceof ToolshelfError && e instanceof Error, `not a ToolshelfError: ${e}`);
    assertError(e.name === "ToolshelfError", `name ${e.name}`);
    assertError(e.code === code, `code ${e.code}, expected ${code} (${e.message})`);
    assertError(message.test(e.message), `message ${JSON.stringify(e.message)} does not match ${message}`);
    return true;
  };
}

function assertError(ok, message) {
  if (!ok) throw new Error(message);
}


/** The assembly of a new `Shelf` (pass the package's class), which reads every tool def and shares nothing. */
export function shelfAssembly(Shelf, toolbox, options) {
  const shelf = new Shelf(toolbox, options);
  try {
    return shelf.assemble();
  } finally {
    shelf.free();
  }
}

/** tests/data/surrogates.json: lone surrogates in names, descriptions, schemas and arguments. */
export function surrogates() {
  return JSON.parse(readFileSync(join(dataDir, "surrogates.json"), "utf8"));
}

/**
 * What a runtime answers for `surrogates()` through the package `api`, as JSON text (which keeps
 * lone surrogates as escapes across any transport). Its source is also run in Chromium and workerd
 * (browser.test.mjs, workerd.test.mjs), so it uses nothing but `api`.
 */
export function surrogateAnswers(api, { toolbox, options, calls }) {
  const stateless = api.assemble(toolbox, options);
  const shelf = new api.Shelf(toolbox, options);
  const prepared = shelf.assemble();
  const answers = {
    fingerprints: [stateless.fingerprint, prepared.fingerprint],
    deferredTokens: [stateless.deferredTokens, prepared.deferredTokens],
    tools: JSON.stringify(stateless.tools),
    unwraps: calls.map((call) => [shelf.unwrap(call), api.unwrap(toolbox, call, options)]),
    describe: shelf.describe(calls[3].input.name),
    search: api.search(toolbox, calls[5].input.query, options),
  };
  shelf.free();
  return JSON.stringify(answers);
}

/** A catalog tool (OpenAI Chat format) as an Anthropic or Responses tool, as tests/native.rs writes it. */
export function inFormat(tool, format) {
  const f = tool.function;
  const schema = f.parameters ?? { type: "object" };
  return format === "anthropic"
    ? { name: f.name, description: f.description ?? "", input_schema: schema }
    : { type: "function", name: f.name, description: f.description ?? "", parameters: schema };
}

/** `tests/data/native-cases.json` with its toolbox in both native formats (a direct `read_file` first). */
export function nativeInput() {
  const cases = JSON.parse(readFileSync(join(dataDir, "native-cases.json"), "utf8"));
  const toolbox = (format) => {
    const servers = {};
    for (const name of cases.catalogs) for (const { server, tool: t } of catalog(name)) (servers[server] ??= []).push(inFormat(t, format));
    return { tools: [inFormat(tool("read_file"), format)], servers };
  };
  return { anthropic: toolbox("anthropic"), responses: toolbox("responses"), calls: cases.calls, options: { contextLength: 200_000, mode: "native" } };
}

/**
 * What a runtime answers in native mode (SPEC §11) for `nativeInput()` through the package `api`,
 * as JSON text: each format's assembly facts, a search answer, `assemble` with the conversation
 * that search makes, and every case of native-cases.json. Its source also runs in Chromium and
 * workerd (browser.test.mjs, workerd.test.mjs), so it uses nothing but `api`.
 */
export function nativeAnswers(api, input) {
  const out = {};
  for (const format of ["anthropic", "responses"]) {
    const shelf = new api.Shelf(input[format], input.options);
    const a = shelf.assemble();
    const facts = { fingerprint: a.fingerprint, mode: a.mode, contextTokens: a.contextTokens, requestBytes: a.requestBytes, tools: a.tools.length };
    const call = format === "anthropic"
      ? { type: "tool_use", id: "s", name: "tool_search", input: { query: "github create issue" } }
      : { type: "tool_search_call", call_id: "s", execution: "client", arguments: JSON.stringify({ query: "github create issue" }) };
    const answer = shelf.unwrap(call);
    const messages = [{ role: "user", content: [{ type: "tool_result", tool_use_id: "s", content: answer.content ?? [] }] }];
    const loaded = api.assemble(input[format], input.options, { messages });
    out[format] = { facts, answer, loaded: [loaded.fingerprint, loaded.tools.length, shelf.assemble({ messages }).fingerprint] };
    shelf.free();
  }
  out.cases = input.calls.map((c) => api.unwrap(input[c.format], c.call, input.options));
  return JSON.stringify(out);
}
