// core/normalization/l2.cpp — ℓ2-normalized exp (Su, kexue.fm/archives/9105; reference §3.2):
//   a_j = e^{s_j} / √(Σ_k e^{2 s_k}).
// Stable form: u ↦ u/‖u‖₂ is invariant to u → c·u (c > 0), so the max subtraction of softmax is
// exact here too: u_j = e^{s_j − m}, m = max_k s_k, a_j = u_j / √(Σ_k u_k²) (Σ u² ≥ 1).
// Backward: ∂a_j/∂s_k = δ_jk a_j − a_j a_k², so ds_k = a_k (g_k − a_k Σ_j g_j a_j) (softmax's
// correction multiplied by a_k).
// Row sum R ∈ [1, √n]: 1 for a one-hot row, √n for a uniform one — not row-stochastic, which is
// why it passes the probe with an asymmetric in-logit position bias (Su: "确实能成功完成探针实验").
// Su also notes that R ≈ √n at init calls for smaller W_V, W_O in an Attention+FFN model; we keep
// the model's init (the playground shows the raw behaviour).
#include <algorithm>
#include <cmath>

#include "normalization/normalization.hpp"

namespace ap {

namespace {
class L2Exp : public Normalization {
 public:
  void row_forward(const float* s, float* a, int n) const override {
    if (n <= 0) return;
    const float m = *std::max_element(s, s + n);
    double sq = 0.0;
    for (int j = 0; j < n; ++j) {
      a[j] = std::exp(s[j] - m);
      sq += double(a[j]) * a[j];
    }
    const float inv = float(1.0 / std::sqrt(sq));
    for (int j = 0; j < n; ++j) a[j] *= inv;
  }
  void row_backward(const float*, const float* a, const float* da, float* ds, int n) const override {
    double dot = 0.0;
    for (int j = 0; j < n; ++j) dot += double(a[j]) * da[j];
    const float d = float(dot);
    for (int j = 0; j < n; ++j) ds[j] += a[j] * (da[j] - a[j] * d);
  }
};

// The PyTorch form (common/torch_form.hpp).
std::string torch_l2(const MakeContext&, PyFill fill) {
  return fill(R"PY(class Normalization(NormalizationBase):
    def rows(self, m, layer, s, visible):  # e^s / sqrt(sum e^2s), max shifted (core/normalization/l2.cpp)
        s = s.masked_fill(~visible, float("-inf"))
        u = torch.exp(s - s.amax(-1, keepdim=True))
        return u / u.square().sum(-1, keepdim=True).sqrt())PY",
              {});
}
}  // namespace

NormalizationEntry normalization_l2() {
  NormalizationEntry e{
      "l2",
      "ℓ2-normalized exp",
      R"(a_{ij} = \frac{e^{s_{ij}}}{\sqrt{\sum_{k} e^{2 s_{ik}}}})",
      "Su's fix for relative positions: normalize the exponentials by their length instead "
      "of their sum. A row sums to between 1 (one key) and √n (uniform), so attention can "
      "count how many keys it spreads over.",
      RowSum::Varies,
      true,
      true,
      {},
      [](const MakeContext&, ParamStore&) -> std::unique_ptr<Normalization> { return std::make_unique<L2Exp>(); }};
  e.torch.python = torch_l2;
  return e;
}

}  // namespace ap
