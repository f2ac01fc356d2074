// core/position/kerple.cpp — KERPLE, kernelized relative positional bias (Chi et al. 2022,
// arXiv 2205.09921; chijames/KERPLE megatron/mpu/layers.py ParallelKerpleLog / ParallelKerplePower):
// a logit bias from a conditionally positive definite kernel of the distance, two learned
// positive scalars per head and layer:
//   log:    b_h(i, j) = −r1_h · ln(1 + r2_h · |i − j|)
//   power:  b_h(i, j) = −r1_h · |i − j|^r2_h,   r2_h ∈ (0, 2)
// The reference code keeps r1, r2 positive by clamping the raw tensors after each step (min 0.01,
// power exponent max 2). Here positivity is a smooth parametrisation of raw tensors ρ1, ρ2:
//   r1 = softplus(ρ1);  log: r2 = softplus(ρ2);  power: r2 = 2·sigmoid(ρ2)  (open at 2)
// Bidirectional models use |i − j| on both sides (symmetric, as the kernel is); causal models
// see j ≤ i only. ALiBi is the power kernel at r2 = 1 with a fixed r1.
// Parameters PER LAYER (as the reference, one module per attention layer):
//   "blocks.{l}.attn.kerple.raw_r1" (NH), "blocks.{l}.attn.kerple.raw_r2" (NH), init N(0, 0.5):
// softplus(0) = ln 2 ≈ 0.69, power r2 = 1 at 0 (ALiBi-like), a spread of slopes over the heads.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "position/position.hpp"
#include "position/relative.hpp"
#include "position/smooth.hpp"

namespace ap {

namespace {

class Kerple : public PositionEncoding {
 public:
  Kerple(const MakeContext& ctx, ParamStore& ps)
      : ps_(ps), NH_(ctx.sizes.heads), power_(ctx.options.text("kerple_kind") == "power"), causal_(ctx.sizes.causal) {
    for (int l = 0; l < ctx.sizes.layers; ++l) {
      const std::string p = "blocks." + std::to_string(l) + ".attn.kerple.";
      r1_.push_back(ps.add(p + "raw_r1", {NH_}, Init::Normal, 0.5f, false));
      r2_.push_back(ps.add(p + "raw_r2", {NH_}, Init::Normal, 0.5f, false));
    }
  }

  bool biases() const override { return true; }
  void bias_forward(int layer, float* logits, const float*, const float*, const AttnShape& s) override {
    const int T = s.T;
    std::vector<float> prof(size_t(NH_) * T);  // b_h(d), d = 0..T−1
    for (int h = 0; h < NH_; ++h)
      for (int d = 0; d < T; ++d) prof[size_t(h) * T + d] = float(bias_at(layer, h, d));
    for (int b = 0; b < s.B; ++b)
      for (int h = 0; h < s.NH; ++h) {
        float* L = logits + (size_t(b) * s.NH + h) * T * T;
        const float* P = &prof[size_t(h) * T];
        for (int i = 0; i < T; ++i)
          for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j) L[size_t(i) * T + j] += P[std::abs(i - j)];
      }
  }
  void bias_backward(int layer, const float* ds, const float*, const float*, float*, float*,
                     const AttnShape& s) override {
    const int T = s.T;
    std::vector<double> G(size_t(NH_) * T, 0.0);  // Σ ∂L/∂s over the pairs at distance d, per head
    for (int b = 0; b < s.B; ++b)
      for (int h = 0; h < s.NH; ++h) {
        const float* D = ds + (size_t(b) * s.NH + h) * T * T;
        for (int i = 0; i < T; ++i)
          for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j)
            G[size_t(h) * T + std::abs(i - j)] += D[size_t(i) * T + j];
      }
    const float *p1 = ps_.data(r1_[layer]), *p2 = ps_.data(r2_[layer]);
    float *g1 = ps_.grad(r1_[layer]), *g2 = ps_.grad(r2_[layer]);
    for (int h = 0; h < NH_; ++h) {
      const double r1 = smooth::softplus(p1[h]), r2 = r2_of(p2[h]);
      double d1 = 0, d2 = 0;         // ∂L/∂r1, ∂L/∂r2
      for (int d = 1; d < T; ++d) {  // b(0) = 0 for every r: no gradient from the diagonal
        const double g = G[size_t(h) * T + d];
        if (power_) {
          const double pw = std::pow(double(d), r2);
          d1 += g * -pw, d2 += g * -r1 * pw * std::log(double(d));
        } else {
          d1 += g * -std::log1p(r2 * d), d2 += g * -r1 * d / (1 + r2 * d);
        }
      }
      const double s2 = smooth::sigmoid(p2[h]);
      g1[h] += float(d1 * smooth::sigmoid(p1[h]));             // softplus' = sigmoid
      g2[h] += float(d2 * (power_ ? 2 * s2 * (1 - s2) : s2));  // (2σ)' = 2σ(1 − σ)
    }
  }

  nlohmann::json display(int T) const override {
    nlohmann::json heads = nlohmann::json::array();
    std::vector<float> m(size_t(T) * T);
    for (int h = 0; h < NH_; ++h) {
      for (int i = 0; i < T; ++i)
        for (int j = 0; j < T; ++j) m[size_t(i) * T + j] = float(bias_at(0, h, std::abs(i - j)));
      heads.push_back(as_matrix(m.data(), T, T));
    }
    auto [r1, r2] = rates(0);
    return {{"kind", "bias"}, {"kernel", power_ ? "power" : "log"}, {"r1", r1}, {"r2", r2}, {"bias", heads}};
  }

  // The kernel against distance per head, for the asked layer (its r1, r2).
  nlohmann::json explore(const ExploreQuery& q) const override {
    const int layer = std::clamp(q.layer, 0, int(r1_.size()) - 1);
    nlohmann::json j = sample_by_distance(NH_, q.length, causal_,
                                          [&](int h, int i, int k) { return bias_at(layer, h, std::abs(i - k)); });
    auto [r1, r2] = rates(layer);
    j["kind"] = "bias";
    j["quantity"] = "bias";
    j["r1"] = r1;
    j["r2"] = r2;
    j["formula"] =
        power_ ? R"(b_h(d) = -r_{1,h}\,|d|^{\,r_{2,h}},\quad r_1 = \mathrm{softplus}(\rho_1),\ r_2 = 2\,\sigma(\rho_2))"
               : R"(b_h(d) = -r_{1,h} \ln(1 + r_{2,h}\,|d|),\quad r = \mathrm{softplus}(\rho))";
    j["source"] = "core/position/kerple.cpp · Kerple::explore → Kerple::bias_at";
    return j;
  }

 private:
  double r2_of(float raw) const { return power_ ? 2 * smooth::sigmoid(raw) : smooth::softplus(raw); }
  // b_h(d) of a layer for the current parameters, d = |i − j| ≥ 0.
  double bias_at(int layer, int h, int d) const {
    const double r1 = smooth::softplus(ps_.data(r1_[layer])[h]), r2 = r2_of(ps_.data(r2_[layer])[h]);
    if (d == 0) return 0.0;
    return power_ ? -r1 * std::pow(double(d), r2) : -r1 * std::log1p(r2 * d);
  }
  std::pair<std::vector<double>, std::vector<double>> rates(int layer) const {
    std::vector<double> a(NH_), b(NH_);
    for (int h = 0; h < NH_; ++h)
      a[h] = smooth::softplus(ps_.data(r1_[layer])[h]), b[h] = r2_of(ps_.data(r2_[layer])[h]);
    return {a, b};
  }
  ParamStore& ps_;
  int NH_;
  bool power_, causal_;
  std::vector<int> r1_, r2_;  // per layer: raw ρ1, ρ2 (NH)
};

// The PyTorch form (common/torch_form.hpp).
const char* const kKerplePy = R"PY(class Position(PositionBase):
    """KERPLE: s += -r1 ln(1 + r2 |i - j|) (log) or -r1 |i - j|^r2 (power), r1 = softplus(raw1),
    r2 = softplus(raw2) (log) or 2 sigmoid(raw2) (power), per layer (core/position/kerple.cpp)."""
    POWER = ${power}

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

std::string torch_kerple(const MakeContext& ctx, PyFill fill) {
  return fill(kKerplePy, {{"power", ctx.options.text("kerple_kind") == "power"}});
}
}  // namespace

PositionEntry position_kerple() {
  PositionEntry e{
      "kerple",
      "KERPLE (kernelized relative bias)",
      R"(s_{ij} = \tau\, q_i\cdot k_j - r_{1,h}\ln(1 + r_{2,h}|i-j|)\ \text{(log)},\ \ - r_{1,h}|i-j|^{r_{2,h}}\ \text{(power)})",
      "adds a learned kernel of the distance to the logits of every head; two positive scalars per head and layer",
      "A learned generalisation of ALiBi: each head's penalty grows with distance like a logarithm "
      "(log kernel) or a power up to 2 (power kernel), with its own learned rate. The log kernel "
      "flattens out at long range, which is what helps it extrapolate. It acts only on the "
      "logits, so with softmax the probe stays at 1/n.",
      false,
      true,
      true,
      {opt_enum("kerple_kind", "log", {"log", "power"},
                "log: −r1·ln(1 + r2|i−j|); power: −r1·|i−j|^r2 with r2 in (0, 2)")},
      [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<Kerple>(ctx, ps);
      }};
  e.biases_logits = true;
  e.torch.python = torch_kerple;
  return e;
}

}  // namespace ap
