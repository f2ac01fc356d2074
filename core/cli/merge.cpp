// core/cli/merge.cpp — see merge.hpp; `attnplay merge OUT.csv [--summary S.csv] IN...`.
#include "cli/merge.hpp"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/curves.hpp"
#include "cli/plan.hpp"
#include "cli/summary.hpp"
#include "refusal/refusal.hpp"
#include "io/json.hpp"

namespace ap::cli {

CsvTable merge_files(const std::vector<std::string>& inputs) {
  if (inputs.empty()) refuse("merge.no_input", "");
  CsvTable out;
  for (auto& path : inputs) {
    CsvTable t = read_csv_file(path);
    if (out.empty()) {
      if (csv_column(t[0], "seed") < 0 || csv_column(t[0], "weights_sha256") < 0 || csv_column(t[0], "error") < 0)
        refuse("merge.not_sweep_csv", "", {{"path", show_text(path)}});
      out.push_back(t[0]);
    } else if (t[0] != out[0]) {
      size_t c = 0;
      while (c < t[0].size() && c < out[0].size() && t[0][c] == out[0][c]) ++c;
      RefusalParams params{{"path", path}, {"first", inputs[0]}, {"column", std::to_string(c + 1)}};
      if (c < t[0].size()) params.emplace_back("is", show_text(t[0][c]));
      if (c < out[0].size()) params.emplace_back("expected", show_text(out[0][c]));
      refuse(c >= t[0].size()     ? "merge.header_shorter"
             : c >= out[0].size() ? "merge.header_longer"
                                  : "merge.other_header",
             "", params);
    }
    out.insert(out.end(), t.begin() + 1, t.end());
  }
  return out;
}

void write_outputs(const CsvTable& table, const std::string& out, const std::string& summary) {
  const CsvTable s = summary.empty() ? CsvTable{} : summarize(table, "'" + out + "'");  // before writing anything
  write_csv_file(out, table);
  if (!summary.empty()) write_csv_file(summary, s);
}

namespace {

// Run i's row file is named run-NNNN.csv (row_file_name); the emitted runs write them so.
size_t run_index_of(const std::string& path, size_t runs) {
  const std::string name = std::filesystem::path(path).filename().string();
  size_t i = 0;
  bool ok = name.size() > 8 && name.rfind("run-", 0) == 0 && name.size() - 8 <= 9;
  for (size_t c = 4; ok && c + 4 < name.size(); ++c) ok = std::isdigit(static_cast<unsigned char>(name[c])) != 0;
  if (ok) i = std::stoul(name.substr(4, name.size() - 8));
  if (!ok || name != row_file_name(i) || i >= runs)
    refuse("merge.wrong_file", "--experiment", {{"path", show_text(path)}, {"last", row_file_name(runs - 1)}});
  return i;
}

}  // namespace

int merge(const std::string& out, const std::string& summary, const std::vector<std::string>& inputs,
          const std::string& experiment) {
  if (!experiment.empty()) {
    SweepArgs a;
    a.experiment = experiment;
    const SweepPlan plan = plan_of(a);
    std::vector<std::string> rows(plan.runs.size());  // by run index: empty where a run is not merged
    for (const std::string& in : inputs) rows[run_index_of(in, plan.runs.size())] = in;
    const CsvTable t = merge_files(inputs);
    write_outputs(t, out, summary);
    if (write_curves(plan, rows, out) > 0) std::printf("curves written to %s\n", curves_path_of(out).c_str());
    std::printf("%zu rows of the experiment's %zu runs written to %s\n", t.size() - 1, plan.runs.size(), out.c_str());
    return 0;
  }
  const CsvTable t = merge_files(inputs);
  write_outputs(t, out, summary);
  std::printf("%zu rows from %zu files written to %s\n", t.size() - 1, inputs.size(), out.c_str());
  return 0;
}

}  // namespace ap::cli
