// Native tool search (SPEC §11) through the packed package: the calls of tests/data/native-cases.json
// (the Rust tests read the same file) from the free functions and a Shelf alike; the arrays of
// both protocols on the real catalogs (direct tools the very objects, fingerprint and sizes of the
// bytes JS sends, shuffle-stable); `assemble({ messages })`; the warnings and fallbacks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assemble, describe, Shelf, unwrap } from "toolshelf";
import { catalog, inFormat, keywordQueries, nativeAnswers, nativeInput, tool } from "./support.mjs";

const OPTIONS = { contextLength: 200_000, mode: "native" };

/** FNV-1a 64 of the UTF-8 bytes of `text`, as 16 hex digits (SPEC §3.5's fingerprint). */
function fnv1a(text) {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
  return hash.toString(16).padStart(16, "0");
}

function toolbox(names, format, reversed = false) {
  const servers = {};
  for (const name of names) for (const { server, tool: t } of catalog(name)) (servers[server] ??= []).push(inFormat(t, format));
  const entries = Object.entries(servers).map(([s, list]) => [s, reversed ? [...list].reverse() : list]);
  return { tools: [inFormat(tool("read_file"), format)], servers: Object.fromEntries(reversed ? entries.reverse() : entries) };
}

test("the native cases: every bad input is a reject, calls are routed and validated, from free functions and a Shelf", () => {
  const input = nativeInput();
  const shelves = { anthropic: new Shelf(input.anthropic, OPTIONS), responses: new Shelf(input.responses, OPTIONS) };
  for (const c of input.calls) {
    const u = unwrap(input[c.format], c.call, OPTIONS);
    assert.deepEqual(shelves[c.format].unwrap(c.call), u, c.name);
    assert.equal(u.kind, c.kind, `${c.name}: ${JSON.stringify(u)}`);
    if (c.contains) assert.ok(u.content.includes(c.contains), `${c.name}: ${u.content}`);
    if (c.item) assert.deepEqual([u.item.type, u.item.call_id, u.item.tools], ["tool_search_output", c.call.call_id, []], c.name);
    for (const key of ["server", "tool", "arguments"]) if (key in c) assert.deepEqual(u[key], c[key], `${c.name}: ${key}`);
  }
  Object.values(shelves).forEach((s) => s.free());
});

for (const [label, names] of [["GitHub + Linear", ["github-mcp-server", "linear-mcp-official"]], ["REST (3,397)", ["rest-apis-flat-3400"]]]) {
  test(`${label}: both native arrays, their facts from the bytes JS sends, shuffle-stable`, () => {
    for (const format of ["anthropic", "responses"]) {
      const box = toolbox(names, format);
      const a = assemble(box, OPTIONS);
      const json = JSON.stringify(a.tools);
      assert.equal(a.mode, "native", format);
      assert.equal(a.tools[0], box.tools[0], "the direct tool is the very object");
      assert.equal(a.fingerprint, fnv1a(json));
      assert.equal(a.requestBytes, Buffer.byteLength(json));
      const paid = format === "anthropic" ? a.tools.filter((t) => !t.defer_loading) : a.tools;
      assert.equal(a.contextTokens, Math.ceil([...JSON.stringify(paid)].length / 4));
      const bridge = assemble(box, { contextLength: 200_000 });
      assert.ok(a.contextTokens <= bridge.contextTokens, `${format}: native ${a.contextTokens} > bridge ${bridge.contextTokens}`);
      if (format === "anthropic") {
        assert.equal(a.tools.length, 2 + a.deferredCount);
        assert.ok(a.tools.slice(2).every((t) => t.defer_loading === true && !("cache_control" in t)));
      } else {
        assert.deepEqual(a.tools.slice(1).map((t) => [t.type, t.execution]), [["tool_search", "client"]]);
      }
      assert.equal(assemble(toolbox(names, format, true), OPTIONS).fingerprint, a.fingerprint, `${format}: shuffled`);
    }
  });
}

test("assemble({ messages }) carries only the tools a conversation's tool_reference blocks loaded", () => {
  const box = toolbox(["rest-apis-flat-3400"], "anthropic");
  const shelf = new Shelf(box, OPTIONS);
  const messages = [{ role: "user", content: "Refund the charge, then create a customer." }];
  const sent = [];
  for (const [i, query] of ["refund charge", "create customer"].entries()) {
    const call = { type: "tool_use", id: `s${i}`, name: "tool_search", input: { query } };
    const u = shelf.unwrap(call);
    assert.equal(u.kind, "answer");
    assert.ok(Array.isArray(u.content) && u.content.every((b) => b.type === "tool_reference" || b.type === "text"), JSON.stringify(u.content));
    const references = u.content.filter((b) => b.type === "tool_reference");
    assert.equal(references.length, 1, "loadLimit 1 (the default): the top match loads, the others are named");
    messages.push({ role: "assistant", content: [call] }, { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: u.content }] });
    const a = shelf.assemble({ messages });
    const names = a.tools.slice(2).map((t) => t.name).sort();
    sent.push(...references.map((b) => b.tool_name));
    assert.deepEqual(names, [...new Set(sent)].sort());
    assert.equal(JSON.stringify(a.tools.slice(0, 2)), JSON.stringify(shelf.assemble({ messages: [] }).tools), "the prefix never changes");
    assert.ok(a.requestBytes < 100_000, `${a.requestBytes} bytes, against ${shelf.assemble().requestBytes} for every deferred tool`);
  }
  assert.deepEqual(assemble(box, OPTIONS, { messages }), shelf.assemble({ messages }));
  shelf.free();
});

/** The largest tools array of a scripted ten-turn conversation: five searches, each followed by a call of its first reference. */
function largestRequest(box, options, queries) {
  const shelf = new Shelf(box, { ...OPTIONS, ...options });
  const messages = [{ role: "user", content: "Do the five things." }];
  let max = 0;
  for (const [i, query] of queries.entries()) {
    const search = { type: "tool_use", id: `s${i}`, name: "tool_search", input: { query } };
    const u = shelf.unwrap(search);
    const note = u.content.find((b) => b.type === "text");
    if (options.loadLimit !== 50 && note) assert.match(note.text, /not loaded \(search an exact name to load it\)|No tool/);
    messages.push({ role: "assistant", content: [search] }, { role: "user", content: [{ type: "tool_result", tool_use_id: search.id, content: u.content }] });
    max = Math.max(max, shelf.assemble({ messages }).requestBytes);
    const use = { type: "tool_use", id: `c${i}`, name: u.content.find((b) => b.type === "tool_reference").tool_name, input: {} };
    messages.push({ role: "assistant", content: [use] }, { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "ok" }] });
    max = Math.max(max, shelf.assemble({ messages }).requestBytes);
  }
  shelf.free();
  return max;
}

test("loadMaxTokens: ten turns on 3,397 REST tools send at most 50 KB of tools a request (the bench's conversation), far less than without it", () => {
  const box = toolbox(["rest-apis-flat-3400"], "anthropic");
  const parts = ["cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04"];
  const labelled = keywordQueries().filter((q) => parts.includes(q.catalog)).map((q) => q.query).slice(0, 5);
  const bounded = largestRequest(box, { loadMaxTokens: 500 }, labelled);
  const spec = largestRequest(box, { loadLimit: 50 }, labelled); // every match referenced
  assert.ok(bounded <= 50 * 1024, `${bounded} bytes`);
  assert.ok(bounded < 0.6 * spec, `every match referenced: ${spec} bytes, against ${bounded}`);
  const own = ["refund a charge", "create a customer", "list dns records of a zone", "send an sms", "purge the cache"];
  const [ownBounded, ownSpec] = [largestRequest(box, { loadMaxTokens: 500 }, own), largestRequest(box, { loadLimit: 50 }, own)];
  assert.ok(ownBounded < 0.8 * ownSpec, `another conversation: ${ownSpec} bytes, against ${ownBounded}`);
});

test("a format without native search, or mode in bad spelling: the bridge with a warning, never a throw", () => {
  const chat = { servers: { linear: catalog("linear-mcp-official").map((e) => e.tool) } };
  const a = assemble(chat, OPTIONS);
  assert.equal(a.mode, "bridge");
  assert.match(a.warnings.join("\n"), /mode: native needs the anthropic or responses format, not openai/);
  const b = assemble(toolbox(["linear-mcp-official"], "anthropic"), { mode: "hosted" });
  assert.equal(b.mode, "bridge");
  assert.match(b.warnings.join("\n"), /mode: "hosted" is not bridge or native/);
});

test("the native answers Chromium and workerd are compared on are the meaningful ones", () => {
  const input = nativeInput();
  const answers = JSON.parse(nativeAnswers({ assemble, unwrap, Shelf }, input));
  assert.equal(answers.anthropic.facts.mode, "native");
  // GitHub's create_issue, under the name the model is shown for it (SPEC §16).
  const createIssue = describe(input.anthropic, "create_issue", input.options);
  assert.equal(createIssue.server, "github");
  assert.equal(answers.anthropic.answer.content[0].tool_name, createIssue.name);
  // Responses: the server's namespace with the tool's own name inside it.
  assert.equal(answers.responses.answer.item.tools[0].name, "github");
  assert.equal(answers.responses.answer.item.tools[0].tools[0].name, "create_issue");
  assert.ok(answers.anthropic.loaded[1] > 2 && answers.anthropic.loaded[0] === answers.anthropic.loaded[2]);
  assert.deepEqual(answers.cases.map((u) => u.kind), nativeInput().calls.map((c) => c.kind));
});

test("a tool_search_call nested too deep to parse is a reject that still carries its output item", () => {
  let deep = 1;
  for (let i = 0; i < 140; i++) deep = [deep];
  const responses = { type: "function", name: "get_issue", description: "Get an issue.", parameters: { type: "object", properties: { id: { type: "string" } } } };
  const shelf = new Shelf({ servers: { linear: [responses] } }, OPTIONS);
  const u = shelf.unwrap({ type: "tool_search_call", call_id: "call_deep", execution: "client", arguments: { query: deep } });
  assert.equal(u.kind, "reject");
  assert.match(u.content, /deeper|nest/i, u.content);
  assert.deepEqual(u.item, { type: "tool_search_output", call_id: "call_deep", execution: "client", status: "completed", tools: [] },
    "the output the call needs (the API refuses a conversation whose tool_search_call has none)");
  shelf.free();
});
