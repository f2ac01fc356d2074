// core/tensor/gelu.hpp — private to core/tensor: the GELU constants and scalar formulas
// (Hendrycks & Gimpel 2016), shared by the SIMD tails (activations.cpp) and the xtensor naive
// twins (naive.cpp), so that both evaluate the same expression in the same order.
//   tanh: g(x) = ½x(1 + tanh u),  u = s(x + 0.044715x³), s = √(2/π)
//         g'(x) = ½(1 + tanh u) + ½x(1 − tanh²u)·s(1 + 3·0.044715x²)
//   erf:  g(x) = ½x(1 + erf(x/√2))
//         g'(x) = ½(1 + erf(x/√2)) + x·φ(x),  φ(x) = exp(−x²/2)/√(2π)
#pragma once
#include <cmath>

#include "tensor/kernels.hpp"

namespace ap::gelu {

constexpr float kS = 0.7978845608028654f;  // √(2/π)
constexpr float kC = 0.044715f;
constexpr float kInvSqrt2 = 0.7071067811865476f;    // 1/√2
constexpr float kInvSqrt2Pi = 0.3989422804014327f;  // 1/√(2π)

inline float value(float x, GeluKind kind) {
  if (kind == GeluKind::Tanh) return 0.5f * x * (1.f + std::tanh(kS * (x + kC * x * x * x)));
  return 0.5f * x * (1.f + std::erf(x * kInvSqrt2));
}
inline float grad(float x, GeluKind kind) {
  if (kind == GeluKind::Tanh) {
    const float th = std::tanh(kS * (x + kC * x * x * x));
    return 0.5f * (1.f + th) + 0.5f * x * (1.f - th * th) * kS * (1.f + 3.f * kC * x * x);
  }
  return 0.5f * (1.f + std::erf(x * kInvSqrt2)) + x * kInvSqrt2Pi * std::exp(-0.5f * x * x);
}

}  // namespace ap::gelu
