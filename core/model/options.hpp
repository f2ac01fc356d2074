// core/model/options.hpp — the declared options of a registry entry ("rope_base", "alibi_mode").
// An entry lists its options once; the list validates the config, fills the CLI help and builds
// the UI controls.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ap {

struct OptionSpec {
  std::string key;    // flat config key, unique across all registries
  std::string kind;   // "int" | "float" | "bool" | "enum"
  nlohmann::json default_value;
  double min = 0, max = 0;            // int / float range, inclusive
  std::vector<std::string> choices;   // enum
  std::string help;

  // Throws std::invalid_argument naming the key, the value and what is allowed.
  void check(const nlohmann::json& value) const;
  // Parse text ("0.5", "true", "half") into a value of this option's kind (not range-checked).
  nlohmann::json parse(const std::string& text) const;
  nlohmann::json to_json() const;
};

OptionSpec opt_int(std::string key, int def, int lo, int hi, std::string help);
OptionSpec opt_float(std::string key, double def, double lo, double hi, std::string help);
OptionSpec opt_bool(std::string key, bool def, std::string help);
OptionSpec opt_enum(std::string key, std::string def, std::vector<std::string> choices,
                    std::string help);

// "a, b, c" — for error messages that list what is allowed.
std::string join_names(const std::vector<std::string>& names);

}  // namespace ap
