// core/common/options.hpp — the declared options of a registry entry ("rope_base", "alibi_mode").
// An entry lists its options once; the list validates the config, fills the CLI help and builds
// the UI controls.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/doc.hpp"

namespace ap {

struct OptionSpec {
  std::string key;   // flat config key, unique across all registries
  std::string kind;  // "int" | "float" | "bool" | "enum" | "string" (free text)
  nlohmann::json default_value;
  double min = 0, max = 0;           // int / float range, inclusive
  std::vector<std::string> choices;  // enum
  std::string help;                  // empty in the wasm builds (common/doc.hpp)

  // Throws std::invalid_argument naming the key, the value and what is allowed.
  void check(const nlohmann::json& value) const;
  // Parse text ("0.5", "true", "half") into a value of this option's kind (not range-checked).
  nlohmann::json parse(const std::string& text) const;
  nlohmann::json to_json() const;
};

OptionSpec opt_int(std::string key, int def, int lo, int hi, Doc help);
OptionSpec opt_float(std::string key, double def, double lo, double hi, Doc help);
OptionSpec opt_bool(std::string key, bool def, Doc help);
OptionSpec opt_enum(std::string key, std::string def, std::vector<std::string> choices, Doc help);
OptionSpec opt_string(std::string key, std::string def, Doc help);

// An entry's option values: the config's value where it is set (validated before), else the
// default declared in the entry's spec. Reading an undeclared key is a programming error
// (std::logic_error). Holds references: the values and specs outlive it.
class OptionValues {
 public:
  OptionValues(const nlohmann::json& values, const std::vector<OptionSpec>& specs) : values_(values), specs_(specs) {}
  double number(const std::string& key) const;
  int integer(const std::string& key) const { return int(number(key)); }
  bool flag(const std::string& key) const;
  std::string text(const std::string& key) const;
  const nlohmann::json& value(const std::string& key) const;  // set value or declared default
  const std::vector<OptionSpec>& specs() const { return specs_; }

 private:
  const nlohmann::json& values_;
  const std::vector<OptionSpec>& specs_;
};

// The spec of `key` in `specs`, or null.
const OptionSpec* find_spec(const std::vector<OptionSpec>& specs, const std::string& key);

// "a, b, c" — for error messages that list what is allowed.
std::string join_names(const std::vector<std::string>& names);

}  // namespace ap
