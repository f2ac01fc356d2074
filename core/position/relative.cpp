// core/position/relative.cpp — see relative.hpp.
#include "position/relative.hpp"

#include <cmath>
#include <cstdlib>

namespace ap {

// Loops, not xtensor, for size in the wasm module: the xtensor twins are in tables_naive.cpp.
int t5_bucket(int rel, bool bidirectional, int num_buckets, int max_distance) {
  int ret = 0, n;
  if (bidirectional) {
    num_buckets /= 2;
    if (rel > 0) ret += num_buckets;
    n = std::abs(rel);
  } else {
    n = rel < 0 ? -rel : 0;
  }
  const int max_exact = num_buckets / 2;
  if (n < max_exact) return ret + n;
  // Truncation toward zero as torch .to(long); +1e-9 keeps the exact ties (n = 16, 32, 64 at the
  // defaults, value 2.0, 4.0, 6.0) on the right side of the floor (reference §1.5).
  const double v =
      std::log(double(n) / max_exact) / std::log(double(max_distance) / max_exact) * (num_buckets - max_exact);
  const int large = max_exact + int(v + 1e-9);
  return ret + (large < num_buckets - 1 ? large : num_buckets - 1);
}

std::vector<double> alibi_slopes(int n) {
  auto p2 = [](int m) {
    std::vector<double> s(m);
    for (int h = 1; h <= m; ++h) s[h - 1] = std::exp2(-8.0 * h / m);  // closed form, no drift
    return s;
  };
  int c = 1;
  while (c * 2 <= n) c *= 2;
  if (c == n) return p2(n);
  std::vector<double> out = p2(c), twice = alibi_slopes(2 * c);
  for (int i = 0; int(out.size()) < n; i += 2) out.push_back(twice[i]);  // [0::2][:n−c]
  return out;
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
