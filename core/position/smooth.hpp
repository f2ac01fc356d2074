// core/position/smooth.hpp — the smooth scalar maps that learned slopes and gates share
// (KERPLE's softplus-positive parameters, the forgetting gate's sigmoid).
#pragma once

#include <cmath>

namespace ap::smooth {

inline double softplus(double x) { return x > 20 ? x : std::log1p(std::exp(x)); }
inline double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

}  // namespace ap::smooth
