// core/tensor/softmax.cpp — row softmax (max-subtracted) and cross-entropy from logits, forward
// and backward with xsimd (the xtensor *_naive twins: naive.cpp).
//
//   softmax:  y = exp(x − max x) / Σ exp(x − max x)          (max subtraction: no overflow)
//             dinp += y ⊙ (dout − <dout, y>)                 (Jacobian diag(y) − y yᵀ)
//   cross-entropy, per counted row n with target t:
//             loss_n = logsumexp(x) − x_t,  loss = mean over counted rows
//             dlogits += (softmax(x) − onehot(t)) / count
// Rows with mask 0 are skipped entirely (their target is never read), so callers may pad
// sequences with any target id.
#include <algorithm>
#include <cassert>
#include <cmath>

#include "tensor/kernels.hpp"
#include "tensor/simd.hpp"

namespace ap {
namespace {

// y(cols) = softmax(x(cols)); returns logsumexp(x) (for the cross-entropy loss).
float softmax_row(float* y, const float* x, int cols) {
  float mx = -INFINITY;
  int i = 0;
#if AP_SIMD
  using simd::fbatch;
  constexpr int W = int(simd::W);
  if (cols >= W) {
    fbatch vm = simd::load(x);
    for (i = W; i + W <= cols; i += W) vm = xsimd::max(vm, simd::load(x + i));
    alignas(64) float lanes[W];
    vm.store_aligned(lanes);
    for (int l = 0; l < W; ++l) mx = std::max(mx, lanes[l]);
  }
#endif
  for (; i < cols; ++i) mx = std::max(mx, x[i]);
  float sum = 0.f;
  i = 0;
#if AP_SIMD
  fbatch vs(0.f);
  for (; i + W <= cols; i += W) {
    const fbatch e = xsimd::exp(simd::load(x + i) - fbatch(mx));
    simd::store(y + i, e);
    vs += e;
  }
  sum = xsimd::hadd(vs);
#endif
  for (; i < cols; ++i) {
    y[i] = std::exp(x[i] - mx);
    sum += y[i];
  }
  const float inv = 1.f / sum;
  i = 0;
#if AP_SIMD
  for (; i + W <= cols; i += W) simd::store(y + i, simd::load(y + i) * fbatch(inv));
#endif
  for (; i < cols; ++i) y[i] *= inv;
  return mx + std::log(sum);
}

// Number of rows that count towards the mean (all when mask is null).
int counted_rows(const uint8_t* mask, int N) {
  if (!mask) return N;
  int c = 0;
  for (int n = 0; n < N; ++n) c += mask[n] != 0;
  return c;
}

}  // namespace

void softmax_forward(float* out, const float* inp, int rows, int cols) {
  for (int r = 0; r < rows; ++r) softmax_row(out + (std::ptrdiff_t)r * cols, inp + (std::ptrdiff_t)r * cols, cols);
}

void softmax_backward(float* dinp, const float* out, const float* dout, int rows, int cols) {
  for (int r = 0; r < rows; ++r) {
    const float* y = out + (std::ptrdiff_t)r * cols;
    const float* dy = dout + (std::ptrdiff_t)r * cols;
    float* dx = dinp + (std::ptrdiff_t)r * cols;
    int i = 0;
#if AP_SIMD
    using simd::fbatch;
    constexpr int W = int(simd::W);
    const float dot = simd::row_dot(y, dy, cols);
    for (; i + W <= cols; i += W) {
      const fbatch t = simd::load(y + i) * (simd::load(dy + i) - fbatch(dot));
      simd::store(dx + i, simd::load(dx + i) + t);
    }
#else
    float dot = 0.f;
    for (int j = 0; j < cols; ++j) dot += y[j] * dy[j];
#endif
    for (; i < cols; ++i) dx[i] += y[i] * (dy[i] - dot);
  }
}

float cross_entropy_forward(float* probs, const float* logits, const int32_t* targets, const uint8_t* mask, int N,
                            int V) {
  const int count = counted_rows(mask, N);
  double total = 0.0;  // double: the mean of many per-row losses
  for (int n = 0; n < N; ++n) {
    const float* x = logits + (std::ptrdiff_t)n * V;
    const float lse = softmax_row(probs + (std::ptrdiff_t)n * V, x, V);
    if (mask && !mask[n]) continue;
    assert(targets[n] >= 0 && targets[n] < V);
    total += lse - x[targets[n]];
  }
  return count ? float(total / count) : 0.f;
}

void cross_entropy_backward(float* dlogits, const float* probs, const int32_t* targets, const uint8_t* mask, int N,
                            int V) {
  const int count = counted_rows(mask, N);
  if (!count) return;
  const float scale = 1.f / count;
  for (int n = 0; n < N; ++n) {
    if (mask && !mask[n]) continue;
    const float* p = probs + (std::ptrdiff_t)n * V;
    float* d = dlogits + (std::ptrdiff_t)n * V;
    int i = 0;
#if AP_SIMD
    using simd::fbatch;
    constexpr int W = int(simd::W);
    for (; i + W <= V; i += W) simd::store(d + i, xsimd::fma(simd::load(p + i), fbatch(scale), simd::load(d + i)));
#endif
    for (; i < V; ++i) d[i] += p[i] * scale;
    assert(targets[n] >= 0 && targets[n] < V);
    d[targets[n]] -= scale;
  }
}

}  // namespace ap
