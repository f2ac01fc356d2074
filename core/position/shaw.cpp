// core/position/shaw.cpp — Shaw et al. 2018 relative position representations (arXiv 1803.02155
// §3, reference §1.6), with the Shaw sign rel = clip(j − i, k):
//   e_ij = q_i·(k_j + a^K_ij) / √d      a^K_ij = w^K[clip(j − i, k)]   (relative keys)
//   z_i  = Σ_j α_ij (v_j + a^V_ij)       a^V_ij = w^V[clip(j − i, k)]   (relative values, option)
// The key term is a logit bias τ q_i·a^K_ij — the same τ as the content term, as in the paper —
// added through the bias hook (which reads q and writes dq). The value term goes through the
// values hook. It is the value term that puts position outside the logits (the probe passes).
// Parameters PER LAYER (as in the paper), shared across heads: "blocks.L.attn.shaw.key.weight"
// and "blocks.L.attn.shaw.value.weight", each (2k+1, HS).
// Options: shaw_clip (k), shaw_values (default on).
#include <algorithm>
#include <cmath>
#include <string>

#include "position/position.hpp"
#include "position/relative.hpp"

namespace ap {

namespace {

class Shaw : public PositionEncoding {
 public:
  Shaw(const MakeContext& ctx, ParamStore& ps)
      : ps_(ps),
        k_(int(ctx.options.number("shaw_clip"))),
        HS_(ctx.sizes.d_model / ctx.sizes.heads),
        values_(ctx.options.flag("shaw_values")),
        causal_(ctx.sizes.causal) {
    const int R = 2 * k_ + 1;
    for (int l = 0; l < ctx.sizes.layers; ++l) {
      const std::string p = "blocks." + std::to_string(l) + ".attn.shaw.";
      key_.push_back(ps.add(p + "key.weight", {R, HS_}, Init::Normal, 0.02f, false));
      if (values_) val_.push_back(ps.add(p + "value.weight", {R, HS_}, Init::Normal, 0.02f, false));
    }
    acc_.resize(R);
  }

  bool biases() const override { return true; }
  void bias_forward(int l, float* logits, const float* q, const float*, const AttnShape& s) override {
    const int T = s.T, R = 2 * k_ + 1;
    const int* ix = index(T);
    const float* W = ps_.data(key_[l]);
    for (size_t r = 0; r < size_t(s.B) * s.NH * T; ++r) {
      const int i = int(r % T);
      const float* qi = q + r * s.HS;
      for (int x = 0; x < R; ++x) acc_[x] = s.tau * dot(qi, W + size_t(x) * s.HS, s.HS);  // τ q_i·w_x
      float* L = logits + r * T;
      for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j) L[j] += acc_[ix[size_t(i) * T + j]];
    }
  }
  void bias_backward(int l, const float* dlogits, const float* q, const float*, float* dq, float*,
                     const AttnShape& s) override {
    const int T = s.T, R = 2 * k_ + 1;
    const int* ix = index(T);
    const float* W = ps_.data(key_[l]);
    float* dW = ps_.grad(key_[l]);
    for (size_t r = 0; r < size_t(s.B) * s.NH * T; ++r) {
      const int i = int(r % T);
      std::fill(acc_.begin(), acc_.end(), 0.0f);
      const float* D = dlogits + r * T;
      for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j) acc_[ix[size_t(i) * T + j]] += s.tau * D[j];
      const float* qi = q + r * s.HS;
      float* dqi = dq + r * s.HS;
      for (int x = 0; x < R; ++x) {
        if (acc_[x] == 0.0f) continue;
        axpy(dqi, acc_[x], W + size_t(x) * s.HS, s.HS);
        axpy(dW + size_t(x) * s.HS, acc_[x], qi, s.HS);
      }
    }
  }

  bool adds_values() const override { return values_; }
  void values_forward(int l, const float* a, float* o, const AttnShape& s) override {
    const int T = s.T, R = 2 * k_ + 1;
    const int* ix = index(T);
    const float* W = ps_.data(val_[l]);
    for (size_t r = 0; r < size_t(s.B) * s.NH * T; ++r) {
      const int i = int(r % T);
      std::fill(acc_.begin(), acc_.end(), 0.0f);
      const float* A = a + r * T;
      for (int j = 0; j < T; ++j) acc_[ix[size_t(i) * T + j]] += A[j];  // weight per distance
      for (int x = 0; x < R; ++x)
        if (acc_[x] != 0.0f) axpy(o + r * s.HS, acc_[x], W + size_t(x) * s.HS, s.HS);
    }
  }
  void values_backward(int l, const float* a, const float* dout, float* da, const AttnShape& s) override {
    const int T = s.T, R = 2 * k_ + 1;
    const int* ix = index(T);
    const float* W = ps_.data(val_[l]);
    float* dW = ps_.grad(val_[l]);
    for (size_t r = 0; r < size_t(s.B) * s.NH * T; ++r) {
      const int i = int(r % T);
      const float* g = dout + r * s.HS;
      for (int x = 0; x < R; ++x) acc_[x] = dot(g, W + size_t(x) * s.HS, s.HS);  // do_i·w_x
      const float* A = a + r * T;
      float* dA = da + r * T;
      for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j) {
        const int x = ix[size_t(i) * T + j];
        dA[j] += acc_[x];
        if (A[j] != 0.0f) axpy(dW + size_t(x) * s.HS, A[j], g, s.HS);
      }
    }
  }

  nlohmann::json display(int T) const override {
    std::vector<int> ix(size_t(T) * T);
    for (int i = 0; i < T; ++i)
      for (int j = 0; j < T; ++j) ix[size_t(i) * T + j] = clip_rel(j - i, k_);
    nlohmann::json j{{"kind", "relative"},
                     {"clip", k_},
                     {"relative_index", as_matrix(ix.data(), T, T)},
                     {"key_table", as_matrix(ps_.data(key_[0]), 2 * k_ + 1, HS_)}};
    if (values_) j["value_table"] = as_matrix(ps_.data(val_[0]), 2 * k_ + 1, HS_);
    return j;
  }

  // The key term as a logit bias against distance, per head: τ q̄_h·w^K_{clip(−d,k)} with q̄_h the
  // head's mean query (probes[0]; the table is shared by heads, so heads differ through q̄), and
  // the length of the value vector ‖w^V_{clip(−d,k)}‖ added to the output.
  nlohmann::json explore(const ExploreQuery& q) const override {
    const int l = std::clamp(q.layer, 0, int(key_.size()) - 1);
    const float* W = ps_.data(key_[l]);
    const float* qbar = q.probes.at(0).q.data();
    nlohmann::json j = sample_by_distance(q.heads, q.length, causal_, [&](int h, int i, int k) {
      return q.tau * dot(qbar + size_t(h) * HS_, W + size_t(clip_rel(k - i, k_) + k_) * HS_, HS_);
    });
    if (values_) {
      const float* V = ps_.data(val_[l]);
      std::vector<float> norms;
      for (int d : j["distance"].get<std::vector<int>>()) {
        const float* v = V + size_t(clip_rel(-d, k_) + k_) * HS_;
        norms.push_back(std::sqrt(dot(v, v, HS_)));
      }
      j["value_norm"] = norms;
    }
    j["kind"] = "bias";
    j["quantity"] = "bias";
    j["clip"] = k_;
    j["layer"] = l;
    j["formula"] =
        R"(b_h(d) = \tau\, \bar q_h \cdot w^K_{\mathrm{clip}(-d,\,k)},\quad \|w^V_{\mathrm{clip}(-d,\,k)}\|,\quad d = i - j)";
    j["source"] = "core/position/shaw.cpp · Shaw::explore → clip_rel (relative.hpp), the key table of bias_forward";
    return j;
  }

 private:
  const int* index(int T) {
    return table_.get(T, [&](int i, int j) { return clip_rel(j - i, k_) + k_; });
  }
  ParamStore& ps_;
  int k_, HS_;
  bool values_, causal_;
  std::vector<int> key_, val_;
  std::vector<float> acc_;  // (2k+1) scratch per row, allocated once
  IndexTable table_;
};

// The PyTorch form (common/torch_form.hpp): rows K + clip(j - i, K).
const char* const kShawPy = R"PY(class Position(PositionBase):
    """Shaw: s_ij += tau q_i.wK[clip(j - i)] and, when VALUES, o_i += sum_j a_ij wV[clip(j - i)]; per
    layer, shared by the heads (core/position/shaw.cpp)."""
    K, VALUES = ${k}, ${values}

    def index(self, T, device):
        pos = torch.arange(T, device=device)
        return (pos[None, :] - pos[:, None]).clamp(-self.K, self.K) + self.K

    def bias(self, m, layer, s, q, k, tau):
        W = m.get_parameter(f"blocks.{layer}.attn.shaw.key.weight")  # (2K+1, HS)
        qw = tau * (q @ W.t())  # (B, NH, T, 2K+1)
        return s + qw.gather(-1, self.index(s.shape[-1], s.device).expand(*s.shape))

    def values(self, m, layer, a, o):
        if not self.VALUES:
            return o
        W = m.get_parameter(f"blocks.{layer}.attn.shaw.value.weight")
        per_distance = torch.zeros(*a.shape[:-1], W.shape[0], dtype=a.dtype, device=a.device)
        per_distance.scatter_add_(-1, self.index(a.shape[-1], a.device).expand(*a.shape), a)
        return o + per_distance @ W)PY";

std::string torch_shaw(const MakeContext& ctx, PyFill fill) {
  return fill(kShawPy, {{"k", ctx.options.integer("shaw_clip")}, {"values", ctx.options.flag("shaw_values")}});
}
}  // namespace

PositionEntry position_shaw() {
  PositionEntry e{
      "shaw",
      "Shaw relative positions (keys and values)",
      R"(e_{ij} = \tau\, q_i\cdot(k_j + w^K_{\mathrm{clip}(j-i,k)}),\quad z_i = \sum_j \alpha_{ij}\,(v_j + w^V_{\mathrm{clip}(j-i,k)}))",
      "adds a learned vector per clipped distance to the keys (a logit term) and to the values, in every layer",
      "Learned vectors for each distance up to k, shared by all heads. The key part acts only on "
      "the logits; the value part adds a position-dependent vector to the output, which is what "
      "lets it solve the probe with softmax. Distances beyond k are clipped, so it runs at any length.",
      false,
      false,
      true,
      {opt_int("shaw_clip", 16, 1, 1024, "k: distances beyond ±k share the outermost vector"),
       opt_bool("shaw_values", true, "also add the relative value vectors a^V (off = keys only, logits only)")},
      [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<Shaw>(ctx, ps);
      }};
  e.biases_logits = true;
  e.torch.python = torch_shaw;
  return e;
}

}  // namespace ap
