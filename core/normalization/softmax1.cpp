// core/normalization/softmax1.cpp — softmax1, "off-by-one" or quiet attention (Evan Miller,
// evanmiller.org/attention-is-off-by-one.html; reference §3.7):
//   a_j = e^{s_j} / (1 + Σ_k e^{s_k}),
// a softmax over n+1 keys whose extra key has logit 0 and value 0 (x-transformers add_zero_kv).
// Stable form: m = max(0, max_k s_k); a_j = e^{s_j − m} / (e^{−m} + Σ_k e^{s_k − m}).
// (Pitfall seen in the wild: adding 1 instead of e^{−m} after the shift — wrong unless m = 0.)
// Backward: that of softmax, ds_j = a_j (g_j − Σ_k a_k g_k) (the extra key gets no gradient).
// Row sum R = S/(1+S) ∈ (0, 1), S = Σ e^{s_k}: a row can abstain; zero logits give n/(n+1).
#include <algorithm>
#include <cmath>

#include "normalization/normalization.hpp"
#include "normalization/row_ops.hpp"

namespace ap {

namespace {
class Softmax1 : public Normalization {
 public:
  void row_forward(const float* s, float* a, int n) const override {
    if (n <= 0) return;
    const float m = std::max(0.0f, *std::max_element(s, s + n));
    double sum = std::exp(double(-m));
    for (int j = 0; j < n; ++j) sum += (a[j] = std::exp(s[j] - m));
    const float inv = float(1.0 / sum);
    for (int j = 0; j < n; ++j) a[j] *= inv;
  }
  void row_backward(const float*, const float* a, const float* da, float* ds, int n) const override {
    softmax_row_backward(a, da, ds, n);
  }
};

// The PyTorch form (common/torch_form.hpp).
std::string torch_softmax1(const MakeContext&, PyFill fill) {
  return fill(R"PY(class Normalization(NormalizationBase):
    def rows(self, m, layer, s, visible):  # e^s / (1 + sum e^s), shifted by max(0, max s) (core/normalization/softmax1.cpp)
        s = s.masked_fill(~visible, float("-inf"))
        top = s.amax(-1, keepdim=True).clamp(min=0.0)
        e = torch.exp(s - top)
        return e / (torch.exp(-top) + e.sum(-1, keepdim=True)))PY",
              {});
}
}  // namespace

NormalizationEntry normalization_softmax1() {
  NormalizationEntry e{
      "softmax1",
      "softmax1 (off-by-one)",
      R"(a_{ij} = \frac{e^{s_{ij}}}{1 + \sum_{k} e^{s_{ik}}})",
      "Softmax with an invisible extra key of logit 0 and value 0. A row sums to less than "
      "1 (n/(n+1) for equal zero logits), so a head can abstain — and count its keys.",
      RowSum::Varies,
      true,
      true,
      {},
      [](const MakeContext&, ParamStore&) -> std::unique_ptr<Normalization> { return std::make_unique<Softmax1>(); }};
  e.torch.python = torch_softmax1;
  return e;
}

}  // namespace ap
