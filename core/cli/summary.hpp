// core/cli/summary.hpp — statistics over a sweep's rows: per grid point (the axis columns, those
// before "seed"), n (the runs without an error) and the mean, sample sd (n-1), min and max of
// every metric column (those between "seed" and "weights_sha256"), over its non-empty cells.
#pragma once
#include <cstddef>
#include <vector>

#include "cli/csv.hpp"

namespace ap::cli {

struct Stats {
  size_t n = 0;
  double mean = 0, sd = 0, min = 0, max = 0;  // sd is NaN when n < 2; all NaN when n == 0
};
Stats stats_of(const std::vector<double>& xs);

// The summary table of a per-run table (header first): "<axes>, n, M_mean, M_sd, M_min, M_max...",
// one row per grid point in first-seen order. Numbers with 10 significant digits; empty cells
// for NaN. Throws when the header lacks "seed", "weights_sha256" or "error", or a metric cell is
// not a number.
CsvTable summarize(const CsvTable& runs, const std::string& what);

}  // namespace ap::cli
