// core/tensor/wasm-sse/emmintrin.h — Emscripten 3.1.6's SSE2 header, with its two float-to-int
// conversions replaced by SIMD ones. Only the wasm-simd builds see this folder (CMakeLists.txt puts
// it before the system headers); `#include_next` reads the real header.
//
// The real header writes _mm_cvtps_epi32 and _mm_cvttps_epi32 as a loop over the four lanes with a
// libc lrint() call each (the header marks them as not yet optimized). xsimd's exp (and so softmax, tanh, erf, sigmoid) ends
// in one of them (`to_int(k)`, then ldexp), so the loop was a tenth of a tiny-ref step in wasm.
// These give x86's results: round to nearest even (cvtps) or truncate (cvtt), and 0x80000000 for
// NaN and for values outside the int32 range. tests/native/test_simd_convert.cpp checks both
// against those rules, natively on the hardware instructions and in wasm on these.
#ifndef AP_WASM_SSE_EMMINTRIN_H
#define AP_WASM_SSE_EMMINTRIN_H

#define _mm_cvtps_epi32 ap_emscripten_scalar_cvtps_epi32
#define _mm_cvttps_epi32 ap_emscripten_scalar_cvttps_epi32
#include_next <emmintrin.h>
#undef _mm_cvtps_epi32
#undef _mm_cvttps_epi32

// Lanes whose value is in int32's range (|x| < 2^31; false for NaN) keep `converted`; the others
// get 0x80000000, as x86 gives.
static __inline__ __m128i __attribute__((__always_inline__, __nodebug__))
ap_x86_int_range(__m128 __a, v128_t __converted) {
  const v128_t __in = wasm_f32x4_lt(wasm_f32x4_abs((v128_t)__a), wasm_f32x4_splat(2147483648.0f));
  return (__m128i)wasm_v128_bitselect(__converted, wasm_i32x4_splat((int)0x80000000), __in);
}

static __inline__ __m128i __attribute__((__always_inline__, __nodebug__)) _mm_cvtps_epi32(__m128 __a) {
  return ap_x86_int_range(__a, wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest((v128_t)__a)));
}

static __inline__ __m128i __attribute__((__always_inline__, __nodebug__)) _mm_cvttps_epi32(__m128 __a) {
  return ap_x86_int_range(__a, wasm_i32x4_trunc_sat_f32x4((v128_t)__a));
}

#endif
