// core/config/grid.hpp — the grid of `attnplay sweep --grid "position=a,b seed=1,2"`: axes of
// config values whose cartesian product is the list of runs. Every value is type-checked
// against its field when the grid is read, and the product is bounded, so that a typo fails
// before any run starts and a grid cannot ask for billions of runs.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace ap {

using GridAxes = std::vector<std::pair<std::string, std::vector<std::string>>>;

constexpr size_t kMaxGridRuns = 10000;

// "position=a,b seed=1,2" -> [("position", [a, b]), ("seed", [1, 2])]. Axes are separated by
// whitespace, values by commas (empty values are skipped). Throws std::invalid_argument naming
// the key for an unknown field, a badly typed value, an axis without values, an
// empty grid, or more than kMaxGridRuns runs.
GridAxes parse_grid(const std::string& grid);

// The runs of the grid in order (the last axis varies fastest): one value per axis.
std::vector<std::vector<std::string>> grid_runs(const GridAxes& axes);

}  // namespace ap
