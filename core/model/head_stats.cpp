// core/model/head_stats.cpp — the measures and labels of head_stats.hpp, computed row by row.
#include "model/head_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace ap {
namespace {

int pct(float x) { return int(std::lround(100.0f * x)); }

// One label; the evidence is formatted in place (snprintf, not string concatenation: this is
// compiled into the widget's wasm, whose download is budgeted).
void add_label(HeadStats& h, const char* name, const char* fmt, ...) {
  char buf[200];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  h.labels.push_back({name, buf});
}

void label_head(HeadStats& h, bool has_anchors) {
  using K = HeadThresholds;
  if (h.prev_share >= K::kPrevious)
    add_label(h, "previous-token", "%d%% of each row on the previous token (threshold %d%%)", pct(h.prev_share),
              pct(K::kPrevious));
  if (h.first_share >= K::kSink)
    add_label(h, "first-token / sink", "%d%% of each row on the first token (threshold %d%%)", pct(h.first_share),
              pct(K::kSink));
  else if (has_anchors && h.anchor_share >= K::kSink)
    add_label(h, "first-token / sink", "%d%% of each row on the anchor tokens (threshold %d%%)", pct(h.anchor_share),
              pct(K::kSink));
  if (h.entropy >= K::kUniform)
    add_label(h, "uniform", "row entropy %d%% of the uniform row's (threshold %d%%)", pct(h.entropy), pct(K::kUniform));
  if (h.offset_share >= K::kOffset) {
    char where[24];
    if (h.offset == 0)
      std::snprintf(where, sizeof where, "itself");
    else
      std::snprintf(where, sizeof where, "%d %s", std::abs(h.offset), h.offset > 0 ? "back" : "ahead");
    add_label(h, "positional", "%d%% of each row on the token %s (offset %d, threshold %d%%)", pct(h.offset_share),
              where, h.offset, pct(K::kOffset));
  }
  if (h.induction >= K::kInduction && h.induction >= K::kInductionLift * h.induction_chance)
    add_label(
        h, "induction",
        "%d%% of each row on the token after an earlier copy of the current one (threshold %d%%; a uniform row: %d%%)",
        pct(h.induction), pct(K::kInduction), pct(h.induction_chance));
}

}  // namespace

HeadStats head_stats(const float* a, int T, const int32_t* ids, bool causal, const std::vector<int>& anchors) {
  HeadStats h;
  std::vector<char> is_anchor(size_t(T), 0);
  for (int p : anchors)
    if (p >= 0 && p < T) is_anchor[size_t(p)] = 1;
  double ent = 0, dist = 0, first = 0, anch = 0, prev = 0, ind = 0, chance = 0;
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
    int copies = 0;  // keys after an earlier copy of token i
    for (int j = 0; j < n; ++j) {
      const double p = row[j] / r;
      if (p > 0) H -= p * std::log(p);
      D += p * std::abs(i - j);
      if (is_anchor[size_t(j)]) A += p;
      off_sum[size_t(i - j + T)] += p, ++off_n[size_t(i - j + T)];
      if (j >= 1 && j - 1 < i && ids[j - 1] == ids[i]) I += p, ++copies;
    }
    if (n >= 2) ent += H / std::log(double(n)), ++ent_n;
    dist += D;
    if (i >= 1) first += row[0] / r, prev += row[i - 1] / r, ++first_n;
    if (!is_anchor[size_t(i)] && !anchors.empty()) anch += A, ++anch_n;
    if (copies) ind += I, chance += double(copies) / n, ++ind_rows;
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
  if (ind_rows >= HeadThresholds::kInductionRows * eligible)
    h.induction = float(ind / ind_rows), h.induction_chance = float(chance / ind_rows);
  label_head(h, !anchors.empty());
  return h;
}

void apply_induction_rule(std::vector<std::vector<HeadStats>>& layers) {
  auto has = [](const HeadStats& h, const char* name) {
    return std::any_of(h.labels.begin(), h.labels.end(), [&](const HeadLabel& l) { return l.name == name; });
  };
  bool prev_below = false;  // a previous-token head in a layer below this one
  for (size_t l = 0; l < layers.size(); ++l) {
    for (HeadStats& h : layers[l]) {
      if (prev_below || !has(h, "induction")) continue;
      h.labels.erase(
          std::remove_if(h.labels.begin(), h.labels.end(), [](const HeadLabel& x) { return x.name == "induction"; }),
          h.labels.end());
      char buf[200];
      std::snprintf(buf, sizeof buf,
                    "not induction: its induction share %.2f reaches the threshold, but no earlier layer has a "
                    "previous-token head%s",
                    double(h.induction), l == 0 ? " (it is in the first layer)" : "");
      h.withheld = buf;
    }
    for (const HeadStats& h : layers[l]) prev_below = prev_below || has(h, "previous-token");
  }
}

// Objects are filled key by key from tables: nlohmann's initializer lists cost several KB of wasm
// per call site.
nlohmann::json HeadStats::to_json() const {
  const std::pair<const char*, float> shares[] = {{"entropy", entropy},
                                                  {"distance", distance},
                                                  {"first_share", first_share},
                                                  {"anchor_share", anchor_share},
                                                  {"row_sum_spread", row_sum_spread},
                                                  {"prev_share", prev_share},
                                                  {"offset_share", offset_share},
                                                  {"induction", induction},
                                                  {"induction_chance", induction_chance}};
  nlohmann::json j = nlohmann::json::object();
  for (auto& [k, v] : shares) j[k] = v;
  j["offset"] = offset;
  nlohmann::json labs = nlohmann::json::array();
  for (auto& l : labels) {
    nlohmann::json x = nlohmann::json::object();
    x["name"] = l.name;
    x["evidence"] = l.evidence;
    labs.push_back(std::move(x));
  }
  j["labels"] = std::move(labs);
  if (!withheld.empty()) j["withheld"] = withheld;
  return j;
}

nlohmann::json head_thresholds_json() {
  using K = HeadThresholds;
  struct Rule {
    const char *label, *measure;
    float threshold;
    const char* rule;
  };
  const Rule rules[] = {
      {"previous-token", "prev_share", K::kPrevious, "share of each row on the previous token"},
      {"first-token / sink", "first_share", K::kSink, "share of each row on the first token (or on the anchors)"},
      {"uniform", "entropy", K::kUniform, "row entropy over the entropy of a uniform row"},
      {"positional", "offset_share", K::kOffset,
       "share of each row on the key at one fixed offset (other than the previous token)"},
      {"induction", "induction", K::kInduction,
       "share of each row on the token after an earlier copy of the current token, where a quarter of the rows have "
       "one, and at least twice a uniform row's share; and a previous-token head in an earlier layer, so a one-layer "
       "model "
       "has none"},
  };
  nlohmann::json out = nlohmann::json::array();
  for (const Rule& r : rules) {
    nlohmann::json x = nlohmann::json::object();
    x["label"] = r.label;
    x["measure"] = r.measure;
    x["threshold"] = r.threshold;
    x["rule"] = r.rule;
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace ap
