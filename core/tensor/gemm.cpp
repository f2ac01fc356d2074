// core/tensor/gemm.cpp — the fast GEMMs: C(M,N) += alpha · op(A)(M,K) · op(B)(K,N).
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

#include "tensor/gemm_pack.hpp"
#include "tensor/kernels.hpp"

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

// Grow-only, 64-byte aligned scratch for the packed panels (single-threaded by design).
float* scratch(std::vector<float>& buf, std::size_t n) {
  if (buf.size() < n + 16) buf.resize(n + 16);
  auto addr = reinterpret_cast<std::uintptr_t>(buf.data());
  return reinterpret_cast<float*>((addr + 63) & ~std::uintptr_t(63));
}

// Adds tile(MR,NR) to the valid mr×nr corner of C (edge tiles only).
inline void add_tile(float* C, int ldc, const float* tile, int mr, int nr) {
  for (int r = 0; r < mr; ++r)
    for (int c = 0; c < nr; ++c) C[(std::ptrdiff_t)r * ldc + c] += tile[r * NR + c];
}

// C(mr,nr) += Ap(kc, MR) · Bp(kc, NR) (alpha is already in Ap). A full tile starts its
// accumulators from C and stores them back: no separate add pass, which matters at K = 16.
// The fixed-trip loops are fully unrolled so that acc[][] lives in registers; the k loop bumps
// pointers so that every load in wasm is a static offset from one address (indexing by k cost
// two i32 ops per operand per step, ~6 %). Unrolling k further measured slower under V8.
// Native -msse4.1 (no AVX) pays a shufps per broadcast on the shuffle port, so it tops out
// below wasm SIMD128, which V8 lowers to vbroadcastss on this machine.
template <bool kFull>  // kFull: mr == MR and nr == NR
inline void micro_kernel(int kc, const float* Ap, const float* Bp, float* C, int ldc, int mr,
                         int nr) {
#if AP_SIMD
  fbatch acc[MR][NB];
#pragma GCC unroll 16
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
    for (int b = 0; b < NB; ++b)
      acc[r][b] = kFull ? simd::load(C + (std::ptrdiff_t)r * ldc + b * W) : fbatch(0.f);
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
  add_tile(C, ldc, tile, mr, nr);
#else
  // Scalar twin for builds without SIMD: an MR×NR register tile of floats.
  float acc[MR][NR];
  for (int r = 0; r < MR; ++r)
    for (int c = 0; c < NR; ++c) acc[r][c] = kFull ? C[(std::ptrdiff_t)r * ldc + c] : 0.f;
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
  add_tile(C, ldc, &acc[0][0], mr, nr);
#endif
}

std::vector<float> g_apack, g_bpack;

// C(M,N) += alpha · A(M,K) · B(K,N) for strided views A and B; C is row-major with ldc.
void gemm_driver(int M, int N, int K, float alpha, View A, View B, float* C, int ldc) {
  if (M <= 0 || N <= 0 || K <= 0 || alpha == 0.f) return;
  const int ncmax = std::min(N, NC), kcmax = std::min(K, KC), mcmax = std::min(M, MC);
  float* Bp = scratch(g_bpack, (std::size_t)kcmax * ((ncmax + NR - 1) / NR) * NR);
  float* Ap = scratch(g_apack, (std::size_t)kcmax * ((mcmax + MR - 1) / MR) * MR);
  for (int jc = 0; jc < N; jc += NC) {
    const int nc = std::min(NC, N - jc);
    for (int pc = 0; pc < K; pc += KC) {
      const int kc = std::min(KC, K - pc);
      pack_b(Bp, View{B.p + pc * B.rs + jc * B.cs, B.rs, B.cs}, kc, nc);
      for (int ic = 0; ic < M; ic += MC) {
        const int mc = std::min(MC, M - ic);
        pack_a(Ap, View{A.p + ic * A.rs + pc * A.cs, A.rs, A.cs}, mc, kc, alpha);
        for (int jr = 0; jr < nc; jr += NR) {
          const float* bp = Bp + (std::ptrdiff_t)jr * kc;
          const float* ap = Ap;
          float* c = C + (std::ptrdiff_t)ic * ldc + jc + jr;
          const int nr = std::min(NR, nc - jr);
          int ir = 0;
          // full tiles on a lean path (per-tile overhead is ~20 % of the work at K = 16)
          if (nr == NR)
            for (; ir + MR <= mc; ir += MR, ap += MR * kc, c += (std::ptrdiff_t)MR * ldc)
              micro_kernel<true>(kc, ap, bp, c, ldc, MR, NR);
          for (; ir < mc; ir += MR, ap += MR * kc, c += (std::ptrdiff_t)MR * ldc)
            micro_kernel<false>(kc, ap, bp, c, ldc, std::min(MR, mc - ir), nr);
        }
      }
    }
  }
}

}  // namespace

void gemm_nn(int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb,
             float* C, int ldc) {
  assert(lda >= K && ldb >= N && ldc >= N);
  gemm_driver(M, N, K, alpha, View{A, lda, 1}, View{B, ldb, 1}, C, ldc);
}

void gemm_nt(int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb,
             float* C, int ldc) {
  assert(lda >= K && ldb >= K && ldc >= N);
  gemm_driver(M, N, K, alpha, View{A, lda, 1}, View{B, 1, ldb}, C, ldc);
}

void gemm_tn(int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb,
             float* C, int ldc) {
  assert(lda >= M && ldb >= N && ldc >= N);
  gemm_driver(M, N, K, alpha, View{A, 1, lda}, View{B, ldb, 1}, C, ldc);
}

void gemm_batched(Op op, int count, int M, int N, int K, float alpha, const float* A, int lda,
                  std::ptrdiff_t strideA, const float* B, int ldb, std::ptrdiff_t strideB, float* C,
                  int ldc, std::ptrdiff_t strideC) {
  // Attention products are small (T×HS·HS×T); one driver call each keeps the packing per
  // product, which is cheap next to the 2·M·N·K flops it feeds.
  for (int i = 0; i < count; ++i) {
    const float* a = A + i * strideA;
    const float* b = B + i * strideB;
    float* c = C + i * strideC;
    switch (op) {
      case Op::NN:
        gemm_nn(M, N, K, alpha, a, lda, b, ldb, c, ldc);
        break;
      case Op::NT:
        gemm_nt(M, N, K, alpha, a, lda, b, ldb, c, ldc);
        break;
      case Op::TN:
        gemm_tn(M, N, K, alpha, a, lda, b, ldb, c, ldc);
        break;
    }
  }
}

}  // namespace ap
