// core/model/transformer_backward.cpp — the backward pass: the layers of forward in reverse,
// accumulating parameter gradients into the ParamStore (the caller zeroes them once per step).
#include <algorithm>
#include <cassert>
#include <cstring>

#include "model/transformer.hpp"
#include "tensor/kernels.hpp"

namespace ap {

namespace {
// dstream += dbranch, two gradients of one shape (the residual's backward).
void accumulate(ActTensor<3>& dstream, const ActTensor<3>& dbranch) {
  dbranch.expect(dstream.shape());
  float* into = dstream.data();
  const float* from = dbranch.data();
  for (size_t i = 0, n = dstream.size(); i < n; ++i) into[i] += from[i];
}
}  // namespace

void Transformer::backward() {
  assert(!targets_.empty() && "backward() needs a forward with targets");
  const int C = cfg_.d_model, O = shape_.O, B = B_, T = T_, N = rows();
  const size_t BT = size_t(B) * T;
  const Shape<3> stream{size_t(B), size_t(T), size_t(C)};
  ActTensor<2>& dlogits = grads_.dlogits;
  ActTensor<3>& dlnf = grads_.dlnf;
  dlogits.zeros({size_t(N), size_t(O)});
  dlnf.resize(stream);
  cross_entropy_backward(dlogits.data(), probs_.data(), targets_.data(), mask_.empty() ? nullptr : mask_.data(), N, O);
  if (shape_.per_sequence) {
    ActTensor<2>& dpooled = grads_.dpooled;
    dpooled.resize(pooled_.shape());
    dlnf.zeros(stream);  // the pooling backward below adds into it
    linear_backward(dpooled.view(), params_.grad_tensor<2>(headw_), params_.grad_tensor<1>(headb_), dlogits.cview(),
                    pooled_.cview(), params_.tensor<2>(headw_), 0.f);
    // the pooling backward: into the [CLS] row, or spread evenly over T. Loops: the xtensor
    // broadcast dlnf += (dpooled / T)[:, None, :] measured ~100x slower here (docs/xtensor.md).
    float* dfinal = dlnf.data();
    const float* dpool = dpooled.data();
    for (int b = 0; b < B; ++b) {
      if (choice_.pool == Pool::Cls) {
        for (int c = 0; c < C; ++c) dfinal[size_t(b) * T * C + c] += dpool[size_t(b) * C + c];
      } else {
        for (int t = 0; t < T; ++t)
          for (int c = 0; c < C; ++c) dfinal[(size_t(b) * T + t) * C + c] += dpool[size_t(b) * C + c] / T;
      }
    }
  } else {
    linear_backward(dlnf.rows(), params_.grad_tensor<2>(headw_), params_.grad_tensor<1>(headb_), dlogits.cview(),
                    lnf_.crows(), params_.tensor<2>(headw_), 0.f);
  }
  ActTensor<3>& dstream = grads_.dstream;  // ∂L/∂ the output of the block being visited
  ActTensor<3>& dprev = grads_.dprev;      // ∂L/∂ its input
  dstream.zeros(stream);
  dprev.resize(stream);
  const ActTensor<3>& last = cfg_.layers > 0 ? blocks_.back().out : emb_;
  layernorm_backward(dstream.rows(), params_.grad_tensor<1>(lnfw_), params_.grad_tensor<1>(lnfb_), dlnf.crows(),
                     last.crows(), params_.tensor<1>(lnfw_), lnf_mean_.cview(), lnf_rstd_.cview());
  for (int layer = cfg_.layers - 1; layer >= 0; --layer) {
    block_backward(layer, dprev, dstream);  // writes all of dprev
    dstream.swap(dprev);
  }
  if (choice_.placement == Placement::Embed) {  // the reverse of forward: map, then add
    if (pos_->maps()) pos_->map_backward(-1, dstream.data(), B, T, C);
    if (pos_->adds()) pos_->add_backward(-1, dstream.data(), B, T, C);
  }
  embedding_backward(params_.grad(tok_emb_), dstream.data(), ids_in_.data(), int(BT), C);
}

void Transformer::block_backward(int layer, ActTensor<3>& dinput, const ActTensor<3>& doutput) {
  const BlockIds& id = ids_[layer];
  BlockActs& acts = blocks_[layer];
  const bool pre = choice_.layernorm == LayerNormAt::Pre;
  const Shape<3> stream = acts.x.shape();  // (B,T,C)
  doutput.expect(stream);
  dinput.expect(stream);
  // ds2, dfc2_drop, ds1 and dproj_drop are overwritten before use (or skipped: the pointers
  // below alias the gradient they equal); the rest accumulate. The linear input gradients
  // dmlp_in, datt_out, datt_in and dact are written too (beta = 0), and dqkv by the attention.
  for (ActTensor<3>* d : {&grads_.dmid, &grads_.dmlp_in, &grads_.datt_out, &grads_.datt_in}) d->resize(stream);
  if (!pre) grads_.ds2.zeros(stream), grads_.ds1.zeros(stream);
  grads_.dact.resize(acts.act.shape());
  grads_.dfc.zeros(acts.fc.shape());
  grads_.dqkv.resize(acts.qkv.shape());
  const bool drop = training_ && cfg_.dropout > 0;
  const size_t n = shape_size(stream);
  // out = s2 (pre) or LN2(s2) (post)
  const ActTensor<3>* ds2 = &doutput;  // ∂L/∂s2
  if (!pre) {
    layernorm_backward(grads_.ds2.rows(), params_.grad_tensor<1>(id.ln2w), params_.grad_tensor<1>(id.ln2b),
                       doutput.crows(), acts.s2.crows(), params_.tensor<1>(id.ln2w), acts.ln2_mean.cview(),
                       acts.ln2_rstd.cview());
    ds2 = &grads_.ds2;
  }
  // s2 = mid + Drop(FC2(act(FC(mlp_in))))
  std::copy(ds2->begin(), ds2->end(), grads_.dmid.begin());
  const ActTensor<3>* dfc2 = ds2;  // ∂L/∂fc2, the feed-forward output before dropout
  if (drop && !acts.fc2_keep.empty()) {
    dropout_backward(grads_.dfc2_drop.zeros(stream), acts.fc2_keep, ds2->data(), n, cfg_.dropout);
    dfc2 = &grads_.dfc2_drop;
  }
  linear_backward(grads_.dact.rows(), params_.grad_tensor<2>(id.fc2w), params_.grad_tensor<1>(id.fc2b), dfc2->crows(),
                  acts.act.crows(), params_.tensor<2>(id.fc2w), 0.f);
  nonlinearity_backward(grads_.dfc.rows(), acts.fc.crows(), grads_.dact.crows(), choice_.activation);
  const ActTensor<3>& mlp_in = pre ? acts.ln2 : acts.mid;
  linear_backward(grads_.dmlp_in.rows(), params_.grad_tensor<2>(id.fcw), params_.grad_tensor<1>(id.fcb),
                  grads_.dfc.crows(), mlp_in.crows(), params_.tensor<2>(id.fcw), 0.f);
  if (pre)
    layernorm_backward(grads_.dmid.rows(), params_.grad_tensor<1>(id.ln2w), params_.grad_tensor<1>(id.ln2b),
                       grads_.dmlp_in.crows(), acts.mid.crows(), params_.tensor<1>(id.ln2w), acts.ln2_mean.cview(),
                       acts.ln2_rstd.cview());
  else
    accumulate(grads_.dmid, grads_.dmlp_in);
  // mid = s1 (pre) or LN1(s1) (post)
  const ActTensor<3>* ds1 = &grads_.dmid;  // ∂L/∂s1
  if (!pre) {
    layernorm_backward(grads_.ds1.rows(), params_.grad_tensor<1>(id.ln1w), params_.grad_tensor<1>(id.ln1b),
                       grads_.dmid.crows(), acts.s1.crows(), params_.tensor<1>(id.ln1w), acts.ln1_mean.cview(),
                       acts.ln1_rstd.cview());
    ds1 = &grads_.ds1;
  }
  // s1 = x + Drop(Proj(Attn(att_in)))
  std::copy(ds1->begin(), ds1->end(), dinput.begin());  // the first write of dinput
  const ActTensor<3>* dproj = ds1;                      // ∂L/∂proj, the attention output before dropout
  if (drop && !acts.proj_keep.empty()) {
    dropout_backward(grads_.dproj_drop.zeros(stream), acts.proj_keep, ds1->data(), n, cfg_.dropout);
    dproj = &grads_.dproj_drop;
  }
  linear_backward(grads_.datt_out.rows(), params_.grad_tensor<2>(id.projw), params_.grad_tensor<1>(id.projb),
                  dproj->crows(), acts.att_out.crows(), params_.tensor<2>(id.projw), 0.f);
  AttentionCtx ctx{layer, attn_shape(training_), pos_.get(), norm_.get(), cfg_.attn_dropout,
                   rng_,  cfg_.softcap,          nullptr};
  attention_backward(grads_.dqkv.view(), grads_.datt_out.cview(), acts.att, ctx);
  const ActTensor<3>& att_in = pre ? acts.ln1 : acts.x;
  linear_backward(grads_.datt_in.rows(), params_.grad_tensor<2>(id.qkvw), params_.grad_tensor<1>(id.qkvb),
                  grads_.dqkv.crows(), att_in.crows(), params_.tensor<2>(id.qkvw), 0.f);
  if (pre)
    layernorm_backward(dinput.rows(), params_.grad_tensor<1>(id.ln1w), params_.grad_tensor<1>(id.ln1b),
                       grads_.datt_in.crows(), acts.x.crows(), params_.tensor<1>(id.ln1w), acts.ln1_mean.cview(),
                       acts.ln1_rstd.cview());
  else
    accumulate(dinput, grads_.datt_in);
  if (choice_.placement == Placement::Layerwise) {
    if (pos_->maps()) pos_->map_backward(layer, dinput.data(), B_, T_, int(stream[2]));
    if (pos_->adds()) pos_->add_backward(layer, dinput.data(), B_, T_, int(stream[2]));
  }
}

}  // namespace ap
