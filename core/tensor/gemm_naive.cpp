// core/tensor/gemm_naive.cpp — the obviously-correct reference GEMMs (triple loops, float
// accumulation in k order). Tests compare the packed kernels in gemm.cpp against these, and the
// benchmark prints the naive 512³ figure for scale.
#include "tensor/kernels.hpp"

namespace ap {

// C(M,N) += alpha * A(M,K)·B(K,N)
void gemm_nn_naive(int M, int N, int K, float alpha, const float* A, int lda, const float* B,
                   int ldb, float* C, int ldc) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0.f;
      for (int k = 0; k < K; ++k)
        s += A[(std::ptrdiff_t)i * lda + k] * B[(std::ptrdiff_t)k * ldb + j];
      C[(std::ptrdiff_t)i * ldc + j] += alpha * s;
    }
}

// C(M,N) += alpha * A(M,K)·B(N,K)ᵀ
void gemm_nt_naive(int M, int N, int K, float alpha, const float* A, int lda, const float* B,
                   int ldb, float* C, int ldc) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0.f;
      for (int k = 0; k < K; ++k)
        s += A[(std::ptrdiff_t)i * lda + k] * B[(std::ptrdiff_t)j * ldb + k];
      C[(std::ptrdiff_t)i * ldc + j] += alpha * s;
    }
}

// C(M,N) += alpha * A(K,M)ᵀ·B(K,N)
void gemm_tn_naive(int M, int N, int K, float alpha, const float* A, int lda, const float* B,
                   int ldb, float* C, int ldc) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0.f;
      for (int k = 0; k < K; ++k)
        s += A[(std::ptrdiff_t)k * lda + i] * B[(std::ptrdiff_t)k * ldb + j];
      C[(std::ptrdiff_t)i * ldc + j] += alpha * s;
    }
}

void gemm_batched_naive(Op op, int count, int M, int N, int K, float alpha, const float* A, int lda,
                        std::ptrdiff_t strideA, const float* B, int ldb, std::ptrdiff_t strideB,
                        float* C, int ldc, std::ptrdiff_t strideC) {
  for (int b = 0; b < count; ++b) {
    const float* a = A + b * strideA;
    const float* bb = B + b * strideB;
    float* c = C + b * strideC;
    switch (op) {
      case Op::NN:
        gemm_nn_naive(M, N, K, alpha, a, lda, bb, ldb, c, ldc);
        break;
      case Op::NT:
        gemm_nt_naive(M, N, K, alpha, a, lda, bb, ldb, c, ldc);
        break;
      case Op::TN:
        gemm_tn_naive(M, N, K, alpha, a, lda, bb, ldb, c, ldc);
        break;
    }
  }
}

}  // namespace ap
