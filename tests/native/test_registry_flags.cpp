// tests/native/test_registry_flags.cpp — what the registries declare instead of being built to
// be asked: every position entry's flags agree with the encoding it builds (biases_logits with
// biases(), absolute with adds() or maps(): acting on the residual stream); the registry JSON that the CLI and the page
// read carries the flags the demos derive their lists from; an option read falls back to its one declared default; and
// every fixed name of placement, layernorm, activation and pool resolves to an enum. All registry-wide: a new entry or
// choice is covered without a new test.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "config/variants.hpp"
#include "session/session.hpp"

using json = nlohmann::json;

TEST_CASE("every position entry's flags match the encoding it builds", "[registry]") {
  for (auto& e : ap::position_registry()) {
    INFO("position " << e.name);
    ap::Config c;  // causal, d_model 32, heads 2: every entry builds
    c.position = e.name;
    ap::check_variant(e, c);
    ap::ParamStore scratch;
    auto enc = ap::make_variant(e, c, scratch);
    CHECK(enc->biases() == e.biases_logits);
    CHECK((enc->adds() || enc->maps()) == e.absolute);
  }
}

TEST_CASE("the registry JSON carries the flags of every position and normalization", "[registry]") {
  const json r = ap::registry_json();
  REQUIRE(r.at("positions").size() == ap::position_registry().size());
  int biasing = 0;
  for (auto& p : r.at("positions")) {
    INFO(p.dump().substr(0, 80));
    for (const char* flag : {"biases_logits", "extrapolates", "logits_only", "absolute"})
      CHECK(p.at(flag).is_boolean());
    biasing += p.at("biases_logits").get<bool>();
    CHECK(p.at("biases_logits") == ap::find_position(p.at("name")).biases_logits);
  }
  CHECK(biasing >= 5);  // alibi, t5_bias, shaw, contextual1/2, fire
  for (auto& n : r.at("normalizations")) {
    CHECK(n.at("accepts_bias").is_boolean());
    CHECK(n.at("row_sum").is_string());
  }
  // one family only, as `attnplay list positions --json` prints it
  const json only = ap::registry_json("positions");
  CHECK(only.size() == 1);
  CHECK(only.at("positions") == r.at("positions"));
}

TEST_CASE("an option read falls back to the default declared with it", "[registry]") {
  const auto& rope = ap::find_position("rope");
  ap::Config c;
  c.position = "rope";
  for (auto& spec : rope.options) {
    INFO(spec.key);
    CHECK(ap::make_context(c, rope.options).options.value(spec.key) == spec.default_value);
  }
  c.options["rope_base"] = 500.0;
  CHECK(ap::make_context(c, rope.options).options.number("rope_base") == 500.0);
  // reading a key the entry does not declare is a programming error, not a silent default
  CHECK_THROWS_AS(ap::make_context(c, rope.options).options.number("t5_num_buckets"), std::logic_error);
}

TEST_CASE("every fixed name of the model's choice fields resolves to an enum", "[registry]") {
  for (auto& field : ap::config_schema()) {
    const std::string key = field.at("key");
    if (key != "placement" && key != "layernorm" && key != "activation" && key != "pool") continue;
    for (auto& choice : field.at("choices")) {
      INFO(key << " = " << choice);
      ap::Config c;
      c.set(key, choice.get<std::string>());
      CHECK_NOTHROW(c.choices());
    }
  }
  ap::Config c;
  c.activation = "gelu_erf", c.pool = "cls", c.layernorm = "post", c.placement = "layerwise";
  const ap::ModelChoices m = c.choices();
  CHECK(m.activation == ap::Activation::GeluErf);
  CHECK(m.pool == ap::Pool::Cls);
  CHECK(m.layernorm == ap::LayerNormAt::Post);
  CHECK(m.placement == ap::Placement::Layerwise);
}

TEST_CASE("layernorm: the old name norm_position still reads, and the new one is written", "[config]") {
  const ap::Config c = ap::Config::from_json({{"norm_position", "post"}});
  CHECK(c.layernorm == "post");
  const nlohmann::json out = c.to_json();
  CHECK(out.at("layernorm") == "post");
  CHECK_FALSE(out.contains("norm_position"));
  ap::Config d;
  d.set("norm_position", "post");  // --set, the URL hash
  CHECK(d.layernorm == "post");
  // both given: the current name wins
  CHECK(ap::Config::from_json({{"norm_position", "post"}, {"layernorm", "pre"}}).layernorm == "pre");
  CHECK_THROWS_WITH(ap::Config::from_json({{"norm_position", "middle"}}), Catch::Matchers::Contains("layernorm"));
}

TEST_CASE("the registry JSON gives the one table of renamed fields, {old: current}", "[config]") {
  const nlohmann::json r = ap::registry_json();
  REQUIRE(r.at("renamed") == nlohmann::json{{"norm_position", "layernorm"}});
  REQUIRE(r.at("renamed").size() == ap::renamed_fields().size());
  for (auto& [old_name, name] : ap::renamed_fields()) {
    bool now = false, before = false;
    for (auto& f : r.at("config")) now |= f.at("key") == name, before |= f.at("key") == old_name;
    CHECK(now);
    CHECK_FALSE(before);
  }
  CHECK_FALSE(ap::registry_json("positions").contains("renamed"));  // with the config schema only
}
