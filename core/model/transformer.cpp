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
// The residual sum out = stream + branch, all of one shape. A loop over data(): contiguous, and
// as fast as the xtensor expression (docs/xtensor.md), without its code in the module.
void residual_add(ActTensor<3>& out, const ActTensor<3>& stream, const ActTensor<3>& branch) {
  branch.expect(stream.shape());
  float* sum = out.resize(stream.shape());
  const float *from_stream = stream.data(), *from_branch = branch.data();
  for (size_t i = 0, n = out.size(); i < n; ++i) sum[i] = from_stream[i] + from_branch[i];
}
}  // namespace

Transformer::Transformer(const Config& cfg, const ModelShape& shape)
    : cfg_(cfg), choice_(cfg.choices()), shape_(shape) {
  const int C = cfg.d_model, F = cfg.ffn, L = cfg.layers;
  const float proj_std = 0.02f / std::sqrt(2.0f * L);
  tok_emb_ = params_.add("tok_emb.weight", {shape.V, C}, Init::Normal, 0.02f, true);
  pos_ = make_variant(find_position(cfg.position), cfg, params_);
  norm_ = make_variant(find_normalization(cfg.normalization), cfg, params_);
  for (int layer = 0; layer < L; ++layer) {
    const std::string prefix = "blocks." + std::to_string(layer) + ".";
    BlockIds block;
    block.ln1w = params_.add(prefix + "ln1.weight", {C}, Init::Ones, 0, false);
    block.ln1b = params_.add(prefix + "ln1.bias", {C}, Init::Zeros, 0, false);
    block.qkvw = params_.add(prefix + "attn.qkv.weight", {3 * C, C}, Init::Normal, 0.02f, true);
    block.qkvb = params_.add(prefix + "attn.qkv.bias", {3 * C}, Init::Zeros, 0, false);
    block.projw = params_.add(prefix + "attn.proj.weight", {C, C}, Init::Normal, proj_std, true);
    block.projb = params_.add(prefix + "attn.proj.bias", {C}, Init::Zeros, 0, false);
    block.ln2w = params_.add(prefix + "ln2.weight", {C}, Init::Ones, 0, false);
    block.ln2b = params_.add(prefix + "ln2.bias", {C}, Init::Zeros, 0, false);
    block.fcw = params_.add(prefix + "mlp.fc.weight", {F, C}, Init::Normal, 0.02f, true);
    block.fcb = params_.add(prefix + "mlp.fc.bias", {F}, Init::Zeros, 0, false);
    block.fc2w = params_.add(prefix + "mlp.proj.weight", {C, F}, Init::Normal, proj_std, true);
    block.fc2b = params_.add(prefix + "mlp.proj.bias", {C}, Init::Zeros, 0, false);
    ids_.push_back(block);
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

float Transformer::forward(const int32_t* ids, int B, int T, const int32_t* targets, const uint8_t* mask, bool training,
                           Rng* rng) {
  const int C = cfg_.d_model, O = shape_.O;
  B_ = B, T_ = T, training_ = training, rng_ = rng;
  const size_t BT = size_t(B) * T;
  const Shape<3> stream{size_t(B), size_t(T), size_t(C)};
  ids_in_.assign(ids, ids + BT);
  pos_->begin_forward(training, B, T, rng);
  embedding_forward(emb_.resize(stream), ids, params_.data(tok_emb_), int(BT), C);
  if (choice_.placement == Placement::Embed) {
    if (pos_->adds()) pos_->add_forward(-1, emb_.data(), B, T, C);
    if (pos_->maps()) pos_->map_forward(-1, emb_.data(), B, T, C);
  }
  const ActTensor<3>* states = &emb_;
  for (int layer = 0; layer < cfg_.layers; ++layer) {
    block_forward(layer, *states, training, rng);
    states = &blocks_[layer].out;
  }
  lnf_.resize(stream), lnf_mean_.resize({BT}), lnf_rstd_.resize({BT});
  layernorm_forward(lnf_.rows(), lnf_mean_.view(), lnf_rstd_.view(), states->crows(), params_.tensor<1>(lnfw_),
                    params_.tensor<1>(lnfb_));
  if (shape_.per_sequence) {
    // pooled (B,C) = the [CLS] row, or the mean over T, of the final states (B,T,C). Loops, not
    // xt::sum(states / T, {1}): that reduction measured ~15x slower here, on every step
    // (docs/xtensor.md).
    float* pooled = pooled_.zeros({size_t(B), size_t(C)});
    const float* final_states = lnf_.data();
    for (int b = 0; b < B; ++b) {
      if (choice_.pool == Pool::Cls) {
        std::memcpy(&pooled[size_t(b) * C], &final_states[size_t(b) * T * C], C * sizeof(float));
      } else {
        for (int t = 0; t < T; ++t)
          for (int c = 0; c < C; ++c) pooled[size_t(b) * C + c] += final_states[(size_t(b) * T + t) * C + c] / T;
      }
    }
  }
  const size_t N = size_t(rows());
  logits_.resize({N, size_t(O)}), probs_.resize({N, size_t(O)});
  // the head reads the pooled states (B,C) or every final state (B·T,C)
  linear_forward(logits_.view(), shape_.per_sequence ? pooled_.cview() : lnf_.crows(), params_.tensor<2>(headw_),
                 params_.tensor<1>(headb_));
  if (!targets) {
    targets_.clear();
    softmax_forward(probs_.data(), logits_.data(), int(N), O);
    return 0.0f;
  }
  targets_.assign(targets, targets + N);
  if (mask && !shape_.per_sequence)
    mask_.assign(mask, mask + N);
  else
    mask_.clear();
  return cross_entropy_forward(probs_.data(), logits_.data(), targets_.data(), mask_.empty() ? nullptr : mask_.data(),
                               int(N), O);
}

void Transformer::block_forward(int layer, const ActTensor<3>& input, bool training, Rng* rng) {
  const BlockIds& id = ids_[layer];
  BlockActs& acts = blocks_[layer];
  const bool pre = choice_.layernorm == LayerNormAt::Pre;
  const Shape<3> stream = input.shape();  // (B,T,C)
  const auto [B, T, C] = stream;
  const size_t N = B * T, F = size_t(cfg_.ffn);
  std::copy(input.begin(), input.end(), acts.x.resize(stream));
  if (choice_.placement == Placement::Layerwise) {
    if (pos_->adds()) pos_->add_forward(layer, acts.x.data(), int(B), int(T), int(C));
    if (pos_->maps()) pos_->map_forward(layer, acts.x.data(), int(B), int(T), int(C));
  }
  // attention sublayer
  const ActTensor<3>* att_in = &acts.x;
  if (pre) {
    acts.ln1.resize(stream), acts.ln1_mean.resize({N}), acts.ln1_rstd.resize({N});
    layernorm_forward(acts.ln1.rows(), acts.ln1_mean.view(), acts.ln1_rstd.view(), acts.x.crows(),
                      params_.tensor<1>(id.ln1w), params_.tensor<1>(id.ln1b));
    att_in = &acts.ln1;
  }
  acts.qkv.resize({B, T, 3 * C});
  linear_forward(acts.qkv.rows(), att_in->crows(), params_.tensor<2>(id.qkvw), params_.tensor<1>(id.qkvb));
  AttentionCtx ctx{layer,        attn_shape(training),       pos_.get(), norm_.get(), cfg_.attn_dropout, rng,
                   cfg_.softcap, training ? nullptr : edits_};
  acts.att_out.resize(stream);
  attention_forward(acts.att_out.view(), acts.att, acts.qkv.cview(), ctx);
  acts.proj.resize(stream);
  linear_forward(acts.proj.rows(), acts.att_out.crows(), params_.tensor<2>(id.projw), params_.tensor<1>(id.projb));
  const ActTensor<3>* attn_branch = &acts.proj;  // the attention sublayer's output, after dropout
  if (training && cfg_.dropout > 0) {
    dropout_forward(acts.proj_drop.resize(stream), acts.proj_keep, acts.proj.data(), acts.proj.size(), cfg_.dropout,
                    *rng);
    attn_branch = &acts.proj_drop;
  }
  residual_add(acts.s1, acts.x, *attn_branch);
  if (pre) {
    acts.mid.swap(acts.s1);  // the stream itself (s1 is not needed again in pre-norm)
  } else {
    acts.mid.resize(stream), acts.ln1_mean.resize({N}), acts.ln1_rstd.resize({N});
    layernorm_forward(acts.mid.rows(), acts.ln1_mean.view(), acts.ln1_rstd.view(), acts.s1.crows(),
                      params_.tensor<1>(id.ln1w), params_.tensor<1>(id.ln1b));
  }
  // feed-forward sublayer
  const ActTensor<3>* mlp_in = &acts.mid;
  if (pre) {
    acts.ln2.resize(stream), acts.ln2_mean.resize({N}), acts.ln2_rstd.resize({N});
    layernorm_forward(acts.ln2.rows(), acts.ln2_mean.view(), acts.ln2_rstd.view(), acts.mid.crows(),
                      params_.tensor<1>(id.ln2w), params_.tensor<1>(id.ln2b));
    mlp_in = &acts.ln2;
  }
  acts.fc.resize({B, T, F}), acts.act.resize({B, T, F});
  linear_forward(acts.fc.rows(), mlp_in->crows(), params_.tensor<2>(id.fcw), params_.tensor<1>(id.fcb));
  nonlinearity_forward(acts.act.rows(), acts.fc.crows(), choice_.activation);
  acts.fc2.resize(stream);
  linear_forward(acts.fc2.rows(), acts.act.crows(), params_.tensor<2>(id.fc2w), params_.tensor<1>(id.fc2b));
  const ActTensor<3>* mlp_branch = &acts.fc2;  // the feed-forward sublayer's output, after dropout
  if (training && cfg_.dropout > 0) {
    dropout_forward(acts.fc2_drop.resize(stream), acts.fc2_keep, acts.fc2.data(), acts.fc2.size(), cfg_.dropout, *rng);
    mlp_branch = &acts.fc2_drop;
  }
  residual_add(acts.s2, acts.mid, *mlp_branch);
  if (pre) {
    acts.out.swap(acts.s2);  // likewise
  } else {
    acts.out.resize(stream), acts.ln2_mean.resize({N}), acts.ln2_rstd.resize({N});
    layernorm_forward(acts.out.rows(), acts.ln2_mean.view(), acts.ln2_rstd.view(), acts.s2.crows(),
                      params_.tensor<1>(id.ln2w), params_.tensor<1>(id.ln2b));
  }
}

}  // namespace ap
