// tests/native/test_interventions_patch.cpp — activation patching (donor == recipient is the
// identity; another donor changes only rows from the patched position on in a causal model),
// the JSON door's messages, and that interventions never touch the weights or training.
#include <catch2/catch.hpp>

#include "session/session.hpp"
#include "session/interventions.hpp"

namespace {
using nlohmann::json;

std::unique_ptr<ap::Session> trained(int steps, uint64_t seed = 3) {
  json cfg = {{"task", "copy"}, {"seq_len", 8},    {"d_model", 16}, {"heads", 2}, {"layers", 2},
              {"batch", 8},     {"eval_every", 0}, {"seed", seed},  {"lr", 3e-3}};
  auto s = std::make_unique<ap::Session>(ap::Config::from_json(cfg));
  s->train(steps);
  return s;
}

std::string message_of(ap::Session& s, const json& list) {
  try {
    s.interventions().set(list);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("patching a head from the same example is the identity; from another, causal", "[interventions]") {
  auto s = trained(40);
  ap::Transformer& m = s->model();
  ap::Rng rng(11);
  ap::Batch b = s->make_batch(rng, 4, 8, ap::Split::Heldout);
  const int B = b.B, T = b.T, NH = 2, HS = 8, O = m.shape().O, layer = 0, head = 1;
  m.forward(b.inputs.data(), B, T, nullptr, nullptr, false, nullptr);
  const std::vector<float> clean(m.probs().begin(), m.probs().end());
  const ap::AttentionActs& a = m.attention(layer);
  auto head_out = [&](int example) {
    const float* o = a.o.data() + (size_t(example) * NH + head) * T * HS;
    return std::vector<float>(o, o + size_t(T) * HS);
  };
  const std::vector<float> own = head_out(2), other = head_out(0);
  std::vector<ap::HeadEdit> edits(1);
  edits[0].kind = ap::EditKind::Patch, edits[0].layer = layer, edits[0].head = head;
  edits[0].donor_out = own;  // every position, from example 2 itself
  m.set_edits(&edits);
  m.forward(b.inputs.data(), B, T, nullptr, nullptr, false, nullptr);
  for (size_t r = size_t(2) * T * O; r < size_t(3) * T * O; ++r) REQUIRE(m.probs()[r] == clean[r]);
  const int p = 4;  // example 0's head output at query position p, into every example
  edits[0].donor_out = other, edits[0].position = p;
  m.forward(b.inputs.data(), B, T, nullptr, nullptr, false, nullptr);
  m.set_edits(nullptr);
  bool changed = false;
  for (int ex = 1; ex < B; ++ex)
    for (int t = 0; t < T; ++t)
      for (int c = 0; c < O; ++c) {
        const size_t r = (size_t(ex) * T + t) * O + c;
        if (t < p)
          REQUIRE(m.probs()[r] == clean[r]);  // rows before p cannot see the patch
        else
          changed = changed || m.probs()[r] != clean[r];
      }
  CHECK(changed);
}

TEST_CASE("a patch through the session: its own donor leaves that example as it was", "[interventions]") {
  auto s = trained(40);
  s->interventions().set(json::array({{{"layer", 1}, {"head", 0}, {"kind", "patch"}, {"donor", 3}, {"position", 2}}}));
  const json r = s->interventions().evaluate(8);
  CHECK(r["interventions"][0]["label"] == "layer 1 head 0: patch at 2 from example 3");
  CHECK(r["predictions"]["base"]["examples"].size() == 8);
  CHECK(std::isfinite(r["intervened"]["loss"].get<double>()));
}

TEST_CASE("bad interventions are refused with the field, the entry and the allowed values", "[interventions]") {
  auto s = trained(0);
  auto one = [](json e) { return json::array({e}); };
  CHECK_THAT(message_of(*s, one({{"layer", 2}, {"head", 0}, {"kind", "zero"}})),
             Catch::Contains("interventions[0].layer: 2 is out of range; this model has layers 0 to 1"));
  CHECK_THAT(message_of(*s, one({{"layer", 0}, {"head", -1}, {"kind", "zero"}})),
             Catch::Contains("interventions[0].head: -1 is out of range; this model has heads 0 to 1"));
  CHECK_THAT(message_of(*s, one({{"layer", 0}, {"head", 0}, {"kind", "melt"}})),
             Catch::Contains("unknown kind 'melt'; the kinds are zero, uniform, previous, position, offset, patch"));
  CHECK_THAT(message_of(*s, one({{"layer", 0}, {"head", 0}, {"kind", "position"}, {"position", 99}})),
             Catch::Contains("interventions[0].position: 99 is out of range; positions are 0 to 7"));
  CHECK_THAT(message_of(*s, one({{"layer", 0}, {"head", 0}, {"kind", "position"}})),
             Catch::Contains("interventions[0].position is missing"));
  CHECK_THAT(message_of(*s, one({{"layer", 0}, {"head", 0}, {"kind", "zero"}, {"offset", 1}})),
             Catch::Contains("interventions[0].offset: kind 'zero' takes no offset"));
  CHECK_THAT(message_of(*s, one({{"layer", 0}, {"head", 0}, {"kind", "zero"}, {"color", 1}})),
             Catch::Contains("unknown field 'color'"));
  CHECK_THAT(message_of(*s, one({{"layer", 0.5}, {"head", 0}, {"kind", "zero"}})),
             Catch::Contains("interventions[0].layer: expected a whole number"));
  CHECK_THAT(message_of(*s, one({{"layer", 0}, {"head", 0}, {"kind", "patch"}, {"donor", 8}})),
             Catch::Contains("interventions[0].donor: 8 is out of range"));
  CHECK_THAT(message_of(*s, json::object()), Catch::Contains("interventions: expected an array"));
  CHECK_THAT(message_of(*s, json::array({1})), Catch::Contains("interventions[0]: expected an object"));
  json many = json::array();
  for (int i = 0; i < 65; ++i) many.push_back({{"layer", 0}, {"head", 0}, {"kind", "zero"}});
  CHECK_THAT(message_of(*s, many), Catch::Contains("65 are above the limit of 64"));
  // a refused list leaves the previous one in place
  s->interventions().set(one({{"layer", 0}, {"head", 0}, {"kind", "uniform"}}));
  message_of(*s, one({{"layer", 9}, {"head", 0}, {"kind", "zero"}}));
  CHECK(s->interventions().list().size() == 1);
}

TEST_CASE("interventions never touch the weights, evaluate() or training; clear restores", "[interventions]") {
  auto s = trained(30), twin = trained(30);
  const std::string sha = s->weights_sha256();
  const float before = s->evaluate().loss;
  s->interventions().set(json::array({{{"layer", 0}, {"head", 0}, {"kind", "zero"}},
                                      {{"layer", 0}, {"head", 1}, {"kind", "zero"}},
                                      {{"layer", 1}, {"head", 0}, {"kind", "previous"}},
                                      {{"layer", 1}, {"head", 1}, {"kind", "patch"}, {"donor", 1}}}));
  const json r = s->interventions().evaluate(4);
  CHECK(r["base"]["loss"].get<float>() == before);
  CHECK(r["intervened"]["loss"].get<float>() != before);
  CHECK(s->weights_sha256() == sha);
  CHECK(s->evaluate().loss == before);  // the views and the periodic evaluation see the plain model
  s->train(20), twin->train(20);        // training with a list set is training without one
  CHECK(s->weights_sha256() == twin->weights_sha256());
  s->interventions().clear();
  const json c = s->interventions().evaluate(0);
  CHECK(c["intervened"] == c["base"]);
  CHECK(c["interventions"].empty());
}
