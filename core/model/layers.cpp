// core/model/layers.cpp — the linear, LayerNorm, nonlinearity and dropout layers over shaped
// views: each checks its shapes, then calls its kernel on the data() pointers. (Attention:
// attention.cpp.)
#include "model/layers.hpp"

#include <cstring>

#include "tensor/kernels.hpp"

namespace ap {

// Out of line, like ParamStore::tensor: one copy of the view construction in the wasm module.
FView<2> mat(std::vector<float>& v, int rows, int cols) {
  return shaped(v, Shape<2>{size_t(rows), size_t(cols)}, "activation");
}
CView<2> cmat(const float* p, int rows, int cols) { return shaped(p, Shape<2>{size_t(rows), size_t(cols)}); }

namespace {
// The sizes (N, I, O) of a linear layer from its shapes: W (O, I), inp (N, I), out (N, O), b (O).
struct LinearSizes {
  int N, I, O;
};
LinearSizes linear_sizes(const CView<2>& inp, const CView<2>& W, const Shape<2>& out, const Shape<1>& b,
                         const char* out_name) {
  const size_t N = inp.shape(0), I = inp.shape(1), O = W.shape(0);
  expect_shape(W, Shape<2>{O, I}, "linear weight (out, in) for this input");
  expect_extents(out, Shape<2>{N, O}, out_name);
  expect_extents(b, Shape<1>{O}, "linear bias");
  return {int(N), int(I), int(O)};
}
}  // namespace

void linear_forward(FView<2> out, const CView<2>& inp, const CView<2>& W, const CView<1>& b) {
  const auto [N, I, O] = linear_sizes(inp, W, out.shape(), b.shape(), "linear output");
  float* o = out.data();
  for (int n = 0; n < N; ++n) std::memcpy(o + size_t(n) * O, b.data(), size_t(O) * sizeof(float));
  gemm_nt(N, O, I, 1.0f, inp.data(), I, W.data(), I, o, O);
}

void linear_backward(FView<2> dinp, FView<2> dW, FView<1> db, const CView<2>& dout, const CView<2>& inp,
                     const CView<2>& W, float dinp_beta) {
  const auto [N, I, O] = linear_sizes(inp, W, dout.shape(), db.shape(), "linear output gradient");
  expect_shape(dinp, Shape<2>{size_t(N), size_t(I)}, "linear input gradient");
  expect_shape(dW, Shape<2>{size_t(O), size_t(I)}, "linear weight gradient");
  gemm_nn(N, I, O, 1.0f, dout.data(), O, W.data(), I, dinp.data(), I, dinp_beta);
  gemm_tn(O, I, N, 1.0f, dout.data(), O, inp.data(), I, dW.data(), I);
  // db += Σ_n dout[n, :], summed in double (N = B·T rows; kernels.hpp).
  column_sum_add(db.data(), dout.data(), N, O);
}

void layernorm_forward(FView<2> out, FView<1> mean, FView<1> rstd, const CView<2>& inp, const CView<1>& weight,
                       const CView<1>& bias) {
  const size_t N = inp.shape(0), C = inp.shape(1);
  expect_shape(out, Shape<2>{N, C}, "LayerNorm output");
  expect_shape(mean, Shape<1>{N}, "LayerNorm mean");
  expect_shape(rstd, Shape<1>{N}, "LayerNorm rstd");
  expect_shape(weight, Shape<1>{C}, "LayerNorm weight");
  expect_shape(bias, Shape<1>{C}, "LayerNorm bias");
  layernorm_forward(out.data(), mean.data(), rstd.data(), inp.data(), weight.data(), bias.data(), int(N), int(C));
}

void layernorm_backward(FView<2> dinp, FView<1> dweight, FView<1> dbias, const CView<2>& dout, const CView<2>& inp,
                        const CView<1>& weight, const CView<1>& mean, const CView<1>& rstd) {
  const size_t N = inp.shape(0), C = inp.shape(1);
  expect_shape(dinp, Shape<2>{N, C}, "LayerNorm input gradient");
  expect_shape(dout, Shape<2>{N, C}, "LayerNorm output gradient");
  expect_shape(dweight, Shape<1>{C}, "LayerNorm weight gradient");
  expect_shape(dbias, Shape<1>{C}, "LayerNorm bias gradient");
  expect_shape(weight, Shape<1>{C}, "LayerNorm weight");
  expect_shape(mean, Shape<1>{N}, "LayerNorm mean");
  expect_shape(rstd, Shape<1>{N}, "LayerNorm rstd");
  layernorm_backward(dinp.data(), dweight.data(), dbias.data(), dout.data(), inp.data(), weight.data(), mean.data(),
                     rstd.data(), int(N), int(C));
}

namespace {
GeluKind gelu_kind(Activation kind) { return kind == Activation::GeluErf ? GeluKind::Erf : GeluKind::Tanh; }
}  // namespace

void nonlinearity_forward(FView<2> out, const CView<2>& inp, Activation kind) {
  const Shape<2> shape{inp.shape(0), inp.shape(1)};
  expect_shape(out, shape, "nonlinearity output");
  const size_t n = shape_size(shape);
  if (kind == Activation::Relu)
    relu_forward(out.data(), inp.data(), n);
  else
    gelu_forward(out.data(), inp.data(), n, gelu_kind(kind));
}

void nonlinearity_backward(FView<2> dinp, const CView<2>& inp, const CView<2>& dout, Activation kind) {
  const Shape<2> shape{inp.shape(0), inp.shape(1)};
  expect_shape(dinp, shape, "nonlinearity input gradient");
  expect_shape(dout, shape, "nonlinearity output gradient");
  const size_t n = shape_size(shape);
  if (kind == Activation::Relu)
    relu_backward(dinp.data(), inp.data(), dout.data(), n);
  else
    gelu_backward(dinp.data(), inp.data(), dout.data(), n, gelu_kind(kind));
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
