// core/tensor/activations.cpp — GELU (tanh approximation and exact erf form) and ReLU, forward
// and backward with xsimd; the formulas and their scalar forms are in tensor/gelu.hpp, the
// xtensor *_naive twins in naive.cpp. Backward accumulates: dinp += f'(inp)·dout.
#include <cmath>

#include "tensor/gelu.hpp"
#include "tensor/kernels.hpp"
#include "tensor/simd.hpp"

namespace ap {
namespace {

using namespace gelu;  // kS, kC, kInvSqrt2, kInvSqrt2Pi (tensor/gelu.hpp)

#if AP_SIMD
using simd::fbatch;
using simd::W;
inline fbatch gelu_v(fbatch x, GeluKind kind) {
  const fbatch half(0.5f), one(1.f);
  if (kind == GeluKind::Tanh) return half * x * (one + xsimd::tanh(fbatch(kS) * xsimd::fma(fbatch(kC) * x, x * x, x)));
  return half * x * (one + xsimd::erf(x * fbatch(kInvSqrt2)));
}
inline fbatch gelu_grad_v(fbatch x, GeluKind kind) {
  const fbatch half(0.5f), one(1.f);
  const fbatch x2 = x * x;
  if (kind == GeluKind::Tanh) {
    const fbatch th = xsimd::tanh(fbatch(kS) * xsimd::fma(fbatch(kC) * x, x2, x));
    const fbatch du = fbatch(kS) * xsimd::fma(fbatch(3.f * kC), x2, one);
    return xsimd::fma(half * x * (one - th * th), du, half * (one + th));
  }
  const fbatch phi = fbatch(kInvSqrt2Pi) * xsimd::exp(fbatch(-0.5f) * x2);
  return xsimd::fma(x, phi, half * (one + xsimd::erf(x * fbatch(kInvSqrt2))));
}
#endif

}  // namespace

void gelu_forward(float* out, const float* inp, std::size_t n, GeluKind kind) {
  std::size_t i = 0;
#if AP_SIMD
  for (; i + W <= n; i += W) simd::store(out + i, gelu_v(simd::load(inp + i), kind));
#endif
  for (; i < n; ++i) out[i] = gelu::value(inp[i], kind);
}

void gelu_backward(float* dinp, const float* inp, const float* dout, std::size_t n, GeluKind kind) {
  std::size_t i = 0;
#if AP_SIMD
  for (; i + W <= n; i += W) {
    const fbatch g = gelu_grad_v(simd::load(inp + i), kind);
    simd::store(dinp + i, xsimd::fma(g, simd::load(dout + i), simd::load(dinp + i)));
  }
#endif
  for (; i < n; ++i) dinp[i] += gelu::grad(inp[i], kind) * dout[i];
}

// ReLU: out = max(x, 0); the gradient at exactly 0 is taken as 0.
void relu_forward(float* out, const float* inp, std::size_t n) {
  std::size_t i = 0;
#if AP_SIMD
  for (; i + W <= n; i += W) simd::store(out + i, xsimd::max(simd::load(inp + i), fbatch(0.f)));
#endif
  for (; i < n; ++i) out[i] = inp[i] > 0.f ? inp[i] : 0.f;
}

void relu_backward(float* dinp, const float* inp, const float* dout, std::size_t n) {
  std::size_t i = 0;
#if AP_SIMD
  for (; i + W <= n; i += W) {
    const fbatch g = xsimd::select(simd::load(inp + i) > fbatch(0.f), simd::load(dout + i), fbatch(0.f));
    simd::store(dinp + i, simd::load(dinp + i) + g);
  }
#endif
  for (; i < n; ++i) dinp[i] += inp[i] > 0.f ? dout[i] : 0.f;
}

}  // namespace ap
