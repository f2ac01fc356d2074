// core/tensor/activations.cpp — GELU (tanh approximation and exact erf form) and ReLU, forward
// and backward, each with its scalar *_naive twin. Backward accumulates: dinp += f'(inp)·dout.
//
// GELU formulas (Hendrycks & Gimpel 2016):
//   tanh: g(x) = ½x(1 + tanh u),  u = s(x + 0.044715x³), s = √(2/π)
//         g'(x) = ½(1 + tanh u) + ½x(1 − tanh²u)·s(1 + 3·0.044715x²)
//   erf:  g(x) = ½x(1 + erf(x/√2))
//         g'(x) = ½(1 + erf(x/√2)) + x·φ(x),  φ(x) = exp(−x²/2)/√(2π)
#include <cmath>

#include "tensor/kernels.hpp"
#include "tensor/simd.hpp"

namespace ap {
namespace {

constexpr float kS = 0.7978845608028654f;  // √(2/π)
constexpr float kC = 0.044715f;
constexpr float kInvSqrt2 = 0.7071067811865476f;    // 1/√2
constexpr float kInvSqrt2Pi = 0.3989422804014327f;  // 1/√(2π)

// Scalar formulas, shared by the naive twins and the SIMD tails.
inline float gelu_s(float x, GeluKind kind) {
  if (kind == GeluKind::Tanh) return 0.5f * x * (1.f + std::tanh(kS * (x + kC * x * x * x)));
  return 0.5f * x * (1.f + std::erf(x * kInvSqrt2));
}
inline float gelu_grad_s(float x, GeluKind kind) {
  if (kind == GeluKind::Tanh) {
    const float th = std::tanh(kS * (x + kC * x * x * x));
    return 0.5f * (1.f + th) + 0.5f * x * (1.f - th * th) * kS * (1.f + 3.f * kC * x * x);
  }
  return 0.5f * (1.f + std::erf(x * kInvSqrt2)) + x * kInvSqrt2Pi * std::exp(-0.5f * x * x);
}

#if AP_SIMD
using simd::fbatch;
using simd::W;
inline fbatch gelu_v(fbatch x, GeluKind kind) {
  const fbatch half(0.5f), one(1.f);
  if (kind == GeluKind::Tanh)
    return half * x * (one + xsimd::tanh(fbatch(kS) * xsimd::fma(fbatch(kC) * x, x * x, x)));
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
  for (; i < n; ++i) out[i] = gelu_s(inp[i], kind);
}

void gelu_backward(float* dinp, const float* inp, const float* dout, std::size_t n, GeluKind kind) {
  std::size_t i = 0;
#if AP_SIMD
  for (; i + W <= n; i += W) {
    const fbatch g = gelu_grad_v(simd::load(inp + i), kind);
    simd::store(dinp + i, xsimd::fma(g, simd::load(dout + i), simd::load(dinp + i)));
  }
#endif
  for (; i < n; ++i) dinp[i] += gelu_grad_s(inp[i], kind) * dout[i];
}

void gelu_forward_naive(float* out, const float* inp, std::size_t n, GeluKind kind) {
  for (std::size_t i = 0; i < n; ++i) out[i] = gelu_s(inp[i], kind);
}

void gelu_backward_naive(float* dinp, const float* inp, const float* dout, std::size_t n,
                         GeluKind kind) {
  for (std::size_t i = 0; i < n; ++i) dinp[i] += gelu_grad_s(inp[i], kind) * dout[i];
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
    const fbatch g =
        xsimd::select(simd::load(inp + i) > fbatch(0.f), simd::load(dout + i), fbatch(0.f));
    simd::store(dinp + i, simd::load(dinp + i) + g);
  }
#endif
  for (; i < n; ++i) dinp[i] += inp[i] > 0.f ? dout[i] : 0.f;
}

void relu_forward_naive(float* out, const float* inp, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = inp[i] > 0.f ? inp[i] : 0.f;
}

void relu_backward_naive(float* dinp, const float* inp, const float* dout, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) dinp[i] += inp[i] > 0.f ? dout[i] : 0.f;
}

}  // namespace ap
