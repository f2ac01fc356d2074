// core/position/rotary.hpp — the rotary machinery shared by rope and xpos (tinygrad-style:
// precompute tables, then apply): frequencies, context-extension scaling (PI, NTK-aware, YaRN;
// reference §1.10, §7.5) and the in-place rotation of q or k in either pairing layout.
//   interleaved: pairs (2i, 2i+1)        — Su/bert4keras, GPT-J, the TDLM seed's rotate_every_two
//   half:        pairs (i, i + d_rot/2)  — GPT-NeoX / LLaMA rotate_half
// A pair (a, b) at position m becomes s·(a cos mθ_i − b sin mθ_i, b cos mθ_i + a sin mθ_i).
// Only the first d_rot dims of each head rotate (partial rotary); the rest pass through.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "position/explore.hpp"

namespace ap {

enum class RopeScaling { None, PI, NTK, YaRN };
RopeScaling rope_scaling_from(const std::string& name);  // none | pi | ntk | yarn

// θ_i = base^(−2i/d_rot), i = 0..d_rot/2−1.
std::vector<double> rope_thetas(int d_rot, double base);

struct ScaledThetas {
  std::vector<double> theta;  // θ'_i
  double mscale = 1.0;        // YaRN multiplies cos and sin (logits × mscale²); else 1
  double base = 0;            // NTK: base' = base·s^(d/(d−2)); else the base
};
// PI: θ/s. NTK: base' = base·s^(d/(d−2)). YaRN (β_fast 32, β_slow 1, L_train): ramp between θ
// and θ/s per pair, mscale = 0.1 ln s + 1. factor s ≥ 1.
ScaledThetas rope_scale(int d_rot, double base, RopeScaling kind, double factor, int train_len);
// YaRN's ramp (low, high) over the pair index: pairs below low keep θ, above high take θ/s.
std::pair<double, double> yarn_ramp(int d_rot, double base, int train_len);

// cos/sin tables (T, d_rot/2) in float: c[t*half+i] = mscale·cos(tθ_i), likewise sin.
void rope_tables(std::vector<float>& cos, std::vector<float>& sin, int T, const std::vector<double>& theta,
                 double mscale);

// xPos scales (T, d_rot/2) (xpos.cpp): q ζ_i^{(t−c)/γ}, k ζ_i^{−(t−c)/γ}, ζ_i = (2i + 0.4d)/(1.4d),
// c = ⌊T/2⌋.
void xpos_scales(std::vector<float>& qs, std::vector<float>& ks, int T, int d_rot, double gamma);

// x (rows, T, HS) rotated in place by position t; inverse = the transpose (used by backward).
// scale (T, d_rot/2) multiplies each rotated pair (xPos), or null.
void rope_apply(float* x, int rows, int T, int HS, int d_rot, bool half, const float* cos, const float* sin,
                const float* scale, bool inverse);

// The Explore view of a rotary encoding (rope, xpos): for every probe of the query and every
// head, the score s(d) = q̃_d · k̃_0 (query at position d, key at 0) for d = 0..D−1, computed with
// rope_tables / rope_apply (and xpos_scales when gamma > 0) — the same code as training; with
// query.scaling ≠ none also under rope_scale's thetas and mscale ("scaled"); and the chosen
// pair i alone: its share of the score, θ_i, and its q, k pairs before and after rotation to
// query.position.
struct RotarySpec {
  int HS, d_rot;
  bool half;
  double base;
  int train_len;
  double gamma = 0;  // xPos decay base γ; 0 = plain RoPE
};
nlohmann::json rotary_explore(const RotarySpec& r, const ExploreQuery& q);

// RoPE's PyTorch template (rope.cpp; common/torch_form.hpp), which randomized.cpp shares:
// ${d_rot} ${half} ${scaled} ${tuned} ${from_len} ${theta} ${scaled_theta} ${mscale}.
extern const char* const kRopePy;

}  // namespace ap
