// core/position/rope_embed.cpp — RoPE at the embedding: the TDLM seed's embedding-level 'rope'
// (seed 000, FixedAbsolutePositionEmbedding.forward_rope with rotate_every_two). The embedded
// tokens themselves turn, before the first block, every pair of model dims (2i, 2i+1):
//   x̃_{t,2i} = x_{t,2i} cos tθ_i − x_{t,2i+1} sin tθ_i,  x̃_{t,2i+1} = x_{t,2i+1} cos tθ_i + x_{t,2i} sin tθ_i,
//   θ_i = base^(−2i/C) over the model width C (the seed: hidden_size = d_model, base 10000).
// Our `rope` turns q and k of every head in every layer instead (the seed's 'layerwise_rope').
// Placement layerwise turns every block's input the same way (not in the seed). No parameters;
// backward turns dx back, x = R(−tθ) x̃ (the rotation is orthogonal; reference §1.3).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "refusal/refusal.hpp"
#include "position/absolute.hpp"
#include "position/position.hpp"
#include "position/rotary.hpp"

namespace ap {

namespace {

class RopeEmbed : public PositionEncoding {
 public:
  explicit RopeEmbed(const MakeContext& ctx)
      : C_(ctx.sizes.d_model), theta_(rope_thetas(C_, ctx.options.number("rope_embed_base"))) {}

  bool maps() const override { return true; }
  void map_forward(int, float* x, int B, int T, int C) override { turn(x, B, T, C, false); }
  void map_backward(int, float* dx, int B, int T, int C) override { turn(dx, B, T, C, true); }

  // Rotation angles tθ_i, and the all-ones token turned to every position: its matrix and the
  // cosine similarity of positions, (2/C) Σ_i cos((m − n)θ_i).
  nlohmann::json display(int T) const override {
    std::vector<std::vector<float>> angles(T, std::vector<float>(theta_.size()));
    for (int t = 0; t < T; ++t)
      for (size_t i = 0; i < theta_.size(); ++i) angles[t][i] = float(t * theta_[i]);
    auto ones = turned_ones(T);
    auto j = table_display(ones.data(), T, C_);
    j["kind"] = "absolute";
    j["theta"] = theta_;
    j["angles"] = angles;
    return j;
  }
  nlohmann::json explore(const ExploreQuery& q) const override {
    auto ones = turned_ones(q.length);
    auto j = similarity_by_distance(ones.data(), q.length, C_, std::clamp(q.position, 0, q.length - 1));
    j["kind"] = "absolute";
    j["length"] = q.length;
    j["formula"] =
        R"(\cos(R_p\mathbf{1}, R_{p+d}\mathbf{1}) = \frac{2}{C}\sum_{i < C/2} \cos(d\,\theta_i),\ \theta_i = b^{-2i/C})";
    j["source"] = "core/position/rope_embed.cpp · RopeEmbed::explore → rope_tables, rope_apply (rotary.cpp)";
    return j;
  }

 private:
  // x (B, T, C) turned in place: rope_apply with one "head" as wide as the model.
  void turn(float* x, int B, int T, int C, bool inverse) {
    if (T_ != T) rope_tables(cos_, sin_, T, theta_, 1.0), T_ = T;
    rope_apply(x, B, T, C, C, false, cos_.data(), sin_.data(), nullptr, inverse);
  }
  std::vector<float> turned_ones(int T) const {
    std::vector<float> P(size_t(T) * C_, 1.0f), c, s;
    rope_tables(c, s, T, theta_, 1.0);
    rope_apply(P.data(), 1, T, C_, C_, false, c.data(), s.data(), nullptr, false);
    return P;
  }
  int C_;
  std::vector<double> theta_;
  int T_ = -1;
  std::vector<float> cos_, sin_;
};

void check_rope_embed(const MakeContext& ctx) {
  if (ctx.sizes.d_model % 2 != 0)
    refuse("position.rope_embed_odd", "d_model", {{"d_model", std::to_string(ctx.sizes.d_model)}});
}

// The PyTorch form (common/torch_form.hpp): the seed's forward_rope, x·cos + rotate_every_two(x)·sin,
// at the embedding (layer −1) or at every block's input (layerwise).
const char* const kRopeEmbedPy = R"PY(class Position(PositionBase):
    """rope_embed: the stream x (B, T, C) turned pair by pair, (x_2i, x_2i+1) at position t ->
    (x_2i cos t th_i - x_2i+1 sin t th_i, x_2i+1 cos + x_2i sin), th_i = BASE^(-2i/C)
    (core/position/rope_embed.cpp; TDLM's forward_rope with rotate_every_two)"""
    LAYERWISE, BASE = ${layerwise}, ${base}

    def add(self, m, layer, x):
        if (layer >= 0) != self.LAYERWISE:
            return x
        T, C = x.shape[1], x.shape[2]
        theta = torch.pow(torch.tensor(self.BASE, dtype=torch.float64), -2.0 * torch.arange(C // 2, dtype=torch.float64) / C)
        angle = torch.arange(T, dtype=torch.float64)[:, None] * theta
        cos, sin = angle.cos().float().to(x.device), angle.sin().float().to(x.device)
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack([a * cos - b * sin, b * cos + a * sin], -1).flatten(-2))PY";

std::string torch_rope_embed(const MakeContext& ctx, PyFill fill) {
  return fill(kRopeEmbedPy, {{"layerwise", ctx.sizes.layerwise}, {"base", ctx.options.number("rope_embed_base")}});
}

}  // namespace

PositionEntry position_rope_embed() {
  PositionEntry e{
      "rope_embed",
      "RoPE at the embedding (TDLM's 'rope')",
      R"(\tilde x_{t} = R_{t\theta}\, x_t,\ (x_{2i}, x_{2i+1}) \mapsto (x_{2i}\cos t\theta_i - x_{2i+1}\sin t\theta_i,\ x_{2i+1}\cos t\theta_i + x_{2i}\sin t\theta_i),\ \theta_i = b^{-2i/d})",
      "rotates the token embedding (or every block's input when layerwise), pairs of model dims",
      "The embedded tokens themselves turn by an angle proportional to their position, once, "
      "before the first block: the TDLM seed's embedding-level RoPE. Unlike rope, the blocks' "
      "projections see turned vectors, so q·k is not a function of distance alone.",
      true,
      false,
      true,
      {opt_float("rope_embed_base", 10000.0, 2.0, 1e9, "base of the frequencies θ_i = base^(−2i/d_model)")},
      [](const MakeContext& ctx, ParamStore&) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<RopeEmbed>(ctx);
      }};
  e.check = check_rope_embed;
  e.torch.python = torch_rope_embed;
  return e;
}

}  // namespace ap
