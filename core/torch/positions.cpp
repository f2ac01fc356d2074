// core/torch/positions.cpp — the PyTorch form of each position encoding (the table snippet.hpp
// describes): `class Position(PositionBase)` overriding the hooks the encoding uses, computing
// what core/position/<name>.cpp computes (tables in float64, then float32, as the engine's
// tables; the same signs and distances, docs/positions.md). Fixed numbers the engine derives
// (ALiBi slopes, RoPE frequencies and their scaling) are written as numbers from the engine's own
// functions. Entries without a row here are refused by the export, naming them.
#include <cmath>
#include <string>

#include "position/relative.hpp"
#include "position/rotary.hpp"
#include "torch/snippet.hpp"

namespace ap {

namespace {

std::string none(const MakeContext&) {
  return "class Position(PositionBase):  # none: no position information\n    pass";
}

// The absolute entries add at the embedding (layer -1) or at every block's input (layerwise).
std::string on_layer(const MakeContext& ctx) {
  return std::string("        if (layer >= 0) != ") + py_bool(ctx.sizes.layerwise) + ":\n            return x\n";
}

std::string learned(const MakeContext& ctx) {
  const std::string name = ctx.sizes.layerwise ? "f\"blocks.{layer}.pos_emb.weight\"" : "\"pos_emb.weight\"";
  return "class Position(PositionBase):  # learned: x += P[t] (core/position/learned.cpp)\n"
         "    def add(self, m, layer, x):\n" + on_layer(ctx) +
         "        P = m.get_parameter(" + name + ")\n"
         "        if x.shape[1] > P.shape[0]:\n"
         "            raise ValueError(f\"learned positions exist up to length {P.shape[0]}, not {x.shape[1]}\")\n"
         "        return x + P[:x.shape[1]]";
}

// (T, C) sinusoids in float64, then float32: interleaved (sin, cos pairs) or [sin | cos].
std::string sinusoid_table(double base, bool concat) {
  return "\ndef _sinusoids(T, C):\n"
         "    P = torch.zeros(T, C, dtype=torch.float64)\n"
         "    w = torch.pow(torch.tensor(" + py_num(base) + ", dtype=torch.float64),\n"
         "                  -2.0 * torch.arange(C // 2, dtype=torch.float64) / C)\n"
         "    a = torch.arange(T, dtype=torch.float64)[:, None] * w\n" +
         (concat ? "    P[:, :C // 2], P[:, C // 2:2 * (C // 2)] = a.sin(), a.cos()\n"
                 : "    P[:, 0:2 * (C // 2):2], P[:, 1:2 * (C // 2):2] = a.sin(), a.cos()\n") +
         "    return P.float()\n\n\n";
}

std::string sinusoidal(const MakeContext& ctx) {
  return sinusoid_table(ctx.options.number("sinusoidal_base"), ctx.options.text("sinusoidal_layout") == "concat") +
         "class Position(PositionBase):  # sinusoidal: x += PE[t] (core/position/sinusoidal.cpp)\n"
         "    def add(self, m, layer, x):\n" + on_layer(ctx) +
         "        return x + _sinusoids(x.shape[1], x.shape[2]).to(x.device)";
}

std::string scaled_sinusoidal(const MakeContext& ctx) {
  const std::string name = ctx.sizes.layerwise ? "f\"blocks.{layer}.pos_emb.scale\"" : "\"pos_emb.scale\"";
  return sinusoid_table(10000.0, true) +
         "class Position(PositionBase):  # scaled_sinusoidal: x += g [sin | cos] (core/position/scaled_sinusoidal.cpp)\n"
         "    def add(self, m, layer, x):\n" + on_layer(ctx) +
         "        return x + m.get_parameter(" + name + ") * _sinusoids(x.shape[1], x.shape[2]).to(x.device)";
}

std::string rope(const MakeContext& ctx) {
  const int HS = ctx.sizes.head_size();
  const int d_rot = 2 * int(std::floor(ctx.options.number("rope_fraction") * HS / 2 + 1e-9));
  const double base = ctx.options.number("rope_base");
  const RopeScaling kind = rope_scaling_from(ctx.options.text("rope_scaling"));
  const ScaledThetas plain = rope_scale(d_rot, base, RopeScaling::None, 1.0, ctx.sizes.model_len);
  const ScaledThetas scaled = rope_scale(d_rot, base, kind, ctx.options.number("rope_factor"), ctx.sizes.model_len);
  const bool half = ctx.options.text("rope_layout") == "half";
  return "class Position(PositionBase):\n"
         "    \"\"\"RoPE: pairs (a, b) at position t -> (a cos t theta - b sin t theta, b cos + a sin), the\n"
         "    first D_ROT dims of each head, pairs " + std::string(half ? "(i, i + D_ROT/2)" : "(2i, 2i+1)") +
         "; evaluation beyond TRAIN_LEN uses the\n    scaled frequencies (rope_scaling) (core/position/rope.cpp, rotary.cpp).\"\"\"\n"
         "    D_ROT, HALF = " + std::to_string(d_rot) + ", " + py_bool(half) + "\n"
         "    THETA = " + py_list(plain.theta) + "\n"
         "    SCALED = " + py_bool(kind != RopeScaling::None) + "\n"
         "    SCALED_THETA, MSCALE = " + py_list(scaled.theta) + ", " + py_num(scaled.mscale) + "\n\n"
         "    def rotate(self, m, layer, q, k):\n"
         "        T = q.shape[-2]\n"
         "        scaled = self.SCALED and not m.training and T > TRAIN_LEN\n"
         "        theta, ms = (self.SCALED_THETA, self.MSCALE) if scaled else (self.THETA, 1.0)\n"
         "        angle = torch.arange(T, dtype=torch.float64)[:, None] * torch.tensor(theta, dtype=torch.float64)\n"
         "        cos, sin = (ms * angle.cos()).float().to(q.device), (ms * angle.sin()).float().to(q.device)\n"
         "        return self.turn(q, cos, sin), self.turn(k, cos, sin)\n\n"
         "    def turn(self, x, cos, sin):\n"
         "        d, h = self.D_ROT, self.D_ROT // 2\n"
         "        a, b = (x[..., :h], x[..., h:d]) if self.HALF else (x[..., 0:d:2], x[..., 1:d:2])\n"
         "        a, b = a * cos - b * sin, b * cos + a * sin\n"
         "        turned = torch.cat([a, b], -1) if self.HALF else torch.stack([a, b], -1).flatten(-2)\n"
         "        return torch.cat([turned, x[..., d:]], -1)";
}

std::string alibi(const MakeContext& ctx) {
  std::string mode = ctx.options.text("alibi_mode");
  if (mode == "auto") mode = ctx.sizes.causal ? "causal" : "symmetric";
  const std::string ratio = py_num(ctx.options.number("alibi_ratio"));
  const std::string formula = mode == "symmetric"    ? "-slope * d.abs()"
                              : mode == "asymmetric" ? "torch.where(d >= 0, -slope * d, " + ratio + " * slope * d)"
                                                     : "-slope * d";
  return "class Position(PositionBase):  # alibi (" + std::string(mode == "symmetric" ? "symmetric" : mode == "asymmetric" ? "asymmetric" : "causal") +
         "): s += b_h(i - j) (core/position/alibi.cpp)\n"
         "    SLOPES = " + py_list(alibi_slopes(ctx.sizes.heads)) + "\n\n"
         "    def bias(self, m, layer, s, q, k, tau):\n"
         "        T = s.shape[-1]\n"
         "        pos = torch.arange(T, dtype=torch.float64)\n"
         "        d = pos[:, None] - pos[None, :]  # i - j\n"
         "        slope = torch.tensor(self.SLOPES, dtype=torch.float64)[:, None, None]\n"
         "        return s + (" + formula + ").float().to(s.device)";
}

// T5's bucket of rel (HF _relative_position_bucket, +1e-9 as relative.cpp), over a (T, T) grid.
const char* const kT5BucketPy = R"PY(
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

std::string t5_bias(const MakeContext& ctx) {
  return std::string(kT5BucketPy) +
         "class Position(PositionBase):  # t5_bias: s += W[bucket(j - i), h], one table for all layers (core/position/t5_bias.cpp)\n"
         "    def bias(self, m, layer, s, q, k, tau):\n"
         "        T = s.shape[-1]\n"
         "        idx = torch.tensor([[_t5_bucket(j - i, " + py_bool(!ctx.sizes.causal) + ", " +
         std::to_string(ctx.options.integer("t5_num_buckets")) + ", " + std::to_string(ctx.options.integer("t5_max_distance")) +
         ") for j in range(T)] for i in range(T)])\n"
         "        W = m.get_parameter(\"t5_bias.weight\")  # (NB, NH)\n"
         "        return s + W[idx.to(W.device)].permute(2, 0, 1)";
}

std::string kerple(const MakeContext& ctx) {
  const bool power = ctx.options.text("kerple_kind") == "power";
  return "class Position(PositionBase):  # kerple (" + std::string(power ? "power" : "log") +
         "): s += b_h(|i - j|) per layer (core/position/kerple.cpp)\n"
         "    def bias(self, m, layer, s, q, k, tau):\n"
         "        T = s.shape[-1]\n"
         "        raw1 = m.get_parameter(f\"blocks.{layer}.attn.kerple.raw_r1\").double()[:, None, None]\n"
         "        raw2 = m.get_parameter(f\"blocks.{layer}.attn.kerple.raw_r2\").double()[:, None, None]\n"
         "        pos = torch.arange(T, dtype=torch.float64)\n"
         "        d = (pos[:, None] - pos[None, :]).abs()\n"
         "        r1 = F.softplus(raw1)\n" +
         (power ? "        b = -r1 * torch.pow(d, 2.0 * torch.sigmoid(raw2))\n"
                : "        b = -r1 * torch.log1p(F.softplus(raw2) * d)\n") +
         "        return s + b.float()";
}

std::string dynamic_bias(const MakeContext& ctx) {
  const bool sign = ctx.options.text("dynamic_bias_distance") != "absolute";
  return std::string("class Position(PositionBase):  # dynamic_bias: s += MLP(u(i - j))_h, shared by all layers (core/position/dynamic_bias.cpp)\n"
         "    def bias(self, m, layer, s, q, k, tau):\n"
         "        T = s.shape[-1]\n"
         "        pos = torch.arange(T)\n"
         "        d = pos[:, None] - pos[None, :]  # i - j\n"
         "        u = torch.log1p(d.abs().float())\n") +
         (sign ? "        u = torch.where(d < 0, -u, u)\n" : "") +
         "        p = lambda name: m.get_parameter(\"dynamic_bias.mlp.\" + name)\n"
         "        h = F.silu(u[..., None] * p(\"0.0.weight\")[:, 0] + p(\"0.0.bias\"))\n"
         "        h = F.silu(F.linear(h, p(\"1.0.weight\"), p(\"1.0.bias\")))\n"
         "        return s + F.linear(h, p(\"2.weight\"), p(\"2.bias\")).permute(2, 0, 1)";
}

// (T, T) index K + clip(sign·(j − i), K): Shaw's rows (sign +1), URPE's (sign −1, i − j).
std::string clip_index(const char* sign) {
  return std::string("        pos = torch.arange(T)\n"
                     "        idx = (") + sign + " * (pos[None, :] - pos[:, None])).clamp(-self.K, self.K) + self.K\n";
}

std::string shaw(const MakeContext& ctx) {
  const bool values = ctx.options.flag("shaw_values");
  return "class Position(PositionBase):\n"
         "    \"\"\"Shaw: s_ij += tau q_i.wK[clip(j - i)]" + std::string(values ? "; o_i += sum_j a_ij wV[clip(j - i)]" : "") +
         ", per layer, shared by the heads\n    (core/position/shaw.cpp).\"\"\"\n"
         "    K = " + std::to_string(ctx.options.integer("shaw_clip")) + "\n\n"
         "    def bias(self, m, layer, s, q, k, tau):\n"
         "        T = s.shape[-1]\n" + clip_index("1") +
         "        W = m.get_parameter(f\"blocks.{layer}.attn.shaw.key.weight\")  # (2K+1, HS)\n"
         "        qw = tau * (q @ W.t())  # (B, NH, T, 2K+1)\n"
         "        return s + qw.gather(-1, idx.to(s.device).expand(*s.shape))" +
         (values ? "\n\n"
                   "    def values(self, m, layer, a, o):\n"
                   "        T = a.shape[-1]\n" + clip_index("1") +
                   "        W = m.get_parameter(f\"blocks.{layer}.attn.shaw.value.weight\")\n"
                   "        per_distance = torch.zeros(*a.shape[:-1], W.shape[0], dtype=a.dtype, device=a.device)\n"
                   "        per_distance.scatter_add_(-1, idx.to(a.device).expand(*a.shape), a)\n"
                   "        return o + per_distance @ W"
                 : "");
}

std::string urpe(const MakeContext& ctx) {
  int K = ctx.options.integer("urpe_max_distance");
  if (K <= 0) K = ctx.sizes.model_len - 1 > 1 ? ctx.sizes.model_len - 1 : 1;
  return "class Position(PositionBase):  # urpe: a_ij <- a_ij C[K + clip(i - j, K), h], shared (core/position/urpe.cpp)\n"
         "    K = " + std::to_string(K) + "\n\n"
         "    def weights(self, m, layer, a):\n"
         "        T = a.shape[-1]\n" + clip_index("-1") +
         "        C = m.get_parameter(\"urpe.weight\")  # (2K+1, NH)\n"
         "        return a * C[idx.to(a.device)].permute(2, 0, 1)";
}

std::string xpos(const MakeContext& ctx) {
  const int HS = ctx.sizes.head_size(), d_rot = 2 * (HS / 2);
  return "class Position(PositionBase):\n"
         "    \"\"\"xPos: RoPE (interleaved pairs) with q scaled by zeta_i^((t - c)/gamma), k by zeta_i^(-(t - c)/gamma),\n"
         "    zeta_i = (2i + 0.4 D)/(1.4 D), c = T // 2 (core/position/xpos.cpp, rotary.cpp).\"\"\"\n"
         "    D_ROT, GAMMA = " + std::to_string(d_rot) + ", " + py_num(ctx.options.number("xpos_gamma")) + "\n"
         "    THETA = " + py_list(rope_thetas(d_rot, ctx.options.number("xpos_base"))) + "\n\n"
         "    def rotate(self, m, layer, q, k):\n"
         "        T, d, h = q.shape[-2], self.D_ROT, self.D_ROT // 2\n"
         "        t = torch.arange(T, dtype=torch.float64)[:, None]\n"
         "        angle = t * torch.tensor(self.THETA, dtype=torch.float64)\n"
         "        cos, sin = angle.cos().float().to(q.device), angle.sin().float().to(q.device)\n"
         "        zeta = (2.0 * torch.arange(h, dtype=torch.float64) + 0.4 * d) / (1.4 * d)\n"
         "        e = (t - T // 2) / self.GAMMA\n"
         "        qs, ks = torch.pow(zeta, e).float().to(q.device), torch.pow(zeta, -e).float().to(q.device)\n"
         "        return self.turn(q, cos * qs, sin * qs), self.turn(k, cos * ks, sin * ks)\n\n"
         "    def turn(self, x, cos, sin):\n"
         "        d = self.D_ROT\n"
         "        a, b = x[..., 0:d:2], x[..., 1:d:2]\n"
         "        a, b = a * cos - b * sin, b * cos + a * sin\n"
         "        return torch.cat([torch.stack([a, b], -1).flatten(-2), x[..., d:]], -1)";
}

}  // namespace

const std::vector<TorchSnippet>& torch_position_snippets() {
  static const std::vector<TorchSnippet> table = {
      {"none", none},     {"learned", learned}, {"sinusoidal", sinusoidal},
      {"rope", rope},     {"alibi", alibi},     {"t5_bias", t5_bias},
      {"kerple", kerple}, {"scaled_sinusoidal", scaled_sinusoidal},
      {"dynamic_bias", dynamic_bias}, {"shaw", shaw}, {"urpe", urpe}, {"xpos", xpos},
  };
  return table;
}

}  // namespace ap
