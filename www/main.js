// The demo page's wiring: reads the controls, builds the toolbox (real catalogs or pasted JSON),
// prepares a toolshelf Shelf with the chosen options, and renders the assembly, the token picture,
// the model-visible tools, live search with describe on click, and the unwrap playground.
import { init, Shelf } from "toolshelf";
import { CATALOGS, PASTE_EXAMPLE, catalogToolbox, groupByServer, loadCatalog, nameClashes, toolName, toolSchema } from "./toolbox.js";
import { listingText, tokenPicture } from "./tokens.js";
import { queryWords, stem } from "./why.js";
import { INTENTS, SHAPES, inShape, intendedCall } from "./calls.js";
import * as view from "./render.js";

const $ = (id) => document.getElementById(id);
const DEFAULT_BRIDGE = { search: "tool_search", describe: "tool_describe", call: "tool_call" };
const DEFAULT_SELECTION = ["linear-mcp-official", "github-mcp-server", "cloudflare-api-2024-08"];

const state = {
  shelf: null,
  toolbox: null,
  assembly: null,
  options: null,
  bridge: DEFAULT_BRIDGE,
  picked: null, // the search hit last opened: the unwrap playground's target
  callEdited: false,
  generation: 0,
};

function debounce(fn, ms) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

// ---- controls -------------------------------------------------------------------------------

function renderCatalogChoices() {
  const chips = CATALOGS.map((c) =>
    view.h(
      "label",
      { class: "chip" },
      view.h("input", { type: "checkbox", name: "catalog", value: c.id, checked: DEFAULT_SELECTION.includes(c.id) }),
      view.h("span", {}, c.label, view.h("small", {}, ` ${view.fmt(c.tools)} · ${c.kind}`)),
    ),
  );
  $("catalogs").replaceChildren(...chips);
}

function fillSelect(select, items) {
  select.replaceChildren(...items.map((item) => view.h("option", { value: item.id }, item.label)));
}

const selectedCatalogs = () => [...document.querySelectorAll('input[name="catalog"]:checked')].map((input) => input.value);
const pasteMode = () => document.querySelector('input[name="source"]:checked').value === "paste";

/** The qualify option of each choice of the control: the core decides every name. */
const QUALIFY = { on: true, auto: "auto", off: false };

/** The toolbox options of the controls. */
function readOptions() {
  return {
    contextLength: Number($("context").value),
    thresholdPct: Number($("threshold").value),
    listingMaxTokens: Number($("cap").value),
    listing: $("listing").value,
    batch: $("batch").checked,
    qualify: QUALIFY[$("qualify").value],
    mode: nativeProvider() ? "native" : "bridge",
  };
}

/** `anthropic` or `responses` when the mode switch asks for the provider's native tool search. */
const nativeProvider = () => ($("mode").value === "bridge" ? null : $("mode").value);

async function readToolbox() {
  if (pasteMode()) {
    try {
      return JSON.parse($("paste-text").value);
    } catch (e) {
      throw Object.assign(new Error(`the pasted toolbox is not JSON: ${e.message}`), { code: "invalid_json" });
    }
  }
  const ids = selectedCatalogs();
  const pending = CATALOGS.filter((c) => ids.includes(c.id)).map((c) => c.label);
  setStatus(`Loading ${pending.join(", ")}…`);
  if (nativeProvider()) $("format").value = nativeProvider(); // native search speaks that provider's format
  return catalogToolbox(ids, { format: $("format").value, core: $("core").checked });
}

function setStatus(text) {
  $("status").textContent = text;
}

function showError(error, clashes) {
  $("error").hidden = !error;
  $("error").replaceChildren(...(error ? view.errorView(error, clashes) : []));
  document.body.classList.toggle("failed", Boolean(error));
}

// ---- assembly -------------------------------------------------------------------------------

/** Rebuilds everything from the controls; a newer call supersedes an older one still loading. */
async function refresh() {
  const generation = ++state.generation;
  document.body.dataset.busy = "true";
  try {
    await rebuild(generation);
  } finally {
    if (generation === state.generation) document.body.dataset.busy = "false";
  }
}

async function rebuild(generation) {
  let toolbox;
  try {
    toolbox = await readToolbox();
  } catch (error) {
    if (generation === state.generation) failed(error, []);
    return;
  }
  if (generation !== state.generation) return;
  // Names offered twice, to list under a duplicate_tool error (qualify off).
  const clashes = nameClashes(toolbox);
  const options = readOptions();
  const start = performance.now();
  let shelf;
  let assembly;
  try {
    shelf = new Shelf(toolbox, options);
    assembly = shelf.assemble();
  } catch (error) {
    failed(error, clashes);
    return;
  }
  const ms = performance.now() - start;
  state.shelf?.free();
  Object.assign(state, { shelf, toolbox, assembly, options, bridge: bridgeNames(assembly) });
  showError(null);
  setStatus(`${view.fmt(assembly.deferredCount)} deferred tools assembled in ${ms.toFixed(0)} ms, in this page (WebAssembly).`);
  renderAssembly();
  runSearch();
  refreshCall();
}

function failed(error, clashes) {
  state.shelf?.free();
  Object.assign(state, { shelf: null, assembly: null });
  setStatus("");
  showError(error, clashes);
}

/** The bridge tools' names: the last three tools of a tier 1 or 2 assembly (native: only a search tool). */
function bridgeNames(assembly) {
  if (assembly.tier === 0 || assembly.mode === "native") return DEFAULT_BRIDGE;
  const [search, describe, call] = assembly.tools.slice(-3).map(toolName);
  return { search, describe, call };
}

function renderAssembly() {
  const { assembly, toolbox, options, bridge } = state;
  const picture = tokenPicture(toolbox, assembly, bridge.search);
  $("facts").replaceChildren(...view.factsView(assembly, picture, options));
  $("warnings").replaceChildren(...view.warningsView(assembly.warnings));
  $("tokens").replaceChildren(view.totalsView(picture), view.serversView(picture));
  const listing = assembly.tier === 0 ? "(tier 0: no bridge, so no listing: the model sees every tool as is)" : listingText(assembly, bridge.search);
  $("listing-text").replaceChildren(...view.longText(listing));
  $("tools-json").replaceChildren(...view.longText(JSON.stringify(assembly.tools, null, 2)));
  $("tools-meta").textContent = `${assembly.tools.length} tools · ${view.fmt(picture.assembled)} tokens`;
}

async function copyTools() {
  if (!state.assembly) return;
  const text = JSON.stringify(state.assembly.tools);
  try {
    await navigator.clipboard.writeText(text);
    $("copy").textContent = "Copied ✓";
  } catch {
    $("copy").textContent = "Copy failed";
  }
  setTimeout(() => ($("copy").textContent = "Copy JSON"), 1500);
}

// ---- search ---------------------------------------------------------------------------------

function runSearch() {
  const query = $("query").value;
  if (!state.shelf) return;
  if (!query.trim()) {
    $("search-meta").textContent = "Type what the model would search for.";
    showUnknownWords([]);
    $("results").replaceChildren();
    return;
  }
  const start = performance.now();
  const result = state.shelf.search(query, { limit: Number($("limit").value) });
  const ms = performance.now() - start;
  const unknown = result.unknownWords ?? [];
  // Words no tool holds are said once, above the hits, rather than "not found" under each of them.
  const words = queryWords(query).filter((word) => !unknown.some((u) => stem(u) === word.stem));
  $("results").dataset.query = query;
  const partial = result.matches.filter((hit) => hit.partial).length;
  $("search-meta").textContent = `${result.matches.length} of ${view.fmt(result.totalAvailable)} deferred tools${partial ? ` (${partial} partial)` : ""} · ${ms.toFixed(1)} ms`;
  showUnknownWords(unknown);
  const hits = result.matches.map((hit, i) => view.hitView(hit, i + 1, words, parameterNames(hit.name), (event) => openHit(event, hit.name)));
  $("results").replaceChildren(...(hits.length ? hits : [view.noHitsView(result)]));
  showSearchAnswer(query);
  if (!state.callEdited) refreshCall();
}

/**
 * What the model reads for this search in the mode at hand: the bridge's JSON, Anthropic's
 * tool_reference blocks, or the Responses tool_search_output item (unwrap of the model's call).
 */
function showSearchAnswer(query) {
  const limit = Number($("limit").value);
  const provider = state.assembly?.mode === "native" ? nativeProvider() : null;
  const input = { query, limit };
  const call = provider === "responses"
    ? { type: "tool_search_call", call_id: "call_search", execution: "client", arguments: JSON.stringify(input) }
    : { type: "tool_use", id: "toolu_search", name: state.bridge.search, input };
  const u = state.shelf.unwrap(call);
  const shown = u.item ?? (typeof u.content === "string" && u.kind === "answer" ? JSON.parse(u.content) : u.content);
  $("search-answer-kind").textContent = provider === "responses" ? "a tool_search_output item" : provider === "anthropic" ? "tool_result content blocks" : "the tool result's JSON";
  $("search-answer").textContent = JSON.stringify(shown, null, 2);
}

function showUnknownWords(words) {
  $("unknown-words").hidden = words.length === 0;
  $("unknown-words").replaceChildren(...view.unknownWordsView(words));
}

function parameterNames(name) {
  return Object.keys(state.shelf.describe(name)?.parameters?.properties ?? {});
}

/** Click on a hit: show what describe returns and make the tool the unwrap playground's target. */
function openHit(event, name) {
  const item = event.currentTarget.closest(".hit");
  const open = item.querySelector(".described");
  if (open) {
    open.remove();
    event.currentTarget.setAttribute("aria-expanded", "false");
    return;
  }
  item.append(view.describedView(state.shelf.describe(name)));
  event.currentTarget.setAttribute("aria-expanded", "true");
  state.picked = name;
  state.callEdited = false;
  refreshCall();
}

// ---- unwrap ---------------------------------------------------------------------------------

/**
 * The tool the example calls use, by the name the model is shown for it: the opened hit, else the
 * top hit, else the first deferred tool; with no deferred tool, the first direct tool.
 */
function currentTarget() {
  const { shelf } = state;
  for (const name of [state.picked, document.querySelector(".hit")?.dataset.name, firstDeferredName()]) {
    const described = name && shelf.describe(name);
    if (described) return { name: described.name, schema: described.parameters };
  }
  const direct = groupByServer(state.toolbox).direct[0];
  return direct ? { name: toolName(direct), schema: toolSchema(direct) } : { name: "some_tool", schema: {} };
}

/** The shown name of the first server's first tool, as the core gives it: a search for its own name finds it. */
function firstDeferredName() {
  const [server, tools] = Object.entries(groupByServer(state.toolbox).servers)[0] ?? [];
  if (!tools?.length) return undefined;
  return state.shelf.search(toolName(tools[0]), { limit: 20 }).matches.find((m) => m.server === server)?.name;
}

/** Writes the chosen example into the call box (unless the reader is editing it), then unwraps. */
function refreshCall() {
  if (!state.shelf) return;
  const target = currentTarget();
  $("target").textContent = target.name;
  if (!state.callEdited) {
    const query = $("query").value.trim() || "create issue";
    const call = intendedCall($("intent").value, { target, bridge: state.bridge, batch: state.options.batch, query });
    $("call").value = JSON.stringify(inShape($("shape").value, call), null, 2);
  }
  runUnwrap();
}

function runUnwrap() {
  if (!state.shelf) return;
  let result;
  try {
    result = state.shelf.unwrap(JSON.parse($("call").value));
  } catch (error) {
    const shown = error instanceof SyntaxError ? Object.assign(error, { code: "invalid_json" }) : error;
    $("unwrapped").replaceChildren(view.h("div", { class: "error" }, view.errorView(shown)));
    return;
  }
  $("unwrapped").replaceChildren(...view.unwrappedView(result));
}

function chooseExample() {
  state.callEdited = false;
  refreshCall();
}

// ---- start ----------------------------------------------------------------------------------

/** Marks the page busy at once (tests and readers can wait for `body[data-busy=false]`), refreshes soon. */
function scheduleRefresh() {
  document.body.dataset.busy = "true";
  refreshSoon();
}
const refreshSoon = debounce(refresh, 120);

function wireControls() {
  $("toolbox-form").addEventListener("change", scheduleRefresh);
  $("toolbox-form").addEventListener("input", (event) => event.target.type === "number" && scheduleRefresh());
  $("toolbox-form").addEventListener("submit", (event) => event.preventDefault());
  $("paste-text").addEventListener("input", scheduleRefresh);
  for (const radio of document.querySelectorAll('input[name="source"]')) {
    radio.addEventListener("change", () => {
      $("catalog-source").hidden = pasteMode();
      $("paste-source").hidden = !pasteMode();
    });
  }
  $("paste-example").addEventListener("click", () => {
    $("paste-text").value = PASTE_EXAMPLE;
    scheduleRefresh();
  });
  $("copy").addEventListener("click", copyTools);
  $("query").addEventListener("input", debounce(runSearch, 60));
  $("limit").addEventListener("input", debounce(runSearch, 60));
  $("shape").addEventListener("change", chooseExample);
  $("intent").addEventListener("change", chooseExample);
  const unwrapSoon = debounce(runUnwrap, 150);
  $("call").addEventListener("input", () => {
    state.callEdited = true;
    unwrapSoon();
  });
}

async function start() {
  renderCatalogChoices();
  fillSelect($("shape"), SHAPES);
  fillSelect($("intent"), INTENTS);
  $("paste-text").value = PASTE_EXAMPLE;
  wireControls();
  setStatus("Loading the WebAssembly module…");
  DEFAULT_SELECTION.forEach(loadCatalog); // downloads start while the module compiles
  await init();
  await refresh();
}

start().catch((error) => {
  setStatus("");
  showError(error, []);
});
