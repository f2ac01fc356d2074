// core/model/intervention.hpp — edits of one attention head at evaluation time (issue 19 §1):
// ablate it, replace its attention rows by a fixed pattern, or patch its output from a donor
// example. The attention forward applies them only when it is given a list (never in training),
// and they change activations, never the weights. The JSON door (declared fields, limits, the
// messages) is session_interventions.cpp.
#pragma once
#include <string>
#include <vector>

#include "common/attn_shape.hpp"

namespace ap {

enum class EditKind {
  Zero,      // the head's output o (T, HS) is 0: as if its columns of attn.proj.weight were 0
  Uniform,   // row i attends equally to every key it may see (causal: 0..i; else all T)
  Previous,  // row i attends to key i-1 (row 0 to itself)
  Position,  // row i attends to key p (rows before p, which a causal mask hides it from, to themselves)
  Offset,    // row i attends to key max(i-k, 0)
  Patch,     // o at query `position` (every position when -1) := the donor example's o there
};

// The registry of kinds: name, what it does in a sentence (CLI help, messages, the UI list).
struct EditKindInfo {
  const char* name;
  EditKind kind;
  const char* description;
};
const std::vector<EditKindInfo>& edit_kinds();

struct HeadEdit {
  EditKind kind = EditKind::Zero;
  int layer = 0, head = 0;
  int position = -1;             // Position: the key; Patch: the query position (-1: all)
  int offset = 1;                // Offset: k >= 0
  int donor = 0;                 // Patch: the held-out example whose output is copied in
  std::vector<float> donor_out;  // Patch: the donor's head output (T, HS), filled before the forward
  bool replaces_weights() const { return kind != EditKind::Zero && kind != EditKind::Patch; }
};

// The edits of `layer` that replace attention weights, applied to w (B,NH,T,T) in list order
// (a later edit of the same head wins). Rows hold only the allowed keys (causal mask kept).
void edit_weights(float* w, const AttnShape& s, int layer, const std::vector<HeadEdit>& edits);
// The edits of `layer` that act on the head outputs o (B,NH,T,HS): Zero, Patch.
void edit_outputs(float* o, const AttnShape& s, int layer, const std::vector<HeadEdit>& edits);

}  // namespace ap
