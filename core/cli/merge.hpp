// core/cli/merge.hpp — the rows of several sweep CSVs as one table (`attnplay merge`, and the
// in-process sweep's last step), and the table written with its summary.
#pragma once
#include <string>
#include <vector>

#include "cli/csv.hpp"

namespace ap::cli {

// Every file's rows in the order given (emitted row files are named run-NNNN.csv, so a shell
// glob lists them in run order: grid order, then seed). Every file must have the first one's
// header; the error names the file and the first differing column.
CsvTable merge_files(const std::vector<std::string>& inputs);
// out (and summary, when not empty: summary.hpp's table).
void write_outputs(const CsvTable& table, const std::string& out, const std::string& summary);

}  // namespace ap::cli
