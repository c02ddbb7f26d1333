// The libraries compared, behind one interface:
//   build(tools) → index      tools: [{server, tool}] entries of a catalog (OpenAI Chat tool defs)
//   search(index, query, k) → [i, …] positions in `tools`, best first, at most k
// Every peer indexes the same document per tool as toolshelf: the tool's own name (name words),
// its server, its description and its top-level parameter names, with the name field boosted ×2
// (toolshelf's name weight). Text goes through `splitWords` (camelCase, snake_case, kebab-case,
// dotted and letter/digit boundaries) and then through the library's own tokenizer, for documents
// and queries alike; the splitting is part of the timed build and of each query.
//
// Each peer has a default setup (used by scripts/bench) and variants tried once on the keyword set
// (`scripts/bench --variants`); the chosen default is the variant with the best recall@5 there, so
// every choice errs in the peer's favour. docs/benchmarks.md, "Retrieval against
// the peers", lists the variants and their recall.
import MiniSearch from "minisearch";
import { create, insertMultiple, search as oramaSearch } from "@orama/orama";
import FlexSearch from "flexsearch";
import lunr from "lunr";

/** `PostCustomersCustomerSources` → `Post Customers Customer Sources`; `api_v2010_Create` → `api v 2010 Create`. */
export function splitWords(text) {
  return String(text ?? "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([A-Za-z])([0-9])/g, "$1 $2")
    .replace(/([0-9])([A-Za-z])/g, "$1 $2")
    .replace(/[_\-./:]+/g, " ");
}

const MCP_PREFIX = /^mcp__[^_](?:.*?)__(.+)$/;

/** The searchable fields of one catalog entry, split for the peers' tokenizers. */
export function document(entry, id) {
  const fn = entry.tool.function ?? entry.tool;
  const name = String(fn.name ?? "").replace(MCP_PREFIX, "$1");
  const properties = fn.parameters?.properties;
  const params = properties && typeof properties === "object" ? Object.keys(properties) : [];
  return {
    id,
    name: splitWords(name),
    server: splitWords(entry.server ?? ""),
    description: splitWords(fn.description ?? ""),
    params: params.map(splitWords).join(" "),
  };
}

const FIELDS = ["name", "server", "description", "params"];

// ---- MiniSearch 7.2.0: BM25+ over fields, own tokenizer (Unicode space/punctuation) and lowercasing.
function minisearch(searchOptions) {
  return {
    build(entries) {
      const index = new MiniSearch({ fields: FIELDS, storeFields: [], searchOptions: { boost: { name: 2 }, ...searchOptions } });
      index.addAll(entries.map(document));
      return index;
    },
    search(index, query, k) {
      return index.search(splitWords(query)).slice(0, k).map((r) => r.id);
    },
  };
}

// ---- Orama 3.1.18: BM25 per property, own tokenizer with its English stemmer and stop words.
function orama({ tokenizer, ...searchOptions }) {
  return {
    build(entries) {
      const db = create({
        schema: { name: "string", server: "string", description: "string", params: "string" },
        components: { tokenizer },
      });
      const docs = entries.map((e, i) => ({ ...document(e, i), id: String(i) }));
      insertMultiple(db, docs, 10_000);
      return db;
    },
    search(db, query, k) {
      const result = oramaSearch(db, { term: splitWords(query), limit: k, boost: { name: 2 }, ...searchOptions });
      return result.hits.map((h) => Number(h.id));
    },
  };
}

// ---- FlexSearch 0.8.212: Document index, one field index each, results merged by a resolver
// that boosts the name field ×2.
function flexsearch({ encoder, tokenize, suggest }) {
  return {
    build(entries) {
      const index = new FlexSearch.Document({
        document: { id: "id", index: FIELDS.map((field) => ({ field, tokenize, encoder })) },
      });
      entries.forEach((e, i) => index.add(document(e, i)));
      return index;
    },
    search(index, query, k) {
      const q = splitWords(query);
      const resolver = new FlexSearch.Resolver({ index, field: "name", query: q, boost: 2, suggest })
        .or({ index, field: "description", query: q, suggest })
        .or({ index, field: "params", query: q, suggest })
        .or({ index, field: "server", query: q, suggest });
      return resolver.resolve({ limit: k });
    },
  };
}

// ---- Lunr 2.3.9: BM25 with its default pipeline (trimmer, English stop words, Porter stemmer).
// Queries are built term by term (every term optional) rather than parsed, so a query holding
// lunr's syntax characters (`:`, `~`, `^`, `*`, `+`, `-`) cannot throw.
function lunrPeer({ presence, prefix }) {
  return {
    build(entries) {
      const docs = entries.map(document);
      return lunr(function () {
        this.ref("id");
        this.field("name", { boost: 2 });
        this.field("server");
        this.field("description");
        this.field("params");
        for (const d of docs) this.add(d);
      });
    },
    search(index, query, k) {
      const tokens = lunr.tokenizer(splitWords(query));
      const results = index.query((q) => {
        for (const t of tokens) {
          q.term(t.toString(), { presence: presence ?? lunr.Query.presence.OPTIONAL });
          // A trailing-wildcard twin of each term, weighted below the exact term (lunr's prefix search).
          if (prefix) q.term(t.toString(), { wildcard: lunr.Query.wildcard.TRAILING, usePipeline: false, boost: 0.5 });
        }
      });
      return results.slice(0, k).map((r) => Number(r.ref));
    },
  };
}

/** Variants of each peer's setup; the first of each is the default: best keyword recall@5, then MRR. */
export const variants = {
  minisearch: [
    ["OR, prefix", minisearch({ prefix: true, fuzzy: false, combineWith: "OR" })],
    ["OR, exact terms", minisearch({ prefix: false, fuzzy: false, combineWith: "OR" })],
    ["OR, prefix + fuzzy 0.2", minisearch({ prefix: true, fuzzy: 0.2, combineWith: "OR" })],
    ["AND, exact terms", minisearch({ prefix: false, fuzzy: false, combineWith: "AND" })],
  ],
  orama: [
    ["stemming, any term (threshold 1)", orama({ tokenizer: { stemming: true }, threshold: 1, tolerance: 0 })],
    ["no stemming, any term", orama({ tokenizer: { stemming: false }, threshold: 1, tolerance: 0 })],
    ["stemming, all terms (threshold 0)", orama({ tokenizer: { stemming: true }, threshold: 0, tolerance: 0 })],
    ["stemming, any term, tolerance 1", orama({ tokenizer: { stemming: true }, threshold: 1, tolerance: 1 })],
    ["stemming, any term, exact (no prefix)", orama({ tokenizer: { stemming: true }, threshold: 1, exact: true })],
  ],
  flexsearch: [
    ["LatinBalance, full, suggest", flexsearch({ encoder: FlexSearch.Charset.LatinBalance, tokenize: "full", suggest: true })],
    ["LatinBalance, forward, suggest", flexsearch({ encoder: FlexSearch.Charset.LatinBalance, tokenize: "forward", suggest: true })],
    ["LatinBalance, strict, suggest", flexsearch({ encoder: FlexSearch.Charset.LatinBalance, tokenize: "strict", suggest: true })],
    ["Default, strict, suggest", flexsearch({ encoder: FlexSearch.Charset.Default, tokenize: "strict", suggest: true })],
    ["LatinAdvanced, strict, suggest", flexsearch({ encoder: FlexSearch.Charset.LatinAdvanced, tokenize: "strict", suggest: true })],
    ["LatinBalance, strict, all terms", flexsearch({ encoder: FlexSearch.Charset.LatinBalance, tokenize: "strict", suggest: false })],
  ],
  lunr: [
    ["every term optional, + prefix", lunrPeer({ prefix: true })],
    ["every term optional", lunrPeer({})],
    ["every term required", lunrPeer({ presence: lunr.Query.presence.REQUIRED })],
  ],
};

/** The peers as scripts/bench runs them: each library's default setup. */
export const peers = Object.fromEntries(Object.entries(variants).map(([name, list]) => [name, list[0][1]]));

/** Package versions, read from their package.json. */
export const versions = {
  minisearch: "7.2.0",
  orama: "3.1.18",
  flexsearch: "0.8.212",
  lunr: "2.3.9",
};
