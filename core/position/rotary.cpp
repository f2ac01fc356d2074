// core/position/rotary.cpp — see rotary.hpp. Formulas: RoFormer §3.4 (rotation), HF
// modeling_rope_utils.py and jquesnelle/yarn (PI, NTK-aware, YaRN); reference §1.3, §1.10.
// The tables are xtensor expressions (NumPy-like); rope_apply, run in every attention call, stays
// a plain loop over raw pointers.
#include "position/rotary.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <xtensor/xmath.hpp>

#include "io/json.hpp"
#include "tensor/xt.hpp"

namespace ap {

RopeScaling rope_scaling_from(const std::string& name) {
  if (name == "pi") return RopeScaling::PI;
  if (name == "ntk") return RopeScaling::NTK;
  if (name == "yarn") return RopeScaling::YaRN;
  if (name == "none") return RopeScaling::None;
  throw std::invalid_argument("rope_scaling: " + show_text(name) + " is not allowed; expected one of none, pi, ntk, yarn");
}

namespace {
using xt::all;
using xt::newaxis;
using Vec = xt::xtensor<double, 1>;
std::vector<double> to_vector(const Vec& v) { return {v.begin(), v.end()}; }
}  // namespace

std::vector<double> rope_thetas(int d_rot, double base) {
  // θ_i = base^(−2i/d_rot), i = 0 … d_rot/2 − 1
  return to_vector(xt::pow(base, -2.0 * xt::arange<double>(d_rot / 2) / d_rot));
}

ScaledThetas rope_scale(int d_rot, double base, RopeScaling kind, double s, int train_len) {
  ScaledThetas out;
  out.base = base;
  Vec theta = xt::adapt(rope_thetas(d_rot, base));
  switch (kind) {
    case RopeScaling::None: break;
    case RopeScaling::PI:  // positions m → m/s, i.e. θ → θ/s (Chen et al.)
      theta = theta / s;
      break;
    case RopeScaling::NTK:  // highest frequency kept, lowest divided by exactly s
      out.base = base * std::pow(s, double(d_rot) / (d_rot - 2));
      theta = xt::adapt(rope_thetas(d_rot, out.base));
      break;
    case RopeScaling::YaRN: {
      // the pair index where a wavelength fits r times into the training length
      const double pi = 3.14159265358979323846;
      auto fcd = [&](double r) { return d_rot * std::log(train_len / (2 * pi * r)) / (2 * std::log(base)); };
      double low = std::max(std::floor(fcd(32.0)), 0.0);
      double high = std::min(std::ceil(fcd(1.0)), double(d_rot - 1));
      if (low == high) high += 0.001;
      const Vec ramp = xt::clip((xt::arange<double>(d_rot / 2) - low) / (high - low), 0.0, 1.0);
      const Vec keep = 1.0 - ramp;  // extrapolation mask: 1 = keep θ (high frequencies)
      theta = theta / s * (1 - keep) + theta * keep;
      out.mscale = 0.1 * std::log(s) + 1.0;
      break;
    }
  }
  out.theta = to_vector(theta);
  return out;
}

void rope_tables(std::vector<float>& cos, std::vector<float>& sin, int T,
                 const std::vector<double>& theta, double mscale) {
  // angle(t, i) = t·θ_i, (T, d_rot/2)
  const Vec th = xt::adapt(theta);
  const xt::xtensor<double, 2> angle = xt::view(xt::arange<double>(T), all(), newaxis()) * th;
  const Shape<2> shape{std::size_t(T), theta.size()};
  cos.resize(shape_size(shape));
  sin.resize(shape_size(shape));
  xt::noalias(shaped(cos, shape, "rope cos")) = xt::cast<float>(mscale * xt::cos(angle));
  xt::noalias(shaped(sin, shape, "rope sin")) = xt::cast<float>(mscale * xt::sin(angle));
}

void rope_apply(float* x, int rows, int T, int HS, int d_rot, bool half_layout, const float* cos,
                const float* sin, const float* scale, bool inverse) {
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
