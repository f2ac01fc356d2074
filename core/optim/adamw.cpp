// core/optim/adamw.cpp — see adamw.hpp.
#include "optim/adamw.hpp"

#include <cmath>

#include "tensor/kernels.hpp"

namespace ap {

float learning_rate(const Config& cfg, int step) {
  // The schedule counts from schedule_start (a fine-tune's restart): warmup, then the decay over
  // the steps left; the steps before it run at lr.
  if (step < cfg.schedule_start) return cfg.lr;
  step -= cfg.schedule_start;
  const int steps = cfg.steps - cfg.schedule_start;
  if (cfg.warmup > 0 && step < cfg.warmup) return cfg.lr * float(step + 1) / float(cfg.warmup);
  if (cfg.schedule == "constant" || steps <= cfg.warmup) return cfg.lr;
  const double progress = std::min(1.0, double(step - cfg.warmup) / double(steps - cfg.warmup));
  if (cfg.schedule == "linear") return float(cfg.lr * (1.0 - progress));
  return float(cfg.lr * 0.5 * (1.0 + std::cos(3.14159265358979323846 * progress)));  // cosine
}

double grad_norm(const ParamStore& params, const std::vector<float>& grads) {
  double s = 0.0;
  for (float g : grads) s += double(g) * g;
  return std::sqrt(s);
}

void AdamW::step(ParamStore& params, const Config& cfg, float lr, float grad_scale) {
  ++t;
  auto& g = params.all_grads();
  if (grad_scale != 1.0f)
    for (float& x : g) x *= grad_scale;
  for (const auto& p : params.infos())
    adamw_update(params.all_data().data() + p.offset, g.data() + p.offset, m.data() + p.offset, v.data() + p.offset,
                 p.size, lr, cfg.beta1, cfg.beta2, cfg.eps, p.decay ? cfg.weight_decay : 0.0f, t);
}

}  // namespace ap
