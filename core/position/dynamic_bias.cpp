// core/position/dynamic_bias.cpp — dynamic position bias: a small MLP of the (log-scaled) relative
// distance gives one logit bias per head (x-transformers DynamicPositionBias with
// log_distance = True, depth 2; SwinV2's continuous position bias in one dimension):
//   u(d) = sign(d) · ln(1 + |d|)   (signed, d = i − j, query − key)   or ln(1 + |d|)   (absolute)
//   b_h(i, j) = W3 · silu(W2 · silu(W1 u + b1) + b2) + b3,   silu(x) = x · σ(x)
// The bias depends on the distance only (one MLP evaluation per distance, 2T − 1 per call); FIRE
// instead divides the log distance by a log of the query position. Causal models see d ≥ 0 only,
// where signed and absolute agree.
// Parameters SHARED by all layers (x-transformers computes it once per forward), nn.Linear
// layouts: "dynamic_bias.mlp.0.0.weight" (H, 1), "….0.0.bias" (H), "….1.0.weight" (H, H),
// "….1.0.bias" (H), "dynamic_bias.mlp.2.weight" (NH, H), "….2.bias" (NH): x-transformers' names
// under `rel_pos.` (its ModuleList of Sequential(Linear, SiLU), then the Linear to heads).
// Init: N(0, 1/√(3·fan_in)), the standard deviation of PyTorch's default U(±1/√fan_in), for
// weights and biases alike.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "position/position.hpp"
#include "position/relative.hpp"

namespace ap {

namespace {

double sigm(double x) { return 1.0 / (1.0 + std::exp(-x)); }

class DynamicBias : public PositionEncoding {
 public:
  DynamicBias(const MakeContext& ctx, ParamStore& ps)
      : ps_(ps),
        NH_(ctx.sizes.heads),
        H_(ctx.options.integer("dynamic_bias_hidden")),
        signed_(ctx.options.text("dynamic_bias_distance") == "signed"),
        causal_(ctx.sizes.causal) {
    const float s1 = 1.0f / std::sqrt(3.0f), sH = 1.0f / std::sqrt(3.0f * H_);
    w1_ = ps.add("dynamic_bias.mlp.0.0.weight", {H_, 1}, Init::Normal, s1, true);
    b1_ = ps.add("dynamic_bias.mlp.0.0.bias", {H_}, Init::Normal, s1, false);
    w2_ = ps.add("dynamic_bias.mlp.1.0.weight", {H_, H_}, Init::Normal, sH, true);
    b2_ = ps.add("dynamic_bias.mlp.1.0.bias", {H_}, Init::Normal, sH, false);
    w3_ = ps.add("dynamic_bias.mlp.2.weight", {NH_, H_}, Init::Normal, sH, true);
    b3_ = ps.add("dynamic_bias.mlp.2.bias", {NH_}, Init::Normal, sH, false);
  }

  bool biases() const override { return true; }
  void bias_forward(int, float* logits, const float*, const float*, const AttnShape& s) override {
    const int T = s.T;
    const std::vector<float> prof = profile(T);  // (2T − 1, NH), row d + T − 1
    for (int b = 0; b < s.B; ++b)
      for (int h = 0; h < s.NH; ++h) {
        float* L = logits + (size_t(b) * s.NH + h) * T * T;
        for (int i = 0; i < T; ++i)
          for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j)
            L[size_t(i) * T + j] += prof[size_t(i - j + T - 1) * NH_ + h];
      }
  }
  void bias_backward(int, const float* ds, const float*, const float*, float*, float*, const AttnShape& s) override {
    const int T = s.T;
    std::vector<float> G(size_t(2 * T - 1) * NH_, 0.0f);  // Σ ∂L/∂s over the pairs at each d
    for (int b = 0; b < s.B; ++b)
      for (int h = 0; h < s.NH; ++h) {
        const float* D = ds + (size_t(b) * s.NH + h) * T * T;
        for (int i = 0; i < T; ++i)
          for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j)
            G[size_t(i - j + T - 1) * NH_ + h] += D[size_t(i) * T + j];
      }
    const float *W2 = ps_.data(w2_), *W3 = ps_.data(w3_);
    float *dW1 = ps_.grad(w1_), *dB1 = ps_.grad(b1_), *dW2 = ps_.grad(w2_), *dB2 = ps_.grad(b2_);
    float *dW3 = ps_.grad(w3_), *dB3 = ps_.grad(b3_);
    std::vector<float> a1(H_), z1(H_), a2(H_), z2(H_), dz2(H_), dz1(H_);
    for (int x = 0; x < 2 * T - 1; ++x) {
      const float* g = &G[size_t(x) * NH_];
      const float u = input(x - (T - 1));
      hidden(u, z1.data(), a1.data(), z2.data(), a2.data());
      // out = W3 a2 + b3;  a2 = silu(z2), z2 = W2 a1 + b2;  a1 = silu(z1), z1 = W1 u + b1.
      std::fill(dz2.begin(), dz2.end(), 0.0f);
      for (int h = 0; h < NH_; ++h) {
        dB3[h] += g[h];
        for (int k = 0; k < H_; ++k) dW3[h * H_ + k] += g[h] * a2[k], dz2[k] += g[h] * W3[h * H_ + k];
      }
      std::fill(dz1.begin(), dz1.end(), 0.0f);
      for (int k = 0; k < H_; ++k) {
        dz2[k] *= dsilu(z2[k]);
        dB2[k] += dz2[k];
        for (int m = 0; m < H_; ++m) dW2[k * H_ + m] += dz2[k] * a1[m], dz1[m] += dz2[k] * W2[k * H_ + m];
      }
      for (int m = 0; m < H_; ++m) {
        dz1[m] *= dsilu(z1[m]);
        dB1[m] += dz1[m], dW1[m] += dz1[m] * u;
      }
    }
  }

  nlohmann::json display(int T) const override {
    const std::vector<float> prof = profile(T);
    nlohmann::json heads = nlohmann::json::array();
    std::vector<float> m(size_t(T) * T);
    for (int h = 0; h < NH_; ++h) {
      for (int i = 0; i < T; ++i)
        for (int j = 0; j < T; ++j) m[size_t(i) * T + j] = prof[size_t(i - j + T - 1) * NH_ + h];
      heads.push_back(as_matrix(m.data(), T, T));
    }
    return {{"kind", "bias"}, {"distance_input", signed_ ? "signed" : "absolute"}, {"bias", heads}};
  }

  // The MLP's bias against distance per head (a Toeplitz bias: the same on every row).
  nlohmann::json explore(const ExploreQuery& q) const override {
    std::vector<float> out(NH_);
    nlohmann::json j = sample_by_distance(NH_, q.length, causal_, [&](int h, int i, int k) {
      mlp(input(i - k), out.data());
      return out[h];
    });
    j["kind"] = "bias";
    j["quantity"] = "bias";
    j["formula"] =
        signed_
            ? R"(b_h(d) = \mathrm{MLP}_\theta\big(\mathrm{sign}(d)\ln(1 + |d|)\big)_h,\ \text{MLP: } 1 \to H \to H \to N_H,\ \mathrm{SiLU})"
            : R"(b_h(d) = \mathrm{MLP}_\theta\big(\ln(1 + |d|)\big)_h,\ \text{MLP: } 1 \to H \to H \to N_H,\ \mathrm{SiLU})";
    j["source"] = "core/position/dynamic_bias.cpp · DynamicBias::explore → DynamicBias::input, DynamicBias::mlp";
    return j;
  }

 private:
  static float silu(float z) { return float(z * sigm(z)); }
  static float dsilu(float z) {
    const double s = sigm(z);
    return float(s * (1 + z * (1 - s)));
  }
  float input(int d) const {
    const float u = std::log1p(float(std::abs(d)));
    return signed_ && d < 0 ? -u : u;
  }
  // The two hidden layers at input u: pre-activations z and activations a.
  void hidden(float u, float* z1, float* a1, float* z2, float* a2) const {
    const float *W1 = ps_.data(w1_), *B1 = ps_.data(b1_), *W2 = ps_.data(w2_), *B2 = ps_.data(b2_);
    for (int k = 0; k < H_; ++k) z1[k] = W1[k] * u + B1[k], a1[k] = silu(z1[k]);
    for (int k = 0; k < H_; ++k) {
      float z = B2[k];
      for (int m = 0; m < H_; ++m) z += W2[k * H_ + m] * a1[m];
      z2[k] = z, a2[k] = silu(z);
    }
  }
  // out (NH) = the MLP at input u.
  void mlp(float u, float* out) const {
    std::vector<float> z1(H_), a1(H_), z2(H_), a2(H_);
    hidden(u, z1.data(), a1.data(), z2.data(), a2.data());
    const float *W3 = ps_.data(w3_), *B3 = ps_.data(b3_);
    for (int h = 0; h < NH_; ++h) {
      float o = B3[h];
      for (int k = 0; k < H_; ++k) o += W3[h * H_ + k] * a2[k];
      out[h] = o;
    }
  }
  // (2T − 1, NH): the bias of every distance d = −(T−1)..T−1 at row d + T − 1.
  std::vector<float> profile(int T) const {
    std::vector<float> prof(size_t(2 * T - 1) * NH_);
    for (int x = 0; x < 2 * T - 1; ++x) mlp(input(x - (T - 1)), &prof[size_t(x) * NH_]);
    return prof;
  }
  ParamStore& ps_;
  int NH_, H_;
  bool signed_, causal_;
  int w1_, b1_, w2_, b2_, w3_, b3_;
};

// The PyTorch form (common/torch_form.hpp).
const char* const kDynamicBiasPy = R"PY(class Position(PositionBase):
    """s += MLP(u)_h, u = sign(i - j) ln(1 + |i - j|) (SIGNED) or ln(1 + |i - j|), MLP 1 -> H -> H -> NH
    with SiLU, shared by all layers (core/position/dynamic_bias.cpp)."""
    SIGNED = ${signed}

    def bias(self, m, layer, s, q, k, tau):
        pos = torch.arange(s.shape[-1])
        d = pos[:, None] - pos[None, :]
        u = torch.log1p(d.abs().float())
        if self.SIGNED:
            u = torch.where(d < 0, -u, u)
        p = lambda name: m.get_parameter("dynamic_bias.mlp." + name)
        h = F.silu(u[..., None] * p("0.0.weight")[:, 0] + p("0.0.bias"))
        h = F.silu(F.linear(h, p("1.0.weight"), p("1.0.bias")))
        return s + F.linear(h, p("2.weight"), p("2.bias")).permute(2, 0, 1))PY";

std::string torch_dynamic_bias(const MakeContext& ctx, PyFill fill) {
  return fill(kDynamicBiasPy, {{"signed", ctx.options.text("dynamic_bias_distance") != "absolute"}});
}
}  // namespace

PositionEntry position_dynamic_bias() {
  PositionEntry e{"dynamic_bias",
                  "Dynamic position bias (MLP of log distance)",
                  R"(s_{ij} = \tau\, q_i\cdot k_j + \mathrm{MLP}_\theta\big(\mathrm{sign}(i-j)\ln(1 + |i-j|)\big)_h)",
                  "adds an MLP-computed bias per distance and head to the logits; one MLP shared by all layers",
                  "A small network (two hidden SiLU layers) maps the log-scaled distance to a bias per head, "
                  "so it can learn any smooth distance profile and, because the input is a continuous log "
                  "distance, give a value at distances it never saw. Unlike FIRE, the distance is not divided "
                  "by the query's position. Acts only on the logits.",
                  false,
                  true,
                  true,
                  {opt_int("dynamic_bias_hidden", 32, 1, 256, "hidden units of each of the MLP's two hidden layers"),
                   opt_enum("dynamic_bias_distance", "signed", {"signed", "absolute"},
                            "MLP input: sign(i−j)·ln(1+|i−j|) (left and right differ) or ln(1+|i−j|) (symmetric)")},
                  [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<PositionEncoding> {
                    return std::make_unique<DynamicBias>(ctx, ps);
                  }};
  e.biases_logits = true;
  e.torch.python = torch_dynamic_bias;
  return e;
}

}  // namespace ap
