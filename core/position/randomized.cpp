// core/position/randomized.cpp — randomized positional encodings (Ruoss et al. 2023, "Randomized
// Positional Encodings Boost Length Generalization of Transformers", arXiv 2305.16843, §3): in
// training, the T tokens of a sequence get the positions of a sorted random subset of
// [0, L_max) instead of 0..T−1, so that every position up to L_max is trained; at evaluation
// (held-out, inspection, generation) the positions are 0..T−1 in order, deterministic, and
// sequences up to L_max long meet only position values seen in training. The encoding itself is a wrapped one
// (randomized_wrap):
//   learned      h⁰_t = E[x_t] + P[pos_t],  P (L_max, C) trained  (learned.cpp's table, gathered)
//   sinusoidal   h⁰_t = E[x_t] + PE(pos_t)  (sinusoidal.cpp's sinusoidal_table, interleaved, base 10⁴)
//   rope         q, k rotated by pos_t θ_i  (rotary.cpp's rope_tables and rope_apply, interleaved,
//                                            base 10⁴, every dim), so q̃·k̃ sees pos_i − pos_j
// The draw: per sequence, Knuth's selection sampling (algorithm S; sorted by construction), from
// the training forward's rng (the session's seeded stream, saved with it: same seed, same
// positions; a resumed run continues the same stream). Positions are chosen once per forward in
// begin_forward(), so all layers and the backward see the same ones, and the gradient checks,
// which run evaluation forwards, see fixed positions 0..T−1.
// Parameters (learned only): "pos_emb.weight" (L_max, C), as learned's; sinusoidal and rope: none.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "refusal/refusal.hpp"
#include "position/absolute.hpp"
#include "position/position.hpp"
#include "position/rotary.hpp"

namespace ap {

namespace {

enum class Wrap { Learned, Sinusoidal, Rope };

int max_range(const MakeContext& ctx) {
  const int n = int(ctx.options.number("randomized_max_range"));
  return n > 0 ? n : 4 * ctx.sizes.model_len;
}

class Randomized : public PositionEncoding {
 public:
  Randomized(const MakeContext& ctx, ParamStore& ps)
      : ps_(ps),
        C_(ctx.sizes.d_model),
        HS_(ctx.sizes.head_size()),
        Lmax_(max_range(ctx)),
        train_len_(ctx.sizes.model_len) {
    const std::string w = ctx.options.text("randomized_wrap");
    wrap_ = w == "learned" ? Wrap::Learned : w == "rope" ? Wrap::Rope : Wrap::Sinusoidal;
    if (wrap_ == Wrap::Learned) table_ = ps.add("pos_emb.weight", {Lmax_, C_}, Init::Normal, 0.02f, false);
  }

  void begin_forward(bool training, int B, int T, Rng* rng) override {
    B_ = B, T_ = T;
    pos_.resize(size_t(B) * T);
    check_length(T);
    for (int b = 0; b < B; ++b) {
      int* p = &pos_[size_t(b) * T];
      if (!training || !rng || T > Lmax_) {
        for (int t = 0; t < T; ++t) p[t] = t;
        continue;
      }
      // Algorithm S: take x with probability (T − chosen)/(L_max − x): a uniform T-subset, in order.
      for (int x = 0, chosen = 0; chosen < T; ++x)
        if (double(Lmax_ - x) * rng->uniform() < T - chosen) p[chosen++] = x;
      if (b == 0) drawn_.assign(p, p + T);
    }
  }

  bool adds() const override { return wrap_ != Wrap::Rope; }
  void add_forward(int, float* x, int B, int T, int C) override {
    const float* P = absolute_table(T);
    for (int b = 0; b < B; ++b)
      for (int t = 0; t < T; ++t) {
        const float* row = P + size_t(at(b, t, T)) * C;
        float* xr = x + (size_t(b) * T + t) * C;
        for (int c = 0; c < C; ++c) xr[c] += row[c];
      }
  }
  void add_backward(int, const float* dx, int B, int T, int C) override {
    if (wrap_ != Wrap::Learned) return;
    float* dP = ps_.grad(table_);
    for (int b = 0; b < B; ++b)
      for (int t = 0; t < T; ++t) {
        float* row = dP + size_t(at(b, t, T)) * C;
        const float* dxr = dx + (size_t(b) * T + t) * C;
        for (int c = 0; c < C; ++c) row[c] += dxr[c];
      }
  }

  bool rotates() const override { return wrap_ == Wrap::Rope; }
  void rotate_forward(int, float* q, float* k, const AttnShape& s) override { rotate(q, k, s, false); }
  void rotate_backward(int, float* dq, float* dk, const AttnShape& s) override { rotate(dq, dk, s, true); }

  int max_length() const override { return wrap_ == Wrap::Learned ? Lmax_ : -1; }
  void check_length(int T) const override {
    if (wrap_ == Wrap::Learned && T > Lmax_)
      refuse("position.randomized_length", "position", {{"max", std::to_string(Lmax_)}, {"n", std::to_string(T)}});
  }

  nlohmann::json display(int T) const override {
    nlohmann::json j{
        {"kind", "randomized"}, {"wrap", wrap_name()}, {"max_range", Lmax_}, {"training_positions", drawn_}};
    if (wrap_ != Wrap::Rope) {
      const int n = wrap_ == Wrap::Learned ? std::min(T, Lmax_) : T;
      const auto P = wrap_ == Wrap::Learned ? std::vector<float>(ps_.data(table_), ps_.data(table_) + size_t(n) * C_)
                                            : sinusoidal_table(n, C_, 10000.0, false);
      j.update(table_display(P.data(), n, C_));
    }
    return j;
  }

  // The wrapped encoding's view at the evaluation positions 0..D−1, by its own code.
  nlohmann::json explore(const ExploreQuery& q) const override {
    nlohmann::json j;
    if (wrap_ == Wrap::Rope) {
      j = rotary_explore({HS_, HS_, false, 10000.0, train_len_, 0.0}, q);
      j["formula"] = R"(s(d) = \tilde q_d^{\top} \tilde k_0,\ \text{positions } 0..D-1)";
    } else {
      const int n = wrap_ == Wrap::Learned ? std::min(q.length, Lmax_) : q.length;
      const auto P = wrap_ == Wrap::Learned ? std::vector<float>(ps_.data(table_), ps_.data(table_) + size_t(n) * C_)
                                            : sinusoidal_table(n, C_, 10000.0, false);
      j = similarity_by_distance(P.data(), n, C_, std::clamp(q.position, 0, n - 1));
      j["kind"] = "absolute";
      j["length"] = n;
      j["formula"] = R"(\cos(P_p, P_{p+d}),\ \text{positions } 0..D-1)";
    }
    j["wrap"] = wrap_name();
    j["max_range"] = Lmax_;
    j["source"] =
        std::string("core/position/randomized.cpp · Randomized::explore → ") +
        (wrap_ == Wrap::Rope ? "rotary_explore (rotary_explore.cpp)" : "similarity_by_distance (explore.cpp)");
    return j;
  }

 private:
  const char* wrap_name() const {
    return wrap_ == Wrap::Learned ? "learned" : wrap_ == Wrap::Rope ? "rope" : "sinusoidal";
  }
  // Position of token t of sequence b (of T) in the current forward; t itself for a shape that
  // begin_forward did not see (a hook driven on its own, as the hook tests do).
  int at(int b, int t, int T) const { return (b < B_ && T == T_) ? pos_[size_t(b) * T_ + t] : t; }
  int rows_needed(int T) const { return std::max(Lmax_, T); }
  const float* absolute_table(int T) {
    if (wrap_ == Wrap::Learned) return ps_.data(table_);
    if (int(sin_.size()) < rows_needed(T) * C_) sin_ = sinusoidal_table(rows_needed(T), C_, 10000.0, false);
    return sin_.data();
  }
  // q, k (B,NH,T,HS): each sequence rotated by its own positions (rows of the full tables gathered).
  void rotate(float* q, float* k, const AttnShape& s, bool inverse) {
    const int half = HS_ / 2, n = rows_needed(s.T);
    if (cos_rows_ < n) rope_tables(cos_, sin_rope_, n, rope_thetas(HS_, 10000.0), 1.0), cos_rows_ = n;
    std::vector<float> gc(size_t(s.T) * half), gs(size_t(s.T) * half);
    for (int b = 0; b < s.B; ++b) {
      for (int t = 0; t < s.T; ++t) {
        const size_t src = size_t(at(b, t, s.T)) * half;
        std::copy_n(&cos_[src], half, &gc[size_t(t) * half]);
        std::copy_n(&sin_rope_[src], half, &gs[size_t(t) * half]);
      }
      const size_t off = size_t(b) * s.NH * s.T * HS_;
      rope_apply(q + off, s.NH, s.T, HS_, HS_, false, gc.data(), gs.data(), nullptr, inverse);
      rope_apply(k + off, s.NH, s.T, HS_, HS_, false, gc.data(), gs.data(), nullptr, inverse);
    }
  }
  ParamStore& ps_;
  int C_, HS_, Lmax_, train_len_;
  Wrap wrap_;
  int table_ = -1;  // learned: P (L_max, C)
  int B_ = 0, T_ = 0;
  std::vector<int> pos_;               // (B, T) positions of the current forward
  std::vector<int> drawn_;             // sequence 0's positions of the last training draw (display)
  std::vector<float> sin_;             // sinusoidal table (rows, C)
  std::vector<float> cos_, sin_rope_;  // rope tables (rows, HS/2)
  int cos_rows_ = 0;
};

void check_randomized(const MakeContext& ctx) {
  const int L = max_range(ctx), T = ctx.sizes.model_len;
  if (L < T)
    refuse("position.randomized_range_short", "randomized_max_range",
           {{"range", std::to_string(L)}, {"len", std::to_string(T)}});
  if (L > 16384) refuse("position.randomized_range_big", "randomized_max_range", {{"range", std::to_string(L)}});
  if (ctx.sizes.layerwise) refuse("position.randomized_layerwise", "placement");
  const int HS = ctx.sizes.head_size();
  if (ctx.options.text("randomized_wrap") == "rope" && HS % 2 != 0)
    refuse("position.randomized_odd_head", "heads", {{"head_size", std::to_string(HS)}});
}

// The PyTorch form (common/torch_form.hpp), at evaluation (the export's only use): positions
// 0..T-1 of the wrapped encoding, which is learned's or sinusoidal's snippet at the embedding, or
// RoPE's (interleaved, every dim, base 10^4, no scaling), as this file builds them.
std::string torch_randomized(const MakeContext& ctx, PyFill fill) {
  const std::string w = ctx.options.text("randomized_wrap");
  if (w == "learned") return fill(kLearnedPy, {{"layerwise", false}});
  if (w == "sinusoidal")
    return fill(kSinusoidsPy, {{"entry", "randomized"},
                               {"formula", "PE[t] (wrap sinusoidal, evaluation positions)"},
                               {"layerwise", false},
                               {"base", 10000.0},
                               {"concat", false},
                               {"table", "P"}});
  const int HS = ctx.sizes.head_size();
  const std::vector<double> theta = rope_thetas(HS, 10000.0);
  return fill(kRopePy, {{"d_rot", HS},
                        {"half", false},
                        {"scaled", false},
                        {"tuned", false},
                        {"from_len", 0},
                        {"theta", theta},
                        {"scaled_theta", theta},
                        {"mscale", 1.0}});
}
}  // namespace

PositionEntry position_randomized() {
  PositionEntry e{
      "randomized",
      "Randomized positions (wrapping learned, sinusoidal or RoPE)",
      R"(\text{train: } pos \sim \mathrm{sort}(\text{random } T\text{-subset of } [0, L_{\max})),\ \text{eval: } pos = 0..T-1;\ \text{then the wrapped encoding at } pos)",
      "the wrapped encoding (added to the embedding, or rotating q and k), at sorted random positions in training",
      "Training shows the model positions from a range much longer than its sequences, in order "
      "but with random gaps, so that at test time longer sequences meet no position it has never "
      "seen. Only the order of positions carries information; their exact values do not.",
      true,  // absolute as built by default (wrap sinusoidal); rope wraps rotate instead
      false,
      true,
      {opt_enum("randomized_wrap", "sinusoidal", {"learned", "sinusoidal", "rope"},
                "the encoding applied at the drawn positions"),
       opt_int("randomized_max_range", 0, 0, 16384,
               "L_max: training positions are drawn from [0, L_max) (0: 4× the training length)")},
      [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<PositionEncoding> {
        return std::make_unique<Randomized>(ctx, ps);
      }};
  e.check = check_randomized;
  e.torch.python = torch_randomized;
  return e;
}

}  // namespace ap
