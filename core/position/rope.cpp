// core/position/rope.cpp — rotary position embedding (Su et al., RoFormer §3.4): q and k of every
// head are rotated in every layer by an angle proportional to their position, so that
// q̃_m·k̃_n depends on m − n only. No parameters. Owns the rope_* options:
//   rope_layout   interleaved (default; the TDLM seed's rotate_every_two, bert4keras, GPT-J) |
//                 half (GPT-NeoX/LLaMA rotate_half); same model family, different pairing
//   rope_base     θ_i = base^(−2i/d_rot)            (10000; small bases rotate more at toy lengths)
//   rope_fraction d_rot = 2⌊fraction·HS/2⌋ dims rotate, the rest pass through (partial rotary)
//   rope_scaling  none | pi | ntk | yarn, with rope_factor s — context extension, applied only at
//                 evaluation (AttnShape::training = false) and only when T exceeds the training
//                 length (seq_len + anchors), so evaluation at the training length is unchanged.
//   rope_train_len  L0 > 0: the length the scaling extends from, instead of the training length, and
//                 the scaling then applies in training too when T > L0: a model trained at L0 and
//                 fine-tuned at a longer seq_len with PI (train --resume --set seq_len=… rope_scaling=pi
//                 rope_train_len=L0) trains on the interpolated positions it will be evaluated on.
// Backward: the rotation is orthogonal (times YaRN's mscale), so dq = mscale·R(−mθ)·dq̃.
#include <cmath>
#include <stdexcept>
#include <string>

#include "refusal/refusal.hpp"
#include "position/position.hpp"
#include "position/rotary.hpp"

namespace ap {

namespace {

int rope_dims(const MakeContext& ctx) {
  const int HS = ctx.sizes.d_model / ctx.sizes.heads;
  return 2 * int(std::floor(ctx.options.number("rope_fraction") * HS / 2 + 1e-9));
}

class Rope : public PositionEncoding {
 public:
  explicit Rope(const MakeContext& ctx)
      : HS_(ctx.sizes.d_model / ctx.sizes.heads),
        d_rot_(rope_dims(ctx)),
        half_(ctx.options.text("rope_layout") == "half"),
        base_(ctx.options.number("rope_base")),
        kind_(rope_scaling_from(ctx.options.text("rope_scaling"))),
        factor_(ctx.options.number("rope_factor")),
        tuned_(ctx.options.number("rope_train_len") > 0),
        train_len_(tuned_ ? int(ctx.options.number("rope_train_len")) : ctx.sizes.model_len),
        plain_(rope_scale(d_rot_, base_, RopeScaling::None, 1.0, train_len_)),
        scaled_(rope_scale(d_rot_, base_, kind_, factor_, train_len_)) {}

  bool rotates() const override { return true; }
  void rotate_forward(int, float* q, float* k, const AttnShape& s) override { apply(q, k, s, false); }
  void rotate_backward(int, float* dq, float* dk, const AttnShape& s) override { apply(dq, dk, s, true); }

  nlohmann::json display(int T) const override {
    const int half = d_rot_ / 2;
    std::vector<std::vector<float>> angles(T, std::vector<float>(half));
    std::vector<std::vector<float>> sim(T, std::vector<float>(T)), sim_scaled(T, std::vector<float>(T));
    std::vector<double> wavelengths;
    for (double t : plain_.theta) wavelengths.push_back(2 * 3.14159265358979323846 / t);
    for (int m = 0; m < T; ++m)
      for (int i = 0; i < half; ++i) angles[m][i] = float(m * plain_.theta[i]);
    // Position similarity: the score of q = k = all-ones at distance m − n, normalized,
    // r(m−n) = (1/(d/2)) Σ_i cos((m−n)θ_i) (RoFormer's long-range decay, reference §7.6).
    for (int m = 0; m < T; ++m)
      for (int n = 0; n < T; ++n) {
        double a = 0, b = 0;
        for (int i = 0; i < half; ++i)
          a += std::cos((m - n) * plain_.theta[i]), b += std::cos((m - n) * scaled_.theta[i]);
        sim[m][n] = float(a / std::max(half, 1));
        sim_scaled[m][n] = float(scaled_.mscale * scaled_.mscale * b / std::max(half, 1));
      }
    // The long-range decay itself, as a curve: r(d) for d = 0 … T−1 (the similarity's first row).
    std::vector<float> decay(sim.empty() ? std::vector<float>{} : sim[0]);
    nlohmann::json j{{"kind", "rotary"},      {"rotated_dims", d_rot_},
                     {"head_size", HS_},      {"layout", half_ ? "half" : "interleaved"},
                     {"theta", plain_.theta}, {"wavelengths", wavelengths},
                     {"angles", angles},      {"similarity", sim},
                     {"decay", decay}};
    if (kind_ != RopeScaling::None) {
      std::vector<double> ratio;
      for (int i = 0; i < half; ++i) ratio.push_back(scaled_.theta[i] / plain_.theta[i]);
      j["scaling"] = {{"factor", factor_},        {"theta", scaled_.theta}, {"ratio", ratio},
                      {"mscale", scaled_.mscale}, {"base", scaled_.base},   {"applies_above", train_len_},
                      {"similarity", sim_scaled}};
    }
    return j;
  }

  // Score against distance for the probes, unscaled and under the query's scaling (whatever this
  // model's own rope_scaling is: the view compares).
  nlohmann::json explore(const ExploreQuery& q) const override {
    nlohmann::json j = rotary_explore({HS_, d_rot_, half_, base_, train_len_, 0.0}, q);
    j["formula"] =
        R"(s(d) = \tilde q_d^{\top} \tilde k_0 = \sum_i (q_a k_a + q_b k_b)\cos d\theta_i + (q_a k_b - q_b k_a)\sin d\theta_i,\ \theta_i = b^{-2i/d_{rot}})";
    j["source"] =
        "core/position/rope.cpp · Rope::explore → rotary_explore (rotary_explore.cpp) → rope_scale, rope_tables, "
        "rope_apply (rotary.cpp)";
    return j;
  }

 private:
  void apply(float* q, float* k, const AttnShape& s, bool inverse) {
    const bool scaled = (tuned_ || !s.training) && kind_ != RopeScaling::None && s.T > train_len_;
    Cache& c = scaled ? scaled_cache_ : plain_cache_;
    if (c.T != s.T) {
      const ScaledThetas& th = scaled ? scaled_ : plain_;
      rope_tables(c.cos, c.sin, s.T, th.theta, th.mscale);
      c.T = s.T;
    }
    const int rows = s.B * s.NH;
    rope_apply(q, rows, s.T, s.HS, d_rot_, half_, c.cos.data(), c.sin.data(), nullptr, inverse);
    rope_apply(k, rows, s.T, s.HS, d_rot_, half_, c.cos.data(), c.sin.data(), nullptr, inverse);
  }
  struct Cache {
    int T = -1;
    std::vector<float> cos, sin;
  };
  int HS_, d_rot_;
  bool half_;
  double base_;
  RopeScaling kind_;
  double factor_;
  bool tuned_;  // rope_train_len set: scaling applies in training too
  int train_len_;
  ScaledThetas plain_, scaled_;
  Cache plain_cache_, scaled_cache_;
};

void check_rope(const MakeContext& ctx) {
  const int HS = ctx.sizes.d_model / ctx.sizes.heads, d = rope_dims(ctx);
  if (HS % 2 != 0)
    refuse("position.rope_odd_head", "heads",
           {{"d_model", std::to_string(ctx.sizes.d_model)},
            {"heads", std::to_string(ctx.sizes.heads)},
            {"head_size", std::to_string(HS)}});
  if (d < 2)
    refuse("position.rope_no_pair", "rope_fraction",
           {{"fraction", std::to_string(ctx.options.number("rope_fraction"))}, {"head_size", std::to_string(HS)}});
  if (ctx.options.text("rope_scaling") == "ntk" && d <= 2) refuse("position.ntk_few_dims", "rope_scaling");
}

}  // namespace

// The PyTorch form (common/torch_form.hpp), shared with randomized.cpp's wrap of RoPE. The
// frequencies (plain and scaled) are written as numbers from the engine's own rope_scale.
const char* const kRopePy = R"PY(class Position(PositionBase):
    """RoPE: pairs (a, b) at position t -> (a cos t theta - b sin t theta, b cos + a sin), in the first
    D_ROT dims of each head; pairs (i, i + D_ROT/2) when HALF, else (2i, 2i+1). Evaluation beyond
    FROM_LEN uses the scaled frequencies when SCALED (rope_scaling), in training too when TUNED
    (rope_train_len) (core/position/rope.cpp, rotary.cpp)."""
    D_ROT, HALF, SCALED, TUNED, FROM_LEN = ${d_rot}, ${half}, ${scaled}, ${tuned}, ${from_len}
    THETA = ${theta}
    SCALED_THETA, MSCALE = ${scaled_theta}, ${mscale}

    def rotate(self, m, layer, q, k):
        T = q.shape[-2]
        scaled = self.SCALED and (self.TUNED or not m.training) and T > self.FROM_LEN
        theta, ms = (self.SCALED_THETA, self.MSCALE) if scaled else (self.THETA, 1.0)
        angle = torch.arange(T, dtype=torch.float64)[:, None] * torch.tensor(theta, dtype=torch.float64)
        cos, sin = (ms * angle.cos()).float().to(q.device), (ms * angle.sin()).float().to(q.device)
        return self.turn(q, cos, sin), self.turn(k, cos, sin)

    def turn(self, x, cos, sin):
        d, h = self.D_ROT, self.D_ROT // 2
        a, b = (x[..., :h], x[..., h:d]) if self.HALF else (x[..., 0:d:2], x[..., 1:d:2])
        a, b = a * cos - b * sin, b * cos + a * sin
        turned = torch.cat([a, b], -1) if self.HALF else torch.stack([a, b], -1).flatten(-2)
        return torch.cat([turned, x[..., d:]], -1))PY";

namespace {
std::string torch_rope(const MakeContext& ctx, PyFill fill) {
  const int d_rot = rope_dims(ctx);
  const double base = ctx.options.number("rope_base");
  const RopeScaling kind = rope_scaling_from(ctx.options.text("rope_scaling"));
  const bool tuned = ctx.options.number("rope_train_len") > 0;
  const int from = tuned ? int(ctx.options.number("rope_train_len")) : ctx.sizes.model_len;
  const ScaledThetas plain = rope_scale(d_rot, base, RopeScaling::None, 1.0, from);
  const ScaledThetas scaled = rope_scale(d_rot, base, kind, ctx.options.number("rope_factor"), from);
  return fill(kRopePy, {{"d_rot", d_rot},
                        {"half", ctx.options.text("rope_layout") == "half"},
                        {"scaled", kind != RopeScaling::None},
                        {"tuned", tuned},
                        {"from_len", from},
                        {"theta", plain.theta},
                        {"scaled_theta", scaled.theta},
                        {"mscale", scaled.mscale}});
}
}  // namespace

PositionEntry position_rope() {
  PositionEntry e{
      "rope",
      "Rotary (RoPE)",
      R"(\tilde q_m = R_{m\theta}\, q_m,\ \tilde k_n = R_{n\theta}\, k_n,\ \tilde q_m^\top \tilde k_n = q_m^\top R_{(n-m)\theta} k_n,\ \theta_i = b^{-2i/d})",
      "rotates q and k of every head in every layer",
      "Each pair of dimensions turns by an angle proportional to the position, so attention "
      "scores depend on the distance only. Position lives only in the logits: with softmax and "
      "identical tokens every position looks the same (the probe stays at 1/n) unless anchors "
      "are added. Low-frequency pairs barely turn at toy lengths (base 10000).",
      false,
      true,
      true,
      {opt_enum("rope_layout", "interleaved", {"interleaved", "half"},
                "pairs (2i, 2i+1) as in the TDLM seed and Su's code, or (i, i+d/2) as in GPT-NeoX/LLaMA"),
       opt_float("rope_base", 10000.0, 2.0, 1e9, "base of the frequencies θ_i = base^(−2i/d)"),
       opt_float("rope_fraction", 1.0, 0.0, 1.0, "fraction of each head's dims that rotate (partial rotary)"),
       opt_enum("rope_scaling", "none", {"none", "pi", "ntk", "yarn"},
                "context extension at evaluation beyond the training length: position interpolation, "
                "NTK-aware base, or YaRN"),
       opt_float("rope_factor", 2.0, 1.0, 64.0, "scaling factor s (target length / training length)"),
       opt_int("rope_train_len", 0, 0, 16384,
               "the length the scaling extends from (0: the training length); when set, the scaling applies "
               "in training too, for fine-tuning a model at a longer seq_len (e.g. PI with a short fine-tune)")},
      [](const MakeContext& ctx, ParamStore&) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<Rope>(ctx);
      }};
  e.check = check_rope;
  e.torch.python = torch_rope;
  return e;
}

}  // namespace ap
