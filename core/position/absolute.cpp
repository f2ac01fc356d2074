// core/position/absolute.cpp — see absolute.hpp.
#include "position/absolute.hpp"

#include <cmath>

namespace ap {

void add_table(float* x, const float* P, int B, int T, int C) {
  for (int b = 0; b < B; ++b)
    for (int i = 0; i < T * C; ++i) x[size_t(b) * T * C + i] += P[i];
}

void add_table_backward(float* dP, const float* dx, int B, int T, int C) {
  for (int b = 0; b < B; ++b)
    for (int i = 0; i < T * C; ++i) dP[i] += dx[size_t(b) * T * C + i];
}

nlohmann::json table_display(const float* P, int T, int C) {
  std::vector<std::vector<float>> m(T, std::vector<float>(C)), sim(T, std::vector<float>(T));
  std::vector<double> norm(T, 0.0);
  for (int i = 0; i < T; ++i) {
    for (int c = 0; c < C; ++c) m[i][c] = P[i * C + c], norm[i] += double(P[i * C + c]) * P[i * C + c];
    norm[i] = std::sqrt(norm[i]) + 1e-12;
  }
  for (int i = 0; i < T; ++i)
    for (int j = 0; j < T; ++j) {
      double dot = 0;
      for (int c = 0; c < C; ++c) dot += double(P[i * C + c]) * P[j * C + c];
      sim[i][j] = float(dot / (norm[i] * norm[j]));
    }
  return {{"matrix", m}, {"similarity", sim}};
}

}  // namespace ap
