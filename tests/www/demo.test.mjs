// End-to-end test of the demo page (www/) in Debian's Chromium, driven by playwright-core (which never
// downloads a browser): serves www/, pkg/ and the catalogs on a loopback port, then checks what a reader
// sees: Linear + Cloudflare at 200K is tier 1 mixed with Linear full and Cloudflare summary, searching
// "create dns record" puts Cloudflare's DNS tool first, describe opens on click, unwrap turns a
// tool_call into the real call, "create issue" over GitHub + Linear + Cloudflare puts create_issue
// first, a word no tool holds ("gmail") is named above hits marked partial, Linear alone still finds
// save_comment for "post comment on ticket", a name clash without qualify shows duplicate_tool, and
// the page fits a phone. The names the model is shown are asked of the built package (pkg/), as the
// page asks it. Screenshots go to target/www-test/ (or $WWW_TEST_OUT). Needs `scripts/build` first.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../../www/serve.mjs";
import { Shelf } from "../../pkg/node.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const outDir = process.env.WWW_TEST_OUT ?? join(repo, "target", "www-test");
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
/**
 * The name the model is shown for `server`'s tool `own`, asked of the package: a pure function of
 * (server, tool) (SPEC §16), so a Shelf holding that one tool names it as the page's Shelf does.
 */
function shownName(server, own) {
  const shelf = new Shelf({ servers: { [server]: [{ name: own, description: "", inputSchema: { type: "object" } }] } });
  try {
    return shelf.describe(own).name;
  } finally {
    shelf.free();
  }
}
/** The heading of `server`'s block in the listing: the prefix its tools' shown names share. */
const heading = (server, own) => `${shownName(server, own).slice(0, -own.length)}*`;
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const DNS_TOOL = "dns-records-for-a-zone-create-dns-record";
const DNS_SHOWN = shownName("cloudflare", DNS_TOOL);

let server;
let browser;
let page;
const pageErrors = [];

before(async () => {
  mkdirSync(outDir, { recursive: true });
  const started = await startServer({ port: 0 });
  server = started.server;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
  page = await openPage({ width: 1280, height: 900 }, started.url);
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** A new page at `viewport`, loaded and done with its first assembly; page errors are collected. */
async function openPage(viewport, url = `http://127.0.0.1:${server.address().port}/`) {
  const context = await browser.newContext({ viewport, permissions: ["clipboard-read", "clipboard-write"] });
  const opened = await context.newPage();
  opened.on("pageerror", (error) => pageErrors.push(error.message));
  opened.on("console", (message) => message.type() === "error" && pageErrors.push(message.text()));
  await opened.goto(url);
  await settled(opened);
  return opened;
}

/** Waits until the page has applied the last change of its controls. */
const settled = (p) => p.waitForSelector('body[data-busy="false"]', { timeout: 30_000 });

/** Ticks exactly the catalogs named by label ("Linear", "Cloudflare", …) and waits for the assembly. */
async function chooseCatalogs(labels) {
  for (const chip of await page.locator(".chip").all()) {
    const label = (await chip.innerText()).trim();
    await chip.locator("input").setChecked(labels.some((l) => label.startsWith(`${l} `)));
  }
  await settled(page);
}

const text = (selector) => page.locator(selector).innerText();

test("the page loads the package and assembles the default catalogs without errors", async () => {
  assert.match(await text("#tier"), /^tier [0-2]$/);
  assert.match(await text("#status"), /deferred tools assembled/);
  assert.deepEqual(pageErrors, []);
});

test("Linear + Cloudflare at 200K: tier 1, mixed, Linear full, Cloudflare summary", async () => {
  await chooseCatalogs(["Linear", "Cloudflare"]);
  await page.selectOption("#context", "200000");
  await settled(page);
  assert.equal(await text("#tier"), "tier 1");
  assert.equal(await text("#form"), "mixed");
  assert.equal(await page.getAttribute('.server[data-server="linear"]', "data-level"), "full");
  assert.equal(await page.getAttribute('.server[data-server="cloudflare"]', "data-level"), "summary");
  assert.equal(await text('.server[data-server="linear"] .level'), "full");
  assert.equal(await text('.server[data-server="cloudflare"] .level'), "summary");
  assert.equal(await text("#budget"), "10,000 tok");

  const listing = await text("#listing-text");
  assert.match(listing, new RegExp(`^${escape(heading("linear", "save_issue"))} \\(38 tools\\):$`, "m"));
  assert.match(listing, /^- save_issue: /m);
  // A server shown only as a count is named as it is (its tools are searched before they are named).
  assert.match(listing, /^cloudflare: 1533 tools/m);
  // Each server's share of the listing, measured on its block.
  const listed = async (server) => Number((await text(`.server[data-server="${server}"] .server-tokens`)).split("→")[1].replace(/\D/g, ""));
  assert.ok((await listed("linear")) > 10 * (await listed("cloudflare")), "Linear's full block outweighs Cloudflare's summary line");
  assert.ok((await listed("cloudflare")) > 0);

  const tools = JSON.parse(await text("#tools-json"));
  const names = tools.map((t) => t.function.name);
  assert.deepEqual(names, ["read_file", "run_shell", "tool_search", "tool_describe", "tool_call"]);
  assert.equal(tools[2].function.description, listing);

  await page.click("#copy");
  await page.waitForFunction(() => document.querySelector("#copy").textContent !== "Copy JSON");
  assert.equal(await text("#copy"), "Copied ✓");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), JSON.stringify(tools), "Copy gives the compact JSON");
});

test('searching "create dns record" ranks Cloudflare\'s DNS create tool first, and says why', async () => {
  await page.fill("#query", "create dns record");
  await page.waitForSelector('#results[data-query="create dns record"]');
  const first = page.locator(".hit").first();
  assert.equal(await first.getAttribute("data-name"), DNS_SHOWN);
  assert.equal(await first.locator(".hit-server").innerText(), "cloudflare");
  assert.match(await first.locator(".hit-score").innerText(), /^\d+\.\d\d$/);
  const why = await first.locator(".why .word.found").allInnerTexts();
  assert.deepEqual(why.map((w) => w.split(" ")[0]), ["create", "dns", "record"]);
  assert.deepEqual(await first.locator("mark").allInnerTexts().then((m) => m.slice(0, 3)), ["dns", "records", "create"]);

  await first.locator(".hit-head").click();
  const described = JSON.parse(await first.locator(".described pre").innerText());
  assert.equal(described.name, DNS_SHOWN);
  assert.equal(described.server, "cloudflare");
  assert.deepEqual(described.parameters.required, ["zone_id", "body"]);
  assert.equal(await text("#target"), DNS_SHOWN);
});

test("unwrap turns the model's tool_call into the real call, and answers or rejects the rest", async () => {
  await page.selectOption("#shape", "chat");
  await page.selectOption("#intent", "call");
  const call = JSON.parse(await page.inputValue("#call"));
  assert.equal(call.function.name, "tool_call");
  assert.equal(await text("#unwrap-kind"), "call");
  assert.equal(await text('[data-field="server"]'), "cloudflare");
  assert.equal(await text('[data-field="name"]'), DNS_SHOWN);
  assert.equal(await text('[data-field="tool"]'), DNS_TOOL, "the server's own name for it");
  assert.equal(await text('[data-field="viaBridge"]'), "true");
  assert.equal(await text('[data-field="id"]'), "call_01");
  await page.screenshot({ path: join(outDir, "demo-desktop.png"), fullPage: true });
  const sees = await page.locator("#sees-title").evaluate((h) => h.closest("section").getBoundingClientRect().bottom + window.scrollY);
  await page.screenshot({ path: join(outDir, "demo-overview.png"), fullPage: true, clip: { x: 0, y: 0, width: 1280, height: Math.ceil(sees) + 16 } });

  await page.selectOption("#shape", "anthropic");
  await page.selectOption("#intent", "search");
  assert.equal(await text("#unwrap-kind"), "answer");
  const answer = JSON.parse(await text("#unwrapped pre"));
  assert.equal(answer.matches[0].name, DNS_SHOWN);

  await page.selectOption("#intent", "unknown");
  assert.equal(await text("#unwrap-kind"), "reject");
  assert.match(await text("#unwrapped pre"), /Closest names/);

  const before = await text("#unwrapped pre");
  await page.fill("#call", '{"name": "tool_call", "arguments": "{not json"}');
  await page.waitForFunction((shown) => document.querySelector("#unwrapped pre")?.textContent !== shown, before);
  assert.equal(await text("#unwrap-kind"), "reject");
  assert.match(await text("#unwrapped pre"), /JSON/);
});

/** Types `query` into the search box and waits for its hits. */
async function search(query) {
  await page.fill("#query", query);
  await page.waitForSelector(`#results[data-query="${query}"]`);
}

const hitNames = () => page.locator(".hit").evaluateAll((hits) => hits.map((hit) => hit.dataset.name));

test('search over GitHub + Linear + Cloudflare: "create issue" finds create_issue first, wholly matched', async () => {
  await chooseCatalogs(["Linear", "GitHub", "Cloudflare"]);
  await search("create issue");
  const first = page.locator(".hit").first();
  assert.equal(await first.getAttribute("data-name"), shownName("github", "create_issue"));
  assert.equal(await first.getAttribute("data-partial"), "false");
  assert.equal(await first.locator(".partial").count(), 0, "no partial mark on a full match");
  assert.deepEqual(await first.locator(".why .word.missing").allInnerTexts(), [], 'no "not found" under the first hit');
  assert.deepEqual((await first.locator(".why .word.found b").allInnerTexts()), ["create", "issue"]);
  assert.equal(await page.isVisible("#unknown-words"), false, "no unknown words");
});

test("a word no tool holds is named once above the hits, and every hit is marked partial", async () => {
  // From tests/data/queries-absent.json (this catalog union lacks Gmail).
  await search("send an email via gmail");
  assert.equal(await page.isVisible("#unknown-words"), true);
  assert.match(await text("#unknown-words"), /^No tool mentions: gmail\b/);
  assert.deepEqual(await page.locator("#unknown-words b").allInnerTexts(), ["gmail"]);
  const hits = page.locator(".hit");
  assert.ok((await hits.count()) > 0, "the other words still find tools");
  assert.deepEqual([...new Set(await hits.evaluateAll((all) => all.map((hit) => hit.dataset.partial)))], ["true"]);
  assert.equal(await page.locator(".hit .hit-head .partial").count(), await hits.count(), "a visible partial mark on each hit");
  assert.equal(await page.locator(".hit .partial").first().innerText(), "partial");
  assert.equal(await page.locator(".why .word b", { hasText: /^gmail$/ }).count(), 0, "not repeated as not found under each hit");
  assert.match(await text("#search-meta"), /\(\d+ partial\)/);
  await page.locator("#search-title").evaluate((h) => h.scrollIntoView());
  await page.locator("#search-title").locator("xpath=..").screenshot({ path: join(outDir, "demo-search-unknown.png") });
});

test('Linear alone: "post comment on ticket" still finds save_comment', async () => {
  await chooseCatalogs(["Linear"]);
  await search("post comment on ticket");
  const names = await hitNames();
  assert.ok(names.includes(shownName("linear", "save_comment")), `hits: ${names.join(", ")}`);
  if (await page.isVisible("#unknown-words")) {
    const partial = await page.locator(".hit").evaluateAll((hits) => hits.map((hit) => hit.dataset.partial));
    assert.deepEqual([...new Set(partial)], ["true"], "with words no tool holds, every hit is partial");
  }
  await search("create issue");
  assert.equal(await page.isVisible("#unknown-words"), false, "the unknown words go with the query that had them");
});

test("GitHub + Linear with qualify off is a readable duplicate_tool error; auto qualifies the clash, on (the default) every tool", async () => {
  await chooseCatalogs(["Linear", "GitHub"]);
  assert.equal(await page.inputValue("#qualify"), "on", "the default");
  assert.equal(await page.isVisible("#error"), false);
  assert.equal(await page.locator("#warnings li").count(), 0, "no warning: every tool is named by its server");
  assert.match(await text("#listing-text"), new RegExp(`^${escape(heading("linear", "list_issues"))} \\(38 tools\\):\n(- .*\n)*- list_issues: `, "m"));

  await page.selectOption("#qualify", "off");
  await settled(page);
  assert.equal(await page.isVisible("#error"), true);
  assert.match(await text("#error"), /duplicate_tool/);
  assert.match(await text("#error"), /list_issues in (github and linear|linear and github)/);

  await page.selectOption("#qualify", "auto");
  await settled(page);
  assert.equal(await page.isVisible("#error"), false);
  assert.match(await text("#warnings"), /^qualify: 2 deferred tools share their name with another tool \("list_issues"\)/m, "the core's warning");
  assert.match(await text("#listing-text"), /^- mcp__linear__list_issues: /m);
  assert.match(await text("#listing-text"), /^- save_issue: /m, "a name no other tool has stays short");
  await page.selectOption("#qualify", "on");
  await settled(page);
});

test("a pasted toolbox (a flat Anthropic list) gets the bridge in Anthropic's format; a bad one says why", async () => {
  await page.check('input[name="source"][value="paste"]');
  await page.click("#paste-example");
  await settled(page);
  assert.equal(await text("#tier"), "tier 1");
  assert.equal(await text("#form"), "full");
  const tools = JSON.parse(await text("#tools-json"));
  assert.deepEqual(tools.map((t) => t.name), ["bash", "tool_search", "tool_describe", "tool_call"]);
  assert.ok(tools.every((t) => "input_schema" in t && !("function" in t)), "every tool in Anthropic's shape");
  assert.match(await text("#listing-text"), new RegExp(`^${escape(heading("weather", "get_forecast"))} \\(2 tools\\):$`, "m"));

  await page.fill("#paste-text", '[{"description": "no name"}]');
  await settled(page);
  assert.equal(await page.isVisible("#error"), true);
  assert.match(await text("#error"), /invalid_tool \[0\]/);
  await page.check('input[name="source"][value="catalogs"]');
  await settled(page);
});

test("the mode switch: the tools array and a search's answer in bridge, native Anthropic and native Responses mode", async () => {
  await chooseCatalogs(["Linear"]);
  const answer = async () => JSON.parse(await page.locator("#search-answer").textContent());
  await page.selectOption("#mode", "anthropic");
  await settled(page);
  const tools = JSON.parse(await text("#tools-json"));
  assert.deepEqual(tools.slice(0, 3).map((t) => t.name), ["read_file", "run_shell", "tool_search"]);
  assert.equal(tools.length, 3 + 38, "every deferred tool is sent, with defer_loading");
  assert.ok(tools.slice(3).every((t) => t.defer_loading === true && "input_schema" in t));
  assert.ok(!tools.some((t) => t.name === "tool_describe" || t.name === "tool_call"));
  assert.match(await text("#listing-text"), /several full names in one search load them all/);
  await search("create issue");
  const first = await page.locator(".hit").first().getAttribute("data-name");
  const blocks = await answer();
  assert.deepEqual(blocks[0], { type: "tool_reference", tool_name: first });
  // One reference (loadLimit 1), then one text block: the other matches named by the names the
  // model calls; no unknown-words hint.
  assert.deepEqual(blocks.map((b) => b.type), ["tool_reference", "text"]);
  const second = await page.locator(".hit").nth(1).getAttribute("data-name");
  assert.match(blocks[1].text, new RegExp(`^Also matching, not loaded .*\\b${escape(second)}: `));
  assert.doesNotMatch(blocks[1].text, /No tool mentions/, "no unknown word");

  await page.selectOption("#mode", "responses");
  await settled(page);
  const responses = JSON.parse(await text("#tools-json"));
  assert.deepEqual(responses.map((t) => t.type), ["function", "function", "tool_search"]);
  assert.equal(responses[2].execution, "client");
  const item = await answer();
  assert.equal(item.type, "tool_search_output");
  assert.equal(item.call_id, "call_search");
  // The loaded tool in its server's namespace: the namespace and the function are the shown name's two parts.
  const [namespace] = item.tools;
  assert.equal(namespace.type, "namespace");
  assert.equal(`${namespace.name}__${namespace.tools[0].name}`, first.slice("mcp__".length));
  assert.equal(`mcp__${namespace.name}__*`, heading("linear", namespace.tools[0].name));

  await page.selectOption("#mode", "bridge");
  await settled(page);
  assert.equal((await answer()).matches[0].name, first);
  assert.ok(JSON.parse(await text("#tools-json")).some((t) => t.name === "tool_call"));
  await page.selectOption("#format", "openai");
  await settled(page);
});

test("the page fits a phone-width screen", async () => {
  const phone = await openPage({ width: 390, height: 844 });
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.equal(overflow, 0, "no horizontal scrolling at 390 px");
  assert.match(await phone.locator("#tier").innerText(), /^tier [0-2]$/);
  await phone.screenshot({ path: join(outDir, "demo-phone.png"), fullPage: true });
  await phone.screenshot({ path: join(outDir, "demo-phone-top.png") });
  assert.deepEqual(pageErrors, []);
});
