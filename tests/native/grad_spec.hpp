// tests/native/grad_spec.hpp — the declared tolerances and skips of the registry-wide gradient
// checks, as ggml's test-backend-ops declares grad_eps / grad_expect per test_case. Every
// registry entry is checked with its harness's tolerance unless a line below says otherwise,
// and a combination is skipped only when a line below says why. A declared skip must be a
// config the engine refuses (so a skip that stops applying fails the tests), and a combination
// that is not declared must be valid: there are no silent returns.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aptest {

// Pass when ‖analytic − numeric‖₂ ≤ rel · max(‖analytic‖₂, ‖numeric‖₂) + floor over the k
// coordinates checked, floor = abs · √k (per_coordinate) or abs; numeric = (L(θ+eps) − L(θ−eps))
// / 2eps, in float.
struct GradTolerance {
  float eps;
  double rel, abs;
  bool per_coordinate;
  bool passes(double diff, double analytic, double numeric, size_t k) const {
    return diff <= rel * std::max(analytic, numeric) + abs * (per_coordinate ? std::sqrt(double(k)) : 1.0);
  }
};

// The harnesses. Whole model (model_check.hpp): L = mean cross-entropy of one fixed batch; its
// float rounding (~1e-7) over 2eps gives ~3e-5 noise per coordinate, hence 1e-4 per coordinate.
inline constexpr GradTolerance kModelTolerance{2e-3f, 3e-2, 1e-4, true};
// One position encoding's hooks (test_position.cpp, up to 40 coordinates of each tensor).
inline constexpr GradTolerance kHookTolerance{4e-3f, 1e-2, 1e-3, false};

// A combination the gradient checks leave out, and why. causal: 1 causal only, 0 bidirectional
// only, -1 both.
struct GradSkip {
  const char* family;  // "position" or "normalization"
  const char* entry;   // its registry name
  int causal;
  const char* why;
};

inline const std::vector<GradSkip>& grad_skips() {
  static const std::vector<GradSkip> table = {
      {"position", "xpos", 0,
       "xPos scales a logit by ζ^((i−j)/γ), which grows without bound towards future keys; it is "
       "defined for causal attention only and the config refuses causal=false"},
      {"normalization", "stick_breaking", 0,
       "stick-breaking breaks a stick over the keys before each query, nearest first; it is "
       "causal by construction and the config refuses causal=false"},
      {"position", "forget", 0,
       "the forget gate's bias sums the gates between a key and a later query; it is defined for "
       "causal attention only (Lin et al. 2025) and the config refuses causal=false"},
  };
  return table;
}

// Why (family, entry, causal) is skipped, or "" when it is checked.
inline std::string grad_skip(const std::string& family, const std::string& entry, bool causal) {
  for (auto& s : grad_skips())
    if (family == s.family && entry == s.entry && (s.causal < 0 || s.causal == int(causal))) return s.why;
  return "";
}

// Per-entry tolerances that differ from a harness's (none today). An entry that needs a looser
// bound adds a line here, with the reason, never a branch in a test.
struct GradOverride {
  const char* harness;  // "model" or "hooks"
  const char* family;
  const char* entry;
  GradTolerance tolerance;
  const char* why;
};

inline const std::vector<GradOverride>& grad_overrides() {
  static const std::vector<GradOverride> table = {};
  return table;
}

// The tolerance of `entry` under a harness ("model": kModelTolerance, "hooks": kHookTolerance).
inline GradTolerance grad_tolerance(const std::string& harness, const std::string& family, const std::string& entry) {
  for (auto& o : grad_overrides())
    if (harness == o.harness && family == o.family && entry == o.entry) return o.tolerance;
  return harness == "hooks" ? kHookTolerance : kModelTolerance;
}

}  // namespace aptest
