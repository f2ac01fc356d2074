// core/tensor/gemm_direct.cpp — the unpacked GEMM for attention's small per-head products.
//
// A causal tiny model makes ~1000 attention products per step, each (T×HS)·(HS×T) or
// (T×T)·(T×HS) with HS = 16. Through the packed driver (gemm.cpp) each pays for packing both
// operands and for tiles at the triangle's edge; here none is packed. op(B) is read in place as
// rows of vectors (op(B) = B for NN and TN; for NT, Bᵀ is written once per product into a small
// scratch: a K×N copy with K = HS), and op(A) is read as scalars that are broadcast (A(i,k) for
// NN and NT, A(k,i) for TN). A block of MR rows × one panel of NV vectors keeps its sums in
// registers over the whole k range, which the triangle narrows per block:
//   LowerA  k < i0 + MR (the last MR-1 k masked per row),  UpperA  k >= i0 (the first MR-1 masked),
//   LowerC  only panels that start at j <= i0 + MR - 1; with beta = 0 the rest of each row is 0.
// Every element is summed in increasing k, one fma at a time. The naive twin (gemm_naive.cpp)
// checks it in tests/native/test_kernels.cpp through gemm_batched.
#include <algorithm>
#include <cstring>

#include "tensor/gemm_direct.hpp"
#include "tensor/simd.hpp"

namespace ap {

#if AP_SIMD
namespace {

using simd::fbatch;
using simd::load;
using simd::store;
constexpr int W = int(simd::W);
constexpr int NV = W >= 16 ? 1 : 2;    // vectors per panel: 4×8 floats in SSE/wasm, 4×16 in AVX-512
constexpr int MR = 4;                  // rows per block
constexpr long kMaxTransposed = 8192;  // floats of Bᵀ an NT product copies (K×N)

struct Operands {
  const float* A;
  int lda;
  const float* B;  // op(B), row-major (K,N)
  int ldb;
  float* C;
  int ldc;
  float alpha, beta;
};

template <bool TA>
inline float a_at(const Operands& o, int i, int k) {
  return TA ? o.A[std::size_t(k) * o.lda + i] : o.A[std::size_t(i) * o.lda + k];
}

// The k range of a row block: [full_lo, full_hi) counts for every row; [edge_lo, edge_hi)
// counts for row i only where the triangle keeps A(i,k).
struct KRange {
  int full_lo, full_hi, edge_lo, edge_hi;
};
inline KRange k_range(Tri tri, int i0, int K) {
  if (tri == Tri::LowerA) return {0, std::min(i0 + 1, K), std::min(i0 + 1, K), std::min(i0 + MR, K)};
  if (tri == Tri::UpperA) return {std::min(i0 + MR - 1, K), K, std::min(i0, K), std::min(i0 + MR - 1, K)};
  return {0, K, 0, 0};
}
inline bool keeps(Tri tri, int i, int k) { return tri == Tri::LowerA ? k <= i : tri == Tri::UpperA ? k >= i : true; }

inline void finish(const Operands& o, float* c, const fbatch& acc) {
  if (o.beta == 0.f)
    store(c, acc * fbatch(o.alpha));
  else
    store(c, xsimd::fma(acc, fbatch(o.alpha), load(c) * fbatch(o.beta)));
}

// Rows [i0, i0+R) × columns [j, j + V·W): sums in registers over the block's k range.
template <bool TA, int R, int V>
void block(const Operands& o, Tri tri, const KRange& kr, int i0, int j) {
  fbatch acc[R][V];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) acc[r][v] = fbatch(0.f);
  auto step = [&](int k, const float* a) {
    const float* b = o.B + std::size_t(k) * o.ldb + j;
    fbatch bv[V];
    for (int v = 0; v < V; ++v) bv[v] = load(b + v * W);
    for (int r = 0; r < R; ++r) {
      const fbatch ar(a[r]);
      for (int v = 0; v < V; ++v) acc[r][v] = xsimd::fma(ar, bv[v], acc[r][v]);
    }
  };
  float a[R];
  // k in increasing order: the masked edge of UpperA comes first, that of LowerA last.
  auto edge = [&]() {
    for (int k = kr.edge_lo; k < kr.edge_hi; ++k) {
      for (int r = 0; r < R; ++r) a[r] = keeps(tri, i0 + r, k) ? a_at<TA>(o, i0 + r, k) : 0.f;
      step(k, a);
    }
  };
  if (tri == Tri::UpperA) edge();
  for (int k = kr.full_lo; k < kr.full_hi; ++k) {
    for (int r = 0; r < R; ++r) a[r] = a_at<TA>(o, i0 + r, k);
    step(k, a);
  }
  if (tri != Tri::UpperA) edge();
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) finish(o, o.C + std::size_t(i0 + r) * o.ldc + j + v * W, acc[r][v]);
}

// Column j (a tail column past the last whole vector), rows [i0, i0+R), scalar.
template <bool TA, int R>
void column(const Operands& o, Tri tri, const KRange& kr, int i0, int j) {
  for (int r = 0; r < R; ++r) {
    const int i = i0 + r;
    float s = 0.f;
    auto add = [&](int k) {
      if (keeps(tri, i, k)) s += a_at<TA>(o, i, k) * o.B[std::size_t(k) * o.ldb + j];
    };
    if (tri == Tri::UpperA)
      for (int k = kr.edge_lo; k < kr.edge_hi; ++k) add(k);
    for (int k = kr.full_lo; k < kr.full_hi; ++k) add(k);
    if (tri != Tri::UpperA)
      for (int k = kr.edge_lo; k < kr.edge_hi; ++k) add(k);
    float& c = o.C[std::size_t(i) * o.ldc + j];
    c = o.beta == 0.f ? o.alpha * s : o.beta * c + o.alpha * s;
  }
}

template <bool TA, int R>
void row_block(const Operands& o, int N, int K, Tri tri, int i0) {
  const KRange kr = k_range(tri, i0, K);
  // LowerC: columns past the block's last row are not needed.
  const int n_hi = tri == Tri::LowerC ? std::min(N, i0 + R) : N;
  int j = 0;
  for (; j + NV * W <= n_hi; j += NV * W) block<TA, R, NV>(o, tri, kr, i0, j);
  if constexpr (NV > 1)
    for (; j + W <= n_hi; j += W) block<TA, R, 1>(o, tri, kr, i0, j);
  // A LowerC row block may end mid-vector: one more whole vector if it fits in C's row.
  if (j < n_hi && j + W <= N) {
    block<TA, R, 1>(o, tri, kr, i0, j);
    j += W;
  }
  for (; j < n_hi; ++j) column<TA, R>(o, tri, kr, i0, j);
  if (tri == Tri::LowerC && o.beta == 0.f)
    for (int r = 0; r < R; ++r) {
      const int i = i0 + r;
      if (i + 1 < N) std::fill(o.C + std::size_t(i) * o.ldc + i + 1, o.C + std::size_t(i) * o.ldc + N, 0.f);
    }
}

template <bool TA>
void run(const Operands& o, int M, int N, int K, Tri tri) {
  int i0 = 0;
  for (; i0 + MR <= M; i0 += MR) row_block<TA, MR>(o, N, K, tri, i0);
  for (; i0 < M; ++i0) row_block<TA, 1>(o, N, K, tri, i0);
}

}  // namespace

bool gemm_direct_fits(Op op, int M, int N, int K) {
  if (M <= 0 || N <= 0 || K <= 0) return false;
  // op(B) (K×N) is re-read by every row block, so it must stay in L1/L2; NT copies Bᵀ once.
  const long kn = long(K) * N;
  if (kn > 16384 || N < W) return false;
  return op != Op::NT || kn <= kMaxTransposed;
}

void gemm_direct(Op op, int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb, float* C,
                 int ldc, float beta, Tri tri) {
  Operands o{A, lda, B, ldb, C, ldc, alpha, beta};
  float bt[kMaxTransposed];  // NT: Bᵀ (K,N) from B (N,K), on the stack (32 KB at most)
  if (op == Op::NT) {
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < K; ++k) bt[std::size_t(k) * N + n] = B[std::size_t(n) * ldb + k];
    o.B = bt;
    o.ldb = N;
  }
  if (op == Op::TN)
    run<true>(o, M, N, K, tri);
  else
    run<false>(o, M, N, K, tri);
}

#else  // the wasm-scalar build keeps the packed driver's scalar path

bool gemm_direct_fits(Op, int, int, int) { return false; }
void gemm_direct(Op, int, int, int, float, const float*, int, const float*, int, float*, int, float, Tri) {}

#endif

}  // namespace ap
