// core/normalization/cosine.cpp — cosine-similarity attention with a learned temperature (Swin
// Transformer v2, microsoft/Swin-Transformer `WindowAttention`; reference §3.8):
//   s_ij = τ_h · q̂_i·k̂_j (+ bias),  q̂ = q / max(‖q‖, 1e-12),  τ_h = exp(min(λ_h, ln 100)),
//   λ_h initialised to ln 10, one per head and layer; then a softmax over the row.
// The parameter "blocks.{l}.attn.cosine_scale" (NH) stores w_h = λ_h − ln 10 (so that the
// ParamStore's zero init gives λ = ln 10; weight decay off).
// Where the temperature enters: qk_forward maps q ← τ_h q̂ and k ← k̂ in place and scale() = 1, so
// the model's logits τ q·kᵀ are exactly τ_h q̂·k̂ and its ordinary backward yields ∂L/∂(τ q̂).
// Backward of the map (qk_backward), per row with upstream d = ∂L/∂(τ q̂):
//   ∂L/∂τ_h = Σ d·q̂,  ∂L/∂w_h = τ_h ∂L/∂τ_h (0 when clamped),  dq̂ = τ_h d,
//   dq = (dq̂ − q̂ (q̂·dq̂)) / ‖q‖   (∂q̂/∂q = (I − q̂q̂ᵀ)/‖q‖; plain dq̂/ε below the ε floor);
// k likewise with τ = 1. Logits lie in [−τ, τ], so one key gets at most
// e^τ/(e^τ + (n−1)e^{−τ}) — why τ must be learned and large. Rows sum to 1 (Lemma 1 applies).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "normalization/normalization.hpp"
#include "normalization/row_ops.hpp"

namespace ap {

namespace {
constexpr float kNormEps = 1e-12f;
const float kLn10 = std::log(10.0f), kLn100 = std::log(100.0f);

// x (rows, HS) ← x / max(‖x‖, ε) in place; inv_norm(rows) keeps 1 / max(‖x‖, ε).
void normalize_rows(float* x, float* inv_norm, size_t rows, int HS) {
  for (size_t r = 0; r < rows; ++r) {
    float* v = x + r * HS;
    double sq = 0.0;
    for (int i = 0; i < HS; ++i) sq += double(v[i]) * v[i];
    const float inv = 1.0f / std::max(float(std::sqrt(sq)), kNormEps);
    inv_norm[r] = inv;
    for (int i = 0; i < HS; ++i) v[i] *= inv;
  }
}

// d (HS) ← (d − x̂ (x̂·d)) · inv_norm, the backward of x ↦ x/‖x‖ at unit x̂.
void normalize_backward(float* d, const float* xhat, float inv_norm, int HS) {
  double dot = 0.0;
  for (int i = 0; i < HS; ++i) dot += double(xhat[i]) * d[i];
  // Below the ε floor the map is x/ε (linear): no projection, as F.normalize.
  if (inv_norm >= 1.0f / kNormEps) dot = 0.0;
  for (int i = 0; i < HS; ++i) d[i] = float((d[i] - xhat[i] * dot) * inv_norm);
}

class Cosine : public Normalization {
 public:
  Cosine(const MakeContext& ctx, ParamStore& ps) : ps_(ps) {
    for (int l = 0; l < ctx.sizes.layers; ++l)
      ids_.push_back(
          ps.add("blocks." + std::to_string(l) + ".attn.cosine_scale", {ctx.sizes.heads}, Init::Zeros, 0.0f, false));
    saved_.resize(ctx.sizes.layers);
  }
  float scale(int) const override { return 1.0f; }
  void row_forward(const float* s, float* a, int n) const override { softmax_row_forward(s, a, n); }
  void row_backward(const float*, const float* a, const float* da, float* ds, int n) const override {
    softmax_row_backward(a, da, ds, n);
  }
  bool maps_qk() const override { return true; }
  void qk_forward(int layer, float* q, float* k, const AttnShape& s) override {
    const size_t rows = size_t(s.B) * s.NH * s.T;
    Saved& sv = saved_[layer];
    sv.qhat.resize(rows * s.HS);
    sv.khat.resize(rows * s.HS);
    sv.qinv.resize(rows);
    sv.kinv.resize(rows);
    normalize_rows(q, sv.qinv.data(), rows, s.HS);
    normalize_rows(k, sv.kinv.data(), rows, s.HS);
    std::copy(q, q + rows * s.HS, sv.qhat.begin());
    std::copy(k, k + rows * s.HS, sv.khat.begin());
    const float* w = ps_.data(ids_[layer]);
    for (size_t r = 0; r < rows; ++r) {
      const float tau = temperature(w[(r / s.T) % s.NH]);
      for (int i = 0; i < s.HS; ++i) q[r * s.HS + i] *= tau;
    }
  }
  void qk_backward(int layer, float* dq, float* dk, const AttnShape& s) override {
    const size_t rows = size_t(s.B) * s.NH * s.T;
    const Saved& sv = saved_[layer];
    const float* w = ps_.data(ids_[layer]);
    float* dw = ps_.grad(ids_[layer]);
    std::vector<double> dw_sum(size_t(s.NH), 0.0);  // Σ over B·T rows per head: one rounding
    for (size_t r = 0; r < rows; ++r) {
      const int h = int((r / s.T) % s.NH);
      const float tau = temperature(w[h]);
      float* d = dq + r * s.HS;
      const float* qh = &sv.qhat[r * s.HS];
      double dtau = 0.0;
      for (int i = 0; i < s.HS; ++i) dtau += double(d[i]) * qh[i];
      if (kLn10 + w[h] < kLn100) dw_sum[h] += tau * dtau;
      for (int i = 0; i < s.HS; ++i) d[i] *= tau;
      normalize_backward(d, qh, sv.qinv[r], s.HS);
      normalize_backward(dk + r * s.HS, &sv.khat[r * s.HS], sv.kinv[r], s.HS);
    }
    for (int h = 0; h < s.NH; ++h) dw[h] = float(dw[h] + dw_sum[h]);
  }

 private:
  static float temperature(float w) { return std::exp(std::min(kLn10 + w, kLn100)); }
  struct Saved {
    std::vector<float> qhat, khat, qinv, kinv;
  };  // (B,NH,T,HS), (B,NH,T)
  ParamStore& ps_;
  std::vector<int> ids_;
  std::vector<Saved> saved_;  // per layer, from the last forward
};

// The PyTorch form (common/torch_form.hpp): q and k mapped, then softmax.
std::string torch_cosine(const MakeContext&, PyFill fill) {
  return fill(R"PY(class Normalization(NormalizationBase):
    """Swin v2 cosine attention: q <- tau_h q/|q|, k <- k/|k|, tau_h = exp(min(ln 10 + w_h, ln 100)),
    w = blocks.{l}.attn.cosine_scale; then softmax (core/normalization/cosine.cpp)."""

    def qk(self, m, layer, q, k):
        ln10, ln100 = torch.tensor(10.0).log(), torch.tensor(100.0).log()
        w = m.get_parameter(f"blocks.{layer}.attn.cosine_scale")
        tau = torch.exp(torch.minimum(ln10 + w, ln100))[None, :, None, None]
        unit = lambda x: x / x.norm(dim=-1, keepdim=True).clamp(min=1e-12)
        return unit(q) * tau, unit(k)

    def rows(self, m, layer, s, visible):
        return s.masked_fill(~visible, float("-inf")).softmax(-1))PY",
              {});
}
}  // namespace

NormalizationEntry normalization_cosine() {
  NormalizationEntry e{
      "cosine",
      "Cosine similarity, learned temperature",
      R"(a_{ij} = \operatorname{softmax}_j\!\big(\tau_h\, \hat q_i \cdot \hat k_j + b_{ij}\big),\ \tau_h = e^{\min(\lambda_h, \ln 100)})",
      "q and k are scaled to unit length, so a logit lies in [−τ, τ]; the temperature τ per "
      "head is learned (from 10, at most 100), as in Swin v2. Still a softmax: rows sum to 1.",
      RowSum::One,
      true,
      true,
      {},
      [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<Normalization> {
        return std::make_unique<Cosine>(ctx, ps);
      }};
  e.torch.python = torch_cosine;
  return e;
}

}  // namespace ap
