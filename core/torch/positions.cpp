// core/torch/positions.cpp — the PyTorch form of each position encoding (the table snippet.hpp
// describes): `class Position(PositionBase)` overriding the hooks the encoding uses, computing
// what core/position/<name>.cpp computes (tables in float64, then float32, as the engine's
// tables; the same signs and distances, docs/positions.md). Fixed numbers the engine derives
// (ALiBi slopes, RoPE frequencies and their scaling) are written as numbers from the engine's own
// functions. Entries without a row here are refused by the export, naming them: contextual1 and
// contextual2 (not written yet).
#include <algorithm>
#include <cmath>
#include <string>

#include "position/relative.hpp"
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

const char* const kAlibi = R"PY(class Position(PositionBase):
    """ALiBi: s += b_h(d), d = i - j: -m_h d (causal), -m_h |d| (symmetric), -m_h d left and
    RATIO m_h d right (asymmetric) (core/position/alibi.cpp)."""
    MODE, RATIO = "$a", $b
    SLOPES = $c

    def bias(self, m, layer, s, q, k, tau):
        pos = torch.arange(s.shape[-1], dtype=torch.float64)
        d = pos[:, None] - pos[None, :]
        slope = torch.tensor(self.SLOPES, dtype=torch.float64)[:, None, None]
        if self.MODE == "symmetric":
            b = -slope * d.abs()
        elif self.MODE == "asymmetric":
            b = torch.where(d >= 0, -slope * d, self.RATIO * slope * d)
        else:
            b = -slope * d
        return s + b.float().to(s.device))PY";

// T5's bucket of rel (HF _relative_position_bucket, with relative.cpp's +1e-9).
const char* const kT5 = R"PY(
def _t5_bucket(rel, bidirectional, num_buckets, max_distance):
    ret = 0
    if bidirectional:
        num_buckets //= 2
        ret = num_buckets if rel > 0 else 0
        n = abs(rel)
    else:
        n = -rel if rel < 0 else 0
    exact = num_buckets // 2
    if n < exact:
        return ret + n
    v = math.log(n / exact) / math.log(max_distance / exact) * (num_buckets - exact)
    return ret + min(exact + int(v + 1e-9), num_buckets - 1)


class Position(PositionBase):
    """T5: s += W[bucket(j - i), h], one table for all layers (core/position/t5_bias.cpp)."""
    NUM_BUCKETS, MAX_DISTANCE = $a, $b

    def bias(self, m, layer, s, q, k, tau):
        T = s.shape[-1]
        idx = torch.tensor([[_t5_bucket(j - i, not CAUSAL, self.NUM_BUCKETS, self.MAX_DISTANCE)
                             for j in range(T)] for i in range(T)])
        W = m.get_parameter("t5_bias.weight")  # (NB, NH)
        return s + W[idx.to(W.device)].permute(2, 0, 1))PY";

const char* const kKerple = R"PY(class Position(PositionBase):
    """KERPLE: s += -r1 ln(1 + r2 |i - j|) (log) or -r1 |i - j|^r2 (power), r1 = softplus(raw1),
    r2 = softplus(raw2) (log) or 2 sigmoid(raw2) (power), per layer (core/position/kerple.cpp)."""
    POWER = $a

    def bias(self, m, layer, s, q, k, tau):
        raw1 = m.get_parameter(f"blocks.{layer}.attn.kerple.raw_r1").double()[:, None, None]
        raw2 = m.get_parameter(f"blocks.{layer}.attn.kerple.raw_r2").double()[:, None, None]
        pos = torch.arange(s.shape[-1], dtype=torch.float64)
        d = (pos[:, None] - pos[None, :]).abs()
        if self.POWER:
            b = -F.softplus(raw1) * torch.pow(d, 2.0 * torch.sigmoid(raw2))
        else:
            b = -F.softplus(raw1) * torch.log1p(F.softplus(raw2) * d)
        return s + b.float())PY";

const char* const kDynamic = R"PY(class Position(PositionBase):
    """s += MLP(u)_h, u = sign(i - j) ln(1 + |i - j|) (SIGNED) or ln(1 + |i - j|), MLP 1 -> H -> H -> NH
    with SiLU, shared by all layers (core/position/dynamic_bias.cpp)."""
    SIGNED = $a

    def bias(self, m, layer, s, q, k, tau):
        pos = torch.arange(s.shape[-1])
        d = pos[:, None] - pos[None, :]
        u = torch.log1p(d.abs().float())
        if self.SIGNED:
            u = torch.where(d < 0, -u, u)
        p = lambda name: m.get_parameter("dynamic_bias.mlp." + name)
        h = F.silu(u[..., None] * p("0.0.weight")[:, 0] + p("0.0.bias"))
        h = F.silu(F.linear(h, p("1.0.weight"), p("1.0.bias")))
        return s + F.linear(h, p("2.weight"), p("2.bias")).permute(2, 0, 1))PY";

// Shaw's rows: K + clip(j - i, K); URPE's: K + clip(i - j, K).
const char* const kShaw = R"PY(class Position(PositionBase):
    """Shaw: s_ij += tau q_i.wK[clip(j - i)] and, when VALUES, o_i += sum_j a_ij wV[clip(j - i)]; per
    layer, shared by the heads (core/position/shaw.cpp)."""
    K, VALUES = $a, $b

    def index(self, T, device):
        pos = torch.arange(T, device=device)
        return (pos[None, :] - pos[:, None]).clamp(-self.K, self.K) + self.K

    def bias(self, m, layer, s, q, k, tau):
        W = m.get_parameter(f"blocks.{layer}.attn.shaw.key.weight")  # (2K+1, HS)
        qw = tau * (q @ W.t())  # (B, NH, T, 2K+1)
        return s + qw.gather(-1, self.index(s.shape[-1], s.device).expand(*s.shape))

    def values(self, m, layer, a, o):
        if not self.VALUES:
            return o
        W = m.get_parameter(f"blocks.{layer}.attn.shaw.value.weight")
        per_distance = torch.zeros(*a.shape[:-1], W.shape[0], dtype=a.dtype, device=a.device)
        per_distance.scatter_add_(-1, self.index(a.shape[-1], a.device).expand(*a.shape), a)
        return o + per_distance @ W)PY";

const char* const kUrpe = R"PY(class Position(PositionBase):
    """URPE: a_ij <- a_ij C[K + clip(i - j, K), h], one table for all layers (core/position/urpe.cpp)."""
    K = $a

    def weights(self, m, layer, a):
        pos = torch.arange(a.shape[-1], device=a.device)
        idx = (pos[:, None] - pos[None, :]).clamp(-self.K, self.K) + self.K
        return a * m.get_parameter("urpe.weight")[idx].permute(2, 0, 1))PY";

const char* const kFire = R"PY(class Position(PositionBase):
    """FIRE: s += W2 relu(W1 u + b1) + b2, u(i, j) = sgn ln(|c| |i - j| + 1) / (ln(|c| max(i, L) + 1) + 1e-6),
    L = |L_multiplier LENGTH|, sgn = -1 for keys right of the query in bidirectional models, else 1;
    one MLP for all layers (core/position/fire.cpp)."""
    LENGTH = $a

    def bias(self, m, layer, s, q, k, tau):
        T, p = s.shape[-1], m.get_parameter
        c = p("fire.c").double().abs()
        L = (p("fire.L_multiplier").double() * self.LENGTH).abs()
        i = torch.arange(T, dtype=torch.float64)[:, None]
        j = torch.arange(T, dtype=torch.float64)[None, :]
        sgn = 1.0 if CAUSAL else 1.0 - 2.0 * (i < j).double()
        u = (sgn * torch.log(c * (i - j).abs() + 1) / (torch.log(c * torch.maximum(i, L) + 1) + 1e-6)).float()
        h = torch.relu(u[..., None] * p("fire.mlp.0.weight")[:, 0] + p("fire.mlp.0.bias"))
        return s + F.linear(h, p("fire.mlp.2.weight"), p("fire.mlp.2.bias")).permute(2, 0, 1))PY";

std::string none(const MakeContext&) { return kNone; }

std::string fire(const MakeContext& ctx) { return fill(kFire, {ctx.options.number("fire_length")}); }

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

std::string alibi(const MakeContext& ctx) {
  const std::string mode = ctx.options.text("alibi_mode");
  const char* m = mode == "asymmetric" ? "asymmetric" : mode == "symmetric" || (mode == "auto" && !ctx.sizes.causal) ? "symmetric" : "causal";
  return fill(kAlibi, {m, (ctx.options.number("alibi_ratio")), alibi_slopes(ctx.sizes.heads)});
}

std::string t5_bias(const MakeContext& ctx) {
  return fill(kT5, {ctx.options.integer("t5_num_buckets"), ctx.options.integer("t5_max_distance")});
}

std::string kerple(const MakeContext& ctx) { return fill(kKerple, {bool(ctx.options.text("kerple_kind") == "power")}); }

std::string dynamic_bias(const MakeContext& ctx) {
  return fill(kDynamic, {bool(ctx.options.text("dynamic_bias_distance") != "absolute")});
}

std::string shaw(const MakeContext& ctx) {
  return fill(kShaw, {ctx.options.integer("shaw_clip"), ctx.options.flag("shaw_values")});
}

std::string urpe(const MakeContext& ctx) {
  const int k = ctx.options.integer("urpe_max_distance");
  return fill(kUrpe, {k > 0 ? k : std::max(1, ctx.sizes.model_len - 1)});
}

}  // namespace

const std::vector<TorchSnippet>& torch_position_snippets() {
  static const std::vector<TorchSnippet> table = {
      {"none", none},       {"learned", learned}, {"sinusoidal", sinusoidal}, {"rope", rope},
      {"alibi", alibi},     {"t5_bias", t5_bias}, {"shaw", shaw},             {"urpe", urpe},
      {"xpos", xpos},       {"kerple", kerple},   {"scaled_sinusoidal", scaled_sinusoidal},
      {"dynamic_bias", dynamic_bias}, {"fire", fire},
  };
  return table;
}

}  // namespace ap
