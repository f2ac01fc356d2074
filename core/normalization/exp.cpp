// core/normalization/exp.cpp — "no denominator": raw exponentials (Su, kexue.fm/archives/9105:
// "不除以该分母的Transformer确实能成功地完成前述探针测试"; reference §3.5), with optional logit
// soft-capping (x-transformers `softclamp`):
//   a_j = e^{ŝ_j},   ŝ_j = c·tanh(s_j / c) if exp_softcap = c > 0, else s_j.
// Backward: ds_j = g_j a_j (· (1 − tanh²(s_j/c)) when capped).
// No max subtraction is possible (e^{s+c} = e^c e^s changes the output): without a cap a logit
// above ln(FLT_MAX) = 88.72 overflows, and R ≈ n at init compounds across layers. With a cap c
// the weights stay ≤ e^c, hence `stable` holds only with exp_softcap > 0.
// Row sum R = Σ e^{ŝ} ∈ (0, ∞): n for zero logits.
#include <cmath>

#include "normalization/normalization.hpp"

namespace ap {

namespace {
class Exp : public Normalization {
 public:
  explicit Exp(float cap) : cap_(cap) {}
  void row_forward(const float* s, float* a, int n) const override {
    for (int j = 0; j < n; ++j) a[j] = std::exp(capped(s[j]));
  }
  void row_backward(const float* s, const float* a, const float* da, float* ds, int n) const override {
    for (int j = 0; j < n; ++j) {
      float d = da[j] * a[j];
      if (cap_ > 0.0f) {
        const float t = std::tanh(s[j] / cap_);
        d *= 1.0f - t * t;
      }
      ds[j] += d;
    }
  }

 private:
  float capped(float s) const { return cap_ > 0.0f ? cap_ * std::tanh(s / cap_) : s; }
  float cap_;
};

// The PyTorch form (common/torch_form.hpp).
const char* const kExpPy = R"PY(class Normalization(NormalizationBase):
    """e^s, no denominator; s -> CAP tanh(s / CAP) first when CAP > 0 (core/normalization/exp.cpp)."""
    CAP = ${cap}

    def rows(self, m, layer, s, visible):
        if self.CAP > 0:
            s = self.CAP * torch.tanh(s / self.CAP)
        return torch.exp(s).masked_fill(~visible, 0.0))PY";

std::string torch_exp(const MakeContext& ctx, PyFill fill) {
  return fill(kExpPy, {{"cap", double(float(ctx.options.number("exp_softcap")))}});
}
}  // namespace

NormalizationEntry normalization_exp() {
  NormalizationEntry e{
      "exp",
      "exp, no denominator",
      R"(a_{ij} = e^{s_{ij}})",
      "Softmax without its denominator: the weights are raw exponentials, so a row sums to "
      "about n at the start. It can count keys but its outputs grow with length and it "
      "overflows without soft-capping (exp_softcap).",
      RowSum::Varies,
      true,
      false,  // stable only with exp_softcap > 0
      {opt_float("exp_softcap", 0.0, 0.0, 80.0, "soft cap c: logits pass through c·tanh(s/c) before exp (0 = off)")},
      [](const MakeContext& ctx, ParamStore&) -> std::unique_ptr<Normalization> {
        return std::make_unique<Exp>(float(ctx.options.number("exp_softcap")));
      }};
  e.torch.python = torch_exp;
  return e;
}

}  // namespace ap
