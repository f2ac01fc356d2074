// core/config/grid.cpp — see grid.hpp.
#include "config/grid.hpp"

#include <sstream>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "io/json.hpp"
#include "config/config.hpp"

namespace ap {

GridAxes parse_grid(const std::string& grid) {
  GridAxes axes;
  std::istringstream in(grid);
  std::string item;
  size_t runs = 1;
  while (in >> item) {
    auto [key, values] = split_assignment(item);
    std::vector<std::string> vs;
    std::istringstream vin(values);
    std::string v;
    while (std::getline(vin, v, ','))
      if (!v.empty()) vs.push_back(v), config_value(key, v);  // type-check every value now
    if (vs.empty()) refuse("config.grid_no_values", key, {{"key", show_text(key)}});
    if (vs.size() > kMaxGridRuns / runs) refuse("config.grid_too_many", "", {{"max", std::to_string(kMaxGridRuns)}});
    runs *= vs.size();
    axes.emplace_back(key, vs);
  }
  if (axes.empty()) refuse("config.grid_empty", "");
  return axes;
}

std::vector<std::vector<std::string>> grid_runs(const GridAxes& axes) {
  std::vector<std::vector<std::string>> runs{{}};
  for (auto& [key, values] : axes) {
    std::vector<std::vector<std::string>> next;
    for (auto& r : runs)
      for (auto& v : values) next.push_back(r), next.back().push_back(v);
    runs.swap(next);
  }
  return runs;
}

}  // namespace ap
