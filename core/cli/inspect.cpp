// core/cli/inspect.cpp — `attnplay inspect`: one figure of a saved model, as the playground's
// "Download ▾" gives it, so that a paper's figure can be made again from the model file: an
// attention map (Inspector::attention: one held-out example, one layer and head, weights or logits)
// or a position-encoding matrix (Inspector::positions), as SVG, or its numbers as JSON or CSV.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/files.hpp"
#include "cli/svg_figure.hpp"
#include "refusal/refusal.hpp"
#include "session/inspect.hpp"
#include "session/session.hpp"

namespace ap::cli {

namespace {
using Matrix = std::vector<std::vector<float>>;

// JSON rows of numbers (null: masked) as floats (-inf).
Matrix to_matrix(const nlohmann::json& m) {
  Matrix out;
  for (auto& row : m) {
    out.emplace_back();
    for (auto& v : row) out.back().push_back(v.is_number() ? v.get<float>() : -std::numeric_limits<float>::infinity());
  }
  return out;
}
void finite_range(const Matrix& m, float& lo, float& hi) {
  for (auto& r : m)
    for (float v : r)
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
}
std::vector<std::string> index_labels(size_t n) {
  std::vector<std::string> l;
  for (size_t i = 0; i < n; ++i) l.push_back(std::to_string(i));
  return l;
}
std::string says(const HeatmapFigure& f, const std::string& range) {
  return f.diverging ? "blue below 0, white at 0, red above; " + range : range;
}

HeatmapFigure attention_figure(Session& s, const InspectArgs& a) {
  const Config& c = s.config();
  if (a.layer < 0 || a.layer >= c.layers)
    refuse("inspect_cli.range", "--layer", {{"max", std::to_string(c.layers - 1)}});
  if (a.head < 0 || a.head >= c.heads) refuse("inspect_cli.range", "--head", {{"max", std::to_string(c.heads - 1)}});
  const nlohmann::json att = s.inspect().attention(a.length, a.example);
  const nlohmann::json& head = att["layers"][a.layer]["heads"][a.head];
  const bool logits = a.values == "logits";
  HeatmapFigure f;
  f.title = std::string("Attention ") + (logits ? "logits" : "weights") + ", layer " + std::to_string(a.layer + 1) +
            ", head " + std::to_string(a.head + 1);
  f.x_label = "key", f.y_label = "query", f.quantity = logits ? "logit" : "weight";
  f.matrix = to_matrix(logits ? head["logits"] : head["weights"]);
  f.row_labels = f.col_labels = att["tokens"].get<std::vector<std::string>>();
  f.side_label = "\u03a3";
  f.side = head["row_sums"].get<std::vector<float>>();
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  finite_range(f.matrix, lo, hi);
  set_range(f, lo, hi);
  // What the colour range is (web/src/panels/attention-panel.js scaleNote).
  float slo = std::numeric_limits<float>::infinity(), shi = -slo;
  for (float v : f.side) slo = std::min(slo, v), shi = std::max(shi, v);
  char sums[64];
  std::snprintf(sums, sizeof sums, "rows sum to %.2f\u2013%.2f", slo, shi);
  const bool one = std::fabs(slo - 1) < 1e-3 && std::fabs(shi - 1) < 1e-3;
  f.note = says(f, logits ? "scaled to this map's largest |logit|"
                          : std::string("0 to this map's largest weight; ") + (one ? "rows sum to 1" : sums));
  return f;
}

// The first matrix (2-D) or per-head matrices (3-D) of the display, depth first in key order, or
// the one at `path` (keys joined by dots).
const nlohmann::json* find_matrix(const nlohmann::json& j, const std::string& want, const std::string& prefix,
                                  std::string& found, std::string& all) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "describe" || it.key() == "kind") continue;
    const std::string path = prefix + it.key();
    const auto& v = *it;
    const bool m2 = v.is_array() && !v.empty() && v[0].is_array() && !v[0].empty() && v[0][0].is_number();
    const bool m3 = v.is_array() && !v.empty() && v[0].is_array() && !v[0].empty() && v[0][0].is_array();
    if ((m2 || m3) && (want.empty() || want == path)) return found = path, &v;
    if (m2 || m3) all += (all.empty() ? "" : ", ") + path;
    if (v.is_object())
      if (auto* r = find_matrix(v, want, path + ".", found, all)) return r;
  }
  return nullptr;
}

HeatmapFigure positions_figure(Session& s, const InspectArgs& a) {
  const nlohmann::json d = s.inspect().positions(a.length);
  std::string path, all;
  const nlohmann::json* m = find_matrix(d, a.key, "", path, all);
  const std::string enc = d["describe"].value("title", s.config().position);
  if (!m && a.key.empty()) refuse("inspect_cli.no_matrix", "", {{"position", enc}});
  if (!m && all.empty()) refuse("inspect_cli.no_such_matrix_none", "--key", {{"position", enc}, {"key", a.key}});
  if (!m) refuse("inspect_cli.no_such_matrix", "--key", {{"position", enc}, {"key", a.key}, {"matrices", all}});
  const std::string key = path.substr(path.rfind('.') + 1);
  std::string what = key;
  for (char& ch : what) ch = ch == '_' ? ' ' : ch;
  HeatmapFigure f;
  f.quantity = what;
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  if ((*m)[0][0].is_array()) {  // one matrix per head: one colour scale for all (as the page draws them)
    if (a.head < 0 || a.head >= int(m->size()))
      refuse("inspect_cli.range", "--head", {{"max", std::to_string(m->size() - 1)}});
    for (auto& h : *m) finite_range(to_matrix(h), lo, hi);
    f.matrix = to_matrix((*m)[a.head]);
    f.title = enc + ": " + what + ", head " + std::to_string(a.head + 1);
    set_range(f, lo, hi);
    f.note = says(f, "the same scale for every head");
  } else {
    f.matrix = to_matrix(*m);
    f.title = enc + ": " + what;
    finite_range(f.matrix, lo, hi);
    set_range(f, lo, hi);
    f.note = says(f, f.diverging ? "scaled to the largest |value|" : "scaled to the largest value");
  }
  static const std::vector<std::array<std::string, 3>> kAxes = {{"matrix", "dimension", "position"},
                                                                {"similarity", "position q", "position p"},
                                                                {"bias", "key", "query"},
                                                                {"buckets", "key", "query"},
                                                                {"angles", "frequency", "position"}};
  f.x_label = "column", f.y_label = "row";
  for (auto& ax : kAxes)
    if (ax[0] == key) f.x_label = ax[1], f.y_label = ax[2];
  const size_t rows = f.matrix.size(), cols = rows ? f.matrix[0].size() : 0;
  if (rows <= 128 && cols <= 128) f.row_labels = index_labels(rows), f.col_labels = index_labels(cols);
  return f;
}
}  // namespace

int inspect(const InspectArgs& a) {
  auto bytes = read_bytes(a.model);
  std::unique_ptr<Session> s = Session::load(bytes.data(), bytes.size());
  const HeatmapFigure f = a.what == "attention" ? attention_figure(*s, a) : positions_figure(*s, a);
  std::string out;
  if (a.format == "svg") {
    out = figure_svg(f);
  } else if (a.format == "csv") {
    out = figure_csv(f);
  } else {
    nlohmann::json j = figure_json(f);
    j["source"] = {{"model", a.model}, {"step", s->steps_done()}, {"what", a.what},     {"layer", a.layer},
                   {"head", a.head},   {"example", a.example},    {"length", a.length}, {"key", a.key}};
    out = j.dump(1) + "\n";
  }
  if (a.out.empty()) {
    std::cout << out;
    return 0;
  }
  write_bytes(a.out, std::vector<uint8_t>(out.begin(), out.end()));
  return 0;
}

}  // namespace ap::cli
