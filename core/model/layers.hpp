// core/model/layers.hpp — the layers a block is made of, each an explicit forward/backward pair
// (outputs first, inputs after; backward accumulates with +=). Shapes: N = B*T rows.
// Tensors cross these functions as xtensor views that carry their shapes (tensor/xt.hpp): the
// parameters from ParamStore::tensor/grad_tensor, the activations from ActTensor (view(), rows());
// a layer derives its sizes from the shapes and throws ShapeError when they do not fit together,
// then hands the data() pointers to the kernels (tensor/, raw pointers and xsimd).
#pragma once
#include <cstring>
#include <vector>

#include "config/config.hpp"
#include "model/act_tensor.hpp"
#include "model/intervention.hpp"
#include "normalization/normalization.hpp"
#include "position/position.hpp"
#include "tensor/rng.hpp"
#include "tensor/xt.hpp"

namespace ap {

// An activation buffer as a (rows, cols) view; it must hold exactly rows·cols values.
FView<2> mat(std::vector<float>& v, int rows, int cols);
// Read-only (rows, cols) view of memory whose size the caller vouches for.
CView<2> cmat(const float* p, int rows, int cols);

// out(N,O) = inp(N,I) · W(O,I)ᵀ + b(O)   (PyTorch nn.Linear layout)
void linear_forward(FView<2> out, const CView<2>& inp, const CView<2>& W, const CView<1>& b);
// dinp(N,I) = dinp_beta·dinp + dout·W (beta 1 accumulates, 0 writes without reading dinp); dW(O,I) += doutᵀ·inp ; db(O)
// += Σ_n dout
void linear_backward(FView<2> dinp, FView<2> dW, FView<1> db, const CView<2>& dout, const CView<2>& inp,
                     const CView<2>& W, float dinp_beta = 1.f);

// LayerNorm over the last axis (ε 1e-5): out(N,C), and mean(N), rstd(N) saved for backward.
void layernorm_forward(FView<2> out, FView<1> mean, FView<1> rstd, const CView<2>& inp, const CView<1>& weight,
                       const CView<1>& bias);
// dinp(N,C) += ..., dweight(C) += ..., dbias(C) += ...
void layernorm_backward(FView<2> dinp, FView<1> dweight, FView<1> dbias, const CView<2>& dout, const CView<2>& inp,
                        const CView<1>& weight, const CView<1>& mean, const CView<1>& rstd);

// The FFN's elementwise nonlinearity: out = act(inp); dinp += act'(inp) ⊙ dout. Same shapes.
void nonlinearity_forward(FView<2> out, const CView<2>& inp, Activation kind);
void nonlinearity_backward(FView<2> dinp, const CView<2>& inp, const CView<2>& dout, Activation kind);

// Inverted dropout: out = inp ⊙ keep / (1−p). keep(n) is drawn from rng and saved (1 or 0).
void dropout_forward(float* out, std::vector<uint8_t>& keep, const float* inp, size_t n, float p, Rng& rng);
void dropout_backward(float* dinp, const std::vector<uint8_t>& keep, const float* dout, size_t n, float p);

// Multi-head attention core, from qkv (B,T,3C) to the merged head outputs (B,T,C), with the
// position-encoding hooks and the normalization. Saves what backward needs and what the UI
// shows (logits and weights of every head).
struct AttentionActs {
  ActTensor<4> q{"attention q"}, k{"attention k"}, v{"attention v"};  // (B,NH,T,HS), after feature maps / rotation
  ActTensor<4> logits{"attention logits"};             // (B,NH,T,T)  τ q·k + bias (causal: only j <= i is meaningful)
  ActTensor<4> weights{"attention weights"};           // (B,NH,T,T)  N(logits), masked keys 0
  ActTensor<4> weights_mult{"attention weights ⊙ M"};  // (B,NH,T,T) after a position's ⊙ M (empty if none)
  ActTensor<4> weights_drop{"attention weights after dropout"};  // (B,NH,T,T) (empty if none)
  std::vector<uint8_t> drop_keep;
  ActTensor<4> o{"attention heads output"};  // (B,NH,T,HS)
  // backward scratch, kept across steps (no allocation per step)
  ActTensor<4> dheads{"d attention heads output"};  // ∂L/∂o (B,NH,T,HS)
  ActTensor<4> dq{"dq"}, dk{"dk"}, dv{"dv"};        // (B,NH,T,HS)
  ActTensor<4> dweights{"d attention weights"}, dlogits{"d attention logits"},
      dscratch{"d attention scratch"};  // (B,NH,T,T)
  void resize(const AttnShape& shape);
  const ActTensor<4>& used_weights() const;  // what multiplies v
};

struct AttentionCtx {
  int layer;
  AttnShape shape;
  PositionEncoding* pos;
  Normalization* norm;
  float attn_dropout;
  Rng* rng;
  float softcap = 0.0f;  // c > 0: logits ← c·tanh(s/c) after the position bias (softcap.hpp)
  // Evaluation-time head edits (intervention.hpp), or null: never set in training.
  const std::vector<HeadEdit>* edits = nullptr;
};

// out (B,T,C) = attention over qkv (B,T,3C); the shapes must agree with ctx.shape (ShapeError).
void attention_forward(FView<3> out, AttentionActs& acts, const CView<3>& qkv, const AttentionCtx& ctx);
// dqkv (B,T,3C) = ∂L/∂qkv given dout (B,T,C) = ∂L/∂out. Both write (overwrite, not accumulate).
void attention_backward(FView<3> dqkv, const CView<3>& dout, AttentionActs& acts, const AttentionCtx& ctx);

}  // namespace ap
