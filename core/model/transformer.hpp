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
  int V;  // input vocabulary (task tokens + anchor tokens)
  int O;  // output classes
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
  float forward(const int32_t* ids, int B, int T, const int32_t* targets, const uint8_t* mask, bool training, Rng* rng);
  // Head edits for the forwards that follow (evaluation only: a training forward ignores them),
  // or null for none. The list is not copied: it must outlive those forwards (Session owns it).
  void set_edits(const std::vector<HeadEdit>* edits) { edits_ = edits; }
  const std::vector<HeadEdit>* edits() const { return edits_; }
  // Backward of the last forward (which must have had targets); accumulates into grads.
  void backward();

  // Results of the last forward.
  int rows() const { return shape_.per_sequence ? B_ : B_ * T_; }
  const FloatBuffer& probs() const { return probs_.values(); }  // (rows, O)
  const FloatBuffer& hidden() const { return lnf_.values(); }   // (B,T,C) final normed states
  const AttentionActs& attention(int layer) const { return blocks_[layer].att; }
  // (B,T,3C) of block `layer`: q, k, v before any feature map or rotation (the Explore view's probes).
  const float* qkv(int layer) const { return blocks_[layer].qkv.data(); }
  const Normalization& normalization() const { return *norm_; }
  int last_B() const { return B_; }
  // Bytes of every activation and backward scratch buffer the model holds (their capacities:
  // the largest batch seen so far). transformer_memory.cpp.
  size_t activation_bytes() const;
  int last_T() const { return T_; }

 private:
  struct BlockIds {
    int ln1w, ln1b, qkvw, qkvb, projw, projb, ln2w, ln2b, fcw, fcb, fc2w, fc2b;
  };
  // The activations of one block. (B,T,C) unless noted; F = ffn width.
  struct BlockActs {
    ActTensor<3> x{"block input x"};  // after layerwise position
    ActTensor<3> ln1{"ln1 output"};
    ActTensor<1> ln1_mean{"ln1 mean"}, ln1_rstd{"ln1 rstd"};  // (B·T)
    ActTensor<3> qkv{"qkv"};                                  // (B,T,3C)
    AttentionActs att;
    ActTensor<3> att_out{"attention output"};  // merged heads
    ActTensor<3> proj{"attention projection"};
    ActTensor<3> proj_drop{"attention projection after dropout"};
    std::vector<uint8_t> proj_keep;
    ActTensor<3> s1{"stream after attention"};  // x + attn (post-norm: before LN1)
    ActTensor<3> mid{"stream between sublayers"};
    ActTensor<3> ln2{"ln2 output"};
    ActTensor<1> ln2_mean{"ln2 mean"}, ln2_rstd{"ln2 rstd"};  // (B·T)
    ActTensor<3> fc{"ffn hidden"}, act{"ffn activation"};     // (B,T,F)
    ActTensor<3> fc2{"ffn output"};
    ActTensor<3> fc2_drop{"ffn output after dropout"};
    std::vector<uint8_t> fc2_keep;
    ActTensor<3> s2{"stream after ffn"};  // mid + mlp (post-norm: before LN2)
    ActTensor<3> out{"block output"};
  };
  void block_forward(int layer, const ActTensor<3>& input, bool training, Rng* rng);
  // dinput (B,T,C) = ∂L/∂input of block `layer` given doutput = ∂L/∂output (written, not accumulated).
  void block_backward(int layer, ActTensor<3>& dinput, const ActTensor<3>& doutput);
  AttnShape attn_shape(bool training) const;

  Config cfg_;
  ModelChoices choice_;  // placement, layernorm, activation, pool as enums
  ModelShape shape_;
  ParamStore params_;
  std::unique_ptr<PositionEncoding> pos_;
  std::unique_ptr<Normalization> norm_;
  int tok_emb_, lnfw_, lnfb_, headw_, headb_;
  std::vector<BlockIds> ids_;
  const std::vector<HeadEdit>* edits_ = nullptr;  // see set_edits
  // activations of the last forward
  int B_ = 0, T_ = 0;
  bool training_ = false;
  Rng* rng_ = nullptr;
  std::vector<int32_t> ids_in_, targets_;
  std::vector<uint8_t> mask_;
  ActTensor<3> emb_{"embedding"}, lnf_{"final LayerNorm output"};                     // (B,T,C)
  ActTensor<1> lnf_mean_{"final LayerNorm mean"}, lnf_rstd_{"final LayerNorm rstd"};  // (B·T)
  ActTensor<2> pooled_{"pooled states"};                                              // (B,C)
  ActTensor<2> logits_{"head logits"}, probs_{"head probabilities"};                  // (rows, O)
  std::vector<BlockActs> blocks_;
  // Backward scratch, kept across steps so that a step allocates nothing (shared by all blocks:
  // they run one after another). The gradient of each activation of the same name.
  struct Grads {
    ActTensor<2> dlogits{"dlogits"}, dpooled{"dpooled"};
    ActTensor<3> dlnf{"dlnf"}, dstream{"d block output"}, dprev{"d block input"};
    ActTensor<3> ds2{"ds2"}, dmid{"dmid"}, dfc2_drop{"dfc2 before dropout"}, dact{"dact"}, dfc{"dfc"},
        dmlp_in{"d ffn input"}, ds1{"ds1"}, dproj_drop{"dproj before dropout"}, datt_out{"d attention output"},
        dqkv{"dqkv"}, datt_in{"d attention input"};
  } grads_;
};

}  // namespace ap
