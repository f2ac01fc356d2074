// core/cli/sweep.cpp — `attnplay sweep`: the cartesian product of a grid of fields, each run a
// separate `attnplay train --json` process (at most `jobs` at once), one CSV row per run.
#include <atomic>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "cli/commands.hpp"
#include "io/json.hpp"
#include "config/config.hpp"
#include "config/grid.hpp"

#include <nlohmann/json.hpp>

namespace ap::cli {

namespace {

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

int sweep(const std::vector<std::string>& sets, const std::string& grid, const std::string& out,
          int jobs, const std::string& self) {
  const GridAxes axes = parse_grid(grid);  // model/grid.cpp (fuzzed by tests/fuzz/fuzz_grid)
  const std::vector<std::vector<std::string>> runs = grid_runs(axes);
  std::ofstream csv(out);
  if (!csv) throw std::invalid_argument("cannot write '" + out + "'");
  std::vector<std::string> rows(runs.size());
  std::atomic<size_t> next{0};
  std::atomic<int> failures{0};
  std::mutex io;
  auto worker = [&] {
    for (size_t i; (i = next++) < runs.size();) {
      std::string cmd = quote(self) + " train --json";
      for (auto& s : sets) cmd += " --set " + quote(s);
      for (size_t a = 0; a < axes.size(); ++a) cmd += " --set " + quote(axes[a].first + "=" + runs[i][a]);
      cmd += " 2>&1";
      std::string output, last;
      if (FILE* p = popen(cmd.c_str(), "r")) {
        char buf[4096];
        while (fgets(buf, sizeof buf, p)) output += buf;
        pclose(p);
      }
      std::istringstream lines(output);
      for (std::string line; std::getline(lines, line);)
        if (!line.empty()) last = line;
      std::ostringstream row;
      for (auto& v : runs[i]) row << v << ',';
      nlohmann::json r;  // the run's last line: its JSON result, or its error message
      try {
        r = parse_json(last, "run", kConfigJson);
      } catch (const std::invalid_argument&) {
      }
      if (r.is_object() && r.contains("eval_loss")) {
        row << r["steps"] << ',' << r["train_loss"] << ',' << r["eval_loss"] << ',' << r["eval_accuracy"]
            << ',' << r["tokens_per_s"] << ',' << r["weights_sha256"].get<std::string>() << ',';
      } else {
        ++failures;
        std::string msg = last;
        for (char& c : msg) if (c == ',' || c == '"') c = ' ';
        row << ",,,,,," << '"' << msg << '"';
      }
      rows[i] = row.str();
      std::lock_guard<std::mutex> lock(io);
      std::cerr << "sweep: run " << i + 1 << "/" << runs.size() << " done\n";
    }
  };
  std::vector<std::thread> pool;
  for (int j = 0; j < std::min<int>(jobs, int(runs.size())); ++j) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  for (auto& [key, values] : axes) csv << key << ',';
  csv << "steps,train_loss,eval_loss,eval_accuracy,tokens_per_s,weights_sha256,error\n";
  for (auto& r : rows) csv << r << '\n';
  std::printf("%zu runs written to %s (%d failed)\n", runs.size(), out.c_str(), int(failures));
  return failures > 0 ? 4 : 0;
}

}  // namespace ap::cli
