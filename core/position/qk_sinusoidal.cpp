// core/position/qk_sinusoidal.cpp — the TDLM seed's 'layerwise_fixed' (seed 000): one head-sized
// sinusoidal table (FixedAbsolutePositionEmbedding with hidden_size = dim_heads, [sin | cos]
// halves) added to q and to k of every head, after the projections, in every layer:
//   q_{h,t} += P_t,  k_{h,t} += P_t,  P_{t,i} = sin(t ω_i), P_{t,HS/2+i} = cos(t ω_i), ω_i = 10000^(−2i/HS).
// Not to v and not to the block's input (placement=layerwise adds a table to the block's input).
// Positions reach only the logits, so Lemma 1 applies. No parameters; dq, dk pass through.
#include <algorithm>

#include "position/absolute.hpp"
#include "position/position.hpp"

namespace ap {

namespace {

constexpr double kBase = 10000.0;  // the seed's

class QkSinusoidal : public PositionEncoding {
 public:
  explicit QkSinusoidal(const MakeContext& ctx) : HS_(ctx.sizes.head_size()) {}
  bool rotates() const override { return true; }
  void rotate_forward(int, float* q, float* k, const AttnShape& s) override {
    if (T_ != s.T) P_ = sinusoidal_table(s.T, HS_, kBase, true), T_ = s.T;
    add_qk_table(q, P_.data(), s, false);
    add_qk_table(k, P_.data(), s, false);
  }
  // The addition's Jacobian is the identity: dq and dk stay as they are.
  void rotate_backward(int, float*, float*, const AttnShape&) override {}

  nlohmann::json display(int T) const override {
    auto P = sinusoidal_table(T, HS_, kBase, true);
    auto j = table_display(P.data(), T, HS_);
    j["kind"] = "absolute";
    return j;
  }
  nlohmann::json explore(const ExploreQuery& q) const override {
    auto P = sinusoidal_table(q.length, HS_, kBase, true);
    auto j = similarity_by_distance(P.data(), q.length, HS_, std::clamp(q.position, 0, q.length - 1));
    j["kind"] = "absolute";
    j["length"] = q.length;
    j["formula"] =
        R"(\cos(P_p, P_{p+d}) = \frac{2}{HS}\sum_{i < HS/2} \cos(d\,\omega_i),\ P \in \mathbb{R}^{T \times HS} \text{ added to every head's } q, k)";
    j["source"] = "core/position/qk_sinusoidal.cpp · QkSinusoidal::explore → sinusoidal_table (sinusoidal.cpp)";
    return j;
  }

 private:
  int HS_;
  int T_ = -1;
  std::vector<float> P_;
};

// The PyTorch form (common/torch_form.hpp): the seed's forward_fixed on q and k of every head.
const char* const kQkSinusoidalPy = R"PY(class Position(PositionBase):
    """qk_sinusoidal: q, k (B, NH, T, HS) += P[t] in every head and layer, P the head-sized
    [sin | cos] sinusoids, w_i = 10000^(-2i/HS) (core/position/qk_sinusoidal.cpp; TDLM's layerwise_fixed)"""

    def rotate(self, m, layer, q, k):
        T, HS = q.shape[-2], q.shape[-1]
        w = torch.pow(torch.tensor(10000.0, dtype=torch.float64), -2.0 * torch.arange(HS // 2, dtype=torch.float64) / HS)
        a = torch.arange(T, dtype=torch.float64)[:, None] * w
        P = torch.zeros(T, HS, dtype=torch.float64)
        P[:, :HS // 2], P[:, HS // 2:2 * (HS // 2)] = a.sin(), a.cos()
        P = P.float().to(q.device)
        return q + P, k + P)PY";

std::string torch_qk_sinusoidal(const MakeContext&, PyFill fill) { return fill(kQkSinusoidalPy, {}); }

}  // namespace

PositionEntry position_qk_sinusoidal() {
  PositionEntry e{
      "qk_sinusoidal",
      "Sinusoids added to q and k (TDLM's 'layerwise_fixed')",
      R"(q_{h,t} \mathrel{+}= P_t,\ k_{h,t} \mathrel{+}= P_t,\ P_{t,i} = \sin(t\,\omega_i),\ P_{t,HS/2+i} = \cos(t\,\omega_i),\ \omega_i = 10000^{-2i/HS})",
      "added to q and k of every head in every layer, after the projections (one head-sized table)",
      "One fixed head-sized [sin | cos] table, the same for every head and layer, is added to the "
      "queries and keys (not the values, not the block's input), as in the TDLM seed. Positions "
      "then live only in the logits.",
      false,
      true,
      true,
      {},
      [](const MakeContext& ctx, ParamStore&) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<QkSinusoidal>(ctx);
      }};
  e.torch.python = torch_qk_sinusoidal;
  return e;
}

}  // namespace ap
