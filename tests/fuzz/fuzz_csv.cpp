// tests/fuzz/fuzz_csv.cpp — libFuzzer target for the CSV reader of the sweep's files
// (core/cli/csv.cpp: --config-from-row, merge, summary): the bytes are a CSV file's text.
// csv_parse must return the records or throw std::invalid_argument, within its cell limit. What it
// accepts must come back unchanged through the writer: csv_parse(csv_line(row)...) == the
// records (quoting, doubled quotes, CR/LF and the formula guard's apostrophes all round-trip), and
// every cell survives csv_restored_text(csv_safe_text(cell)).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "cli/csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  ap::cli::CsvTable t;
  try {
    t = ap::cli::csv_parse(text, "'fuzz.csv'");
  } catch (const std::invalid_argument&) {
    return 0;
  }
  size_t cells = 0;
  std::string again;
  for (auto& row : t) {
    if (row.empty()) __builtin_trap();  // every record has at least one cell
    cells += row.size();
    for (auto& c : row)
      if (ap::cli::csv_restored_text(ap::cli::csv_safe_text(c)) != c) __builtin_trap();
    again += ap::cli::csv_line(row);
  }
  if (cells > ap::cli::kMaxCsvCells) __builtin_trap();
  if (ap::cli::csv_parse(again, "'again.csv'") != t) __builtin_trap();
  return 0;
}
