// core/position/learned.cpp — learned absolute positions (BERT/GPT-2): h⁰_p = E[t_p] + P[p],
// P of shape (max_len, C), trained. Placement "embed" adds one table at the embedding,
// "layerwise" gives every block its own table added at the block's input (not TDLM's
// 'layerwise_learnable', which adds one shared table to q and k: qk_learned.cpp). No
// extrapolation: P[p] does not exist for p ≥ max_len.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "refusal/refusal.hpp"
#include "position/absolute.hpp"
#include "position/position.hpp"

namespace ap {

namespace {
class Learned : public PositionEncoding {
 public:
  Learned(const MakeContext& ctx, ParamStore& ps) : ps_(ps), len_(ctx.sizes.table_len), C_(ctx.sizes.d_model) {
    if (ctx.sizes.layerwise) {
      for (int l = 0; l < ctx.sizes.layers; ++l)
        ids_.push_back(
            ps.add("blocks." + std::to_string(l) + ".pos_emb.weight", {len_, C_}, Init::Normal, 0.02f, false));
    } else {
      ids_.push_back(ps.add("pos_emb.weight", {len_, C_}, Init::Normal, 0.02f, false));
    }
    layerwise_ = ctx.sizes.layerwise;
  }
  bool adds() const override { return true; }
  void add_forward(int layer, float* x, int B, int T, int C) override {
    check_length(T);
    add_table(x, ps_.data(id(layer)), B, T, C);
  }
  void add_backward(int layer, const float* dx, int B, int T, int C) override {
    add_table_backward(ps_.grad(id(layer)), dx, B, T, C);
  }
  int max_length() const override { return len_; }
  nlohmann::json display(int T) const override {
    int n = std::min(T, len_);
    auto j = table_display(ps_.data(ids_[0]), n, C_);
    j["kind"] = "absolute";
    return j;
  }
  // Similarity of the learned vectors against distance (the session adds the same at init).
  nlohmann::json explore(const ExploreQuery& q) const override {
    const int n = std::min(q.length, len_);
    const int id = layerwise_ ? ids_[std::clamp(q.layer, 0, int(ids_.size()) - 1)] : ids_[0];
    auto j = similarity_by_distance(ps_.data(id), n, C_, std::clamp(q.position, 0, n - 1));
    j["kind"] = "absolute";
    j["length"] = n;
    j["formula"] =
        R"(\cos(P_p, P_{p+d}) = \frac{P_p\cdot P_{p+d}}{\|P_p\|\,\|P_{p+d}\|},\quad P \in \mathbb{R}^{L_{\max} \times d})";
    j["source"] = "core/position/learned.cpp · Learned::explore → similarity_by_distance (explore.cpp)";
    return j;
  }

  void check_length(int T) const override {
    if (T > len_)
      refuse("position.learned_length", "position", {{"max", std::to_string(len_)}, {"n", std::to_string(T)}});
  }

 private:
  int id(int layer) const { return layerwise_ ? ids_[layer] : ids_[0]; }
  ParamStore& ps_;
  int len_, C_;
  bool layerwise_ = false;
  std::vector<int> ids_;
};
}  // namespace

// The PyTorch form (common/torch_form.hpp); randomized.cpp's wrap of learned uses it too. The
// table is added at the embedding (layer -1), or at every block's input (layerwise).
const char* const kLearnedPy = R"PY(class Position(PositionBase):  # learned: x += P[t] (core/position/learned.cpp)
    LAYERWISE = ${layerwise}

    def add(self, m, layer, x):
        if (layer >= 0) != self.LAYERWISE:
            return x
        P = m.get_parameter(f"blocks.{layer}.pos_emb.weight" if self.LAYERWISE else "pos_emb.weight")
        if x.shape[1] > P.shape[0]:
            raise ValueError(f"learned positions exist up to length {P.shape[0]}, not {x.shape[1]}")
        return x + P[:x.shape[1]])PY";

namespace {
std::string torch_learned(const MakeContext& ctx, PyFill fill) {
  return fill(kLearnedPy, {{"layerwise", ctx.sizes.layerwise}});
}
}  // namespace

PositionEntry position_learned() {
  PositionEntry e{"learned",
                  "Learned absolute positions",
                  R"(h^0_p = E[t_p] + P_p,\quad P \in \mathbb{R}^{L_{\max} \times d})",
                  "added to the token embedding (or to every block's input when layerwise)",
                  "Each position has its own trained vector. It can represent any position pattern, "
                  "but positions beyond the table do not exist, so it cannot extrapolate.",
                  true,
                  false,
                  false,
                  {},
                  [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<PositionEncoding> {
                    return std::make_unique<Learned>(ctx, ps);
                  }};
  e.torch.python = torch_learned;
  return e;
}

}  // namespace ap
