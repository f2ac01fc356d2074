// core/position/rotary.cpp — see rotary.hpp. Formulas: RoFormer §3.4 (rotation), HF
// modeling_rope_utils.py and jquesnelle/yarn (PI, NTK-aware, YaRN); reference §1.3, §1.10.
#include "position/rotary.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "io/json.hpp"

namespace ap {

RopeScaling rope_scaling_from(const std::string& name) {
  if (name == "pi") return RopeScaling::PI;
  if (name == "ntk") return RopeScaling::NTK;
  if (name == "yarn") return RopeScaling::YaRN;
  if (name == "none") return RopeScaling::None;
  refuse("position.not_rope_scaling", "rope_scaling", {{"value", show_text(name)}});
}

// The tables below are loops, not xtensor: they ship in the wasm module, where xtensor costs size;
// their xtensor twins, which tests pin them to, are in tables_naive.cpp.
std::vector<double> rope_thetas(int d_rot, double base) {
  std::vector<double> th(d_rot / 2);
  for (int i = 0; i < d_rot / 2; ++i) th[i] = std::pow(base, -2.0 * i / d_rot);
  return th;
}

std::pair<double, double> yarn_ramp(int d_rot, double base, int train_len) {
  const double pi = 3.14159265358979323846;
  auto fcd = [&](double r) { return d_rot * std::log(train_len / (2 * pi * r)) / (2 * std::log(base)); };
  double low = std::max(std::floor(fcd(32.0)), 0.0);
  double high = std::min(std::ceil(fcd(1.0)), double(d_rot - 1));
  if (low == high) high += 0.001;
  return {low, high};
}

ScaledThetas rope_scale(int d_rot, double base, RopeScaling kind, double s, int train_len) {
  ScaledThetas out;
  out.base = base;
  out.theta = rope_thetas(d_rot, base);
  const int half = d_rot / 2;
  switch (kind) {
    case RopeScaling::None:
      break;
    case RopeScaling::PI:  // positions m → m/s, i.e. θ → θ/s (Chen et al.)
      for (auto& t : out.theta) t /= s;
      break;
    case RopeScaling::NTK:  // highest frequency kept, lowest divided by exactly s
      out.base = base * std::pow(s, double(d_rot) / (d_rot - 2));
      out.theta = rope_thetas(d_rot, out.base);
      break;
    case RopeScaling::YaRN: {
      const auto [low, high] = yarn_ramp(d_rot, base, train_len);
      for (int i = 0; i < half; ++i) {
        const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
        const double keep = 1.0 - ramp;  // extrapolation mask: 1 = keep θ (high frequencies)
        out.theta[i] = out.theta[i] / s * (1 - keep) + out.theta[i] * keep;
      }
      out.mscale = 0.1 * std::log(s) + 1.0;
      break;
    }
  }
  return out;
}

void rope_tables(std::vector<float>& cos, std::vector<float>& sin, int T, const std::vector<double>& theta,
                 double mscale) {
  const int half = int(theta.size());
  cos.resize(size_t(T) * half);
  sin.resize(size_t(T) * half);
  for (int t = 0; t < T; ++t)
    for (int i = 0; i < half; ++i) {
      cos[size_t(t) * half + i] = float(mscale * std::cos(t * theta[i]));
      sin[size_t(t) * half + i] = float(mscale * std::sin(t * theta[i]));
    }
}

void rope_apply(float* x, int rows, int T, int HS, int d_rot, bool half_layout, const float* cos, const float* sin,
                const float* scale, bool inverse) {
  const int half = d_rot / 2;
  const int stride = half_layout ? 1 : 2, partner = half_layout ? half : 1;
  const float sgn = inverse ? -1.0f : 1.0f;
  for (int r = 0; r < rows; ++r)
    for (int t = 0; t < T; ++t) {
      float* v = x + (size_t(r) * T + t) * HS;
      const float* c = cos + size_t(t) * half;
      const float* s = sin + size_t(t) * half;
      const float* g = scale ? scale + size_t(t) * half : nullptr;
      for (int i = 0; i < half; ++i) {
        float& a = v[i * stride];
        float& b = v[i * stride + partner];
        const float sc = g ? g[i] : 1.0f, ci = c[i] * sc, si = sgn * s[i] * sc;
        const float a0 = a, b0 = b;
        a = a0 * ci - b0 * si;
        b = b0 * ci + a0 * si;
      }
    }
}

}  // namespace ap
