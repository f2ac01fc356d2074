// core/normalization/linear.cpp — linear attention with the feature map φ(x) = elu(x) + 1
// (Katharopoulos et al. 2020, arXiv 2006.16236; idiap/fast-transformers; reference §3.9):
//   a_ij = φ(q_i)ᵀ R_i R_jᵀ φ(k_j) / (Σ_{k visible} φ(q_i)·φ(k_k) + ε),   ε = 1e-6,
// R the position's rotation (RoPE) or none. The denominator is RoFormer's (Su et al. 2021,
// eq. 19): the row sum of the kernel before any position acts on q and k, so it stays positive;
// only the numerator is rotated. Without a rotation the rows sum to 1 (up to ε), and Lemma 1
// applies; with one they need not (a rotated score can be negative).
// Here as pieces: qk_forward maps q ← φ(q), k ← φ(k) in place (scale() = 1) and keeps the
// denominators D_i; the model's "logits" are then the rotated kernel values s_ij, and the
// placed row map divides them by D_i. The plain row map (row_forward) divides by the row's own
// sum, which is D_i when nothing rotates. Backward: ds_j = g_j / D, ∂L/∂D = −Σ_j g_j a_j / D,
// added to φ(q_i) as ∂L/∂D_i · z_i (z_i = Σ_{j visible} φ(k_j)) and to φ(k_j) as
// Σ_{i sees j} ∂L/∂D_i φ(q_i); then dx = φ'(x) dφ, φ'(x) = 1 (x > 0) or e^x = φ(x) (x ≤ 0) —
// read from the saved φ as (φ > 1 ? 1 : φ).
// Why materialized: the model builds the T×T matrix anyway (the UI draws it, and position hooks
// act on it), which gives the same numbers as the O(T) prefix-sum form ("causal by prefix sums",
// S_i = Σ_{j≤i} φ(k_j)v_jᵀ); that form is kernel_attention_prefix below, and a test checks the
// two agree. A logit bias does not fit the factorized form, so bias-type encodings are rejected
// (accepts_bias = false).
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

// D[(b·NH + h)·T + i] = φ(q_i)·Σ_{j visible} φ(k_j) + ε, over the unrotated features.
void row_denominators(std::vector<double>& D, const float* fq, const float* fk, const AttnShape& s) {
  const int T = s.T, HS = s.HS;
  D.assign(size_t(s.B) * s.NH * T, 0.0);
  std::vector<double> z(HS);
  for (size_t bh = 0; bh < size_t(s.B) * s.NH; ++bh) {
    const float *q = fq + bh * T * HS, *k = fk + bh * T * HS;
    std::fill(z.begin(), z.end(), 0.0);
    if (!s.causal)
      for (int j = 0; j < T; ++j)
        for (int c = 0; c < HS; ++c) z[c] += k[size_t(j) * HS + c];
    for (int i = 0; i < T; ++i) {
      if (s.causal)
        for (int c = 0; c < HS; ++c) z[c] += k[size_t(i) * HS + c];
      double d = 0.0;
      for (int c = 0; c < HS; ++c) d += q[size_t(i) * HS + c] * z[c];
      D[bh * T + i] = d >= 0.0 ? d + kEps : d - kEps;
    }
  }
}

// dφq_i += g_i z_i and dφk_j += Σ_{i sees j} g_i φ(q_i), g = ∂L/∂D.
void denominator_backward(float* dq, float* dk, const std::vector<double>& g, const float* fq, const float* fk,
                          const AttnShape& s) {
  const int T = s.T, HS = s.HS;
  std::vector<double> z(HS), w(HS);
  for (size_t bh = 0; bh < size_t(s.B) * s.NH; ++bh) {
    const size_t o = bh * T * HS;
    std::fill(z.begin(), z.end(), 0.0);
    std::fill(w.begin(), w.end(), 0.0);
    if (!s.causal)
      for (int j = 0; j < T; ++j)
        for (int c = 0; c < HS; ++c) {
          z[c] += fk[o + size_t(j) * HS + c];
          w[c] += g[bh * T + j] * fq[o + size_t(j) * HS + c];
        }
    for (int i = 0; i < T; ++i) {  // queries: z over the keys query i sees
      if (s.causal)
        for (int c = 0; c < HS; ++c) z[c] += fk[o + size_t(i) * HS + c];
      for (int c = 0; c < HS; ++c) dq[o + size_t(i) * HS + c] += float(g[bh * T + i] * z[c]);
    }
    for (int j = T - 1; j >= 0; --j) {  // keys: the queries that see key j (causal: i ≥ j)
      if (s.causal)
        for (int c = 0; c < HS; ++c) w[c] += g[bh * T + j] * fq[o + size_t(j) * HS + c];
      for (int c = 0; c < HS; ++c) dk[o + size_t(j) * HS + c] += float(w[c]);
    }
  }
}

class Linear : public Normalization {
 public:
  explicit Linear(int layers) : phi_q_(layers), phi_k_(layers), den_(layers), dden_(layers) {}
  float scale(int) const override { return 1.0f; }
  void row_forward(const float* s, float* a, int n) const override { sum_row_forward(s, a, n, kEps); }
  void row_backward(const float* s, const float* a, const float* da, float* ds, int n) const override {
    sum_row_backward(s, a, da, ds, n, kEps);
  }
  void placed_row_forward(int layer, size_t r, const AttnShape&, const float* x, float* a, int n) const override {
    const double d = den_[layer][r];
    for (int j = 0; j < n; ++j) a[j] = float(x[j] / d);
  }
  void placed_row_backward(int layer, size_t r, const AttnShape&, const float*, const float* a, const float* da,
                           float* ds, int n) override {
    const double d = den_[layer][r];
    double g = 0.0;
    for (int j = 0; j < n; ++j) {
      ds[j] += float(da[j] / d);
      g += double(da[j]) * a[j];
    }
    dden_[layer][r] = -g / d;
  }
  bool maps_qk() const override { return true; }
  void qk_forward(int layer, float* q, float* k, const AttnShape& s) override {
    const size_t n = size_t(s.B) * s.NH * s.T * s.HS;
    elu1(q, n);
    elu1(k, n);
    phi_q_[layer].assign(q, q + n);
    phi_k_[layer].assign(k, k + n);
    row_denominators(den_[layer], q, k, s);
    dden_[layer].assign(den_[layer].size(), 0.0);
  }
  void qk_backward(int layer, float* dq, float* dk, const AttnShape& s) override {
    const size_t n = size_t(s.B) * s.NH * s.T * s.HS;
    denominator_backward(dq, dk, dden_[layer], phi_q_[layer].data(), phi_k_[layer].data(), s);
    elu1_backward(dq, phi_q_[layer].data(), n);
    elu1_backward(dk, phi_k_[layer].data(), n);
  }

 private:
  std::vector<std::vector<float>> phi_q_, phi_k_;  // per layer (B,NH,T,HS), last forward
  std::vector<std::vector<double>> den_, dden_;    // per layer (B,NH,T): D_i and ∂L/∂D_i
};

// The PyTorch form (common/torch_form.hpp): q and k mapped by phi.
std::string torch_linear(const MakeContext&, PyFill fill) {
  return fill(R"PY(class Normalization(NormalizationBase):
    """Linear attention, phi = elu + 1: s = phi(q).phi(k) after the position's rotation, a = s / (D +- 1e-6),
    D = the row sum of phi(q).phi(k) before any rotation (RoFormer eq. 19) over the visible keys
    (core/normalization/linear.cpp)."""

    def qk(self, m, layer, q, k):
        phi = lambda x: torch.where(x > 0, x + 1.0, torch.exp(x))
        self.unrotated = (phi(q), phi(k))
        return self.unrotated

    def rows(self, m, layer, s, visible):
        fq, fk = self.unrotated
        d = (fq @ fk.transpose(-1, -2)).masked_fill(~visible, 0.0).sum(-1, keepdim=True)
        return s.masked_fill(~visible, 0.0) / torch.where(d >= 0, d + 1e-6, d - 1e-6))PY",
              {});
}
}  // namespace

NormalizationEntry normalization_linear() {
  NormalizationEntry e{
      "linear",
      "Linear attention (elu + 1)",
      R"(a_{ij} = \frac{\phi(q_i)\cdot\phi(k_j)}{\sum_{k} \phi(q_i)\cdot\phi(k_k)},\ \phi(x) = \operatorname{elu}(x) + 1)",
      "Attention through a positive feature map instead of exp: it can be computed in time "
      "linear in the length (prefix sums when causal). The denominator is the row sum before "
      "any rotation (RoFormer's rule), so rows sum to 1 unless RoPE rotates the numerator. There "
      "are no logits, so logit biases (ALiBi, T5) do not apply.",
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
