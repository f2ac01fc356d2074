// core/cli/plan.cpp — see plan.hpp.
#include "cli/plan.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace ap::cli {

SweepPlan make_plan(const Assignments& set, const std::vector<GridAxes>& grids, int seeds,
                    const std::vector<int>& eval_at, const Assignments& last) {
  SweepPlan p;
  p.eval_at = eval_at;
  std::vector<Assignments> points;
  for (auto& axes : grids) {
    for (auto& [key, values] : axes) {
      if (key == "seed" && seeds > 0)
        throw std::invalid_argument("grid: 'seed' is an axis and --seeds is given; use one of them");
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
    throw std::invalid_argument("sweep: more than " + std::to_string(kMaxGridRuns) + " runs; split the sweep");
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

SweepPlan experiment_plan(const Experiment& e, bool quick) {
  const int seeds = quick && e.quick_seeds > 0 ? e.quick_seeds : e.seeds;
  return make_plan(e.set, e.grids, seeds, e.eval_at, quick ? e.quick : Assignments{});
}

std::vector<std::string> train_argv(const SweepPlan& plan, size_t i, const std::string& attnplay,
                                    const std::string& row_out) {
  std::vector<std::string> argv{attnplay, "train"};
  for (auto& [k, v] : plan.runs.at(i)) argv.push_back("--set"), argv.push_back(k + "=" + v);
  std::string multiples, axes;
  for (int m : plan.eval_at) multiples += (multiples.empty() ? "" : ",") + std::to_string(m);
  for (auto& a : plan.axes) axes += (axes.empty() ? "" : ",") + a;
  if (!plan.text_file.empty()) argv.push_back("--text-file"), argv.push_back(plan.text_file);
  if (!plan.task_file.empty()) argv.push_back("--task-file"), argv.push_back(plan.task_file);
  if (!plan.eval_at.empty()) argv.push_back("--eval-at"), argv.push_back(multiples);
  if (!plan.axes.empty()) argv.push_back("--row-axes"), argv.push_back(axes);
  argv.push_back("--row-out"), argv.push_back(row_out);
  return argv;
}

std::string shell_line(const std::vector<std::string>& argv) {
  std::string line;
  for (auto& w : argv) {
    line += line.empty() ? "" : " ";
    const bool plain = !w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                         "0123456789_-./=,:+@%") == std::string::npos;
    if (plain) { line += w; continue; }
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
