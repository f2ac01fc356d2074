// core/common/attn_shape.hpp — the shape of one attention call, shared by the model, the
// position encodings and the normalizations (a leaf: it includes nothing of the core, so that
// the two axes need not include each other or the model to read it).
#pragma once

namespace ap {

struct AttnShape {
  int B, T, NH, HS;
  bool causal;
  bool training;     // false during evaluation (RoPE scaling applies at evaluation only)
  float tau = 1.0f;  // the normalization's logit scale τ (set by attention.cpp), for q-dependent biases
};

}  // namespace ap
