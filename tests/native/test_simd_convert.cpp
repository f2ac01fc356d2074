// The SSE float-to-int conversions that xsimd's exp, tanh and erf end in, checked against x86's
// rules: natively these are the hardware instructions; in the wasm-simd build they are
// core/tensor/wasm-sse/emmintrin.h's SIMD versions, which replace Emscripten's lane-by-lane loop.
// Round to nearest even (cvtps) or truncate (cvttps); 0x80000000 for NaN and out of range.
// GCC 12's false -Wmaybe-uninitialized inside its AVX-512 intrinsics (tensor/simd.hpp says more)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xsimd/xsimd.hpp>

namespace {

constexpr int32_t kIndefinite = INT32_MIN;  // x86's "integer indefinite"

struct Case {
  float x;
  int32_t nearest, truncated;
};

std::vector<int32_t> lanes(__m128i v) {
  alignas(16) int32_t out[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(out), v);
  return {out[0], out[1], out[2], out[3]};
}

}  // namespace

TEST_CASE("SSE float-to-int conversions follow x86's rules", "[kernels][simd]") {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<Case> cases = {
      {0.5f, 0, 0},
      {1.5f, 2, 1},
      {2.5f, 2, 2},
      {-0.5f, 0, 0},
      {-1.5f, -2, -1},
      {-2.5f, -2, -2},
      {2.4999998f, 2, 2},
      {-7.75f, -8, -7},
      {1e9f, 1000000000, 1000000000},
      {2147483520.f, 2147483520, 2147483520},     // the largest float below 2^31
      {-2147483648.f, kIndefinite, kIndefinite},  // -2^31 itself: INT32_MIN either way
      {2147483648.f, kIndefinite, kIndefinite},
      {3e9f, kIndefinite, kIndefinite},
      {-3e9f, kIndefinite, kIndefinite},
      {inf, kIndefinite, kIndefinite},
      {-inf, kIndefinite, kIndefinite},
      {nan, kIndefinite, kIndefinite},
  };
  for (size_t i = 0; i < cases.size(); i += 4) {
    alignas(16) float in[4];
    for (size_t l = 0; l < 4; ++l) in[l] = cases[std::min(i + l, cases.size() - 1)].x;
    const __m128 v = _mm_load_ps(in);
    const std::vector<int32_t> nearest = lanes(_mm_cvtps_epi32(v)), truncated = lanes(_mm_cvttps_epi32(v));
    for (size_t l = 0; l < 4; ++l) {
      const Case& c = cases[std::min(i + l, cases.size() - 1)];
      INFO("x = " << c.x);
      CHECK(nearest[l] == c.nearest);
      CHECK(truncated[l] == c.truncated);
    }
  }
}

TEST_CASE("xsimd's exp, tanh and erf agree with the C library's", "[kernels][simd]") {
  using batch = xsimd::batch<float>;
  constexpr size_t W = batch::size;
  std::vector<float> xs;
  // up to 88: above its limit (about 88.38) xsimd's exp gives inf where the C library is finite
  for (float x = -110.f; x <= 88.f; x += 0.37f) xs.push_back(x);
  for (float x : {-std::numeric_limits<float>::infinity(), -1e-30f, 0.f, 1e-30f, 88.f, 89.f}) xs.push_back(x);
  while (xs.size() % W) xs.push_back(0.f);
  for (size_t i = 0; i < xs.size(); i += W) {
    const batch v = batch::load_unaligned(xs.data() + i);
    alignas(64) float e[W], t[W], r[W];
    xsimd::exp(v).store_aligned(e);
    xsimd::tanh(v).store_aligned(t);
    xsimd::erf(v).store_aligned(r);
    for (size_t l = 0; l < W; ++l) {
      const float x = xs[i + l];
      INFO("x = " << x);
      const float want = std::exp(x);
      if (std::isinf(want) || want == 0.f)
        CHECK(e[l] == want);
      else
        CHECK(std::fabs(e[l] - want) <= 4e-7f * want + 1e-38f);
      CHECK(std::fabs(t[l] - std::tanh(x)) <= 4e-7f);
      CHECK(std::fabs(r[l] - std::erf(x)) <= 4e-7f);
    }
  }
}

#endif
