// tests/native/test_torch_export.cpp — the PyTorch export's text (core/torch/), registry-wide:
// every registry entry carries its PyTorch form in its own entry or a reason why it has none (a new
// entry with neither fails here); every entry with a form exports (its own class is in the file,
// with the model, the loader and the stored batch); one without is refused with a message that
// names it and its reason; the one substitution (fill) refuses a placeholder without a value and a
// value without a placeholder; performer's drawn features go into the file as the session holds
// them; numbers are written as literals that read back exactly. The
// numerics against PyTorch itself are checked by tests/native/torch_test.sh (ctest "torch").
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "config/variants.hpp"
#include "session/session.hpp"
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
    if (!e.torch.python) continue;  // refused with its reason (below)
    ap::Config c = tiny();
    c.position = e.name;
    exports(c, e.name, true);
  }
  const auto& reg = ap::position_registry();
  CHECK(ap::torch_exportable(true).size() ==
        size_t(std::count_if(reg.begin(), reg.end(), [](auto& e) { return e.torch.python != nullptr; })));
}

TEST_CASE("every normalization exports", "[torch]") {
  for (auto& e : ap::normalization_registry()) {
    if (!e.torch.python) continue;  // refused with its reason (below)
    ap::Config c = tiny();
    c.position = "rope";
    c.normalization = e.name;
    exports(c, e.name, false);
  }
  const auto& reg = ap::normalization_registry();
  CHECK(ap::torch_exportable(false).size() ==
        size_t(std::count_if(reg.begin(), reg.end(), [](auto& e) { return e.torch.python != nullptr; })));
}

TEST_CASE("every registry entry has a PyTorch form in its own entry, or says why not", "[torch]") {
  using Catch::Matchers::Contains;
  for (auto& e : ap::position_registry()) {
    INFO("position " << e.name);
    CHECK((e.torch.python != nullptr || (e.torch.cannot && *e.torch.cannot)));
    if (!e.torch.python && e.torch.cannot) {
      ap::Config c = tiny();
      c.position = e.name;
      CHECK_THROWS_WITH(ap::Session(c).export_torch(), Contains(e.torch.cannot));
    }
  }
  for (auto& e : ap::normalization_registry()) {
    INFO("normalization " << e.name);
    CHECK((e.torch.python != nullptr || (e.torch.cannot && *e.torch.cannot)));
    if (!e.torch.python && e.torch.cannot) {
      ap::Config c = tiny();
      c.position = "rope", c.normalization = e.name;
      CHECK_THROWS_WITH(ap::Session(c).export_torch(), Contains(e.torch.cannot));
    }
  }
}

TEST_CASE("an entry without a PyTorch form is refused by name, with its reason and the ones that export", "[torch]") {
  using Catch::Matchers::Contains;
  const ap::Config cfg = tiny();
  const ap::MakeContext ctx = ap::make_context(cfg, ap::find_position("cope").options);
  ap::TorchForm none;
  none.cannot = "its positions are drawn at random in training";
  CHECK_THROWS_WITH(ap::torch_entry_python(true, "no_such_encoding", none, ctx),
                    Contains("position encoding 'no_such_encoding' cannot be exported to PyTorch") &&
                        Contains("(its positions are drawn at random in training)") &&
                        Contains("these export: none, learned, "));
  CHECK_THROWS_WITH(
      ap::torch_entry_python(false, "no_such_norm", ap::TorchForm{}, ctx),
      Contains("normalization 'no_such_norm' cannot be exported to PyTorch") && Contains("softmax, l2, "));
  const std::string cope = ap::torch_entry_python(true, "cope", ap::find_position("cope").torch, ctx);
  CHECK(contains(cope, "class Position(PositionBase):"));
}

TEST_CASE("fill substitutes named placeholders and refuses unknown or unused ones", "[torch]") {
  using Catch::Matchers::Contains;
  const std::vector<double> list{0.5, 2.0};
  CHECK(ap::fill("A = ${a}, B = ${b}, C = \"${c}\", D = ${d}, E = ${e}, f\"{layer}\"",
                 {{"a", 3}, {"b", 0.25}, {"c", "text"}, {"d", true}, {"e", list}}) ==
        "A = 3, B = 0.25, C = \"text\", D = True, E = [0.5, 2.0], f\"{layer}\"");
  CHECK(ap::fill("${x} and ${x}", {{"x", 1}}) == "1 and 1");
  CHECK_THROWS_WITH(ap::fill("D_ROT = ${d_rot}", {{"d_head", 4}}), Contains("${d_rot} has no value"));
  CHECK_THROWS_WITH(ap::fill("D_ROT = ${d_rot}", {}), Contains("${d_rot} has no value"));
  CHECK_THROWS_WITH(ap::fill("K = 1", {{"k", 2}}), Contains("'k' has no ${k}"));
  CHECK_THROWS_WITH(ap::fill("K = $k", {{"k", 2}}), Contains("not a ${name} placeholder"));
  CHECK_THROWS_WITH(ap::fill("K = ${k", {{"k", 2}}), Contains("not a ${name} placeholder"));
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
