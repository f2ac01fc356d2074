// core/cli/merge.cpp — see merge.hpp; `attnplay merge OUT.csv [--summary S.csv] IN...`.
#include "cli/merge.hpp"

#include <cstdio>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/summary.hpp"
#include "io/json.hpp"

namespace ap::cli {

CsvTable merge_files(const std::vector<std::string>& inputs) {
  if (inputs.empty()) throw std::invalid_argument("merge: give at least one input CSV");
  CsvTable out;
  for (auto& path : inputs) {
    CsvTable t = read_csv_file(path);
    if (out.empty()) {
      if (csv_column(t[0], "seed") < 0 || csv_column(t[0], "weights_sha256") < 0 || csv_column(t[0], "error") < 0)
        throw std::invalid_argument("merge: " + show_text(path) +
                                    " is not a sweep's CSV (no seed, weights_sha256 or error column)");
      out.push_back(t[0]);
    } else if (t[0] != out[0]) {
      size_t c = 0;
      while (c < t[0].size() && c < out[0].size() && t[0][c] == out[0][c]) ++c;
      const auto col = [](const CsvRow& h, size_t i) { return i < h.size() ? show_text(h[i]) : std::string("(none)"); };
      throw std::invalid_argument("merge: '" + path + "' has another header than '" + inputs[0] + "': column " +
                                  std::to_string(c + 1) + " is " + col(t[0], c) + ", not " + col(out[0], c) +
                                  " (merge the rows of one sweep only)");
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

int merge(const std::string& out, const std::string& summary, const std::vector<std::string>& inputs) {
  const CsvTable t = merge_files(inputs);
  write_outputs(t, out, summary);
  std::printf("%zu rows from %zu files written to %s\n", t.size() - 1, inputs.size(), out.c_str());
  return 0;
}

}  // namespace ap::cli
