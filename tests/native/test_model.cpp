// tests/native/test_model.cpp — the whole model: gradient checks over the registries and the
// architecture options, save/load, determinism, refusal of non-finite updates.
#include <catch2/catch.hpp>

#include "model_check.hpp"
#include "session/inspect.hpp"

using aptest::tiny;

// Every (entry, causal) pair is checked with its declared tolerance, or is a declared skip
// (grad_spec.hpp) that the config must refuse.
static void check_entry(const std::string& family, const std::string& name, bool causal, nlohmann::json cfg) {
  INFO(family << " " << name << ", causal " << causal);
  const std::string skip = aptest::grad_skip(family, name, causal);
  if (!skip.empty()) {
    INFO("declared skip: " << skip);
    // The config must refuse it (else the skip is stale: remove its line), naming the field.
    CHECK_THROWS_WITH(ap::Config::from_json(cfg), Catch::Matchers::Contains("causal"));
    return;
  }
  ap::Session s(ap::Config::from_json(cfg));
  aptest::check_model_gradients(s, 12, aptest::grad_tolerance("model", family, name));
}

TEST_CASE("whole-model gradients match central differences, every position encoding", "[model][grad]") {
  std::vector<std::string> names;
  for (auto& e : ap::position_registry()) names.push_back(e.name);
  auto name = GENERATE_COPY(from_range(names));
  auto causal = GENERATE(true, false);
  check_entry("position", name, causal, tiny({{"position", name}, {"causal", causal}}));
}

TEST_CASE("whole-model gradients, every normalization", "[model][grad]") {
  std::vector<std::string> names;
  for (auto& e : ap::normalization_registry()) names.push_back(e.name);
  auto name = GENERATE_COPY(from_range(names));
  auto causal = GENERATE(true, false);
  check_entry("normalization", name, causal, tiny({{"normalization", name}, {"causal", causal}, {"position", "none"}}));
}

TEST_CASE("the declared gradient skips and tolerances name registered entries", "[model][grad]") {
  auto registered = [](const std::string& family, const std::string& entry) {
    if (family == "position")
      for (auto& e : ap::position_registry())
        if (entry == e.name) return true;
    if (family == "normalization")
      for (auto& e : ap::normalization_registry())
        if (entry == e.name) return true;
    return false;
  };
  for (auto& s : aptest::grad_skips()) {
    INFO(s.family << " " << s.entry);
    CHECK(registered(s.family, s.entry));
    CHECK(std::string(s.why).size() > 20);  // a reason, not a placeholder
  }
  for (auto& o : aptest::grad_overrides()) {
    INFO(o.family << " " << o.entry);
    CHECK(registered(o.family, o.entry));
    CHECK((std::string(o.harness) == "model" || std::string(o.harness) == "hooks"));
  }
}

TEST_CASE("whole-model gradients: post-norm, erf GELU, layerwise, anchors, pooled heads", "[model][grad]") {
  auto extra = GENERATE(nlohmann::json{{"layernorm", "post"}}, nlohmann::json{{"activation", "gelu_erf"}},
                        nlohmann::json{{"placement", "layerwise"}, {"position", "learned"}},
                        nlohmann::json{{"placement", "layerwise"}, {"position", "sinusoidal"}},
                        nlohmann::json{{"anchors", "cls_sep"}, {"causal", false}}, nlohmann::json{{"anchors", "bos"}},
                        nlohmann::json{{"task", "order"}, {"seq_len", 8}},
                        nlohmann::json{{"task", "order"}, {"seq_len", 8}, {"anchors", "cls"}, {"pool", "cls"}},
                        nlohmann::json{{"task", "probe"}, {"seq_len", 6}, {"eval_len", 6}});
  INFO(extra.dump());
  ap::Session s(ap::Config::from_json(tiny(extra)));
  aptest::check_model_gradients(s);
}

TEST_CASE("save then load gives identical predictions and bit-identical continued training", "[model][io]") {
  ap::Session a(ap::Config::from_json(tiny({{"dropout", 0.1}, {"attn_dropout", 0.1}})));
  a.train(20);
  auto bytes = a.save();
  auto b = ap::Session::load(bytes.data(), bytes.size());
  CHECK(b->steps_done() == 20);
  CHECK(b->weights_sha256() == a.weights_sha256());
  CHECK(a.inspect().predictions(4).dump() == b->inspect().predictions(4).dump());
  for (int i = 0; i < 10; ++i) {
    auto ma = a.step(), mb = b->step();
    CHECK(ma.loss == mb.loss);  // bit-identical, not approximately equal
  }
  CHECK(a.weights_sha256() == b->weights_sha256());
}

TEST_CASE("the same seed and config give a bit-identical loss curve; another seed does not", "[model]") {
  auto run = [](int seed) {
    ap::Session s(ap::Config::from_json(tiny({{"seed", seed}, {"dropout", 0.1}})));
    std::vector<float> losses;
    for (int i = 0; i < 15; ++i) losses.push_back(s.step().loss);
    return losses;
  };
  CHECK(run(3) == run(3));
  CHECK(run(3) != run(4));
}

TEST_CASE("a non-finite loss refuses the update and goes back to the last good weights", "[model]") {
  ap::Session s(ap::Config::from_json(tiny()));
  s.train(2);
  const std::string good = s.weights_sha256();  // the weights step 3's loss was computed with
  s.step();
  // Poison one weight: the next forward gives a NaN loss.
  s.model().params().all_data()[0] = std::nanf("");
  auto m = s.step();
  CHECK(m.refused);
  CHECK(s.steps_done() == 2);
  CHECK(s.weights_sha256() == good);
  CHECK_THAT(m.message, Catch::Matchers::Contains("refused") && Catch::Matchers::Contains("lr"));
  // Training continues from there after a setting changes.
  s.configure({{"lr", 1e-3}});
  auto next = s.step();
  CHECK_FALSE(next.refused);
  CHECK(std::isfinite(next.loss));
  CHECK(s.steps_done() == 3);
}

TEST_CASE("config errors name the field, the value and what is allowed", "[model][config]") {
  using Catch::Matchers::Contains;
  auto err = [](nlohmann::json j) {
    try {
      ap::Config::from_json(j);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(err({{"d_model", 30}, {"heads", 4}}), Contains("d_model") && Contains("heads"));
  CHECK_THAT(err({{"position", "wat"}}), Contains("position") && Contains("learned"));
  CHECK_THAT(err({{"task", "wat"}}), Contains("task") && Contains("copy"));
  CHECK_THAT(err({{"normalization", "wat"}}), Contains("softmax"));
  CHECK_THAT(err({{"layers", 0}}), Contains("layers"));
  CHECK_THAT(err({{"batch", -1}}), Contains("batch"));
  CHECK_THAT(err({{"lr", "fast"}}), Contains("lr") && Contains("number"));
  CHECK_THAT(err({{"causal", 3}}), Contains("causal") && Contains("true or false"));
  CHECK_THAT(err({{"bogus", 1}}), Contains("unknown field 'bogus'"));
  CHECK_THAT(err({{"schedule", "exp"}}), Contains("schedule") && Contains("cosine"));
  CHECK_THAT(err({{"placement", "layerwise"}, {"position", "none"}}), Contains("placement"));
  CHECK_THAT(err({{"max_len", 4}, {"seq_len", 8}}), Contains("max_len"));
  CHECK_THAT(err({{"pool", "cls"}}), Contains("anchors"));
  CHECK_THAT(err({{"batch", 4096}, {"seq_len", 4096}, {"d_model", 1024}}), Contains("memory"));
  CHECK(err(tiny()) == "no error");
}

TEST_CASE("learned positions refuse lengths beyond their table with a clear message", "[model]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "learned"}})));
  CHECK_THROWS_WITH(s.evaluate(16), Catch::Matchers::Contains("do not extrapolate"));
  ap::Session t(ap::Config::from_json(tiny({{"position", "sinusoidal"}})));
  CHECK(std::isfinite(t.evaluate(16).loss));
}
