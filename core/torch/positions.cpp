// core/torch/positions.cpp — the PyTorch form of each position encoding (the table snippet.hpp
// describes): `class Position(PositionBase)` overriding the hooks the encoding uses, computing
// what core/position/<name>.cpp computes (tables in float64, then float32, as the engine's
// tables; the same signs and distances, docs/positions.md). Fixed numbers the engine derives
// (ALiBi slopes, RoPE frequencies and their scaling) are written as numbers from the engine's own
// functions. This file: the table, and the absolute and rotary entries; the relative biases are
// in positions_relative.cpp, the content-dependent ones (contextual, CoPE, forget gate) in
// positions_contextual.cpp. Every registry entry has a row.
#include <algorithm>
#include <cmath>
#include <string>

#include "position/rotary.hpp"
#include "torch/snippet.hpp"

namespace ap {

namespace {

// The absolute entries add at the embedding (layer -1), or at every block's input (layerwise).
const char* const kNone = R"PY(class Position(PositionBase):  # none: no position information
    pass)PY";

const char* const kLearned = R"PY(class Position(PositionBase):  # learned: x += P[t] (core/position/learned.cpp)
    LAYERWISE = $a

    def add(self, m, layer, x):
        if (layer >= 0) != self.LAYERWISE:
            return x
        P = m.get_parameter(f"blocks.{layer}.pos_emb.weight" if self.LAYERWISE else "pos_emb.weight")
        if x.shape[1] > P.shape[0]:
            raise ValueError(f"learned positions exist up to length {P.shape[0]}, not {x.shape[1]}")
        return x + P[:x.shape[1]])PY";

// (T, C) sinusoids in float64, then float32 (as the engine's table): interleaved or [sin | cos].
const char* const kSinusoids = R"PY(
def _sinusoids(T, C, base, concat):
    P = torch.zeros(T, C, dtype=torch.float64)
    w = torch.pow(torch.tensor(base, dtype=torch.float64), -2.0 * torch.arange(C // 2, dtype=torch.float64) / C)
    a = torch.arange(T, dtype=torch.float64)[:, None] * w
    if concat:
        P[:, :C // 2], P[:, C // 2:2 * (C // 2)] = a.sin(), a.cos()
    else:
        P[:, 0:2 * (C // 2):2], P[:, 1:2 * (C // 2):2] = a.sin(), a.cos()
    return P.float()


class Position(PositionBase):
    """$a: x += $b (core/position/$a.cpp)"""
    LAYERWISE, BASE, CONCAT = $c, $d, $e

    def add(self, m, layer, x):
        if (layer >= 0) != self.LAYERWISE:
            return x
        P = _sinusoids(x.shape[1], x.shape[2], self.BASE, self.CONCAT).to(x.device)
        return x + $f)PY";

const char* const kRope = R"PY(class Position(PositionBase):
    """RoPE: pairs (a, b) at position t -> (a cos t theta - b sin t theta, b cos + a sin), in the first
    D_ROT dims of each head; pairs (i, i + D_ROT/2) when HALF, else (2i, 2i+1). Evaluation beyond
    TRAIN_LEN uses the scaled frequencies when SCALED (rope_scaling) (core/position/rope.cpp, rotary.cpp)."""
    D_ROT, HALF, SCALED = $a, $b, $c
    THETA = $d
    SCALED_THETA, MSCALE = $e, $f

    def rotate(self, m, layer, q, k):
        T = q.shape[-2]
        scaled = self.SCALED and not m.training and T > TRAIN_LEN
        theta, ms = (self.SCALED_THETA, self.MSCALE) if scaled else (self.THETA, 1.0)
        angle = torch.arange(T, dtype=torch.float64)[:, None] * torch.tensor(theta, dtype=torch.float64)
        cos, sin = (ms * angle.cos()).float().to(q.device), (ms * angle.sin()).float().to(q.device)
        return self.turn(q, cos, sin), self.turn(k, cos, sin)

    def turn(self, x, cos, sin):
        d, h = self.D_ROT, self.D_ROT // 2
        a, b = (x[..., :h], x[..., h:d]) if self.HALF else (x[..., 0:d:2], x[..., 1:d:2])
        a, b = a * cos - b * sin, b * cos + a * sin
        turned = torch.cat([a, b], -1) if self.HALF else torch.stack([a, b], -1).flatten(-2)
        return torch.cat([turned, x[..., d:]], -1))PY";

const char* const kXpos = R"PY(class Position(PositionBase):
    """xPos: RoPE (pairs (2i, 2i+1)) with q scaled by zeta_i^((t - c)/gamma), k by zeta_i^(-(t - c)/gamma),
    zeta_i = (2i + 0.4 D)/(1.4 D), c = T // 2 (core/position/xpos.cpp, rotary.cpp)."""
    D_ROT, GAMMA = $a, $b
    THETA = $c

    def rotate(self, m, layer, q, k):
        T, d, h = q.shape[-2], self.D_ROT, self.D_ROT // 2
        t = torch.arange(T, dtype=torch.float64)[:, None]
        angle = t * torch.tensor(self.THETA, dtype=torch.float64)
        cos, sin = angle.cos().float().to(q.device), angle.sin().float().to(q.device)
        zeta = (2.0 * torch.arange(h, dtype=torch.float64) + 0.4 * d) / (1.4 * d)
        e = (t - T // 2) / self.GAMMA
        qs, ks = torch.pow(zeta, e).float().to(q.device), torch.pow(zeta, -e).float().to(q.device)
        return self.turn(q, cos * qs, sin * qs), self.turn(k, cos * ks, sin * ks)

    def turn(self, x, cos, sin):
        d = self.D_ROT
        a, b = x[..., 0:d:2], x[..., 1:d:2]
        a, b = a * cos - b * sin, b * cos + a * sin
        return torch.cat([torch.stack([a, b], -1).flatten(-2), x[..., d:]], -1))PY";


std::string none(const MakeContext&) { return kNone; }

std::string learned(const MakeContext& ctx) { return fill(kLearned, {ctx.sizes.layerwise}); }

std::string sinusoidal(const MakeContext& ctx) {
  return fill(kSinusoids, {"sinusoidal", "PE[t]", bool(ctx.sizes.layerwise), (ctx.options.number("sinusoidal_base")),
                           bool(ctx.options.text("sinusoidal_layout") == "concat"), "P"});
}

std::string scaled_sinusoidal(const MakeContext& ctx) {
  return fill(kSinusoids, {"scaled_sinusoidal", "g [sin | cos]", bool(ctx.sizes.layerwise), "10000.0", "True",
                           "m.get_parameter(f\"blocks.{layer}.pos_emb.scale\" if self.LAYERWISE else \"pos_emb.scale\") * P"});
}

std::string rope(const MakeContext& ctx) {
  const int HS = ctx.sizes.head_size();
  const int d_rot = 2 * int(std::floor(ctx.options.number("rope_fraction") * HS / 2 + 1e-9));
  const double base = ctx.options.number("rope_base");
  const RopeScaling kind = rope_scaling_from(ctx.options.text("rope_scaling"));
  const ScaledThetas plain = rope_scale(d_rot, base, RopeScaling::None, 1.0, ctx.sizes.model_len);
  const ScaledThetas scaled = rope_scale(d_rot, base, kind, ctx.options.number("rope_factor"), ctx.sizes.model_len);
  return fill(kRope, {d_rot, bool(ctx.options.text("rope_layout") == "half"),
                      bool(kind != RopeScaling::None), plain.theta, scaled.theta, scaled.mscale});
}

std::string xpos(const MakeContext& ctx) {
  const int d_rot = 2 * (ctx.sizes.head_size() / 2);
  return fill(kXpos, {d_rot, (ctx.options.number("xpos_gamma")),
                      rope_thetas(d_rot, ctx.options.number("xpos_base"))});
}

// Randomized positions at evaluation (the export's only use): positions 0..T-1 of the wrapped
// encoding, which is learned's or sinusoidal's snippet at the embedding, or RoPE's (interleaved,
// every dim, base 10^4, no scaling), as core/position/randomized.cpp builds them.
std::string randomized(const MakeContext& ctx) {
  const std::string w = ctx.options.text("randomized_wrap");
  if (w == "learned") return fill(kLearned, {false});
  if (w == "sinusoidal") return fill(kSinusoids, {"randomized", "PE[t] (wrap sinusoidal, evaluation positions)", false, 10000.0, false, "P"});
  const int HS = ctx.sizes.head_size();
  const std::vector<double> theta = rope_thetas(HS, 10000.0);
  return fill(kRope, {HS, false, false, theta, theta, 1.0});
}

}  // namespace

const std::vector<TorchSnippet>& torch_position_snippets() {
  using namespace torch_py;
  static const std::vector<TorchSnippet> table = {
      {"none", none},       {"learned", learned}, {"sinusoidal", sinusoidal}, {"rope", rope},
      {"alibi", alibi},     {"t5_bias", t5_bias}, {"shaw", shaw},             {"urpe", urpe},
      {"xpos", xpos},       {"kerple", kerple},   {"scaled_sinusoidal", scaled_sinusoidal},
      {"dynamic_bias", dynamic_bias}, {"fire", fire}, {"contextual1", contextual1},
      {"contextual2", contextual2},   {"cope", cope}, {"forget", forget}, {"randomized", randomized},
  };
  return table;
}

}  // namespace ap
