// core/cli/curves.cpp — see curves.hpp.
#include "cli/curves.hpp"

#include <filesystem>

#include "cli/csv.hpp"
#include "cli/runs.hpp"

namespace ap::cli {

std::string curve_file_of(const std::string& row_out) {
  // run-NNNN.csv -> curve-NNNN.csv: beside the rows, but not matched by the merge's run-*.csv
  const std::filesystem::path p(row_out);
  const std::string name = p.filename().string();
  if (name.rfind("run-", 0) == 0) return (p.parent_path() / ("curve-" + name.substr(4))).string();
  return row_out + ".curve.csv";
}

std::string curves_path_of(const std::string& out) {
  const std::string ext = ".csv";
  const bool csv = out.size() > ext.size() && out.compare(out.size() - ext.size(), ext.size(), ext) == 0;
  return (csv ? out.substr(0, out.size() - ext.size()) : out) + ".curves.csv";
}

size_t write_curves(const SweepPlan& plan, const std::vector<std::string>& row_files, const std::string& out) {
  const std::vector<std::string> kept = {"step", "loss", "eval_loss", "eval_token_accuracy"};
  CsvRow header{"run"};
  for (const std::string& axis : plan.axes) header.push_back(axis_column(axis));
  header.push_back("seed");
  header.insert(header.end(), kept.begin(), kept.end());
  CsvTable table{header};
  size_t runs = 0;
  for (size_t i = 0; i < row_files.size() && i < plan.runs.size(); ++i) {
    if (row_files[i].empty()) continue;  // a run not merged (a partial sweep)
    const std::string file = curve_file_of(row_files[i]);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) continue;
    const CsvTable m = read_csv_file(file);
    std::vector<int> cols;
    for (const std::string& k : kept) cols.push_back(csv_column(m[0], k));
    if (cols[0] < 0 || cols[2] < 0) continue;  // not a metrics file of this engine
    CsvRow lead{std::to_string(i + 1)};
    for (const std::string& axis : plan.axes) lead.push_back(last_value(plan.runs[i], axis));
    lead.push_back(last_value(plan.runs[i], "seed"));
    ++runs;
    for (size_t r = 1; r < m.size(); ++r) {
      if (m[r][size_t(cols[2])].empty()) continue;  // a step without an evaluation
      CsvRow row = lead;
      for (int c : cols) row.push_back(c < 0 ? "" : m[r][size_t(c)]);
      table.push_back(std::move(row));
    }
  }
  if (runs > 0) write_csv_file(curves_path_of(out), table);
  return runs;
}

}  // namespace ap::cli
