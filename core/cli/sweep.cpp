// core/cli/sweep.cpp — `attnplay sweep`: the plan's runs (--grid/--set/--seeds, or an experiment
// definition) either emitted for GNU parallel or Slurm (emit.cpp), or run here, each as its own
// `attnplay train ... --row-out` process (at most `jobs` at once): the very lines the emitters
// write. The rows are then merged as `attnplay merge` does, so that both paths give the same file.
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "cli/commands.hpp"
#include "cli/emit.hpp"
#include "cli/curves.hpp"
#include "cli/merge.hpp"
#include "cli/plan.hpp"
#include "io/json.hpp"
#include "config/config.hpp"

namespace ap::cli {

namespace fs = std::filesystem;

namespace {

SweepPlan plan_without_text(const SweepArgs& a) {
  Assignments sets;
  for (auto& kv : a.sets) sets.push_back(split_assignment(kv)), config_value(sets.back().first, sets.back().second);
  if (!a.experiment.empty()) {
    const Experiment e = read_experiment(a.experiment);
    const int seeds = a.seeds > 0 ? a.seeds : a.quick && e.quick_seeds > 0 ? e.quick_seeds : e.seeds;
    Assignments last = a.quick ? e.quick : Assignments{};
    last.insert(last.end(), sets.begin(), sets.end());
    SweepPlan p = make_plan(e.set, e.grids, seeds, e.eval_at, last);
    p.fine_tune = fine_tune_of(e, a.quick);
    return p;
  }
  if (a.quick)
    throw std::invalid_argument("--quick applies an experiment's \"quick\" overrides; give --experiment FILE");
  if (a.grid.empty()) throw std::invalid_argument("sweep: give --grid \"key=a,b ...\" or --experiment FILE");
  return make_plan(sets, {parse_grid(a.grid)}, a.seeds, parse_eval_at(a.eval_at, "--eval-at"));
}

// Every run's --eval-at lengths against its memory_limit_mb, before any run starts (as train
// does before its first step). A run whose config does not parse is left to report that itself.
void check_plan_memory(const SweepPlan& p) {
  for (auto& run : p.runs) {
    nlohmann::json j = nlohmann::json::object();
    Config c;
    try {
      for (auto& [k, v] : run) j[k] = config_value(k, v);
      c = Config::parse(j);
      check_fields(c);
    } catch (const std::invalid_argument&) {
      continue;  // the run's own row says why
    }
    if (c.memory_estimate_mb() > c.memory_limit_mb) continue;  // so is a config too large to train
    check_eval_at_memory(c, p.eval_at, "--eval-at");
  }
}

// The path of this program, for the child processes and the emitted lines.
std::string self_path() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::invalid_argument("sweep: cannot find the attnplay program; give --attnplay PATH");
  return p.string();
}

// Runs one line with sh; returns its last non-empty output line and its exit status.
std::pair<std::string, int> run_line(const std::string& line) {
  std::string output, last;
  int status = -1;
  if (FILE* p = popen((line + " 2>&1").c_str(), "r")) {
    char buf[4096];
    while (fgets(buf, sizeof buf, p)) output += buf;
    status = pclose(p);
  }
  std::istringstream lines(output);
  for (std::string l; std::getline(lines, l);)
    if (!l.empty()) last = l;
  return {last, status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

// Runs plan line i: one train, or, for a run that fine-tunes, the base's train and then the
// fine-tune's (the model between them in `rows`, removed after). Returns the last output line of
// the line that failed (or of the last) and its exit status.
std::pair<std::string, int> run_plan_line(const SweepPlan& plan, size_t i, const std::string& self,
                                          const std::string& rows, const std::string& row_out) {
  if (!fine_tunes(plan, i)) return run_line(shell_line(train_argv(plan, i, self, row_out)));
  const std::string model = (fs::path(rows) / ("model-" + std::to_string(i) + ".safetensors")).string();
  auto base = run_line(shell_line(base_argv(plan, i, self, model)));
  if (base.second != 0) return base;
  auto tuned = run_line(shell_line(fine_tune_argv(plan, i, self, model, row_out)));
  std::error_code ec;
  fs::remove(model, ec);
  return tuned;
}

// The order the runs start in: budget by budget (the `steps` axis, smallest first), and within a
// budget seed by seed, every grid point of a seed before the next seed (the plan lists the seeds
// of a point together), so that the runs of different grid points are interleaved in time, a slow
// minute on the machine does not land on one of them, and a sweep stopped early has its small
// budgets whole. The rows keep the plan's order.
std::vector<size_t> start_order(const SweepPlan& p) {
  std::vector<std::pair<std::string, size_t>> keyed;
  for (size_t i = 0; i < p.runs.size(); ++i) {
    const auto padded = [](const std::string& v) { return std::string(12 - std::min<size_t>(12, v.size()), '0') + v; };
    keyed.emplace_back(padded(last_value(p.runs[i], "steps")) + padded(last_value(p.runs[i], "seed")), i);
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<size_t> out;
  for (auto& k : keyed) out.push_back(k.second);
  return out;
}

}  // namespace

SweepPlan plan_of(const SweepArgs& a) {
  SweepPlan p = plan_without_text(a);
  check_plan_memory(p);
  if (!a.text_file.empty()) p.text_file = fs::absolute(a.text_file).lexically_normal().string();
  if (!a.task_file.empty()) p.task_file = fs::absolute(a.task_file).lexically_normal().string();
  return p;
}

int sweep(const SweepArgs& a) {
  SweepPlan plan = plan_of(a);
  const std::string self = a.attnplay.empty() ? self_path() : a.attnplay;
  if (!a.emit.empty()) {
    for (size_t i = 0; i < plan.runs.size(); ++i)
      if (fine_tunes(plan, i))
        throw std::invalid_argument(
            "--emit: the experiment fine-tunes some of its runs (train, then train --resume), which the emitted "
            "files do not chain yet; run it here: attnplay sweep --experiment FILE --out CSV");
    if (a.emit.size() != 2)
      throw std::invalid_argument("--emit takes a kind and a target: gnu-parallel FILE or slurm DIR");
    if (a.emit[0] == "gnu-parallel")
      emit_parallel(plan, self, a.emit[1], a.rows);
    else if (a.emit[0] == "slurm")
      emit_slurm(plan, self, a.emit[1], a.rows);
    else
      throw std::invalid_argument("--emit: " + show_text(a.emit[0]) +
                                  " is not an emitter; allowed: gnu-parallel, slurm");
    return 0;
  }
  if (a.out.empty()) throw std::invalid_argument("sweep: give --out CSV (or --emit)");
  char tmpl[] = "/tmp/attnplay-sweep-XXXXXX";
  if (!mkdtemp(tmpl)) throw std::invalid_argument("sweep: cannot create a folder for the runs' rows in /tmp");
  const std::string rows = tmpl;
  write_value_files(plan, rows);  // a value too long for a command line, or with a line break
  const size_t n = plan.runs.size();
  std::vector<std::string> files(n), errors(n);
  const std::vector<size_t> order = start_order(plan);
  std::atomic<size_t> next{0};
  std::mutex io;
  auto worker = [&] {
    for (size_t k; (k = next++) < n;) {
      const size_t i = order[k];
      files[i] = (fs::path(rows) / row_file_name(i)).string();
      auto [last, code] = run_plan_line(plan, i, self, rows, files[i]);
      if (code != 0) errors[i] = last.empty() ? "exit code " + std::to_string(code) : last;
      std::lock_guard<std::mutex> lock(io);
      std::cerr << "sweep: run " << i + 1 << "/" << n << (code == 0 ? " done" : " failed") << "\n";
    }
  };
  std::vector<std::thread> pool;
  for (int j = 0; j < std::min<int>(a.jobs, int(n)); ++j) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  // A run that died before writing its row (a crash) still gets one, with its last output line.
  int failures = 0;
  for (size_t i = 0; i < n; ++i) {
    failures += !errors[i].empty();
    if (!fs::exists(files[i]))
      write_row_file(files[i], row_header(plan.axes, plan.eval_at),
                     result_row(plan.axes, plan.eval_at, plan.runs[i], nullptr, errors[i]));
  }
  const CsvTable merged = merge_files(files);
  write_outputs(merged, a.out, a.summary);
  if (write_curves(plan, files, a.out) > 0) std::printf("curves written to %s\n", curves_path_of(a.out).c_str());
  std::error_code ec;
  fs::remove_all(rows, ec);
  std::printf("%zu runs written to %s (%d failed)\n", n, a.out.c_str(), failures);
  return failures > 0 ? 4 : 0;
}

}  // namespace ap::cli
