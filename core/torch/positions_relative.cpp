// core/torch/positions_relative.cpp — the PyTorch form of the relative position encodings that
// bias the logits by distance (or multiply the weights, or add to the values): ALiBi, T5, KERPLE,
// dynamic bias, FIRE, Shaw, URPE (rows of the table in positions.cpp; snippet.hpp). The distances
// and signs are those of core/position/<name>.cpp (docs/positions.md); bucket and slope functions
// are written from the engine's own (relative.hpp).
#include <algorithm>
#include <string>

#include "position/relative.hpp"
#include "torch/snippet.hpp"

namespace ap {

// T5's bucket of rel (HF _relative_position_bucket, with relative.cpp's +1e-9); also contextual's.
const char* const kPyT5Bucket = R"PY(
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


)PY";

namespace torch_py {

namespace {

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

const char* const kT5 = R"PY(class Position(PositionBase):
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


}  // namespace

std::string alibi(const MakeContext& ctx) {
  const std::string mode = ctx.options.text("alibi_mode");
  const char* m = mode == "asymmetric" ? "asymmetric" : mode == "symmetric" || (mode == "auto" && !ctx.sizes.causal) ? "symmetric" : "causal";
  return fill(kAlibi, {m, (ctx.options.number("alibi_ratio")), alibi_slopes(ctx.sizes.heads)});
}

std::string t5_bias(const MakeContext& ctx) {
  return kPyT5Bucket + fill(kT5, {ctx.options.integer("t5_num_buckets"), ctx.options.integer("t5_max_distance")});
}

std::string kerple(const MakeContext& ctx) { return fill(kKerple, {bool(ctx.options.text("kerple_kind") == "power")}); }

std::string dynamic_bias(const MakeContext& ctx) {
  return fill(kDynamic, {bool(ctx.options.text("dynamic_bias_distance") != "absolute")});
}

std::string fire(const MakeContext& ctx) { return fill(kFire, {ctx.options.number("fire_length")}); }

std::string shaw(const MakeContext& ctx) {
  return fill(kShaw, {ctx.options.integer("shaw_clip"), ctx.options.flag("shaw_values")});
}

std::string urpe(const MakeContext& ctx) {
  const int k = ctx.options.integer("urpe_max_distance");
  return fill(kUrpe, {k > 0 ? k : std::max(1, ctx.sizes.model_len - 1)});
}

}  // namespace torch_py

}  // namespace ap
