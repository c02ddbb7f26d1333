// The bounds of SPEC §8 through the package: 50,000 tools are accepted, more than 100,000 are a
// ToolshelfError `too_large` (never a RangeError from the JS layer), in the flat and grouped forms.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assemble, ToolshelfError } from "toolshelf";

const tool = (name) => ({ name, parameters: { type: "object" } });
const flat = (n) => Array.from({ length: n }, (_, i) => tool(`mcp__s${i % 50}__t${i}`));

test("50,000 tools are accepted, flat and grouped", () => {
  const a = assemble(flat(50_000), { contextLength: 200_000 });
  assert.equal(a.deferredCount, 50_000);
  assert.ok(a.listingTokens <= a.budgetTokens);
  const grouped = { tools: [tool("bash")], servers: { big: Array.from({ length: 50_000 }, (_, i) => tool(`t${i}`)) } };
  const b = assemble(grouped, { contextLength: 200_000 });
  assert.equal(b.deferredCount, 50_000);
  assert.equal(b.tools[0], grouped.tools[0]);
});

test("more than 100,000 tools are too_large, not a stack overflow", () => {
  const tooMany = { servers: { big: Array.from({ length: 200_000 }, (_, i) => tool(`t${i}`)) } };
  assert.throws(() => assemble(tooMany), (e) => e instanceof ToolshelfError && e.code === "too_large");
});
