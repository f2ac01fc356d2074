// core/position/scaled_sinusoidal.cpp — sinusoidal absolute positions times one learned scalar
// (x-transformers ScaledSinusoidalEmbedding, used with `scaled_sinu_pos_emb = True`):
//   h⁰_p = E[t_p] + g · PE_p,  PE_p = [sin(p ω_i) | cos(p ω_i)],  ω_i = 10000^(−2i/C),  i < C/2
// the [sin | cos] halves layout of x-transformers (sinusoidal_table with concat), g initialised to
// C^(−1/2). The scale lets the model choose how loud position is against the token embedding
// (at init a position vector has norm √(C/2)·C^(−1/2) ≈ 0.71, the plain sinusoids √(C/2)).
// Parameters: "pos_emb.scale" (1), x-transformers' name; placement layerwise gives every block
// its own "blocks.{l}.pos_emb.scale", added at the block's input. No weight decay (a gain).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "position/absolute.hpp"
#include "position/position.hpp"

namespace ap {

namespace {

class ScaledSinusoidal : public PositionEncoding {
 public:
  ScaledSinusoidal(const MakeContext& ctx, ParamStore& ps) : ps_(ps), C_(ctx.sizes.d_model) {
    const float g0 = 1.0f / std::sqrt(float(C_));
    if (ctx.sizes.layerwise) {
      for (int l = 0; l < ctx.sizes.layers; ++l)
        ids_.push_back(ps.add("blocks." + std::to_string(l) + ".pos_emb.scale", {1}, Init::Constant, g0, false));
    } else {
      ids_.push_back(ps.add("pos_emb.scale", {1}, Init::Constant, g0, false));
    }
  }

  bool adds() const override { return true; }
  // x(B,T,C) += g · PE(T,C).
  void add_forward(int layer, float* x, int B, int T, int C) override {
    const float* P = table(T);
    const float g = ps_.data(id(layer))[0];
    for (int b = 0; b < B; ++b)
      for (size_t i = 0; i < size_t(T) * C; ++i) x[size_t(b) * T * C + i] += g * P[i];
  }
  // dg += Σ_{b,p,c} dx · PE.
  void add_backward(int layer, const float* dx, int B, int T, int C) override {
    const float* P = table(T);
    double dg = 0;
    for (int b = 0; b < B; ++b)
      for (size_t i = 0; i < size_t(T) * C; ++i) dg += double(dx[size_t(b) * T * C + i]) * P[i];
    ps_.grad(id(layer))[0] += float(dg);
  }

  nlohmann::json display(int T) const override {
    auto P = sinusoidal_table(T, C_, 10000.0, true);
    const float g = ps_.data(ids_[0])[0];
    for (auto& v : P) v *= g;
    auto j = table_display(P.data(), T, C_);
    j["kind"] = "absolute";
    j["scale"] = g;
    return j;
  }
  // Similarity of position vectors against distance: the scale cancels in the cosine, so the
  // curve is the sinusoids'; the view also reports the learned scale of the asked layer.
  nlohmann::json explore(const ExploreQuery& q) const override {
    auto P = sinusoidal_table(q.length, C_, 10000.0, true);
    auto j = similarity_by_distance(P.data(), q.length, C_, std::clamp(q.position, 0, q.length - 1));
    j["kind"] = "absolute";
    j["length"] = q.length;
    j["scale"] = ps_.data(ids_[std::clamp(q.layer, 0, int(ids_.size()) - 1)])[0];
    j["formula"] =
        R"(\cos(g\,PE_p, g\,PE_{p+d}) = \frac{2}{C}\sum_{i < C/2} \cos(d\,\omega_i),\quad g \text{ learned, init } C^{-1/2})";
    j["source"] =
        "core/position/scaled_sinusoidal.cpp · ScaledSinusoidal::explore → sinusoidal_table; similarity_by_distance "
        "(explore.cpp)";
    return j;
  }

 private:
  int id(int layer) const { return layer < 0 ? ids_[0] : ids_[std::min<size_t>(layer, ids_.size() - 1)]; }
  const float* table(int T) {
    if (T_ != T) P_ = sinusoidal_table(T, C_, 10000.0, true), T_ = T;
    return P_.data();
  }
  ParamStore& ps_;
  int C_;
  std::vector<int> ids_;  // one scale (embed) or one per block (layerwise)
  int T_ = -1;
  std::vector<float> P_;  // (T, C) unscaled, cached per T
};

// The PyTorch form (common/torch_form.hpp): sinusoidal.cpp's, [sin | cos] at base 10^4, times g.
std::string torch_scaled_sinusoidal(const MakeContext& ctx, PyFill fill) {
  return fill(kSinusoidsPy, {{"entry", "scaled_sinusoidal"},
                             {"formula", "g [sin | cos]"},
                             {"layerwise", ctx.sizes.layerwise},
                             {"base", 10000.0},
                             {"concat", true},
                             {"table",
                              "m.get_parameter(f\"blocks.{layer}.pos_emb.scale\" if self.LAYERWISE else "
                              "\"pos_emb.scale\") * P"}});
}
}  // namespace

PositionEntry position_scaled_sinusoidal() {
  PositionEntry e{
      "scaled_sinusoidal",
      "Scaled sinusoidal positions",
      R"(h^0_p = E[t_p] + g\,PE_p,\ PE_p = [\sin(p\,\omega_i) \mid \cos(p\,\omega_i)],\ g\ \text{learned, init}\ d^{-1/2})",
      "added to the token embedding (or to every block's input when layerwise), times a learned scale",
      "The fixed sinusoids of the original Transformer, multiplied by one learned number, so the "
      "model decides how strongly position competes with the token embedding. Like the plain "
      "sinusoids it is defined at every position but degrades beyond the training length.",
      true,
      false,
      true,
      {},
      [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<ScaledSinusoidal>(ctx, ps);
      }};
  e.torch.python = torch_scaled_sinusoidal;
  return e;
}

}  // namespace ap
