// core/position/explore.cpp — see explore.hpp.
#include "position/explore.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ap {

nlohmann::json sample_by_distance(int NH, int D, bool causal, const std::function<double(int, int, int)>& f) {
  std::vector<int> dist;
  if (!causal)
    for (int d = -(D - 1); d < 0; ++d) dist.push_back(d);
  for (int d = 0; d < D; ++d) dist.push_back(d);
  std::vector<std::vector<float>> heads(NH, std::vector<float>(dist.size()));
  for (int h = 0; h < NH; ++h)
    for (size_t x = 0; x < dist.size(); ++x) {
      const int d = dist[x];
      heads[h][x] = d >= 0 ? float(f(h, D - 1, D - 1 - d)) : float(f(h, 0, -d));
    }
  return {{"distance", dist}, {"heads", heads}};
}

nlohmann::json similarity_by_distance(const float* P, int n, int C, int m) {
  std::vector<double> norm(n);
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int c = 0; c < C; ++c) s += double(P[size_t(i) * C + c]) * P[size_t(i) * C + c];
    norm[i] = std::sqrt(s) + 1e-12;
  }
  auto cos = [&](int i, int j) {
    double s = 0;
    for (int c = 0; c < C; ++c) s += double(P[size_t(i) * C + c]) * P[size_t(j) * C + c];
    return s / (norm[i] * norm[j]);
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();  // JSON null: off the table
  std::vector<int> dist;
  std::vector<double> mean, from;
  for (int d = -(n - 1); d < n; ++d) {
    double s = 0;
    int count = 0;
    for (int i = std::max(0, -d); i < n && i + d < n; ++i) s += cos(i, i + d), ++count;
    dist.push_back(d);
    mean.push_back(s / count);
    from.push_back(m + d >= 0 && m + d < n ? cos(m, m + d) : nan);
  }
  return {{"distance", dist}, {"mean", mean}, {"from", from}};
}

}  // namespace ap
