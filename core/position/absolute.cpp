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

void add_qk_table(float* x, const float* P, const AttnShape& s, bool by_head) {
  const int W = by_head ? s.NH * s.HS : s.HS;  // the width of a row of P
  for (int b = 0; b < s.B; ++b)
    for (int h = 0; h < s.NH; ++h)
      for (int t = 0; t < s.T; ++t) {
        float* v = x + ((size_t(b) * s.NH + h) * s.T + t) * s.HS;
        const float* p = P + size_t(t) * W + (by_head ? h * s.HS : 0);
        for (int d = 0; d < s.HS; ++d) v[d] += p[d];
      }
}

void add_qk_table_backward(float* dP, const float* dx, const AttnShape& s, bool by_head) {
  const int W = by_head ? s.NH * s.HS : s.HS;
  for (int b = 0; b < s.B; ++b)
    for (int h = 0; h < s.NH; ++h)
      for (int t = 0; t < s.T; ++t) {
        const float* g = dx + ((size_t(b) * s.NH + h) * s.T + t) * s.HS;
        float* p = dP + size_t(t) * W + (by_head ? h * s.HS : 0);
        for (int d = 0; d < s.HS; ++d) p[d] += g[d];
      }
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
