// core/tensor/gemm_pack.hpp — private to gemm.cpp: register-tile sizes and the packing routines
// that copy a block of op(A) / op(B) into the order the micro-kernel streams it.
//
//   Ap: MR-row slivers,   sliver s holds op(A)(s·MR + r, k) at [s·MR·kc + k·MR + r]
//   Bp: NR-column slivers, sliver t holds op(B)(k, t·NR + c) at [t·NR·kc + k·NR + c]
// Rows / columns past the edge of the matrix are zero, so edge tiles run the full-size kernel.
// Packing is O(M·K + K·N) against O(M·N·K) flops, but at the model's small sizes (N = 64,
// K = 16) it is a visible fraction of the time, hence the vector copies and 4×4 transposes.
#pragma once
#include <algorithm>
#include <cstddef>

#include "tensor/simd.hpp"

namespace ap::gemm {

#if AP_SIMD
using simd::fbatch;
constexpr int W = int(simd::W);
#if defined(AP_GEMM_MR)  // tuning knobs for benchmarking variants, not set by the build
constexpr int MR = AP_GEMM_MR, NB = AP_GEMM_NB;
#elif defined(__AVX512F__)
constexpr int MR = 8, NB = 2;  // 16 of the 32 zmm; beat 12×32 and 6×48 (M = 64 divides by 8)
#else
constexpr int MR = 4, NB = 2;  // 8 accumulators of the 16 xmm (15 usable by V8 for wasm)
#endif
constexpr int NR = NB * W;
#elif defined(AP_GEMM_MR)
constexpr int MR = AP_GEMM_MR, NR = AP_GEMM_NB;
#else
// scalar: 8 float accumulators. Scalar wasm is bound by one mul + one add per 2 flops like the
// SIMD path; 4×2 and 2×4 measured ~20 % faster than 4×4, whose 16 accumulators spill in V8.
constexpr int MR = 4, NR = 2;
#endif

// Strided read-only view: element (i, j) = p[i*rs + j*cs].
struct View {
  const float* p;
  std::ptrdiff_t rs, cs;
};

#if XSIMD_WITH_SSE2 && !defined(XSIMD_NO_SUPPORTED_ARCHITECTURE)
#define AP_GEMM_T4 1
// dst[c·ldd + r] = s·src[r·lds + c] for a 4×4 block (unpack-based transpose, SSE / wasm SIMD128).
inline void transpose4(float* dst, std::ptrdiff_t ldd, const float* src, std::ptrdiff_t lds, float s = 1.f) {
  using f4 = xsimd::batch<float, xsimd::sse2>;
  const f4 vs(s);
  const f4 r0 = vs * f4::load_unaligned(src), r1 = vs * f4::load_unaligned(src + lds),
           r2 = vs * f4::load_unaligned(src + 2 * lds), r3 = vs * f4::load_unaligned(src + 3 * lds);
  const f4 t0 = xsimd::zip_lo(r0, r2), t1 = xsimd::zip_hi(r0, r2);  // a0 c0 a1 c1 | a2 c2 a3 c3
  const f4 t2 = xsimd::zip_lo(r1, r3), t3 = xsimd::zip_hi(r1, r3);  // b0 d0 b1 d1 | b2 d2 b3 d3
  xsimd::zip_lo(t0, t2).store_unaligned(dst);
  xsimd::zip_hi(t0, t2).store_unaligned(dst + ldd);
  xsimd::zip_lo(t1, t3).store_unaligned(dst + 2 * ldd);
  xsimd::zip_hi(t1, t3).store_unaligned(dst + 3 * ldd);
}
#else
#define AP_GEMM_T4 0
#endif

// Ap ← alpha · op(A)(0..mc, 0..kc) as MR-row slivers (see top). Folding alpha in here costs
// M·K multiplies instead of M·N at the C update, and lets full tiles start from C itself.
inline void pack_a(float* Ap, View A, int mc, int kc, float alpha) {
  for (int i = 0; i < mc; i += MR) {
    const int mr = std::min(MR, mc - i);
    float* dst = Ap + (std::ptrdiff_t)i * kc;
    if (A.rs == 1 && mr == MR) {  // A stored transposed (tn): MR contiguous values per k
      for (int k = 0; k < kc; ++k) {
        const float* src = A.p + k * A.cs + i;
        for (int r = 0; r < MR; ++r) dst[k * MR + r] = alpha * src[r];
      }
      continue;
    }
#if AP_GEMM_T4
    if (A.cs == 1 && mr == MR && MR % 4 == 0) {  // row-major A (nn, nt): 4×4 transposes
      const int k0 = kc & ~3;
      for (int r = 0; r < MR; r += 4)
        for (int k = 0; k < k0; k += 4) transpose4(dst + k * MR + r, MR, A.p + (i + r) * A.rs + k, A.rs, alpha);
      for (int r = 0; r < MR; ++r)
        for (int k = k0; k < kc; ++k) dst[k * MR + r] = alpha * A.p[(i + r) * A.rs + k];
      continue;
    }
#endif
    for (int r = 0; r < mr; ++r) {  // general / edge sliver
      const float* src = A.p + (i + r) * A.rs;
      for (int k = 0; k < kc; ++k) dst[k * MR + r] = alpha * src[k * A.cs];
    }
    for (int r = mr; r < MR; ++r)
      for (int k = 0; k < kc; ++k) dst[k * MR + r] = 0.f;
  }
}

// Bp ← op(B)(0..kc, 0..nc) as NR-column slivers (see top).
inline void pack_b(float* Bp, View B, int kc, int nc) {
  for (int j = 0; j < nc; j += NR) {
    const int nr = std::min(NR, nc - j);
    float* dst = Bp + (std::ptrdiff_t)j * kc;
    if (B.cs == 1 && nr == NR) {  // row-major B (nn, tn): one full row segment per k
      for (int k = 0; k < kc; ++k) {
        const float* src = B.p + k * B.rs + j;
#if AP_SIMD
        for (int b = 0; b < NB; ++b) simd::load(src + b * W).store_aligned(dst + k * NR + b * W);
#else
        for (int c = 0; c < NR; ++c) dst[k * NR + c] = src[c];
#endif
      }
      continue;
    }
    int c0 = 0, k0 = 0;
#if AP_GEMM_T4
    if (B.rs == 1) {  // B stored transposed (nt): 4×4 transposes of (column, k) blocks
      c0 = nr & ~3;
      k0 = kc & ~3;
      for (int c = 0; c < c0; c += 4)
        for (int k = 0; k < k0; k += 4) transpose4(dst + k * NR + c, NR, B.p + (j + c) * B.cs + k, B.cs);
    }
#endif
    // whatever the transposes left: the k tail of the transposed columns, then the other columns
    for (int c = 0; c < nr; ++c) {
      const float* src = B.p + (j + c) * B.cs;
      for (int k = c < c0 ? k0 : 0; k < kc; ++k) dst[k * NR + c] = src[k * B.rs];
    }
    if (nr < NR)
      for (int k = 0; k < kc; ++k) std::fill(dst + k * NR + nr, dst + (k + 1) * NR, 0.f);
  }
}

}  // namespace ap::gemm
