// core/position/forget.cpp — the Forgetting Transformer's forget gate (Lin et al. 2025, "Forgetting
// Transformer: Softmax Attention with a Forget Gate", arXiv 2503.02130, §2): a data-dependent,
// learned recency bias. Per head h and token t a scalar gate f_t ∈ (0, 1); a key loses a factor f
// for every token that arrives after it:
//   f_t = σ(w_h·k_t + b_h)                     (per head, per token)
//   D_ij = Σ_{l=j+1..i} ln f_l = c_i − c_j,    c_t = Σ_{l≤t} ln f_l   (j ≤ i; D_ii = 0)
//   s_ij += D_ij                               ln σ(z) = −softplus(−z): no overflow
// The paper computes f_t from the layer's input x_t (f_t = σ(w_f·x_t + b_f)). The bias hook sees the
// projected q and k, not x; here the gate reads the head's key k_t = W_K x_t + b_K (HS features of
// x_t, a linear function of it), so w_h·k_t = (W_K,hᵀ w_h)·x_t + w_h·b_K: the paper's gate with its
// weight restricted to the head's key subspace, and its gradient reaches W_K through dk.
// Causal only: D is a decay towards the past; the config refuses causal=false.
// Init: b_h = forget_bias_init (default 3: f ≈ 0.95, near 1, i.e. little forgetting at the start,
// as the paper's gates start open), w_h ~ N(0, 0.02).
// Parameters PER LAYER: "blocks.{l}.attn.forget.weight" (NH, HS), "blocks.{l}.attn.forget.bias" (NH).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "refusal/refusal.hpp"
#include "position/position.hpp"
#include "position/relative.hpp"
#include "position/smooth.hpp"

namespace ap {

namespace {

class Forget : public PositionEncoding {
 public:
  Forget(const MakeContext& ctx, ParamStore& ps) : ps_(ps), NH_(ctx.sizes.heads), HS_(ctx.sizes.head_size()) {
    const float b0 = float(ctx.options.number("forget_bias_init"));
    for (int l = 0; l < ctx.sizes.layers; ++l) {
      const std::string p = "blocks." + std::to_string(l) + ".attn.forget.";
      w_.push_back(ps.add(p + "weight", {NH_, HS_}, Init::Normal, 0.02f, false));
      b_.push_back(ps.add(p + "bias", {NH_}, Init::Constant, b0, false));
    }
  }

  bool biases() const override { return true; }
  void bias_forward(int layer, float* logits, const float*, const float* k, const AttnShape& s) override {
    const int T = s.T;
    std::vector<double> c(T);
    for (int bh = 0; bh < s.B * s.NH; ++bh) {
      cumulative(layer, bh % s.NH, k + size_t(bh) * T * HS_, T, c.data());
      float* L = logits + size_t(bh) * T * T;
      for (int i = 0; i < T; ++i)
        for (int j = 0; j <= i; ++j) L[size_t(i) * T + j] += float(c[i] - c[j]);
    }
  }
  // ∂L/∂c_t = Σ_j ds_tj − Σ_i ds_it; ∂L/∂ln f_l = Σ_{t≥l} ∂L/∂c_t; ∂ln σ(z)/∂z = 1 − σ(z).
  void bias_backward(int layer, const float* ds, const float*, const float* k, float*, float* dk,
                     const AttnShape& s) override {
    const int T = s.T;
    const float *W = ps_.data(w_[layer]), *bias = ps_.data(b_[layer]);
    float *dW = ps_.grad(w_[layer]), *db = ps_.grad(b_[layer]);
    std::vector<double> dc(T);
    for (int bh = 0; bh < s.B * s.NH; ++bh) {
      const int h = bh % s.NH;
      const float* D = ds + size_t(bh) * T * T;
      std::fill(dc.begin(), dc.end(), 0.0);
      for (int i = 0; i < T; ++i)
        for (int j = 0; j <= i; ++j) dc[i] += D[size_t(i) * T + j], dc[j] -= D[size_t(i) * T + j];
      double acc = 0;
      for (int l = T - 1; l >= 0; --l) {
        acc += dc[l];
        const float* kl = k + (size_t(bh) * T + l) * HS_;
        const double z = dot(&W[size_t(h) * HS_], kl, HS_) + bias[h];
        const float dz = float(acc * (1 - smooth::sigmoid(z)));
        float* dkl = dk + (size_t(bh) * T + l) * HS_;
        for (int c = 0; c < HS_; ++c) dW[size_t(h) * HS_ + c] += dz * kl[c], dkl[c] += dz * W[size_t(h) * HS_ + c];
        db[h] += dz;
      }
    }
  }

  nlohmann::json display(int T) const override {
    std::vector<double> rate(NH_);
    for (int h = 0; h < NH_; ++h) rate[h] = smooth::sigmoid(ps_.data(b_[0])[h]);
    return {{"kind", "gate"}, {"forget_at_zero_key", rate}};
  }

  // The bias against distance for head h's mean key (probe 0): one gate f for every token, so
  // D(d) = d·ln f — ALiBi's line with a slope the head learned, −ln f per token.
  nlohmann::json explore(const ExploreQuery& x) const override {
    if (x.probes.empty()) return nlohmann::json::object();
    const int layer = std::clamp(x.layer, 0, int(w_.size()) - 1), D = x.length;
    std::vector<float> keys(size_t(D) * HS_);
    std::vector<std::vector<double>> c(NH_, std::vector<double>(D));
    for (int h = 0; h < NH_; ++h) {
      for (int t = 0; t < D; ++t) std::copy_n(&x.probes[0].k[size_t(h) * HS_], HS_, &keys[size_t(t) * HS_]);
      cumulative(layer, h, keys.data(), D, c[h].data());
    }
    nlohmann::json j = sample_by_distance(NH_, D, true, [&](int h, int i, int k) { return c[h][i] - c[h][k]; });
    j["kind"] = "bias";
    j["quantity"] = "bias";
    j["layer"] = layer;
    j["formula"] = R"(D_h(d) = d\,\ln \sigma(w_h\cdot \bar k_h + b_h))";
    j["source"] = "core/position/forget.cpp · Forget::explore → Forget::cumulative (the training code)";
    return j;
  }

 private:
  // c_t = Σ_{l≤t} ln σ(w_h·k_l + b_h) for the keys kb (T, HS) of head h.
  void cumulative(int layer, int h, const float* kb, int T, double* c) const {
    const float *W = ps_.data(w_[layer]) + size_t(h) * HS_, b = ps_.data(b_[layer])[h];
    double acc = 0;
    for (int t = 0; t < T; ++t) acc -= smooth::softplus(-(dot(W, kb + size_t(t) * HS_, HS_) + b)), c[t] = acc;
  }
  ParamStore& ps_;
  int NH_, HS_;
  std::vector<int> w_, b_;  // per layer: w (NH, HS), b (NH)
};

void check_forget(const MakeContext& ctx) {
  if (!ctx.sizes.causal) refuse("position.forget_needs_causal", "causal");
}

// The PyTorch form (common/torch_form.hpp): the running sum in float64, as the engine's.
std::string torch_forget(const MakeContext&, PyFill fill) {
  return fill(R"PY(class Position(PositionBase):
    """Forget gate: s_ij += c_i - c_j, c_t = the sum over l <= t of ln sigmoid(w_h.k_l + b_h) in float64,
    w, b = blocks.{l}.attn.forget.weight (NH, HS), .bias (NH); causal only (core/position/forget.cpp)."""

    def bias(self, m, layer, s, q, k, tau):
        p = lambda name: m.get_parameter(f"blocks.{layer}.attn.forget.{name}")
        z = ((k * p("weight")[:, None, :]).sum(-1) + p("bias")[:, None]).double()  # (B, NH, T)
        c = (-F.softplus(-z)).cumsum(-1)
        return s + (c[..., :, None] - c[..., None, :]).float())PY",
              {});
}
}  // namespace

PositionEntry position_forget() {
  PositionEntry e{"forget",
                  "Forget gate (Forgetting Transformer)",
                  R"(f_t = \sigma(w_h\cdot k_t + b_h),\ s_{ij} = \tau\, q_i\cdot k_j + \sum_{l=j+1}^{i} \ln f_l)",
                  "adds the summed log forget gates of the tokens between key and query to the logits; causal only",
                  "Every token decides, per head, how much the past should fade when it arrives: a gate "
                  "f near 1 keeps old keys, near 0 wipes them. The bias is a learned, data-dependent recency "
                  "penalty (ALiBi when every gate is the same). Here the gate reads the head's key (a linear "
                  "function of the layer input). It acts only on the logits, so with softmax and identical "
                  "tokens the probe stays at 1/n.",
                  false,
                  true,
                  true,
                  {opt_float("forget_bias_init", 3.0, -10.0, 20.0,
                             "initial gate bias b; σ(3) ≈ 0.95 starts the gates near 1 (little forgetting)")},
                  [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<PositionEncoding> {
                    return std::make_unique<Forget>(ctx, ps);
                  }};
  e.check = check_forget;
  e.biases_logits = true;
  e.torch.python = torch_forget;
  return e;
}

}  // namespace ap
