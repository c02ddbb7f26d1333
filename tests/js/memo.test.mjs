// The stateless functions reuse a toolbox they prepared before (pkg-template/api.js): by its JSON
// text, or by identity when every tool def is deeply frozen (assemble, which reads an outline of the
// toolbox, has its own memo: outline.test.mjs). These tests change the toolbox in
// every way a caller can and check that a changed toolbox always gives a new, correct result
// (equal to what a fresh Shelf, which never shares anything, gives).
import { test } from "node:test";
import assert from "node:assert/strict";
import { assemble, search, describe, unwrap, Shelf } from "toolshelf";
import { deepFreeze, grouped, shelfAssembly, tool } from "./support.mjs";

const options = { contextLength: 200_000, qualify: true };

/** What a toolbox gives with nothing reused: a new Shelf. */
const fresh = (toolbox, opts = options) => shelfAssembly(Shelf, toolbox, opts);

/** A small toolbox of new objects: one direct tool, two servers. */
function small(description = "Create a new issue in the tracker.") {
  const issue = tool("create_issue", description);
  issue.function.parameters.properties.title = { type: "string", description: "The title." };
  return {
    tools: [tool("read_file", "Reads a file.")],
    servers: { tracker: [issue, tool("list_issues", "Lists issues.")], files: [tool("list_files", "Lists files.")] },
  };
}

const listing = (a) => a.tools.find((t) => t.function.name === "tool_search").function.description;

test("same objects, mutated in place anywhere: a new result every time", () => {
  const toolbox = small();
  const first = assemble(toolbox, options);
  assert.deepEqual(first, fresh(toolbox));
  assert.deepEqual(assemble(toolbox, options), first, "unchanged: the same result");

  toolbox.servers.tracker[0].function.description = "Open a ticket in the tracker.";
  const described = assemble(toolbox, options);
  assert.match(listing(described), /Open a ticket/);
  assert.notEqual(described.fingerprint, first.fingerprint);
  assert.deepEqual(described, fresh(toolbox));

  // A change deep in a schema changes only the size: the deferred tokens must follow.
  toolbox.servers.tracker[0].function.parameters.properties.title.description = "The title, ".repeat(40);
  const deep = assemble(toolbox, options);
  assert.ok(deep.deferredTokens > described.deferredTokens, `${deep.deferredTokens} > ${described.deferredTokens}`);
  assert.deepEqual(deep, fresh(toolbox));

  toolbox.servers.tracker.push(tool("close_issue", "Closes an issue."));
  const pushed = assemble(toolbox, options);
  assert.equal(pushed.deferredCount, deep.deferredCount + 1);
  assert.deepEqual(pushed, fresh(toolbox));

  toolbox.servers = { renamed: toolbox.servers.tracker, files: toolbox.servers.files };
  const renamed = assemble(toolbox, options);
  assert.deepEqual(renamed.servers.map((s) => s.name), ["files", "renamed"]);
  assert.deepEqual(renamed, fresh(toolbox));

  toolbox.tools.pop();
  assert.deepEqual(assemble(toolbox, options).tools.length, 3, "the direct tool is gone");
});

test("new objects with the same content get the same result, holding the new objects", () => {
  const a = small();
  const b = small();
  const ra = assemble(a, options);
  const rb = assemble(b, options);
  assert.equal(ra.tools[0], a.tools[0]);
  assert.equal(rb.tools[0], b.tools[0], "the direct tool is this call's object, not the earlier one");
  assert.deepEqual(rb, ra);
});

test("options are part of the key", () => {
  const toolbox = small();
  const big = assemble(toolbox, options);
  const off = assemble(toolbox, { ...options, enabled: "off" });
  assert.equal(off.tier, 0);
  assert.equal(big.tier, 1);
  assert.deepEqual(off, fresh(toolbox, { ...options, enabled: "off" }));
  assert.equal(assemble(toolbox, options).tier, 1);
});

test("deeply frozen tools are reused by identity, and any other toolbox is not", () => {
  const toolbox = small();
  for (const list of [toolbox.tools, ...Object.values(toolbox.servers)]) list.forEach(deepFreeze);
  const first = assemble(toolbox, options);
  assert.deepEqual(assemble(toolbox, options), first);
  assert.notEqual(assemble(toolbox, options), first, "a fresh object each call");

  // A frozen tool cannot change, but the lists around it can.
  const replaced = deepFreeze(tool("create_issue", "Files a bug."));
  toolbox.servers.tracker[0] = replaced;
  const second = assemble(toolbox, options);
  assert.match(listing(second), /Files a bug/);
  assert.deepEqual(second, fresh(toolbox));

  // The same frozen tools moved to another server.
  const moved = { tools: toolbox.tools, servers: { other: toolbox.servers.tracker, files: toolbox.servers.files } };
  assert.deepEqual(assemble(moved, options), fresh(moved));
  // The same frozen tools in another order within a server.
  const swapped = { tools: toolbox.tools, servers: { tracker: [...toolbox.servers.tracker].reverse(), files: toolbox.servers.files } };
  assert.deepEqual(assemble(swapped, options), fresh(swapped));
  // Direct and deferred trade places.
  const flipped = { tools: toolbox.servers.files, servers: { tracker: toolbox.servers.tracker, files: toolbox.tools } };
  assert.deepEqual(assemble(flipped, options), fresh(flipped));
});

test("the frozen path writes no JSON; any other toolbox is written every call (assemble: its outline)", () => {
  const stringify = JSON.stringify;
  let written = 0;
  const watch = (toolbox, fn) => {
    written = 0;
    JSON.stringify = function (value, ...rest) {
      if (value === toolbox) written++;
      return stringify.call(this, value, ...rest);
    };
    try {
      return fn();
    } finally {
      JSON.stringify = stringify;
    }
  };
  const plain = small("A plain toolbox.");
  assemble(plain, options);
  watch(plain, () => assemble(plain, options));
  assert.equal(written, 0, "assemble reads the toolbox's outline (outline.test.mjs), never its whole JSON");
  search(plain, "plain", options);
  watch(plain, () => search(plain, "plain", options));
  assert.equal(written, 1, "an unfrozen toolbox is compared by its text");
  const frozen = small("A frozen toolbox.");
  for (const list of [frozen.tools, ...Object.values(frozen.servers)]) list.forEach(deepFreeze);
  assemble(frozen, options);
  const again = watch(frozen, () => assemble(frozen, options));
  assert.equal(written, 0, "deeply frozen tools are recognised by identity");
  assert.deepEqual(again, fresh(frozen));
  search(frozen, "frozen", options); // prepares it for search (assemble read only its outline)
  const searched = watch(frozen, () => search(frozen, "frozen", options));
  assert.equal(written, 0);
  assert.deepEqual(searched.matches.map((m) => m.name), ["mcp__tracker__create_issue"]);
});

test("a tool mutated and then frozen is not mistaken for the one prepared before", () => {
  const toolbox = small();
  assemble(toolbox, options); // prepared while unfrozen
  toolbox.servers.tracker[0].function.description = "Raise a defect.";
  toolbox.servers.tracker.forEach(deepFreeze);
  toolbox.servers.files.forEach(deepFreeze);
  toolbox.tools.forEach(deepFreeze);
  const a = assemble(toolbox, options);
  assert.match(listing(a), /Raise a defect/);
  assert.deepEqual(a, fresh(toolbox));
});

test("a frozen object whose JSON can still change (a getter, toJSON) is compared by its text", () => {
  let description = "First words.";
  const sly = tool("sly_tool");
  Object.defineProperty(sly.function, "description", { get: () => description, enumerable: true });
  const toolbox = { servers: { s: [deepFreeze(sly)] } };
  assert.match(listing(assemble(toolbox, options)), /First words/);
  description = "Second words.";
  assert.match(listing(assemble(toolbox, options)), /Second words/);

  // toJSON gives another name on every call: each call must see it (no reuse by identity).
  let n = 0;
  const dynamic = deepFreeze({ ...tool("dynamic_tool"), toJSON: () => tool(`dynamic_${++n}`) });
  const box = { servers: { s: [dynamic] } };
  const off = { enabled: "off" };
  const prints = [1, 2, 3].map(() => assemble(box, off).fingerprint);
  assert.equal(new Set(prints).size, 3, prints.join(" "));
  assert.equal(assemble(box, off).tools[0], dynamic, "tier 0 hands back the caller's object");
});

test("search, describe and unwrap see a changed toolbox too", () => {
  const toolbox = small();
  assert.equal(search(toolbox, "zebra", options).matches.length, 0);
  assert.equal(describe(toolbox, "mcp__tracker__create_issue", options).description, "Create a new issue in the tracker.");
  toolbox.servers.tracker[0].function.description = "Create a zebra.";
  assert.deepEqual(search(toolbox, "zebra", options).matches.map((m) => m.name), ["mcp__tracker__create_issue"]);
  assert.equal(describe(toolbox, "mcp__tracker__create_issue", options).description, "Create a zebra.");
  toolbox.servers.tracker[0].function.parameters.required = ["title"];
  const call = { name: "tool_call", arguments: { name: "mcp__tracker__create_issue", arguments: {} } };
  assert.equal(unwrap(toolbox, call, options).kind, "reject", "the new required parameter is checked");
});

test("many toolboxes in turn: older ones are let go, every answer stays right", () => {
  const boxes = Array.from({ length: 7 }, (_, i) => small(`Tool number ${i}.`));
  for (let round = 0; round < 2; round++) {
    for (const [i, box] of boxes.entries()) {
      const a = assemble(box, options);
      assert.match(listing(a), new RegExp(`Tool number ${i}`));
    }
  }
});

test("errors are never remembered", () => {
  const bad = { servers: { s: [tool("a"), tool("a")] } };
  assert.throws(() => assemble(bad, { qualify: false }), { code: "duplicate_tool" });
  bad.servers.s[1].function.name = "b";
  assert.equal(assemble(bad, { qualify: false }).deferredCount, 2);
});

test("a real catalog: the same result as a fresh Shelf, before and after a change", () => {
  const toolbox = grouped(["github-mcp-server", "linear-mcp-official"]);
  const first = assemble(toolbox, options);
  assert.deepEqual(first, fresh(toolbox));
  toolbox.servers.linear.pop();
  const second = assemble(toolbox, options);
  assert.equal(second.deferredCount, first.deferredCount - 1);
  assert.deepEqual(second, fresh(toolbox));
});
