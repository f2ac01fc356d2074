// tests/native/test_torch_export.cpp — the PyTorch export's text (core/torch/), registry-wide:
// every position encoding and every normalization exports (its own class is in the file, with the
// model, the loader and the stored batch), so a new entry without a snippet fails here; a name
// without one is refused with a message that names it; performer's drawn features go into the
// file as the session holds them; numbers are written as literals that read back exactly. The
// numerics against PyTorch itself are checked by tests/native/torch_test.sh (ctest "torch").
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
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

void exports(ap::Config c, const std::string& entry, bool position) {
  INFO((position ? "position " : "normalization ") << entry);
  const std::vector<std::string> ok = ap::torch_exportable(position);
  CHECK(std::find(ok.begin(), ok.end(), entry) != ok.end());
  ap::Session s(c);
  const std::string py = s.export_torch();
  CHECK(contains(py, position ? "\nclass Position(PositionBase)" : "\nclass Normalization(NormalizationBase)"));
  CHECK(contains(py, "\nclass Model(nn.Module):"));
  CHECK(contains(py, "\nBATCH_INPUTS = [\n"));
  CHECK(contains(py, std::string(position ? "# ---- position encoding: " : "# ---- normalization: ") + entry + " "));
}
}  // namespace

TEST_CASE("every position encoding exports", "[torch]") {
  for (auto& e : ap::position_registry()) {
    ap::Config c = tiny();
    c.position = e.name;
    exports(c, e.name, true);
  }
  CHECK(ap::torch_exportable(true).size() == ap::position_registry().size());
}

TEST_CASE("every normalization exports", "[torch]") {
  for (auto& e : ap::normalization_registry()) {
    ap::Config c = tiny();
    c.position = "rope";
    c.normalization = e.name;
    exports(c, e.name, false);
  }
  CHECK(ap::torch_exportable(false).size() == ap::normalization_registry().size());
}

TEST_CASE("an entry without a snippet is refused by name, with the ones that export", "[torch]") {
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(ap::torch_snippet(true, "no_such_encoding"),
                    Contains("position encoding 'no_such_encoding' cannot be exported to PyTorch") &&
                        Contains("core/torch/positions.cpp") && Contains("these export: none, learned, "));
  CHECK_THROWS_WITH(ap::torch_snippet(false, "no_such_norm"),
                    Contains("normalization 'no_such_norm' cannot be exported to PyTorch") && Contains("softmax, l2, "));
  CHECK(std::string(ap::torch_snippet(true, "cope").name) == "cope");
}

TEST_CASE("performer: the file holds the session's current draw of the features", "[torch]") {
  ap::Config c = tiny();
  c.position = "rope", c.normalization = "performer", c.layers = 2;
  c.options = {{"performer_features", 12}, {"performer_redraw", true}};
  ap::Session s(c);
  const std::vector<ap::FixedTensor> at_init = s.model().normalization().fixed_tensors();
  s.train(2);  // two redraws
  const std::vector<ap::FixedTensor> now = s.model().normalization().fixed_tensors();
  REQUIRE(now.size() == 2);
  CHECK(now[1].name == "blocks.1.attn.performer.omega");
  CHECK(now[1].shape == std::vector<int>{12, 8});
  CHECK(now[0].values != at_init[0].values);
  const std::string py = s.export_torch();
  char first[128];
  for (const ap::FixedTensor& t : now) {
    std::snprintf(first, sizeof first, "(\"%s\", (12,8,), [%.9g, ", t.name.c_str(), double(t.values[0]));
    CHECK(contains(py, first));
  }
  CHECK(contains(py, "m.get_buffer(f\"blocks.{layer}.attn.performer.omega\")"));
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
