// core/tensor/simd.hpp — private to core/tensor: which SIMD the kernels compile for.
//
// xsimd picks its architecture from the compiler flags (-march=native -> avx512bw here,
// -msse4.1 -> sse4.1, and under Emscripten -msimd128 -msse4.1 -> sse4.1 lowered onto wasm
// SIMD128). Without any of these (the wasm-scalar build) xsimd defines
// XSIMD_NO_SUPPORTED_ARCHITECTURE and has no batch types at all, so every kernel file guards its
// SIMD path with AP_SIMD and keeps a plain scalar path beside it.
#pragma once
// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics (the `__m512 __Y = __Y`
// idiom for undefined registers) wherever xsimd's exp/tanh/erf inline; it is a false positive.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <cstddef>
#include <xsimd/xsimd.hpp>

#if defined(XSIMD_NO_SUPPORTED_ARCHITECTURE)
#define AP_SIMD 0
#else
#define AP_SIMD 1
#endif

namespace ap::simd {

#if AP_SIMD
using arch = xsimd::default_arch;
using fbatch = xsimd::batch<float, arch>;
constexpr std::size_t W = fbatch::size;  // floats per register: 4 (sse4.1/wasm), 16 (avx512)

inline fbatch load(const float* p) { return fbatch::load_unaligned(p); }
inline void store(float* p, const fbatch& v) { v.store_unaligned(p); }

// Horizontal sum / max of a row of n floats (n may be any size; scalar tail).
inline float row_sum(const float* x, std::size_t n) {
  fbatch acc(0.f);
  std::size_t i = 0;
  for (; i + W <= n; i += W) acc += load(x + i);
  float s = xsimd::hadd(acc);
  for (; i < n; ++i) s += x[i];
  return s;
}
inline float row_dot(const float* x, const float* y, std::size_t n) {
  fbatch acc(0.f);
  std::size_t i = 0;
  for (; i + W <= n; i += W) acc = xsimd::fma(load(x + i), load(y + i), acc);
  float s = xsimd::hadd(acc);
  for (; i < n; ++i) s += x[i] * y[i];
  return s;
}
#endif

}  // namespace ap::simd
