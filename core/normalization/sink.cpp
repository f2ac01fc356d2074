// core/normalization/sink.cpp — a learned attention sink per head: a softmax over the row plus
// one extra logit z_h that takes probability mass and contributes no value (openai/gpt-oss
// `gpt_oss/torch/model.py` `sdpa`: QK = cat([QK, S]), W = softmax(QK)[..., :-1]; its parameter
// `block.{n}.attn.sinks`, one per head; the learnable sink of Xiao et al. 2023, arXiv 2309.17453):
//   a_j = e^{s_j} / (e^{z_h} + Σ_k e^{s_k}),   j = 1..n,
// so a row sums to R = S/(e^{z_h} + S) ∈ (0, 1), S = Σ e^{s_k}: a head can abstain, and how much
// it keeps in reserve is learned. softmax1 is the case z_h = 0 (fixed), which is also our init.
// Why an entry and not an option of softmax: the registry declares the row-sum property per
// entry (softmax: One; this: Varies), and an option must not change what the entry declares;
// the entry also owns a parameter, which softmax has not.
// Stable form: m = max(z_h, max_k s_k); a_j = e^{s_j − m} / (e^{z_h − m} + Σ_k e^{s_k − m}).
// Backward: that of a softmax over n+1 keys whose extra key has value 0 (upstream 0):
//   ds_j = a_j (g_j − Σ_k a_k g_k),   dz_h = −a_sink Σ_k a_k g_k = −Σ_j ds_j
// (shift invariance: adding c to all n+1 logits changes nothing). The row maps need the head to
// read z_h (head_row_forward); dz_h is summed over (batch, row, key) in rows_backward from ds,
// serially, so the threaded row loop writes no shared gradient.
// Parameter "blocks.{l}.attn.sinks" (NH), zero init (softmax1 at init), no weight decay.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "normalization/normalization.hpp"
#include "normalization/row_ops.hpp"

namespace ap {

namespace {

// a[0..n) = e^{s_j} / (e^{z} + Σ e^{s_k}) in the shifted form.
void sink_row(const float* s, float* a, int n, float z) {
  if (n <= 0) return;
  const float m = std::max(z, *std::max_element(s, s + n));
  double sum = std::exp(double(z) - m);
  for (int j = 0; j < n; ++j) sum += (a[j] = std::exp(s[j] - m));
  const float inv = float(1.0 / sum);
  for (int j = 0; j < n; ++j) a[j] *= inv;
}

class Sink : public Normalization {
 public:
  Sink(const MakeContext& ctx, ParamStore& ps) : ps_(ps) {
    for (int l = 0; l < ctx.sizes.layers; ++l)
      ids_.push_back(
          ps.add("blocks." + std::to_string(l) + ".attn.sinks", {ctx.sizes.heads}, Init::Zeros, 0.0f, false));
  }
  // A lone row (tests, tools without a model position): layer 0, head 0.
  void row_forward(const float* s, float* a, int n) const override { head_row_forward(0, 0, s, a, n); }
  void head_row_forward(int layer, int head, const float* s, float* a, int n) const override {
    sink_row(s, a, n, ps_.data(ids_[layer])[head]);
  }
  void row_backward(const float*, const float* a, const float* da, float* ds, int n) const override {
    softmax_row_backward(a, da, ds, n);
  }
  // dz_h = −Σ ds over the batch, the rows and the visible keys of head h (masked keys are 0).
  void rows_backward(int layer, const float* ds, const AttnShape& s) override {
    float* dz = ps_.grad(ids_[layer]);
    const size_t TT = size_t(s.T) * s.T;
    for (int b = 0; b < s.B; ++b)
      for (int h = 0; h < s.NH; ++h) {
        const float* x = ds + (size_t(b) * s.NH + h) * TT;
        double sum = 0.0;
        for (size_t i = 0; i < TT; ++i) sum += x[i];
        dz[h] -= float(sum);
      }
  }

 private:
  ParamStore& ps_;
  std::vector<int> ids_;  // per layer: (NH)
};

// The PyTorch form (common/torch_form.hpp).
std::string torch_sink(const MakeContext&, PyFill fill) {
  return fill(R"PY(class Normalization(NormalizationBase):
    """Learned sink: softmax over the row and one extra logit z_h = blocks.{l}.attn.sinks[h] whose key
    has no value, dropped after (gpt-oss sdpa; core/normalization/sink.cpp)."""

    def rows(self, m, layer, s, visible):
        z = m.get_parameter(f"blocks.{layer}.attn.sinks")[:, None, None].expand(*s.shape[:-1], 1)
        return torch.cat([s.masked_fill(~visible, float("-inf")), z], -1).softmax(-1)[..., :-1])PY",
              {});
}
}  // namespace

NormalizationEntry normalization_sink() {
  NormalizationEntry e{"sink",
                       "Learned sink (per head)",
                       R"(a_{ij} = \frac{e^{s_{ij}}}{e^{z_h} + \sum_{k} e^{s_{ik}}})",
                       "Softmax with one extra learned logit z per head whose key has no value, as in "
                       "gpt-oss. The sink takes part of the mass, so a row sums to less than 1 and a head can "
                       "abstain; z = 0 (the start) is softmax1.",
                       RowSum::Varies,
                       true,
                       true,
                       {},
                       [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<Normalization> {
                         return std::make_unique<Sink>(ctx, ps);
                       }};
  e.torch.python = torch_sink;
  return e;
}

}  // namespace ap
