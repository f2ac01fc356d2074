// core/model/layers.cpp — linear and dropout layers. (Attention: attention.cpp.)
#include "model/layers.hpp"

#include <cstring>

#include "tensor/kernels.hpp"

namespace ap {

void linear_forward(float* out, const float* inp, const float* W, const float* b, int N, int I, int O) {
  for (int n = 0; n < N; ++n) {
    if (b) std::memcpy(out + size_t(n) * O, b, size_t(O) * sizeof(float));
    else std::memset(out + size_t(n) * O, 0, size_t(O) * sizeof(float));
  }
  gemm_nt(N, O, I, 1.0f, inp, I, W, I, out, O);
}

void linear_backward(float* dinp, float* dW, float* db, const float* dout, const float* inp,
                     const float* W, int N, int I, int O) {
  if (dinp) gemm_nn(N, I, O, 1.0f, dout, O, W, I, dinp, I);
  gemm_tn(O, I, N, 1.0f, dout, O, inp, I, dW, I);
  if (db)
    for (int n = 0; n < N; ++n)
      for (int o = 0; o < O; ++o) db[o] += dout[size_t(n) * O + o];
}

void dropout_forward(float* out, std::vector<uint8_t>& keep, const float* inp, size_t n, float p, Rng& rng) {
  keep.resize(n);
  const float scale = 1.0f / (1.0f - p);
  for (size_t i = 0; i < n; ++i) {
    keep[i] = rng.uniform() >= p;
    out[i] = keep[i] ? inp[i] * scale : 0.0f;
  }
}

void dropout_backward(float* dinp, const std::vector<uint8_t>& keep, const float* dout, size_t n, float p) {
  const float scale = 1.0f / (1.0f - p);
  for (size_t i = 0; i < n; ++i)
    if (keep[i]) dinp[i] += dout[i] * scale;
}

}  // namespace ap
