// core/position/tables_naive.hpp — the tables of the position encodings written as xtensor
// expressions (NumPy-like): the *_naive twins of the loops in sinusoidal.cpp, rotary.cpp,
// relative.cpp, alibi.cpp and xpos.cpp, which tests pin to these bit for bit (test_shapes.cpp).
// Why twins and not the runtime code: each broadcasting xtensor expression instantiates its own
// stepper and assignment code. A first version that built the run-time tables this way (with the
// shape checks still inline) grew the wasm module by 108 KB raw, 37 KB gzipped, and put a widget's
// download over its 350 KB budget (docs/xtensor.md).
// The linker keeps none of this file in the module: only tests call it.
#pragma once
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "position/rotary.hpp"

namespace ap {

using IndexGrid = xt::xtensor<int, 2>;

// (T, C): PE(p, 2i) = sin(p ω_i), PE(p, 2i+1) = cos(p ω_i) (or [sin | cos]), ω_i = base^(−2i/C).
std::vector<float> sinusoidal_table_naive(int T, int C, double base, bool concat);
// θ_i = base^(−2i/d_rot); the scalings; the cos/sin tables (T, d_rot/2) times mscale.
std::vector<double> rope_thetas_naive(int d_rot, double base);
ScaledThetas rope_scale_naive(int d_rot, double base, RopeScaling kind, double s, int train_len);
void rope_tables_naive(std::vector<float>& cos, std::vector<float>& sin, int T, const std::vector<double>& theta,
                       double mscale);
// ALiBi slopes (ofirpress get_slopes) and the bias (NH, T, T) of a mode (causal, symmetric,
// asymmetric with ratio r).
std::vector<double> alibi_slopes_naive(int n);
std::vector<float> alibi_bias_naive(const std::vector<double>& slopes, int T, const std::string& mode, double ratio);
// rel(i, j) = j − i (key − query) over (T, T), and the T5 bucket of every entry of rel.
IndexGrid key_minus_query(int T);
IndexGrid t5_bucket_naive(const IndexGrid& rel, bool bidirectional, int num_buckets, int max_distance);
// xPos scales (T, d_rot/2): q ζ_i^{(t−c)/γ}, k ζ_i^{−(t−c)/γ}, ζ_i = (2i + 0.4d)/(1.4d), c = ⌊T/2⌋.
void xpos_scales_naive(std::vector<float>& qs, std::vector<float>& ks, int T, int d_rot, double gamma);

}  // namespace ap
