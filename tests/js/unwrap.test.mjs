// unwrap, search and describe through the installed package, over the same shared cases as the
// Rust tests (tests/data/unwrap-cases.json), plus what only JS can show: object identity.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Shelf, unwrap, search, describe, ToolshelfError } from "toolshelf";
import { dataDir, grouped } from "./support.mjs";

const fixture = JSON.parse(readFileSync(join(dataDir, "unwrap-cases.json"), "utf8"));
const toolbox = grouped(fixture.toolbox.catalogs, fixture.toolbox.direct);
const options = fixture.toolbox.options;

function check(name, got, expect) {
  assert.equal(got.kind, expect.kind, `${name}: ${JSON.stringify(got)}`);
  if (expect.kind === "call") return assert.deepEqual(got, expect, name);
  assert.equal(got.id, expect.id, `${name}: id`);
  for (const part of expect.contains ?? []) assert.ok(got.content.includes(part), `${name}: ${got.content} lacks ${part}`);
  if (expect.kind !== "answer") return;
  const answer = JSON.parse(got.content);
  for (const [key, value] of Object.entries(expect.json ?? {})) assert.deepEqual(answer[key], value, `${name}: ${key}`);
  if (expect.matches !== undefined) assert.equal(answer.matches.length, expect.matches, name);
}

test("the shared unwrap cases give the same results as in Rust", () => {
  const shelf = new Shelf(toolbox, options);
  for (const c of fixture.cases) check(c.name, shelf.unwrap(c.call), c.expect);
  shelf.free();
});

test("the free unwrap gives what the Shelf gives", () => {
  const shelf = new Shelf(toolbox, options);
  for (const c of fixture.cases.filter((_, i) => i % 5 === 0)) assert.deepEqual(unwrap(toolbox, c.call, options), shelf.unwrap(c.call), c.name);
});

test("a direct tool's argument object comes back by reference", () => {
  const input = { command: "ls -la" };
  const got = unwrap(toolbox, { type: "tool_use", id: "toolu_9", name: "bash", input }, options);
  assert.equal(got.kind, "call");
  assert.equal(got.arguments, input);
  assert.equal(got.id, "toolu_9");
  assert.ok(!("untouched" in got));
  // Validated arguments of a deferred tool are a new object (they may have been coerced).
  const args = { owner: "o", repo: "r", title: "t" };
  const deferred = unwrap(toolbox, { name: "mcp__github__create_issue", arguments: args }, options);
  assert.deepEqual(deferred.arguments, args);
});

test("a call that is not an object is a ToolshelfError with code invalid_call", () => {
  for (const bad of [42, null, undefined, "tool_call", [1]]) {
    assert.throws(() => unwrap(toolbox, bad, options), (e) => e instanceof ToolshelfError && e.code === "invalid_call", String(bad));
  }
  assert.throws(() => unwrap(toolbox, { name: "bash", arguments: { n: 1n } }, options), (e) => e.code === "invalid_call");
});

test("search and describe for programs", () => {
  const result = search(toolbox, "github create issue", { ...options, limit: 3 });
  assert.equal(result.totalAvailable, 155);
  assert.equal(result.matches.length, 3);
  assert.equal(result.matches[0].name, "mcp__github__create_issue");
  assert.deepEqual(result.matches[0].required, ["owner", "repo", "title"]);
  assert.ok(result.matches[0].score >= result.matches[1].score);
  assert.equal(result.servers, undefined);
  assert.equal(result.matches[0].partial, false);
  assert.deepEqual(result.unknownWords, []);
  // A word no tool holds is reported, not fatal (SPEC §4): the other words still find tools, each partial.
  const gmail = search(toolbox, "send gmail email", options);
  assert.deepEqual(gmail.unknownWords, ["gmail"]);
  assert.ok(gmail.matches.length > 0 && gmail.matches.every((m) => m.partial === true), "matches for the other words, each partial");
  assert.equal(gmail.servers, undefined);
  // Nothing matches: no match, and the servers still on the shelf.
  const none = search(toolbox, "gmail", options);
  assert.deepEqual(none.matches, []);
  assert.deepEqual(none.unknownWords, ["gmail"]);
  assert.deepEqual(none.servers, [{ name: "github", tools: 117 }, { name: "linear", tools: 38 }]);
  assert.equal(search(toolbox, "  ", options).error.startsWith("query is required"), true);
  const described = describe(toolbox, "mcp__linear__save_issue", options);
  assert.equal(described.server, "linear");
  assert.equal(described.parameters.type, "object");
  assert.equal(describe(toolbox, "bash", options), null);
  assert.equal(describe(toolbox, "nope", options), null);
  const shelf = new Shelf(toolbox, options);
  assert.deepEqual(shelf.search("github create issue", { limit: 3 }), result);
  assert.deepEqual(shelf.describe("mcp__linear__save_issue"), described);
});
