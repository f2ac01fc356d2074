// core/cli/summary.cpp — see summary.hpp.
#include "cli/summary.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "io/json.hpp"

namespace ap::cli {

namespace {

std::string num(double x) {
  if (std::isnan(x)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", x);
  return buf;
}

}  // namespace

Stats stats_of(const std::vector<double>& xs) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Stats s;
  s.n = xs.size();
  if (xs.empty()) return {0, nan, nan, nan, nan};
  double sum = 0;
  s.min = s.max = xs[0];
  for (double x : xs) sum += x, s.min = std::min(s.min, x), s.max = std::max(s.max, x);
  s.mean = sum / double(xs.size());
  double ss = 0;  // two passes: the sum of squared deviations, not E[x²] - mean² (cancellation)
  for (double x : xs) ss += (x - s.mean) * (x - s.mean);
  s.sd = xs.size() > 1 ? std::sqrt(ss / double(xs.size() - 1)) : nan;
  return s;
}

CsvTable summarize(const CsvTable& runs, const std::string& what) {
  if (runs.empty()) refuse("summary.no_header", "", {{"file", what}});
  const CsvRow& h = runs[0];
  const int seed = csv_column(h, "seed"), sha = csv_column(h, "weights_sha256"), err = csv_column(h, "error");
  if (seed < 0 || sha < seed || err < 0) refuse("summary.not_sweep_csv", "", {{"file", what}});
  CsvTable out{CsvRow(h.begin(), h.begin() + seed)};
  out[0].push_back("n");
  for (int m = seed + 1; m < sha; ++m)
    for (const char* s : {"_mean", "_sd", "_min", "_max"}) out[0].push_back(h[m] + s);
  std::vector<CsvRow> keys;                       // grid points in first-seen order
  std::map<CsvRow, std::vector<size_t>> members;  // point -> its rows without an error
  for (size_t r = 1; r < runs.size(); ++r) {
    CsvRow key(runs[r].begin(), runs[r].begin() + seed);
    if (!members.count(key)) keys.push_back(key), members[key];
    if (runs[r][err].empty()) members[key].push_back(r);
  }
  for (auto& key : keys) {
    CsvRow row = key;
    row.push_back(std::to_string(members[key].size()));
    for (int m = seed + 1; m < sha; ++m) {
      std::vector<double> xs;
      for (size_t r : members[key]) {
        const std::string& cell = runs[r][m];
        if (cell.empty()) continue;
        size_t used = 0;
        double x = 0;
        try {
          x = std::stod(cell, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != cell.size())
          refuse("summary.not_number", "",
                 {{"file", what}, {"row", std::to_string(r)}, {"column", show_text(h[m])}, {"value", show_text(cell)}});
        xs.push_back(x);
      }
      const Stats s = stats_of(xs);
      for (double v : {s.mean, s.sd, s.min, s.max}) row.push_back(num(v));
    }
    out.push_back(row);
  }
  return out;
}

}  // namespace ap::cli
