// core/cli/emit.cpp — see emit.hpp.
#include "cli/emit.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace ap::cli {

namespace fs = std::filesystem;

namespace {

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::invalid_argument("cannot write '" + path.string() + "'");
}

std::string merge_hint(const std::string& rows) {
  return "then merge: attnplay merge OUT.csv --summary SUMMARY.csv " + shell_line({rows}) + "/run-*.csv\n";
}

}  // namespace

std::string task_lines(const SweepPlan& plan, const std::string& attnplay, const std::string& rows_dir) {
  std::string text;
  for (size_t i = 0; i < plan.runs.size(); ++i) {
    const std::string line = shell_line(train_argv(plan, i, attnplay, (fs::path(rows_dir) / row_file_name(i)).string()));
    if (line.find_first_of("\r\n") != std::string::npos)
      throw std::invalid_argument("--emit: run " + std::to_string(i) + " has a value with a line break; "
                                  "a task list holds one command per line");
    text += line + "\n";
  }
  return text;
}

std::string slurm_script(size_t runs, const std::string& tasks, const std::string& logs) {
  return "#!/bin/bash\n"
         "# attnplay sweep: a Slurm array job, one task per run. Submit with: sbatch <this file>\n"
         "#SBATCH --job-name=attnplay-sweep\n"
         "#SBATCH --array=0-" + std::to_string(runs - 1) + "\n"
         "#SBATCH --ntasks=1\n"
         "#SBATCH --cpus-per-task=1\n"
         "#SBATCH --output=" + logs + "/%A_%a.out\n"
         "set -euo pipefail\n"
         "tasks=" + shell_line({tasks}) + "\n"
         ": \"${SLURM_ARRAY_TASK_ID:?run this script with sbatch, or set SLURM_ARRAY_TASK_ID}\"\n"
         "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" \"$tasks\")\n"
         "if [ -z \"$line\" ]; then\n"
         "  echo \"attnplay sweep: no task $SLURM_ARRAY_TASK_ID in $tasks\" >&2\n"
         "  exit 1\n"
         "fi\n"
         "exec bash -c \"$line\"\n";
}

void emit_parallel(const SweepPlan& plan, const std::string& attnplay, const std::string& file, std::string rows) {
  if (rows.empty()) rows = file + ".rows";
  rows = fs::absolute(rows).lexically_normal().string();
  write_text(file, task_lines(plan, attnplay, rows));
  std::cout << plan.runs.size() << " command lines written to " << file << "; run them with, e.g.:\n"
            << "  parallel --jobs 2 < " << shell_line({file}) << "\n"
            << "  parallel --sshloginfile hosts < " << shell_line({file}) << "   (rows land on each host: "
            << "share " << shell_line({rows}) << ")\n"
            << merge_hint(rows);
}

void emit_slurm(const SweepPlan& plan, const std::string& attnplay, const std::string& dir, std::string rows) {
  const fs::path d = fs::absolute(dir).lexically_normal();
  std::error_code ec;
  fs::create_directories(d / "logs", ec);
  if (ec) throw std::invalid_argument("--emit slurm: cannot create '" + (d / "logs").string() + "': " + ec.message());
  if (rows.empty()) rows = (d / "rows").string();
  rows = fs::absolute(rows).lexically_normal().string();
  write_text(d / "tasks.txt", task_lines(plan, attnplay, rows));
  write_text(d / "sweep.sbatch", slurm_script(plan.runs.size(), (d / "tasks.txt").string(), (d / "logs").string()));
  fs::permissions(d / "sweep.sbatch", fs::perms::owner_exec, fs::perm_options::add, ec);
  std::cout << plan.runs.size() << " tasks written to " << (d / "tasks.txt").string() << "; submit with:\n"
            << "  sbatch " << shell_line({(d / "sweep.sbatch").string()}) << "\n" << merge_hint(rows);
}

}  // namespace ap::cli
