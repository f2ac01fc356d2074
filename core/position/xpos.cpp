// core/position/xpos.cpp — xPos (Sun et al. 2022; torchscale xpos_relative_position.py, reference
// §1.11): RoPE (interleaved, all dims) plus a per-pair exponential scale, q at position n times
// ζ_i^{(n−c)/γ} and k at m times ζ_i^{−(m−c)/γ}, ζ_i = (2i + 0.4d)/(1.4d), c = ⌊T/2⌋. Then
// q̃_n·k̃_m picks up ζ_i^{(n−m)/γ} < 1 for n > m: a decay with distance. The scale grows for
// future keys, hence causal only (x-transformers asserts the same). No parameters.
// Options: xpos_gamma (γ, scale_base; 512 in torchscale — at toy lengths 32–64 shows the decay),
// xpos_base (the RoPE base). Backward: the map is diagonal-scale × rotation, so its transpose
// applies the same scale with the inverse rotation.
#include <cmath>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "position/position.hpp"
#include "position/rotary.hpp"

namespace ap {

// A loop, not xtensor: see tables_naive.hpp (its xtensor twin, xpos_scales_naive).
void xpos_scales(std::vector<float>& qs, std::vector<float>& ks, int T, int d_rot, double gamma) {
  const int half = d_rot / 2;
  qs.resize(size_t(T) * half), ks.resize(size_t(T) * half);
  const int c = T / 2;  // centring keeps the scales near 1 (torchscale: −len//2)
  for (int t = 0; t < T; ++t)
    for (int i = 0; i < half; ++i) {
      const double e = (t - c) / gamma, zeta = (2.0 * i + 0.4 * d_rot) / (1.4 * d_rot);
      qs[size_t(t) * half + i] = float(std::pow(zeta, e));
      ks[size_t(t) * half + i] = float(std::pow(zeta, -e));
    }
}

namespace {

class XPos : public PositionEncoding {
 public:
  explicit XPos(const MakeContext& ctx)
      : HS_(ctx.sizes.d_model / ctx.sizes.heads),
        d_rot_(2 * (HS_ / 2)),
        gamma_(ctx.options.number("xpos_gamma")),
        base_(ctx.options.number("xpos_base")),
        train_len_(ctx.sizes.model_len),
        theta_(rope_thetas(d_rot_, base_)) {}

  bool rotates() const override { return true; }
  void rotate_forward(int, float* q, float* k, const AttnShape& s) override { apply(q, k, s, false); }
  void rotate_backward(int, float* dq, float* dk, const AttnShape& s) override { apply(dq, dk, s, true); }

  nlohmann::json display(int T) const override {
    const int half = d_rot_ / 2;
    std::vector<double> zeta(half);
    for (int i = 0; i < half; ++i) zeta[i] = this->zeta(i);
    // Relative factor of the score, mean over pairs: ζ^{(i−j)/γ}, and the RoPE-times-decay
    // score of q = k = all-ones (visible keys only).
    std::vector<std::vector<float>> decay(T, std::vector<float>(T)), sim(T, std::vector<float>(T));
    for (int i = 0; i < T; ++i)
      for (int j = 0; j < T; ++j) {
        double d = 0, s = 0;
        for (int p = 0; p < half; ++p) {
          const double f = std::pow(zeta[p], (i - j) / gamma_);
          d += f, s += f * std::cos((i - j) * theta_[p]);
        }
        decay[i][j] = float(d / std::max(half, 1));
        sim[i][j] = j <= i ? float(s / std::max(half, 1)) : 0.0f;
      }
    return {{"kind", "rotary"}, {"rotated_dims", d_rot_}, {"theta", theta_},  {"zeta", zeta},
            {"gamma", gamma_},  {"decay", decay},         {"similarity", sim}};
  }

  // Score against distance: RoPE's rotation times the decay ζ_i^{d/γ}, from the same tables as
  // training. The query's scaling rescales the thetas as rope_scale would (the engine's xPos does
  // not scale at evaluation; the view shows what it would do).
  nlohmann::json explore(const ExploreQuery& q) const override {
    nlohmann::json j = rotary_explore({HS_, d_rot_, false, base_, train_len_, gamma_}, q);
    j["gamma"] = gamma_;
    j["formula"] =
        R"(s(d) = \tilde q_d^{\top} \tilde k_0 = \sum_i \zeta_i^{\,d/\gamma}\big[(q_a k_a + q_b k_b)\cos d\theta_i + (q_a k_b - q_b k_a)\sin d\theta_i\big],\ \zeta_i = \tfrac{2i + 0.4d}{1.4d})";
    j["source"] =
        "core/position/xpos.cpp · XPos::explore → rotary_explore (rotary_explore.cpp) → xpos_scales (xpos.cpp), "
        "rope_tables, rope_apply (rotary.cpp)";
    return j;
  }

 private:
  double zeta(int i) const { return (2.0 * i + 0.4 * d_rot_) / (1.4 * d_rot_); }
  void apply(float* q, float* k, const AttnShape& s, bool inverse) {
    if (T_ != s.T) {
      rope_tables(cos_, sin_, s.T, theta_, 1.0);
      xpos_scales(qs_, ks_, s.T, d_rot_, gamma_);
      T_ = s.T;
    }
    const int rows = s.B * s.NH;
    rope_apply(q, rows, s.T, s.HS, d_rot_, false, cos_.data(), sin_.data(), qs_.data(), inverse);
    rope_apply(k, rows, s.T, s.HS, d_rot_, false, cos_.data(), sin_.data(), ks_.data(), inverse);
  }
  int HS_, d_rot_;
  double gamma_, base_;
  int train_len_;
  std::vector<double> theta_;
  int T_ = -1;
  std::vector<float> cos_, sin_, qs_, ks_;
};

void check_xpos(const MakeContext& ctx) {
  if (!ctx.sizes.causal) refuse("position.xpos_needs_causal", "causal");
  if (ctx.sizes.d_model / ctx.sizes.heads < 2 || (ctx.sizes.d_model / ctx.sizes.heads) % 2 != 0)
    refuse("position.xpos_odd_head", "heads",
           {{"d_model", std::to_string(ctx.sizes.d_model)},
            {"heads", std::to_string(ctx.sizes.heads)},
            {"head_size", std::to_string(ctx.sizes.d_model / ctx.sizes.heads)}});
}

// The PyTorch form (common/torch_form.hpp); the frequencies from the engine's rope_thetas.
const char* const kXposPy = R"PY(class Position(PositionBase):
    """xPos: RoPE (pairs (2i, 2i+1)) with q scaled by zeta_i^((t - c)/gamma), k by zeta_i^(-(t - c)/gamma),
    zeta_i = (2i + 0.4 D)/(1.4 D), c = T // 2 (core/position/xpos.cpp, rotary.cpp)."""
    D_ROT, GAMMA = ${d_rot}, ${gamma}
    THETA = ${theta}

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

std::string torch_xpos(const MakeContext& ctx, PyFill fill) {
  const int d_rot = 2 * (ctx.sizes.head_size() / 2);
  return fill(kXposPy, {{"d_rot", d_rot},
                        {"gamma", ctx.options.number("xpos_gamma")},
                        {"theta", rope_thetas(d_rot, ctx.options.number("xpos_base"))}});
}
}  // namespace

PositionEntry position_xpos() {
  PositionEntry e{
      "xpos",
      "xPos (RoPE with exponential decay)",
      R"(\tilde q_n = \zeta^{\,n/\gamma} R_{n\theta} q_n,\ \tilde k_m = \zeta^{-m/\gamma} R_{m\theta} k_m,\ \zeta_i = \frac{2i + 0.4d}{1.4d})",
      "rotates and scales q and k of every head in every layer (causal models only)",
      "RoPE whose scores also shrink with distance, by a factor ζ^{(i−j)/γ} per frequency pair. "
      "Like RoPE it acts only on the logits. With γ = 512 the decay is invisible at toy lengths; "
      "try xpos_gamma = 32.",
      false,
      true,
      true,
      {opt_float("xpos_gamma", 512.0, 1.0, 1e6, "scale base γ: the decay per token is ζ^(1/γ)"),
       opt_float("xpos_base", 10000.0, 2.0, 1e9, "base of the rotation frequencies")},
      [](const MakeContext& ctx, ParamStore&) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<XPos>(ctx);
      }};
  e.check = check_xpos;
  e.torch.python = torch_xpos;
  return e;
}

}  // namespace ap
