// tests/fuzz/fuzz_config.cpp — libFuzzer target for the config boundary: the bytes as a JSON
// document, read as the engine reads every config (ap::parse_json with its depth, size and value
// limits), for ap::Config::from_json, and as "key=value" lines for Config::set (the CLI's --set,
// the URL hash, widget attributes) followed by validate(). Either path must succeed or throw
// std::invalid_argument; any other exception, a crash or UB caught by the sanitizers is a
// finding. An accepted config must survive to_json -> from_json unchanged.
//
// Built and run by build-scripts/fuzz.sh (tests/fuzz/CMakeLists.txt); by hand:
//   bash build-scripts/fuzz.sh 60 fuzz_config   # 60 s, corpus in tests/fuzz/corpus/fuzz_config
// Inputs up to 1 MiB are taken (fuzz.sh passes -max_len=131072 for this target), so that nesting
// far beyond the depth limit (which once crashed show() with SIGSEGV) is reachable.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "io/json.hpp"
#include "config/config.hpp"

namespace {

void from_json(const uint8_t* data, size_t size) {
  ap::Config c;
  try {
    c = ap::Config::from_json(
        ap::parse_json(std::string_view(reinterpret_cast<const char*>(data), size), "config", ap::kConfigJson));
  } catch (const std::invalid_argument&) {
    return;
  }
  // What was accepted prints and parses back to the same config.
  const nlohmann::json once = c.to_json();
  const nlohmann::json twice = ap::Config::from_json(once).to_json();
  if (once != twice) __builtin_trap();
}

void set_lines(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  ap::Config c;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(begin, end - begin);
    begin = end + 1;
    if (line.empty()) continue;
    try {
      auto [key, value] = ap::split_assignment(line);
      c.set(key, value);
    } catch (const std::invalid_argument&) {
    }
  }
  try {
    c.validate();
  } catch (const std::invalid_argument&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (size_t(1) << 20)) return 0;  // deep nesting needs room; longer only slows the search
  from_json(data, size);
  set_lines(data, size);
  return 0;
}
