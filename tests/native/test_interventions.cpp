// tests/native/test_interventions.cpp — head interventions (issue 19 §1) against hand-computed
// cases: an ablated head equals the model whose output-projection columns for it are zero; the
// uniform and previous-token patterns equal the averages of V rows they stand for; patching a
// head from the same example is the identity, and from another changes only the rows from the
// patched position on (causal); bad lists get messages naming the field; weights never change.
#include <catch2/catch.hpp>

#include "session/inspect.hpp"
#include "session/session.hpp"
#include "session/interventions.hpp"

namespace {
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using nlohmann::json;

std::unique_ptr<ap::Session> trained(json cfg, int steps) {
  json base = {{"task", "copy"}, {"seq_len", 8},    {"d_model", 16}, {"heads", 2}, {"layers", 2},
               {"batch", 8},     {"eval_every", 0}, {"seed", 3},     {"lr", 3e-3}};
  base.update(cfg);
  auto s = std::make_unique<ap::Session>(ap::Config::from_json(base));
  s->train(steps);
  return s;
}

}  // namespace

TEST_CASE("an ablated head equals the model whose proj columns for it are zero", "[interventions]") {
  auto s = trained(json::object(), 60);
  for (int layer : {0, 1}) {
    s->interventions().set(json::array({{{"layer", layer}, {"head", 1}, {"kind", "zero"}}}));
    const json r = s->interventions().evaluate(4);
    auto bytes = s->save();
    auto edited = ap::Session::load(bytes.data(), bytes.size());
    auto& ps = edited->model().params();
    const int id = ps.find("blocks." + std::to_string(layer) + ".attn.proj.weight");  // (C out, C in)
    const int C = 16, HS = 8;
    for (int row = 0; row < C; ++row)
      for (int c = HS; c < 2 * HS; ++c) ps.data(id)[row * C + c] = 0.0f;
    const ap::EvalMetrics e = edited->evaluate();
    CHECK_THAT(r["intervened"]["loss"].get<double>(), WithinRel(double(e.loss), 1e-5));
    CHECK(r["intervened"]["token_accuracy"].get<double>() == Approx(e.token_accuracy));
    CHECK(r["predictions"]["intervened"] == edited->inspect().predictions(4));
    CHECK(r["base"]["loss"].get<double>() != r["intervened"]["loss"].get<double>());
  }
}

TEST_CASE("uniform, previous-token, position and offset rows average the right V rows", "[interventions]") {
  for (bool causal : {true, false}) {
    auto s = trained(
        {{"d_model", 4}, {"heads", 2}, {"layers", 1}, {"seq_len", 4}, {"position", "none"}, {"causal", causal}}, 0);
    ap::Transformer& m = s->model();
    const std::vector<int32_t> ids = {1, 3, 0, 2};
    const int T = 4, HS = 2;
    for (std::string kind : {"uniform", "previous", "position", "offset"}) {
      std::vector<ap::HeadEdit> edits(1);
      edits[0].kind = kind == "uniform"    ? ap::EditKind::Uniform
                      : kind == "previous" ? ap::EditKind::Previous
                      : kind == "position" ? ap::EditKind::Position
                                           : ap::EditKind::Offset;
      edits[0].head = 1, edits[0].position = 2, edits[0].offset = 2;
      m.set_edits(&edits);
      m.forward(ids.data(), 1, T, nullptr, nullptr, false, nullptr);
      m.set_edits(nullptr);
      const ap::AttentionActs& a = m.attention(0);
      const float* v = a.v.data() + size_t(T) * HS;  // head 1 (B=1)
      const float* o = a.o.data() + size_t(T) * HS;
      for (int i = 0; i < T; ++i) {
        std::vector<float> want(HS, 0.0f);
        const int n = causal ? i + 1 : T;
        auto add = [&](int j, float w) {
          for (int c = 0; c < HS; ++c) want[c] += w * v[j * HS + c];
        };
        if (kind == "uniform")
          for (int j = 0; j < n; ++j) add(j, 1.0f / n);
        if (kind == "previous") add(std::max(i - 1, 0), 1.0f);
        if (kind == "position") add(2 < n ? 2 : i, 1.0f);
        if (kind == "offset") add(std::max(i - 2, 0), 1.0f);
        for (int c = 0; c < HS; ++c) {
          INFO(kind << " causal " << causal << " row " << i << " col " << c);
          CHECK_THAT(o[i * HS + c], WithinAbs(want[c], 1e-6));
        }
      }
    }
  }
}
