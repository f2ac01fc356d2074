// core/normalization/relu2.cpp — squared ReLU over a divisor, the GAU attention (Hua et al. 2022,
// arXiv 2202.10447; Su/bert4keras `attention_normalize`; reference §3.3, Lemma 3):
//   a_j = relu(s_j)² / N,   with N chosen by relu2_divisor:
//     fixed   N = relu2_n (0: the training length, seq_len plus anchors) — Su found a fixed n
//             transfers across lengths best (kexue.fm/archives/9019);
//     row     N = T, the row length (FLASH-pytorch's seq_len);
//     visible N = n, the visible keys (bert4keras' count of unmasked keys; causal: i+1).
// Backward (elementwise, rows decoupled): ds_j = g_j · 2 relu(s_j) / N. At s_j = 0 the
// derivative is taken as 0 (the kink; gradient checks stay away from it).
// Row sum R = Σ relu(s)²/N ∈ [0, ∞): with N = n visible keys a causal row of equal logits has a
// row sum independent of i, so causal NoPE cannot count (Lemma 3); fixed N can. Dead rows: if all
// logits are ≤ 0 the row is 0 and gets no gradient.
#include <cmath>

#include "normalization/normalization.hpp"

namespace ap {

namespace {
enum class Divisor { Fixed, Row, Visible };

class Relu2 : public Normalization {
 public:
  Relu2(Divisor d, int fixed_n) : div_(d), fixed_n_(fixed_n) {}
  void prepare_rows(int, const AttnShape& s) override { T_ = s.T; }
  void row_forward(const float* s, float* a, int n) const override {
    if (n <= 0) return;
    const float inv = 1.0f / divisor(n);
    for (int j = 0; j < n; ++j) {
      const float r = s[j] > 0.0f ? s[j] : 0.0f;
      a[j] = r * r * inv;
    }
  }
  void row_backward(const float* s, const float*, const float* da, float* ds, int n) const override {
    if (n <= 0) return;
    const float two_inv = 2.0f / divisor(n);
    for (int j = 0; j < n; ++j)
      if (s[j] > 0.0f) ds[j] += da[j] * s[j] * two_inv;
  }

 private:
  float divisor(int n) const {
    switch (div_) {
      case Divisor::Fixed:
        return float(fixed_n_);
      case Divisor::Row:
        return float(T_ > 0 ? T_ : n);
      default:
        return float(n);
    }
  }
  Divisor div_;
  int fixed_n_;
  int T_ = 0;  // row length of the current batch (prepare_rows); 0 = not set, use n
};

// The PyTorch form (common/torch_form.hpp).
const char* const kRelu2Py = R"PY(class Normalization(NormalizationBase):
    """relu(s)^2 / N, N = FIXED_N (fixed), the row length T (row) or the visible keys (visible)
    (core/normalization/relu2.cpp)."""
    DIVISOR, FIXED_N = "${divisor}", ${fixed_n}

    def rows(self, m, layer, s, visible):
        if self.DIVISOR == "visible":
            n = visible.sum(-1, keepdim=True).float()
        else:
            n = torch.tensor(float(s.shape[-1] if self.DIVISOR == "row" else self.FIXED_N))
        return (torch.relu(s).square() * (1.0 / n)).masked_fill(~visible, 0.0))PY";

std::string torch_relu2(const MakeContext& ctx, PyFill fill) {
  const std::string d = ctx.options.text("relu2_divisor");
  const int n = ctx.options.integer("relu2_n");
  return fill(kRelu2Py, {{"divisor", d == "row"       ? "row"
                                     : d == "visible" ? "visible"
                                                      : "fixed"},
                         {"fixed_n", n > 0 ? n : ctx.sizes.model_len}});
}
}  // namespace

NormalizationEntry normalization_relu2() {
  NormalizationEntry e{"relu2",
                       "relu² / n (GAU)",
                       R"(a_{ij} = \frac{\operatorname{relu}(s_{ij})^2}{n})",
                       "Squared ReLU divided by a count, as in the GAU. No exponential and no row sum "
                       "constraint: with a fixed n, a row's sum grows with the keys it sees. Rows whose "
                       "logits are all negative are dead (all 0).",
                       RowSum::Varies,
                       true,
                       true,
                       {opt_enum("relu2_divisor", "fixed", {"fixed", "row", "visible"},
                                 "n in relu(s)²/n: fixed (relu2_n), the row length T, or the visible keys "
                                 "(causal: i+1)"),
                        opt_int("relu2_n", 0, 0, 16384, "the fixed n of relu2_divisor=fixed (0: the training length)")},
                       [](const MakeContext& ctx, ParamStore&) -> std::unique_ptr<Normalization> {
                         const std::string d = ctx.options.text("relu2_divisor");
                         int n = int(ctx.options.number("relu2_n"));
                         if (n <= 0) n = ctx.sizes.model_len;
                         return std::make_unique<Relu2>(d == "row"       ? Divisor::Row
                                                        : d == "visible" ? Divisor::Visible
                                                                         : Divisor::Fixed,
                                                        n);
                       }};
  e.torch.python = torch_relu2;
  return e;
}

}  // namespace ap
