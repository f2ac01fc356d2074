// core/cli/svg_figure.hpp — a heatmap as a figure to publish, for `attnplay inspect`: a standalone
// SVG (title, cells, row and column labels, axis titles, an optional Σ column, the colour bar with
// its range and what the range is) and the JSON of the numbers behind it. The same layout, colour
// maps and JSON fields as the page's download (web/src/charts/figure-layout.js, figure-svg.js), so
// that a figure made from a model file matches the one saved from the playground.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ap::cli {

struct HeatmapFigure {
  std::string title, x_label, y_label, quantity, note;
  std::vector<std::vector<float>> matrix;           // (rows, cols); -inf = masked
  std::vector<std::string> row_labels, col_labels;  // empty: none
  float lo = 0, hi = 1;                             // the colour range
  bool diverging = false;                           // blue-white-red, symmetric about 0
  std::string side_label;                           // a column of per-row values (Σ), when side is set
  std::vector<float> side;
};

// The colour range of a matrix as the page's heatmap picks it: unsigned data from min(lo, 0) to
// the largest value; signed data symmetric about 0 (to the largest |value|).
void set_range(HeatmapFigure& f, float lo, float hi);
std::string figure_svg(const HeatmapFigure& f);
// {"format": "attnplay-figure", "version": 1, "kind": "heatmap", title, x_label, y_label, quantity,
//  rows, cols, row_labels, col_labels, range, diverging, note, values (null = masked), side}
nlohmann::json figure_json(const HeatmapFigure& f);

// The numbers as CSV, as the page's Download writes them (web/src/charts/figure-svg.js figureCSV):
// "row \ column" then the column labels and Σ; a row per matrix row, its label first; masked
// entries -inf; text a spreadsheet would read as a formula gets a leading ' (csv.hpp's csv_field,
// as the sweep's CSVs). LF line ends, as csv_line (the one rule: tests/data/csv-vectors.json).
std::string figure_csv(const HeatmapFigure& f);
// A compact number as the page prints it: 3 significant digits, exponent below 1e-3 or from 1e4.
std::string fmt_number(double v);

}  // namespace ap::cli
