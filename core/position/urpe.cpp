// core/position/urpe.cpp — Universal RPE (Luo et al. 2022, arXiv 2205.13401; lsj2408/URPE
// multihead_attention.py `attn_weights * ur_rel_pos_bias`; reference §1.8, Su 9105):
//   A' = softmax(S) ⊙ C,  c_ij = g_h(clip(i − j, K))  (a learnable Toeplitz matrix per head)
// Rows of A' no longer sum to 1, which is what lets a relative encoding solve the probe.
// Sign: i − j (query − key), as the paper's c_ij = g(i − j). Initialised to ones
// (--constant-init-ur-attn): URPE starts as plain attention. No weight decay (it would pull C to 0).
// Parameters "urpe.weight" (2K+1, NH), ONE table shared by all layers as in the URPE repo.
// K = urpe_max_distance, 0 = the training length − 1 (every distance seen in training has its
// own entry, the "unique" variant); longer distances are clipped, so it runs at any length.
// Backward: dA = dA' ⊙ C, dC_x += Σ_{(i,j) on diagonal x} dA'_ij A_ij.
#include <algorithm>

#include "position/position.hpp"
#include "position/relative.hpp"

namespace ap {

namespace {

int urpe_k(const MakeContext& ctx) {
  const int k = int(ctx.options.number("urpe_max_distance"));
  return k > 0 ? k : std::max(1, ctx.sizes.model_len - 1);
}

class Urpe : public PositionEncoding {
 public:
  Urpe(const MakeContext& ctx, ParamStore& ps)
      : ps_(ps), NH_(ctx.sizes.heads), K_(urpe_k(ctx)), causal_(ctx.sizes.causal) {
    id_ = ps.add("urpe.weight", {2 * K_ + 1, NH_}, Init::Ones, 0.0f, false);
  }
  bool multiplies() const override { return true; }
  void weights_forward(int, const float* a, float* out, const AttnShape& s) override {
    const int T = s.T;
    const int* ix = index(T);
    const float* C = ps_.data(id_);
    for (int b = 0; b < s.B; ++b)
      for (int h = 0; h < s.NH; ++h) {
        const size_t off = (size_t(b) * s.NH + h) * T * T;
        for (size_t x = 0; x < size_t(T) * T; ++x) out[off + x] = a[off + x] * C[ix[x] * NH_ + h];
      }
  }
  void weights_backward(int, const float* a, const float* dout, float* da, const AttnShape& s) override {
    const int T = s.T;
    const int* ix = index(T);
    const float* C = ps_.data(id_);
    float* dC = ps_.grad(id_);
    for (int b = 0; b < s.B; ++b)
      for (int h = 0; h < s.NH; ++h) {
        const size_t off = (size_t(b) * s.NH + h) * T * T;
        for (size_t x = 0; x < size_t(T) * T; ++x) {
          const int c = ix[x] * NH_ + h;
          da[off + x] += dout[off + x] * C[c];
          dC[c] += dout[off + x] * a[off + x];
        }
      }
  }
  nlohmann::json display(int T) const override {
    const float* C = ps_.data(id_);
    nlohmann::json heads = nlohmann::json::array();
    std::vector<float> m(size_t(T) * T);
    for (int h = 0; h < NH_; ++h) {
      for (int i = 0; i < T; ++i)
        for (int j = 0; j < T; ++j) m[size_t(i) * T + j] = C[(clip_rel(i - j, K_) + K_) * NH_ + h];
      heads.push_back(as_matrix(m.data(), T, T));
    }
    return {{"kind", "multiplier"}, {"max_distance", K_}, {"multiplier", heads}};
  }

  // The multiplier against distance per head: g_h(clip(d, K)), d = i − j.
  nlohmann::json explore(const ExploreQuery& q) const override {
    const float* C = ps_.data(id_);
    nlohmann::json j = sample_by_distance(NH_, q.length, causal_,
                                          [&](int h, int i, int k) { return C[(clip_rel(i - k, K_) + K_) * NH_ + h]; });
    j["kind"] = "bias";
    j["quantity"] = "multiplier";
    j["max_distance"] = K_;
    j["formula"] =
        R"(a'_{ij} = a_{ij}\, g_h(\mathrm{clip}(d, K)),\quad d = i - j,\quad g_h \leftarrow 1 \text{ at init})";
    j["source"] = "core/position/urpe.cpp · Urpe::explore → clip_rel (relative.hpp), the table of weights_forward";
    return j;
  }

 private:
  const int* index(int T) {
    return table_.get(T, [&](int i, int j) { return clip_rel(i - j, K_) + K_; });
  }
  ParamStore& ps_;
  int NH_, K_, id_;
  bool causal_;
  IndexTable table_;
};

// The PyTorch form (common/torch_form.hpp): rows K + clip(i - j, K).
const char* const kUrpePy = R"PY(class Position(PositionBase):
    """URPE: a_ij <- a_ij C[K + clip(i - j, K), h], one table for all layers (core/position/urpe.cpp)."""
    K = ${k}

    def weights(self, m, layer, a):
        pos = torch.arange(a.shape[-1], device=a.device)
        idx = (pos[:, None] - pos[None, :]).clamp(-self.K, self.K) + self.K
        return a * m.get_parameter("urpe.weight")[idx].permute(2, 0, 1))PY";

std::string torch_urpe(const MakeContext& ctx, PyFill fill) {
  const int k = ctx.options.integer("urpe_max_distance");
  return fill(kUrpePy, {{"k", k > 0 ? k : std::max(1, ctx.sizes.model_len - 1)}});
}
}  // namespace

PositionEntry position_urpe() {
  PositionEntry e{
      "urpe",
      "Universal RPE (softmax ⊙ Toeplitz)",
      R"(A = \mathrm{softmax}\big(\tau\, QK^\top\big) \odot C,\quad C_{ij} = g_h(i-j),\ C \leftarrow \mathbf{1})",
      "multiplies the attention weights of every head by a learned Toeplitz matrix; one table shared by all layers",
      "A learned factor per distance and head multiplies the attention weights after the "
      "normalization, so rows need not sum to 1 any more — enough to tell positions apart even "
      "with identical tokens. Starts as ones (plain attention).",
      false,
      false,
      true,
      {opt_int("urpe_max_distance", 0, 0, 16384,
               "distances beyond this share the outermost entry (0 = training length − 1)")},
      [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<Urpe>(ctx, ps);
      }};
  e.torch.python = torch_urpe;
  return e;
}

}  // namespace ap
