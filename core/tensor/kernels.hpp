// core/tensor/kernels.hpp — the SIMD kernels every layer of the model is built from.
//
// Letters used in shape comments throughout core/:
//   B  batch size          T  sequence length      C  d_model (channels)
//   NH number of heads     HS head size (C / NH)   V  vocabulary size
//   N  "rows" = any flattened leading dimensions (usually B*T)
//
// Conventions (llm.c style): outputs first, inputs after. Every backward ACCUMULATES into its
// gradient outputs with += (so a caller zeroes gradients once per step). All tensors are
// contiguous row-major float32. Each fast kernel has a scalar `*_naive` twin with the same
// signature, used as the reference in tests and benchmarks.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ap {

// ---- GEMM -------------------------------------------------------------------------------------
// C(M,N) = beta·C + alpha · op(A)(M,K) · op(B)(K,N), row-major with leading dimensions (row
// strides). beta is 1 (accumulate, the default, as every backward does) or 0 (write: C's old
// contents are never read, so a caller need not zero C first); other values scale C first.
//   gemm_nn: A is (M,K) lda>=K,  B is (K,N) ldb>=N
//   gemm_nt: A is (M,K) lda>=K,  B is (N,K) ldb>=K   (C += A·Bᵀ)
//   gemm_tn: A is (K,M) lda>=M,  B is (K,N) ldb>=N   (C += Aᵀ·B)
// Any M, N, K >= 0 (zero sizes leave C as beta·C). Packed and register-blocked.
//
// Triangles, for causal attention (square products, M = N or M = K):
//   Tri::LowerC  only C(i,j) with j <= i is computed. With beta = 0 the rest of C is set to 0;
//                with beta = 1 it is not meaningful afterwards (callers must not read it).
//   Tri::LowerA  op(A)(i,k) is taken as 0 for k > i (whatever is stored there): C = A_lower·B.
//   Tri::UpperA  op(A)(i,k) is taken as 0 for k < i: C = A_upper·B.
// The skipped tiles are not computed, which halves the attention GEMMs of a causal model.
enum class Tri { Full, LowerC, LowerA, UpperA };
void gemm_nn(int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
             float beta = 1.f, Tri tri = Tri::Full);
void gemm_nt(int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
             float beta = 1.f, Tri tri = Tri::Full);
void gemm_tn(int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
             float beta = 1.f, Tri tri = Tri::Full);
void gemm_nn_naive(int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb, float* C,
                   int ldc, float beta = 1.f, Tri tri = Tri::Full);
void gemm_nt_naive(int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb, float* C,
                   int ldc, float beta = 1.f, Tri tri = Tri::Full);
void gemm_tn_naive(int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb, float* C,
                   int ldc, float beta = 1.f, Tri tri = Tri::Full);

// Batched small GEMM for attention: `count` independent products; operand i starts at
// A + i*strideA (likewise B, C). Same op, beta and triangle conventions as above. Used for the
// B·NH products (T×HS)·(HS×T)ᵀ (scores: Op::NT) and (T×T)·(T×HS) (values: Op::NN).
enum class Op { NN, NT, TN };
void gemm_batched(Op op, int count, int M, int N, int K, float alpha, const float* A, int lda, std::ptrdiff_t strideA,
                  const float* B, int ldb, std::ptrdiff_t strideB, float* C, int ldc, std::ptrdiff_t strideC,
                  float beta = 1.f, Tri tri = Tri::Full);
void gemm_batched_naive(Op op, int count, int M, int N, int K, float alpha, const float* A, int lda,
                        std::ptrdiff_t strideA, const float* B, int ldb, std::ptrdiff_t strideB, float* C, int ldc,
                        std::ptrdiff_t strideC, float beta = 1.f, Tri tri = Tri::Full);

// ---- LayerNorm --------------------------------------------------------------------------------
// out(N,C) = (inp - mean) * rstd * weight(C) + bias(C); saves mean(N), rstd(N) for backward.
void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* weight, const float* bias,
                       int N, int C, float eps = 1e-5f);
// dinp(N,C) += ..., dweight(C) += ..., dbias(C) += ...
void layernorm_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                        const float* weight, const float* mean, const float* rstd, int N, int C);
void layernorm_forward_naive(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                             const float* bias, int N, int C, float eps = 1e-5f);
void layernorm_backward_naive(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                              const float* weight, const float* mean, const float* rstd, int N, int C);

// ---- Activations (elementwise over n values) --------------------------------------------------
enum class GeluKind { Tanh, Erf };
void gelu_forward(float* out, const float* inp, std::size_t n, GeluKind kind);
void gelu_backward(float* dinp, const float* inp, const float* dout, std::size_t n, GeluKind kind);
void gelu_forward_naive(float* out, const float* inp, std::size_t n, GeluKind kind);
void gelu_backward_naive(float* dinp, const float* inp, const float* dout, std::size_t n, GeluKind kind);
void relu_forward(float* out, const float* inp, std::size_t n);
void relu_backward(float* dinp, const float* inp, const float* dout, std::size_t n);
void relu_forward_naive(float* out, const float* inp, std::size_t n);
void relu_backward_naive(float* dinp, const float* inp, const float* dout, std::size_t n);

// ---- Row softmax (max-subtracted) -------------------------------------------------------------
// out(rows,cols) = softmax over each row of inp. backward: dinp += out ⊙ (dout - <dout,out>_row)
void softmax_forward(float* out, const float* inp, int rows, int cols);
void softmax_backward(float* dinp, const float* out, const float* dout, int rows, int cols);
void softmax_forward_naive(float* out, const float* inp, int rows, int cols);
void softmax_backward_naive(float* dinp, const float* out, const float* dout, int rows, int cols);

// ---- Cross-entropy from logits ----------------------------------------------------------------
// logits(N,V), targets(N). mask(N) may be null (all rows count); a row with mask 0 is ignored.
// Forward writes probs(N,V) (softmax of logits) and returns the mean loss over counted rows
// (0 when no row counts). Backward: dlogits += (probs - onehot(target)) / count for counted rows.
float cross_entropy_forward(float* probs, const float* logits, const int32_t* targets, const uint8_t* mask, int N,
                            int V);
void cross_entropy_backward(float* dlogits, const float* probs, const int32_t* targets, const uint8_t* mask, int N,
                            int V);
float cross_entropy_forward_naive(float* probs, const float* logits, const int32_t* targets, const uint8_t* mask, int N,
                                  int V);
void cross_entropy_backward_naive(float* dlogits, const float* probs, const int32_t* targets, const uint8_t* mask,
                                  int N, int V);

// ---- AdamW (decoupled weight decay, Loshchilov & Hutter) --------------------------------------
// t is the 1-based step count (for bias correction). m, v are updated in place.
// p -= lr * ( mhat / (sqrt(vhat) + eps) + weight_decay * p )
void adamw_update(float* params, const float* grads, float* m, float* v, std::size_t n, float lr, float beta1,
                  float beta2, float eps, float weight_decay, int t);
void adamw_update_naive(float* params, const float* grads, float* m, float* v, std::size_t n, float lr, float beta1,
                        float beta2, float eps, float weight_decay, int t);

// ---- Embedding gather / scatter-add -----------------------------------------------------------
// out(N,C) = table[ids[n]] ; dtable(V,C) += dout rows scattered by ids.
void embedding_forward(float* out, const int32_t* ids, const float* table, int N, int C);
void embedding_backward(float* dtable, const float* dout, const int32_t* ids, int N, int C);
void embedding_forward_naive(float* out, const int32_t* ids, const float* table, int N, int C);
void embedding_backward_naive(float* dtable, const float* dout, const int32_t* ids, int N, int C);

// ---- Column sums -------------------------------------------------------------------------------
// d(O) += Σ_n g(N,O)[n, :], each column summed in double (a bias gradient sums N = B·T rows,
// which a float accumulator loses to rounding: ~N·2⁻²⁴ relative, worse where the rows cancel).
void column_sum_add(float* d, const float* g, int N, int O);

// ---- Build introspection ----------------------------------------------------------------------
// Name of the xsimd architecture the kernels were compiled for ("avx512bw", "sse4.1", ...), or
// "scalar" when the build has no SIMD (the wasm-scalar variant).
const char* simd_arch_name();
bool simd_enabled();

}  // namespace ap
