// core/cli/emit.hpp — sweeps that outgrow one machine, run by existing engines (no scheduler of
// our own): GNU parallel reads one command line per run; Slurm runs an array job whose task k
// runs line k+1 of the same list. Each line is an `attnplay train ... --row-out DIR/run-K.csv`;
// `attnplay merge` joins the rows afterwards (docs/sweeps.md).
#pragma once
#include <string>

#include "cli/plan.hpp"

namespace ap::cli {

// The command lines of every run, one per line; rows go to rows_dir/run-NNNN.csv. Throws when a
// value holds a line break (it cannot go on one line).
std::string task_lines(const SweepPlan& plan, const std::string& attnplay, const std::string& rows_dir);
// `#!/bin/bash` + `#SBATCH --array=0-(n-1)` + run line $SLURM_ARRAY_TASK_ID+1 of `tasks`.
std::string slurm_script(size_t runs, const std::string& tasks, const std::string& logs);
// Writes file (GNU parallel) or dir/{sweep.sbatch,tasks.txt,logs/} (Slurm); prints what to run next.
void emit_parallel(const SweepPlan& plan, const std::string& attnplay, const std::string& file, std::string rows);
void emit_slurm(const SweepPlan& plan, const std::string& attnplay, const std::string& dir, std::string rows);

}  // namespace ap::cli
