// core/position/qk_learned.cpp — the TDLM seed's 'layerwise_learnable' (seed 000): one learned
// model-sized table P (max_len, C) (LearnableAbsolutePositionEmbedding with hidden_size =
// d_model), shared by all layers, added to q and to k after the projections in every layer, over
// all heads at once ('b h l d -> b l (h d)'): head h reads columns h·HS..(h+1)·HS of P_t:
//   q_{h,t} += P_{t, h·HS:(h+1)·HS},  k_{h,t} += the same.
// Not to v and not to the block's input (placement=layerwise gives every block its own table at
// its input). Positions reach only the logits (Lemma 1 applies). Backward: dq, dk pass through;
// dP_t += Σ_b Σ_layers (dq + dk)_t. No extrapolation past the table.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "refusal/refusal.hpp"
#include "position/absolute.hpp"
#include "position/position.hpp"

namespace ap {

namespace {

class QkLearned : public PositionEncoding {
 public:
  QkLearned(const MakeContext& ctx, ParamStore& ps) : ps_(ps), len_(ctx.sizes.table_len), C_(ctx.sizes.d_model) {
    id_ = ps.add("qk_pos_emb.weight", {len_, C_}, Init::Normal, 0.02f, false);  // (max_len, C)
  }
  bool rotates() const override { return true; }
  void rotate_forward(int, float* q, float* k, const AttnShape& s) override {
    check_length(s.T);
    add_qk_table(q, ps_.data(id_), s, true);
    add_qk_table(k, ps_.data(id_), s, true);
  }
  void rotate_backward(int, float* dq, float* dk, const AttnShape& s) override {
    add_qk_table_backward(ps_.grad(id_), dq, s, true);
    add_qk_table_backward(ps_.grad(id_), dk, s, true);
  }
  int max_length() const override { return len_; }
  void check_length(int T) const override {
    if (T > len_)
      refuse("position.qk_learned_length", "position", {{"max", std::to_string(len_)}, {"n", std::to_string(T)}});
  }
  nlohmann::json display(int T) const override {
    auto j = table_display(ps_.data(id_), std::min(T, len_), C_);
    j["kind"] = "absolute";
    return j;
  }
  nlohmann::json explore(const ExploreQuery& q) const override {
    const int n = std::min(q.length, len_);
    auto j = similarity_by_distance(ps_.data(id_), n, C_, std::clamp(q.position, 0, n - 1));
    j["kind"] = "absolute";
    j["length"] = n;
    j["formula"] =
        R"(\cos(P_p, P_{p+d}) = \frac{P_p\cdot P_{p+d}}{\|P_p\|\,\|P_{p+d}\|},\quad P \in \mathbb{R}^{L_{\max} \times d} \text{ added to } q, k)";
    j["source"] = "core/position/qk_learned.cpp · QkLearned::explore → similarity_by_distance (explore.cpp)";
    return j;
  }

 private:
  ParamStore& ps_;
  int len_, C_, id_;
};

// The PyTorch form (common/torch_form.hpp): the seed's LearnableAbsolutePositionEmbedding on 4-D q, k.
const char* const kQkLearnedPy = R"PY(class Position(PositionBase):
    """qk_learned: q, k (B, NH, T, HS) += P[t] split over the heads, P (max_len, C) one learned
    table for every layer (core/position/qk_learned.cpp; TDLM's layerwise_learnable)"""

    def rotate(self, m, layer, q, k):
        B, NH, T, HS = q.shape
        P = m.get_parameter("qk_pos_emb.weight")
        if T > P.shape[0]:
            raise ValueError(f"learned positions exist up to length {P.shape[0]}, not {T}")
        P = P[:T].view(T, NH, HS).transpose(0, 1)
        return q + P, k + P)PY";

std::string torch_qk_learned(const MakeContext&, PyFill fill) { return fill(kQkLearnedPy, {}); }

}  // namespace

PositionEntry position_qk_learned() {
  PositionEntry e{
      "qk_learned",
      "Learned positions added to q and k (TDLM's 'layerwise_learnable')",
      R"(q_{h,t} \mathrel{+}= P_{t,\,h},\ k_{h,t} \mathrel{+}= P_{t,\,h},\ P \in \mathbb{R}^{L_{\max} \times d} \text{ (one table, all layers)})",
      "added to q and k of every head in every layer, after the projections (one model-sized table)",
      "One trained table as wide as the model, shared by every layer, is added to the queries and "
      "keys (head h takes its slice), not the values and not the block's input, as in the TDLM "
      "seed. Positions then live only in the logits; no extrapolation past the table.",
      false,
      true,
      false,
      {},
      [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<QkLearned>(ctx, ps);
      }};
  e.torch.python = torch_qk_learned;
  return e;
}

}  // namespace ap
