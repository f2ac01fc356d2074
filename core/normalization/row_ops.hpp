// core/normalization/row_ops.hpp — small row kernels shared by several normalizations: the softmax
// pair (softmax, cosine, and softmax1 in its backward), the divide-by-the-row-sum pair of the
// kernel entries (linear, performer), and a stable logistic. Rows are short (T ≤ 128 typically):
// plain loops, sums accumulated in double so that row sums hold to ~1e-7 even at 512 keys.
#pragma once
#include <algorithm>
#include <cmath>

namespace ap {

// σ(x) without overflow: 1/(1+e^{−x}) for x ≥ 0, e^{x}/(1+e^{x}) for x < 0.
inline float stable_sigmoid(float x) {
  if (x >= 0.0f) return 1.0f / (1.0f + std::exp(-x));
  const float e = std::exp(x);
  return e / (1.0f + e);
}

// a_j = e^{s_j − m} / Σ_k e^{s_k − m}, m = max_k s_k (shift invariance makes it exact).
inline void softmax_row_forward(const float* s, float* a, int n) {
  if (n <= 0) return;
  const float m = *std::max_element(s, s + n);
  double sum = 0.0;
  for (int j = 0; j < n; ++j) sum += (a[j] = std::exp(s[j] - m));
  const float inv = float(1.0 / sum);
  for (int j = 0; j < n; ++j) a[j] *= inv;
}

// ds_j += a_j (da_j − Σ_k a_k da_k)  (also the backward of softmax1: a softmax over n+1 keys
// whose extra key has a fixed logit 0 and value 0, so it receives no gradient).
inline void softmax_row_backward(const float* a, const float* da, float* ds, int n) {
  double dot = 0.0;
  for (int j = 0; j < n; ++j) dot += double(a[j]) * da[j];
  const float d = float(dot);
  for (int j = 0; j < n; ++j) ds[j] += a[j] * (da[j] - d);
}

// The guarded denominator of the kernel entries: D = Σ s ± ε with the sign of Σ s, so |D| ≥ ε
// (kernel scores are ≥ 0, but a rotation of feature-mapped q, k can make them negative).
inline double guarded_sum(const float* s, int n, double eps) {
  double sum = 0.0;
  for (int j = 0; j < n; ++j) sum += s[j];
  return sum >= 0.0 ? sum + eps : sum - eps;
}

// a_j = s_j / D, D = guarded Σ_k s_k.   Backward: ds_k += (da_k − Σ_j da_j a_j) / D.
inline void sum_row_forward(const float* s, float* a, int n, double eps) {
  if (n <= 0) return;
  const float inv = float(1.0 / guarded_sum(s, n, eps));
  for (int j = 0; j < n; ++j) a[j] = s[j] * inv;
}
inline void sum_row_backward(const float* s, const float* a, const float* da, float* ds, int n, double eps) {
  if (n <= 0) return;
  const double inv = 1.0 / guarded_sum(s, n, eps);
  double dot = 0.0;
  for (int j = 0; j < n; ++j) dot += double(a[j]) * da[j];
  for (int j = 0; j < n; ++j) ds[j] += float((da[j] - dot) * inv);
}

}  // namespace ap
