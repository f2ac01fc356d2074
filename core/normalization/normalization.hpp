// core/normalization/normalization.hpp — the interface of an attention normalization: a map from a
// row of logits to a row of weights, with its backward, and its row-sum property. A row has
// `n` visible keys (the causal prefix, or all keys); weights of masked keys are 0, and a row
// with n = 0 is all 0 (never NaN). Entries that need it can also transform q and k first
// (cosine: ℓ2-normalize; linear/performer: feature maps) and own parameters.
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

namespace ap {

class Normalization {
 public:
  virtual ~Normalization() = default;
  // Scale τ applied to q·k before the bias (default 1/√HS).
  virtual float scale(int head_size) const;
  // a[0..n) = N(s[0..n)); a[n..T) = 0 is set by the caller.
  virtual void row_forward(const float* s, float* a, int n) const = 0;
  // ds[0..n) += ∂L/∂s given a = N(s) and da = ∂L/∂a.
  virtual void row_backward(const float* s, const float* a, const float* da, float* ds, int n) const = 0;
  // Optional transform of q, k (B,NH,T,HS) before the scores; in place, with a backward that
  // maps dq, dk in place. Entries that use it keep what they need from the forward.
  virtual bool maps_qk() const { return false; }
  virtual void qk_forward(int layer, float* q, float* k, const AttnShape& s) {}
  virtual void qk_backward(int layer, float* dq, float* dk, const AttnShape& s) {}
  // Optional replacement of the scores τ q·kᵀ, for kernel entries whose feature dimension is
  // not HS (performer: s_ij = φ(q_i)·φ(k_j) with m random features). scores_forward writes
  // logits (B,NH,T,T) from q, k (B,NH,T,HS) after rotation; scores_backward adds into dq, dk.
  virtual bool forms_scores() const { return false; }
  virtual void scores_forward(int layer, const float* q, const float* k, float* logits, const AttnShape& s) {}
  virtual void scores_backward(int layer, const float* dlogits, float* dq, float* dk, const AttnShape& s) {}
  // Called before the rows of a layer are normalized (forward and backward): entries whose row
  // map depends on the full row length T, not only on the n visible keys, keep it here
  // (relu2 with divisor "row"). Without a call, T is taken as n.
  virtual void prepare_rows(int layer, const AttnShape& s) {}
  // The row map as the attention loop calls it, with the row's layer and head: entries with a
  // parameter per head (sink) override it; the default is the head-blind row_forward.
  virtual void head_row_forward(int layer, int head, const float* s, float* a, int n) const { row_forward(s, a, n); }
  // The row map with the row's place r = (b·NH + h)·T + i in the layer (B,NH,T) as the attention
  // loop calls it. Entries whose denominator comes from outside the row override both (linear:
  // RoFormer's sum over the unrotated features, kept by qk_forward); the defaults are the
  // head's row_forward and row_backward. The backward may keep per-row values (one slot a row,
  // so the threads of the loop never share one).
  virtual void placed_row_forward(int layer, size_t r, const AttnShape& s, const float* x, float* a, int n) const {
    head_row_forward(layer, int((r / size_t(s.T)) % size_t(s.NH)), x, a, n);
  }
  virtual void placed_row_backward(int layer, size_t r, const AttnShape& s, const float* x, const float* a,
                                   const float* da, float* ds, int n) {
    row_backward(x, a, da, ds, n);
  }
  // Parameters of the row map: called once per layer in the backward, after every row's
  // row_backward, with ds = ∂L/∂s (B,NH,T,T) of all rows (masked keys 0), before the soft cap's
  // backward. Entries whose row map owns parameters accumulate their gradients here (one
  // thread, so a per-head sum needs no locking).
  virtual void rows_backward(int layer, const float* ds, const AttnShape& s) {}
  // Fixed tensors the forward reads besides the parameters (performer: its drawn features, which
  // no other program can redraw), as they are now; for the PyTorch export.
  virtual std::vector<FixedTensor> fixed_tensors() const { return {}; }
};

enum class RowSum { One, Varies };

struct NormalizationEntry {
  const char* name;
  Doc title;    // the prose: common/doc.hpp (empty in the wasm builds)
  Doc formula;  // LaTeX
  Doc note;
  RowSum row_sum;     // rows sum to 1 (row-stochastic), or not
  bool accepts_bias;  // false for entries that never form logits (linear, performer)
  bool stable;        // finite for logits of ±80 and rows of 512 keys
  std::vector<OptionSpec> options;
  // Declare parameters in `params` and return the normalization; the context holds the
  // model's sizes and this entry's options.
  std::unique_ptr<Normalization> (*make)(const MakeContext& ctx, ParamStore& params);
  // Optional: reject configs this entry cannot run (stick_breaking needs causal=true) by
  // throwing std::invalid_argument naming the field. Config::validate calls it.
  void (*check)(const MakeContext& ctx) = nullptr;
  // The PyTorch form (`attnplay export-torch`; common/torch_form.hpp), or why there is none.
  TorchForm torch = {};
};

const std::vector<NormalizationEntry>& normalization_registry();
const NormalizationEntry& find_normalization(const std::string& name);
// The entry's metadata and options as JSON (the CLI's `list --json`, the bindings, the UI).
nlohmann::json normalization_json(const NormalizationEntry& e);

}  // namespace ap
