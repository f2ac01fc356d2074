// core/tensor/reduce.cpp — long sums over the rows of a batch (kernels.hpp, "Column sums").
// A gradient that sums B·T rows (a bias, a LayerNorm weight, an embedding row) is accumulated in
// double and rounded once: the float running sum lost up to ~1e-4 relative where the rows cancel
// (issue 32). Rows are added in order in scalar double, so the sum is the same on every build.
#include <vector>

#include "tensor/kernels.hpp"
#include "tensor/thread_pool.hpp"

namespace ap {

void column_sum_add(float* d, const float* g, int N, int O) {
  static AP_THREAD_LOCAL std::vector<double> acc;
  acc.assign(std::size_t(O), 0.0);
  for (int n = 0; n < N; ++n) {
    const float* row = g + (std::ptrdiff_t)n * O;
    for (int o = 0; o < O; ++o) acc[o] += row[o];
  }
  for (int o = 0; o < O; ++o) d[o] = float(d[o] + acc[o]);
}

}  // namespace ap
