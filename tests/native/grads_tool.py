#!/usr/bin/env python3
"""tests/native/grads_tool.py — the helpers of grads_builds_test.sh (plain Python; `ref` needs torch).

  perturb IN OUT SEED SCALE [NAME=VALUE ...]   OUT = IN's weights, each tensor whose name ends in
      NAME first set to VALUE in every coordinate, + SCALE·N(0,1) per coordinate (seeded; the
      optimizer state and metadata copied). attn.cosine_scale=2.3 puts τ = e^(ln 10 + w) at the
      clamp (100) for about half the heads.
  batch MODEL OUT SEED B T                      a grads batch (docs/model-format.md): B rows of T
      token ids below the task's vocabulary, targets below the head's classes, every position scored.
  compare A B TOL                               per tensor e = ‖a − b‖₂ / max(‖a‖₂, ‖b‖₂, f), with the
      floor f = 1e-3 · the largest ‖b‖₂ of the file (a gradient that is zero in exact arithmetic,
      such as a bias that softmax's shift invariance cancels, is rounding noise on both sides);
      prints the largest; exit 1 when it is above TOL or a tensor is missing.
  ref MODEL.py MODEL BATCH OUT                  the gradients in float64 by PyTorch's autograd on the
      exported model (attnplay export-torch), written as F64 safetensors.
"""
import json
import math
import random
import struct
import sys
from array import array

FORMATS = {"F32": ("f", 4), "F64": ("d", 8)}


def read(path):
    """(header without __metadata__, metadata, {name: array of floats})."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    if n > (8 << 20) or 8 + n > len(data):
        raise SystemExit(f"{path}: not a safetensors file")
    header = json.loads(data[8:8 + n].decode("utf-8"))
    meta = header.pop("__metadata__", {})
    values = {}
    for name, t in header.items():
        code, _ = FORMATS[t["dtype"]]
        begin, end = t["data_offsets"]
        a = array(code)
        a.frombytes(data[8 + n + begin:8 + n + end])
        if sys.byteorder != "little":
            a.byteswap()
        values[name] = a
    return header, meta, values


def write(path, meta, tensors, dtype):
    """tensors: [(name, shape, list of floats)] in order."""
    code, width = FORMATS[dtype]
    header, blobs, offset = {}, [], 0
    for name, shape, v in tensors:
        a = array(code, v)
        if sys.byteorder != "little":
            a.byteswap()
        blobs.append(a.tobytes())
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(v) * width]}
        offset += len(v) * width
    if meta:
        header["__metadata__"] = meta
    text = json.dumps(header).encode("utf-8")
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def perturb(src, out, seed, scale, *sets):
    header, meta, values = read(src)
    rng = random.Random(int(seed))
    fixed = [s.split("=", 1) for s in sets]
    tensors = []
    for name, t in header.items():
        v = list(values[name])
        if not name.startswith("optimizer."):
            for suffix, value in fixed:
                if name.endswith(suffix):
                    v = [float(value)] * len(v)
            v = [x + float(scale) * rng.gauss(0.0, 1.0) for x in v]
        tensors.append((name, t["shape"], v))
    write(out, meta, tensors, "F32")


def batch(model, out, seed, rows, length):
    header, meta, _ = read(model)
    config = json.loads(meta["config"])
    anchors = {"none": 0, "cls": 1, "bos": 1, "cls_sep": 2}.get(config.get("anchors", "none"), 0)
    vocab = header["tok_emb.weight"]["shape"][0] - anchors
    classes = header["head.weight"]["shape"][0]
    rng = random.Random(int(seed))
    b, t = int(rows), int(length)
    inputs = [[rng.randrange(vocab) for _ in range(t)] for _ in range(b)]
    per_sequence = config.get("task") in ("order", "temporal_order")
    targets = [rng.randrange(classes) for _ in range(b)] if per_sequence else \
        [[rng.randrange(classes) for _ in range(t)] for _ in range(b)]
    with open(out, "w") as f:
        json.dump({"inputs": inputs, "targets": targets}, f)


def norm(v):
    return math.sqrt(math.fsum(x * x for x in v))


def compare(a_path, b_path, tol, verbose=""):
    _, _, a = read(a_path)
    _, _, b = read(b_path)
    if set(a) != set(b):
        print(f"tensors differ: {sorted(set(a) ^ set(b))}")
        return 1
    floor = 1e-3 * max(norm(v) for v in b.values())
    worst, where = 0.0, ""
    for name in a:
        e = norm([x - y for x, y in zip(a[name], b[name])]) / max(norm(a[name]), norm(b[name]), floor, 1e-30)
        if verbose:
            print(f"  {name}: {e:.2e} (norm {norm(b[name]):.3e})")
        if e > worst:
            worst, where = e, name
    print(f"largest relative difference {worst:.2e} ({where})")
    return 0 if worst <= float(tol) else 1


def ref(model_py, model, batch_path, out, precision="float64"):
    import importlib.util

    import torch

    spec = importlib.util.spec_from_file_location("exported", model_py)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    m = mod.Model.load(model).to(getattr(torch, precision))
    with open(batch_path) as f:
        b = json.load(f)
    loss, _ = m.loss(torch.tensor(b["inputs"]), torch.tensor(b["targets"]))
    loss.backward()
    grads = [(n, list(p.shape), p.grad.flatten().tolist()) for n, p in m.named_parameters() if p.grad is not None]
    write(out, {"loss": repr(loss.item())}, grads, "F64" if precision == "float64" else "F32")


if __name__ == "__main__":
    commands = {"perturb": perturb, "batch": batch, "compare": compare, "ref": ref}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        raise SystemExit(__doc__)
    sys.exit(commands[sys.argv[1]](*sys.argv[2:]) or 0)
