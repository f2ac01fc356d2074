// core/position/alibi.cpp — ALiBi (Press et al. 2021; ofirpress/attention_with_linear_biases
// fairseq/models/transformer.py, x-transformers AlibiPositionalBias; reference §1.4): a fixed
// logit bias, linear in the distance, one slope m_h per head. No parameters.
//   causal:     b_ij = −m_h (i − j), j ≤ i (future keys are masked)
//   symmetric:  b_ij = −m_h |i − j|                        (x-transformers, bidirectional)
//   asymmetric: b_ij = −m_h (i − j) for j ≤ i, −r·m_h (j − i) for j > i, r = alibi_ratio
// alibi_mode = auto picks causal for causal models and symmetric otherwise. The full matrix is
// built (not the reference code's row-shift m_h·j, valid only for shift-invariant normalizations).
// Slopes: exact get_slopes, including non-power-of-2 head counts (relative.cpp).
#include <cmath>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "position/position.hpp"
#include "position/relative.hpp"

namespace ap {

namespace {

std::string alibi_mode(const MakeContext& ctx) {
  std::string m = ctx.options.text("alibi_mode");
  if (m == "auto") m = ctx.sizes.causal ? "causal" : "symmetric";
  return m;
}

class Alibi : public PositionEncoding {
 public:
  explicit Alibi(const MakeContext& ctx)
      : NH_(ctx.sizes.heads),
        mode_(alibi_mode(ctx)),
        ratio_(ctx.options.number("alibi_ratio")),
        slopes_(alibi_slopes(ctx.sizes.heads)) {}

  bool biases() const override { return true; }
  void bias_forward(int, float* logits, const float*, const float*, const AttnShape& s) override {
    const float* bias = table(s.T);
    const size_t TT = size_t(s.T) * s.T;
    for (int b = 0; b < s.B; ++b)
      for (int h = 0; h < s.NH; ++h) {
        float* L = logits + (size_t(b) * s.NH + h) * TT;
        const float* M = bias + size_t(h) * TT;
        for (size_t x = 0; x < TT; ++x) L[x] += M[x];
      }
  }
  // Fixed bias: nothing to learn, and it does not depend on q or k.

  nlohmann::json display(int T) const override {
    std::vector<float> m(size_t(NH_) * T * T);
    fill(m.data(), T);
    nlohmann::json heads = nlohmann::json::array();
    for (int h = 0; h < NH_; ++h) heads.push_back(as_matrix(m.data() + size_t(h) * T * T, T, T));
    return {{"kind", "bias"}, {"mode", mode_}, {"slopes", slopes_}, {"bias", heads}};
  }

  // The bias against distance per head (fixed: at initialisation and after training alike).
  nlohmann::json explore(const ExploreQuery& q) const override {
    nlohmann::json j =
        sample_by_distance(NH_, q.length, mode_ == "causal", [&](int h, int i, int k) { return bias_at(h, i, k); });
    j["kind"] = "bias";
    j["quantity"] = "bias";
    j["slopes"] = slopes_;
    j["formula"] = mode_ == "causal" ? R"(b_h(d) = -m_h\, d,\quad d = i - j \ge 0,\quad m_h = 2^{-8h/H})"
                   : mode_ == "symmetric"
                       ? R"(b_h(d) = -m_h\, |d|,\quad d = i - j,\quad m_h = 2^{-8h/H})"
                       : R"(b_h(d) = -m_h\, d\ (d \ge 0),\quad r\, m_h\, d\ (d < 0),\quad m_h = 2^{-8h/H})";
    j["source"] = "core/position/alibi.cpp · Alibi::explore → Alibi::bias_at; slopes: alibi_slopes (relative.cpp)";
    return j;
  }

 private:
  double bias_at(int h, int i, int j) const {
    const double m = slopes_[h], d = i - j;
    if (mode_ == "symmetric") return -m * std::fabs(d);
    if (mode_ == "asymmetric") return d >= 0 ? -m * d : ratio_ * m * d;
    return -m * d;  // causal: only j ≤ i is ever visible
  }
  // A loop, not xtensor (size in the wasm module): alibi_bias_naive in tables_naive.cpp.
  void fill(float* out, int T) const {
    for (int h = 0; h < NH_; ++h)
      for (int i = 0; i < T; ++i)
        for (int j = 0; j < T; ++j) out[(size_t(h) * T + i) * T + j] = float(bias_at(h, i, j));
  }
  const float* table(int T) {
    if (T != T_) bias_.resize(size_t(NH_) * T * T), fill(bias_.data(), T), T_ = T;
    return bias_.data();
  }
  int NH_;
  std::string mode_;
  double ratio_;
  std::vector<double> slopes_;
  int T_ = -1;
  std::vector<float> bias_;  // (NH, T, T), cached per T
};

void check_alibi(const MakeContext& ctx) {
  if (ctx.options.text("alibi_mode") == "causal" && !ctx.sizes.causal) refuse("position.alibi_causal", "alibi_mode");
}

// The PyTorch form (common/torch_form.hpp); the slopes from the engine's alibi_slopes.
const char* const kAlibiPy = R"PY(class Position(PositionBase):
    """ALiBi: s += b_h(d), d = i - j: -m_h d (causal), -m_h |d| (symmetric), -m_h d left and
    RATIO m_h d right (asymmetric) (core/position/alibi.cpp)."""
    MODE, RATIO = "${mode}", ${ratio}
    SLOPES = ${slopes}

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

std::string torch_alibi(const MakeContext& ctx, PyFill fill) {
  const std::string mode = ctx.options.text("alibi_mode");
  const char* m = mode == "asymmetric"                                           ? "asymmetric"
                  : mode == "symmetric" || (mode == "auto" && !ctx.sizes.causal) ? "symmetric"
                                                                                 : "causal";
  return fill(kAlibiPy,
              {{"mode", m}, {"ratio", ctx.options.number("alibi_ratio")}, {"slopes", alibi_slopes(ctx.sizes.heads)}});
}
}  // namespace

PositionEntry position_alibi() {
  PositionEntry e{"alibi",
                  "ALiBi (attention with linear biases)",
                  R"(s_{ij} = \tau\, q_i\cdot k_j - m_h\,(i-j),\quad m_h = 2^{-8h/H})",
                  "adds a fixed bias to the attention logits of every head in every layer",
                  "Each head penalizes distant keys linearly, with its own slope. It extrapolates well "
                  "because it never sees an unknown position, but it acts only on the logits, so the probe "
                  "stays at 1/n with softmax. With 1–2 heads the slopes are tiny (≤ 1/16) and ALiBi is "
                  "nearly no position at all.",
                  false,
                  true,
                  true,
                  {opt_enum("alibi_mode", "auto", {"auto", "causal", "symmetric", "asymmetric"},
                            "auto = causal −m(i−j) for causal models, symmetric −m|i−j| otherwise; asymmetric "
                            "uses a steeper slope (alibi_ratio·m) for keys to the right"),
                   opt_float("alibi_ratio", 2.0, 0.0, 100.0, "asymmetric mode: right slope / left slope")},
                  [](const MakeContext& ctx, ParamStore&) -> std::unique_ptr<PositionEncoding> {
                    return std::make_unique<Alibi>(ctx);
                  }};
  e.check = check_alibi;
  e.biases_logits = true;
  e.torch.python = torch_alibi;
  return e;
}

}  // namespace ap
