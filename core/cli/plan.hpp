// core/cli/plan.hpp — the runs of a sweep, from --set/--grid/--seeds or from an experiment
// definition: every run is a list of key=value assignments (shared fields, its grid point, the
// --quick overrides, its seed), and every run becomes one `attnplay train` command line that
// writes its own one-row CSV. The in-process sweep, GNU parallel and Slurm run the same lines.
#pragma once
#include <map>
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
  std::string text_file;                           // the text task's text for every run (train --text-file), or ""
  std::string task_file;                           // the custom task's pairs for every run (train --task-file), or ""
  std::map<std::string, std::string> value_files;  // a value that goes by file -> its file (write_value_files)
  FineTune fine_tune;                              // the experiment's: for the runs whose axis "fine_tune" is true
};

// A --set value longer than this, or with a line break, goes to train by file (--set-file
// key=FILE): Linux refuses one command-line argument over 128 KiB (MAX_ARG_STRLEN), and a task
// list holds one command per line.
constexpr size_t kMaxArgBytes = size_t(16) << 10;
bool goes_by_file(const std::string& value);
// Writes every value of the runs that goes by file once, to dir/values/value-N.txt, and records
// it in plan.value_files. Throws naming the file when it cannot be written.
void write_value_files(SweepPlan& plan, const std::string& dir);

// The union of the grids' products (no grid: one point), each point with seeds 1..seeds
// (seeds 0: the runs keep whatever seed their assignments give). `last` is applied after the
// grid point (the --quick overrides). Throws when "seed" is both an axis and given by seeds.
SweepPlan make_plan(const Assignments& set, const std::vector<GridAxes>& grids, int seeds,
                    const std::vector<int>& eval_at, const Assignments& last = {});
// The experiment's plan; with quick, its "quick" overrides and seeds.
SweepPlan experiment_plan(const Experiment& e, bool quick);
// The experiment's fine-tune; with quick, at most kQuickFineTuneSteps steps of it.
constexpr int kQuickFineTuneSteps = 2;
FineTune fine_tune_of(const Experiment& e, bool quick);

// argv of run i: `<attnplay> train --set k=v ... [--set-file k=F ...] [--text-file F | --task-file F]
// [--eval-at M,..] [--row-axes a,b] --row-out FILE`. A value that goes by file is passed as
// --set-file (train applies those after every --set) when it is its key's last assignment, and
// left out when a later one overrides it; throws when write_value_files has not written it.
std::vector<std::string> train_argv(const SweepPlan& plan, size_t i, const std::string& attnplay,
                                    const std::string& row_out);
// Whether run i fine-tunes (its axis "fine_tune" is "true"): it then runs as two lines, base_argv
// (train, the model to `model`) and fine_tune_argv (train --resume `model` with the fine-tune's
// fields, fine_tune.steps more steps; --eval-at multiples of the base's seq_len, --eval-at-base;
// the row's axis cells as the run's, --row-cell).
bool fine_tunes(const SweepPlan& plan, size_t i);
std::vector<std::string> base_argv(const SweepPlan& plan, size_t i, const std::string& attnplay,
                                   const std::string& model);
std::vector<std::string> fine_tune_argv(const SweepPlan& plan, size_t i, const std::string& attnplay,
                                        const std::string& model, const std::string& row_out);
// The same as one POSIX shell line (every word single-quoted when it needs to be).
std::string shell_line(const std::vector<std::string>& argv);
// "run-0007.csv": zero-padded, so that a shell glob lists the files in run order.
std::string row_file_name(size_t i);
// The value of `key` in the run (its last assignment), or "".
std::string last_value(const Assignments& run, const std::string& key);

}  // namespace ap::cli
