// core/tensor/layernorm.cpp — LayerNorm over the last axis (Ba, Kiros & Hinton 2016), forward
// and backward with xsimd (the xtensor *_naive twins: naive.cpp). Layout follows llm.c's layernorm_forward/backward.
//
//   forward:  μ = mean(x), rstd = 1/√(var(x) + eps), n = (x − μ)·rstd, out = n·w + b
//   backward (per row, with g = w ⊙ dout):
//     dbias += dout,  dweight += n ⊙ dout,
//     dinp  += rstd · (g − mean(g) − n · mean(g ⊙ n))
// The variance is the two-pass biased one (divide by C), as in PyTorch. dweight and dbias sum
// N = B·T rows: they accumulate in double and are rounded once (a float running sum lost up to
// ~1e-4 relative where the rows cancel; issue 32).
#include <cmath>
#include <vector>

#include "tensor/kernels.hpp"
#include "tensor/thread_pool.hpp"
#include "tensor/simd.hpp"

namespace ap {

void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* weight, const float* bias,
                       int N, int C, float eps) {
  for (int n = 0; n < N; ++n) {
    const float* x = inp + (std::ptrdiff_t)n * C;  // (C,)
    float* o = out + (std::ptrdiff_t)n * C;
    int i = 0;
#if AP_SIMD
    using simd::fbatch;
    constexpr int W = int(simd::W);
    const float m = simd::row_sum(x, C) / C;
    fbatch vacc(0.f);
    for (; i + W <= C; i += W) {
      const fbatch d = simd::load(x + i) - fbatch(m);
      vacc = xsimd::fma(d, d, vacc);
    }
    float v = xsimd::hadd(vacc);
    for (; i < C; ++i) v += (x[i] - m) * (x[i] - m);
    const float s = 1.f / std::sqrt(v / C + eps);
    i = 0;
    for (; i + W <= C; i += W) {
      const fbatch nrm = (simd::load(x + i) - fbatch(m)) * fbatch(s);
      simd::store(o + i, xsimd::fma(nrm, simd::load(weight + i), simd::load(bias + i)));
    }
#else
    float m = 0.f;
    for (int j = 0; j < C; ++j) m += x[j];
    m /= C;
    float v = 0.f;
    for (int j = 0; j < C; ++j) v += (x[j] - m) * (x[j] - m);
    const float s = 1.f / std::sqrt(v / C + eps);
#endif
    for (; i < C; ++i) o[i] = (x[i] - m) * s * weight[i] + bias[i];
    mean[n] = m;
    rstd[n] = s;
  }
}

void layernorm_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                        const float* weight, const float* mean, const float* rstd, int N, int C) {
  static AP_THREAD_LOCAL std::vector<double> acc;  // Σ n̂ ⊙ dout (C), then Σ dout (C)
  acc.assign(2 * std::size_t(C), 0.0);
  double *accw = acc.data(), *accb = accw + C;
  for (int n = 0; n < N; ++n) {
    const float* x = inp + (std::ptrdiff_t)n * C;
    const float* dy = dout + (std::ptrdiff_t)n * C;
    float* dx = dinp + (std::ptrdiff_t)n * C;
    const float m = mean[n], s = rstd[n];
    // pass 1: the two row means of g and g⊙n
    float sum_g = 0.f, sum_gn = 0.f;
    int i = 0;
#if AP_SIMD
    using simd::fbatch;
    constexpr int W = int(simd::W);
    fbatch ag(0.f), agn(0.f);
    for (; i + W <= C; i += W) {
      const fbatch g = simd::load(weight + i) * simd::load(dy + i);
      const fbatch nrm = (simd::load(x + i) - fbatch(m)) * fbatch(s);
      ag += g;
      agn = xsimd::fma(g, nrm, agn);
    }
    sum_g = xsimd::hadd(ag);
    sum_gn = xsimd::hadd(agn);
#endif
    for (; i < C; ++i) {
      const float g = weight[i] * dy[i];
      sum_g += g;
      sum_gn += g * (x[i] - m) * s;
    }
    const float mg = sum_g / C, mgn = sum_gn / C;
    // pass 2: accumulate the three gradients
    i = 0;
#if AP_SIMD
    for (; i + W <= C; i += W) {
      const fbatch d = simd::load(dy + i);
      const fbatch nrm = (simd::load(x + i) - fbatch(m)) * fbatch(s);
      const fbatch g = simd::load(weight + i) * d;
      const fbatch t = (g - fbatch(mg) - nrm * fbatch(mgn)) * fbatch(s);
      simd::store(dx + i, simd::load(dx + i) + t);
    }
#endif
    for (; i < C; ++i) dx[i] += (weight[i] * dy[i] - mg - (x[i] - m) * s * mgn) * s;
    for (int j = 0; j < C; ++j) {
      accb[j] += dy[j];
      accw[j] += double((x[j] - m) * s) * dy[j];
    }
  }
  for (int j = 0; j < C; ++j) {
    dweight[j] = float(dweight[j] + accw[j]);
    dbias[j] = float(dbias[j] + accb[j]);
  }
}

}  // namespace ap
