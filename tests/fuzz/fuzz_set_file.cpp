// tests/fuzz/fuzz_set_file.cpp — libFuzzer target for `attnplay train --set-file key=FILE`: the
// first byte picks the key, the rest is the file's bytes, written to a file and read back by
// read_set_file (core/cli/files.cpp) as train reads it. The read must give the bytes (less one
// trailing newline) or throw std::invalid_argument (an empty file); the value then goes through
// config_value and Config::from_json as a --set does, which may refuse it only with
// std::invalid_argument.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/files.hpp"
#include "config/config.hpp"

namespace {
const char* const kKeys[] = {"text", "lr", "position", "seq_len", "custom_pairs", "task", "rope_base", "steps"};
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string key = kKeys[data[0] % (sizeof kKeys / sizeof kKeys[0])];
  const std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  static const std::string path = "/tmp/fuzz_set_file-" + std::to_string(getpid());
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  } else {
    __builtin_trap();
  }
  std::string value;
  try {
    value = ap::cli::read_set_file(path, size_t(1) << 20);
  } catch (const std::invalid_argument&) {
    if (!bytes.empty()) __builtin_trap();  // only an empty file is refused here
    return 0;
  }
  std::string expected = bytes;
  if (!expected.empty() && expected.back() == '\n') expected.pop_back();
  if (bytes.empty() || value != expected) __builtin_trap();
  try {
    nlohmann::json j = nlohmann::json::object();
    j[key] = ap::config_value(key, value);
    ap::Config::from_json(j).validate();
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
