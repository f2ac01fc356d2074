// core/position/absolute.hpp — shared helpers of the absolute encodings (learned, sinusoidal):
// adding a (T, C) table to every sequence of x (B, T, C), and the display of a table.
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

namespace ap {

// x(B,T,C) += P(T,C) row by row.
void add_table(float* x, const float* P, int B, int T, int C);
// dP(T,C) += Σ_b dx(b,T,C).
void add_table_backward(float* dP, const float* dx, int B, int T, int C);
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
