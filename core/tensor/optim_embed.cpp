// core/tensor/optim_embed.cpp — the AdamW parameter update and the embedding gather /
// scatter-add, with xsimd (the xtensor *_naive twins: naive.cpp).
//
// AdamW (Loshchilov & Hutter 2019, decoupled weight decay), step t = 1, 2, ...:
//   m = β1·m + (1−β1)·g,   v = β2·v + (1−β2)·g²
//   m̂ = m / (1−β1ᵗ),      v̂ = v / (1−β2ᵗ)
//   p −= lr · ( m̂ / (√v̂ + eps) + wd·p )
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <vector>

#include "tensor/kernels.hpp"
#include "tensor/thread_pool.hpp"
#include "tensor/simd.hpp"

namespace ap {

void adamw_update(float* params, const float* grads, float* m, float* v, std::size_t n, float lr, float beta1,
                  float beta2, float eps, float weight_decay, int t) {
  assert(t >= 1);
  // Bias corrections folded into per-step constants: m̂ = m·c1, v̂ = v·c2.
  const float c1 = 1.f / (1.f - std::pow(beta1, float(t)));
  const float c2 = 1.f / (1.f - std::pow(beta2, float(t)));
  std::size_t i = 0;
#if AP_SIMD
  using simd::fbatch;
  const fbatch b1(beta1), b2(beta2), nb1(1.f - beta1), nb2(1.f - beta2);
  const fbatch vc1(c1), vc2(c2), veps(eps), vlr(lr), vwd(weight_decay);
  for (; i + simd::W <= n; i += simd::W) {
    const fbatch g = simd::load(grads + i);
    const fbatch p = simd::load(params + i);
    const fbatch mi = xsimd::fma(b1, simd::load(m + i), nb1 * g);
    const fbatch vi = xsimd::fma(b2, simd::load(v + i), nb2 * g * g);
    simd::store(m + i, mi);
    simd::store(v + i, vi);
    const fbatch upd = (mi * vc1) / (xsimd::sqrt(vi * vc2) + veps) + vwd * p;
    simd::store(params + i, p - vlr * upd);
  }
#endif
  for (; i < n; ++i) {
    m[i] = beta1 * m[i] + (1.f - beta1) * grads[i];
    v[i] = beta2 * v[i] + (1.f - beta2) * grads[i] * grads[i];
    params[i] -= lr * ((m[i] * c1) / (std::sqrt(v[i] * c2) + eps) + weight_decay * params[i]);
  }
}

// out(N,C) = table(V,C)[ids[n]]: one row copy each.
void embedding_forward(float* out, const int32_t* ids, const float* table, int N, int C) {
  for (int n = 0; n < N; ++n) {
    assert(ids[n] >= 0);
    std::memcpy(out + (std::ptrdiff_t)n * C, table + (std::ptrdiff_t)ids[n] * C, sizeof(float) * C);
  }
}

// dtable(V,C) += dout(N,C) scattered by ids (repeated ids accumulate). A row of a small vocabulary
// sums many of the N = B·T rows: each touched row accumulates in double and is rounded once.
void embedding_backward(float* dtable, const float* dout, const int32_t* ids, int N, int C) {
  static AP_THREAD_LOCAL std::vector<double> acc;
  static AP_THREAD_LOCAL std::vector<int32_t> slot;  // id -> its row in acc, -1 when untouched
  int32_t rows = 0, top = 0;
  for (int n = 0; n < N; ++n) top = std::max(top, ids[n] + 1);
  slot.assign(std::size_t(top), -1);
  for (int n = 0; n < N; ++n) {
    assert(ids[n] >= 0);
    if (slot[ids[n]] < 0) slot[ids[n]] = rows++;
  }
  acc.assign(std::size_t(rows) * C, 0.0);
  for (int n = 0; n < N; ++n) {
    double* a = acc.data() + (std::ptrdiff_t)slot[ids[n]] * C;
    const float* g = dout + (std::ptrdiff_t)n * C;
    for (int i = 0; i < C; ++i) a[i] += g[i];
  }
  for (int32_t id = 0; id < top; ++id) {
    if (slot[id] < 0) continue;
    float* d = dtable + (std::ptrdiff_t)id * C;
    const double* a = acc.data() + (std::ptrdiff_t)slot[id] * C;
    for (int i = 0; i < C; ++i) d[i] = float(d[i] + a[i]);
  }
}

}  // namespace ap
