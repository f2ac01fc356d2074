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
// out (B,T,stride) at column offset = heads (B,NH,T,HS) merged (every column of the block is written).
void merge_heads(float* out, int stride, int offset, const float* heads, const AttnShape& s) {
  for (int b = 0; b < s.B; ++b)
    for (int t = 0; t < s.T; ++t) {
      float* dst = out + (size_t(b) * s.T + t) * stride + offset;
      for (int h = 0; h < s.NH; ++h) {
        const float* src = heads + ((size_t(b) * s.NH + h) * s.T + t) * s.HS;
        std::memcpy(dst + h * s.HS, src, s.HS * sizeof(float));
      }
    }
}

int visible(const AttnShape& s, int i) { return s.causal ? i + 1 : s.T; }

// The triangles of a causal model's attention GEMMs (kernels.hpp): scores and dweights are
// needed on and below the diagonal only; weights and dscores are zero above it.
struct CausalTri {
  Tri scores, lower_a, upper_a;
  explicit CausalTri(bool causal)
      : scores(causal ? Tri::LowerC : Tri::Full), lower_a(causal ? Tri::LowerA : Tri::Full),
        upper_a(causal ? Tri::UpperA : Tri::Full) {}
};

}  // namespace

void attention_forward(float* out, AttentionActs& acts, const float* qkv, const AttentionCtx& ctx) {
  AttnShape shape = ctx.shape;
  shape.tau = ctx.norm->scale(shape.HS);  // position hooks that add q-dependent biases use the same τ
  const int BH = shape.B * shape.NH, T = shape.T, HS = shape.HS;
  acts.resize(shape.B, T, shape.NH, HS);
  split_heads(acts.q.data(), qkv, 0, shape);
  split_heads(acts.k.data(), qkv, 1, shape);
  split_heads(acts.v.data(), qkv, 2, shape);
  if (ctx.norm->maps_qk()) ctx.norm->qk_forward(ctx.layer, acts.q.data(), acts.k.data(), shape);
  if (ctx.pos->rotates()) ctx.pos->rotate_forward(ctx.layer, acts.q.data(), acts.k.data(), shape);

  const CausalTri tri(shape.causal);
  if (ctx.norm->forms_scores()) {
    std::fill(acts.logits.begin(), acts.logits.end(), 0.0f);
    ctx.norm->scores_forward(ctx.layer, acts.q.data(), acts.k.data(), acts.logits.data(), shape);
  } else {  // beta = 0: written, not accumulated, so no zeroing pass
    gemm_batched(Op::NT, BH, T, T, HS, ctx.norm->scale(HS), acts.q.data(), HS, size_t(T) * HS,
                 acts.k.data(), HS, size_t(T) * HS, acts.logits.data(), T, size_t(T) * T, 0.f, tri.scores);
  }
  if (ctx.pos->biases()) ctx.pos->bias_forward(ctx.layer, acts.logits.data(), acts.q.data(), acts.k.data(), shape);

  ctx.norm->prepare_rows(ctx.layer, shape);
  for (size_t r = 0; r < size_t(BH) * T; ++r) {
    const int n = visible(shape, int(r % T));
    float* w_row = &acts.weights[r * T];
    ctx.norm->row_forward(&acts.logits[r * T], w_row, n);
    std::fill(w_row + n, w_row + T, 0.0f);  // masked keys, while the row is in cache
  }
  const float* w = acts.weights.data();
  if (ctx.pos->multiplies()) {
    acts.weights_mult.resize(acts.weights.size());
    ctx.pos->weights_forward(ctx.layer, w, acts.weights_mult.data(), shape);
    w = acts.weights_mult.data();
  } else {
    acts.weights_mult.clear();
  }
  if (ctx.attn_dropout > 0 && shape.training) {
    acts.weights_drop.resize(acts.weights.size());
    dropout_forward(acts.weights_drop.data(), acts.drop_keep, w, acts.weights.size(), ctx.attn_dropout, *ctx.rng);
    w = acts.weights_drop.data();
  } else {
    acts.weights_drop.clear();
  }

  gemm_batched(Op::NN, BH, T, HS, T, 1.0f, w, T, size_t(T) * T, acts.v.data(), HS, size_t(T) * HS,
               acts.o.data(), HS, size_t(T) * HS, 0.f, tri.lower_a);
  if (ctx.pos->adds_values()) ctx.pos->values_forward(ctx.layer, w, acts.o.data(), shape);

  merge_heads(out, shape.NH * HS, 0, acts.o.data(), shape);
}

void attention_backward(float* dqkv, const float* dout, AttentionActs& acts, const AttentionCtx& ctx) {
  AttnShape shape = ctx.shape;
  shape.tau = ctx.norm->scale(shape.HS);
  const int BH = shape.B * shape.NH, T = shape.T, HS = shape.HS, C = shape.NH * HS;
  const size_t hd = size_t(BH) * T * HS, tt = size_t(BH) * T * T;
  std::vector<float>&dheads = acts.dheads, &dq = acts.dq, &dk = acts.dk, &dv = acts.dv, &dw = acts.dw, &ds = acts.ds;
  const CausalTri tri(shape.causal);
  // Hooks that add into dw (values) or dq, dk (biases, kernel scores) need them zeroed and the
  // GEMMs accumulating; otherwise the GEMMs write (beta = 0) and nothing is zeroed.
  const bool hook_dw = ctx.pos->adds_values(), hook_dqk = ctx.pos->biases() || ctx.norm->forms_scores();
  for (auto* v : {&dheads, &dv}) v->resize(hd);
  for (auto* v : {&dq, &dk}) hook_dqk ? (void)zero_fill(*v, hd) : v->resize(hd);
  hook_dw ? (void)zero_fill(dw, tt) : dw.resize(tt);
  ds.resize(tt);
  // dout (B,T,C) -> dheads (B,NH,T,HS)
  for (int b = 0; b < shape.B; ++b)
    for (int t = 0; t < T; ++t)
      for (int h = 0; h < shape.NH; ++h)
        std::memcpy(&dheads[((size_t(b) * shape.NH + h) * T + t) * HS], dout + (size_t(b) * T + t) * C + h * HS,
                    HS * sizeof(float));

  const std::vector<float>& w = acts.used_weights();
  if (ctx.pos->adds_values()) ctx.pos->values_backward(ctx.layer, w.data(), dheads.data(), dw.data(), shape);
  gemm_batched(Op::NT, BH, T, T, HS, 1.0f, dheads.data(), HS, size_t(T) * HS, acts.v.data(), HS,
               size_t(T) * HS, dw.data(), T, size_t(T) * T, hook_dw ? 1.f : 0.f, tri.scores);
  gemm_batched(Op::TN, BH, T, HS, T, 1.0f, w.data(), T, size_t(T) * T, dheads.data(), HS,
               size_t(T) * HS, dv.data(), HS, size_t(T) * HS, 0.f, tri.upper_a);
  if (!acts.weights_drop.empty()) {
    std::vector<float>& tmp = acts.dtmp;
    zero_fill(tmp, tt);
    dropout_backward(tmp.data(), acts.drop_keep, dw.data(), tt, ctx.attn_dropout);
    dw.swap(tmp);
  }
  if (!acts.weights_mult.empty()) {
    std::vector<float>& tmp = acts.dtmp;
    zero_fill(tmp, tt);
    ctx.pos->weights_backward(ctx.layer, acts.weights.data(), dw.data(), tmp.data(), shape);
    dw.swap(tmp);
  }
  ctx.norm->prepare_rows(ctx.layer, shape);
  for (size_t r = 0; r < size_t(BH) * T; ++r) {
    float* ds_row = &ds[r * T];
    std::fill(ds_row, ds_row + T, 0.0f);  // row_backward adds into the visible part; the rest stays 0
    ctx.norm->row_backward(&acts.logits[r * T], &acts.weights[r * T], &dw[r * T], ds_row, visible(shape, int(r % T)));
  }
  if (ctx.pos->biases()) ctx.pos->bias_backward(ctx.layer, ds.data(), acts.q.data(), acts.k.data(), dq.data(), dk.data(), shape);
  if (ctx.norm->forms_scores()) {
    ctx.norm->scores_backward(ctx.layer, ds.data(), dq.data(), dk.data(), shape);
  } else {
    const float tau = ctx.norm->scale(HS);
    const float beta = hook_dqk ? 1.f : 0.f;
    gemm_batched(Op::NN, BH, T, HS, T, tau, ds.data(), T, size_t(T) * T, acts.k.data(), HS,
                 size_t(T) * HS, dq.data(), HS, size_t(T) * HS, beta, tri.lower_a);
    gemm_batched(Op::TN, BH, T, HS, T, tau, ds.data(), T, size_t(T) * T, acts.q.data(), HS,
                 size_t(T) * HS, dk.data(), HS, size_t(T) * HS, beta, tri.upper_a);
  }
  if (ctx.pos->rotates()) ctx.pos->rotate_backward(ctx.layer, dq.data(), dk.data(), shape);
  if (ctx.norm->maps_qk()) ctx.norm->qk_backward(ctx.layer, dq.data(), dk.data(), shape);
  merge_heads(dqkv, 3 * C, 0, dq.data(), shape);  // the three write all of dqkv
  merge_heads(dqkv, 3 * C, C, dk.data(), shape);
  merge_heads(dqkv, 3 * C, 2 * C, dv.data(), shape);
}

}  // namespace ap
