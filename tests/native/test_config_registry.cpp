// tests/native/test_config_registry.cpp — config validation is complete: every declared option
// of every position encoding and normalization, every core field of the schema and every task
// option is fed invalid values (below min, above max, wrong type, unknown choice, NaN, inf), and
// Config::from_json (and Config::set for text) must throw std::invalid_argument naming the key.
// Then the cross-field rules, each with the field it names. All registry-wide: a new entry or
// option is covered without anyone adding a test.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "normalization/normalization.hpp"
#include "config/config.hpp"
#include "position/position.hpp"
#include "tasks/task.hpp"

using Catch::Matchers::Contains;
using json = nlohmann::json;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// The message of from_json(base + {key: value}), or "" when it was accepted.
std::string error_of(json base, const std::string& key, const json& value) {
  base[key] = value;
  try {
    ap::Config::from_json(base);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// Invalid values for a declared kind with its range or choices.
std::vector<json> invalid_values(const std::string& kind, double lo, double hi) {
  if (kind == "bool") return {1, 0, "true", json(), json::array()};
  if (kind == "enum" || kind == "string") return {"no_such_choice_xyz", 3, true, json()};
  std::vector<json> v = {"7", true, json(), json::array({1}), kNaN, kInf, -kInf};
  v.push_back(lo - (std::fabs(lo) * 0.5 + 1));
  v.push_back(hi + (std::fabs(hi) * 0.5 + 1));
  if (kind == "int") v.push_back(lo + 0.5);
  return v;
}

// Checks every invalid value of one declared option/field against `base`.
void check_rejects(const json& base, const std::string& key, const std::string& kind, double lo, double hi) {
  for (const json& bad : invalid_values(kind, lo, hi)) {
    INFO(key << " = " << bad.dump() << " (kind " << kind << ")");
    const std::string msg = error_of(base, key, bad);
    CHECK_THAT(msg, Contains(key));
  }
}

// A config that selects an entry and is valid as it stands (some entries need causal=false...).
json base_for(const std::string& selector, const std::string& name) {
  for (json extra : {json::object(), json{{"causal", false}}}) {
    json j{{"task", "copy"}, {"d_model", 16}, {"heads", 2},      {"layers", 1},   {"ffn", 16},
           {"batch", 2},     {"seq_len", 8},  {"eval_every", 0}, {selector, name}};
    j.update(extra);
    if (error_of(j, "seed", 1).empty()) return j;
  }
  FAIL("no valid base config for " << selector << "=" << name);
  return {};
}

}  // namespace

TEST_CASE("every registry option rejects every kind of invalid value, naming the key", "[config]") {
  for (auto& e : ap::position_registry()) {
    const json base = base_for("position", e.name);
    for (auto& o : e.options) check_rejects(base, o.key, o.kind, o.min, o.max);
  }
  for (auto& e : ap::normalization_registry()) {
    const json base = base_for("normalization", e.name);
    for (auto& o : e.options) check_rejects(base, o.key, o.kind, o.min, o.max);
  }
}

TEST_CASE("registry options are checked even when their entry is not the chosen one", "[config]") {
  const json base = base_for("position", "none");
  for (auto& e : ap::position_registry())
    for (auto& o : e.options) check_rejects(base, o.key, o.kind, o.min, o.max);
}

TEST_CASE("every core field rejects invalid values, naming the field", "[config]") {
  const json base = base_for("position", "learned");
  for (const json& f : ap::config_schema()) {
    const std::string key = f["key"], kind = f["kind"];
    const double lo = f.value("min", 0.0), hi = f.value("max", 0.0);
    check_rejects(base, key, kind, lo, hi);
  }
}

TEST_CASE("Config::set rejects text that does not fit a field or option, naming the key", "[config]") {
  std::vector<std::pair<std::string, std::string>> cases = {
      {"d_model", "abc"},          {"d_model", "1e30"}, {"lr", "fast"},          {"lr", "nan"},
      {"causal", "maybe"},         {"rope_base", "x"},  {"rope_scaling", "wat"}, {"shaw_values", "2"},
      {"t5_num_buckets", "1e300"}, {"seed", "-1"},      {"vocab", "ten"},        {"bogus", "1"}};
  for (auto& [k, v] : cases) {
    INFO(k << "=" << v);
    ap::Config c;
    try {
      c.set(k, v);
      c.validate();
      FAIL("accepted");
    } catch (const std::invalid_argument& e) {
      CHECK_THAT(std::string(e.what()), Contains(k));
    }
  }
}

TEST_CASE("every task option rejects values of the wrong type, naming the key", "[config]") {
  for (auto& t : ap::task_registry()) {
    const json d = ap::describe_task(t);
    for (const json& o : d["options"]) {
      const std::string key = o["key"], kind = o["kind"];
      std::vector<json> bad;
      if (kind == "int") bad = {"7", true, 1.5, kNaN, json()};
      if (kind == "float") bad = {"7", true, kNaN, json()};
      if (kind == "bool") bad = {1, "true", json()};
      if (kind == "string") bad = {5, true, json()};
      for (const json& v : bad) {
        INFO("task " << t.name << ": " << key << " = " << v.dump());
        CHECK_THAT(error_of(json{{"task", t.name}}, key, v), Contains(key));
      }
      // ... also when the option belongs to another task than the chosen one.
      const std::string other = t.name == std::string("parity") ? "zeros" : "parity";
      if (!bad.empty()) CHECK_THAT(error_of(json{{"task", other}}, key, bad[0]), Contains(key));
    }
  }
}

TEST_CASE("cross-field rules name the field and say what is allowed", "[config]") {
  const json b = base_for("position", "learned");
  auto err = [&](json extra) {
    json j = b;
    j.update(extra);
    try {
      ap::Config::from_json(j);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(err({{"d_model", 18}, {"heads", 4}}), Contains("d_model: 18 is not divisible by heads = 4"));
  CHECK_THAT(err({{"position", "rope"}, {"d_model", 18}, {"heads", 2}}), Contains("heads") && Contains("even"));
  CHECK_THAT(err({{"position", "xpos"}, {"d_model", 18}, {"heads", 2}}), Contains("heads") && Contains("even"));
  CHECK(err({{"position", "rope"}, {"d_model", 16}, {"heads", 2}}).empty());
  CHECK_THAT(err({{"max_len", 6}}), Contains("max_len: 6 is shorter than the training length 8"));
  CHECK_THAT(err({{"max_len", 8}, {"anchors", "bos"}}), Contains("max_len"));
  for (const char* norm : {"linear", "performer"})
    for (const char* pos : {"alibi", "t5_bias"})
      CHECK_THAT(err({{"normalization", norm}, {"position", pos}}), Contains("normalization: " + std::string(norm)));
  CHECK_THAT(err({{"memory_limit_mb", 1}, {"batch", 512}}), Contains("memory") && Contains("memory_limit_mb"));
  CHECK_THAT(err({{"memory_limit_mb", kNaN}}), Contains("memory_limit_mb"));
}

TEST_CASE("a config over the memory limit is refused before anything is allocated", "[config]") {
  // A layerwise learned table of 16384 x 1024 x 16 floats (1 GiB) would be allocated by the
  // encoding's constructor; the memory check comes first and names the limit.
  json j = base_for("position", "learned");
  j.update({{"placement", "layerwise"},
            {"max_len", 16384},
            {"d_model", 1024},
            {"heads", 4},
            {"layers", 16},
            {"ffn", 8},
            {"batch", 1}});
  CHECK_THROWS_WITH(ap::Config::from_json(j), Contains("memory") && Contains("1024 MB"));
  // The table is part of the estimate: 16384 x 1024 x 16 floats, with gradient and two AdamW
  // moments, is 4 GiB more than the same model without it.
  ap::Config c;
  c.d_model = 1024, c.heads = 4, c.layers = 16, c.placement = "layerwise";
  const double without = c.memory_estimate_mb();
  c.max_len = 16384;
  CHECK(c.memory_estimate_mb() - without >= 4000);
}
