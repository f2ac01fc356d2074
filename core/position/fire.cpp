// core/position/fire.cpp — FIRE, functional interpolation for relative positions (Li et al. 2023,
// arXiv 2310.04418; mcleish7/arithmetic cramming/architectures/embeddings.py class FIRE;
// reference §1.12): a logit bias from a small MLP of a normalized log distance,
//   b_h(i, j) = f_θ( ψ(i − j) / (ψ(max(i, L)) + ε) )_h,  ψ(x) = ln(|c x| + 1),
//   f_θ = Linear(1 → H1) → ReLU → Linear(H1 → NH),  L = |L_mult · fire_length|,  ε = 1e-6,
// with c (init 0.1) and L_mult (init 1) learned. Sign: i − j (query − key), as FIRE. FIRE is
// causal; for bidirectional models ψ keeps the sign of i − j (sign(x)·ln(|cx| + 1)) so that left
// and right differ — our extension, say so in the UI.
// Parameters SHARED by all layers: "fire.mlp.0.weight" (H1, 1), "fire.mlp.0.bias" (H1),
// "fire.mlp.2.weight" (NH, H1), "fire.mlp.2.bias" (NH), "fire.c" (1), "fire.L_multiplier" (1).
// Init: first layer N(0, 1) (PyTorch's U(±1) scale for fan-in 1, away from the ReLU kink at
// u = 0), second N(0, 0.1), bias 0.
#include <cmath>
#include <string>

#include "position/position.hpp"
#include "position/relative.hpp"

namespace ap {

namespace {

class Fire : public PositionEncoding {
 public:
  Fire(const MakeContext& ctx, ParamStore& ps)
      : ps_(ps),
        NH_(ctx.sizes.heads),
        H1_(int(ctx.options.number("fire_hidden"))),
        base_L_(ctx.options.number("fire_length")),
        signed_(!ctx.sizes.causal) {
    w1_ = ps.add("fire.mlp.0.weight", {H1_, 1}, Init::Normal, 1.0f, true);
    b1_ = ps.add("fire.mlp.0.bias", {H1_}, Init::Normal, 1.0f, false);
    w2_ = ps.add("fire.mlp.2.weight", {NH_, H1_}, Init::Normal, 0.1f, true);
    b2_ = ps.add("fire.mlp.2.bias", {NH_}, Init::Zeros, 0.0f, false);
    c_ = ps.add("fire.c", {1}, Init::Constant, 0.1f, false);
    lm_ = ps.add("fire.L_multiplier", {1}, Init::Ones, 0.0f, false);
  }

  bool biases() const override { return true; }
  void bias_forward(int, float* logits, const float*, const float*, const AttnShape& s) override {
    const int T = s.T;
    compute(T);
    for (int b = 0; b < s.B; ++b)
      for (int h = 0; h < s.NH; ++h) {
        float* L = logits + (size_t(b) * s.NH + h) * T * T;
        const float* M = &bias_[size_t(h) * T * T];
        for (int i = 0; i < T; ++i)
          for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j) L[size_t(i) * T + j] += M[size_t(i) * T + j];
      }
  }
  void bias_backward(int, const float* ds, const float*, const float*, float*, float*, const AttnShape& s) override {
    const int T = s.T;
    compute(T);  // u, bias for the current parameters (unchanged since forward)
    dB_.assign(size_t(NH_) * T * T, 0.0f);
    for (int b = 0; b < s.B; ++b)
      for (int h = 0; h < s.NH; ++h) {
        const float* D = ds + (size_t(b) * s.NH + h) * T * T;
        float* G = &dB_[size_t(h) * T * T];
        for (int i = 0; i < T; ++i)
          for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j) G[size_t(i) * T + j] += D[size_t(i) * T + j];
      }
    const float *W1 = ps_.data(w1_), *B1 = ps_.data(b1_), *W2 = ps_.data(w2_);
    float *dW1 = ps_.grad(w1_), *dB1 = ps_.grad(b1_), *dW2 = ps_.grad(w2_), *dB2 = ps_.grad(b2_);
    const double c = ps_.data(c_)[0], ac = std::fabs(c), sc = c >= 0 ? 1 : -1;
    const double Lm = ps_.data(lm_)[0], L = std::fabs(Lm * base_L_);
    double dc = 0, dLm = 0;
    for (int i = 0; i < T; ++i)
      for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j) {
        const size_t ij = size_t(i) * T + j;
        const float u = u_[ij];
        float du = 0;
        for (int k = 0; k < H1_; ++k) {
          const float pre = W1[k] * u + B1[k];
          float dh = 0;
          for (int h = 0; h < NH_; ++h) {
            const float g = dB_[size_t(h) * T * T + ij];
            dh += W2[h * H1_ + k] * g;
            if (pre > 0) dW2[h * H1_ + k] += g * pre;
          }
          if (pre <= 0) continue;
          dW1[k] += dh * u, dB1[k] += dh, du += dh * W1[k];
        }
        for (int h = 0; h < NH_; ++h) dB2[h] += dB_[size_t(h) * T * T + ij];
        // u = sgn ψ(|d|) / (ψ(M) + ε), ψ(x) = ln(|c| x + 1), M = max(i, L).
        const double d = std::fabs(double(i - j)), sg = (signed_ && i < j) ? -1 : 1;
        const double M = std::max(double(i), L), den = std::log(ac * M + 1) + 1e-6;
        const double num = std::log(ac * d + 1);
        const double dnum_dc = sc * d / (ac * d + 1), dden_dc = sc * M / (ac * M + 1);
        dc += du * sg * (dnum_dc * den - num * dden_dc) / (den * den);
        if (L >= i) dLm += du * sg * (-num / (den * den)) * (ac / (ac * L + 1)) * base_L_ * (Lm >= 0 ? 1 : -1);
      }
    ps_.grad(c_)[0] += float(dc);
    ps_.grad(lm_)[0] += float(dLm);
  }

  nlohmann::json display(int T) const override {
    compute(T);
    nlohmann::json heads = nlohmann::json::array();
    for (int h = 0; h < NH_; ++h) heads.push_back(as_matrix(&bias_[size_t(h) * T * T], T, T));
    return {{"kind", "bias"},
            {"normalized_distance", as_matrix(u_.data(), T, T)},
            {"bias", heads},
            {"c", ps_.data(c_)[0]},
            {"L", std::fabs(ps_.data(lm_)[0] * base_L_)}};
  }

  // The MLP's bias against distance per head, on the last query row of a length-D sequence
  // (FIRE's normalizer depends on the query position i; the last row is the longest context).
  nlohmann::json explore(const ExploreQuery& q) const override {
    std::vector<float> b(NH_);
    nlohmann::json j = sample_by_distance(NH_, q.length, !signed_, [&](int h, int i, int k) {
      mlp(u_at(i, k), b.data(), 1);
      return b[h];
    });
    j["kind"] = "bias";
    j["quantity"] = "bias";
    j["row"] = q.length - 1;
    j["c"] = ps_.data(c_)[0];
    j["L"] = std::fabs(ps_.data(lm_)[0] * base_L_);
    j["formula"] =
        R"(b_h(d) = f_\theta\!\left(\frac{\psi(d)}{\psi(\max(i, L)) + \epsilon}\right)_h,\ \psi(x) = \ln(|c\,x| + 1),\ i = D - 1)";
    j["source"] =
        "core/position/fire.cpp · Fire::explore → Fire::u_at, Fire::mlp (the same two as training's Fire::compute)";
    return j;
  }

 private:
  // The normalized distance u(i, j) = sgn ψ(|i − j|) / (ψ(max(i, L)) + ε) for the current c, L.
  float u_at(int i, int j) const {
    const double ac = std::fabs(ps_.data(c_)[0]), L = std::fabs(ps_.data(lm_)[0] * base_L_);
    const double den = std::log(ac * std::max(double(i), L) + 1) + 1e-6;
    const double sg = (signed_ && i < j) ? -1 : 1;
    return float(sg * std::log(ac * std::fabs(double(i - j)) + 1) / den);
  }
  // b (NH) = f_θ(u): the MLP, written into `out` with stride `stride`.
  void mlp(float u, float* out, size_t stride) const {
    const float *W1 = ps_.data(w1_), *B1 = ps_.data(b1_), *W2 = ps_.data(w2_), *B2 = ps_.data(b2_);
    for (int h = 0; h < NH_; ++h) out[h * stride] = B2[h];
    for (int k = 0; k < H1_; ++k) {
      const float a = W1[k] * u + B1[k];
      if (a <= 0) continue;
      for (int h = 0; h < NH_; ++h) out[h * stride] += W2[h * H1_ + k] * a;
    }
  }
  // u (T, T) and bias (NH, T, T) for the current parameters.
  void compute(int T) const {
    u_.resize(size_t(T) * T), bias_.resize(size_t(NH_) * T * T);
    for (int i = 0; i < T; ++i)
      for (int j = 0; j < T; ++j) {
        const size_t ij = size_t(i) * T + j;
        u_[ij] = u_at(i, j);
        mlp(u_[ij], &bias_[ij], size_t(T) * T);
      }
  }
  ParamStore& ps_;
  int NH_, H1_;
  double base_L_;
  bool signed_;
  int w1_, b1_, w2_, b2_, c_, lm_;
  mutable std::vector<float> u_, bias_;  // (T, T), (NH, T, T): scratch of compute()
  std::vector<float> dB_;                // (NH, T, T)
};

// The PyTorch form (common/torch_form.hpp).
const char* const kFirePy = R"PY(class Position(PositionBase):
    """FIRE: s += W2 relu(W1 u + b1) + b2, u(i, j) = sgn ln(|c| |i - j| + 1) / (ln(|c| max(i, L) + 1) + 1e-6),
    L = |L_multiplier LENGTH|, sgn = -1 for keys right of the query in bidirectional models, else 1;
    one MLP for all layers (core/position/fire.cpp)."""
    LENGTH = ${length}

    def bias(self, m, layer, s, q, k, tau):
        T, p = s.shape[-1], m.get_parameter
        c = p("fire.c").double().abs()
        L = (p("fire.L_multiplier").double() * self.LENGTH).abs()
        i = torch.arange(T, dtype=torch.float64)[:, None]
        j = torch.arange(T, dtype=torch.float64)[None, :]
        sgn = 1.0 if CAUSAL else 1.0 - 2.0 * (i < j).double()
        u = (sgn * torch.log(c * (i - j).abs() + 1) / (torch.log(c * torch.maximum(i, L) + 1) + 1e-6)).float()
        h = torch.relu(u[..., None] * p("fire.mlp.0.weight")[:, 0] + p("fire.mlp.0.bias"))
        return s + F.linear(h, p("fire.mlp.2.weight"), p("fire.mlp.2.bias")).permute(2, 0, 1))PY";

std::string torch_fire(const MakeContext& ctx, PyFill fill) {
  return fill(kFirePy, {{"length", ctx.options.number("fire_length")}});
}
}  // namespace

PositionEntry position_fire() {
  PositionEntry e{
      "fire",
      "FIRE (functional interpolation)",
      R"(b_h(i,j) = f_\theta\!\left(\frac{\psi(i-j)}{\psi(\max(i, L)) + \epsilon}\right)_h,\ \psi(x) = \ln(|c\,x| + 1))",
      "adds an MLP-computed bias to the logits of every head in every layer; one MLP shared by all layers",
      "A small network maps a log-scaled, length-normalized distance to a bias per head, so it "
      "can learn any smooth distance profile and interpolate to longer inputs. Acts only on the "
      "logits. With L = 512 and short sequences the normalizer is a constant; set fire_length "
      "near half the training length to see the interpolation.",
      false,
      true,
      true,
      {opt_int("fire_hidden", 32, 1, 1024, "hidden units of the MLP"),
       opt_float("fire_length", 512.0, 1.0, 1e6, "L: the normalizer uses max(i, L·L_multiplier)")},
      [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<Fire>(ctx, ps);
      }};
  e.biases_logits = true;
  e.torch.python = torch_fire;
  return e;
}

}  // namespace ap
