// core/model/head_stats.cpp — the measures and labels of head_stats.hpp, computed row by row.
#include "model/head_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ap {
namespace {

std::string pct(float x) { return std::to_string(int(std::lround(100.0f * x))) + "%"; }

void label_head(HeadStats& h, bool has_anchors) {
  using K = HeadThresholds;
  if (h.prev_share >= K::kPrevious)
    h.labels.push_back({"previous-token", pct(h.prev_share) + " of each row on the previous token (threshold " + pct(K::kPrevious) + ")"});
  if (h.first_share >= K::kSink)
    h.labels.push_back({"first-token / sink", pct(h.first_share) + " of each row on the first token (threshold " + pct(K::kSink) + ")"});
  else if (has_anchors && h.anchor_share >= K::kSink)
    h.labels.push_back({"first-token / sink", pct(h.anchor_share) + " of each row on the anchor tokens (threshold " + pct(K::kSink) + ")"});
  if (h.entropy >= K::kUniform)
    h.labels.push_back({"uniform", "row entropy " + pct(h.entropy) + " of the uniform row's (threshold " + pct(K::kUniform) + ")"});
  if (h.offset_share >= K::kOffset) {
    const std::string where = h.offset == 0 ? "itself" : h.offset > 0 ? std::to_string(h.offset) + " back" : std::to_string(-h.offset) + " ahead";
    h.labels.push_back({"positional", pct(h.offset_share) + " of each row on the token " + where + " (offset " + std::to_string(h.offset) +
                                          ", threshold " + pct(K::kOffset) + ")"});
  }
  if (h.induction >= K::kInduction)
    h.labels.push_back({"induction", pct(h.induction) + " of each row on the token after an earlier copy of the current one (threshold " +
                                         pct(K::kInduction) + ")"});
}

}  // namespace

HeadStats head_stats(const float* a, int T, const int32_t* ids, bool causal, const std::vector<int>& anchors) {
  HeadStats h;
  std::vector<char> is_anchor(size_t(T), 0);
  for (int p : anchors)
    if (p >= 0 && p < T) is_anchor[size_t(p)] = 1;
  double ent = 0, dist = 0, first = 0, anch = 0, prev = 0, ind = 0;
  int ent_n = 0, rows = 0, first_n = 0, anch_n = 0, ind_rows = 0;
  float rmin = 1e30f, rmax = -1e30f;
  std::vector<double> off_sum(size_t(2 * T), 0.0);  // index d + T
  std::vector<int> off_n(size_t(2 * T), 0);
  for (int i = 0; i < T; ++i) {
    const float* row = a + size_t(i) * T;
    const int n = causal ? i + 1 : T;
    double r = 0;
    for (int j = 0; j < n; ++j) r += row[j];
    rmin = std::min(rmin, float(r)), rmax = std::max(rmax, float(r));
    if (!(r > 1e-9)) continue;
    ++rows;
    double H = 0, D = 0, A = 0, I = 0;
    bool repeat = false;
    for (int j = 0; j < n; ++j) {
      const double p = row[j] / r;
      if (p > 0) H -= p * std::log(p);
      D += p * std::abs(i - j);
      if (is_anchor[size_t(j)]) A += p;
      off_sum[size_t(i - j + T)] += p, ++off_n[size_t(i - j + T)];
      if (j >= 1 && j - 1 < i && ids[j - 1] == ids[i]) I += p, repeat = true;
    }
    if (n >= 2) ent += H / std::log(double(n)), ++ent_n;
    dist += D;
    if (i >= 1) first += row[0] / r, prev += row[i - 1] / r, ++first_n;
    if (!is_anchor[size_t(i)] && !anchors.empty()) anch += A, ++anch_n;
    if (repeat) ind += I, ++ind_rows;
  }
  if (rows == 0) return h;
  h.entropy = ent_n ? float(ent / ent_n) : 0.0f;
  h.distance = float(dist / rows);
  h.first_share = first_n ? float(first / first_n) : 0.0f;
  h.prev_share = first_n ? float(prev / first_n) : 0.0f;
  h.anchor_share = anch_n ? float(anch / anch_n) : -1.0f;
  h.row_sum_spread = rmax - rmin;
  for (int d = -(T - 1); d <= T - 1; ++d) {
    const int k = off_n[size_t(d + T)];
    if (d == 1 || 2 * k < rows) continue;
    const float s = float(off_sum[size_t(d + T)] / k);
    if (s > h.offset_share) h.offset_share = s, h.offset = d;
  }
  const int eligible = std::max(1, T - 1);
  if (ind_rows >= HeadThresholds::kInductionRows * eligible) h.induction = float(ind / ind_rows);
  label_head(h, !anchors.empty());
  return h;
}

nlohmann::json HeadStats::to_json() const {
  nlohmann::json labs = nlohmann::json::array();
  for (auto& l : labels) labs.push_back({{"name", l.name}, {"evidence", l.evidence}});
  return {{"entropy", entropy},     {"distance", distance},         {"first_share", first_share},
          {"anchor_share", anchor_share}, {"row_sum_spread", row_sum_spread}, {"prev_share", prev_share},
          {"offset", offset},       {"offset_share", offset_share}, {"induction", induction},
          {"labels", labs}};
}

nlohmann::json head_thresholds_json() {
  using K = HeadThresholds;
  return nlohmann::json::array({
      {{"label", "previous-token"}, {"measure", "prev_share"}, {"threshold", K::kPrevious}, {"rule", "share of each row on the previous token"}},
      {{"label", "first-token / sink"}, {"measure", "first_share"}, {"threshold", K::kSink}, {"rule", "share of each row on the first token (or on the anchors)"}},
      {{"label", "uniform"}, {"measure", "entropy"}, {"threshold", K::kUniform}, {"rule", "row entropy over the entropy of a uniform row"}},
      {{"label", "positional"}, {"measure", "offset_share"}, {"threshold", K::kOffset}, {"rule", "share of each row on the key at one fixed offset (other than the previous token)"}},
      {{"label", "induction"}, {"measure", "induction"}, {"threshold", K::kInduction}, {"rule", "share of each row on the token after an earlier copy of the current token, where a quarter of the rows have one"}},
  });
}

}  // namespace ap
