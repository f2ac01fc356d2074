// core/cli/curves.hpp — each sweep run's held-out evaluation curve. A run whose config has
// eval_every > 0 writes its metrics file beside its row (curve_file_of); the sweep then gathers
// the evaluation steps of every run into one sidecar, <out>.curves.csv beside --out: the columns
// run (the row's number, from 1), the grid axes, seed, then step, loss (the training batch's),
// eval_loss and eval_token_accuracy. The experiments page draws them (docs/experiments.md).
#pragma once
#include <string>
#include <vector>

#include "cli/plan.hpp"

namespace ap::cli {

// The curve file beside a row file: run-NNNN.csv -> curve-NNNN.csv (so that `merge DIR/run-*.csv`
// never takes a curve for a row), any other name -> NAME.curve.csv.
std::string curve_file_of(const std::string& row_out);
// The sidecar's path for `out` ("runs.csv" -> "runs.curves.csv").
std::string curves_path_of(const std::string& out);
// Writes the sidecar from the runs' curve files (row_files[i] is run i's row, empty for a run
// not merged); nothing when no run wrote a curve. Returns the number of runs with a curve.
size_t write_curves(const SweepPlan& plan, const std::vector<std::string>& row_files, const std::string& out);

}  // namespace ap::cli
