// core/model/attention.cpp — multi-head attention with position hooks and a pluggable row
// normalization. Forward order (reference §0):
//   q,k,v ← split(qkv); [norm feature map]; [rotate q,k]; s = τ q kᵀ (or the norm's kernel
//   scores φ(q)·φ(k)); [s += bias];
//   a = N(s) over the visible keys (causal prefix or all); [a ⊙ M]; [dropout];
//   o = a v; [o += Σ_j a_ij r_ij]; out = merge(o)
// Backward runs the same steps in reverse.
#include <algorithm>
#include <cstring>

#include "model/layers.hpp"
#include "tensor/kernels.hpp"

namespace ap {

void AttentionActs::resize(int B, int T, int NH, int HS) {
  const size_t hd = size_t(B) * NH * T * HS, tt = size_t(B) * NH * T * T;
  q.resize(hd); k.resize(hd); v.resize(hd); o.resize(hd);
  logits.resize(tt); weights.resize(tt);
}

const std::vector<float>& AttentionActs::used_weights() const {
  if (!weights_drop.empty()) return weights_drop;
  if (!weights_mult.empty()) return weights_mult;
  return weights;
}

namespace {

// heads (B,NH,T,HS) = slice `part` (0 q, 1 k, 2 v) of qkv (B,T,3C).
void split_heads(float* heads, const float* qkv, int part, const AttnShape& s) {
  const int C = s.NH * s.HS;
  for (int b = 0; b < s.B; ++b)
    for (int t = 0; t < s.T; ++t) {
      const float* src = qkv + (size_t(b) * s.T + t) * 3 * C + part * C;
      for (int h = 0; h < s.NH; ++h)
        std::memcpy(heads + ((size_t(b) * s.NH + h) * s.T + t) * s.HS, src + h * s.HS, s.HS * sizeof(float));
    }
}
// out (B,T,stride) at column offset += heads (B,NH,T,HS) merged.
void merge_heads_add(float* out, int stride, int offset, const float* heads, const AttnShape& s) {
  for (int b = 0; b < s.B; ++b)
    for (int t = 0; t < s.T; ++t) {
      float* dst = out + (size_t(b) * s.T + t) * stride + offset;
      for (int h = 0; h < s.NH; ++h) {
        const float* src = heads + ((size_t(b) * s.NH + h) * s.T + t) * s.HS;
        for (int i = 0; i < s.HS; ++i) dst[h * s.HS + i] += src[i];
      }
    }
}

int visible(const AttnShape& s, int i) { return s.causal ? i + 1 : s.T; }

}  // namespace

void attention_forward(float* out, AttentionActs& a, const float* qkv, const AttentionCtx& ctx) {
  AttnShape s = ctx.shape;
  s.tau = ctx.norm->scale(s.HS);  // position hooks that add q-dependent biases use the same τ
  const int BH = s.B * s.NH, T = s.T, HS = s.HS;
  a.resize(s.B, T, s.NH, HS);
  split_heads(a.q.data(), qkv, 0, s);
  split_heads(a.k.data(), qkv, 1, s);
  split_heads(a.v.data(), qkv, 2, s);
  if (ctx.norm->maps_qk()) ctx.norm->qk_forward(ctx.layer, a.q.data(), a.k.data(), s);
  if (ctx.pos->rotates()) ctx.pos->rotate_forward(ctx.layer, a.q.data(), a.k.data(), s);

  std::fill(a.logits.begin(), a.logits.end(), 0.0f);
  if (ctx.norm->forms_scores())
    ctx.norm->scores_forward(ctx.layer, a.q.data(), a.k.data(), a.logits.data(), s);
  else
    gemm_batched(Op::NT, BH, T, T, HS, ctx.norm->scale(HS), a.q.data(), HS, size_t(T) * HS,
                 a.k.data(), HS, size_t(T) * HS, a.logits.data(), T, size_t(T) * T);
  if (ctx.pos->biases()) ctx.pos->bias_forward(ctx.layer, a.logits.data(), a.q.data(), a.k.data(), s);

  std::fill(a.weights.begin(), a.weights.end(), 0.0f);
  ctx.norm->prepare_rows(ctx.layer, s);
  for (size_t r = 0; r < size_t(BH) * T; ++r) {
    const int i = int(r % T);
    ctx.norm->row_forward(&a.logits[r * T], &a.weights[r * T], visible(s, i));
  }
  const float* w = a.weights.data();
  if (ctx.pos->multiplies()) {
    a.weights_mult.resize(a.weights.size());
    ctx.pos->weights_forward(ctx.layer, w, a.weights_mult.data(), s);
    w = a.weights_mult.data();
  } else {
    a.weights_mult.clear();
  }
  if (ctx.attn_dropout > 0 && s.training) {
    a.weights_drop.resize(a.weights.size());
    dropout_forward(a.weights_drop.data(), a.drop_keep, w, a.weights.size(), ctx.attn_dropout, *ctx.rng);
    w = a.weights_drop.data();
  } else {
    a.weights_drop.clear();
  }

  std::fill(a.o.begin(), a.o.end(), 0.0f);
  gemm_batched(Op::NN, BH, T, HS, T, 1.0f, w, T, size_t(T) * T, a.v.data(), HS, size_t(T) * HS,
               a.o.data(), HS, size_t(T) * HS);
  if (ctx.pos->adds_values()) ctx.pos->values_forward(ctx.layer, w, a.o.data(), s);

  std::fill(out, out + size_t(s.B) * T * s.NH * HS, 0.0f);
  merge_heads_add(out, s.NH * HS, 0, a.o.data(), s);
}

void attention_backward(float* dqkv, const float* dout, AttentionActs& a, const AttentionCtx& ctx) {
  AttnShape s = ctx.shape;
  s.tau = ctx.norm->scale(s.HS);
  const int BH = s.B * s.NH, T = s.T, HS = s.HS, C = s.NH * HS;
  const size_t hd = size_t(BH) * T * HS, tt = size_t(BH) * T * T;
  std::vector<float>&d_o = a.d_o, &dq = a.dq, &dk = a.dk, &dv = a.dv, &dw = a.dw, &ds = a.ds;
  d_o.resize(hd);
  for (auto* v : {&dq, &dk, &dv}) zero_fill(*v, hd);
  for (auto* v : {&dw, &ds}) zero_fill(*v, tt);
  // dout (B,T,C) -> d_o (B,NH,T,HS)
  for (int b = 0; b < s.B; ++b)
    for (int t = 0; t < T; ++t)
      for (int h = 0; h < s.NH; ++h)
        std::memcpy(&d_o[((size_t(b) * s.NH + h) * T + t) * HS], dout + (size_t(b) * T + t) * C + h * HS,
                    HS * sizeof(float));

  const std::vector<float>& w = a.used_weights();
  if (ctx.pos->adds_values()) ctx.pos->values_backward(ctx.layer, w.data(), d_o.data(), dw.data(), s);
  gemm_batched(Op::NT, BH, T, T, HS, 1.0f, d_o.data(), HS, size_t(T) * HS, a.v.data(), HS,
               size_t(T) * HS, dw.data(), T, size_t(T) * T);
  gemm_batched(Op::TN, BH, T, HS, T, 1.0f, w.data(), T, size_t(T) * T, d_o.data(), HS,
               size_t(T) * HS, dv.data(), HS, size_t(T) * HS);
  if (!a.weights_drop.empty()) {
    std::vector<float>& tmp = a.dtmp;
    zero_fill(tmp, tt);
    dropout_backward(tmp.data(), a.drop_keep, dw.data(), tt, ctx.attn_dropout);
    dw.swap(tmp);
  }
  if (!a.weights_mult.empty()) {
    std::vector<float>& tmp = a.dtmp;
    zero_fill(tmp, tt);
    ctx.pos->weights_backward(ctx.layer, a.weights.data(), dw.data(), tmp.data(), s);
    dw.swap(tmp);
  }
  ctx.norm->prepare_rows(ctx.layer, s);
  for (size_t r = 0; r < size_t(BH) * T; ++r) {
    const int i = int(r % T);
    ctx.norm->row_backward(&a.logits[r * T], &a.weights[r * T], &dw[r * T], &ds[r * T], visible(s, i));
  }
  if (ctx.pos->biases()) ctx.pos->bias_backward(ctx.layer, ds.data(), a.q.data(), a.k.data(), dq.data(), dk.data(), s);
  if (ctx.norm->forms_scores()) {
    ctx.norm->scores_backward(ctx.layer, ds.data(), dq.data(), dk.data(), s);
  } else {
    const float tau = ctx.norm->scale(HS);
    gemm_batched(Op::NN, BH, T, HS, T, tau, ds.data(), T, size_t(T) * T, a.k.data(), HS,
                 size_t(T) * HS, dq.data(), HS, size_t(T) * HS);
    gemm_batched(Op::TN, BH, T, HS, T, tau, ds.data(), T, size_t(T) * T, a.q.data(), HS,
                 size_t(T) * HS, dk.data(), HS, size_t(T) * HS);
  }
  if (ctx.pos->rotates()) ctx.pos->rotate_backward(ctx.layer, dq.data(), dk.data(), s);
  if (ctx.norm->maps_qk()) ctx.norm->qk_backward(ctx.layer, dq.data(), dk.data(), s);
  merge_heads_add(dqkv, 3 * C, 0, dq.data(), s);
  merge_heads_add(dqkv, 3 * C, C, dk.data(), s);
  merge_heads_add(dqkv, 3 * C, 2 * C, dv.data(), s);
}

}  // namespace ap
