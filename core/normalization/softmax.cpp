// core/normalization/softmax.cpp — a_j = e^{s_j − m} / Σ_k e^{s_k − m}, m = max_k s_k.
// Backward: ds_j = a_j (da_j − Σ_k a_k da_k). Rows sum to 1 (row-stochastic), which is why
// position that enters only through the logits cannot break the symmetry of identical tokens
// (reference §2, Lemma 1). Source: reference §3.1; the row kernels live in row_ops.hpp.
#include <algorithm>
#include <cmath>

#include "normalization/normalization.hpp"
#include "normalization/row_ops.hpp"
#include "tensor/kernels.hpp"

namespace ap {

namespace {
class Softmax : public Normalization {
 public:
  // The SIMD row kernels of core/tensor (xsimd exp); row_ops.hpp keeps the scalar forms that
  // the other entries build on.
  void row_forward(const float* s, float* a, int n) const override {
    if (n > 0) softmax_forward(a, s, 1, n);
  }
  void row_backward(const float*, const float* a, const float* da, float* ds, int n) const override {
    if (n > 0) softmax_backward(ds, a, da, 1, n);
  }
};

// The PyTorch form (common/torch_form.hpp).
std::string torch_softmax(const MakeContext&, PyFill fill) {
  return fill(R"PY(class Normalization(NormalizationBase):
    def rows(self, m, layer, s, visible):  # e^s / sum e^s (core/normalization/softmax.cpp)
        return s.masked_fill(~visible, float("-inf")).softmax(-1))PY",
              {});
}
}  // namespace

NormalizationEntry normalization_softmax() {
  NormalizationEntry e{
      "softmax",
      "Softmax",
      R"(a_{ij} = \frac{e^{s_{ij}}}{\sum_{k} e^{s_{ik}}})",
      "The standard choice. Every row sums to 1, so attention can only mix values; it "
      "cannot count how many keys it sees.",
      RowSum::One,
      true,
      true,
      {},
      [](const MakeContext&, ParamStore&) -> std::unique_ptr<Normalization> { return std::make_unique<Softmax>(); }};
  e.torch.python = torch_softmax;
  return e;
}

}  // namespace ap
