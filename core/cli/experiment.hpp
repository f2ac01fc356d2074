// core/cli/experiment.hpp — an experiment definition (docs/experiments/<id>.json, docs/sweeps.md):
// the config fields shared by every run ("set"), the grids (a union of cartesian products), the
// seeds, the eval_at multiples, the headline metric, and the "quick" and "browser" overrides.
// The reader is strict: bounded size and depth, only the declared keys, every config value
// type-checked against its field; every error names the field and what is allowed. The page's
// and the runner's keys ("columns", "claims", "corpus") are checked for their shape only.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/runs.hpp"
#include "config/grid.hpp"

namespace ap::cli {

// "fine_tune": {"steps": N, "set": {fields}}: the grid points whose "fine_tune" axis is true train
// as usual, then continue N more steps with `set` applied (train --resume), and are evaluated after.
struct FineTune {
  int steps = 0;  // 0: no fine-tune
  Assignments set;
};

struct Experiment {
  std::string id, title, source, claim, metric;
  bool lower_is_better = true;
  Assignments set;              // config fields of every run, as text
  std::vector<GridAxes> grids;  // each a cartesian product; the runs are their union, in order
  int seeds = 1;                // seeds 1..seeds
  std::vector<int> eval_at;     // multiples of seq_len also evaluated
  Assignments quick, browser;   // config overrides of --quick and of the page
  int quick_seeds = 0;          // "quick": {"seeds": N}; 0 = unchanged
  FineTune fine_tune;           // with a grid axis "fine_tune" (true/false) that picks the points
};

// The grid axis that picks the points to fine-tune: not a config field (train never sees it).
constexpr const char* kFineTuneAxis = "fine_tune";

constexpr size_t kMaxExperimentBytes = size_t(256) << 10;  // and 5 levels of nesting

// `what` names the input in messages; `id` (when not empty) is what "id" must equal (the file name).
using OJson = nlohmann::ordered_json;  // keys in file order
Experiment parse_experiment(const OJson& j, const std::string& what, const std::string& id = "");
// Reads docs/experiments/<id>.json; its "id" must equal the file's name without ".json".
Experiment read_experiment(const std::string& path);

}  // namespace ap::cli
