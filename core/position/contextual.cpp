// core/position/contextual.cpp — the TDLM seed's 'contextual(1)' and 'contextual(2)' relative
// encodings (seed 000, RelativePositionEmbedding.compute_bias; DeBERTa-like, reference §1.7):
//   r_ij = E[bucket(i − j)] ∈ R^C            query − key, as the seed (DeBERTa's sign)
//   contextual1 (c2p):       b_ij = τ q_i·(W_r r_ij)_h
//   contextual2 (c2p + p2c): b_ij = τ [q_i·(W_K r_ij)_h + k_j·(W_Q r_ij)_h]
// ( )_h is head h's slice. W_K, W_Q in contextual2 are the layer's own key and query
// projections (the seed passes to_q, to_k; bias-free there, so only the qkv weight is used here
// and its gradient receives the p2c/c2p terms). Both effective indices are bucket(i − j) (the seed
// and HF use δ(i,j) for p2c too). Buckets: the T5 function (seed's copy), bidirectional on i − j;
// causal models use the one-sided form on the distance i − j ≥ 0.
// Scale: the seed adds the bias to unscaled q·k; here the content is τ q·k, so the bias carries
// the same τ and the ratio matches the seed.
// Parameters SHARED by all layers, as the seed's one module in the Encoder:
// "contextual.rel_emb.weight" (NB, C), and for contextual1 "contextual.to_r.weight" (C, C).
#include <algorithm>
#include <string>

#include "refusal/refusal.hpp"
#include "position/position.hpp"
#include "position/relative.hpp"

namespace ap {

namespace {

class Contextual : public PositionEncoding {
 public:
  Contextual(const MakeContext& ctx, ParamStore& ps, bool p2c)
      : ps_(ps),
        p2c_(p2c),
        C_(ctx.sizes.d_model),
        NB_(int(ctx.options.number("contextual_num_buckets"))),
        maxd_(int(ctx.options.number("contextual_max_distance"))),
        bidir_(!ctx.sizes.causal) {
    emb_ = ps.add("contextual.rel_emb.weight", {NB_, C_}, Init::Normal, 0.02f, false);
    if (!p2c_) to_r_ = ps.add("contextual.to_r.weight", {C_, C_}, Init::Normal, 0.02f, true);
    for (auto* v : {&KR_, &QR_, &dKR_, &dQR_}) v->resize(size_t(NB_) * C_);
    acc_.resize(NB_);
  }

  bool biases() const override { return true; }
  void bias_forward(int l, float* logits, const float* q, const float* k, const AttnShape& s) override {
    const int T = s.T, HS = s.HS;
    const int* bk = buckets(T);
    project(l);
    for (int b = 0; b < s.B; ++b)
      for (int h = 0; h < s.NH; ++h) {
        const size_t bh = size_t(b) * s.NH + h;
        for (int i = 0; i < T; ++i) {  // c2p: τ q_i·KR[x]_h per bucket x, then gather
          const float* qi = q + (bh * T + i) * HS;
          for (int x = 0; x < NB_; ++x) acc_[x] = s.tau * dot(qi, &KR_[size_t(x) * C_ + h * HS], HS);
          float* L = logits + (bh * T + i) * T;
          for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j) L[j] += acc_[bk[size_t(i) * T + j]];
        }
        if (!p2c_) continue;
        for (int j = 0; j < T; ++j) {  // p2c: τ k_j·QR[x]_h per (key, bucket)
          const float* kj = k + (bh * T + j) * HS;
          for (int x = 0; x < NB_; ++x) kx_[size_t(j) * NB_ + x] = s.tau * dot(kj, &QR_[size_t(x) * C_ + h * HS], HS);
        }
        for (int i = 0; i < T; ++i) {
          float* L = logits + (bh * T + i) * T;
          for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j)
            L[j] += kx_[size_t(j) * NB_ + bk[size_t(i) * T + j]];
        }
      }
  }

  void bias_backward(int l, const float* ds, const float* q, const float* k, float* dq, float* dk,
                     const AttnShape& s) override {
    const int T = s.T, HS = s.HS;
    const int* bk = buckets(T);
    project(l);
    std::fill(dKR_.begin(), dKR_.end(), 0.0f);
    std::fill(dQR_.begin(), dQR_.end(), 0.0f);
    for (int b = 0; b < s.B; ++b)
      for (int h = 0; h < s.NH; ++h) {
        const size_t bh = size_t(b) * s.NH + h;
        for (int i = 0; i < T; ++i) {
          std::fill(acc_.begin(), acc_.end(), 0.0f);
          const float* D = ds + (bh * T + i) * T;
          for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j) acc_[bk[size_t(i) * T + j]] += s.tau * D[j];
          const float* qi = q + (bh * T + i) * HS;
          for (int x = 0; x < NB_; ++x) {
            if (acc_[x] == 0.0f) continue;
            axpy(dq + (bh * T + i) * HS, acc_[x], &KR_[size_t(x) * C_ + h * HS], HS);
            axpy(&dKR_[size_t(x) * C_ + h * HS], acc_[x], qi, HS);
          }
        }
        if (!p2c_) continue;
        std::fill(kx_.begin(), kx_.end(), 0.0f);  // Σ_i τ ds_ij per (key j, bucket)
        for (int i = 0; i < T; ++i) {
          const float* D = ds + (bh * T + i) * T;
          for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j)
            kx_[size_t(j) * NB_ + bk[size_t(i) * T + j]] += s.tau * D[j];
        }
        for (int j = 0; j < T; ++j) {
          const float* kj = k + (bh * T + j) * HS;
          for (int x = 0; x < NB_; ++x) {
            const float g = kx_[size_t(j) * NB_ + x];
            if (g == 0.0f) continue;
            axpy(dk + (bh * T + j) * HS, g, &QR_[size_t(x) * C_ + h * HS], HS);
            axpy(&dQR_[size_t(x) * C_ + h * HS], g, kj, HS);
          }
        }
      }
    // Through the projections: KR = E Wᵀ ⇒ dE += dKR W, dW += dKRᵀ E.
    const float* E = ps_.data(emb_);
    float* dE = ps_.grad(emb_);
    if (p2c_) {
      const int id = qkv(l);
      const float* W = ps_.data(id);
      float* dW = ps_.grad(id);
      project_backward(dE, dW + size_t(C_) * C_, dKR_.data(), E, W + size_t(C_) * C_);  // W_K rows C..2C
      project_backward(dE, dW, dQR_.data(), E, W);                                      // W_Q rows 0..C
    } else {
      project_backward(dE, ps_.grad(to_r_), dKR_.data(), E, ps_.data(to_r_));
    }
  }

  nlohmann::json display(int T) const override {
    std::vector<int> bk(size_t(T) * T);
    for (int i = 0; i < T; ++i)
      for (int j = 0; j < T; ++j) bk[size_t(i) * T + j] = bucket(i, j);
    return {{"kind", "relative"},
            {"buckets", as_matrix(bk.data(), T, T)},
            {"embedding", as_matrix(ps_.data(emb_), NB_, C_)},
            {"num_buckets", NB_}};
  }

 private:
  int bucket(int i, int j) const {
    return bidir_ ? t5_bucket(i - j, true, NB_, maxd_) : t5_bucket(j - i, false, NB_, maxd_);
  }
  const int* buckets(int T) {
    if (kx_.size() != size_t(T) * NB_) kx_.resize(size_t(T) * NB_);
    return table_.get(T, [&](int i, int j) { return bucket(i, j); });
  }
  int qkv(int l) {
    if (int(qkv_.size()) <= l) qkv_.resize(l + 1, -1);
    if (qkv_[l] < 0) qkv_[l] = ps_.find("blocks." + std::to_string(l) + ".attn.qkv.weight");
    return qkv_[l];
  }
  // KR (and QR) from E (NB, C) and the projections (C, C) of layer l.
  void project(int l) {
    const float* E = ps_.data(emb_);
    if (p2c_) {
      const float* W = ps_.data(qkv(l));
      matmul_nt(QR_.data(), E, W);
      matmul_nt(KR_.data(), E, W + size_t(C_) * C_);
    } else {
      matmul_nt(KR_.data(), E, ps_.data(to_r_));
    }
  }
  void matmul_nt(float* out, const float* E, const float* W) const {  // out = E Wᵀ (NB, C)
    for (int x = 0; x < NB_; ++x)
      for (int o = 0; o < C_; ++o) out[size_t(x) * C_ + o] = dot(E + size_t(x) * C_, W + size_t(o) * C_, C_);
  }
  void project_backward(float* dE, float* dW, const float* dP, const float* E, const float* W) const {
    for (int x = 0; x < NB_; ++x)
      for (int o = 0; o < C_; ++o) {
        const float g = dP[size_t(x) * C_ + o];
        if (g == 0.0f) continue;
        axpy(dE + size_t(x) * C_, g, W + size_t(o) * C_, C_);
        axpy(dW + size_t(o) * C_, g, E + size_t(x) * C_, C_);
      }
  }
  ParamStore& ps_;
  bool p2c_;
  int C_, NB_, maxd_;
  bool bidir_;
  int emb_ = -1, to_r_ = -1;
  std::vector<int> qkv_;
  std::vector<float> KR_, QR_, dKR_, dQR_;  // (NB, C): contextual1 keeps W_r r in KR_
  std::vector<float> acc_;                  // (NB) per row
  std::vector<float> kx_;                   // (T, NB) p2c per key
  IndexTable table_;
};

std::vector<OptionSpec> contextual_options() {
  return {opt_int("contextual_num_buckets", 32, 4, 512, "relative-distance buckets (T5 bucket function, as the seed)"),
          opt_int("contextual_max_distance", 128, 2, 65536, "distances from here on share the last bucket")};
}

void check_contextual(const MakeContext& ctx) {
  const int nb = int(ctx.options.number("contextual_num_buckets"));
  const int md = int(ctx.options.number("contextual_max_distance"));
  const int exact = ctx.sizes.causal ? nb / 2 : nb / 4;
  if (md <= exact)
    refuse("position.contextual_distance", "contextual_max_distance",
           {{"distance", std::to_string(md)}, {"exact", std::to_string(exact)}, {"buckets", std::to_string(nb)}});
}

// The PyTorch form of both entries (common/torch_form.hpp), on the q and k the hook sees, with
// t5_bias.cpp's buckets.
const char* const kContextualPy = R"PY(class Position(PositionBase):
    """contextual1 (c2p): s_ij += tau q_i.(E[x] W_r^T)_h; contextual2 (c2p + p2c): s_ij += tau (q_i.(E[x] W_K^T)_h
    + k_j.(E[x] W_Q^T)_h), W_Q, W_K the layer's own; x = the T5 bucket of i - j (one-sided when causal),
    E = contextual.rel_emb.weight (NB, C), ( )_h head h's slice (core/position/contextual.cpp)."""
    NB, MAX_DISTANCE, P2C = ${nb}, ${max_distance}, ${p2c}

    def bias(self, m, layer, s, q, k, tau):
        T, HS = s.shape[-1], q.shape[-1]
        x = torch.tensor([[_t5_bucket(b - a if CAUSAL else a - b, not CAUSAL, self.NB, self.MAX_DISTANCE)
                           for b in range(T)] for a in range(T)], device=s.device)
        i, j = torch.arange(T, device=s.device)[:, None], torch.arange(T, device=s.device)[None, :]
        E = m.get_parameter("contextual.rel_emb.weight")
        W = m.get_parameter(f"blocks.{layer}.attn.qkv.weight" if self.P2C else "contextual.to_r.weight")
        heads = lambda R: R.reshape(self.NB, HEADS, HS).permute(1, 2, 0)  # (NB, C) -> (NH, HS, NB)
        c2p = tau * (q @ heads(E @ W[D_MODEL:2 * D_MODEL].t() if self.P2C else E @ W.t()))  # (B, NH, T, NB)
        s = s + c2p[:, :, i, x]
        if self.P2C:
            s = s + (tau * (k @ heads(E @ W[:D_MODEL].t())))[:, :, j, x]
        return s)PY";

std::string torch_contextual(const MakeContext& ctx, PyFill fill, bool p2c) {
  return kT5BucketPy + fill(kContextualPy, {{"nb", ctx.options.integer("contextual_num_buckets")},
                                            {"max_distance", ctx.options.integer("contextual_max_distance")},
                                            {"p2c", p2c}});
}
std::string torch_contextual1(const MakeContext& ctx, PyFill fill) { return torch_contextual(ctx, fill, false); }
std::string torch_contextual2(const MakeContext& ctx, PyFill fill) { return torch_contextual(ctx, fill, true); }
}  // namespace

PositionEntry position_contextual1() {
  PositionEntry e{"contextual1",
                  "Contextual relative positions (c2p)",
                  R"(s_{ij} = \tau\,\big(q_i\cdot k_j + q_i\cdot W_r\, r_{\mathrm{bucket}(i-j)}\big))",
                  "adds a query-dependent relative term to the logits in every layer; one table shared by all layers",
                  "Each distance bucket has a learned vector; the query decides how much it cares about it "
                  "(content-to-position, as in DeBERTa). Acts only on the logits.",
                  false,
                  true,
                  true,
                  contextual_options(),
                  [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<PositionEncoding> {
                    return std::make_unique<Contextual>(ctx, ps, false);
                  }};
  e.check = check_contextual;
  e.biases_logits = true;
  e.torch.python = torch_contextual1;
  return e;
}

PositionEntry position_contextual2() {
  PositionEntry e{
      "contextual2",
      "Contextual relative positions (c2p + p2c)",
      R"(s_{ij} = \tau\,\big(q_i\cdot k_j + q_i\cdot W_K r_{\mathrm{bucket}(i-j)} + k_j\cdot W_Q r_{\mathrm{bucket}(i-j)}\big))",
      "adds query- and key-dependent relative terms to the logits in every layer, through the layer's own W_Q, W_K",
      "DeBERTa-style disentangled attention: content-to-position and position-to-content terms, "
      "with the relative vectors projected by the layer's own query and key weights. Acts only on "
      "the logits.",
      false,
      true,
      true,
      contextual_options(),
      [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<Contextual>(ctx, ps, true);
      }};
  e.check = check_contextual;
  e.biases_logits = true;
  e.torch.python = torch_contextual2;
  return e;
}

}  // namespace ap
