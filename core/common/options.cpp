// core/common/options.cpp — checking and parsing declared registry options.
#include "common/options.hpp"

#include "refusal/refusal.hpp"
#include "io/json.hpp"

#include <cmath>
#include <stdexcept>

namespace ap {

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

static std::string show(const nlohmann::json& v) { return show_value(v); }  // cut to ~60 chars

void OptionSpec::check(const nlohmann::json& v) const {
  auto fail = [&](const char* code) { refuse(code, key, {{"value", show(v)}}); };
  auto fail_choice = [&] { refuse("option.not_choice", key, {{"value", show(v)}, {"choices", join_names(choices)}}); };
  auto fail_range = [&](const char* code) {
    refuse(code, key, {{"value", show(v)}, {"min", num_text(min)}, {"max", num_text(max)}});
  };
  if (kind == "bool") {
    if (!v.is_boolean()) fail("option.not_bool");
  } else if (kind == "string") {
    if (!v.is_string()) fail("option.not_string");
  } else if (kind == "enum") {
    if (!v.is_string()) fail_choice();
    for (auto& c : choices)
      if (c == v.get<std::string>()) return;
    fail_choice();
  } else if (kind == "int") {
    if (!v.is_number() || std::floor(v.get<double>()) != v.get<double>()) fail_range("option.not_int");
    if (v.get<double>() < min || v.get<double>() > max) fail_range("option.not_int");
  } else {  // float
    if (!v.is_number() || !std::isfinite(v.get<double>())) fail_range("option.not_in_range");
    if (v.get<double>() < min || v.get<double>() > max) fail_range("option.not_in_range");
  }
}

nlohmann::json OptionSpec::parse(const std::string& text) const {
  if (kind == "enum" || kind == "string") return text;
  if (kind == "bool") {
    if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
    if (text == "false" || text == "0" || text == "no" || text == "off") return false;
    refuse("option.not_bool", key, {{"value", show_text(text)}});
  }
  size_t used = 0;  // 0: stod found no number (or one out of range)
  double d = 0;
  try {
    d = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) refuse("option.not_number", key, {{"value", show_text(text)}});
  // Whole numbers as integers, but only where the cast is defined (|d| < 2^53).
  if (kind == "int" && std::floor(d) == d && std::fabs(d) < 9007199254740992.0) return (long long)d;
  return d;
}

nlohmann::json OptionSpec::to_json() const {
  nlohmann::json j{{"key", key}, {"kind", kind}, {"default", default_value}, {"help", help}};
  if (kind == "int" || kind == "float") j["min"] = min, j["max"] = max;
  if (kind == "enum") j["choices"] = choices;
  return j;
}

const OptionSpec* find_spec(const std::vector<OptionSpec>& specs, const std::string& key) {
  for (auto& o : specs)
    if (o.key == key) return &o;
  return nullptr;
}

const nlohmann::json& OptionValues::value(const std::string& key) const {
  const OptionSpec* spec = find_spec(specs_, key);
  if (!spec) refuse("internal.undeclared_option", "", {{"key", key}});
  auto it = values_.find(key);
  return it != values_.end() ? *it : spec->default_value;
}

// A set value of the wrong kind cannot pass validation; reading falls back to the default anyway.
double OptionValues::number(const std::string& key) const {
  const nlohmann::json& v = value(key);
  return v.is_number() ? v.get<double>() : find_spec(specs_, key)->default_value.get<double>();
}
bool OptionValues::flag(const std::string& key) const {
  const nlohmann::json& v = value(key);
  return v.is_boolean() ? v.get<bool>() : find_spec(specs_, key)->default_value.get<bool>();
}
std::string OptionValues::text(const std::string& key) const {
  const nlohmann::json& v = value(key);
  return v.is_string() ? v.get<std::string>() : find_spec(specs_, key)->default_value.get<std::string>();
}

OptionSpec opt_int(std::string key, int def, int lo, int hi, Doc help) {
  return {std::move(key), "int", def, double(lo), double(hi), {}, help.c_str()};
}
OptionSpec opt_float(std::string key, double def, double lo, double hi, Doc help) {
  return {std::move(key), "float", def, lo, hi, {}, help.c_str()};
}
OptionSpec opt_bool(std::string key, bool def, Doc help) {
  return {std::move(key), "bool", def, 0, 1, {}, help.c_str()};
}
OptionSpec opt_enum(std::string key, std::string def, std::vector<std::string> choices, Doc help) {
  return {std::move(key), "enum", def, 0, 0, std::move(choices), help.c_str()};
}
OptionSpec opt_string(std::string key, std::string def, Doc help) {
  return {std::move(key), "string", def, 0, 0, {}, help.c_str()};
}

}  // namespace ap
