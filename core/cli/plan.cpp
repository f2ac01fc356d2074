// core/cli/plan.cpp — see plan.hpp.
#include "cli/plan.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "cli/curves.hpp"
#include "cli/errors.hpp"
#include "cli/files.hpp"
#include "refusal/refusal.hpp"
#include "config/config.hpp"

namespace ap::cli {

SweepPlan make_plan(const Assignments& set, const std::vector<GridAxes>& grids, int seeds,
                    const std::vector<int>& eval_at, const Assignments& last) {
  SweepPlan p;
  p.eval_at = eval_at;
  std::vector<Assignments> points;
  for (auto& axes : grids) {
    for (auto& [key, values] : axes) {
      if (key == "seed" && seeds > 0) refuse("plan.seed_axis_and_seeds", "--seeds");
      if (key != "seed" && std::find(p.axes.begin(), p.axes.end(), key) == p.axes.end()) p.axes.push_back(key);
    }
    for (auto& values : grid_runs(axes)) {
      Assignments point;
      for (size_t a = 0; a < axes.size(); ++a) point.emplace_back(axes[a].first, values[a]);
      points.push_back(point);
    }
  }
  if (grids.empty()) points.emplace_back();
  if (points.size() * size_t(std::max(1, seeds)) > kMaxGridRuns)
    refuse("plan.too_many_runs", "", {{"max", std::to_string(kMaxGridRuns)}});
  for (auto& point : points)
    for (int s = 1; s <= std::max(1, seeds); ++s) {
      Assignments run = set;
      run.insert(run.end(), point.begin(), point.end());
      run.insert(run.end(), last.begin(), last.end());
      if (seeds > 0) run.emplace_back("seed", std::to_string(s));
      p.runs.push_back(run);
    }
  return p;
}

std::string last_value(const Assignments& run, const std::string& key) {
  std::string value;
  for (auto& [k, v] : run)
    if (k == key) value = v;
  return value;
}

SweepPlan experiment_plan(const Experiment& e, bool quick) {
  const int seeds = quick && e.quick_seeds > 0 ? e.quick_seeds : e.seeds;
  SweepPlan p = make_plan(e.set, e.grids, seeds, e.eval_at, quick ? e.quick : Assignments{});
  p.fine_tune = fine_tune_of(e, quick);
  return p;
}

FineTune fine_tune_of(const Experiment& e, bool quick) {
  FineTune f = e.fine_tune;
  if (quick && f.steps > 0) f.steps = std::min(f.steps, kQuickFineTuneSteps);
  return f;
}

namespace {

// --set k=v for every assignment of the run (the axis "fine_tune" is the sweep's, not train's),
// then --set-file k=F for the values that go by file (train applies those last).
std::vector<std::string> set_args(const SweepPlan& plan, const Assignments& run) {
  std::vector<std::string> argv, by_file;
  for (size_t a = 0; a < run.size(); ++a) {
    const auto& [k, v] = run[a];
    if (k == kFineTuneAxis) continue;
    if (!goes_by_file(v)) {
      argv.push_back("--set"), argv.push_back(k + "=" + v);
      continue;
    }
    bool last = true;  // a later assignment of k overrides this one: it need not go at all
    for (size_t b = a + 1; b < run.size(); ++b) last = last && run[b].first != k;
    if (!last) continue;
    const auto file = plan.value_files.find(v);
    if (file == plan.value_files.end())
      refuse("internal.cli_value_file_missing", k, {{"bytes", std::to_string(v.size())}});
    by_file.push_back("--set-file"), by_file.push_back(k + "=" + file->second);
  }
  argv.insert(argv.end(), by_file.begin(), by_file.end());
  return argv;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (auto& x : items) out += (out.empty() ? "" : ",") + x;
  return out;
}

// --eval-at, --row-axes and --row-out.
void row_args(const SweepPlan& plan, const std::string& row_out, std::vector<std::string>& argv) {
  std::vector<std::string> multiples;
  for (int m : plan.eval_at) multiples.push_back(std::to_string(m));
  if (!plan.eval_at.empty()) argv.push_back("--eval-at"), argv.push_back(joined(multiples));
  if (!plan.axes.empty()) argv.push_back("--row-axes"), argv.push_back(joined(plan.axes));
  argv.push_back("--row-out"), argv.push_back(row_out);
}

void file_args(const SweepPlan& plan, std::vector<std::string>& argv) {
  if (!plan.text_file.empty()) argv.push_back("--text-file"), argv.push_back(plan.text_file);
  if (!plan.task_file.empty()) argv.push_back("--task-file"), argv.push_back(plan.task_file);
}

// A whole-number field of the run (its last assignment), else the config's default.
int run_int(const Assignments& run, const std::string& key, int fallback) {
  const std::string v = last_value(run, key);
  try {
    return v.empty() ? fallback : std::stoi(v);
  } catch (const std::exception&) {
    return fallback;  // train reports the value itself
  }
}

}  // namespace

std::vector<std::string> train_argv(const SweepPlan& plan, size_t i, const std::string& attnplay,
                                    const std::string& row_out) {
  std::vector<std::string> argv{attnplay, "train"};
  const std::vector<std::string> sets = set_args(plan, plan.runs.at(i));
  argv.insert(argv.end(), sets.begin(), sets.end());
  file_args(plan, argv);
  const std::string tuned = last_value(plan.runs.at(i), kFineTuneAxis);  // train does not take it by --set
  if (!tuned.empty()) argv.push_back("--row-cell"), argv.push_back(std::string(kFineTuneAxis) + "=" + tuned);
  row_args(plan, row_out, argv);
  // a run that evaluates along the way keeps its curve (curves.hpp)
  if (run_int(plan.runs.at(i), "eval_every", 0) > 0)
    argv.push_back("--metrics"), argv.push_back(curve_file_of(row_out));
  return argv;
}

bool fine_tunes(const SweepPlan& plan, size_t i) {
  return plan.fine_tune.steps > 0 && last_value(plan.runs.at(i), kFineTuneAxis) == "true";
}

std::vector<std::string> base_argv(const SweepPlan& plan, size_t i, const std::string& attnplay,
                                   const std::string& model) {
  std::vector<std::string> argv{attnplay, "train"};
  const std::vector<std::string> sets = set_args(plan, plan.runs.at(i));
  argv.insert(argv.end(), sets.begin(), sets.end());
  file_args(plan, argv);
  argv.push_back("--out"), argv.push_back(model);
  return argv;
}

std::vector<std::string> fine_tune_argv(const SweepPlan& plan, size_t i, const std::string& attnplay,
                                        const std::string& model, const std::string& row_out) {
  const Assignments& run = plan.runs.at(i);
  const Config defaults;
  std::vector<std::string> argv{attnplay, "train", "--resume", model};
  const std::vector<std::string> sets = set_args(plan, plan.fine_tune.set);
  argv.insert(argv.end(), sets.begin(), sets.end());
  argv.push_back("--set"),
      argv.push_back("steps=" + std::to_string(run_int(run, "steps", defaults.steps) + plan.fine_tune.steps));
  // the fine-tune's own warmup and decay, counted from the step it resumes at
  argv.push_back("--set"), argv.push_back("schedule_start=" + std::to_string(run_int(run, "steps", defaults.steps)));
  argv.push_back("--eval-at-base"), argv.push_back(std::to_string(run_int(run, "seq_len", defaults.seq_len)));
  for (auto& a : plan.axes)
    if (!last_value(run, a).empty()) argv.push_back("--row-cell"), argv.push_back(a + "=" + last_value(run, a));
  row_args(plan, row_out, argv);
  return argv;
}

bool goes_by_file(const std::string& value) {
  return value.size() > kMaxArgBytes || value.find_first_of("\r\n") != std::string::npos;
}

void write_value_files(SweepPlan& plan, const std::string& dir) {
  const std::filesystem::path values = std::filesystem::path(dir) / "values";
  std::error_code made;  // the rows' folder exists before any run checks its --metrics path
  std::filesystem::create_directories(dir, made);
  if (made) refuse("plan.rows_folder", "", {{"folder", show_text(dir)}, {"reason", made.message()}});
  std::vector<Assignments> all = plan.runs;
  all.push_back(plan.fine_tune.set);
  for (auto& run : all)
    for (auto& [k, v] : run) {
      if (!goes_by_file(v) || plan.value_files.count(v)) continue;
      std::error_code ec;
      std::filesystem::create_directories(values, ec);
      const std::string path = (values / ("value-" + std::to_string(plan.value_files.size()) + ".txt")).string();
      // whole or not at all, and ended by a line break that train --set-file takes off again
      write_file(path, v + "\n", ("sweep: the file of " + k + "'s value").c_str());
      plan.value_files[v] = path;
    }
}

std::string shell_line(const std::vector<std::string>& argv) {
  std::string line;
  for (auto& w : argv) {
    line += line.empty() ? "" : " ";
    const bool plain = !w.empty() && w.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_-./=,:+@%") == std::string::npos;
    if (plain) {
      line += w;
      continue;
    }
    line += '\'';
    for (char c : w) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

std::string row_file_name(size_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "run-%04zu.csv", i);
  return buf;
}

}  // namespace ap::cli
