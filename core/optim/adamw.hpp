// core/optim/adamw.hpp — AdamW with decoupled weight decay (only on tensors declared with
// decay), the learning-rate schedule (linear warmup, then constant / linear / cosine decay to
// 0 at `steps`), and global gradient-norm clipping.
#pragma once
#include <vector>

#include "config/config.hpp"
#include "common/params.hpp"

namespace ap {

float learning_rate(const Config& cfg, int step);  // step is 0-based

// sqrt(Σ g²) over every gradient, in double.
double grad_norm(const ParamStore& params, const std::vector<float>& grads);

class AdamW {
 public:
  explicit AdamW(size_t n) : m(n, 0.0f), v(n, 0.0f) {}
  // One update with learning rate lr; gradients are scaled by `grad_scale` first (clipping).
  void step(ParamStore& params, const Config& cfg, float lr, float grad_scale);
  std::vector<float> m, v;  // first and second moments, same layout as the ParamStore
  int t = 0;                // updates taken (bias correction)
};

}  // namespace ap
