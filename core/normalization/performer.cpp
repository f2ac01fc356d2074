// core/normalization/performer.cpp — Performer FAVOR+: positive orthogonal random features that
// estimate softmax attention (Choromanski et al. 2020, arXiv 2009.14794; lucidrains/
// performer-pytorch `softmax_kernel`, `gaussian_orthogonal_random_matrix`; reference §3.10):
//   x' = d^{-1/4} x (d = HS),   φ(x)_r = m^{-1/2} exp(ω_r·x' − ‖x'‖²/2),   r = 1..m,
//   s_ij = φ(q_i)·φ(k_j) ≈ e^{q_i·k_j/√d}  (unbiased: E_ω[e^{ω·x−‖x‖²/2} e^{ω·y−‖y‖²/2}] = e^{x·y}),
//   a_ij = s_ij / (Σ_{k visible} s_ik + ε),   ε = 1e-12 (a guard only).
// ω_1..ω_m: blocks of d orthonormal rows (Gram–Schmidt of a Gaussian d×d matrix), each row
// rescaled by the norm of an independent Gaussian d-vector ("scaling = 0"). One matrix per layer,
// shared by the heads. m = performer_features, default ⌊d ln d⌋ (8 → 16, 16 → 44, 32 → 110).
// Stability: the exponent is shifted by a constant — per query row its max over features, per
// (batch, head) the max over all keys and features. Both shifts multiply a whole row, or all
// keys, by one factor, which the row normalization cancels exactly, so no ε enters the features
// (performer-pytorch adds 1e-4; we do not, which keeps the gradient exact). The shifts are
// constants in the backward (the weights do not depend on them).
// The feature dimension m ≠ HS, so this entry forms the scores itself (forms_scores):
//   forward  Φq = φ(q), Φk = φ(k) (T,m), s = Φq Φkᵀ;
//   backward dΦq = ds Φk, dΦk = dsᵀ Φq, then per row with w_r = dφ_r φ_r:
//            dx = d^{-1/4} (Σ_r w_r ω_r − x' Σ_r w_r).
// Redraw (performer_redraw = true): new features at the start of every training forward (layer
// 0 with shape.training), so a step's forward and backward share them and evaluation uses the
// latest draw. Draw k of layer l comes from an Rng seeded by (seed, l, k); the counter k lives in
// the instance and is not saved, so a loaded session restarts the sequence at draw 0. The PyTorch
// export writes the current draw into its file (fixed_tensors), since Python cannot redraw it.
// Rows sum to 1: Lemma 1 applies. No logits, so no logit bias (accepts_bias = false).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "normalization/normalization.hpp"
#include "normalization/row_ops.hpp"
#include "tensor/kernels.hpp"
#include "tensor/rng.hpp"

namespace ap {

namespace {
constexpr double kPerformerEps = 1e-12;

// (m, d) Gaussian orthogonal random features, rows scaled by χ_d-distributed norms.
std::vector<float> draw_features(Rng& rng, int m, int d) {
  std::vector<float> w(size_t(m) * d);
  std::vector<double> block(size_t(d) * d);
  for (int r0 = 0; r0 < m; r0 += d) {
    for (auto& x : block) x = rng.normal();
    for (int i = 0; i < d; ++i) {  // Gram–Schmidt on the rows (twice, for float-free accuracy)
      double* bi = &block[size_t(i) * d];
      for (int pass = 0; pass < 2; ++pass)
        for (int j = 0; j < i; ++j) {
          const double* bj = &block[size_t(j) * d];
          double dot = 0.0;
          for (int c = 0; c < d; ++c) dot += bi[c] * bj[c];
          for (int c = 0; c < d; ++c) bi[c] -= dot * bj[c];
        }
      double nrm = 0.0;
      for (int c = 0; c < d; ++c) nrm += bi[c] * bi[c];
      nrm = std::sqrt(nrm);
      for (int c = 0; c < d; ++c) bi[c] /= nrm;
    }
    for (int i = 0; i < d && r0 + i < m; ++i) {
      double chi = 0.0;
      for (int c = 0; c < d; ++c) {
        const double g = rng.normal();
        chi += g * g;
      }
      chi = std::sqrt(chi);
      for (int c = 0; c < d; ++c) w[size_t(r0 + i) * d + c] = float(block[size_t(i) * d + c] * chi);
    }
  }
  return w;
}

class Performer : public Normalization {
 public:
  Performer(const MakeContext& ctx, int m, bool redraw)
      : m_(m),
        d_(ctx.sizes.d_model / ctx.sizes.heads),
        seed_(uint64_t(ctx.sizes.seed)),
        redraw_(redraw),
        omega_(ctx.sizes.layers),
        saved_(ctx.sizes.layers) {
    draw_all();
  }
  float scale(int) const override { return 1.0f; }
  void row_forward(const float* s, float* a, int n) const override { sum_row_forward(s, a, n, kPerformerEps); }
  void row_backward(const float* s, const float* a, const float* da, float* ds, int n) const override {
    sum_row_backward(s, a, da, ds, n, kPerformerEps);
  }
  bool forms_scores() const override { return true; }
  void scores_forward(int layer, const float* q, const float* k, float* logits, const AttnShape& s) override {
    if (redraw_ && s.training && layer == 0) {
      ++draws_;
      draw_all();
    }
    Saved& sv = saved_[layer];
    const size_t rows = size_t(s.B) * s.NH * s.T;
    features(sv.xq, sv.fq, q, rows, s.T, true, layer);
    features(sv.xk, sv.fk, k, rows, s.T, false, layer);
    gemm_batched(Op::NT, s.B * s.NH, s.T, s.T, m_, 1.0f, sv.fq.data(), m_, size_t(s.T) * m_, sv.fk.data(), m_,
                 size_t(s.T) * m_, logits, s.T, size_t(s.T) * s.T);
  }
  void scores_backward(int layer, const float* dlogits, float* dq, float* dk, const AttnShape& s) override {
    Saved& sv = saved_[layer];
    const size_t rows = size_t(s.B) * s.NH * s.T;
    dfq_.assign(rows * m_, 0.0f);
    dfk_.assign(rows * m_, 0.0f);
    gemm_batched(Op::NN, s.B * s.NH, s.T, m_, s.T, 1.0f, dlogits, s.T, size_t(s.T) * s.T, sv.fk.data(), m_,
                 size_t(s.T) * m_, dfq_.data(), m_, size_t(s.T) * m_);
    gemm_batched(Op::TN, s.B * s.NH, s.T, m_, s.T, 1.0f, dlogits, s.T, size_t(s.T) * s.T, sv.fq.data(), m_,
                 size_t(s.T) * m_, dfk_.data(), m_, size_t(s.T) * m_);
    features_backward(dq, dfq_, sv.fq, sv.xq, rows, layer);
    features_backward(dk, dfk_, sv.fk, sv.xk, rows, layer);
  }
  // For tests: the features of layer l (m, HS).
  const std::vector<float>& omega(int layer) const { return omega_[layer]; }
  // The current draw, per layer: "blocks.{l}.attn.performer.omega" (m, HS).
  std::vector<FixedTensor> fixed_tensors() const override {
    std::vector<FixedTensor> out;
    for (size_t l = 0; l < omega_.size(); ++l)
      out.push_back({"blocks." + std::to_string(l) + ".attn.performer.omega", {m_, d_}, omega_[l]});
    return out;
  }

 private:
  void draw_all() {
    for (size_t l = 0; l < omega_.size(); ++l) {
      Rng rng(seed_ * 0x9E3779B97F4A7C15ull ^ (uint64_t(l + 1) << 32) ^ uint64_t(draws_) ^ 0x5EEDFA7Full);
      omega_[l] = draw_features(rng, m_, d_);
    }
  }
  // x' = d^{-1/4} x; f = m^{-1/2} exp(ω·x' − ‖x'‖²/2 − c) with c per query row, or per
  // (batch, head) block of T keys.
  void features(std::vector<float>& xs, std::vector<float>& f, const float* x, size_t rows, int T, bool query,
                int layer) {
    const float in_scale = std::pow(float(d_), -0.25f), out_scale = 1.0f / std::sqrt(float(m_));
    xs.resize(rows * d_);
    f.assign(rows * m_, 0.0f);
    for (size_t i = 0; i < rows * d_; ++i) xs[i] = x[i] * in_scale;
    gemm_nt(int(rows), m_, d_, 1.0f, xs.data(), d_, omega_[layer].data(), d_, f.data(), m_);
    for (size_t r = 0; r < rows; ++r) {
      double sq = 0.0;
      for (int c = 0; c < d_; ++c) sq += double(xs[r * d_ + c]) * xs[r * d_ + c];
      for (int j = 0; j < m_; ++j) f[r * m_ + j] -= float(0.5 * sq);
    }
    for (size_t r0 = 0; r0 < rows; r0 += (query ? 1 : size_t(T))) {
      const size_t r1 = query ? r0 + 1 : r0 + T;
      const float c = *std::max_element(f.begin() + r0 * m_, f.begin() + r1 * m_);
      for (size_t i = r0 * m_; i < r1 * m_; ++i) f[i] = std::exp(f[i] - c) * out_scale;
    }
  }
  void features_backward(float* dx, const std::vector<float>& df, const std::vector<float>& f,
                         const std::vector<float>& xs, size_t rows, int layer) const {
    const float in_scale = std::pow(float(d_), -0.25f);
    const float* w = omega_[layer].data();
    for (size_t r = 0; r < rows; ++r) {
      double wsum = 0.0;
      acc_.assign(d_, 0.0);
      for (int j = 0; j < m_; ++j) {
        const double wr = double(df[r * m_ + j]) * f[r * m_ + j];
        wsum += wr;
        for (int c = 0; c < d_; ++c) acc_[c] += wr * w[size_t(j) * d_ + c];
      }
      for (int c = 0; c < d_; ++c) dx[r * d_ + c] += float((acc_[c] - xs[r * d_ + c] * wsum) * in_scale);
    }
  }
  struct Saved {
    std::vector<float> xq, xk, fq, fk;
  };  // (B,NH,T,HS) x', (B,NH,T,m) φ
  int m_, d_;
  uint64_t seed_;
  bool redraw_;
  int draws_ = 0;
  std::vector<std::vector<float>> omega_;  // per layer (m, HS)
  std::vector<Saved> saved_;               // per layer, from the last forward
  std::vector<float> dfq_, dfk_;           // backward scratch (B,NH,T,m)
  mutable std::vector<double> acc_;        // (HS) scratch
};
}  // namespace

// ⌊d ln d⌋, at least 1 (reference §7.10: 8 → 16, 16 → 44, 32 → 110, 64 → 266).
int performer_default_features(int head_size) {
  return std::max(1, int(std::floor(head_size * std::log(double(head_size)))));
}

namespace {
// The PyTorch form (common/torch_form.hpp): the features are the engine's draw (FIXED_TENSORS,
// written by the export from Normalization::fixed_tensors), never redrawn in Python; the shifts
// are the engine's too.
std::string torch_performer(const MakeContext&, PyFill fill) {
  return fill(R"PY(class Normalization(NormalizationBase):
    """Performer FAVOR+: s_ij = phi(q_i).phi(k_j), phi(x) = M^-1/2 exp(w x' - |x'|^2/2 - c), x' = HS^-1/4 x,
    w = blocks.{l}.attn.performer.omega (M, HS) the engine's draw, c the max per query row and per (batch,
    head) over the keys; a = s / (sum s + 1e-12) (core/normalization/performer.cpp)."""

    def scores(self, m, layer, q, k):
        w = m.get_buffer(f"blocks.{layer}.attn.performer.omega")
        inv = torch.tensor(1.0 / math.sqrt(w.shape[0])).float()

        def phi(x, keys):
            x = x * torch.tensor(float(w.shape[1])).pow(-0.25)
            f = x @ w.t() - (0.5 * x.double().square().sum(-1, keepdim=True)).float()
            c = f.amax((-2, -1) if keys else -1, keepdim=True)
            return torch.exp(f - c) * inv
        return phi(q, False) @ phi(k, True).transpose(-2, -1)

    def rows(self, m, layer, s, visible):
        s = s.masked_fill(~visible, 0.0)
        return (s / (s.double().sum(-1, keepdim=True) + 1e-12)).float())PY",
              {});
}
}  // namespace

NormalizationEntry normalization_performer() {
  NormalizationEntry e{
      "performer",
      "Performer (FAVOR+)",
      R"(a_{ij} = \frac{\phi(q_i)\cdot\phi(k_j)}{\sum_k \phi(q_i)\cdot\phi(k_k)},\ \phi(x)_r = \tfrac{1}{\sqrt m} e^{\omega_r\cdot x' - \lVert x'\rVert^2/2})",
      "Random positive features whose dot products estimate softmax's e^{q·k/√d}: an "
      "approximation of softmax that runs in linear time. More features (m), less error. "
      "Rows sum to 1; there are no logits to bias.",
      RowSum::One,
      false,
      true,
      {opt_int("performer_features", 0, 0, 4096, "number of random features m (0: ⌊d_h ln d_h⌋)"),
       opt_bool("performer_redraw", false,
                "draw new random features at every training step (else fixed from the seed)")},
      [](const MakeContext& ctx, ParamStore&) -> std::unique_ptr<Normalization> {
        int m = int(ctx.options.number("performer_features"));
        if (m <= 0) m = performer_default_features(ctx.sizes.d_model / ctx.sizes.heads);
        return std::make_unique<Performer>(ctx, m, ctx.options.flag("performer_redraw"));
      }};
  e.torch.python = torch_performer;
  return e;
}

}  // namespace ap
