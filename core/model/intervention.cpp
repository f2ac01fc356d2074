// core/model/intervention.cpp — see intervention.hpp. Plain loops: evaluation only, and the
// rows are short (T keys); nothing here runs in a training step.
#include "model/intervention.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace ap {

const std::vector<EditKindInfo>& edit_kinds() {
  static const std::vector<EditKindInfo> kinds = {
      {"zero", EditKind::Zero, "ablate: the head's output is zero (its output-projection columns count for nothing)"},
      {"uniform", EditKind::Uniform, "every query attends equally to the keys it may see"},
      {"previous", EditKind::Previous, "every query attends to the token before it (the first to itself)"},
      {"position", EditKind::Position, "every query attends to key `position` (queries before it, to themselves)"},
      {"offset", EditKind::Offset, "every query attends `offset` tokens back (clamped at the first token)"},
      {"patch", EditKind::Patch,
       "the head's output at `position` (all positions when absent) is copied from held-out example `donor`"},
  };
  return kinds;
}

namespace {
// The key row i of a one-hot pattern attends to, within the visible keys 0..n-1.
int key_of(const HeadEdit& e, int i, int n) {
  switch (e.kind) {
    case EditKind::Previous:
      return std::max(i - 1, 0);
    case EditKind::Offset:
      return std::max(i - e.offset, 0);
    case EditKind::Position:
      return e.position < n ? e.position : i;
    default:
      return i;
  }
}
}  // namespace

void edit_weights(float* w, const AttnShape& s, int layer, const std::vector<HeadEdit>& edits) {
  const int T = s.T;
  for (const HeadEdit& e : edits) {
    if (e.layer != layer || !e.replaces_weights()) continue;
    assert(e.head < s.NH);
    for (int b = 0; b < s.B; ++b)
      for (int i = 0; i < T; ++i) {
        float* row = w + ((size_t(b) * s.NH + e.head) * T + i) * T;
        const int n = s.causal ? i + 1 : T;  // the keys this query may see
        std::fill(row, row + T, 0.0f);
        if (e.kind == EditKind::Uniform)
          std::fill(row, row + n, 1.0f / float(n));
        else
          row[key_of(e, i, n)] = 1.0f;
      }
  }
}

void edit_outputs(float* o, const AttnShape& s, int layer, const std::vector<HeadEdit>& edits) {
  const int T = s.T, HS = s.HS;
  for (const HeadEdit& e : edits) {
    if (e.layer != layer || e.replaces_weights()) continue;
    assert(e.head < s.NH);
    const bool patch = e.kind == EditKind::Patch;
    assert(!patch || e.donor_out.size() == size_t(T) * HS);
    const int t0 = patch && e.position >= 0 ? e.position : 0, t1 = patch && e.position >= 0 ? e.position + 1 : T;
    for (int b = 0; b < s.B; ++b)
      for (int t = t0; t < t1; ++t) {
        float* dst = o + ((size_t(b) * s.NH + e.head) * T + t) * HS;
        if (patch)
          std::memcpy(dst, e.donor_out.data() + size_t(t) * HS, HS * sizeof(float));
        else
          std::fill(dst, dst + HS, 0.0f);
      }
  }
}

}  // namespace ap
