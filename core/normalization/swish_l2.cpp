// core/normalization/swish_l2.cpp — swish then ℓ2 normalization (Su, kexue.fm/archives/9105,
// "有一定的可行性"; reference §3.4):
//   u_j = swish(s_j) = s_j σ(s_j),   N = √(Σ_k u_k² + ε²),   a_j = u_j / N,   ε = 1e-6.
// Backward: ∂a_j/∂u_k = (δ_jk − a_j a_k)/N, so
//   ds_k = swish'(s_k) (g_k − a_k Σ_j g_j a_j) / N,   swish'(x) = σ(x)(1 + x(1 − σ(x))).
// The ε inside the root keeps a row of zero logits (u = 0) at a = 0 instead of 0/0, and keeps the
// map smooth. No exponential can overflow (σ is evaluated in its stable form). Weights can be
// negative; the row sum is unconstrained (can be 0 or negative).
#include <cmath>

#include "normalization/normalization.hpp"
#include "normalization/row_ops.hpp"

namespace ap {

namespace {
constexpr double kSwishEps = 1e-6;

class SwishL2 : public Normalization {
 public:
  void row_forward(const float* s, float* a, int n) const override {
    if (n <= 0) return;
    double sq = kSwishEps * kSwishEps;
    for (int j = 0; j < n; ++j) {
      a[j] = s[j] * stable_sigmoid(s[j]);
      sq += double(a[j]) * a[j];
    }
    const float inv = float(1.0 / std::sqrt(sq));
    for (int j = 0; j < n; ++j) a[j] *= inv;
  }
  void row_backward(const float* s, const float* a, const float* da, float* ds, int n) const override {
    if (n <= 0) return;
    double sq = kSwishEps * kSwishEps, dot = 0.0;
    for (int j = 0; j < n; ++j) {
      const double u = double(s[j]) * stable_sigmoid(s[j]);
      sq += u * u;
      dot += double(a[j]) * da[j];
    }
    const double inv = 1.0 / std::sqrt(sq);
    for (int j = 0; j < n; ++j) {
      const double sg = stable_sigmoid(s[j]);
      const double dsw = sg * (1.0 + s[j] * (1.0 - sg));
      ds[j] += float(dsw * (da[j] - a[j] * dot) * inv);
    }
  }
};

// The PyTorch form (common/torch_form.hpp).
std::string torch_swish_l2(const MakeContext&, PyFill fill) {
  return fill(R"PY(class Normalization(NormalizationBase):
    def rows(self, m, layer, s, visible):  # silu(s) / sqrt(sum silu(s)^2 + 1e-12) (core/normalization/swish_l2.cpp)
        u = F.silu(s).masked_fill(~visible, 0.0)
        return u / (u.square().sum(-1, keepdim=True) + 1e-12).sqrt())PY",
              {});
}
}  // namespace

NormalizationEntry normalization_swish_l2() {
  NormalizationEntry e{
      "swish_l2",
      "swish + ℓ2",
      R"(a_{ij} = \frac{\operatorname{swish}(s_{ij})}{\lVert \operatorname{swish}(s_{i\cdot}) \rVert_2})",
      "Su's variant of ℓ2 attention without the positivity of exp: weights can be negative "
      "and a row's sum is free, so it is not row-stochastic.",
      RowSum::Varies,
      true,
      true,
      {},
      [](const MakeContext&, ParamStore&) -> std::unique_ptr<Normalization> { return std::make_unique<SwishL2>(); }};
  e.torch.python = torch_swish_l2;
  return e;
}

}  // namespace ap
