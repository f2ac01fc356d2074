// core/tensor/optim_embed.cpp — the AdamW parameter update and the embedding gather /
// scatter-add, with xsimd (the xtensor *_naive twins: naive.cpp).
//
// AdamW (Loshchilov & Hutter 2019, decoupled weight decay), step t = 1, 2, ...:
//   m = β1·m + (1−β1)·g,   v = β2·v + (1−β2)·g²
//   m̂ = m / (1−β1ᵗ),      v̂ = v / (1−β2ᵗ)
//   p −= lr · ( m̂ / (√v̂ + eps) + wd·p )
#include <cassert>
#include <cmath>
#include <cstring>

#include "tensor/kernels.hpp"
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

// dtable(V,C) += dout(N,C) scattered by ids (repeated ids accumulate).
void embedding_backward(float* dtable, const float* dout, const int32_t* ids, int N, int C) {
  for (int n = 0; n < N; ++n) {
    assert(ids[n] >= 0);
    float* d = dtable + (std::ptrdiff_t)ids[n] * C;
    const float* g = dout + (std::ptrdiff_t)n * C;
    int i = 0;
#if AP_SIMD
    for (; i + int(simd::W) <= C; i += int(simd::W)) simd::store(d + i, simd::load(d + i) + simd::load(g + i));
#endif
    for (; i < C; ++i) d[i] += g[i];
  }
}

}  // namespace ap
