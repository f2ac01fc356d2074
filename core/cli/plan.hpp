// core/cli/plan.hpp — the runs of a sweep, from --set/--grid/--seeds or from an experiment
// definition: every run is a list of key=value assignments (shared fields, its grid point, the
// --quick overrides, its seed), and every run becomes one `attnplay train` command line that
// writes its own one-row CSV. The in-process sweep, GNU parallel and Slurm run the same lines.
#pragma once
#include <string>
#include <vector>

#include "cli/experiment.hpp"
#include "cli/runs.hpp"
#include "config/grid.hpp"

namespace ap::cli {

struct SweepPlan {
  std::vector<std::string> axes;  // axis columns: the grid keys in first-seen order ("seed" has its own)
  std::vector<Assignments> runs;  // in grid order (the last axis fastest), then seed
  std::vector<int> eval_at;
  std::string text_file;          // the text task's text for every run (train --text-file), or ""
  std::string task_file;          // the custom task's pairs for every run (train --task-file), or ""
};

// The union of the grids' products (no grid: one point), each point with seeds 1..seeds
// (seeds 0: the runs keep whatever seed their assignments give). `last` is applied after the
// grid point (the --quick overrides). Throws when "seed" is both an axis and given by seeds.
SweepPlan make_plan(const Assignments& set, const std::vector<GridAxes>& grids, int seeds,
                    const std::vector<int>& eval_at, const Assignments& last = {});
// The experiment's plan; with quick, its "quick" overrides and seeds.
SweepPlan experiment_plan(const Experiment& e, bool quick);

// argv of run i: `<attnplay> train --set k=v ... [--text-file F | --task-file F] [--eval-at M,..] [--row-axes a,b] --row-out FILE`.
std::vector<std::string> train_argv(const SweepPlan& plan, size_t i, const std::string& attnplay,
                                    const std::string& row_out);
// The same as one POSIX shell line (every word single-quoted when it needs to be).
std::string shell_line(const std::vector<std::string>& argv);
// "run-0007.csv": zero-padded, so that a shell glob lists the files in run order.
std::string row_file_name(size_t i);

}  // namespace ap::cli
