// core/model/transformer.hpp — the model: token embedding → [absolute position] → L blocks →
// final LayerNorm → head (per token, or per sequence after mean/[CLS] pooling).
// A block is multi-head attention + FFN with residuals, pre- or post-LayerNorm.
// Explicit forward/backward per layer (llm.c style): forward saves what backward needs, and the
// attention logits and weights of the last forward stay available for the UI.
#pragma once
#include <memory>
#include <vector>

#include "normalization/normalization.hpp"
#include "config/config.hpp"
#include "model/layers.hpp"
#include "common/params.hpp"
#include "position/position.hpp"

namespace ap {

struct ModelShape {
  int V;          // input vocabulary (task tokens + anchor tokens)
  int O;          // output classes
  bool per_sequence;
};

class Transformer {
 public:
  Transformer(const Config& cfg, const ModelShape& shape);
  ParamStore& params() { return params_; }
  const ParamStore& params() const { return params_; }
  const Config& config() const { return cfg_; }
  const ModelShape& shape() const { return shape_; }
  PositionEncoding& position() { return *pos_; }

  // Forward over ids (B,T). With targets: returns the mean cross-entropy (per-token targets
  // (B,T) with mask (B,T), or per-sequence targets (B)); without: returns 0.
  // training=true enables dropout (drawn from rng) and disables evaluation-time RoPE scaling.
  float forward(const int32_t* ids, int B, int T, const int32_t* targets, const uint8_t* mask,
                bool training, Rng* rng);
  // Backward of the last forward (which must have had targets); accumulates into grads.
  void backward();

  // Results of the last forward.
  int rows() const { return shape_.per_sequence ? B_ : B_ * T_; }
  const std::vector<float>& probs() const { return probs_; }    // (rows, O)
  const std::vector<float>& hidden() const { return lnf_; }     // (B,T,C) final normed states
  const AttentionActs& attention(int layer) const { return blocks_[layer].att; }
  int last_B() const { return B_; }
  int last_T() const { return T_; }

 private:
  struct BlockIds { int ln1w, ln1b, qkvw, qkvb, projw, projb, ln2w, ln2b, fcw, fcb, fc2w, fc2b; };
  struct BlockActs {
    std::vector<float> x;                  // (B,T,C) block input (after layerwise position)
    std::vector<float> ln1, ln1_mean, ln1_rstd;
    std::vector<float> qkv;                // (B,T,3C)
    AttentionActs att;
    std::vector<float> att_out, proj;      // (B,T,C) merged heads, after projection
    std::vector<float> proj_drop; std::vector<uint8_t> proj_keep;
    std::vector<float> s1;                 // (B,T,C) x + attn (post-norm: before LN1)
    std::vector<float> mid;                // (B,T,C) stream between the sublayers
    std::vector<float> ln2, ln2_mean, ln2_rstd;
    std::vector<float> fc, act, fc2;       // (B,T,F) (B,T,F) (B,T,C)
    std::vector<float> fc2_drop; std::vector<uint8_t> fc2_keep;
    std::vector<float> s2;                 // (B,T,C) mid + mlp (post-norm: before LN2)
    std::vector<float> out;                // (B,T,C) block output
  };
  void block_forward(int l, const float* x, bool training, Rng* rng);
  void block_backward(int l, float* dx, const float* dout);
  AttnShape attn_shape(bool training) const;

  Config cfg_;
  ModelChoices choice_;  // placement, norm_position, activation, pool as enums
  ModelShape shape_;
  ParamStore params_;
  std::unique_ptr<PositionEncoding> pos_;
  std::unique_ptr<Normalization> norm_;
  int tok_emb_, lnfw_, lnfb_, headw_, headb_;
  std::vector<BlockIds> ids_;
  // activations of the last forward
  int B_ = 0, T_ = 0;
  bool training_ = false;
  Rng* rng_ = nullptr;
  std::vector<int32_t> ids_in_, targets_;
  std::vector<uint8_t> mask_;
  std::vector<float> emb_, lnf_, lnf_mean_, lnf_rstd_, pooled_, logits_, probs_;
  std::vector<BlockActs> blocks_;
  // Backward scratch, kept across steps so that a step allocates nothing (shared by all blocks:
  // they run one after another).
  struct Grads {
    std::vector<float> dlogits, dpooled, dlnf, dx, dprev;
    std::vector<float> ds2, dmid, dfc2_out, dact, dfc, dmlp_in, ds1, dproj_out, datt, dqkv, datt_in;
  } g_;
};

}  // namespace ap
