// core/cli/svg_figure.cpp — the heatmap figure's SVG and JSON (see svg_figure.hpp). The layout
// follows web/src/charts/figure-layout.js step by step (same constants, same order of items), so
// that the CLI's SVG and the page's download show the same thing; keep the two in step.
#include "cli/svg_figure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "cli/csv.hpp"

namespace ap::cli {

namespace {
constexpr double kFont = 11, kTitle = 14, kPad = 14;
constexpr size_t kMaxChars = 14;
const char* kInk = "#202124";
const char* kMuted = "#5f6368";
const char* kFontFamily = "system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif";
// web/src/charts/colormap.js: viridis sampled at 10 stops; blue-white-red at 5.
const int kViridis[10][3] = {{68, 1, 84},    {72, 40, 120},  {62, 74, 137},  {49, 104, 142}, {38, 130, 142},
                             {31, 158, 137}, {53, 183, 121}, {109, 205, 89}, {180, 222, 44}, {253, 231, 37}};
const int kDiverging[5][3] = {{33, 102, 172}, {146, 197, 222}, {247, 247, 247}, {244, 165, 130}, {178, 24, 43}};

template <size_t N>
std::string lerp(const int (&stops)[N][3], double t) {
  const double x = std::min(1.0, std::max(0.0, t)) * double(N - 1);
  const size_t i = std::min(N - 2, size_t(std::floor(x)));
  const double f = x - double(i);
  int c[3];
  for (int k = 0; k < 3; ++k) c[k] = int(std::floor(stops[i][k] + f * (stops[i + 1][k] - stops[i][k]) + 0.5));
  return "rgb(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]) + ")";
}
std::string sequential(double t) { return lerp(kViridis, t); }
std::string diverging(double t) { return lerp(kDiverging, (t + 1) / 2); }

std::string cell_color(const HeatmapFigure& f, float v) {
  if (!std::isfinite(v)) return "rgb(218,220,224)";
  if (f.diverging) {
    const double s = std::max(std::fabs(double(f.lo)), std::fabs(double(f.hi)));
    return diverging(double(v) / (s > 0 ? s : 1));
  }
  const double span = double(f.hi) - double(f.lo);
  return sequential((double(v) - double(f.lo)) / (span != 0 ? span : 1));
}

size_t code_points(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}
double text_width(const std::string& s, double size) { return double(code_points(s)) * size * 0.6; }
std::string shorten(const std::string& s) {
  if (code_points(s) <= kMaxChars) return s;
  size_t n = 0, i = 0;
  for (; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && n++ == kMaxChars - 1) break;
  return s.substr(0, i) + "\u2026";
}
int thinning(double cell, double need) { return std::max(1, int(std::ceil(need / std::max(cell, 0.5)))); }

std::string esc(const std::string& s) {
  std::string o;
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') continue;  // not allowed in XML 1.0
    switch (ch) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      case '\'':
        o += "&apos;";
        break;
      default:
        o += ch;
    }
  }
  return o;
}
// A coordinate with at most 2 decimals, as figure-svg.js writes them.
std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", std::round(v * 100) / 100);
  std::string s = b;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

struct Svg {
  std::ostringstream o;
  void text(double x, double y, const std::string& t, double size, const char* anchor = nullptr,
            const char* cls = nullptr, int weight = 0, const char* fill = nullptr, int rotate = 0) {
    o << "<text";
    if (cls) o << " class=\"" << cls << "\"";
    o << " x=\"" << num(x) << "\" y=\"" << num(y) << "\" font-size=\"" << num(size) << "\"";
    if (anchor) o << " text-anchor=\"" << anchor << "\"";
    if (weight) o << " font-weight=\"" << weight << "\"";
    if (fill) o << " fill=\"" << fill << "\"";
    if (rotate) o << " transform=\"rotate(" << rotate << " " << num(x) << " " << num(y) << ")\"";
    o << ">" << esc(t) << "</text>\n";
  }
};
}  // namespace

std::string fmt_number(double v) {
  if (std::isnan(v)) return "\u2013";
  if (std::isinf(v)) return v < 0 ? "\u2212\u221e" : "Infinity";
  const double a = std::fabs(v);
  char b[32];
  if (a != 0 && (a < 1e-3 || a >= 1e4)) {  // JS toExponential(1): "1.2e-4", no padded exponent
    std::snprintf(b, sizeof b, "%.1e", v);
    std::string s = b;
    const size_t e = s.find('e');
    std::string mant = s.substr(0, e), ex = s.substr(e + 1);
    const char sign = ex[0];
    ex = ex.substr(1);
    while (ex.size() > 1 && ex[0] == '0') ex.erase(0, 1);
    return mant + "e" + (sign == '-' ? "-" : "+") + ex;
  }
  std::snprintf(b, sizeof b, "%.2e", v);  // 3 significant digits, then the shortest form
  std::snprintf(b, sizeof b, "%.10g", std::strtod(b, nullptr));
  return b;
}

void set_range(HeatmapFigure& f, float lo, float hi) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
  f.diverging = lo < 0;
  if (f.diverging) {
    float s = std::max(std::fabs(lo), std::fabs(hi));
    if (s == 0) s = 1;
    f.lo = -s, f.hi = s;
  } else {
    f.lo = std::min(lo, 0.0f), f.hi = hi;
  }
}

std::string figure_svg(const HeatmapFigure& f) {
  const int rows = int(f.matrix.size()), cols = rows ? int(f.matrix[0].size()) : 0;
  const double cell = std::max(3, std::min(28, int(std::floor(420.0 / std::max({rows, cols, 1})))));
  std::vector<std::string> rl, cl;
  for (auto& s : f.row_labels) rl.push_back(shorten(s));
  for (auto& s : f.col_labels) cl.push_back(shorten(s));
  double row_w = 0, col_w = 0;
  for (auto& s : rl) row_w = std::max(row_w, text_width(s, kFont));
  for (auto& s : cl) col_w = std::max(col_w, text_width(s, kFont));
  if (!rl.empty()) row_w += 6;
  const bool side = !f.side.empty();
  const double mx = std::ceil(kPad + (f.y_label.empty() ? 0 : 20) + row_w), my = kPad + kTitle + (side ? 22 : 12);
  const double mw = cols * cell, mh = rows * cell;
  Svg s;
  s.text(kPad, kPad + kTitle - 2, f.title, kTitle, nullptr, "title", 600);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      s.o << "<rect class=\"cell\" x=\"" << num(mx + j * cell) << "\" y=\"" << num(my + i * cell) << "\" width=\""
          << num(cell) << "\" height=\"" << num(cell) << "\" fill=\"" << cell_color(f, f.matrix[i][j])
          << "\" shape-rendering=\"crispEdges\"/>\n";
  const int r_every = thinning(cell, kFont + 1);
  for (int i = 0; i < int(rl.size()); ++i)
    if (i % r_every == 0) s.text(mx - 4, my + (i + 0.5) * cell + 4, rl[i], kFont, "end", "row-label");
  // Column labels upright when the widest fits a cell, else turned (reading upwards) and thinned.
  const bool turned = col_w + 4 > cell;
  const int c_every = turned ? thinning(cell, kFont + 1) : 1;
  const double col_h = cl.empty() ? 0 : turned ? col_w + 6 : kFont + 6;
  for (int j = 0; j < int(cl.size()); ++j) {
    if (j % c_every) continue;
    const double x = mx + (j + 0.5) * cell;
    if (turned)
      s.text(x + 4, my + mh + 4, cl[j], kFont, "end", "col-label", 0, nullptr, -90);
    else
      s.text(x, my + mh + kFont + 3, cl[j], kFont, "middle", "col-label");
  }
  if (side) {
    const double x = mx + mw + 6;
    s.text(x, my - 3, f.side_label, kFont, nullptr, nullptr, 600);
    if (cell >= 9)
      for (int i = 0; i < int(f.side.size()); ++i)
        s.text(x, my + (i + 0.5) * cell + 4, fmt_number(f.side[i]), std::min(kFont, cell - 1), nullptr, "side");
  }
  double y = my + mh + col_h + 4;
  if (!f.x_label.empty()) s.text(mx + mw / 2, y += 14, f.x_label, kFont + 1, "middle", "x-title");
  if (!f.y_label.empty()) s.text(kPad + 12, my + mh / 2, f.y_label, kFont + 1, "middle", "y-title", 0, nullptr, -90);
  // The colour scale: name, low end, gradient bar, high end; then what the range is.
  y += 14;
  const std::string name = f.quantity + ":", lo = fmt_number(f.lo), hi = fmt_number(f.hi);
  double x = kPad;
  s.text(x, y + 9, name, kFont, nullptr, "legend-name");
  x += text_width(name, kFont) + 6;
  s.text(x, y + 9, lo, kFont, nullptr, "legend-lo");
  x += text_width(lo, kFont) + 4;
  const double bar_w = std::max(120.0, std::min(260.0, mw));
  s.o << "<defs><linearGradient id=\"scale\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">";
  for (int k = 0; k < 5; ++k)
    s.o << "<stop offset=\"" << num(k / 4.0) << "\" stop-color=\""
        << (f.diverging ? diverging(k / 2.0 - 1) : sequential(k / 4.0)) << "\"/>";
  s.o << "</linearGradient></defs><rect class=\"colorbar\" x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\""
      << num(bar_w) << "\" height=\"11\" fill=\"url(#scale)\"/>\n";
  if (f.diverging) s.text(x + bar_w / 2, y + 22, "0", 9, "middle", nullptr, 0, kMuted);
  x += bar_w + 4;
  s.text(x, y + 9, hi, kFont, nullptr, "legend-hi");
  double right = x + text_width(hi, kFont);
  y += f.diverging ? 36 : 28;
  bool masked = false;
  for (auto& r : f.matrix)
    for (float v : r) masked = masked || !std::isfinite(v);
  for (const std::string& n : {f.note, masked ? std::string("grey: masked (\u2212\u221e)") : std::string()}) {
    if (n.empty()) continue;
    s.text(kPad, y, n, kFont - 1, nullptr, "legend-note", 0, kMuted);
    right = std::max(right, kPad + text_width(n, kFont - 1));
    y += 14;
  }
  const int width =
      int(std::ceil(std::max({mx + mw + (side ? 50 : 0), right, kPad + text_width(f.title, kTitle)}) + kPad));
  const int height = int(std::ceil(y + kPad - 8));
  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
    << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " " << height << "\" font-family=\"" << kFontFamily
    << "\" fill=\"" << kInk << "\">\n<title>" << esc(f.title) << "</title>\n<rect x=\"0\" y=\"0\" width=\"" << width
    << "\" height=\"" << height << "\" fill=\"#ffffff\"/>\n"
    << s.o.str() << "</svg>\n";
  return o.str();
}

nlohmann::json figure_json(const HeatmapFigure& f) {
  auto finite = [](float v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  nlohmann::json values = nlohmann::json::array();
  for (auto& r : f.matrix) {
    nlohmann::json row = nlohmann::json::array();
    for (float v : r) row.push_back(finite(v));
    values.push_back(row);
  }
  auto labels = [](const std::vector<std::string>& l) {
    return l.empty() ? nlohmann::json(nullptr) : nlohmann::json(l);
  };
  nlohmann::json j{{"format", "attnplay-figure"},
                   {"version", 1},
                   {"kind", "heatmap"},
                   {"title", f.title},
                   {"x_label", f.x_label},
                   {"y_label", f.y_label},
                   {"quantity", f.quantity},
                   {"rows", f.matrix.size()},
                   {"cols", f.matrix.empty() ? 0 : f.matrix[0].size()},
                   {"row_labels", labels(f.row_labels)},
                   {"col_labels", labels(f.col_labels)},
                   {"range", {f.lo, f.hi}},
                   {"diverging", f.diverging},
                   {"note", f.note},
                   {"values", values}};
  if (!f.side.empty()) {
    nlohmann::json sv = nlohmann::json::array();
    for (float v : f.side) sv.push_back(finite(v));
    j["side"] = {{"label", f.side_label}, {"values", sv}};
  }
  return j;
}

namespace {
// As the JSON writes the number (the page reads that JSON): -inf where it is masked.
std::string csv_number(float v, const char* masked) { return std::isfinite(v) ? nlohmann::json(v).dump() : masked; }
}  // namespace

std::string figure_csv(const HeatmapFigure& f) {
  const size_t cols = f.matrix.empty() ? 0 : f.matrix[0].size();
  std::string out =
      csv_field((f.y_label.empty() ? "row" : f.y_label) + " \\ " + (f.x_label.empty() ? "column" : f.x_label));
  for (size_t j = 0; j < cols; ++j)
    out += "," + csv_field(j < f.col_labels.size() ? f.col_labels[j] : std::to_string(j));
  if (!f.side.empty()) out += "," + csv_field(f.side_label);
  out += "\n";
  for (size_t i = 0; i < f.matrix.size(); ++i) {
    out += csv_field(i < f.row_labels.size() ? f.row_labels[i] : std::to_string(i));
    for (float v : f.matrix[i]) out += "," + csv_number(v, "-inf");
    if (!f.side.empty()) out += "," + (i < f.side.size() ? csv_number(f.side[i], "") : std::string());
    out += "\n";
  }
  return out;
}

}  // namespace ap::cli
