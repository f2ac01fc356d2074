// core/position/absolute.hpp — shared helpers of the absolute encodings (learned, sinusoidal):
// adding a (T, C) table to every sequence of x (B, T, C), or to q and k of every head (qk_sinusoidal,
// qk_learned), and the display of a table.
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "common/attn_shape.hpp"

namespace ap {

// x(B,T,C) += P(T,C) row by row.
void add_table(float* x, const float* P, int B, int T, int C);
// dP(T,C) += Σ_b dx(b,T,C).
void add_table_backward(float* dP, const float* dx, int B, int T, int C);
// x = q or k (B,NH,T,HS) += P[t] in every head: P (T, HS) shared by the heads (by_head = false), or
// P (T, NH·HS) whose columns h·HS.. belong to head h (by_head = true; TDLM's 'b l (h d)').
void add_qk_table(float* x, const float* P, const AttnShape& s, bool by_head);
// dP += Σ_b dx(b,·,·,·) laid out as add_qk_table reads P.
void add_qk_table_backward(float* dP, const float* dx, const AttnShape& s, bool by_head);
// Sinusoidal table (T, C) (sinusoidal.cpp): Vaswani interleaved, or [sin | cos] when concat.
std::vector<float> sinusoidal_table(int T, int C, double base, bool concat);
// {"matrix": P (T×C), "similarity": cos(P_i, P_j) (T×T)} for the UI.
nlohmann::json table_display(const float* P, int T, int C);
// The PyTorch templates (common/torch_form.hpp) that randomized.cpp shares: learned's (learned.cpp;
// ${layerwise}) and the sinusoids' (sinusoidal.cpp; ${entry} ${formula} ${layerwise} ${base}
// ${concat} ${table}).
extern const char* const kLearnedPy;
extern const char* const kSinusoidsPy;

}  // namespace ap
