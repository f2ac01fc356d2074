// core/config/grid.cpp — see grid.hpp.
#include "config/grid.hpp"

#include <sstream>
#include <stdexcept>

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
    if (vs.empty()) throw std::invalid_argument("grid: " + show_text(key) + " has no values");
    if (vs.size() > kMaxGridRuns / runs)
      throw std::invalid_argument("grid: more than " + std::to_string(kMaxGridRuns) +
                                  " runs (the product of the axes' value counts); split the sweep");
    runs *= vs.size();
    axes.emplace_back(key, vs);
  }
  if (axes.empty()) throw std::invalid_argument("grid: give at least one key=v1,v2 axis");
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
