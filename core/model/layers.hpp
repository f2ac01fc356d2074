// core/model/layers.hpp — the layers a block is made of, each an explicit forward/backward pair
// (outputs first, inputs after; backward accumulates with +=). Shapes: N = B*T rows.
#pragma once
#include <cstring>
#include <vector>

#include "normalization/normalization.hpp"
#include "position/position.hpp"
#include "tensor/rng.hpp"

namespace ap {

// Size v to n zeros, reusing its memory (no allocation once it has grown).
inline float* zero_fill(std::vector<float>& v, size_t n) {
  v.resize(n);
  std::memset(v.data(), 0, n * sizeof(float));
  return v.data();
}

// out(N,O) = inp(N,I) · W(O,I)ᵀ + b(O)   (PyTorch nn.Linear layout)
void linear_forward(float* out, const float* inp, const float* W, const float* b, int N, int I, int O);
// dinp(N,I) += dout·W ; dW(O,I) += doutᵀ·inp ; db(O) += Σ_n dout
void linear_backward(float* dinp, float* dW, float* db, const float* dout, const float* inp,
                     const float* W, int N, int I, int O);

// Inverted dropout: out = inp ⊙ keep / (1−p). keep(n) is drawn from rng and saved (1 or 0).
void dropout_forward(float* out, std::vector<uint8_t>& keep, const float* inp, size_t n, float p, Rng& rng);
void dropout_backward(float* dinp, const std::vector<uint8_t>& keep, const float* dout, size_t n, float p);

// Multi-head attention core, from qkv (B,T,3C) to the merged head outputs (B,T,C), with the
// position-encoding hooks and the normalization. Saves what backward needs and what the UI
// shows (logits and weights of every head).
struct AttentionActs {
  std::vector<float> q, k, v;        // (B,NH,T,HS), after feature maps / rotation
  std::vector<float> logits;         // (B,NH,T,T)  τ q·k + bias
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

void attention_forward(float* out, AttentionActs& acts, const float* qkv, const AttentionCtx& ctx);
void attention_backward(float* dqkv, const float* dout, AttentionActs& acts, const AttentionCtx& ctx);

}  // namespace ap
