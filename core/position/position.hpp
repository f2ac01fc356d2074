// core/position/position.hpp — the interface every position encoding implements, and its
// registry. An encoding overrides only the hooks it needs; the defaults do nothing:
//   add        x(B,T,C) += P[t]                     absolute: at the embedding, or every layer
//   map        x(B,T,C) ← R(t) x, in place          rope_embed (TDLM's 'rope'), where add applies
//   rotate     q,k(B,NH,T,HS) rotated in place      RoPE, xPos
//   bias       logits(B,NH,T,T) += b(i,j) [q,k]     ALiBi, T5, FIRE, contextual
//   weights    a'(B,NH,T,T) = a ⊙ M                 URPE
//   values     o_i(B,NH,T,HS) += Σ_j a_ij r(i,j)    Shaw relative values
// Backward hooks accumulate parameter gradients into the ParamStore and input gradients with +=.
// Positions are 0-based; query i, key j (see shared reference §0 for sign conventions).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/attn_shape.hpp"
#include "common/make_context.hpp"
#include "common/options.hpp"
#include "common/params.hpp"
#include "common/torch_form.hpp"
#include "position/explore.hpp"

namespace ap {

class PositionEncoding {
 public:
  virtual ~PositionEncoding() = default;

  // -- once at the start of every model forward, before any other hook: the positions of this
  // forward's sequences may be chosen here (randomized draws them in training from the forward's
  // rng, the session's seeded stream; evaluation forwards pass training = false and rng = null).
  // The backward of that forward uses the same choice.
  virtual void begin_forward(bool training, int B, int T, Rng* rng) {}

  // -- absolute: add to the residual stream. layer = -1 at the embedding, else the block index.
  virtual bool adds() const { return false; }
  virtual void add_forward(int layer, float* x, int B, int T, int C) {}
  virtual void add_backward(int layer, const float* dx, int B, int T, int C) {}

  // -- map the residual stream in place, at the same points as add (the placement); backward maps
  // dx back in place. rope_embed rotates the embedded tokens (TDLM's embedding-level 'rope').
  virtual bool maps() const { return false; }
  virtual void map_forward(int layer, float* x, int B, int T, int C) {}
  virtual void map_backward(int layer, float* dx, int B, int T, int C) {}

  // -- rotate q and k (B,NH,T,HS) in place; backward rotates dq, dk back in place. Also the hook
  // of encodings that add a table to q and k after the projections (qk_sinusoidal, qk_learned:
  // TDLM's layerwise_fixed / layerwise_learnable); their backward leaves dq, dk as they are.
  virtual bool rotates() const { return false; }
  virtual void rotate_forward(int layer, float* q, float* k, const AttnShape& s) {}
  virtual void rotate_backward(int layer, float* dq, float* dk, const AttnShape& s) {}

  // -- additive logit bias (B,NH,T,T), applied after the q·k scale; may read q, k.
  virtual bool biases() const { return false; }
  virtual void bias_forward(int layer, float* logits, const float* q, const float* k, const AttnShape& s) {}
  virtual void bias_backward(int layer, const float* dlogits, const float* q, const float* k, float* dq, float* dk,
                             const AttnShape& s) {}

  // -- multiply the normalized weights: out = a ⊙ M.
  virtual bool multiplies() const { return false; }
  virtual void weights_forward(int layer, const float* a, float* out, const AttnShape& s) {}
  virtual void weights_backward(int layer, const float* a, const float* dout, float* da, const AttnShape& s) {}

  // -- value term: o (B,NH,T,HS) += Σ_j a_ij r(i,j).
  virtual bool adds_values() const { return false; }
  virtual void values_forward(int layer, const float* a, float* o, const AttnShape& s) {}
  virtual void values_backward(int layer, const float* a, const float* dout, float* da, const AttnShape& s) {}

  // Data for display at length T: {"kind": ..., matrices...} (encoding matrix, similarity,
  // angles, bias per head, buckets — whichever applies).
  virtual nlohmann::json display(int T) const { return nlohmann::json::object(); }
  // Data for the Explore view (explore.hpp): the encoding as a function of distance, from its own
  // code; an empty object when the encoding has no such view (none, contextual).
  virtual nlohmann::json explore(const ExploreQuery& q) const { return nlohmann::json::object(); }
  // Longest length the encoding can address (learned: its table); -1 = unbounded.
  virtual int max_length() const { return -1; }
  // Throws the encoding's own reason when it cannot address T tokens (past max_length()), so that
  // a caller can ask before it allocates anything for the pass.
  virtual void check_length(int T) const {}
};

struct PositionEntry {
  const char* name;
  // The prose (common/doc.hpp: empty in the wasm builds, the page imports it as data)
  Doc title;          // "Rotary (RoPE)"
  Doc formula;        // LaTeX
  Doc where;          // "added to the embedding", "rotates q and k in every layer", ...
  Doc note;           // a plain-language sentence or two for the UI
  bool absolute;      // acts on the residual stream (add or map): placement embed|layerwise applies
  bool logits_only;   // acts only through the attention logits (Lemma 1 applies)
  bool extrapolates;  // defined beyond the training length
  std::vector<OptionSpec> options;
  // Declare parameters in `params` (allocated later) and return the encoding. The context holds
  // the model's sizes and this entry's options (core/config/variants.cpp fills it).
  std::unique_ptr<PositionEncoding> (*make)(const MakeContext& ctx, ParamStore& params);
  // Optional: reject configs this entry cannot run (e.g. xpos needs causal=true) by throwing
  // std::invalid_argument naming the field. Called once, by Config::validate().
  void (*check)(const MakeContext& ctx) = nullptr;
  // Adds a bias to the attention logits (its encodings' biases() is true): such an entry needs
  // a normalization that forms logits. Declared here so that validation need not build it; a
  // registry-wide test checks it against the built encoding.
  bool biases_logits = false;
  // The PyTorch form (`attnplay export-torch`; common/torch_form.hpp), or why there is none.
  TorchForm torch = {};
};

const std::vector<PositionEntry>& position_registry();
const PositionEntry& find_position(const std::string& name);  // throws listing valid names
// The entry's metadata and options as JSON (the CLI's `list --json`, the bindings, the UI);
// `params` is the parameter count it adds for the default config.
nlohmann::json position_json(const PositionEntry& e, size_t params);

}  // namespace ap
