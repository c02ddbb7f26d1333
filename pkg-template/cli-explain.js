// Why a search matched, for a person: the query's words found in the text the core indexes for a
// tool, by a plain comparison (the core's ranking also stems, folds synonyms and shares a server's
// score).

/** Lowercase words of a text as the core splits names (snake, kebab, camel, dotted, digits). */
export function words(text) {
  const out = [];
  for (const run of String(text ?? "").match(/[A-Za-z0-9]+/g) ?? []) {
    const pieces = run.split(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])/);
    if (pieces.length > 1) out.push(run.toLowerCase());
    for (const p of pieces) out.push(p.toLowerCase());
  }
  return out;
}

/** A word with a common English suffix dropped, for the CLI's plain comparison (not the core's stemmer). */
export const root = (w) => (w.length > 3 ? w.replace(/(?:ing|ed|es|s|e)$/, "") : w);

/** The core's English stop words (src/search/tokenize.rs): never listed as found. */
export const STOPWORDS = new Set(
  ("a about an and are as at be by can could do does for from how i if in into is it " +
    "its me my of on or our please should so that the this to us we what which will with would you").split(" "),
);

/**
 * The query's words (stop words and the core's unknown words left out) found in the text the core
 * indexes for a match: its name, server, description, top-level parameter names and their
 * descriptions (`described`: the tool as `shelf.describe` gives it).
 */
export function inText(query, unknown, match, described) {
  const unknownSet = new Set(unknown.map((w) => w.toLowerCase()));
  const properties = described?.parameters?.properties;
  const params = properties !== null && typeof properties === "object" ? Object.entries(properties) : [];
  const text = [match.name, match.server, match.description, ...params.map(([k, v]) => `${k} ${typeof v?.description === "string" ? v.description : ""}`)];
  const have = new Set(words(text.join(" ")).map(root));
  const found = [];
  for (const w of words(query)) {
    if (STOPWORDS.has(w) || unknownSet.has(w) || found.includes(w)) continue;
    if (have.has(root(w))) found.push(w);
  }
  return found;
}
