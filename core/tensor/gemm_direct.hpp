// core/tensor/gemm_direct.hpp — private to core/tensor: the unpacked GEMM that gemm_batched uses
// for attention's small per-head products (gemm_direct.cpp). Same arguments and conventions as
// gemm_batched's single product (kernels.hpp), triangles included.
#pragma once
#include "tensor/kernels.hpp"

namespace ap {

// Whether one product of these sizes takes the unpacked path (small op(B), a SIMD build).
bool gemm_direct_fits(Op op, int M, int N, int K);
void gemm_direct(Op op, int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb, float* C,
                 int ldc, float beta, Tri tri);

}  // namespace ap
