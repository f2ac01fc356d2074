// core/cli/csv.cpp — see csv.hpp.
#include "cli/csv.hpp"

#include <cctype>
#include <fstream>
#include <stdexcept>

#include "cli/files.hpp"
#include "refusal/refusal.hpp"

namespace ap::cli {

namespace {

// A plain decimal number ("-0.5", "3", "-1e-05"): a spreadsheet reads it as that number.
bool is_number(const std::string& s) {
  size_t i = s[0] == '-' ? 1 : 0, digits = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  if (i < s.size() && s[i] == '.')
    for (++i; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]));) ++i, ++digits;
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    if (++i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == start) return false;
  }
  return i == s.size();
}

// The text after its leading apostrophes starts with what a spreadsheet reads as a formula.
bool formula_like(const std::string& s, size_t* quotes) {
  *quotes = s.find_first_not_of('\'');
  return *quotes != std::string::npos && std::string("=+-@\t\r").find(s[*quotes]) != std::string::npos;
}

}  // namespace

std::string csv_safe_text(const std::string& s) {
  size_t quotes = 0;
  if (!formula_like(s, &quotes) || (quotes == 0 && is_number(s))) return s;
  return "'" + s;
}

std::string csv_restored_text(const std::string& s) {
  size_t quotes = 0;
  return formula_like(s, &quotes) && quotes > 0 ? s.substr(1) : s;
}

std::string csv_field(const std::string& s) {
  const std::string safe = csv_safe_text(s);
  if (safe == s && s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : safe) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + '"';
}

std::string csv_line(const CsvRow& cells) {
  std::string line;
  for (size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + csv_field(cells[i]);
  return line + "\n";
}

CsvTable csv_parse(const std::string& text, const std::string& what) {
  CsvTable rows;
  CsvRow row;
  std::string cell;
  size_t line = 1, cells = 0;
  bool quoted = false;  // the current cell was quoted (an empty "" at the end is still a cell)
  auto fail = [&](const char* code, RefusalParams params = {}) {
    params.insert(params.begin(), {{"file", what}, {"line", std::to_string(line)}});
    refuse(code, "", std::move(params));
  };
  auto end_cell = [&] {
    if (++cells > kMaxCsvCells) fail("csv.too_many_cells", {{"limit", std::to_string(kMaxCsvCells)}});
    row.push_back(csv_restored_text(cell));
    cell.clear();
    quoted = false;
  };
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    if (text[i] == '"') {  // a quoted field: up to the closing quote; "" is one quote
      if (!cell.empty()) fail("csv.quote_inside");
      const size_t start_line = line;
      for (++i;; ++i) {
        if (i >= n) line = start_line, fail("csv.unclosed_quote");
        if (text[i] == '"') {
          if (i + 1 < n && text[i + 1] == '"') {
            cell += '"', ++i;
            continue;
          }
          ++i, quoted = true;
          break;
        }
        if (text[i] == '\n') ++line;
        cell += text[i];
      }
      if (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r') fail("csv.text_after_quote");
      continue;
    }
    const char c = text[i++];
    if (c == ',') {
      end_cell();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i < n && text[i] == '\n') ++i;
      end_cell();
      rows.push_back(std::move(row));
      row.clear();
      ++line;
    } else {
      if (c == '"') fail("csv.quote_inside");
      cell += c;
    }
  }
  if (!cell.empty() || !row.empty() || quoted) end_cell(), rows.push_back(std::move(row));
  return rows;
}

CsvTable read_csv_file(const std::string& path) {
  const std::string what = "'" + path + "'";
  CsvTable t = csv_parse(read_text_file(path, "CSV file", kMaxCsvBytes), what);
  if (t.empty()) refuse("csv.empty", "", {{"file", what}});
  for (size_t r = 1; r < t.size(); ++r)
    if (t[r].size() != t[0].size())
      refuse("csv.record_fields", "",
             {{"file", what},
              {"record", std::to_string(r + 1)},
              {"fields", std::to_string(t[r].size())},
              {"header", std::to_string(t[0].size())}});
  return t;
}

void write_csv_file(const std::string& path, const CsvTable& table) {
  std::string text;
  for (auto& r : table) text += csv_line(r);
  write_file(path, text, "CSV file");  // whole or not at all (files.hpp)
}

int csv_column(const CsvRow& header, const std::string& name) {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return int(i);
  return -1;
}

}  // namespace ap::cli
