// The smoke suite every runtime and bundler runs on the packed package: assemble, search, describe,
// unwrap (a call through the bridge, coerced; a reject) and a Shelf (and its snapshot, when the
// package has them) over GitHub + Linear. Plain ESM with no import of its own: Node, Deno, the
// bundled pages and the Workers pass in the API they imported, and their answers are compared as
// JSON text with Node's (equal bytes).

export const QUERY = "create pull request";
export const OPTIONS = { contextLength: 200_000, qualify: true };
export const CALL = {
  id: "call_1",
  type: "function",
  function: { name: "tool_call", arguments: JSON.stringify({ name: "mcp__linear__save_issue", arguments: { title: "Crash", team: "Core", priority: "2" } }) },
};
export const BAD_CALL = { id: "call_2", type: "function", function: { name: "tool_call", arguments: JSON.stringify({ name: "mcp__linear__list_issues", arguments: { limit: 500 } }) } };
export const DIRECT = {
  type: "function",
  function: { name: "read_file", description: "Read a file.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
};

/** The input of the suite from the two catalogs' tool lists (what the pages fetch and the Workers embed). */
export function toolboxOf(servers) {
  return { tools: [DIRECT], servers };
}

const codeOf = (api, f) => {
  try {
    f();
    return "no throw";
  } catch (e) {
    return e instanceof api.ToolshelfError && e instanceof Error ? e.code : String(e);
  }
};

/** Runs the suite with `api` (the package as imported); returns one JSON text of every answer. */
export function smoke(api, toolbox) {
  const out = {};
  const a = api.assemble(toolbox, OPTIONS);
  out.assembly = a;
  out.directIsSameObject = a.tools[0] === toolbox.tools[0];
  out.search = api.search(toolbox, QUERY, OPTIONS);
  out.describe = api.describe(toolbox, "mcp__linear__save_issue", OPTIONS);
  out.unwrap = api.unwrap(toolbox, CALL, OPTIONS);
  out.reject = api.unwrap(toolbox, BAD_CALL, OPTIONS);
  const shelf = new api.Shelf(toolbox, OPTIONS);
  out.shelf = { fingerprint: shelf.assemble().fingerprint, search: shelf.search(QUERY, { limit: 3 }), unwrap: shelf.unwrap(CALL) };
  if (typeof shelf.snapshot === "function" && typeof api.Shelf.fromSnapshot === "function") {
    const loaded = api.Shelf.fromSnapshot(shelf.snapshot(), toolbox, OPTIONS);
    out.snapshot = { fingerprint: loaded.assemble().fingerprint, search: loaded.search(QUERY, { limit: 3 }), unwrap: loaded.unwrap(CALL) };
    loaded.free();
  }
  shelf.free();
  out.error = codeOf(api, () => api.assemble(42));
  return JSON.stringify(out);
}

/** What every runtime's answers must also show, beyond equality with Node's (so equal is not equally wrong). */
export function meaningful(text) {
  const out = JSON.parse(text);
  const problems = [];
  const expect = (ok, what) => ok || problems.push(what);
  expect(out.assembly.tier === 1 && out.assembly.deferredCount > 100, `tier 1 with the deferred tools (${out.assembly.tier}, ${out.assembly.deferredCount})`);
  expect(out.directIsSameObject, "the direct tool is the caller's own object");
  expect(out.search.matches[0]?.name === "mcp__github__create_pull_request", `search finds create_pull_request first (${out.search.matches[0]?.name})`);
  expect(out.describe?.name === "mcp__linear__save_issue", "describe answers");
  expect(out.unwrap.kind === "call" && out.unwrap.tool === "save_issue" && out.unwrap.arguments.priority === 2, "unwrap gives the real call, priority coerced to 2");
  expect(out.reject.kind === "reject", "an argument over its maximum is rejected");
  expect(out.shelf.fingerprint === out.assembly.fingerprint, "the Shelf assembles the same bytes");
  expect(out.error === "invalid_toolbox", `a bad toolbox throws invalid_toolbox (${out.error})`);
  return problems;
}
