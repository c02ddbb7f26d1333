// Lone surrogates (legal in JS strings; JSON.stringify writes them as `\ud800`) in names,
// descriptions, schemas and arguments: tests/data/surrogates.json, which tests/surrogates.rs reads
// too. Both assemble paths (a Shelf, whose core writes the JSON, and the stateless outline, whose JS
// writes it) give the fingerprint of JSON.stringify's bytes and the sizes of its code points; calls
// keep the very strings. As tests/surrogates.rs checks: a deferred tool's own name keeps its lone
// surrogates (what unwrap gives as `tool`, for the server), and the name shown for it is
// provider-valid (SPEC §16). browser.test.mjs and workerd.test.mjs check the same in Chromium and workerd.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Shelf, assemble, describe, search, unwrap } from "toolshelf";
import { dataDir } from "./support.mjs";

const fixture = () => JSON.parse(readFileSync(join(dataDir, "surrogates.json"), "utf8"));

/** FNV-1a 64 of the UTF-8 bytes, 16 hex digits (SPEC §3.5), written here independently of the core. */
function fnv1a(text) {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, "0");
}

const codePoints = (text) => [...text].length;

/** A name Anthropic and OpenAI accept for a tool. */
const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The tool part of a shown name `mcp__<server part>__<tool part>` (a server part holds no "__"): what the listing names under the server's heading. */
const toolPart = (shown) => shown.slice(shown.indexOf("__", "mcp__".length) + 2);

test("both assemble paths give the fingerprint of JSON.stringify's bytes and its code points as sizes", () => {
  const { toolbox, options } = fixture();
  assert.match(JSON.stringify(toolbox), /read\\ud800file/);
  const stateless = assemble(toolbox, options);
  const shelf = new Shelf(toolbox, options);
  const prepared = shelf.assemble();
  shelf.free();
  const written = JSON.stringify(stateless.tools);
  assert.equal(stateless.fingerprint, fnv1a(written));
  assert.equal(prepared.fingerprint, stateless.fingerprint);
  assert.equal(JSON.stringify(prepared.tools), written);
  assert.equal(prepared.tools[0], toolbox.tools[0], "the direct tool is the caller's object");
  const deferred = Object.values(toolbox.servers).flat();
  const tokens = deferred.reduce((sum, def) => sum + Math.ceil(codePoints(JSON.stringify(def)) / 4), 0);
  assert.equal(stateless.deferredTokens, tokens);
  assert.equal(prepared.deferredTokens, tokens);
  assert.deepEqual({ ...prepared, tools: undefined }, { ...stateless, tools: undefined });
  // The listing names the deferred tools by provider-valid names and keeps the escapes of their descriptions.
  const shown = search(toolbox, "thing", options).matches.find((m) => m.description.startsWith("Gets a thing")).name;
  assert.match(shown, PROVIDER_NAME);
  assert.match(toolPart(shown), /^get_thing-[0-9a-f]{8}$/, shown);
  assert.ok(written.includes(`\\n- ${toolPart(shown)}: Gets a thing \\ud800`), written);
  assert.ok(!written.includes("get_\\udbffthing"), "the own name is not shown");
});

test("calls, describe and search keep lone surrogates", () => {
  const { toolbox, options, calls, kinds } = fixture();
  const shelf = new Shelf(toolbox, options);
  const results = calls.map((call) => shelf.unwrap(call));
  assert.deepEqual(results.map((r) => r.kind), kinds);
  assert.deepEqual(calls.map((call) => unwrap(toolbox, call, options)), results);
  const [first, tooLong, constant, described, direct, searched] = results;
  // Called by its own name (the one tool that has it): the shown name, and the own name for the server.
  assert.deepEqual([first.server, first.tool], ["srv\ud83d", "get_\udbffthing"]);
  assert.match(first.name, PROVIDER_NAME);
  assert.deepEqual(first.arguments, calls[0].input.arguments);
  assert.equal(first.arguments["q\ud800"], "x\udc00");
  assert.match(tooLong.content, /at most 3 characters, got 4/, "a lone surrogate is one code point");
  assert.equal(constant.arguments["\udc00"], "\udc00\u{10FFFF}");
  assert.equal(JSON.parse(described.content).description, toolbox.servers["srv\ud83d"][0].function.description);
  assert.equal(direct.arguments, calls[4].input, "a direct tool's arguments come back by reference");
  assert.deepEqual(direct.arguments, { "p\udfff": "a\ud800" });
  assert.equal(direct.name, "read\ud800file");
  assert.equal(JSON.parse(searched.content).query, "thing \ud800");
  const byName = shelf.describe("get_\udbffthing");
  assert.equal(byName?.server, "srv\ud83d");
  assert.equal(byName.name, first.name);
  assert.deepEqual(describe(toolbox, "get_\udbffthing", options), byName);
  assert.deepEqual(shelf.describe(first.name), byName, "the shown name describes the same tool");
  const byShown = shelf.unwrap({ ...calls[0], input: { ...calls[0].input, name: first.name } });
  assert.deepEqual(byShown, first, "a call by the shown name is the call by the own name");
  const hits = shelf.search("thing \ud800");
  assert.equal(hits.query, "thing \ud800");
  assert.deepEqual(search(toolbox, "thing \ud800", options), hits);
  assert.ok(hits.matches.some((m) => m.name === first.name && m.server === "srv\ud83d"), JSON.stringify(hits));
  shelf.free();
});

test("a toolbox whose UTF-8 is longer than its UTF-16 text crosses whole (the room grows)", () => {
  // Three bytes per UTF-16 unit (CJK), four per pair (emoji), lone surrogates as escapes: the room
  // for the text starts at about its length in units, so each of these makes it grow.
  const def = (name, description) => ({
    type: "function",
    function: { name, description, parameters: { type: "object", properties: { q: { type: "string", description } } } },
  });
  const cjk = "東京の天気を調べる。".repeat(400);
  const emoji = "😀🚀".repeat(1500);
  const toolbox = {
    tools: [def("read\ud800file", "Read a file \udc00.")],
    servers: { weather: [def("tokyo_weather", `${cjk} weather`), def("smile", `${emoji} smile`)], plain: [def("plain_tool", "ascii only")] },
  };
  const text = JSON.stringify(toolbox);
  assert.ok(new TextEncoder().encode(text).length > 2 * text.length, "mostly multi-byte");
  const shelf = new Shelf(toolbox, { contextLength: 200_000 });
  const assembly = shelf.assemble();
  assert.equal(assembly.fingerprint, fnv1a(JSON.stringify(assembly.tools)));
  assert.equal(shelf.describe("tokyo_weather").description, `${cjk} weather`);
  assert.equal(shelf.describe("smile").description, `${emoji} smile`);
  assert.equal(shelf.search("weather").matches[0]?.name, shelf.describe("tokyo_weather").name);
  // An update that reads one new list of such text answers as a new Shelf of the same toolbox.
  const updated = { ...toolbox, servers: { ...toolbox.servers, more: [def("kyoto_weather", `${cjk}${emoji} kyoto`)] } };
  shelf.update(updated);
  const fresh = new Shelf(updated, { contextLength: 200_000 });
  assert.deepEqual(shelf.search("kyoto weather"), fresh.search("kyoto weather"));
  assert.deepEqual(shelf.assemble(), fresh.assemble());
  // A snapshot checked against the toolbox (its text encoded apart, by TextEncoder) accepts it.
  const loaded = Shelf.fromSnapshot(fresh.snapshot({ toolbox: false }), updated);
  assert.deepEqual(loaded.describe("kyoto_weather"), fresh.describe("kyoto_weather"));
  for (const s of [shelf, fresh, loaded]) s.free();
});
