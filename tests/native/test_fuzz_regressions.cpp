// tests/native/test_fuzz_regressions.cpp — every input that made a fuzz target (tests/fuzz/)
// crash, hit undefined behaviour or throw the wrong exception, fed through the same path the
// target takes: Config::from_json on the bytes as JSON, Config::set on "key=value" lines, and
// Session::load on the bytes. Each must now throw std::invalid_argument naming the key (or load).
// Add one line per new finding (build-scripts/fuzz.sh leaves the input in build/fuzz/crashes/).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "config/config.hpp"
#include "session/session.hpp"

using Catch::Matchers::Contains;

namespace {

// fuzz_config's JSON path; returns the message ("" when accepted).
std::string from_json_error(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  try {
    ap::Config::from_json(j);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// fuzz_config's key=value path for one line.
std::string set_error(const std::string& line) {
  ap::Config c;
  try {
    auto [k, v] = ap::split_assignment(line);
    c.set(k, v);
    c.validate();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("fuzz regressions: config JSON", "[config][fuzz]") {
  // int64_t(1e300) in TaskOptions::get_int was undefined behaviour (UBSan float-cast-overflow).
  CHECK_THAT(from_json_error(R"({"task":"copy","vocab":1e300})"), Contains("vocab"));
  CHECK_THAT(from_json_error(R"({"task":"dyck","dyck_types":-1e300})"), Contains("dyck_types"));
  // Task options of another task were kept unchecked, whatever their type.
  CHECK_THAT(from_json_error(R"({"task":"parity","copy_back_k":"x"})"), Contains("copy_back_k"));
  // A float beyond float range became inf (assigned to a float field without a range check).
  CHECK_THAT(from_json_error(R"({"task":"copy","beta1":1e300})"), Contains("beta1"));
  CHECK_THAT(from_json_error(R"({"task":"copy","eps":1e-300})"), Contains("eps"));
}

TEST_CASE("fuzz regressions: key=value lines", "[config][fuzz]") {
  // OptionSpec::parse cast 1e30 to long long (undefined behaviour) for int kinds.
  CHECK_THAT(set_error("t5_num_buckets=1e30"), Contains("t5_num_buckets"));
  CHECK_THAT(set_error("steps=1e30"), Contains("steps"));
  CHECK_THAT(set_error("vocab=-1e300"), Contains("vocab"));
  // "nan" parses as a number: it must not reach a float field.
  CHECK_THAT(set_error("beta2=nan"), Contains("beta2"));
  CHECK_THAT(set_error("memory_limit_mb=nan"), Contains("memory_limit_mb"));
  CHECK_THAT(set_error("rope_base=inf"), Contains("rope_base"));
}

TEST_CASE("fuzz regressions: bytes that are not UTF-8 in a field the task does not read", "[config][fuzz]") {
  // The model-file size estimate (config/file_size.cpp) dumped the config as JSON in validation,
  // and nlohmann threw its type_error 316 (fuzz_config, fuzz_grid). Validation may accept such a
  // config or refuse it naming a field, never throw anything else.
  for (const char* field : {"custom_pairs", "text"}) {
    ap::Config c;
    c.set("task", "sort");
    c.set(field, std::string("ool\"") + std::string(40, '\xff'));
    INFO(field);
    try {
      c.validate();
      SUCCEED("accepted");
    } catch (const std::invalid_argument& e) {
      CHECK_THAT(std::string(e.what()), !Contains("json.exception"));
    }
  }
}
