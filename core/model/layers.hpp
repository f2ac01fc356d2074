// core/model/layers.hpp — the layers a block is made of, each an explicit forward/backward pair
// (outputs first, inputs after; backward accumulates with +=). Shapes: N = B*T rows.
// Tensors cross these functions as xtensor views that carry their shapes (tensor/xt.hpp): the
// parameters from ParamStore::tensor/grad_tensor, the activation buffers through mat()/cmat(); a
// layer derives its sizes from the shapes and throws ShapeError when they do not fit together.
#pragma once
#include <cstring>
#include <vector>

#include "normalization/normalization.hpp"
#include "position/position.hpp"
#include "tensor/rng.hpp"
#include "tensor/xt.hpp"

namespace ap {

// Size v to n zeros, reusing its memory (no allocation once it has grown).
inline float* zero_fill(std::vector<float>& v, size_t n) {
  v.resize(n);
  std::memset(v.data(), 0, n * sizeof(float));
  return v.data();
}

// An activation buffer as a (rows, cols) view; it must hold exactly rows·cols values.
FView<2> mat(std::vector<float>& v, int rows, int cols);
// Read-only (rows, cols) view of memory whose size the caller vouches for.
CView<2> cmat(const float* p, int rows, int cols);

// out(N,O) = inp(N,I) · W(O,I)ᵀ + b(O)   (PyTorch nn.Linear layout)
void linear_forward(FView<2> out, const CView<2>& inp, const CView<2>& W, const CView<1>& b);
// dinp(N,I) = dinp_beta·dinp + dout·W (beta 1 accumulates, 0 writes without reading dinp); dW(O,I) += doutᵀ·inp ; db(O) += Σ_n dout
void linear_backward(FView<2> dinp, FView<2> dW, FView<1> db, const CView<2>& dout,
                     const CView<2>& inp, const CView<2>& W, float dinp_beta = 1.f);

// Inverted dropout: out = inp ⊙ keep / (1−p). keep(n) is drawn from rng and saved (1 or 0).
void dropout_forward(float* out, std::vector<uint8_t>& keep, const float* inp, size_t n, float p, Rng& rng);
void dropout_backward(float* dinp, const std::vector<uint8_t>& keep, const float* dout, size_t n, float p);

// Multi-head attention core, from qkv (B,T,3C) to the merged head outputs (B,T,C), with the
// position-encoding hooks and the normalization. Saves what backward needs and what the UI
// shows (logits and weights of every head).
struct AttentionActs {
  std::vector<float> q, k, v;        // (B,NH,T,HS), after feature maps / rotation
  std::vector<float> logits;         // (B,NH,T,T)  τ q·k + bias (causal: only j <= i is meaningful)
  std::vector<float> weights;        // (B,NH,T,T)  N(logits), masked keys 0
  std::vector<float> weights_mult;   // (B,NH,T,T)  after a position's ⊙ M (empty if none)
  std::vector<float> weights_drop;   // (B,NH,T,T)  after attention dropout (empty if none)
  std::vector<uint8_t> drop_keep;
  std::vector<float> o;              // (B,NH,T,HS)
  // backward scratch, kept across steps (no allocation per step)
  std::vector<float> dheads, dq, dk, dv, dw, ds, dtmp;  // dheads: ∂L/∂o (B,NH,T,HS)
  void resize(int B, int T, int NH, int HS);
  const std::vector<float>& used_weights() const;  // what multiplies v
};

struct AttentionCtx {
  int layer;
  AttnShape shape;
  PositionEncoding* pos;
  Normalization* norm;
  float attn_dropout;
  Rng* rng;
};

// forward writes out (B,T,C); backward writes dqkv (B,T,3C) (both overwrite, not accumulate).
void attention_forward(float* out, AttentionActs& acts, const float* qkv, const AttentionCtx& ctx);
void attention_backward(float* dqkv, const float* dout, AttentionActs& acts, const AttentionCtx& ctx);

}  // namespace ap
