// core/cli/emit.cpp — see emit.hpp. Every path an emitted file names is quoted for the reader
// that reads it (bash for the task lines, sbatch's own tokenizer for #SBATCH lines), and a path
// with a control character is refused, naming its option: a line break would become a line of
// the script, and no quoting carries one through a line-based task list.
#include "cli/emit.hpp"
#include "cli/files.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "io/json.hpp"

namespace ap::cli {

namespace fs = std::filesystem;

namespace {

void write_text(const fs::path& path, const std::string& text) { write_file(path.string(), text); }

std::string merge_hint(const std::string& rows) {
  return "then merge: attnplay merge OUT.csv --summary SUMMARY.csv [--experiment FILE] " + shell_line({rows}) +
         "/run-*.csv\n";
}

// Every path the emitted files name: the emitter's own target, the program, the rows' folder
// (by default inside the target) and the text or task file.
void check_paths(const SweepPlan& plan, const std::string& attnplay, const std::string& rows,
                 const std::string& target_field, const std::string& target) {
  check_emitted_path(target_field, target);
  check_emitted_path("--attnplay", attnplay);  // by default this program's own path
  check_emitted_path("--rows", rows);
  check_emitted_path("--text-file", plan.text_file);
  check_emitted_path("--task-file", plan.task_file);
}

}  // namespace

void check_emitted_path(const std::string& field, const std::string& path) {
  for (unsigned char c : path)
    if (c < 0x20 || c == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02X", c);
      refuse("emit.control_character", field, {{"path", show_text(path)}, {"byte", code}});
    }
}

std::string sbatch_quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) q += c == '%' ? "%%" : c == '"' ? "\\\"" : std::string(1, c);
  return q + '"';
}

std::string task_lines(const SweepPlan& plan, const std::string& attnplay, const std::string& rows_dir) {
  std::string text;
  for (size_t i = 0; i < plan.runs.size(); ++i) {
    const std::string line =
        shell_line(train_argv(plan, i, attnplay, (fs::path(rows_dir) / row_file_name(i)).string()));
    if (line.find_first_of("\r\n") != std::string::npos)
      refuse("emit.line_break", "--emit", {{"run", std::to_string(i)}});
    text += line + "\n";
  }
  return text;
}

std::string slurm_script(size_t runs, const std::string& tasks, const std::string& logs) {
  if (logs.find('\\') != std::string::npos) refuse("slurm.backslash", "--emit", {{"folder", show_text(logs)}});
  check_emitted_path("--emit slurm DIR", logs);
  check_emitted_path("--emit slurm DIR", tasks);
  return "#!/bin/bash\n"
         "# attnplay sweep: a Slurm array job, one task per run. Submit with: sbatch <this file>\n"
         "#SBATCH --job-name=attnplay-sweep\n"
         "#SBATCH --array=0-" +
         std::to_string(runs - 1) +
         "\n"
         "#SBATCH --ntasks=1\n"
         "#SBATCH --cpus-per-task=1\n"
         "#SBATCH --output=" +
         sbatch_quoted(logs + "/") +
         "%A_%a.out\n"
         "set -euo pipefail\n"
         "tasks=" +
         shell_line({tasks}) +
         "\n"
         ": \"${SLURM_ARRAY_TASK_ID:?run this script with sbatch, or set SLURM_ARRAY_TASK_ID}\"\n"
         "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" \"$tasks\")\n"
         "if [ -z \"$line\" ]; then\n"
         "  echo \"attnplay sweep: no task $SLURM_ARRAY_TASK_ID in $tasks\" >&2\n"
         "  exit 1\n"
         "fi\n"
         "exec bash -c \"$line\"\n";
}

void emit_parallel(SweepPlan plan, const std::string& attnplay, const std::string& file, std::string rows) {
  if (rows.empty()) rows = file + ".rows";
  rows = fs::absolute(rows).lexically_normal().string();
  check_paths(plan, attnplay, rows, "--emit gnu-parallel FILE", file);
  write_value_files(plan, rows);
  write_text(file, task_lines(plan, attnplay, rows));
  std::cout << plan.runs.size() << " command lines written to " << file << "; run them with, e.g.:\n"
            << "  parallel --jobs 2 < " << shell_line({file}) << "\n"
            << "  parallel --sshloginfile hosts < " << shell_line({file}) << "   (rows land on each host: "
            << "share " << shell_line({rows}) << ")\n"
            << merge_hint(rows);
}

void emit_slurm(SweepPlan plan, const std::string& attnplay, const std::string& dir, std::string rows) {
  const fs::path d = fs::absolute(dir).lexically_normal();
  if (rows.empty()) rows = (d / "rows").string();
  rows = fs::absolute(rows).lexically_normal().string();
  check_paths(plan, attnplay, rows, "--emit slurm DIR", d.string());
  const std::string script = slurm_script(plan.runs.size(), (d / "tasks.txt").string(), (d / "logs").string());
  std::error_code ec;
  fs::create_directories(d / "logs", ec);
  if (ec) refuse("slurm.cannot_create", "--emit", {{"folder", (d / "logs").string()}, {"reason", ec.message()}});
  write_value_files(plan, rows);
  write_text(d / "tasks.txt", task_lines(plan, attnplay, rows));
  write_text(d / "sweep.sbatch", script);
  fs::permissions(d / "sweep.sbatch", fs::perms::owner_exec, fs::perm_options::add, ec);
  std::cout << plan.runs.size() << " tasks written to " << (d / "tasks.txt").string() << "; submit with:\n"
            << "  sbatch " << shell_line({(d / "sweep.sbatch").string()}) << "\n"
            << merge_hint(rows);
}

}  // namespace ap::cli
