# build-scripts/bench/bench_torch.py [--quick] — the bench's PyTorch row (bench-torch.mjs): the
# reference model tiny-ref (bench_train.cpp) written in plain PyTorch and trained on ONE thread
# (torch.set_num_threads(1)): vocab 64, d_model 64, 4 heads, 2 layers, FFN 256 with GELU (tanh),
# pre-LayerNorm, learned positions, causal, batch 16 x 64 tokens of random symbols, AdamW lr 3e-3.
# Prints one JSON line: {"torch": version, "steps_per_s": ...}. Run by /usr/bin/python3 (Debian's
# python3-torch).
import json
import math
import sys
import time

import torch
import torch.nn.functional as F
from torch import nn

V, D, H, L, FF, T, B = 64, 64, 4, 2, 256, 64, 16


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.qkv, self.proj = nn.Linear(D, 3 * D), nn.Linear(D, D)
        self.up, self.down = nn.Linear(D, FF), nn.Linear(FF, D)

    def forward(self, x, mask):
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, H, D // H).permute(2, 0, 3, 1, 4)
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(D // H)
        w = torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)
        x = x + self.proj((w @ v).transpose(1, 2).reshape(B, T, D))
        return x + self.down(F.gelu(self.up(self.ln2(x)), approximate="tanh"))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok, self.pos = nn.Embedding(V, D), nn.Parameter(torch.randn(T, D) * 0.02)
        self.blocks = nn.ModuleList(Block() for _ in range(L))
        self.ln, self.head = nn.LayerNorm(D), nn.Linear(D, V)
        self.register_buffer("mask", torch.triu(torch.ones(T, T, dtype=torch.bool), 1))

    def forward(self, idx):
        x = self.tok(idx) + self.pos
        for b in self.blocks:
            x = b(x, self.mask)
        return self.head(self.ln(x))


def main():
    quick = "--quick" in sys.argv
    torch.set_num_threads(1)
    torch.manual_seed(1)
    model = Model()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)

    def step():
        idx = torch.randint(0, V, (B, T + 1))
        loss = F.cross_entropy(model(idx[:, :-1]).reshape(-1, V), idx[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()

    for _ in range(2 if quick else 10):
        step()
    budget, steps, t0 = (0.3 if quick else 3.0), 0, time.perf_counter()
    while time.perf_counter() - t0 < budget:
        step()
        steps += 1
    print(json.dumps({"torch": torch.__version__, "steps_per_s": steps / (time.perf_counter() - t0)}))


main()
