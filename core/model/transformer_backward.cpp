// core/model/transformer_backward.cpp — the backward pass: the layers of forward in reverse,
// accumulating parameter gradients into the ParamStore (the caller zeroes them once per step).
#include <algorithm>
#include <cassert>
#include <cstring>

#include "model/transformer.hpp"
#include "tensor/kernels.hpp"

namespace ap {

namespace {
float* zeros(std::vector<float>& v, size_t n) { return zero_fill(v, n); }
}  // namespace

void Transformer::backward() {
  assert(!targets_.empty() && "backward() needs a forward with targets");
  const int C = cfg_.d_model, O = shape_.O, B = B_, T = T_, N = rows();
  const size_t BT = size_t(B) * T;
  std::vector<float>& dlogits = g_.dlogits;
  std::vector<float>& dlnf = g_.dlnf;
  zeros(dlogits, size_t(N) * O);
  dlnf.resize(BT * C);
  cross_entropy_backward(dlogits.data(), probs_.data(), targets_.data(),
                         mask_.empty() ? nullptr : mask_.data(), N, O);
  if (shape_.per_sequence) {
    std::vector<float>& dpooled = g_.dpooled;
    dpooled.resize(size_t(B) * C);
    zeros(dlnf, BT * C);  // the pooling backward below adds into it
    linear_backward(mat(dpooled, B, C), params_.grad_tensor<2>(headw_), params_.grad_tensor<1>(headb_),
                    cmat(dlogits.data(), B, O), cmat(pooled_.data(), B, C), params_.tensor<2>(headw_), 0.f);
    // the pooling backward: into the [CLS] row, or spread evenly over T. Loops: the xtensor
    // broadcast dlnf += (dpooled / T)[:, None, :] measured ~100x slower here (docs/xtensor.md).
    for (int b = 0; b < B; ++b) {
      if (choice_.pool == Pool::Cls) {
        for (int c = 0; c < C; ++c) dlnf[size_t(b) * T * C + c] += dpooled[size_t(b) * C + c];
      } else {
        for (int t = 0; t < T; ++t)
          for (int c = 0; c < C; ++c) dlnf[(size_t(b) * T + t) * C + c] += dpooled[size_t(b) * C + c] / T;
      }
    }
  } else {
    linear_backward(mat(dlnf, N, C), params_.grad_tensor<2>(headw_), params_.grad_tensor<1>(headb_),
                    cmat(dlogits.data(), N, O), cmat(lnf_.data(), N, C), params_.tensor<2>(headw_), 0.f);
  }
  std::vector<float>& dx = g_.dx;
  std::vector<float>& dprev = g_.dprev;
  zeros(dx, BT * C);
  dprev.resize(BT * C);
  const float* last = cfg_.layers > 0 ? blocks_.back().out.data() : emb_.data();
  layernorm_backward(dx.data(), params_.grad(lnfw_), params_.grad(lnfb_), dlnf.data(), last,
                     params_.data(lnfw_), lnf_mean_.data(), lnf_rstd_.data(), int(BT), C);
  for (int l = cfg_.layers - 1; l >= 0; --l) {
    block_backward(l, dprev.data(), dx.data());  // writes all of dprev
    dx.swap(dprev);
  }
  if (pos_->adds() && choice_.placement == Placement::Embed) pos_->add_backward(-1, dx.data(), B, T, C);
  embedding_backward(params_.grad(tok_emb_), dx.data(), ids_in_.data(), int(BT), C);
}

// dx (B,T,C) = ∂L/∂x of block l given dout = ∂L/∂out (written, not accumulated).
void Transformer::block_backward(int l, float* dx, const float* dout) {
  const int C = cfg_.d_model, F = cfg_.ffn, N = B_ * T_;
  const size_t NC = size_t(N) * C;
  const BlockIds& id = ids_[l];
  BlockActs& a = blocks_[l];
  const bool pre = choice_.norm_position == NormPosition::Pre;
  auto& g = g_;
  std::vector<float>&ds2 = g.ds2, &dmid = g.dmid, &dfc2_out = g.dfc2_out, &dact = g.dact, &dfc = g.dfc,
      &dmlp_in = g.dmlp_in, &ds1 = g.ds1, &dproj_out = g.dproj_out, &datt = g.datt, &dqkv = g.dqkv,
      &datt_in = g.datt_in;
  // ds2, dmid, dfc2_out, ds1 and dproj_out are overwritten before use (or skipped: pointers alias the
  // gradient they equal); the rest accumulate.
  // The linear input gradients dmlp_in, datt, datt_in and dact are written too (beta = 0).
  for (auto* v : {&ds2, &dmid, &dfc2_out, &ds1, &dproj_out, &dmlp_in, &datt, &datt_in}) v->resize(NC);
  if (!pre) zeros(ds2, NC), zeros(ds1, NC);
  dact.resize(size_t(N) * F);
  zeros(dfc, size_t(N) * F);
  dqkv.resize(size_t(N) * 3 * C);  // attention_backward writes all of it
  const bool drop = training_ && cfg_.dropout > 0;
  // out = s2 (pre) or LN2(s2) (post)
  const float* g_s2 = dout;
  if (!pre) {
    layernorm_backward(ds2.data(), params_.grad(id.ln2w), params_.grad(id.ln2b), dout,
                       a.s2.data(), params_.data(id.ln2w), a.ln2_mean.data(), a.ln2_rstd.data(), N, C);
    g_s2 = ds2.data();
  }
  // s2 = mid + Drop(FC2(act(FC(mlp_in))))
  std::copy(g_s2, g_s2 + NC, dmid.begin());
  const float* g_m = g_s2;
  if (drop && !a.fc2_keep.empty())
    zeros(dfc2_out, NC), dropout_backward(dfc2_out.data(), a.fc2_keep, g_s2, NC, cfg_.dropout), g_m = dfc2_out.data();
  linear_backward(mat(dact, N, F), params_.grad_tensor<2>(id.fc2w), params_.grad_tensor<1>(id.fc2b),
                  cmat(g_m, N, C), cmat(a.act.data(), N, F), params_.tensor<2>(id.fc2w), 0.f);
  if (choice_.activation == Activation::Relu) relu_backward(dfc.data(), a.fc.data(), dact.data(), size_t(N) * F);
  else gelu_backward(dfc.data(), a.fc.data(), dact.data(), size_t(N) * F,
                     choice_.activation == Activation::GeluErf ? GeluKind::Erf : GeluKind::Tanh);
  const float* mlp_in = pre ? a.ln2.data() : a.mid.data();
  linear_backward(mat(dmlp_in, N, C), params_.grad_tensor<2>(id.fcw), params_.grad_tensor<1>(id.fcb),
                  cmat(dfc.data(), N, F), cmat(mlp_in, N, C), params_.tensor<2>(id.fcw), 0.f);
  if (pre) layernorm_backward(dmid.data(), params_.grad(id.ln2w), params_.grad(id.ln2b),
                              dmlp_in.data(), a.mid.data(), params_.data(id.ln2w),
                              a.ln2_mean.data(), a.ln2_rstd.data(), N, C);
  else for (size_t i = 0; i < NC; ++i) dmid[i] += dmlp_in[i];
  // mid = s1 (pre) or LN1(s1) (post)
  const float* g_s1 = dmid.data();
  if (!pre) {
    layernorm_backward(ds1.data(), params_.grad(id.ln1w), params_.grad(id.ln1b), dmid.data(),
                       a.s1.data(), params_.data(id.ln1w), a.ln1_mean.data(), a.ln1_rstd.data(), N, C);
    g_s1 = ds1.data();
  }
  // s1 = x + Drop(Proj(Attn(att_in)))
  std::copy(g_s1, g_s1 + NC, dx);  // the first write of dx
  const float* g_p = g_s1;
  if (drop && !a.proj_keep.empty())
    zeros(dproj_out, NC), dropout_backward(dproj_out.data(), a.proj_keep, g_s1, NC, cfg_.dropout), g_p = dproj_out.data();
  linear_backward(mat(datt, N, C), params_.grad_tensor<2>(id.projw), params_.grad_tensor<1>(id.projb),
                  cmat(g_p, N, C), cmat(a.att_out.data(), N, C), params_.tensor<2>(id.projw), 0.f);
  AttentionCtx ctx{l, attn_shape(training_), pos_.get(), norm_.get(), cfg_.attn_dropout, rng_};
  attention_backward(dqkv.data(), datt.data(), a.att, ctx);
  const float* att_in = pre ? a.ln1.data() : a.x.data();
  linear_backward(mat(datt_in, N, C), params_.grad_tensor<2>(id.qkvw), params_.grad_tensor<1>(id.qkvb),
                  cmat(dqkv.data(), N, 3 * C), cmat(att_in, N, C), params_.tensor<2>(id.qkvw), 0.f);
  if (pre) layernorm_backward(dx, params_.grad(id.ln1w), params_.grad(id.ln1b), datt_in.data(),
                              a.x.data(), params_.data(id.ln1w), a.ln1_mean.data(), a.ln1_rstd.data(), N, C);
  else for (size_t i = 0; i < NC; ++i) dx[i] += datt_in[i];
  if (pos_->adds() && choice_.placement == Placement::Layerwise) pos_->add_backward(l, dx, B_, T_, C);
}

}  // namespace ap
