// core/position/relative.cpp — see relative.hpp.
#include "position/relative.hpp"

#include <cmath>
#include <cstdlib>

#include <xtensor/xbuilder.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xview.hpp>

namespace ap {

IndexGrid key_minus_query(int T) {
  const xt::xtensor<int, 1> pos = xt::arange<int>(T);
  return xt::view(pos, xt::newaxis(), xt::all()) - xt::view(pos, xt::all(), xt::newaxis());
}

IndexGrid t5_bucket(const IndexGrid& rel, bool bidirectional, int num_buckets, int max_distance) {
  IndexGrid ret = xt::zeros<int>(rel.shape()), n;
  if (bidirectional) {
    num_buckets /= 2;
    ret = xt::where(rel > 0, num_buckets, 0);
    n = xt::abs(rel);
  } else {
    n = xt::maximum(-rel, 0);
  }
  const int max_exact = num_buckets / 2;
  // Logarithmic beyond max_exact (n is floored there only to keep log() finite where the exact
  // branch wins). Truncation toward zero as torch .to(long); +1e-9 keeps the exact ties (n = 16,
  // 32, 64 at the defaults, value 2.0, 4.0, 6.0) on the right side of the floor (reference §1.5).
  const xt::xtensor<double, 2> v = xt::log(xt::cast<double>(xt::maximum(n, max_exact)) / max_exact) /
                                   std::log(double(max_distance) / max_exact) *
                                   (num_buckets - max_exact);
  const IndexGrid large = xt::minimum(max_exact + xt::cast<int>(v + 1e-9), num_buckets - 1);
  return ret + xt::where(n < max_exact, n, large);
}

int t5_bucket(int rel, bool bidirectional, int num_buckets, int max_distance) {
  return t5_bucket(IndexGrid{{rel}}, bidirectional, num_buckets, max_distance)(0, 0);
}

IndexGrid clip_rel(const IndexGrid& rel, int k) { return xt::clip(rel, -k, k); }

std::vector<double> alibi_slopes(int n) {
  // 2^(−8h/m), h = 1 … m, for m a power of 2 (closed form, no drift)
  auto p2 = [](int m) -> xt::xtensor<double, 1> {
    return xt::exp2(-8.0 * xt::arange<double>(1, m + 1) / m);
  };
  int c = 1;
  while (c * 2 <= n) c *= 2;
  // otherwise the set of the power of 2 below, then the even-indexed slopes of the doubled set:
  // p2(c) + p2(2c)[0::2][:n−c]
  const xt::xtensor<double, 1> s =
      c == n ? p2(n)
             : xt::xtensor<double, 1>(xt::concatenate(
                   xt::xtuple(p2(c), xt::view(p2(2 * c), xt::range(0, 2 * (n - c), 2)))));
  return {s.begin(), s.end()};
}

std::vector<std::vector<float>> as_matrix(const float* p, int rows, int cols) {
  std::vector<std::vector<float>> m(rows, std::vector<float>(cols));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) m[r][c] = p[size_t(r) * cols + c];
  return m;
}
std::vector<std::vector<int>> as_matrix(const int* p, int rows, int cols) {
  std::vector<std::vector<int>> m(rows, std::vector<int>(cols));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) m[r][c] = p[size_t(r) * cols + c];
  return m;
}

}  // namespace ap
