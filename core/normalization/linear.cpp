// core/normalization/linear.cpp — linear attention with the feature map φ(x) = elu(x) + 1
// (Katharopoulos et al. 2020, arXiv 2006.16236; idiap/fast-transformers; reference §3.9):
//   a_ij = φ(q_i)·φ(k_j) / (Σ_{k visible} φ(q_i)·φ(k_k) + ε),   ε = 1e-6.
// Here as two pieces: qk_forward maps q ← φ(q), k ← φ(k) in place (scale() = 1), so the model's
// "logits" are the kernel values s_ij = φ(q_i)·φ(k_j) > 0; the row map divides by the row sum.
// Backward: row: ds_k = (g_k − Σ_j g_j a_j) / D; map: dx = φ'(x) dφ, φ'(x) = 1 (x > 0) or
// e^x = φ(x) (x ≤ 0) — read from the saved φ as (φ > 1 ? 1 : φ).
// Why materialized: the model builds the T×T matrix anyway (the UI draws it, and position hooks
// act on it), which gives the same numbers as the O(T) prefix-sum form ("causal by prefix sums",
// S_i = Σ_{j≤i} φ(k_j)v_jᵀ); that form is kernel_attention_prefix below, and a test checks the
// two agree. Positive features need no max subtraction; the denominator is guarded (sign-
// preserving ±ε) because a rotation (RoPE) applied after φ can make scores negative — RoFormer
// rotates only the numerator; we rotate both, which keeps rows summing to 1.
// Rows sum to 1 (up to ε): Lemma 1 applies. A logit bias does not fit the factorized form, so
// bias-type encodings are rejected (accepts_bias = false).
#include <algorithm>
#include <cmath>
#include <vector>

#include "normalization/kernel_attention.hpp"
#include "normalization/normalization.hpp"
#include "normalization/row_ops.hpp"

namespace ap {

void kernel_attention_prefix(float* o, const float* fq, const float* fk, const float* v, int T, int F, int HS,
                             bool causal, double eps) {
  std::vector<double> S(size_t(F) * HS, 0.0), z(F, 0.0);
  auto accumulate = [&](int j) {
    for (int f = 0; f < F; ++f) {
      z[f] += fk[size_t(j) * F + f];
      for (int c = 0; c < HS; ++c) S[size_t(f) * HS + c] += double(fk[size_t(j) * F + f]) * v[size_t(j) * HS + c];
    }
  };
  if (!causal)
    for (int j = 0; j < T; ++j) accumulate(j);
  for (int i = 0; i < T; ++i) {
    if (causal) accumulate(i);
    double den = 0.0;
    for (int f = 0; f < F; ++f) den += fq[size_t(i) * F + f] * z[f];
    den = den >= 0.0 ? den + eps : den - eps;
    for (int c = 0; c < HS; ++c) {
      double num = 0.0;
      for (int f = 0; f < F; ++f) num += fq[size_t(i) * F + f] * S[size_t(f) * HS + c];
      o[size_t(i) * HS + c] = float(num / den);
    }
  }
}

namespace {
constexpr double kEps = 1e-6;

void elu1(float* x, size_t n) {
  for (size_t i = 0; i < n; ++i) x[i] = x[i] > 0.0f ? x[i] + 1.0f : std::exp(x[i]);
}
// d ← φ'(x) d, with φ' read from the saved φ(x).
void elu1_backward(float* d, const float* phi, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (phi[i] <= 1.0f) d[i] *= phi[i];
}

class Linear : public Normalization {
 public:
  explicit Linear(int layers) : phi_q_(layers), phi_k_(layers) {}
  float scale(int) const override { return 1.0f; }
  void row_forward(const float* s, float* a, int n) const override { sum_row_forward(s, a, n, kEps); }
  void row_backward(const float* s, const float* a, const float* da, float* ds, int n) const override {
    sum_row_backward(s, a, da, ds, n, kEps);
  }
  bool maps_qk() const override { return true; }
  void qk_forward(int layer, float* q, float* k, const AttnShape& s) override {
    const size_t n = size_t(s.B) * s.NH * s.T * s.HS;
    elu1(q, n);
    elu1(k, n);
    phi_q_[layer].assign(q, q + n);
    phi_k_[layer].assign(k, k + n);
  }
  void qk_backward(int layer, float* dq, float* dk, const AttnShape& s) override {
    const size_t n = size_t(s.B) * s.NH * s.T * s.HS;
    elu1_backward(dq, phi_q_[layer].data(), n);
    elu1_backward(dk, phi_k_[layer].data(), n);
  }

 private:
  std::vector<std::vector<float>> phi_q_, phi_k_;  // per layer (B,NH,T,HS), last forward
};

// The PyTorch form (common/torch_form.hpp): q and k mapped by phi.
std::string torch_linear(const MakeContext&, PyFill fill) {
  return fill(R"PY(class Normalization(NormalizationBase):
    """Linear attention, phi = elu + 1: s = phi(q).phi(k), a = s / (sum s +- 1e-6, the sign of the
    sum) over the visible keys (core/normalization/linear.cpp)."""

    def qk(self, m, layer, q, k):
        phi = lambda x: torch.where(x > 0, x + 1.0, torch.exp(x))
        return phi(q), phi(k)

    def rows(self, m, layer, s, visible):
        s = s.masked_fill(~visible, 0.0)
        d = s.sum(-1, keepdim=True)
        return s / torch.where(d >= 0, d + 1e-6, d - 1e-6))PY",
              {});
}
}  // namespace

NormalizationEntry normalization_linear() {
  NormalizationEntry e{
      "linear",
      "Linear attention (elu + 1)",
      R"(a_{ij} = \frac{\phi(q_i)\cdot\phi(k_j)}{\sum_{k} \phi(q_i)\cdot\phi(k_k)},\ \phi(x) = \operatorname{elu}(x) + 1)",
      "Attention through a positive feature map instead of exp: it can be computed in time "
      "linear in the length (prefix sums when causal). Rows sum to 1, and there are no "
      "logits, so logit biases (ALiBi, T5) do not apply.",
      RowSum::One,
      false,
      true,
      {},
      [](const MakeContext& ctx, ParamStore&) -> std::unique_ptr<Normalization> {
        return std::make_unique<Linear>(ctx.sizes.layers);
      }};
  e.torch.python = torch_linear;
  return e;
}

}  // namespace ap
