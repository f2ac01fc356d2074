// core/attention/softmax.cpp — a_j = e^{s_j − m} / Σ_k e^{s_k − m}, m = max_k s_k.
// Backward: ds_j = a_j (da_j − Σ_k a_k da_k). Rows sum to 1 (row-stochastic), which is why
// position that enters only through the logits cannot break the symmetry of identical tokens
// (reference §2, Lemma 1).
#include <algorithm>
#include <cmath>

#include "attention/normalization.hpp"

namespace ap {

namespace {
class Softmax : public Normalization {
 public:
  void row_forward(const float* s, float* a, int n) const override {
    if (n <= 0) return;
    float m = *std::max_element(s, s + n), sum = 0.0f;
    for (int j = 0; j < n; ++j) sum += (a[j] = std::exp(s[j] - m));
    float inv = 1.0f / sum;
    for (int j = 0; j < n; ++j) a[j] *= inv;
  }
  void row_backward(const float* s, const float* a, const float* da, float* ds,
                    int n) const override {
    float dot = 0.0f;
    for (int j = 0; j < n; ++j) dot += a[j] * da[j];
    for (int j = 0; j < n; ++j) ds[j] += a[j] * (da[j] - dot);
  }
};
}  // namespace

NormalizationEntry normalization_softmax() {
  return {"softmax",
          "Softmax",
          R"(a_{ij} = \frac{e^{s_{ij}}}{\sum_{k} e^{s_{ik}}})",
          "The standard choice. Every row sums to 1, so attention can only mix values; it "
          "cannot count how many keys it sees.",
          RowSum::One,
          true,
          true,
          {},
          [](const Config&, ParamStore&) -> std::unique_ptr<Normalization> {
            return std::make_unique<Softmax>();
          }};
}

}  // namespace ap
