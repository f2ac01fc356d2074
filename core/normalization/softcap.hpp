// core/normalization/softcap.hpp — the logit soft cap, a composable option of every normalization
// that forms logits (config field `softcap`, 0 = off): s ← c·tanh(s/c), applied after the
// position bias and before the row normalization (Gemma 2's attn_logit_softcapping; x-transformers
// attend.py `softclamp_logits`, also after the bias). The cap bounds |s| < c, so no logit can
// dominate a row by more than 2c; near 0 it is the identity (slope 1).
// Backward from the capped value alone: ∂(c·tanh(s/c))/∂s = 1 − tanh²(s/c) = 1 − (capped/c)².
#pragma once
#include <cmath>
#include <cstddef>

namespace ap {

// s[0..n) ← c·tanh(s/c), in place.
inline void softcap_forward(float* s, size_t n, float c) {
  const float inv = 1.0f / c;
  for (size_t i = 0; i < n; ++i) s[i] = c * std::tanh(s[i] * inv);
}

// ds[0..n) ← ds · (1 − (capped/c)²), given the capped logits; in place.
inline void softcap_backward(const float* capped, float* ds, size_t n, float c) {
  const float inv = 1.0f / c;
  for (size_t i = 0; i < n; ++i) {
    const float t = capped[i] * inv;
    ds[i] *= 1.0f - t * t;
  }
}

}  // namespace ap
