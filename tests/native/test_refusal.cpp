// tests/native/test_refusal.cpp — a refusal is a declared code with parameters
// (core/refusal/refusal.hpp): its English text comes from the code's template, an undeclared code
// or a missing parameter is a programming error, and the table declares each code once, with
// every {placeholder} a name. (tests/node/refusals.test.mjs holds the page's tables to it and
// scans core/ for a throw that is not a refusal.)
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "refusal/refusal.hpp"
#include "config/config.hpp"

TEST_CASE("a refusal renders its code's template with its field and parameters", "[refusal]") {
  try {
    ap::refuse("bindings.threads_above", "threads", {{"n", "9"}, {"max", "3"}});
    FAIL("refuse returned");
  } catch (const ap::Refusal& r) {
    CHECK(std::string(r.what()) == "threads: 9 is more than the 3 this module started workers for; use 1..3");
    CHECK(r.code() == "bindings.threads_above");
    CHECK(r.field() == "threads");
    REQUIRE(r.params().size() == 2);
    CHECK(r.params()[0] == std::pair<std::string, std::string>{"n", "9"});
  }
}

TEST_CASE("refuse_within puts the context before the message and keeps the code", "[refusal]") {
  try {
    try {
      ap::refuse("bindings.not_text", "config", {});
    } catch (const ap::Refusal& inner) {
      ap::refuse_within("experiment 'x.json'", inner);
    }
    FAIL("no refusal");
  } catch (const ap::Refusal& r) {
    CHECK(std::string(r.what()) == "experiment 'x.json': config: expected a string");
    CHECK(r.code() == "bindings.not_text");
    CHECK(r.where() == "experiment 'x.json'");
  }
}

TEST_CASE("an undeclared code or a missing parameter is a programming error", "[refusal]") {
  CHECK_THROWS_AS(ap::render_refusal("no.such_code", "", {}), std::logic_error);
  CHECK_THROWS_WITH(ap::render_refusal("bindings.threads_above", "threads", {{"n", "9"}}),
                    Catch::Contains("parameter {max} not given"));
  // a brace around anything but a name is text
  CHECK(ap::render_refusal("engine.other", "", {}) == "the engine refused");
}

TEST_CASE("the table declares each code once, named <area>.<what>, every template renderable", "[refusal]") {
  std::set<std::string> seen;
  for (auto& c : ap::refusal_codes()) {
    const std::string code = c.code;
    INFO(code);
    CHECK(seen.insert(code).second);
    CHECK(code.find('.') != std::string::npos);
    CHECK(code.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_.") == std::string::npos);
    CHECK(std::string(c.en).size() > 0);
  }
  CHECK(seen.size() > 100);
}

TEST_CASE("a config refusal names its field in the structure, not only in the text", "[refusal]") {
  try {
    ap::Config::from_json(nlohmann::json{{"d_model", -3}});
    FAIL("accepted");
  } catch (const ap::Refusal& r) {
    CHECK(r.field() == "d_model");
    CHECK(std::string(r.what()).rfind("d_model: ", 0) == 0);
  }
}
