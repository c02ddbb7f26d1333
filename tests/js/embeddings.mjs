// Reader of the committed embedding fixtures, tests/data/embeddings/<stem>.vec.gz (format in that
// directory's README.md): all-MiniLM-L6-v2 vectors by key, int8 with one scale per vector. The JS
// twin of tests/support/embeddings.rs; the labelled query sets the fixtures cover.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import { dataDir, repoDir } from "./support.mjs";

export const embeddingsDir = join(dataDir, "embeddings");

/**
 * The vectors of `tests/data/embeddings/<stem>.vec.gz` (`tools`, or `queries-<set>`), or of a path:
 * `{ model, dim, count, keys, scales, values, get(key) → Float32Array | undefined, at(i) }`.
 */
export function readVectors(stemOrPath) {
  const path = stemOrPath.includes("/") ? stemOrPath : join(embeddingsDir, `${stemOrPath}.vec.gz`);
  return parseVectors(gunzipSync(readFileSync(path)), path);
}

/** The decompressed bytes: a JSON header line, count u64 keys, count f32 scales (LE), count × dim int8. */
export function parseVectors(bytes, name = "vectors") {
  const end = bytes.indexOf(0x0a);
  if (end < 0) throw new Error(`${name}: no header line`);
  const header = JSON.parse(bytes.subarray(0, end).toString("utf8"));
  if (header.format !== "toolshelf-vectors" || header.version !== 1) throw new Error(`${name}: not a toolshelf-vectors version 1 file`);
  const { count, dim, model } = header;
  const body = bytes.subarray(end + 1);
  if (body.length !== count * (8 + 4 + dim)) throw new Error(`${name}: ${body.length} bytes for ${count} vectors of ${dim}`);
  const view = new DataView(body.buffer, body.byteOffset, body.length);
  const keys = Array.from({ length: count }, (_, i) => view.getBigUint64(8 * i, true).toString(16).padStart(16, "0"));
  const scales = Float32Array.from({ length: count }, (_, i) => view.getFloat32(8 * count + 4 * i, true));
  const values = new Int8Array(body.buffer, body.byteOffset + 12 * count, count * dim);
  const index = new Map(keys.map((k, i) => [k, i]));
  if (index.size !== count) throw new Error(`${name}: a key is repeated`);
  const at = (i) => Float32Array.from(values.subarray(i * dim, (i + 1) * dim), (v) => v * scales[i]);
  return {
    model,
    dim,
    count,
    keys,
    scales,
    values,
    at,
    get: (key) => (index.has(key) ? at(index.get(key)) : undefined),
  };
}

const OFFSET = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const encoder = new TextEncoder();
/** 16 lowercase hex digits of FNV-1a 64 of the text's UTF-8 bytes: the core's embedding key. */
export function embeddingKey(text) {
  let h = OFFSET;
  for (const b of encoder.encode(text)) h = BigInt.asUintN(64, (h ^ BigInt(b)) * PRIME);
  return h.toString(16).padStart(16, "0");
}

/** Dot product of two vectors of one length. */
export function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/**
 * Every labelled set the fixtures cover, by fixture stem: `[{ catalog, query }]` (the task-sentence
 * sets keep the queries with ground truth, as tests/common/catalogs.rs and bench/data.mjs do).
 */
export function labelledQuerySets() {
  const local = (file) => JSON.parse(readFileSync(join(dataDir, file), "utf8")).map(({ catalog, query }) => ({ catalog, query }));
  const shipped = (set) =>
    JSON.parse(gunzipSync(readFileSync(join(dataDir, "catalogs", `queries-${set}.json.gz`))).toString("utf8"))
      .filter((q) => (Array.isArray(q.ground_truth) ? q.ground_truth.some((g) => g.server && g.tool) : (q.ground_truth_tools ?? []).length > 0))
      .map((q) => ({ catalog: String(q.catalog ?? "").replace(/\.json$/, ""), query: String(q.query ?? "") }));
  return {
    "queries-keyword": local("queries-keyword.json"),
    "queries-model": local("queries-model.json"),
    "queries-absent": local("queries-absent.json"),
    "queries-toolbench": shipped("toolbench"),
    "queries-bfcl": shipped("bfcl"),
    "queries-metatool": shipped("metatool"),
  };
}

/** The catalogs (file stems) the labelled sets run on, unions split, plus the benchmark's mega-union. */
export function catalogsUsed() {
  const names = new Set(["mega-union"]);
  const rest = ["cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04"];
  for (const list of Object.values(labelledQuerySets())) {
    for (const { catalog } of list) for (const part of catalog.split("+")) for (const n of part === "rest-apis-flat-3400" ? rest : [part]) names.add(n);
  }
  return [...names].sort();
}

/** Where scripts/embed installs the model (TOOLSHELF_EMBED_DIR moves it). */
export const embedDir = process.env.TOOLSHELF_EMBED_DIR ?? join(repoDir, "target", "embed");

/**
 * The real model in Node when scripts/embed has installed it: transformers.js on onnxruntime-node,
 * the converted graph and tokenizer from `target/embed/model`, no remote lookups. `{ embed(texts) →
 * Promise<Float32Array[]> (unit vectors, mean pooling over the mask), pipeline() }`, or
 * `{ missing: reason }` (for a test's `skip`) when it is not installed.
 */
export function localModel(name = "all-MiniLM-L6-v2") {
  const modelDir = join(embedDir, "model");
  const nodeDir = join(embedDir, "node");
  const graph = join(modelDir, name, "onnx", "model.onnx");
  if (!existsSync(graph)) return { missing: `the model is not installed (no ${graph}; scripts/embed installs it)` };
  if (!existsSync(join(nodeDir, "node_modules", "@huggingface", "transformers"))) {
    return { missing: `transformers.js is not installed in ${nodeDir} (scripts/embed installs it)` };
  }
  let loading;
  const pipeline = () => {
    loading ??= (async () => {
      const transformers = createRequire(join(nodeDir, "package.json"))("@huggingface/transformers");
      transformers.env.allowRemoteModels = false;
      transformers.env.allowLocalModels = true;
      transformers.env.localModelPath = `${modelDir}/`;
      return transformers.pipeline("feature-extraction", name, { dtype: "fp32", device: "cpu" });
    })();
    return loading;
  };
  /** Batches of texts of like length: a batch is padded to its longest text. */
  const embed = async (texts, batch = 16) => {
    const extractor = await pipeline();
    const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length);
    const out = new Array(texts.length);
    for (let i = 0; i < order.length; i += batch) {
      const rows = order.slice(i, i + batch);
      const tensor = await extractor(rows.map((r) => texts[r]), { pooling: "mean", normalize: true });
      rows.forEach((r, j) => (out[r] = tensor.data.slice(j * tensor.dims[1], (j + 1) * tensor.dims[1])));
    }
    return out;
  };
  return { embed, pipeline };
}
