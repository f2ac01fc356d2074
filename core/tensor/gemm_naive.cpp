// core/tensor/gemm_naive.cpp — the obviously-correct reference GEMMs, as xtensor expressions over
// strided views of the operands (xt.hpp `strided`: the leading dimension is the row stride, a
// transposed operand is the same memory read with swapped strides). Each row of C becomes
// beta·C[i,:] + alpha·Σ_k op(A)[i,k]·op(B)[k,:], the sum taken in k order in float, over the
// triangle the Tri argument keeps. Tests compare the packed
// kernels in gemm.cpp against these; the benchmark prints the naive 512³ figure for scale.
#include <algorithm>

#include "tensor/kernels.hpp"
#include "tensor/xt.hpp"

namespace ap {

namespace {

// C(M,N) = beta·C + alpha · op(A)(M,K) · op(B)(K,N), with the triangles of kernels.hpp.
void gemm_ref(bool ta, bool tb, int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb,
              float* C, int ldc, float beta, Tri tri) {
  const auto a = strided(A, M, K, lda, ta);  // (M,K)
  const auto b = strided(B, K, N, ldb, tb);  // (K,N)
  auto c = strided(C, M, N, ldc, false);     // (M,N)
  xt::xtensor<float, 1> row = xt::zeros<float>({std::size_t(N)});
  for (int i = 0; i < M; ++i) {
    row.fill(0.f);
    const int k_lo = tri == Tri::UpperA ? std::min(i, K) : 0;
    const int k_hi = tri == Tri::LowerA ? std::min(i + 1, K) : K;
    for (int k = k_lo; k < k_hi; ++k) row += a(i, k) * xt::row(b, k);
    // LowerC: columns j > i are 0 when writing, untouched when accumulating (the fast kernel
    // leaves them unspecified then; tests compare the lower triangle only)
    const int j_hi = tri == Tri::LowerC ? std::min(i + 1, N) : N;
    auto out = xt::view(xt::row(c, i), xt::range(0, j_hi));
    const auto part = xt::view(row, xt::range(0, j_hi));
    if (beta == 0.f)
      out = alpha * part;  // old C never read (not even a NaN)
    else
      out = beta * out + alpha * part;
    if (tri == Tri::LowerC && beta == 0.f && j_hi < N) xt::view(xt::row(c, i), xt::range(j_hi, N)) = 0.f;
  }
}

}  // namespace

#define AP_NAIVE_FORM(name, ta, tb)                                                                            \
  void gemm_##name##_naive(int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb, \
                           float* C, int ldc, float beta, Tri tri) {                                           \
    gemm_ref(ta, tb, M, N, K, alpha, A, lda, B, ldb, C, ldc, beta, tri);                                       \
  }
AP_NAIVE_FORM(nn, false, false)
AP_NAIVE_FORM(nt, false, true)
AP_NAIVE_FORM(tn, true, false)
#undef AP_NAIVE_FORM

void gemm_batched_naive(Op op, int count, int M, int N, int K, float alpha, const float* A, int lda,
                        std::ptrdiff_t strideA, const float* B, int ldb, std::ptrdiff_t strideB, float* C, int ldc,
                        std::ptrdiff_t strideC, float beta, Tri tri) {
  for (int b = 0; b < count; ++b)
    gemm_ref(op == Op::TN, op == Op::NT, M, N, K, alpha, A + b * strideA, lda, B + b * strideB, ldb, C + b * strideC,
             ldc, beta, tri);
}

}  // namespace ap
