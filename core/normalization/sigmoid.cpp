// core/normalization/sigmoid.cpp — sigmoid attention (Ramapuram et al. 2024, arXiv 2409.04431;
// apple/ml-sigmoid-attention; reference §3.6):
//   a_j = σ(s_j + b),   b = −ln n (sigmoid_bias = auto; n = the row's visible keys, so a causal
//   row i uses −ln(i+1)) or b = sigmoid_b (sigmoid_bias = fixed).
// Backward (elementwise): ds_j = g_j a_j (1 − a_j).
// Why −ln n: at zero logits R = n σ(−ln n) = n/(n+1) ≈ 1, where b = 0 would give R = n/2 (large
// initial attention norms, the instability the paper addresses). σ is evaluated in its stable
// form, so logits of any size are finite. Row sum R ∈ (0, n): not row-stochastic.
#include <cmath>

#include "normalization/normalization.hpp"
#include "normalization/row_ops.hpp"

namespace ap {

namespace {
class Sigmoid : public Normalization {
 public:
  Sigmoid(bool autob, float b) : auto_(autob), b_(b) {}
  void row_forward(const float* s, float* a, int n) const override {
    if (n <= 0) return;
    const float b = auto_ ? -std::log(float(n)) : b_;
    for (int j = 0; j < n; ++j) a[j] = stable_sigmoid(s[j] + b);
  }
  void row_backward(const float*, const float* a, const float* da, float* ds, int n) const override {
    for (int j = 0; j < n; ++j) ds[j] += da[j] * a[j] * (1.0f - a[j]);
  }

 private:
  bool auto_;
  float b_;
};

// The PyTorch form (common/torch_form.hpp).
const char* const kSigmoidPy = R"PY(class Normalization(NormalizationBase):
    """sigmoid(s + b), b = -ln(visible keys) when AUTO, else B (core/normalization/sigmoid.cpp)."""
    AUTO, B = ${auto}, ${b}

    def rows(self, m, layer, s, visible):
        b = -torch.log(visible.sum(-1, keepdim=True).float()) if self.AUTO else self.B
        return torch.sigmoid(s + b).masked_fill(~visible, 0.0))PY";

std::string torch_sigmoid(const MakeContext& ctx, PyFill fill) {
  return fill(kSigmoidPy, {{"auto", ctx.options.text("sigmoid_bias") != "fixed"},
                           {"b", double(float(ctx.options.number("sigmoid_b")))}});
}
}  // namespace

NormalizationEntry normalization_sigmoid() {
  NormalizationEntry e{"sigmoid",
                       "Sigmoid",
                       R"(a_{ij} = \sigma(s_{ij} - \ln n))",
                       "Each weight is an independent sigmoid, shifted by −ln n so that a row of zero logits "
                       "sums to n/(n+1) ≈ 1. Rows are not tied to 1, so attention can count keys.",
                       RowSum::Varies,
                       true,
                       true,
                       {opt_enum("sigmoid_bias", "auto", {"auto", "fixed"},
                                 "b in σ(s + b): auto = −ln n (n visible keys), or fixed = sigmoid_b"),
                        opt_float("sigmoid_b", 0.0, -50.0, 50.0, "the bias b of sigmoid_bias=fixed")},
                       [](const MakeContext& ctx, ParamStore&) -> std::unique_ptr<Normalization> {
                         return std::make_unique<Sigmoid>(ctx.options.text("sigmoid_bias") != "fixed",
                                                          float(ctx.options.number("sigmoid_b")));
                       }};
  e.torch.python = torch_sigmoid;
  return e;
}

}  // namespace ap
