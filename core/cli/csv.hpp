// core/cli/csv.hpp — RFC 4180 CSV, the format of the sweep's per-run and summary files: a field
// is quoted when it holds a comma, a quote, CR or LF (quotes doubled inside); records end in LF
// (CRLF is read too). Reading is bounded (file size, cells) and every error names the file and
// the line, so a damaged or foreign file fails in words. A cell that a spreadsheet would run as a
// formula gets a leading apostrophe on the way out and loses it on the way in (csv_safe_text), so
// a sweep's CSV opens safely and every cell still reads back exactly.
#pragma once
#include <string>
#include <vector>

namespace ap::cli {

using CsvRow = std::vector<std::string>;
using CsvTable = std::vector<CsvRow>;  // the first row is the header

constexpr size_t kMaxCsvBytes = size_t(64) << 20;
constexpr size_t kMaxCsvCells = size_t(4) << 20;

// A cell whose first character (after any apostrophes) is = + - @ tab or CR, as the text with
// one more leading apostrophe ("=1+1" -> "'=1+1", "'=x" -> "''=x"); a number ("-0.5", "-1e-05")
// and any other text stay as they are. csv_restored_text undoes it: "'=1+1" -> "=1+1", "-0.5"
// -> "-0.5", so that restored(safe(s)) == s for every s. The figure CSVs write text with it too.
std::string csv_safe_text(const std::string& s);
std::string csv_restored_text(const std::string& s);
// csv_safe_text(s), in double quotes when it holds a comma, quote, CR or LF, or was changed.
std::string csv_field(const std::string& s);
std::string csv_line(const CsvRow& cells);  // the fields joined by commas, then "\n"

// Every record of `text`, each cell csv_restored_text; `what` names the input in messages ("'runs.csv'"). Throws
// std::invalid_argument for an unterminated quoted field, a quote inside an unquoted field,
// text after a closing quote, or more than kMaxCsvCells cells. A final empty line is no record.
CsvTable csv_parse(const std::string& text, const std::string& what);
// The file's records; at least a header, and every record as wide as the header.
CsvTable read_csv_file(const std::string& path);
void write_csv_file(const std::string& path, const CsvTable& table);

// The index of column `name` in `header`, or -1.
int csv_column(const CsvRow& header, const std::string& name);

}  // namespace ap::cli
