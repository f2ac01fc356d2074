// tests/native/model_check.hpp — shared by the model tests: a small session for a config, and a
// central-difference gradient check of every parameter tensor of its model.
//
// Check: L(θ) = mean cross-entropy on one fixed batch, in float. For each tensor, up to
// `per_tensor` coordinates (all when the tensor is small): numeric = (L(θ+h) − L(θ−h)) / 2h,
// norm-wise per tensor against the declared tolerance (grad_spec.hpp; by default h = 2e-3 and
//   ‖analytic − numeric‖₂ ≤ 3e-2 · max(‖analytic‖₂, ‖numeric‖₂) + 1e-4·√k).
// Skipped points: none (GELU is smooth; ReLU is not used in gradient checks; dropout is off);
// skipped combinations are declared in grad_spec.hpp.
#pragma once
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "grad_spec.hpp"
#include "session/session.hpp"

namespace aptest {

inline nlohmann::json tiny(nlohmann::json extra = {}) {
  nlohmann::json j{{"task", "copy"}, {"d_model", 16}, {"heads", 2},      {"layers", 2}, {"ffn", 24},
                   {"batch", 3},     {"seq_len", 8},  {"eval_every", 0}, {"seed", 7}};
  for (auto& [k, v] : extra.items()) j[k] = v;
  return j;
}

inline void check_model_gradients(ap::Session& s, int per_tensor = 12, GradTolerance tol = kModelTolerance) {
  ap::Rng rng(123);
  const auto& cfg = s.config();
  ap::Batch b = s.make_batch(rng, cfg.batch, cfg.seq_len, ap::Split::Train);
  std::vector<std::pair<std::string, std::vector<float>>> grads;
  s.gradients(b, grads);
  auto& ps = s.model().params();
  auto loss = [&] {
    return s.model().forward(b.inputs.data(), b.B, b.T, b.targets.data(), b.mask.empty() ? nullptr : b.mask.data(),
                             false, nullptr);
  };
  const float h = tol.eps;
  for (size_t t = 0; t < ps.infos().size(); ++t) {
    const auto& info = ps.info(int(t));
    const auto& analytic = grads[t].second;
    const size_t stride = std::max<size_t>(1, info.size / per_tensor);
    double d2 = 0, a2 = 0, n2 = 0;
    size_t k = 0;
    for (size_t i = 0; i < info.size; i += stride, ++k) {
      float* p = ps.data(int(t)) + i;
      const float p0 = *p;
      *p = p0 + h;
      const double lp = loss();
      *p = p0 - h;
      const double lm = loss();
      *p = p0;
      const double num = (lp - lm) / (2.0 * h), ana = analytic[i];
      d2 += (num - ana) * (num - ana), a2 += ana * ana, n2 += num * num;
    }
    INFO("tensor " << info.name << ": |analytic - numeric| = " << std::sqrt(d2) << ", |analytic| = " << std::sqrt(a2)
                   << ", |numeric| = " << std::sqrt(n2));
    CHECK(tol.passes(std::sqrt(d2), std::sqrt(a2), std::sqrt(n2), k));
  }
}

}  // namespace aptest
