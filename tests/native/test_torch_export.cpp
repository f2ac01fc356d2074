// tests/native/test_torch_export.cpp — the PyTorch export's text (core/torch/), registry-wide:
// every position encoding and every normalization either exports (its own class is in the file,
// with the model, the loader and the stored batch) or is refused with a message that names it;
// numbers are written as literals that read back exactly. The numerics against PyTorch itself
// are checked by tests/native/torch_test.sh (ctest "torch").
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "config/variants.hpp"
#include "session.hpp"
#include "torch/export.hpp"
#include "torch/snippet.hpp"

namespace {
ap::Config tiny() {
  ap::Config c;
  c.d_model = 16, c.layers = 1, c.ffn = 16, c.batch = 2, c.seq_len = 6;
  return c;
}
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

void exports_or_names(ap::Config c, const std::string& entry, bool position) {
  INFO((position ? "position " : "normalization ") << entry);
  ap::Session s(c);
  const std::vector<std::string> ok = ap::torch_exportable(position);
  if (std::find(ok.begin(), ok.end(), entry) != ok.end()) {
    const std::string py = s.export_torch();
    CHECK(contains(py, position ? "\nclass Position(PositionBase)" : "\nclass Normalization(NormalizationBase)"));
    CHECK(contains(py, "\nclass Model(nn.Module):"));
    CHECK(contains(py, "\nBATCH_INPUTS = [\n"));
    CHECK(contains(py, std::string(position ? "# ---- position encoding: " : "# ---- normalization: ") + entry + " "));
  } else {
    CHECK_THROWS_WITH(s.export_torch(), Catch::Matchers::Contains("'" + entry + "' cannot be exported to PyTorch"));
  }
}
}  // namespace

TEST_CASE("every position encoding exports or is refused by name", "[torch]") {
  for (auto& e : ap::position_registry()) {
    ap::Config c = tiny();
    c.position = e.name;
    exports_or_names(c, e.name, true);
  }
}

TEST_CASE("every normalization exports or is refused by name", "[torch]") {
  for (auto& e : ap::normalization_registry()) {
    ap::Config c = tiny();
    c.position = "rope";
    c.normalization = e.name;
    exports_or_names(c, e.name, false);
  }
}

TEST_CASE("py_num writes float literals that read back exactly", "[torch]") {
  for (double x : {0.0, 1.0, -2.5, 1e-6, 0.1, 10000.0, 1.0 / 3.0, double(1.0f / 3.0f), 3.0e38}) {
    const std::string s = ap::py_num(x);
    INFO(s);
    CHECK(std::strtod(s.c_str(), nullptr) == x);
    CHECK(s.find_first_of(".e") != std::string::npos);
  }
  CHECK_THROWS(ap::py_num(std::nan("")));
}
