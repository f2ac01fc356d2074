// core/normalization/stick_breaking.cpp — stick-breaking attention (Tan, Yang, Courville, Panda,
// Shen 2024, "Scaling Stick-Breaking Attention", arXiv 2410.17980; the authors' reference
// `stickbreaking` in shawntan/stickbreaking-attention and fla `naive_stickbreaking_attn`):
// query i breaks a stick over the keys before it, nearest first; key j takes the share β_ij of
// what is left by the keys between them:
//   β_ij = σ(s_ij),   A_ij = β_ij Π_{j<k<i} (1 − β_ik)   for j < i,   A_ii = 0, A_ij = 0 for j > i.
// The diagonal is out ("for each token before the current", the abstract; attend_current = False
// by default in the reference kernels), so query 0 attends to nothing and outputs 0. The option
// stick_breaking_current = true includes it (the kernels' attend_current = True): then the stick
// is broken over j ≤ i and the product over j < k ≤ i.
// Log space (the reference's log_z + re_cum_log_beta), with log σ(x) = −softplus(−x),
// log(1 − σ(x)) = −softplus(x) and softplus evaluated stably:
//   log A_ij = −softplus(−s_ij) − Σ_{j<k<i} softplus(s_ik),
// a running sum from the nearest key outwards, so logits of ±80 and 512 keys stay finite.
// Backward (L_j = log A_j; ∂L_j/∂s_j = σ(−s_j), ∂L_j/∂s_k = −σ(s_k) for j < k):
//   ds_k = g_k A_k σ(−s_k) − σ(s_k) Σ_{j<k} g_j A_j,   one pass from the far end.
// Row sum R = 1 − Π_k (1 − β_ik) ∈ [0, 1): the leftover stick is the weight not spent, and for
// identical tokens (β equal) R(i) = 1 − (1 − β)^i depends on i — order is built in without a
// position encoding. Causal only: the row map takes the query to be the last visible key, so
// the config refuses causal=false.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "normalization/normalization.hpp"

namespace ap {

namespace {
// softplus(x) = ln(1 + e^x) = max(x, 0) + ln(1 + e^{−|x|}).
inline double softplus(double x) { return std::max(x, 0.0) + std::log1p(std::exp(-std::fabs(x))); }
inline double sigmoid(double x) { return x >= 0 ? 1.0 / (1.0 + std::exp(-x)) : std::exp(x) / (1.0 + std::exp(x)); }

class StickBreaking : public Normalization {
 public:
  explicit StickBreaking(bool current) : current_(current) {}
  void row_forward(const float* s, float* a, int n) const override {
    const int m = keys(n);
    double spent = 0.0;  // Σ_{j<k<i} softplus(s_k) = −log of the stick left after the nearer keys
    for (int j = m - 1; j >= 0; --j) {
      a[j] = float(std::exp(-softplus(-double(s[j])) - spent));
      spent += softplus(s[j]);
    }
    if (m < n) a[n - 1] = 0.0f;  // the diagonal, when excluded
  }
  void row_backward(const float* s, const float* a, const float* da, float* ds, int n) const override {
    const int m = keys(n);
    double farther = 0.0;  // Σ_{j<k} g_j A_j
    for (int k = 0; k < m; ++k) {
      const double z = s[k], ga = double(da[k]) * a[k];
      ds[k] += float(ga * sigmoid(-z) - sigmoid(z) * farther);
      farther += ga;
    }
  }

 private:
  int keys(int n) const { return current_ ? n : std::max(n - 1, 0); }
  bool current_;
};

// The PyTorch form (common/torch_form.hpp), in float64 as the engine's.
const char* const kStickBreakingPy = R"PY(class Normalization(NormalizationBase):
    """Stick-breaking, nearest key first: a_ij = exp(-softplus(-s_ij) - sum over j < k < i of softplus(s_ik))
    in float64, keys j < i (j <= i when CURRENT); causal only (core/normalization/stick_breaking.cpp)."""
    CURRENT = ${current}

    def rows(self, m, layer, s, visible):
        keys = visible if self.CURRENT else visible.tril(-1)
        sp = lambda x: x.clamp(min=0.0) + torch.log1p(torch.exp(-x.abs()))  # ln(1 + e^x), stable
        s = s.double()
        spent = sp(s).masked_fill(~keys, 0.0)
        spent = spent.flip(-1).cumsum(-1).flip(-1) - spent  # the nearer keys' sum
        return torch.exp(-sp(-s) - spent).float().masked_fill(~keys, 0.0))PY";

std::string torch_stick_breaking(const MakeContext& ctx, PyFill fill) {
  return fill(kStickBreakingPy, {{"current", ctx.options.flag("stick_breaking_current")}});
}
}  // namespace

NormalizationEntry normalization_stick_breaking() {
  NormalizationEntry e{"stick_breaking",
                       "Stick-breaking",
                       R"(a_{ij} = \sigma(s_{ij}) \prod_{j<k<i} \big(1 - \sigma(s_{ik})\big),\ j < i)",
                       "Each query breaks a stick over the keys before it, nearest first: a key takes the "
                       "sigmoid of its logit from what the nearer keys left. Recency is built in, so order needs "
                       "no position encoding; rows sum to less than 1. Causal only.",
                       RowSum::Varies,
                       true,
                       true,
                       {opt_bool("stick_breaking_current", false,
                                 "include the query's own key (the diagonal) in the stick (attend_current)")},
                       [](const MakeContext& ctx, ParamStore&) -> std::unique_ptr<Normalization> {
                         return std::make_unique<StickBreaking>(ctx.options.flag("stick_breaking_current"));
                       }};
  e.check = [](const MakeContext& ctx) {
    if (!ctx.sizes.causal) refuse("normalization.stick_breaking_causal", "causal");
  };
  e.torch.python = torch_stick_breaking;
  return e;
}

}  // namespace ap
