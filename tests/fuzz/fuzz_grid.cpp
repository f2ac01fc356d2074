// tests/fuzz/fuzz_grid.cpp — libFuzzer target for the grid of `attnplay sweep --grid
// "position=a,b seed=1,2"` (core/config/grid.cpp): the bytes are the grid text. parse_grid must
// return axes or throw std::invalid_argument; accepted axes are non-empty, every value
// non-empty and without separators, the product within kMaxGridRuns, and grid_runs() lists
// exactly that many runs, each one value per axis. Each run's assignments are then applied to a
// Config with set() (as the child `attnplay train --set` does), which may refuse a value the
// grid accepted (an unknown task name) only with std::invalid_argument.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "config/config.hpp"
#include "config/grid.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string grid(reinterpret_cast<const char*>(data), size);
  ap::GridAxes axes;
  try {
    axes = ap::parse_grid(grid);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  size_t product = 1;
  if (axes.empty()) __builtin_trap();
  for (auto& [key, values] : axes) {
    if (key.empty() || values.empty()) __builtin_trap();
    for (auto& v : values)
      if (v.empty() || v.find(',') != std::string::npos) __builtin_trap();
    product *= values.size();
    if (product > ap::kMaxGridRuns) __builtin_trap();
  }
  // Listing 10000 runs that each copy a long value is slow, not wrong: only small listings.
  if (product * (grid.size() + 1) > (size_t(1) << 22)) return 0;
  const auto runs = ap::grid_runs(axes);
  if (runs.size() != product) __builtin_trap();
  for (size_t r = 0; r < runs.size(); r += 1 + runs.size() / 4) {  // a few runs, not all
    if (runs[r].size() != axes.size()) __builtin_trap();
    ap::Config c;
    try {
      for (size_t a = 0; a < axes.size(); ++a) c.set(axes[a].first, runs[r][a]);
      c.validate();
    } catch (const std::invalid_argument&) {
    }
  }
  return 0;
}
