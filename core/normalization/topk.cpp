// core/normalization/topk.cpp — sparse top-k attention (Zhao et al. 2019, "Explicit Sparse
// Transformer", arXiv 1912.11637; lucidrains/x-transformers attend.py `sparse_topk_attn`):
//   θ = the k-th largest logit of the row,  K = {j : s_j ≥ θ},
//   a_j = e^{s_j} / Σ_{k∈K} e^{s_k} for j ∈ K, else 0.
// Ties: every logit equal to θ is kept (x-transformers' `logits >= top_values[..., -1:]`), so
// more than k keys are kept when the k-th largest is tied, and the rule depends on values only,
// never on key order. A row of n ≤ k keys is a plain softmax. Rows sum to 1.
// Backward, topk_backward =
//   kept (default): the exact gradient of the map above, a softmax over K:
//     ds_j = a_j (g_j − Σ_k a_k g_k) for j ∈ K, 0 elsewhere. This is what x-transformers does by
//     default (sparse_topk_straight_through = False: the masked logits are filled with −max
//     float, whose weights and gradients are exactly 0). K is piecewise constant in s, so the
//     map is smooth except where the k-th and (k+1)-th logits cross.
//   straight_through: x-transformers' attn_sparse_topk_straight_through = True (temperature 1):
//     forward as above, gradient that of the dense softmax p = softmax(s) over all n keys,
//     ds_j = p_j (g_j − Σ_k p_k g_k) (`topk_attn.detach() + soft_attn − soft_attn.detach()`).
//     Dropped keys still learn; the gradient is not the forward's, so no gradient check applies.
#include <algorithm>
#include <cmath>
#include <vector>

#include "normalization/normalization.hpp"
#include "normalization/row_ops.hpp"

namespace ap {

namespace {
// The k-th largest of s[0..n) (n > k ≥ 1), by a partial sort of a copy.
float topk_threshold(const float* s, int n, int k) {
  std::vector<float> c(s, s + n);
  std::nth_element(c.begin(), c.begin() + (k - 1), c.end(), [](float x, float y) { return x > y; });
  return c[size_t(k - 1)];
}

class TopK : public Normalization {
 public:
  TopK(int k, bool straight) : k_(k), straight_(straight) {}
  void row_forward(const float* s, float* a, int n) const override {
    if (n <= 0) return;
    if (n <= k_) return softmax_row_forward(s, a, n);
    const float theta = topk_threshold(s, n, k_);
    const float m = *std::max_element(s, s + n);
    double sum = 0.0;
    for (int j = 0; j < n; ++j) sum += (a[j] = s[j] >= theta ? std::exp(s[j] - m) : 0.0f);
    const float inv = float(1.0 / sum);
    for (int j = 0; j < n; ++j) a[j] *= inv;
  }
  void row_backward(const float* s, const float* a, const float* da, float* ds, int n) const override {
    if (n <= 0) return;
    if (!straight_) return softmax_row_backward(a, da, ds, n);  // a_j = 0 outside K
    // The dense softmax p is recomputed on the fly (no scratch buffer: the row loop is threaded,
    // and thread_local does not link in the wasm build without atomics).
    const float m = *std::max_element(s, s + n);
    double z = 0.0, dot = 0.0;
    for (int j = 0; j < n; ++j) {
      const double e = std::exp(double(s[j]) - m);
      z += e, dot += e * da[j];
    }
    dot /= z;
    for (int j = 0; j < n; ++j) ds[j] += float(std::exp(double(s[j]) - m) / z * (da[j] - dot));
  }

 private:
  int k_;
  bool straight_;
};

// The PyTorch form (common/torch_form.hpp); evaluation only, as the export is.
const char* const kTopkPy = R"PY(class Normalization(NormalizationBase):
    """Top-k: softmax over the keys whose logit is >= the row's K-th largest (ties kept; a row of at
    most K visible keys is a plain softmax) (core/normalization/topk.cpp; evaluation: forward only)."""
    K = ${k}

    def rows(self, m, layer, s, visible):
        s = s.masked_fill(~visible, float("-inf"))
        if s.shape[-1] > self.K:
            s = s.masked_fill(s < s.topk(self.K, dim=-1).values[..., -1:], float("-inf"))
        return s.softmax(-1))PY";

std::string torch_topk(const MakeContext& ctx, PyFill fill) {
  return fill(kTopkPy, {{"k", ctx.options.integer("topk_k")}});
}
}  // namespace

NormalizationEntry normalization_topk() {
  NormalizationEntry e{
      "topk",
      "Sparse top-k",
      R"(a_{ij} = \frac{e^{s_{ij}}\,[s_{ij} \ge \theta_i]}{\sum_{k} e^{s_{ik}}\,[s_{ik} \ge \theta_i]},\ \theta_i = k\text{-th largest } s_{i\cdot})",
      "Keeps the k largest logits of each row (all of them when the k-th is tied) and takes "
      "a softmax over those; the rest weigh exactly 0. Rows sum to 1.",
      RowSum::One,
      true,
      true,
      {opt_int("topk_k", 8, 1, 4096, "k, the number of keys each query keeps (8 in the paper)"),
       opt_enum("topk_backward", "kept", {"kept", "straight_through"},
                "gradient: kept = the exact one (softmax over the kept keys), straight_through "
                "= the dense softmax's (x-transformers' sparse_topk_straight_through)")},
      [](const MakeContext& ctx, ParamStore&) -> std::unique_ptr<Normalization> {
        return std::make_unique<TopK>(int(ctx.options.number("topk_k")),
                                      ctx.options.text("topk_backward") == "straight_through");
      }};
  e.torch.python = torch_topk;
  return e;
}

}  // namespace ap
