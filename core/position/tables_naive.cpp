// core/position/tables_naive.cpp — see tables_naive.hpp. `[:, None]` in the comments is NumPy
// for a column broadcast over a row. Each expression keeps the scalar formula's order of
// operations, so that the values are bit-identical.
#include "position/tables_naive.hpp"

#include <algorithm>
#include <cmath>

#include <xtensor/xbuilder.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xview.hpp>

#include "tensor/xt.hpp"

namespace ap {

namespace {
using xt::all;
using xt::newaxis;
using Vec = xt::xtensor<double, 1>;
using Grid = xt::xtensor<double, 2>;
std::vector<double> to_vector(const Vec& v) { return {v.begin(), v.end()}; }
// v[:, None]
template <class E>
auto col(E&& v) {
  return xt::view(std::forward<E>(v), all(), newaxis());
}
}  // namespace

std::vector<float> sinusoidal_table_naive(int T, int C, double base, bool concat) {
  const long half = C / 2;
  const Vec w = xt::pow(base, -2.0 * xt::arange<double>(half) / C);
  const Grid angle = col(xt::arange<double>(T)) * w;  // p·ω_i, (T, C/2)
  std::vector<float> P(size_t(T) * C, 0.0f);
  auto table = shaped(P, Shape<2>{size_t(T), size_t(C)}, "sinusoidal table");
  auto sin_cols = concat ? xt::range(0L, half, 1L) : xt::range(0L, 2 * half, 2L);
  auto cos_cols = concat ? xt::range(half, 2 * half, 1L) : xt::range(1L, 2 * half, 2L);
  xt::view(table, all(), sin_cols) = xt::cast<float>(xt::sin(angle));
  xt::view(table, all(), cos_cols) = xt::cast<float>(xt::cos(angle));
  return P;
}

std::vector<double> rope_thetas_naive(int d_rot, double base) {
  return to_vector(xt::pow(base, -2.0 * xt::arange<double>(d_rot / 2) / d_rot));
}

ScaledThetas rope_scale_naive(int d_rot, double base, RopeScaling kind, double s, int train_len) {
  ScaledThetas out;
  out.base = base;
  Vec theta = xt::adapt(rope_thetas_naive(d_rot, base));
  switch (kind) {
    case RopeScaling::None:
      break;
    case RopeScaling::PI:
      theta = theta / s;
      break;
    case RopeScaling::NTK:
      out.base = base * std::pow(s, double(d_rot) / (d_rot - 2));
      theta = xt::adapt(rope_thetas_naive(d_rot, out.base));
      break;
    case RopeScaling::YaRN: {
      const auto [low, high] = yarn_ramp(d_rot, base, train_len);
      const Vec ramp = xt::clip((xt::arange<double>(d_rot / 2) - low) / (high - low), 0.0, 1.0);
      const Vec keep = 1.0 - ramp;
      theta = theta / s * (1 - keep) + theta * keep;
      out.mscale = 0.1 * std::log(s) + 1.0;
      break;
    }
  }
  out.theta = to_vector(theta);
  return out;
}

void rope_tables_naive(std::vector<float>& cos, std::vector<float>& sin, int T, const std::vector<double>& theta,
                       double mscale) {
  const Grid angle = col(xt::arange<double>(T)) * xt::adapt(theta);  // t·θ_i, (T, d_rot/2)
  const Shape<2> shape{size_t(T), theta.size()};
  cos.resize(shape_size(shape));
  sin.resize(shape_size(shape));
  xt::noalias(shaped(cos, shape, "rope cos")) = xt::cast<float>(mscale * xt::cos(angle));
  xt::noalias(shaped(sin, shape, "rope sin")) = xt::cast<float>(mscale * xt::sin(angle));
}

std::vector<double> alibi_slopes_naive(int n) {
  auto p2 = [](int m) -> Vec { return xt::exp2(-8.0 * xt::arange<double>(1, m + 1) / m); };
  int c = 1;
  while (c * 2 <= n) c *= 2;
  // p2(n) for a power of 2, else p2(c) + p2(2c)[0::2][:n−c]
  const Vec s =
      c == n ? p2(n) : Vec(xt::concatenate(xt::xtuple(p2(c), xt::view(p2(2 * c), xt::range(0, 2 * (n - c), 2)))));
  return to_vector(s);
}

std::vector<float> alibi_bias_naive(const std::vector<double>& slopes, int T, const std::string& mode, double ratio) {
  // d = i − j (query − key) as (1, T, T), m = slopes[:, None, None]
  const xt::xtensor<double, 3> d = xt::view(xt::cast<double>(-key_minus_query(T)), newaxis(), all(), all());
  const xt::xtensor<double, 3> m = xt::view(xt::adapt(slopes), all(), newaxis(), newaxis());
  xt::xtensor<double, 3> b;
  if (mode == "symmetric")
    b = -m * xt::abs(d);
  else if (mode == "asymmetric")
    b = xt::where(d >= 0, -m * d, ratio * m * d);
  else
    b = -m * d;
  const xt::xtensor<float, 3> f = xt::cast<float>(b);
  return {f.begin(), f.end()};
}

IndexGrid key_minus_query(int T) {
  const xt::xtensor<int, 1> pos = xt::arange<int>(T);
  return xt::view(pos, newaxis(), all()) - col(pos);
}

IndexGrid t5_bucket_naive(const IndexGrid& rel, bool bidirectional, int num_buckets, int max_distance) {
  IndexGrid ret = xt::zeros<int>(rel.shape()), n;
  if (bidirectional) {
    num_buckets /= 2;
    ret = xt::where(rel > 0, num_buckets, 0);
    n = xt::abs(rel);
  } else {
    n = xt::maximum(-rel, 0);
  }
  const int max_exact = num_buckets / 2;
  // n floored at max_exact only to keep log() finite where the exact branch wins
  const Grid v = xt::log(xt::cast<double>(xt::maximum(n, max_exact)) / max_exact) /
                 std::log(double(max_distance) / max_exact) * (num_buckets - max_exact);
  const IndexGrid large = xt::minimum(max_exact + xt::cast<int>(v + 1e-9), num_buckets - 1);
  return ret + xt::where(n < max_exact, n, large);
}

void xpos_scales_naive(std::vector<float>& qs, std::vector<float>& ks, int T, int d_rot, double gamma) {
  const Vec zeta = (2.0 * xt::arange<double>(d_rot / 2) + 0.4 * d_rot) / (1.4 * d_rot);
  const Grid e = col((xt::arange<double>(T) - T / 2) / gamma);  // (t − c)/γ, (T, 1)
  const Shape<2> shape{size_t(T), size_t(d_rot / 2)};
  qs.resize(shape_size(shape));
  ks.resize(shape_size(shape));
  shaped(qs, shape, "xpos q scale") = xt::cast<float>(xt::pow(zeta, e));
  shaped(ks, shape, "xpos k scale") = xt::cast<float>(xt::pow(zeta, -e));
}

}  // namespace ap
