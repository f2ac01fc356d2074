// core/position/cope.cpp — CoPE, Contextual Position Encoding (Golovneva et al. 2024, arXiv
// 2405.18719, §3 and the code of its appendix): positions count the keys a gate lets through,
// so a head can attend to "the 3rd sentence back" rather than "the 40th token back".
//   z_ij = τ q_i·k_j                      the scaled content logit (the paper's attn_logits)
//   g_ij = σ(z_ij)                        gate: does key j count from query i?
//   p_ij = Σ_{k=j..i} g_ik                fractional position of key j from query i (j ≤ i)
//   e(p) = (1 − w) e[⌊p⌋] + w e[⌈p⌉],  w = p − ⌊p⌋,  p clamped to P = npos_max − 1
//   s_ij += q_i·e(p_ij)                   unscaled, as the paper's code adds it to attn_logits
// Bidirectional models (the paper is causal): keys to the right count symmetrically over the span
// from the query, p_ij = Σ_{k=i..j} g_ik for j > i; the same table serves both sides, so the
// direction is left to the content (documented in docs/positions.md).
// Backward: ∂p_ij/∂g_ik = 1 for k in the span; suffix/prefix sums of ∂L/∂p give ∂L/∂g in O(T) per
// row. The interpolation has kinks at integer p (measure zero; the gradient checks do not meet them).
// Parameters PER LAYER, shared by the heads (the paper's pos_emb (1, head_dim, npos_max) is applied
// to every head's queries): "blocks.{l}.attn.cope.pos_emb.weight" (npos_max, HS), init 0 (paper).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "refusal/refusal.hpp"
#include "position/position.hpp"
#include "position/relative.hpp"

namespace ap {

namespace {

float sigmoidf(float x) { return 1.0f / (1.0f + std::exp(-x)); }

class Cope : public PositionEncoding {
 public:
  Cope(const MakeContext& ctx, ParamStore& ps) : ps_(ps), HS_(ctx.sizes.head_size()), NH_(ctx.sizes.heads) {
    const int n = int(ctx.options.number("cope_npos_max"));
    npos_ = n > 0 ? n : ctx.sizes.model_len + 1;  // 0: every position of a training sequence, 0..T
    for (int l = 0; l < ctx.sizes.layers; ++l)
      ids_.push_back(
          ps.add("blocks." + std::to_string(l) + ".attn.cope.pos_emb.weight", {npos_, HS_}, Init::Zeros, 0.0f, false));
  }

  bool biases() const override { return true; }
  void bias_forward(int layer, float* logits, const float* q, const float* k, const AttnShape& s) override {
    const float* E = ps_.data(ids_[layer]);
    Row r(s.T, npos_);
    for (int bh = 0; bh < s.B * s.NH; ++bh)
      for (int i = 0; i < s.T; ++i) {
        const float* qi = q + (size_t(bh) * s.T + i) * HS_;
        row(r, qi, k + size_t(bh) * s.T * HS_, E, i, s);
        float* L = logits + (size_t(bh) * s.T + i) * s.T;
        for (int j = 0, n = visible_keys(s.causal, s.T, i); j < n; ++j) L[j] += r.bias[j];
      }
  }

  void bias_backward(int layer, const float* ds, const float* q, const float* k, float* dq, float* dk,
                     const AttnShape& s) override {
    const float* E = ps_.data(ids_[layer]);
    float* dE = ps_.grad(ids_[layer]);
    const int T = s.T, P = npos_ - 1;
    Row r(T, npos_);
    std::vector<float> dqe(npos_), dp(T), dg(T);
    for (int bh = 0; bh < s.B * s.NH; ++bh)
      for (int i = 0; i < T; ++i) {
        const float* qi = q + (size_t(bh) * T + i) * HS_;
        const float* kb = k + size_t(bh) * T * HS_;
        const float* D = ds + (size_t(bh) * T + i) * T;
        float* dqi = dq + (size_t(bh) * T + i) * HS_;
        row(r, qi, kb, E, i, s);
        const int n = visible_keys(s.causal, T, i);
        std::fill(dqe.begin(), dqe.end(), 0.0f);
        for (int j = 0; j < n; ++j) {  // bias = (1 − w) qe[f] + w qe[c]
          const float w = r.p[j] - r.f[j];
          dqe[r.f[j]] += D[j] * (1 - w), dqe[r.c[j]] += D[j] * w;
          dp[j] = r.p[j] < P ? D[j] * (r.qe[r.c[j]] - r.qe[r.f[j]]) : 0.0f;  // clamped: flat
        }
        // ∂L/∂g_ik = Σ of ∂L/∂p_ij over the keys j whose span contains k.
        float acc = 0;
        for (int j = 0; j <= i; ++j) acc += dp[j], dg[j] = acc;  // left: j ≤ k ≤ i
        acc = 0;
        for (int j = n - 1; j > i; --j) acc += dp[j], dg[j] = acc;  // right: i ≤ k ≤ j
        dg[i] += acc;                                               // the query's own gate is in every span
        for (int j = 0; j < n; ++j) {
          const float dz = s.tau * dg[j] * r.g[j] * (1 - r.g[j]);
          const float* kj = kb + size_t(j) * HS_;
          float* dkj = dk + (size_t(bh) * T + j) * HS_;
          for (int c = 0; c < HS_; ++c) dqi[c] += dz * kj[c], dkj[c] += dz * qi[c];
        }
        for (int x = 0; x < npos_; ++x) {  // qe[x] = q_i·e[x]
          if (dqe[x] == 0.0f) continue;
          for (int c = 0; c < HS_; ++c)
            dqi[c] += dqe[x] * E[size_t(x) * HS_ + c], dE[size_t(x) * HS_ + c] += dqe[x] * qi[c];
        }
      }
  }

  nlohmann::json display(int T) const override {
    return {{"kind", "contextual"}, {"npos_max", npos_}, {"embedding", as_matrix(ps_.data(ids_[0]), npos_, HS_)}};
  }

  // The bias against distance for head h's mean query and key (probe 0; every key the same), by
  // the same row code as training: one gate value g for all keys, so p(d) = (d + 1)·g on the left.
  nlohmann::json explore(const ExploreQuery& x) const override {
    if (x.probes.empty()) return nlohmann::json::object();
    const int layer = std::clamp(x.layer, 0, int(ids_.size()) - 1), D = x.length;
    const float* E = ps_.data(ids_[layer]);
    const QKProbe& pr = x.probes[0];
    AttnShape s{1, D, NH_, HS_, x.causal, false, x.tau};
    std::vector<std::vector<float>> rows(size_t(NH_) * 2);  // per head: last row, first row
    std::vector<float> keys(size_t(D) * HS_);
    Row r(D, npos_);
    for (int h = 0; h < NH_; ++h) {
      for (int j = 0; j < D; ++j) std::copy_n(&pr.k[size_t(h) * HS_], HS_, &keys[size_t(j) * HS_]);
      for (int which = 0; which < 2; ++which) {
        row(r, &pr.q[size_t(h) * HS_], keys.data(), E, which == 0 ? D - 1 : 0, s);
        rows[size_t(h) * 2 + which] = r.bias;
      }
    }
    nlohmann::json j = sample_by_distance(NH_, D, x.causal, [&](int h, int i, int k) {
      return double(rows[size_t(h) * 2 + (i == 0 && D > 1 ? 1 : 0)][size_t(k)]);
    });
    j["kind"] = "bias";
    j["quantity"] = "bias";
    j["npos_max"] = npos_;
    j["layer"] = layer;
    j["formula"] = R"(b_h(d) = \bar q_h\cdot e\big((|d|+1)\,\sigma(\tau\,\bar q_h\cdot \bar k_h)\big))";
    j["source"] = "core/position/cope.cpp · Cope::explore → Cope::row (the training code, every key the mean key)";
    return j;
  }

 private:
  struct Row {  // one query row: gates, positions, interpolation indices, bias; q·e per table row
    std::vector<float> g, p, bias, qe;
    std::vector<int> f, c;
    Row(int T, int npos) : g(T), p(T), bias(T), qe(npos), f(T), c(T) {}
  };
  // Query i (qi: HS) against keys kb (T, HS): fills r for the visible keys.
  void row(Row& r, const float* qi, const float* kb, const float* E, int i, const AttnShape& s) const {
    const int n = visible_keys(s.causal, s.T, i), P = npos_ - 1;
    for (int x = 0; x < npos_; ++x) r.qe[x] = dot(qi, E + size_t(x) * HS_, HS_);
    for (int j = 0; j < n; ++j) r.g[j] = sigmoidf(s.tau * dot(qi, kb + size_t(j) * HS_, HS_));
    float acc = 0;
    for (int j = i; j >= 0; --j) acc += r.g[j], r.p[j] = acc;  // keys to the left, the query's own first
    acc = r.g[i];
    for (int j = i + 1; j < n; ++j) acc += r.g[j], r.p[j] = acc;  // bidirectional: keys to the right
    for (int j = 0; j < n; ++j) {
      const float p = std::min(r.p[j], float(P));
      r.p[j] = p;
      r.f[j] = int(std::floor(p)), r.c[j] = int(std::ceil(p));
      const float w = p - r.f[j];
      r.bias[j] = (1 - w) * r.qe[r.f[j]] + w * r.qe[r.c[j]];
    }
  }
  ParamStore& ps_;
  int HS_, NH_, npos_;
  std::vector<int> ids_;  // per layer: e (npos_max, HS)
};

void check_cope(const MakeContext& ctx) {
  const int n = int(ctx.options.number("cope_npos_max"));
  if (n == 1) refuse("position.cope_one_position", "cope_npos_max");
}

// The PyTorch form (common/torch_form.hpp), on the q and k the hook sees.
std::string torch_cope(const MakeContext&, PyFill fill) {
  return fill(R"PY(class Position(PositionBase):
    """CoPE: g_ij = sigmoid(tau q_i.k_j), p_ij = the sum of g_ik over k from j to i (either side), clamped to
    NPOS - 1; s_ij += q_i.e(p_ij), e linear between the rows floor(p), ceil(p) of
    blocks.{l}.attn.cope.pos_emb.weight (NPOS, HS) (core/position/cope.cpp)."""

    def bias(self, m, layer, s, q, k, tau):
        E = m.get_parameter(f"blocks.{layer}.attn.cope.pos_emb.weight")
        g = torch.sigmoid(tau * (q @ k.transpose(-2, -1)))
        left = torch.ones(s.shape[-2:], dtype=torch.bool, device=s.device).tril()  # keys j <= i
        p = torch.where(left, g.masked_fill(~left, 0.0).flip(-1).cumsum(-1).flip(-1),
                        g.masked_fill(left.tril(-1), 0.0).cumsum(-1)).clamp(max=E.shape[0] - 1)
        w, qe = p - p.floor(), q @ E.t()  # qe (B, NH, T, NPOS)
        return s + (1 - w) * qe.gather(-1, p.floor().long()) + w * qe.gather(-1, p.ceil().long()))PY",
              {});
}
}  // namespace

PositionEntry position_cope() {
  PositionEntry e{
      "cope",
      "CoPE (contextual position encoding)",
      R"(g_{ij} = \sigma(\tau\, q_i\cdot k_j),\ p_{ij} = \sum_{k=j}^{i} g_{ik},\ s_{ij} = \tau\, q_i\cdot k_j + q_i\cdot e(p_{ij}))",
      "counts the keys a learned gate lets through between query and key, and adds the query's "
      "score against an interpolated position embedding of that count to the logits",
      "Positions measured in what the head decides to count (words, sentences, a particular "
      "token) instead of in tokens: each key is at a fractional position, the sum of the gates "
      "σ(q·k) from it to the query. It acts only on the logits, so with softmax and identical "
      "tokens the probe stays at 1/n.",
      false,
      true,
      true,
      {opt_int("cope_npos_max", 0, 0, 4096,
               "rows of the position table e; positions are clamped to npos_max − 1 (0: the training "
               "length + 1, so that no count in a training sequence is clamped)")},
      [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<Cope>(ctx, ps);
      }};
  e.check = check_cope;
  e.biases_logits = true;
  e.torch.python = torch_cope;
  return e;
}

}  // namespace ap
