// Why a search hit matched, for people reading the results: which of the query's words appear in the
// hit's name, server, parameter names or description, and those words marked in the text. It compares
// words the way a reader would (lowercase, common English endings dropped), so it explains the
// package's ranking (BM25 with Porter2 stemming) without reproducing it.

/** Lowercase word with a common English ending dropped: "records" → "record", "creating" → "creat". */
export function stem(word) {
  const lower = word.toLowerCase();
  for (const ending of ["ies", "ing", "ed", "es", "s", "e"]) {
    if (ending === "s" && lower.endsWith("ss")) continue;
    if (lower.endsWith(ending) && lower.length - ending.length >= 3) return lower.slice(0, -ending.length);
  }
  return lower;
}

/** Words of a text with their positions; names split on separators, camelCase and digits. */
export function wordsOf(text) {
  const pattern = /\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+|\p{L}+/gu;
  return [...String(text).matchAll(pattern)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
}

/** The query's distinct words, each with its stem. */
export function queryWords(query) {
  const seen = new Map();
  for (const { word } of wordsOf(query)) {
    const s = stem(word);
    if (!seen.has(s)) seen.set(s, { word: word.toLowerCase(), stem: s });
  }
  return [...seen.values()];
}

/** Whether a text word stands for a query word. */
export function wordMatches(word, query) {
  const s = stem(word);
  return s === query.stem || (query.stem.length >= 4 && word.toLowerCase().startsWith(query.stem));
}

const found = (text, query) => wordsOf(text).some(({ word }) => wordMatches(word, query));

/**
 * For each query word, the fields of the hit it was found in:
 * `[{word, where: ["name", "parameters"]}]` (an empty `where` when the word is not in the hit).
 */
export function whyMatched(words, hit) {
  const fields = {
    name: hit.name,
    server: hit.server,
    parameters: (hit.parameters ?? []).join(" "),
    description: hit.description ?? "",
  };
  return words.map((query) => ({
    word: query.word,
    where: Object.keys(fields).filter((field) => found(fields[field], query)),
  }));
}

/** `text` as DOM nodes with the query's words in `<mark>`. */
export function highlighted(text, words) {
  const fragment = document.createDocumentFragment();
  let at = 0;
  for (const { word, start, end } of wordsOf(text)) {
    if (!words.some((query) => wordMatches(word, query))) continue;
    fragment.append(text.slice(at, start));
    const mark = document.createElement("mark");
    mark.textContent = word;
    fragment.append(mark);
    at = end;
  }
  fragment.append(text.slice(at));
  return fragment;
}
