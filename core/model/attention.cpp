// core/model/attention.cpp — multi-head attention with position hooks and a pluggable row
// normalization. Forward order (reference §0):
//   q,k,v ← split(qkv); [norm feature map]; [rotate q,k]; s = τ q kᵀ (or the norm's kernel
//   scores φ(q)·φ(k)); [s += bias];
//   a = N(s) over the visible keys (causal prefix or all); [a ⊙ M]; [dropout];
//   o = a v; [o += Σ_j a_ij r_ij]; out = merge(o)
// Backward runs the same steps in reverse.
// The activations are ActTensors (act_tensor.hpp) and the block's streams cross as views, so the
// shapes are checked where they enter; the head split/merge, the row loop of the normalization
// and the GEMMs read the data() pointers. The position and normalization hooks keep raw pointers
// plus AttnShape: they run inside every attention call, and views there would only add
// construction and checks to loops the shapes above already guard (docs/xtensor.md).
#include <algorithm>
#include <cstring>

#include "model/layers.hpp"
#include "normalization/softcap.hpp"
#include "tensor/kernels.hpp"
#include "tensor/thread_pool.hpp"

namespace ap {

void AttentionActs::resize(const AttnShape& s) {
  const Shape<4> heads{size_t(s.B), size_t(s.NH), size_t(s.T), size_t(s.HS)};
  const Shape<4> square{size_t(s.B), size_t(s.NH), size_t(s.T), size_t(s.T)};
  for (ActTensor<4>* t : {&q, &k, &v, &o}) t->resize(heads);
  logits.resize(square);
  weights.resize(square);
}

const ActTensor<4>& AttentionActs::used_weights() const {
  if (!weights_drop.empty()) return weights_drop;
  if (!weights_mult.empty()) return weights_mult;
  return weights;
}

namespace {

// The (B,T,3C) qkv tensor or (B,T,C) stream that goes with this attention shape, else ShapeError.
void expect_stream(const Shape<3>& got, const AttnShape& s, int parts, const char* what) {
  expect_extents(got, Shape<3>{size_t(s.B), size_t(s.T), size_t(parts * s.NH * s.HS)}, what);
}

// heads (B,NH,T,HS) = slice `part` (0 q, 1 k, 2 v) of qkv (B,T,3C). The copies run over the
// views' data(): a transposed xtensor view measured ~40x slower here (docs/xtensor.md).
void split_heads(ActTensor<4>& heads, const CView<3>& qkv, int part) {
  const auto [B, NH, T, HS] = heads.shape();
  const size_t C = NH * HS, row = qkv.shape(2);
  for (size_t b = 0; b < B; ++b)
    for (size_t t = 0; t < T; ++t) {
      const float* src = qkv.data() + (b * T + t) * row + part * C;
      for (size_t h = 0; h < NH; ++h)
        std::memcpy(heads.data() + ((b * NH + h) * T + t) * HS, src + h * HS, HS * sizeof(float));
    }
}
// out (B,T,width) at column offset = heads (B,NH,T,HS) merged (every column of the block is written).
void merge_heads(FView<3>& out, size_t offset, const ActTensor<4>& heads) {
  const auto [B, NH, T, HS] = heads.shape();
  const size_t width = out.shape(2);
  for (size_t b = 0; b < B; ++b)
    for (size_t t = 0; t < T; ++t) {
      float* dst = out.data() + (b * T + t) * width + offset;
      for (size_t h = 0; h < NH; ++h) {
        const float* src = heads.data() + ((b * NH + h) * T + t) * HS;
        std::memcpy(dst + h * HS, src, HS * sizeof(float));
      }
    }
}

int visible(const AttnShape& s, int i) { return s.causal ? i + 1 : s.T; }

// Threads (tensor/thread_pool.hpp): the B·NH (batch, head) pairs are cut into one run per
// thread, and each pair is computed by the same code as on one thread, so the results are
// bit-identical. f(h0, h1) handles pairs [h0, h1); `work` is the step's size in simple ops.
template <class F>
void for_heads(int BH, double work, F&& f) {
  parallel_ranges(BH, work, f);
}
// gemm_batched over the (batch, head) pairs, split by for_heads.
void gemm_heads(Op op, int count, int M, int N, int K, float alpha, const float* A, int lda, std::ptrdiff_t sA,
                const float* B, int ldb, std::ptrdiff_t sB, float* C, int ldc, std::ptrdiff_t sC, float beta, Tri tri) {
  for_heads(count, double(count) * M * N * K, [&](int h0, int h1) {
    gemm_batched(op, h1 - h0, M, N, K, alpha, A + h0 * sA, lda, sA, B + h0 * sB, ldb, sB, C + h0 * sC, ldc, sC, beta,
                 tri);
  });
}

// The triangles of a causal model's attention GEMMs (kernels.hpp): scores and dweights are
// needed on and below the diagonal only; weights and dscores are zero above it.
struct CausalTri {
  Tri scores, lower_a, upper_a;
  explicit CausalTri(bool causal)
      : scores(causal ? Tri::LowerC : Tri::Full),
        lower_a(causal ? Tri::LowerA : Tri::Full),
        upper_a(causal ? Tri::UpperA : Tri::Full) {}
};

}  // namespace

void attention_forward(FView<3> out, AttentionActs& acts, const CView<3>& qkv, const AttentionCtx& ctx) {
  AttnShape shape = ctx.shape;
  expect_stream(qkv.shape(), shape, 3, "attention input qkv");
  expect_stream(out.shape(), shape, 1, "attention output");
  shape.tau = ctx.norm->scale(shape.HS);  // position hooks that add q-dependent biases use the same τ
  const int BH = shape.B * shape.NH, T = shape.T, HS = shape.HS;
  acts.resize(shape);
  split_heads(acts.q, qkv, 0);
  split_heads(acts.k, qkv, 1);
  split_heads(acts.v, qkv, 2);
  if (ctx.norm->maps_qk()) ctx.norm->qk_forward(ctx.layer, acts.q.data(), acts.k.data(), shape);
  if (ctx.pos->rotates()) ctx.pos->rotate_forward(ctx.layer, acts.q.data(), acts.k.data(), shape);

  const CausalTri tri(shape.causal);
  if (ctx.norm->forms_scores()) {
    std::fill(acts.logits.begin(), acts.logits.end(), 0.0f);
    ctx.norm->scores_forward(ctx.layer, acts.q.data(), acts.k.data(), acts.logits.data(), shape);
  } else {  // beta = 0: written, not accumulated, so no zeroing pass
    gemm_heads(Op::NT, BH, T, T, HS, ctx.norm->scale(HS), acts.q.data(), HS, size_t(T) * HS, acts.k.data(), HS,
               size_t(T) * HS, acts.logits.data(), T, size_t(T) * T, 0.f, tri.scores);
  }
  if (ctx.pos->biases()) ctx.pos->bias_forward(ctx.layer, acts.logits.data(), acts.q.data(), acts.k.data(), shape);
  if (ctx.softcap > 0) softcap_forward(acts.logits.data(), acts.logits.size(), ctx.softcap);

  ctx.norm->prepare_rows(ctx.layer, shape);
  for_heads(BH, 8.0 * BH * T * T, [&](int h0, int h1) {
    for (size_t r = size_t(h0) * T; r < size_t(h1) * T; ++r) {
      const int n = visible(shape, int(r % T));
      float* w_row = acts.weights.data() + r * T;
      ctx.norm->placed_row_forward(ctx.layer, r, shape, acts.logits.data() + r * T, w_row, n);
      std::fill(w_row + n, w_row + T, 0.0f);  // masked keys, while the row is in cache
    }
  });
  const float* w = acts.weights.data();
  if (ctx.pos->multiplies()) {
    acts.weights_mult.resize(acts.weights.shape());
    ctx.pos->weights_forward(ctx.layer, w, acts.weights_mult.data(), shape);
    w = acts.weights_mult.data();
  } else {
    acts.weights_mult.clear();
  }
  if (ctx.attn_dropout > 0 && shape.training) {
    acts.weights_drop.resize(acts.weights.shape());
    dropout_forward(acts.weights_drop.data(), acts.drop_keep, w, acts.weights.size(), ctx.attn_dropout, *ctx.rng);
    w = acts.weights_drop.data();
  } else {
    acts.weights_drop.clear();
  }
  const bool edited = ctx.edits && !shape.training;
  if (edited) {  // the pattern replaces what multiplies v (after ⊙ M: weights_mult when in use)
    float* target = acts.weights_mult.empty() ? acts.weights.data() : acts.weights_mult.data();
    edit_weights(target, shape, ctx.layer, *ctx.edits);
  }

  gemm_heads(Op::NN, BH, T, HS, T, 1.0f, w, T, size_t(T) * T, acts.v.data(), HS, size_t(T) * HS, acts.o.data(), HS,
             size_t(T) * HS, 0.f, tri.lower_a);
  if (ctx.pos->adds_values()) ctx.pos->values_forward(ctx.layer, w, acts.o.data(), shape);
  if (edited) edit_outputs(acts.o.data(), shape, ctx.layer, *ctx.edits);

  merge_heads(out, 0, acts.o);
}

void attention_backward(FView<3> dqkv, const CView<3>& dout, AttentionActs& acts, const AttentionCtx& ctx) {
  AttnShape shape = ctx.shape;
  expect_stream(dout.shape(), shape, 1, "attention output gradient");
  expect_stream(dqkv.shape(), shape, 3, "attention input gradient dqkv");
  acts.q.expect(Shape<4>{size_t(shape.B), size_t(shape.NH), size_t(shape.T), size_t(shape.HS)});
  shape.tau = ctx.norm->scale(shape.HS);
  const int BH = shape.B * shape.NH, T = shape.T, HS = shape.HS;
  const size_t C = size_t(shape.NH) * HS, tt = size_t(BH) * T * T;
  ActTensor<4>&dheads = acts.dheads, &dq = acts.dq, &dk = acts.dk, &dv = acts.dv, &dw = acts.dweights,
  &ds = acts.dlogits;  // dw = ∂L/∂weights, ds = ∂L/∂s (the logits)
  const CausalTri tri(shape.causal);
  // Hooks that add into dw (values) or dq, dk (biases, kernel scores) need them zeroed and the
  // GEMMs accumulating; otherwise the GEMMs write (beta = 0) and nothing is zeroed.
  const bool hook_dw = ctx.pos->adds_values(), hook_dqk = ctx.pos->biases() || ctx.norm->forms_scores();
  for (ActTensor<4>* t : {&dheads, &dv}) t->resize(acts.q.shape());
  for (ActTensor<4>* t : {&dq, &dk}) hook_dqk ? (void)t->zeros(acts.q.shape()) : (void)t->resize(acts.q.shape());
  hook_dw ? (void)dw.zeros(acts.logits.shape()) : (void)dw.resize(acts.logits.shape());
  ds.resize(acts.logits.shape());
  split_heads(dheads, dout, 0);  // dout (B,T,C) -> dheads (B,NH,T,HS)

  const ActTensor<4>& w = acts.used_weights();
  if (ctx.pos->adds_values()) ctx.pos->values_backward(ctx.layer, w.data(), dheads.data(), dw.data(), shape);
  gemm_heads(Op::NT, BH, T, T, HS, 1.0f, dheads.data(), HS, size_t(T) * HS, acts.v.data(), HS, size_t(T) * HS,
             dw.data(), T, size_t(T) * T, hook_dw ? 1.f : 0.f, tri.scores);
  gemm_heads(Op::TN, BH, T, HS, T, 1.0f, w.data(), T, size_t(T) * T, dheads.data(), HS, size_t(T) * HS, dv.data(), HS,
             size_t(T) * HS, 0.f, tri.upper_a);
  if (!acts.weights_drop.empty()) {
    ActTensor<4>& tmp = acts.dscratch;
    tmp.zeros(dw.shape());
    dropout_backward(tmp.data(), acts.drop_keep, dw.data(), tt, ctx.attn_dropout);
    dw.swap(tmp);
  }
  if (!acts.weights_mult.empty()) {
    ActTensor<4>& tmp = acts.dscratch;
    tmp.zeros(dw.shape());
    ctx.pos->weights_backward(ctx.layer, acts.weights.data(), dw.data(), tmp.data(), shape);
    dw.swap(tmp);
  }
  ctx.norm->prepare_rows(ctx.layer, shape);
  for_heads(BH, 8.0 * BH * T * T, [&](int h0, int h1) {
    for (size_t r = size_t(h0) * T; r < size_t(h1) * T; ++r) {
      float* ds_row = ds.data() + r * T;
      std::fill(ds_row, ds_row + T, 0.0f);  // row_backward adds into the visible part; the rest stays 0
      ctx.norm->placed_row_backward(ctx.layer, r, shape, acts.logits.data() + r * T, acts.weights.data() + r * T,
                                    dw.data() + r * T, ds_row, visible(shape, int(r % T)));
    }
  });
  ctx.norm->rows_backward(ctx.layer, ds.data(), shape);
  // acts.logits holds the capped logits: ∂/∂s of c·tanh(s/c) = 1 − (capped/c)².
  if (ctx.softcap > 0) softcap_backward(acts.logits.data(), ds.data(), ds.size(), ctx.softcap);
  if (ctx.pos->biases())
    ctx.pos->bias_backward(ctx.layer, ds.data(), acts.q.data(), acts.k.data(), dq.data(), dk.data(), shape);
  if (ctx.norm->forms_scores()) {
    ctx.norm->scores_backward(ctx.layer, ds.data(), dq.data(), dk.data(), shape);
  } else {
    const float tau = ctx.norm->scale(HS);
    const float beta = hook_dqk ? 1.f : 0.f;
    gemm_heads(Op::NN, BH, T, HS, T, tau, ds.data(), T, size_t(T) * T, acts.k.data(), HS, size_t(T) * HS, dq.data(), HS,
               size_t(T) * HS, beta, tri.lower_a);
    gemm_heads(Op::TN, BH, T, HS, T, tau, ds.data(), T, size_t(T) * T, acts.q.data(), HS, size_t(T) * HS, dk.data(), HS,
               size_t(T) * HS, beta, tri.upper_a);
  }
  if (ctx.pos->rotates()) ctx.pos->rotate_backward(ctx.layer, dq.data(), dk.data(), shape);
  if (ctx.norm->maps_qk()) ctx.norm->qk_backward(ctx.layer, dq.data(), dk.data(), shape);
  merge_heads(dqkv, 0, dq);  // the three write all of dqkv
  merge_heads(dqkv, C, dk);
  merge_heads(dqkv, 2 * C, dv);
}

}  // namespace ap
