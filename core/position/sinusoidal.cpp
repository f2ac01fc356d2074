// core/position/sinusoidal.cpp — fixed sinusoids (Vaswani et al. §3.5), no parameters.
//   interleaved (default): PE(p,2i) = sin(p ω_i), PE(p,2i+1) = cos(p ω_i), ω_i = base^(−2i/d)
//   concat:                PE(p,i) = sin(p ω_i), PE(p,d/2+i) = cos(p ω_i)   (x-transformers)
// Reference §7.3: d = 8, p = 1 → [0.8414709848, 0.5403023059, 0.0998334166, 0.9950041653, ...].
#include <algorithm>
#include <cmath>
#include <vector>

#include "position/absolute.hpp"
#include "position/position.hpp"

namespace ap {

// Table (T, C) of the sinusoidal encoding; odd C leaves the last column 0. A loop, not xtensor:
// this ships in the wasm module, where xtensor costs size (tables_naive.hpp holds its xtensor twin).
std::vector<float> sinusoidal_table(int T, int C, double base, bool concat) {
  std::vector<float> P(size_t(T) * C, 0.0f);
  const int half = C / 2;
  for (int p = 0; p < T; ++p)
    for (int i = 0; i < half; ++i) {
      double w = std::pow(base, -2.0 * i / C);
      float s = float(std::sin(p * w)), c = float(std::cos(p * w));
      if (concat)
        P[size_t(p) * C + i] = s, P[size_t(p) * C + half + i] = c;
      else
        P[size_t(p) * C + 2 * i] = s, P[size_t(p) * C + 2 * i + 1] = c;
    }
  return P;
}

namespace {
class Sinusoidal : public PositionEncoding {
 public:
  Sinusoidal(const MakeContext& ctx)
      : C_(ctx.sizes.d_model),
        base_(ctx.options.number("sinusoidal_base")),
        concat_(ctx.options.text("sinusoidal_layout") == "concat") {}
  bool adds() const override { return true; }
  void add_forward(int layer, float* x, int B, int T, int C) override { add_table(x, table(T), B, T, C); }
  nlohmann::json display(int T) const override {
    auto P = sinusoidal_table(T, C_, base_, concat_);
    auto j = table_display(P.data(), T, C_);
    j["kind"] = "absolute";
    return j;
  }
  // Similarity of position vectors against distance (fixed: the same at init and after training).
  nlohmann::json explore(const ExploreQuery& q) const override {
    auto P = sinusoidal_table(q.length, C_, base_, concat_);
    auto j = similarity_by_distance(P.data(), q.length, C_, std::clamp(q.position, 0, q.length - 1));
    j["kind"] = "absolute";
    j["length"] = q.length;
    j["formula"] =
        R"(\cos(PE_p, PE_{p+d}) = \frac{PE_p\cdot PE_{p+d}}{\|PE_p\|\,\|PE_{p+d}\|} = \frac{2}{C}\sum_{i < C/2} \cos(d\,\omega_i))";
    j["source"] =
        "core/position/sinusoidal.cpp · Sinusoidal::explore → sinusoidal_table; similarity_by_distance (explore.cpp)";
    return j;
  }

 private:
  const float* table(int T) {
    if (T_ != T) P_ = sinusoidal_table(T, C_, base_, concat_), T_ = T;
    return P_.data();
  }
  int C_;
  double base_;
  bool concat_;
  int T_ = -1;
  std::vector<float> P_;
};
}  // namespace

// The PyTorch form (common/torch_form.hpp), shared with scaled_sinusoidal.cpp and randomized.cpp:
// the (T, C) sinusoids in float64, then float32 (as the engine's table), interleaved or
// [sin | cos]; ${table} is what is added (P, or P times a parameter).
const char* const kSinusoidsPy = R"PY(
def _sinusoids(T, C, base, concat):
    P = torch.zeros(T, C, dtype=torch.float64)
    w = torch.pow(torch.tensor(base, dtype=torch.float64), -2.0 * torch.arange(C // 2, dtype=torch.float64) / C)
    a = torch.arange(T, dtype=torch.float64)[:, None] * w
    if concat:
        P[:, :C // 2], P[:, C // 2:2 * (C // 2)] = a.sin(), a.cos()
    else:
        P[:, 0:2 * (C // 2):2], P[:, 1:2 * (C // 2):2] = a.sin(), a.cos()
    return P.float()


class Position(PositionBase):
    """${entry}: x += ${formula} (core/position/${entry}.cpp)"""
    LAYERWISE, BASE, CONCAT = ${layerwise}, ${base}, ${concat}

    def add(self, m, layer, x):
        if (layer >= 0) != self.LAYERWISE:
            return x
        P = _sinusoids(x.shape[1], x.shape[2], self.BASE, self.CONCAT).to(x.device)
        return x + ${table})PY";

namespace {
std::string torch_sinusoidal(const MakeContext& ctx, PyFill fill) {
  return fill(kSinusoidsPy, {{"entry", "sinusoidal"},
                             {"formula", "PE[t]"},
                             {"layerwise", ctx.sizes.layerwise},
                             {"base", ctx.options.number("sinusoidal_base")},
                             {"concat", ctx.options.text("sinusoidal_layout") == "concat"},
                             {"table", "P"}});
}
}  // namespace

PositionEntry position_sinusoidal() {
  PositionEntry e{"sinusoidal",
                  "Sinusoidal absolute positions",
                  R"(PE_{p,2i} = \sin(p\,\omega_i),\; PE_{p,2i+1} = \cos(p\,\omega_i),\; \omega_i = 10000^{-2i/d})",
                  "added to the token embedding (or to every block's input when layerwise)",
                  "Fixed waves of geometrically spaced frequencies; defined at every position, but "
                  "models trained at one length degrade quickly beyond it.",
                  true,
                  false,
                  true,
                  {opt_enum("sinusoidal_layout", "interleaved", {"interleaved", "concat"},
                            "interleaved sin/cos pairs (Vaswani) or [sin | cos] halves (x-transformers)"),
                   opt_float("sinusoidal_base", 10000.0, 2.0, 1e9, "the base of the frequencies")},
                  [](const MakeContext& ctx, ParamStore&) -> std::unique_ptr<PositionEncoding> {
                    return std::make_unique<Sinusoidal>(ctx);
                  }};
  e.torch.python = torch_sinusoidal;
  return e;
}

}  // namespace ap
