// core/model/transformer.cpp — construction, forward and backward of the whole model.
// Block (pre-norm):  mid = x + Drop(Proj(Attn(LN1(x))));  out = mid + Drop(FC2(act(FC(LN2(mid)))))
// Block (post-norm): mid = LN1(x + Drop(Proj(Attn(x))));  out = LN2(mid + Drop(FC2(act(FC(mid)))))
#include "model/transformer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "config/variants.hpp"
#include "tensor/kernels.hpp"

namespace ap {

namespace {
void resize(std::vector<float>& v, size_t n) { v.resize(n); }
void add_into(float* out, const float* a, const float* b, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
}  // namespace

Transformer::Transformer(const Config& cfg, const ModelShape& shape)
    : cfg_(cfg), choice_(cfg.choices()), shape_(shape) {
  const int C = cfg.d_model, F = cfg.ffn, L = cfg.layers;
  const float proj_std = 0.02f / std::sqrt(2.0f * L);
  tok_emb_ = params_.add("tok_emb.weight", {shape.V, C}, Init::Normal, 0.02f, true);
  pos_ = make_variant(find_position(cfg.position), cfg, params_);
  norm_ = make_variant(find_normalization(cfg.normalization), cfg, params_);
  for (int l = 0; l < L; ++l) {
    const std::string p = "blocks." + std::to_string(l) + ".";
    BlockIds b;
    b.ln1w = params_.add(p + "ln1.weight", {C}, Init::Ones, 0, false);
    b.ln1b = params_.add(p + "ln1.bias", {C}, Init::Zeros, 0, false);
    b.qkvw = params_.add(p + "attn.qkv.weight", {3 * C, C}, Init::Normal, 0.02f, true);
    b.qkvb = params_.add(p + "attn.qkv.bias", {3 * C}, Init::Zeros, 0, false);
    b.projw = params_.add(p + "attn.proj.weight", {C, C}, Init::Normal, proj_std, true);
    b.projb = params_.add(p + "attn.proj.bias", {C}, Init::Zeros, 0, false);
    b.ln2w = params_.add(p + "ln2.weight", {C}, Init::Ones, 0, false);
    b.ln2b = params_.add(p + "ln2.bias", {C}, Init::Zeros, 0, false);
    b.fcw = params_.add(p + "mlp.fc.weight", {F, C}, Init::Normal, 0.02f, true);
    b.fcb = params_.add(p + "mlp.fc.bias", {F}, Init::Zeros, 0, false);
    b.fc2w = params_.add(p + "mlp.proj.weight", {C, F}, Init::Normal, proj_std, true);
    b.fc2b = params_.add(p + "mlp.proj.bias", {C}, Init::Zeros, 0, false);
    ids_.push_back(b);
  }
  lnfw_ = params_.add("ln_f.weight", {C}, Init::Ones, 0, false);
  lnfb_ = params_.add("ln_f.bias", {C}, Init::Zeros, 0, false);
  headw_ = params_.add("head.weight", {shape.O, C}, Init::Normal, 0.02f, true);
  headb_ = params_.add("head.bias", {shape.O}, Init::Zeros, 0, false);
  Rng rng(uint64_t(cfg.seed));
  params_.allocate(rng);
  blocks_.resize(L);
}

AttnShape Transformer::attn_shape(bool training) const {
  return {B_, T_, cfg_.heads, cfg_.d_model / cfg_.heads, cfg_.causal, training};
}

float Transformer::forward(const int32_t* ids, int B, int T, const int32_t* targets,
                           const uint8_t* mask, bool training, Rng* rng) {
  const int C = cfg_.d_model, O = shape_.O;
  B_ = B, T_ = T, training_ = training, rng_ = rng;
  const size_t BT = size_t(B) * T;
  ids_in_.assign(ids, ids + BT);
  resize(emb_, BT * C);
  embedding_forward(emb_.data(), ids, params_.data(tok_emb_), int(BT), C);
  if (pos_->adds() && choice_.placement == Placement::Embed) pos_->add_forward(-1, emb_.data(), B, T, C);
  const float* x = emb_.data();
  for (int l = 0; l < cfg_.layers; ++l) {
    block_forward(l, x, training, rng);
    x = blocks_[l].out.data();
  }
  resize(lnf_, BT * C); resize(lnf_mean_, BT); resize(lnf_rstd_, BT);
  layernorm_forward(lnf_.data(), lnf_mean_.data(), lnf_rstd_.data(), x, params_.data(lnfw_),
                    params_.data(lnfb_), int(BT), C);
  const float* head_in = lnf_.data();
  if (shape_.per_sequence) {
    pooled_.assign(size_t(B) * C, 0.0f);
    for (int b = 0; b < B; ++b) {
      if (choice_.pool == Pool::Cls) {
        std::memcpy(&pooled_[size_t(b) * C], &lnf_[size_t(b) * T * C], C * sizeof(float));
      } else {
        for (int t = 0; t < T; ++t)
          for (int c = 0; c < C; ++c) pooled_[size_t(b) * C + c] += lnf_[(size_t(b) * T + t) * C + c] / T;
      }
    }
    head_in = pooled_.data();
  }
  const int N = rows();
  resize(logits_, size_t(N) * O); resize(probs_, size_t(N) * O);
  linear_forward(logits_.data(), head_in, params_.data(headw_), params_.data(headb_), N, C, O);
  if (!targets) {
    targets_.clear();
    softmax_forward(probs_.data(), logits_.data(), N, O);
    return 0.0f;
  }
  targets_.assign(targets, targets + N);
  if (mask && !shape_.per_sequence) mask_.assign(mask, mask + N);
  else mask_.clear();
  return cross_entropy_forward(probs_.data(), logits_.data(), targets_.data(),
                               mask_.empty() ? nullptr : mask_.data(), N, O);
}

void Transformer::block_forward(int l, const float* x, bool training, Rng* rng) {
  const int C = cfg_.d_model, F = cfg_.ffn, N = B_ * T_;
  const size_t NC = size_t(N) * C;
  const BlockIds& id = ids_[l];
  BlockActs& a = blocks_[l];
  const bool pre = choice_.norm_position == NormPosition::Pre;
  a.x.assign(x, x + NC);
  if (pos_->adds() && choice_.placement == Placement::Layerwise) pos_->add_forward(l, a.x.data(), B_, T_, C);
  for (auto* v : {&a.ln1, &a.att_out, &a.proj, &a.s1, &a.mid, &a.ln2, &a.fc2, &a.s2, &a.out}) resize(*v, NC);
  for (auto* v : {&a.ln1_mean, &a.ln1_rstd, &a.ln2_mean, &a.ln2_rstd}) resize(*v, N);
  resize(a.qkv, size_t(N) * 3 * C); resize(a.fc, size_t(N) * F); resize(a.act, size_t(N) * F);
  // attention sublayer
  const float* att_in = a.x.data();
  if (pre) {
    layernorm_forward(a.ln1.data(), a.ln1_mean.data(), a.ln1_rstd.data(), a.x.data(),
                      params_.data(id.ln1w), params_.data(id.ln1b), N, C);
    att_in = a.ln1.data();
  }
  linear_forward(a.qkv.data(), att_in, params_.data(id.qkvw), params_.data(id.qkvb), N, C, 3 * C);
  AttentionCtx ctx{l, attn_shape(training), pos_.get(), norm_.get(), cfg_.attn_dropout, rng};
  attention_forward(a.att_out.data(), a.att, a.qkv.data(), ctx);
  linear_forward(a.proj.data(), a.att_out.data(), params_.data(id.projw), params_.data(id.projb), N, C, C);
  const float* attn_branch = a.proj.data();  // the attention sublayer's output, after dropout
  if (training && cfg_.dropout > 0) {
    resize(a.proj_drop, NC);
    dropout_forward(a.proj_drop.data(), a.proj_keep, attn_branch, NC, cfg_.dropout, *rng);
    attn_branch = a.proj_drop.data();
  }
  add_into(a.s1.data(), a.x.data(), attn_branch, NC);
  if (pre) a.mid.swap(a.s1);  // the stream itself (s1 is not needed again in pre-norm)
  else layernorm_forward(a.mid.data(), a.ln1_mean.data(), a.ln1_rstd.data(), a.s1.data(),
                         params_.data(id.ln1w), params_.data(id.ln1b), N, C);
  // feed-forward sublayer
  const float* mlp_in = a.mid.data();
  if (pre) {
    layernorm_forward(a.ln2.data(), a.ln2_mean.data(), a.ln2_rstd.data(), a.mid.data(),
                      params_.data(id.ln2w), params_.data(id.ln2b), N, C);
    mlp_in = a.ln2.data();
  }
  linear_forward(a.fc.data(), mlp_in, params_.data(id.fcw), params_.data(id.fcb), N, C, F);
  if (choice_.activation == Activation::Relu) relu_forward(a.act.data(), a.fc.data(), size_t(N) * F);
  else gelu_forward(a.act.data(), a.fc.data(), size_t(N) * F,
                    choice_.activation == Activation::GeluErf ? GeluKind::Erf : GeluKind::Tanh);
  linear_forward(a.fc2.data(), a.act.data(), params_.data(id.fc2w), params_.data(id.fc2b), N, F, C);
  const float* mlp_branch = a.fc2.data();  // the feed-forward sublayer's output, after dropout
  if (training && cfg_.dropout > 0) {
    resize(a.fc2_drop, NC);
    dropout_forward(a.fc2_drop.data(), a.fc2_keep, mlp_branch, NC, cfg_.dropout, *rng);
    mlp_branch = a.fc2_drop.data();
  }
  add_into(a.s2.data(), a.mid.data(), mlp_branch, NC);
  if (pre) a.out.swap(a.s2);  // likewise
  else layernorm_forward(a.out.data(), a.ln2_mean.data(), a.ln2_rstd.data(), a.s2.data(),
                         params_.data(id.ln2w), params_.data(id.ln2b), N, C);
}

}  // namespace ap
