// core/cli/emit.hpp — sweeps that outgrow one machine, run by existing engines (no scheduler of
// our own): GNU parallel reads one command line per run; Slurm runs an array job whose task k
// runs line k+1 of the same list. Each line is an `attnplay train ... --row-out DIR/run-K.csv`;
// `attnplay merge` joins the rows afterwards (docs/sweeps.md). Every path in them is quoted for
// its reader, and a path with a control character is refused, naming its option.
#pragma once
#include <string>

#include "cli/plan.hpp"

namespace ap::cli {

// Throws when `path` holds a control character (bytes 0-31, 127): "<field>: the path ... holds a
// control character (byte 0x0A) ...".
void check_emitted_path(const std::string& field, const std::string& path);
// A value of an #SBATCH directive as sbatch's tokenizer reads it: in double quotes, `"` as `\"`,
// and `%` as `%%` (a file name pattern's %A, %a, %j ... are Slurm's).
std::string sbatch_quoted(const std::string& s);
// The command lines of every run, one per line; rows go to rows_dir/run-NNNN.csv. A value with
// a line break goes by file (write_value_files first); a line break left on a line throws.
std::string task_lines(const SweepPlan& plan, const std::string& attnplay, const std::string& rows_dir);
// `#!/bin/bash` + `#SBATCH --array=0-(n-1)` + `--output=<logs>/%A_%a.out` + run line
// $SLURM_ARRAY_TASK_ID+1 of `tasks`. Throws for a control character or a backslash in the paths.
std::string slurm_script(size_t runs, const std::string& tasks, const std::string& logs);
// Writes file (GNU parallel) or dir/{sweep.sbatch,tasks.txt,logs/} (Slurm), and the values that
// go by file to rows/values/; prints what to run next. Checks every path before writing anything.
void emit_parallel(SweepPlan plan, const std::string& attnplay, const std::string& file, std::string rows);
void emit_slurm(SweepPlan plan, const std::string& attnplay, const std::string& dir, std::string rows);

}  // namespace ap::cli
