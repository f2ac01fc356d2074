// core/tensor/gemm_naive.cpp — the obviously-correct reference GEMMs, as xtensor expressions over
// strided views of the operands (xt.hpp `strided`: the leading dimension is the row stride, a
// transposed operand is the same memory read with swapped strides). Each row of C gains
// alpha·Σ_k op(A)[i,k]·op(B)[k,:], the sum taken in k order in float. Tests compare the packed
// kernels in gemm.cpp against these; the benchmark prints the naive 512³ figure for scale.
#include "tensor/kernels.hpp"
#include "tensor/xt.hpp"

namespace ap {

namespace {

// C(M,N) += alpha · op(A)(M,K) · op(B)(K,N)
void gemm_ref(bool ta, bool tb, int M, int N, int K, float alpha, const float* A, int lda,
              const float* B, int ldb, float* C, int ldc) {
  const auto a = strided(A, M, K, lda, ta);  // (M,K)
  const auto b = strided(B, K, N, ldb, tb);  // (K,N)
  auto c = strided(C, M, N, ldc, false);     // (M,N)
  xt::xtensor<float, 1> row = xt::zeros<float>({std::size_t(N)});
  for (int i = 0; i < M; ++i) {
    row.fill(0.f);
    for (int k = 0; k < K; ++k) row += a(i, k) * xt::row(b, k);
    xt::row(c, i) += alpha * row;
  }
}

}  // namespace

void gemm_nn_naive(int M, int N, int K, float alpha, const float* A, int lda, const float* B,
                   int ldb, float* C, int ldc) {
  gemm_ref(false, false, M, N, K, alpha, A, lda, B, ldb, C, ldc);
}

void gemm_nt_naive(int M, int N, int K, float alpha, const float* A, int lda, const float* B,
                   int ldb, float* C, int ldc) {
  gemm_ref(false, true, M, N, K, alpha, A, lda, B, ldb, C, ldc);
}

void gemm_tn_naive(int M, int N, int K, float alpha, const float* A, int lda, const float* B,
                   int ldb, float* C, int ldc) {
  gemm_ref(true, false, M, N, K, alpha, A, lda, B, ldb, C, ldc);
}

void gemm_batched_naive(Op op, int count, int M, int N, int K, float alpha, const float* A, int lda,
                        std::ptrdiff_t strideA, const float* B, int ldb, std::ptrdiff_t strideB,
                        float* C, int ldc, std::ptrdiff_t strideC) {
  for (int b = 0; b < count; ++b)
    gemm_ref(op == Op::TN, op == Op::NT, M, N, K, alpha, A + b * strideA, lda, B + b * strideB, ldb,
             C + b * strideC, ldc);
}

}  // namespace ap
