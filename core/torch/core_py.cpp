// core/torch/core_py.cpp — the fixed Python text of an exported model (export.cpp assembles it):
// the safetensors loader (torch only), the hook base classes the entries' PyTorch forms override, the
// transformer itself and the __main__ that evaluates the stored batch. The forward is the one of
// core/model/transformer.cpp and attention.cpp, step for step (docs/model-format.md, "Conventions
// of the forward pass"): LayerNorm ε 1e-5, GELU tanh or erf, τ from the normalization, position
// hooks in the order rotate → bias → soft cap → rows → multiply → o = a·v → values.
#include "torch/core_py.hpp"

namespace ap {

// After the module docstring: imports and the loader.
const char* const kTorchLoaderPy = R"PY(import json
import math
import os
import struct
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

_DTYPES = {"F32": (torch.float32, 4), "F64": (torch.float64, 8), "F16": (torch.float16, 2),
           "BF16": (torch.bfloat16, 2)}


def load_safetensors(path):
    """({name: float32 tensor}, metadata) of a safetensors file: an 8-byte little-endian header
    length, a JSON header {name: {dtype, shape, data_offsets}}, then little-endian raw data."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 8:
        raise ValueError(f"{path}: not a safetensors file (shorter than 8 bytes)")
    (n,) = struct.unpack("<Q", data[:8])
    if n > (8 << 20) or 8 + n > len(data):
        raise ValueError(f"{path}: header length {n} is beyond the file or above 8 MiB")
    header = json.loads(data[8:8 + n].decode("utf-8"))
    meta = header.pop("__metadata__", None) or {}
    base, size = 8 + n, len(data) - 8 - n
    tensors = {}
    for name, t in header.items():
        if t.get("dtype") not in _DTYPES:
            raise ValueError(f"{name}: dtype {t.get('dtype')!r} is not one of {', '.join(_DTYPES)}")
        dtype, width = _DTYPES[t["dtype"]]
        shape = [int(d) for d in t["shape"]]
        begin, end = (int(x) for x in t["data_offsets"])
        count = math.prod(shape)
        if not 0 <= begin <= end <= size or end - begin != count * width:
            raise ValueError(f"{name}: data_offsets {begin}..{end} do not hold {count} values of {t['dtype']}")
        raw = bytearray(data[base + begin:base + end])
        if sys.byteorder != "little":  # the file is little-endian; swap each value's bytes
            for i in range(0, len(raw), width):
                raw[i:i + width] = raw[i:i + width][::-1]
        x = torch.frombuffer(raw, dtype=dtype) if count else torch.zeros(0, dtype=dtype)
        tensors[name] = x.reshape(shape).to(torch.float32).clone()
    return tensors, meta

)PY";

// After the constants: the hook bases (no-op defaults), then the entries' snippets follow.
const char* const kTorchBasesPy = R"PY(

class PositionBase:
    """Position hooks, called as core/model/attention.cpp calls them; the defaults do nothing.
    m is the Model (its parameters: m.get_parameter(name)), layer the block (-1: the embedding)."""

    def add(self, m, layer, x):  # x (B, T, C): absolute tables (rope_embed turns x instead)
        return x

    def rotate(self, m, layer, q, k):  # q, k (B, NH, T, HS): RoPE, or tables added (qk_sinusoidal, qk_learned)
        return q, k

    def bias(self, m, layer, s, q, k, tau):  # logits s (B, NH, T, T), after tau q.k
        return s

    def weights(self, m, layer, a):  # normalized weights (B, NH, T, T)
        return a

    def values(self, m, layer, a, o):  # o (B, NH, T, HS) = a v
        return o


class NormalizationBase:
    """A row map of logits to weights over the visible keys (masked keys get weight 0)."""
    tau = TAU  # the scale of q.k

    def qk(self, m, layer, q, k):
        return q, k

    def scores(self, m, layer, q, k):
        return (q @ k.transpose(-2, -1)) * self.tau

    def rows(self, m, layer, s, visible):  # visible (T, T) bool
        raise NotImplementedError

)PY";

// After the snippets: the model, the stored batch's evaluation and __main__.
const char* const kTorchModelPy = R"PY(

def _add_parameter(root, name, shape, fixed=None):
    """Registers parameter `name` (a dotted path such as blocks.0.attn.cosine_scale) under root,
    making plain containers for missing parts, so that state_dict() names are the file's; a fixed
    tensor (values given) as a buffer outside the state_dict."""
    *path, leaf = name.split(".")
    mod = root
    for part in path:
        child = mod._modules.get(part)
        if child is None:
            child = nn.Module()
            mod.add_module(part, child)
        mod = child
    if fixed is None:
        mod.register_parameter(leaf, nn.Parameter(torch.zeros(shape)))
    else:
        mod.register_buffer(leaf, torch.tensor(fixed).reshape(shape), persistent=False)


def _activation(x):
    if ACTIVATION == "gelu":
        return F.gelu(x, approximate="tanh")
    if ACTIVATION == "gelu_erf":
        return F.gelu(x)
    return F.relu(x)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D_MODEL, 3 * D_MODEL)  # rows: q, then k, then v; head h: columns h*HS..
        self.proj = nn.Linear(D_MODEL, D_MODEL)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(D_MODEL, FFN)
        self.proj = nn.Linear(FFN, D_MODEL)

    def forward(self, x):
        return self.proj(_activation(self.fc(x)))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(D_MODEL, eps=1e-5)
        self.attn = Attention()
        self.ln2 = nn.LayerNorm(D_MODEL, eps=1e-5)
        self.mlp = MLP()


class Model(nn.Module):
    """The exported transformer; state_dict() names and layouts are the model file's."""

    def __init__(self):
        super().__init__()
        self.tok_emb = nn.Embedding(VOCAB, D_MODEL)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.ln_f = nn.LayerNorm(D_MODEL, eps=1e-5)
        self.head = nn.Linear(D_MODEL, CLASSES)
        for name, shape in EXTRA_PARAMETERS:
            _add_parameter(self, name, shape)
        for name, shape, values in FIXED_TENSORS:
            _add_parameter(self, name, shape, values)
        self.pos, self.norm = Position(), Normalization()

    @classmethod
    def load(cls, path):
        """The model with the weights of a safetensors file (the optimizer's moments are skipped)."""
        tensors, _ = load_safetensors(path)
        m = cls()
        m.load_state_dict({k: v for k, v in tensors.items() if not k.startswith("optimizer.")})
        return m.eval()

    def attention(self, layer, x):  # x (B, T, C)
        B, T, C = x.shape
        q, k, v = (t.reshape(B, T, HEADS, C // HEADS).transpose(1, 2)
                   for t in self.blocks[layer].attn.qkv(x).split(C, dim=-1))  # (B, NH, T, HS)
        q, k = self.norm.qk(self, layer, q, k)
        q, k = self.pos.rotate(self, layer, q, k)
        s = self.norm.scores(self, layer, q, k)  # (B, NH, T, T)
        s = self.pos.bias(self, layer, s, q, k, self.norm.tau)
        if SOFTCAP > 0:
            s = SOFTCAP * torch.tanh(s / SOFTCAP)
        visible = torch.ones(T, T, dtype=torch.bool, device=x.device)
        if CAUSAL:
            visible = visible.tril()  # query i sees keys j <= i
        a = self.norm.rows(self, layer, s, visible)
        a = self.pos.weights(self, layer, a)
        o = self.pos.values(self, layer, a, a @ v)
        return self.blocks[layer].attn.proj(o.transpose(1, 2).reshape(B, T, C))

    def block(self, layer, x):
        blk = self.blocks[layer]
        x = self.pos.add(self, layer, x)
        if PRE_NORM:
            mid = x + self.attention(layer, blk.ln1(x))
            return mid + blk.mlp(blk.ln2(mid))
        mid = blk.ln1(x + self.attention(layer, x))
        return blk.ln2(mid + blk.mlp(mid))

    def forward(self, inputs):
        """inputs (B, T) int64 token ids, anchors included -> logits (B, T, CLASSES), or
        (B, CLASSES) for a per-sequence task (pooled)."""
        x = self.pos.add(self, -1, self.tok_emb(inputs))
        for layer in range(LAYERS):
            x = self.block(layer, x)
        h = self.ln_f(x)
        if PER_SEQUENCE:
            h = h.mean(dim=1) if POOL == "mean" else h[:, 0]
        return self.head(h)

    def loss(self, inputs, targets, mask=None):
        """(cross-entropy, accuracy): one mean over the scored tokens (mask 1) of the batch."""
        logits = self(inputs)
        if not PER_SEQUENCE:
            keep = torch.ones_like(targets, dtype=torch.bool) if mask is None else mask.bool()
            logits, targets = logits[keep], targets[keep]
        loss = F.cross_entropy(logits, targets)
        return loss, (logits.argmax(-1) == targets).float().mean()


def model_beside(script):
    """The model file exported beside this file: the same name ending .safetensors (the
    playground names both attnplay-<task>-step<N>), model.safetensors, or the only .safetensors
    file there. None when there is none of these."""
    here = os.path.dirname(os.path.abspath(script))
    stem = os.path.splitext(os.path.basename(script))[0]
    for name in (stem + ".safetensors", "model.safetensors"):
        if os.path.isfile(os.path.join(here, name)):
            return os.path.join(here, name)
    found = [f for f in os.listdir(here) if f.endswith(".safetensors")]
    return os.path.join(here, found[0]) if len(found) == 1 else None


def main(argv):
    path = argv[1] if len(argv) > 1 else model_beside(argv[0])
    if path is None:
        stem = os.path.splitext(os.path.basename(argv[0]))[0]
        sys.exit(f"{argv[0]}: no model file given, and none beside it ({stem}.safetensors); "
                 f"run: python3 {argv[0]} MODEL.safetensors")
    m = Model.load(path)
    with torch.no_grad():
        loss, accuracy = m.loss(torch.tensor(BATCH_INPUTS), torch.tensor(BATCH_TARGETS),
                                torch.tensor(BATCH_MASK) if BATCH_MASK else None)
    print(json.dumps({"loss": loss.item(), "accuracy": accuracy.item(), "engine_loss": ENGINE_LOSS,
                      "engine_accuracy": ENGINE_ACCURACY, "batch": len(BATCH_INPUTS), "step": STEP}))


if __name__ == "__main__":
    main(sys.argv)
)PY";

}  // namespace ap
