// Turns the page's results into DOM: the assembly's facts, the token picture per server, the listing
// and the tools array, search hits with why they matched, a described tool, an unwrapped call, and
// errors a reader can act on. Only builds nodes; main.js decides when.
import { highlighted, whyMatched } from "./why.js";

const number = new Intl.NumberFormat("en-US");
export const fmt = (n) => number.format(n);

/** `h("p", {class: "x"}, "text", node)`: an element with attributes (`on*` are listeners) and children. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  element.append(...children.flat(Infinity).filter((child) => child !== undefined && child !== null && child !== false));
  return element;
}

const TIER_NOTES = {
  0: "every tool sent as is",
  1: "tools listed one by one",
  2: "server lines only, or no listing",
};
const FORM_NOTES = {
  full: "every server lists its tools",
  names: "every server lists names only",
  mixed: "servers at different levels",
  groups: "one line per server",
  none: "no listing fits the budget",
};

function fact(id, label, value, note) {
  return h("div", { class: "fact" }, h("span", { class: "fact-label" }, label), h("strong", { id }, value), h("span", { class: "fact-note" }, note));
}

/** The headline facts: tier, form, deferred tools, budget, tokens before and after, fingerprint. */
export function factsView(assembly, picture, options) {
  const saved = picture.eager ? 1 - picture.assembled / picture.eager : 0;
  return [
    fact("tier", "Tier", `tier ${assembly.tier}`, TIER_NOTES[assembly.tier]),
    fact("form", "Listing form", assembly.form, FORM_NOTES[assembly.form]),
    fact("deferred", "Deferred tools", fmt(assembly.deferredCount), `on ${fmt(assembly.servers.length)} server${assembly.servers.length === 1 ? "" : "s"}`),
    fact("budget", "Listing budget", `${fmt(assembly.budgetTokens)} tok`, `${options.thresholdPct}% of ${fmt(options.contextLength)}, cap ${fmt(options.listingMaxTokens)}; used ${fmt(assembly.listingTokens)}`),
    fact("saved", "Per request", `${fmt(picture.assembled)} tok`, `instead of ${fmt(picture.eager)} eager (${(saved * 100).toFixed(1)}% fewer)`),
    fact("fingerprint", "Fingerprint", assembly.fingerprint.slice(0, 12), "prompt-cache key of the tools array"),
  ];
}

export function warningsView(warnings) {
  if (!warnings.length) return [];
  return [h("ul", { class: "warnings" }, warnings.map((w) => h("li", {}, w)))];
}

function bar(className, tokens, scale, label) {
  const width = tokens ? Math.max((tokens / scale) * 100, 0.4) : 0;
  return h("span", { class: className, style: `width:${width.toFixed(3)}%`, title: label });
}

/** Two bars to one scale: every schema sent eagerly, and the assembled array. */
export function totalsView(picture) {
  const scale = Math.max(picture.eager, picture.assembled, 1);
  const row = (label, tokens, className) =>
    h("div", { class: "total" }, h("span", { class: "total-label" }, label), h("span", { class: "track" }, bar(className, tokens, scale, `${fmt(tokens)} tokens`)), h("span", { class: "total-value" }, `${fmt(tokens)} tok`));
  return h("div", { class: "totals" }, row("Every schema, eager", picture.eager, "fill eager"), row("Assembled array", picture.assembled, "fill listed"));
}

/** One row per server: its level, and its eager tokens beside what it costs in the listing, to one scale. */
export function serversView(picture) {
  const scale = Math.max(1, ...picture.rows.map((row) => row.eager));
  const rows = picture.rows.map((row) =>
    h(
      "li",
      { class: "server", "data-server": row.name, "data-level": row.level },
      h("span", { class: "server-name" }, row.name, h("small", {}, ` ${fmt(row.tools)} tool${row.tools === 1 ? "" : "s"}`)),
      h("span", { class: `level level-${row.level}` }, row.level),
      h("span", { class: "track" }, bar("fill eager", row.eager, scale, `${fmt(row.eager)} tokens eager`), bar("fill listed overlay", row.listed, scale, `${fmt(row.listed)} tokens in the listing`)),
      h("span", { class: "server-tokens" }, `${fmt(row.eager)} → ${fmt(row.listed)}`),
    ),
  );
  return h("ol", { class: "servers" }, rows);
}

/** A text block that may be long: shown up to `limit` characters, with a note when cut. */
export function longText(text, limit = 200_000) {
  if (text.length <= limit) return [text];
  return [text.slice(0, limit), h("span", { class: "cut" }, `\n… ${fmt(text.length - limit)} more characters (Copy takes them all)`)];
}

/** One search hit: name, server, score, why it matched, required parameters; click to describe. */
export function hitView(hit, rank, words, parameters, onOpen) {
  const why = whyMatched(words, { ...hit, parameters });
  return h(
    "li",
    { class: hit.partial ? "hit partial-hit" : "hit", "data-name": hit.name, "data-partial": String(hit.partial) },
    h(
      "button",
      { type: "button", class: "hit-head", "aria-expanded": "false", onclick: onOpen },
      h("span", { class: "rank" }, String(rank)),
      h("code", { class: "hit-name" }, highlighted(hit.name, words)),
      h("span", { class: "hit-server" }, hit.server),
      hit.partial ? h("span", { class: "partial", title: "misses a word of the query; ranked after every full match" }, "partial") : null,
      h("span", { class: "hit-score", title: "relevance score" }, hit.score.toFixed(2)),
    ),
    h("p", { class: "hit-desc" }, highlighted(shorten(collapse(hit.description), 240), words)),
    h(
      "p",
      { class: "why" },
      why.map(({ word, where }) => h("span", { class: where.length ? "word found" : "word missing" }, h("b", {}, word), where.length ? ` in ${where.join(", ")}` : " not found")),
      hit.required.length ? h("span", { class: "required" }, "required: ", hit.required.map((r) => h("code", {}, r))) : null,
    ),
  );
}

const collapse = (text) => (text ?? "").replace(/\s+/g, " ").trim();

function shorten(text, limit) {
  const chars = [...(text ?? "")];
  return chars.length <= limit ? chars.join("") : `${chars.slice(0, limit).join("").trimEnd()}…`;
}

/** The query's words that no tool holds (the result's `unknownWords`), as the model's hint says them. */
export function unknownWordsView(words) {
  if (!words.length) return [];
  const listed = words.flatMap((word, i) => [i ? ", " : "", h("b", {}, word)]);
  return ["No tool mentions: ", ...listed, ". The matches are for the other words, each marked partial."];
}

/** The hint shown when a search found nothing: the servers on the shelf, or the model error. */
export function noHitsView(result) {
  if (result.error) return h("p", { class: "empty" }, result.error);
  const servers = (result.servers ?? []).map((s) => `${s.name} (${fmt(s.tools)})`).join(", ");
  return h("p", { class: "empty" }, "No match. The model is told these servers are still on the shelf: ", servers);
}

/** What describe returns, as the model reads it. */
export function describedView(described) {
  return h(
    "div",
    { class: "described" },
    h("p", {}, h("strong", {}, "describe → "), "the whole description and schema; this tool is now the unwrap playground's target."),
    h("pre", { class: "json" }, JSON.stringify(described, null, 2)),
  );
}

/** What unwrap made of a call: kind, where the call goes (for `call`), or the content sent back. */
export function unwrappedView(result) {
  const kind = h("span", { class: `kind kind-${result.kind}`, id: "unwrap-kind" }, result.kind);
  if (result.kind === "call") {
    const fields = [
      ["name", result.name],
      ["server", result.server ?? "(direct tool)"],
      ["tool", result.tool ?? result.name],
      ["viaBridge", String(result.viaBridge)],
      ["id", result.id ?? "—"],
    ];
    return [
      h("p", { class: "verdict" }, kind, " run it: the agent sends these arguments to the real tool"),
      h("dl", { class: "call-fields" }, fields.map(([k, v]) => [h("dt", {}, k), h("dd", { "data-field": k }, h("code", {}, v))])),
      h("pre", { class: "json" }, JSON.stringify(result.arguments, null, 2)),
    ];
  }
  const note = result.kind === "answer" ? " answered here: send this back as the tool result" : " nothing runs: send this back so the model can recover";
  return [h("p", { class: "verdict" }, kind, note, result.id ? h("small", {}, ` (id ${result.id})`) : null), h("pre", { class: "json content" }, prettyIfJson(result.content))];
}

function prettyIfJson(text) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

const ERROR_HINTS = {
  duplicate_tool: "Two places offer the same tool name. Set qualify to auto or on: deferred tools become mcp__<server>__<tool>.",
  mixed_formats: "All tools of one toolbox share one format.",
  invalid_tool: "Every tool needs a name.",
  invalid_toolbox: "A toolbox is a list of tools, or {tools, servers}.",
  invalid_call: "A call needs a name (and arguments) in one of the shapes above.",
  too_large: "The toolbox goes past one of the package's bounds.",
};

/** An error as a reader can act on it: its code, message, a hint, and the clashing names if any. */
export function errorView(error, clashes = []) {
  const code = error.code ?? error.name ?? "error";
  const shown = clashes.slice(0, 6).map(({ name, places }) => h("li", {}, h("code", {}, name), ` in ${places.join(" and ")}`));
  return [
    h("p", {}, h("code", { class: "code" }, code), " ", error.message),
    ERROR_HINTS[code] ? h("p", { class: "hint" }, ERROR_HINTS[code]) : null,
    code === "duplicate_tool" && shown.length ? h("ul", {}, shown, clashes.length > 6 ? h("li", {}, `… and ${clashes.length - 6} more`) : null) : null,
  ].filter(Boolean);
}
