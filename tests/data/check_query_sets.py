#!/usr/bin/env python3
"""Sanity checks for the hand-labelled tool-search query sets.

Checks tests/data/queries-model.json and tests/data/queries-absent.json against the
gzipped catalogs in tests/data/catalogs/. It never looks at the ranking code.

queries-model.json : [{"catalog", "query", "relevant": [name | "server::name", ...]}]
queries-absent.json: [{"catalog", "query", "unknown": [word, ...]}]

A catalog may be a union, "a+b+c": the concatenation of those catalogs' arrays.

Model-query checks:
  * every component catalog exists (rest-apis-flat-3400 is not stored, so it is rejected);
  * every relevant entry names a tool of the (union) catalog: a plain name matches that
    name on any server, "server::name" only on that server;
  * relevant is non-empty and has no repeated entry;
  * no query is repeated within one catalog, and none copies queries-keyword.json.

Absent-query checks (words are the query's [a-z0-9]+ runs, lower-cased, after dropping "'s"):
  * unknown is non-empty, has no repeats, and every entry is a word of the query;
  * an unknown word occurs in no tool (in any inflection: the word, plus/minus -s, -es,
    -ing, -ed, -d, y/-ies). The vocabulary used here is STRICT: every string and key
    anywhere in the entry (server, the whole `tool` object with names, descriptions,
    parameter names, parameter descriptions and enums, and `meta`), split into words
    at non-alphanumerics and camelCase boundaries;
  * completeness: every other non-stopword of the query is plainly known, i.e. it occurs
    (in some inflection) in the NARROW vocabulary: server, tool name, tool description
    and parameter property names (nested too). A word that is absent from the narrow
    vocabulary but present in the strict one is ambiguous and is an error (rephrase);
  * the query also holds at least one ordinary non-stopword that the catalog knows.

Prints the counts per catalog per file. Exits 1 on any problem.
"""
import gzip
import json
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
CAT_DIR = os.path.join(HERE, "catalogs")
MODEL = os.path.join(HERE, "queries-model.json")
ABSENT = os.path.join(HERE, "queries-absent.json")
KEYWORD = os.path.join(HERE, "queries-keyword.json")

MIN_MODEL_TOTAL = 170
MIN_MODEL_PER = 25
MIN_MODEL_UNION = 30
MIN_ABSENT_TOTAL = 70
MIN_ABSENT_PER = 10
MAIN = ["github-mcp-server", "linear-mcp-official", "stripe-api-2022-04",
        "cloudflare-api-2024-08", "livemcptool-70servers"]

STOP = set("""a an the to for in on of my me i and or with from by at it is this that be as are
was our your we you do does can please into about via using""".split())

problems = []


def problem(msg):
    problems.append(msg)


_cache = {}


def load_one(name):
    if name not in _cache:
        path = os.path.join(CAT_DIR, name + ".json.gz")
        if not os.path.exists(path):
            return None
        with gzip.open(path, "rt", encoding="utf-8") as f:
            _cache[name] = json.load(f)
    return _cache[name]


def load_catalog(cat):
    out = []
    for part in cat.split("+"):
        entries = load_one(part)
        if entries is None:
            problem(f"catalog {part!r} (in {cat!r}) is not stored in {CAT_DIR}")
            return None
        out.extend(entries)
    return out


def split_words(s):
    out = set()
    for raw in re.findall(r"[A-Za-z0-9]+", s):
        out.add(raw.lower())
        for piece in re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+", raw):
            out.add(piece.lower())
    return out


def all_strings(o, acc):
    if isinstance(o, dict):
        for k, v in o.items():
            acc.append(str(k))
            all_strings(v, acc)
    elif isinstance(o, list):
        for v in o:
            all_strings(v, acc)
    elif o is not None:
        acc.append(str(o))


def property_names(schema, acc):
    if isinstance(schema, dict):
        props = schema.get("properties")
        if isinstance(props, dict):
            acc.extend(str(k) for k in props)
        for v in schema.values():
            property_names(v, acc)
    elif isinstance(schema, list):
        for v in schema:
            property_names(v, acc)


_vocab = {}


def vocabularies(cat):
    if cat not in _vocab:
        narrow, strict = set(), set()
        for e in load_catalog(cat) or []:
            f = e["tool"]["function"]
            n = [e.get("server", ""), f.get("name", ""), f.get("description") or ""]
            property_names(f.get("parameters", {}), n)
            s = [e.get("server", "")]
            all_strings(e.get("tool", {}), s)
            all_strings(e.get("meta", {}), s)
            for x in n:
                narrow |= split_words(x)
            for x in s:
                strict |= split_words(x)
        _vocab[cat] = (narrow, strict | narrow)
    return _vocab[cat]


def variants(w):
    v = {w, w + "s", w + "es", w + "ing", w + "ed", w + "d"}
    for suf in ("s", "es", "ing", "ed", "d"):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            base = w[: -len(suf)]
            v |= {base, base + "e"}
    if w.endswith("y"):
        v |= {w[:-1] + "ies", w[:-1] + "ied"}
    if w.endswith("ies"):
        v.add(w[:-3] + "y")
    if w.endswith("e"):
        v.add(w[:-1] + "ing")
    if len(w) >= 3 and w[-1] not in "aeiouwxy" and w[-2] in "aeiou":
        v |= {w + w[-1] + "ing", w + w[-1] + "ed"}
    return v


def query_words(q):
    return [w for w in re.findall(r"[a-z0-9]+", q.lower().replace("'s", "")) if len(w) > 1]


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def well_formed(rows, file, label, counts):
    """(where, catalog, query, labels) of each row with the keys catalog/query/<label>, counted per
    catalog; a wrong row or a repeated query is a problem."""
    seen = defaultdict(set)
    for i, r in enumerate(rows):
        where = f"{file}[{i}] {r.get('query')!r}"
        if set(r) != {"catalog", "query", label}:
            problem(f"{where}: keys must be catalog/query/{label}, got {sorted(r)}")
            continue
        cat, q = r["catalog"], r["query"]
        counts[cat] += 1
        key = q.strip().lower()
        if key in seen[cat]:
            problem(f"{where}: duplicate query in {cat}")
        seen[cat].add(key)
        yield where, cat, q, r[label]


def check_model(rows, keyword_rows):
    counts = Counter()
    kw = {(r["catalog"], r["query"].strip().lower()) for r in keyword_rows}
    for where, cat, q, rel in well_formed(rows, "queries-model.json", "relevant", counts):
        if (cat, q.strip().lower()) in kw:
            problem(f"{where}: copies a queries-keyword.json query")
        if not rel or not isinstance(rel, list):
            problem(f"{where}: relevant must be a non-empty list")
            continue
        if len(set(rel)) != len(rel):
            problem(f"{where}: repeated relevant entries")
        entries = load_catalog(cat)
        if entries is None:
            continue
        names = defaultdict(set)
        for e in entries:
            names[e["tool"]["function"]["name"]].add(e["server"])
        for name in rel:
            if "::" in name:
                server, tool = name.split("::", 1)
                if server not in names.get(tool, ()):
                    problem(f"{where}: {name!r} not in {cat}")
            elif name not in names:
                problem(f"{where}: {name!r} not in {cat}")
    return counts


def check_absent(rows):
    counts = Counter()
    for where, cat, q, unknown in well_formed(rows, "queries-absent.json", "unknown", counts):
        if not unknown or not isinstance(unknown, list):
            problem(f"{where}: unknown must be a non-empty list")
            continue
        if len(set(unknown)) != len(unknown):
            problem(f"{where}: repeated unknown words")
        if load_catalog(cat) is None:
            continue
        narrow, strict = vocabularies(cat)
        words = query_words(q)
        for u in unknown:
            if u != u.lower():
                problem(f"{where}: unknown word {u!r} must be lower-case")
            if u not in words:
                problem(f"{where}: unknown word {u!r} is not a word of the query")
            hit = variants(u) & strict
            if hit:
                problem(f"{where}: unknown word {u!r} occurs in {cat} as {sorted(hit)}")
        known = 0
        for w in words:
            if w in STOP or w in unknown:
                continue
            v = variants(w)
            if v & narrow:
                known += 1
            elif v & strict:
                problem(f"{where}: {w!r} is ambiguous (only in parameter text/meta of {cat}); rephrase")
            else:
                problem(f"{where}: {w!r} occurs nowhere in {cat} but is not listed in unknown")
        if known == 0:
            problem(f"{where}: no ordinary word of the query is known to {cat}")
    return counts


def report(title, counts):
    print(f"{title}: {sum(counts.values())} queries")
    for cat, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {n:4d}  {cat}")


def main():
    model = load_json(MODEL)
    absent = load_json(ABSENT)
    keyword = load_json(KEYWORD) if os.path.exists(KEYWORD) else []
    mc = check_model(model, keyword)
    ac = check_absent(absent)
    report("queries-model.json", mc)
    report("queries-absent.json", ac)

    unions_m = sum(n for c, n in mc.items() if "+" in c)
    singles_m = {c for c in mc if "+" not in c}
    print(f"model: {unions_m} union queries, {len(mc)} distinct catalogs")
    def check_counts(label, counts, total, per):
        """A set's size in all and for each main catalog."""
        if sum(counts.values()) < total:
            problem(f"{label}: fewer than {total} queries")
        for c in MAIN:
            if counts[c] < per:
                problem(f"{label}: {c} has {counts[c]} < {per} queries")

    check_counts("model", mc, MIN_MODEL_TOTAL, MIN_MODEL_PER)
    if unions_m < MIN_MODEL_UNION:
        problem(f"model: fewer than {MIN_MODEL_UNION} union queries")
    if len(singles_m) < 5:
        problem("model: fewer than 5 distinct single catalogs")
    check_counts("absent", ac, MIN_ABSENT_TOTAL, MIN_ABSENT_PER)
    if len(ac) < 5:
        problem("absent: fewer than 5 distinct catalogs")

    if problems:
        print(f"\n{len(problems)} problem(s):")
        for p in problems:
            print("  - " + p)
        sys.exit(1)
    print("\nOK")


if __name__ == "__main__":
    main()
