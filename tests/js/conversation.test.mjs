// Conversations (SPEC §14) through the packed package: a Shelf across turns with servers attached
// and detached, the history handed to assemble and unwrap as an agent hands it. After each step the
// request is checked against the providers' documented rules (names `^[a-zA-Z0-9_-]{1,64}$`, every
// `tool_reference` in the history defined in `tools`, not every tool deferred); tests/sessions.rs
// runs the same in random sessions against the Rust API.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Shelf, unwrap } from "toolshelf";

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const OPTIONS = { contextLength: 200_000, mode: "native" };

const anthropicTool = (name, description) => ({
  name, description, input_schema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
});
const responsesTool = (name, description) => ({
  type: "function", name, description, parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
});
const READ = anthropicTool("read_file", "Read a file.");
const GITHUB = [anthropicTool("list_issues", "List GitHub issues of a repository."), anthropicTool("get_me", "The GitHub user.")];
const LINEAR = [anthropicTool("list_issues", "List Linear issues of a team."), anthropicTool("save_issue", "Create or update a Linear issue.")];
const ODD = [anthropicTool("events.search", "Search Sentry events."), anthropicTool("sentry/find_projects", "Find Sentry projects."),
  anthropicTool("Github.Get File", "Get a file from a repository.")];

/** Every `tool_reference` of the history names a tool of `tools`; every name fits the pattern. */
function checkAnthropic(tools, messages) {
  const names = tools.map((t) => t.name);
  for (const name of names) assert.match(name, NAME, `tool name ${JSON.stringify(name)}`);
  assert.equal(new Set(names).size, names.length, "tool names unique");
  assert.ok(tools.some((t) => !t.defer_loading), "not every tool deferred");
  const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
  const references = blocks.flatMap((b) => (b.type === "tool_result" && Array.isArray(b.content) ? b.content : [b]))
    .filter((b) => b.type === "tool_reference").map((b) => b.tool_name);
  for (const name of references) assert.ok(names.includes(name), `tool_reference ${name} has a definition`);
}

/** One model turn: the assistant's tool_use, then unwrap with the history and the tool_result. */
function turn(shelf, messages, name, input, run = () => "ok") {
  const use = { type: "tool_use", id: `toolu_${messages.length}`, name, input };
  messages.push({ role: "assistant", content: [use] });
  const u = shelf.unwrap(use, { messages });
  const content = u.kind === "call" ? run(u) : u.content;
  messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content }] });
  checkAnthropic(shelf.assemble({ messages }).tools, messages);
  return u;
}

test("a clashing server attached, then detached: the loaded name keeps its tool, a detached one is unavailable", () => {
  const shelf = new Shelf({ tools: [READ], servers: { github: GITHUB } }, OPTIONS);
  const messages = [{ role: "user", content: "Which issues are open?" }];
  const found = turn(shelf, messages, "tool_search", { query: "list_issues" });
  // The name the package shows GitHub's list_issues under (SPEC §16), as its answer gives it.
  const listName = shelf.describe("list_issues").name;
  assert.deepEqual(found.content.filter((b) => b.type === "tool_reference").map((b) => b.tool_name), [listName]);
  shelf.update({ tools: [READ], servers: { github: GITHUB, linear: LINEAR } });
  const a = shelf.assemble({ messages });
  assert.equal(a.tools.find((t) => t.name === listName)?.description, GITHUB[0].description, "still GitHub's");
  const call = turn(shelf, messages, listName, { query: "open" });
  assert.deepEqual([call.kind, call.server, call.tool], ["call", "github", "list_issues"]);
  const short = turn(shelf, messages, "list_issues", { query: "open" });
  assert.deepEqual([short.kind, short.code], ["reject", "ambiguous_tool"], "the short form two tools answer to runs nothing");
  const linear = turn(shelf, messages, "tool_search", { query: "linear issues" });
  const linearName = linear.content.find((b) => b.type === "tool_reference").tool_name;
  assert.notEqual(linearName, listName, "the newcomer goes by its own shown name");
  shelf.update({ tools: [READ], servers: { linear: LINEAR } });
  const gone = turn(shelf, messages, "get_me", { query: "x" });
  assert.equal(gone.kind, "reject");
  const stale = turn(shelf, messages, listName, { query: "open" });
  assert.deepEqual([stale.kind, stale.code], ["reject", "unavailable_tool"], JSON.stringify(stale));
  const standIn = shelf.assemble({ messages }).tools.find((t) => t.name === listName);
  assert.match(standIn.description, /No longer available/);
  assert.match(shelf.assemble({ messages }).warnings.join("\n"), /no longer holds/);
  const still = turn(shelf, messages, linearName, { query: "mine" });
  assert.deepEqual([still.kind, still.server, still.tool], ["call", "linear", "list_issues"]);
  shelf.free();
});

test("MCP names a provider refuses are sent under valid names and mapped back, in both providers", () => {
  const shelf = new Shelf({ tools: [READ], servers: { sentry: ODD } }, OPTIONS);
  const all = shelf.assemble().tools;
  for (const t of all) assert.match(t.name, NAME);
  const messages = [{ role: "user", content: "Find the event." }];
  for (const own of ["events.search", "sentry/find_projects", "Github.Get File"]) {
    const sent = all.find((t) => t.description === ODD.find((o) => o.name === own).description).name;
    const found = turn(shelf, messages, "tool_search", { query: sent });
    assert.deepEqual(found.content.filter((b) => b.type === "tool_reference").map((b) => b.tool_name), [sent], "a sent name's search loads it");
    const call = turn(shelf, messages, sent, { query: "x" });
    assert.deepEqual([call.kind, call.server, call.tool], ["call", "sentry", own]);
  }
  shelf.free();
  const responses = new Shelf({ tools: [responsesTool("read_file", "Read a file.")],
    servers: { "Ant Design Components": ODD.map((t) => responsesTool(t.name, t.description)) } }, OPTIONS);
  const u = responses.unwrap({ type: "tool_search_call", call_id: "c1", execution: "client", arguments: { query: "events.search" } });
  const [space] = u.item.tools;
  assert.match(space.name, NAME);
  for (const f of space.tools) assert.match(f.name, NAME);
  const call = responses.unwrap({ type: "function_call", call_id: "c2", namespace: space.name, name: space.tools[0].name, arguments: '{"query":"x"}' },
    { input: [{ type: "tool_search_call", call_id: "c1", execution: "client", arguments: { query: "events.search" } }, u.item] });
  assert.deepEqual([call.kind, call.server, call.tool], ["call", "Ant Design Components", "events.search"]);
  responses.free();
});

test("a history nested however deep never breaks the conversation", () => {
  const shelf = new Shelf({ tools: [READ], servers: { github: GITHUB } }, OPTIONS);
  let deep = {};
  for (let i = 0; i < 1000; i++) deep = { a: [deep] };   // 2,000 levels, far past the core's 128
  const messages = [{ role: "user", content: "Go." }];
  const found = turn(shelf, messages, "tool_search", { query: "list_issues" });
  const listName = found.content.find((b) => b.type === "tool_reference").tool_name; // as the package shows it
  messages.push({ role: "assistant", content: [{ type: "tool_use", id: "toolu_deep", name: listName, input: deep }] });
  const rejected = shelf.unwrap(messages.at(-1).content[0], { messages });
  assert.equal(rejected.kind, "reject", "the deep call itself is a reject");
  messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_deep", content: rejected.content }] });
  messages.push({ role: "user", content: [{ type: "tool_result", content: [{ type: "tool_reference" }] }, 7, null] });
  const a = shelf.assemble({ messages });
  assert.ok(a.tools.some((t) => t.name === listName), "the loaded tool is still carried");
  assert.match(a.warnings.join("\n"), /tool_reference block has no tool_name/);
  const call = shelf.unwrap({ type: "tool_use", id: "toolu_next", name: "list_issues", input: { query: "open" } }, { messages });
  assert.deepEqual([call.kind, call.server], ["call", "github"]);
  shelf.free();
});

test("over 10,000 deferred Anthropic tools without a history, unwrap answers as the bridge assemble fell back to", () => {
  const many = Array.from({ length: 10_050 }, (_, i) => anthropicTool(`tool_${i}`, `Tool number ${i}.`));
  const toolbox = { tools: [READ], servers: { big: many } };
  const shelf = new Shelf(toolbox, OPTIONS);
  assert.equal(shelf.assemble().mode, "bridge");
  const search = { type: "tool_use", id: "t", name: "tool_search", input: { query: "tool_7" } };
  assert.equal(typeof shelf.unwrap(search).content, "string", "bridge-shaped, as the array");
  assert.equal(typeof unwrap(toolbox, search, OPTIONS).content, "string");
  const messages = [{ role: "user", content: "Go." }];
  assert.equal(shelf.assemble({ messages }).mode, "native", "with the history the limit does not apply");
  assert.ok(Array.isArray(shelf.unwrap(search, { messages }).content), "and unwrap answers natively too");
  shelf.free();
});
