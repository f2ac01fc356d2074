// core/tensor/gemm.cpp — the fast GEMMs: C(M,N) = beta·C + alpha · op(A)(M,K) · op(B)(K,N),
// optionally over a triangle only (causal attention; kernels.hpp).
//
// Structure (Goto/BLIS): the three public forms differ only in how op(A) and op(B) are read, so
// each becomes a strided view {p, rs, cs} (element (i,j) at p[i*rs + j*cs]) and one driver
//   for jc (NC cols of C) · for pc (KC of K): pack B → Bp · for ic (MC rows): pack αA → Ap ·
//   for jr, ir: micro-kernel on an MR×NR tile
// Packing (gemm_pack.hpp) copies each operand once into the exact order the micro-kernel streams
// it, so the inner loop has unit-stride aligned loads whatever the transposition. (Reading a
// row-major A in place was tried: in wasm each broadcast then needs its own i32 address
// arithmetic, which cost more than the 4×4-transpose packing.) alpha is folded into Ap, so a
// full tile starts from C and stores straight back. Edge tiles run the full-size kernel on
// zero-padded panels into a small tile, and only its valid part is added to C.
//
// Micro-kernel: MR rows × NB registers of W floats. Per k it loads NB batches of B, broadcasts MR
// values of A and issues MR·NB multiply-adds into MR·NB accumulators that stay in registers.
//   sse4.1 / wasm SIMD128: 4 × (2·4). wasm has no FMA, so each step is a mul + an add and the
//                          ceiling is ~3 vector ops per cycle ≈ 12 flop/cycle.
//   avx512:                8 × (2·16), real FMAs.
//   no SIMD (wasm scalar): 4 × 2 floats.
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <vector>

#include "tensor/gemm_direct.hpp"
#include "tensor/gemm_pack.hpp"
#include "tensor/kernels.hpp"
#include "tensor/thread_pool.hpp"

namespace ap {
namespace {
using namespace gemm;

// Cache blocking: a KC×NR sliver of B stays in L1 while the MC×KC block of A (L2) streams past.
#ifndef AP_GEMM_KC
#define AP_GEMM_KC 256
#define AP_GEMM_MC 128
#endif
constexpr int KC = AP_GEMM_KC;
constexpr int MC = (AP_GEMM_MC / MR) * MR;
constexpr int NC = (2048 / NR) * NR;

// Grow-only, 64-byte aligned scratch for the packed panels (one per thread, see gemm_split).
float* scratch(std::vector<float>& buf, std::size_t n) {
  if (buf.size() < n + 16) buf.resize(n + 16);
  auto addr = reinterpret_cast<std::uintptr_t>(buf.data());
  return reinterpret_cast<float*>((addr + 63) & ~std::uintptr_t(63));
}

// Adds (from_c) or copies tile(MR,NR) to the valid mr×nr corner of C (edge tiles only).
inline void put_tile(float* C, int ldc, const float* tile, int mr, int nr, bool from_c) {
  for (int r = 0; r < mr; ++r)
    for (int c = 0; c < nr; ++c)
      C[(std::ptrdiff_t)r * ldc + c] = (from_c ? C[(std::ptrdiff_t)r * ldc + c] : 0.f) + tile[r * NR + c];
}
inline void zero_tile(float* C, int ldc, int mr, int nr) {
  for (int r = 0; r < mr; ++r) std::fill(C + (std::ptrdiff_t)r * ldc, C + (std::ptrdiff_t)r * ldc + nr, 0.f);
}

// C(mr,nr) = [C +] Ap(kc, MR) · Bp(kc, NR) (alpha is already in Ap). A full tile starts its
// accumulators from C (from_c) or from 0 (beta = 0) and stores them back: no separate add or
// zeroing pass, which matters at K = 16.
// The fixed-trip loops are fully unrolled so that acc[][] lives in registers; the k loop bumps
// pointers so that every load in wasm is a static offset from one address (indexing by k cost
// two i32 ops per operand per step, ~6 %). Unrolling k further measured slower under V8.
// Native -msse4.1 (no AVX) pays a shufps per broadcast on the shuffle port, so it tops out
// below wasm SIMD128, which V8 lowers to vbroadcastss on this machine.
template <bool kFull, bool from_c>  // kFull: mr == MR and nr == NR
inline void micro_kernel(int kc, const float* Ap, const float* Bp, float* C, int ldc, int mr, int nr) {
#if AP_SIMD
  fbatch acc[MR][NB];
#pragma GCC unroll 16
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
    for (int b = 0; b < NB; ++b)
      acc[r][b] = kFull && from_c ? simd::load(C + (std::ptrdiff_t)r * ldc + b * W) : fbatch(0.f);
  for (int k = 0; k < kc; ++k, Ap += MR, Bp += NR) {
    fbatch bv[NB];
#pragma GCC unroll 4
    for (int b = 0; b < NB; ++b) bv[b] = fbatch::load_aligned(Bp + b * W);
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
      const fbatch av(Ap[r]);
#pragma GCC unroll 4
      for (int b = 0; b < NB; ++b) acc[r][b] = xsimd::fma(av, bv[b], acc[r][b]);
    }
  }
  if (kFull) {
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
      for (int b = 0; b < NB; ++b) simd::store(C + (std::ptrdiff_t)r * ldc + b * W, acc[r][b]);
    return;
  }
  alignas(64) float tile[MR * NR];
  for (int r = 0; r < MR; ++r)
    for (int b = 0; b < NB; ++b) acc[r][b].store_aligned(tile + r * NR + b * W);
  put_tile(C, ldc, tile, mr, nr, from_c);
#else
  // Scalar twin for builds without SIMD: an MR×NR register tile of floats.
  float acc[MR][NR];
  for (int r = 0; r < MR; ++r)
    for (int c = 0; c < NR; ++c) acc[r][c] = kFull && from_c ? C[(std::ptrdiff_t)r * ldc + c] : 0.f;
  for (int k = 0; k < kc; ++k) {
    const float* b = Bp + k * NR;
    for (int r = 0; r < MR; ++r) {
      const float av = Ap[k * MR + r];
      for (int c = 0; c < NR; ++c) acc[r][c] += av * b[c];
    }
  }
  if (kFull) {
    for (int r = 0; r < MR; ++r)
      for (int c = 0; c < NR; ++c) C[(std::ptrdiff_t)r * ldc + c] = acc[r][c];
    return;
  }
  put_tile(C, ldc, &acc[0][0], mr, nr, from_c);
#endif
}

AP_THREAD_LOCAL std::vector<float> g_apack, g_bpack;

// Zeroes the packed entries of an MR-row sliver (global rows i0.., global columns k0..k0+kc)
// that a triangular op(A) takes as 0, within the k range its tile reads (see tile_k_range).
void mask_sliver(float* ap, int kc, int i0, int k0, Tri tri) {
  // only the block's columns k0 + k in [i0, i0 + MR) can be partly masked (the diagonal block)
  const int k_lo = std::max(0, i0 - k0), k_hi = std::min(kc, i0 + MR - k0);
  for (int k = k_lo; k < k_hi; ++k)
    for (int r = 0; r < MR; ++r) {
      const int gk = k0 + k, gi = i0 + r;
      if (tri == Tri::LowerA ? gk > gi : gk < gi) ap[k * MR + r] = 0.f;
    }
}

// The k range [lo, hi) of a KC block (global start k0, length kc) that rows i0..i0+MR of a
// triangular op(A) can reach; the rest of the block is zero for every row of the tile.
inline void tile_k_range(Tri tri, int i0, int k0, int kc, int& lo, int& hi) {
  lo = 0, hi = kc;
  if (tri == Tri::LowerA) hi = std::clamp(i0 + MR - k0, 0, kc);
  if (tri == Tri::UpperA) lo = std::clamp(i0 - k0, 0, kc);
}

// One tile, with the accumulate-or-write choice made at compile time.
inline void run_tile(int kc, const float* ap, const float* bp, float* c, int ldc, int mr, int nr, bool from_c) {
  if (mr == MR && nr == NR)
    from_c ? micro_kernel<true, true>(kc, ap, bp, c, ldc, MR, NR)
           : micro_kernel<true, false>(kc, ap, bp, c, ldc, MR, NR);
  else
    from_c ? micro_kernel<false, true>(kc, ap, bp, c, ldc, mr, nr)
           : micro_kernel<false, false>(kc, ap, bp, c, ldc, mr, nr);
}

// The whole (no triangle) product of one packed block: full tiles on a lean path (the per-tile
// overhead is ~20 % of the work at K = 16).
template <bool from_c>
void full_block(int mc, int nc, int kc, const float* Ap, const float* Bp, float* C, int ldc) {
  for (int jr = 0; jr < nc; jr += NR) {
    const float* bp = Bp + (std::ptrdiff_t)jr * kc;
    const float* ap = Ap;
    float* c = C + jr;
    const int nr = std::min(NR, nc - jr);
    int ir = 0;
    if (nr == NR)
      for (; ir + MR <= mc; ir += MR, ap += MR * kc, c += (std::ptrdiff_t)MR * ldc)
        micro_kernel<true, from_c>(kc, ap, bp, c, ldc, MR, NR);
    for (; ir < mc; ir += MR, ap += MR * kc, c += (std::ptrdiff_t)MR * ldc)
      micro_kernel<false, from_c>(kc, ap, bp, c, ldc, std::min(MR, mc - ir), nr);
  }
}

// C(M,N) = [C +] alpha · A(M,K) · B(K,N) for strided views A and B (beta 0 or 1); C is row-major
// with ldc. `tri` skips the tiles a causal product does not need (kernels.hpp).
void gemm_driver(int M, int N, int K, float alpha, View A, View B, float* C, int ldc, float beta, Tri tri) {
  if (M <= 0 || N <= 0) return;
  if (beta != 0.f && beta != 1.f) {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) C[(std::ptrdiff_t)i * ldc + j] *= beta;
    beta = 1.f;
  }
  if (K <= 0 || alpha == 0.f) {
    if (beta == 0.f) zero_tile(C, ldc, M, N);
    return;
  }
  const int ncmax = std::min(N, NC), kcmax = std::min(K, KC), mcmax = std::min(M, MC);
  float* Bp = scratch(g_bpack, (std::size_t)kcmax * ((ncmax + NR - 1) / NR) * NR);
  float* Ap = scratch(g_apack, (std::size_t)kcmax * ((mcmax + MR - 1) / MR) * MR);
  const bool triA = tri == Tri::LowerA || tri == Tri::UpperA;
  for (int jc = 0; jc < N; jc += NC) {
    const int nc = std::min(NC, N - jc);
    for (int pc = 0; pc < K; pc += KC) {
      const int kc = std::min(KC, K - pc);
      const bool from_c = pc > 0 || beta != 0.f, last = pc + kc == K;
      pack_b(Bp, View{B.p + pc * B.rs + jc * B.cs, B.rs, B.cs}, kc, nc);
      for (int ic = 0; ic < M; ic += MC) {
        const int mc = std::min(MC, M - ic);
        pack_a(Ap, View{A.p + ic * A.rs + pc * A.cs, A.rs, A.cs}, mc, kc, alpha);
        if (tri == Tri::Full) {
          float* c = C + (std::ptrdiff_t)ic * ldc + jc;
          from_c ? full_block<true>(mc, nc, kc, Ap, Bp, c, ldc) : full_block<false>(mc, nc, kc, Ap, Bp, c, ldc);
          continue;
        }
        if (triA)
          for (int ir = 0; ir < mc; ir += MR) mask_sliver(Ap + (std::ptrdiff_t)ir * kc, kc, ic + ir, pc, tri);
        for (int jr = 0; jr < nc; jr += NR) {
          const int nr = std::min(NR, nc - jr), j0 = jc + jr;
          const float* bp = Bp + (std::ptrdiff_t)jr * kc;
          const float* ap = Ap;
          float* c = C + (std::ptrdiff_t)ic * ldc + j0;
          for (int ir = 0; ir < mc; ir += MR, ap += MR * kc, c += (std::ptrdiff_t)MR * ldc) {
            const int mr = std::min(MR, mc - ir), i0 = ic + ir;
            if (tri == Tri::LowerC && j0 > i0 + mr - 1) {  // wholly above the diagonal
              if (!from_c) zero_tile(c, ldc, mr, nr);
              continue;
            }
            int lo = 0, hi = kc;
            if (triA) tile_k_range(tri, i0, pc, kc, lo, hi);
            if (hi <= lo) {
              if (!from_c) zero_tile(c, ldc, mr, nr);
              continue;
            }
            run_tile(hi - lo, ap + lo * MR, bp + lo * NR, c, ldc, mr, nr, from_c);
            if (tri == Tri::LowerC && beta == 0.f && last && j0 + nr - 1 > i0)  // crosses it
              for (int r = 0; r < mr; ++r)
                for (int j = std::max(0, i0 + r + 1 - j0); j < nr; ++j) c[(std::ptrdiff_t)r * ldc + j] = 0.f;
          }
        }
      }
    }
  }
}

// ---- threads (thread_pool.hpp) ----------------------------------------------------------------
// A whole (Tri::Full) product of at least kMinSplitWork multiply-adds is cut into one block of whole
// MR-row tiles (or NR-column tiles, whichever has more) per thread, each block run by the same
// driver. Blocks start on tile boundaries and K is never split, so every output sees the same
// tiles, K blocks and summation order as on one thread: the result is bit-identical. Smaller
// products stay on the calling thread. Triangles come from attention, which splits by head.
void gemm_split(int M, int N, int K, float alpha, View A, View B, float* C, int ldc, float beta, Tri tri) {
  const int mtiles = (M + MR - 1) / MR, ntiles = (N + NR - 1) / NR;
  const bool by_rows = mtiles >= ntiles;
  const int tiles = by_rows ? mtiles : ntiles;
  const int parts = tri == Tri::Full ? split_parts(tiles, double(M) * N * K) : 1;
  if (parts < 2) return gemm_driver(M, N, K, alpha, A, B, C, ldc, beta, tri);
  parallel_for(parts, [&](int p) {
    const int t0 = int(std::int64_t(tiles) * p / parts), t1 = int(std::int64_t(tiles) * (p + 1) / parts);
    if (by_rows) {
      const int i0 = t0 * MR, i1 = std::min(M, t1 * MR);
      gemm_driver(i1 - i0, N, K, alpha, View{A.p + i0 * A.rs, A.rs, A.cs}, B, C + (std::ptrdiff_t)i0 * ldc, ldc, beta,
                  tri);
    } else {
      const int j0 = t0 * NR, j1 = std::min(N, t1 * NR);
      gemm_driver(M, j1 - j0, K, alpha, A, View{B.p + j0 * B.cs, B.rs, B.cs}, C + j0, ldc, beta, tri);
    }
  });
}

}  // namespace

void gemm_nn(int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
             float beta, Tri tri) {
  assert(lda >= K && ldb >= N && ldc >= N);
  gemm_split(M, N, K, alpha, View{A, lda, 1}, View{B, ldb, 1}, C, ldc, beta, tri);
}

void gemm_nt(int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
             float beta, Tri tri) {
  assert(lda >= K && ldb >= K && ldc >= N);
  gemm_split(M, N, K, alpha, View{A, lda, 1}, View{B, 1, ldb}, C, ldc, beta, tri);
}

void gemm_tn(int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
             float beta, Tri tri) {
  assert(lda >= M && ldb >= N && ldc >= N);
  gemm_split(M, N, K, alpha, View{A, 1, lda}, View{B, ldb, 1}, C, ldc, beta, tri);
}

void gemm_batched(Op op, int count, int M, int N, int K, float alpha, const float* A, int lda, std::ptrdiff_t strideA,
                  const float* B, int ldb, std::ptrdiff_t strideB, float* C, int ldc, std::ptrdiff_t strideC,
                  float beta, Tri tri) {
  // Attention products are small (T×HS·HS×T): read in place, unpacked (gemm_direct.cpp), when
  // op(B) fits in cache; otherwise one packed driver call each.
  if (gemm_direct_fits(op, M, N, K)) {
    for (int i = 0; i < count; ++i)
      gemm_direct(op, M, N, K, alpha, A + i * strideA, lda, B + i * strideB, ldb, C + i * strideC, ldc, beta, tri);
    return;
  }
  for (int i = 0; i < count; ++i) {
    const float* a = A + i * strideA;
    const float* b = B + i * strideB;
    float* c = C + i * strideC;
    switch (op) {
      case Op::NN:
        gemm_nn(M, N, K, alpha, a, lda, b, ldb, c, ldc, beta, tri);
        break;
      case Op::NT:
        gemm_nt(M, N, K, alpha, a, lda, b, ldb, c, ldc, beta, tri);
        break;
      case Op::TN:
        gemm_tn(M, N, K, alpha, a, lda, b, ldb, c, ldc, beta, tri);
        break;
    }
  }
}

}  // namespace ap
