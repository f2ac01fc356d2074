// core/normalization/registry.cpp — the one table of attention normalizations. Adding one is a
// file in core/normalization/ (its class and its entry function) plus one line here, X(name) in
// the list below.
#include <cmath>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "normalization/normalization.hpp"
#include "io/json.hpp"

namespace ap {

// The list: one line per normalization, X(name) for the entry function normalization_<name>() in its own file.
#define AP_NORMALIZATIONS(X) \
  X(softmax)                 \
  X(l2)                      \
  X(relu2)                   \
  X(swish_l2)                \
  X(exp)                     \
  X(sigmoid)                 \
  X(softmax1)                \
  X(sink)                    \
  X(topk)                    \
  X(stick_breaking)          \
  X(cosine)                  \
  X(linear)                  \
  X(performer)

#define AP_DECLARE(name) NormalizationEntry normalization_##name();
AP_NORMALIZATIONS(AP_DECLARE)
#undef AP_DECLARE

const std::vector<NormalizationEntry>& normalization_registry() {
  static const std::vector<NormalizationEntry> table = {
#define AP_ROW(name) normalization_##name(),
      AP_NORMALIZATIONS(AP_ROW)
#undef AP_ROW
  };
  return table;
}

float Normalization::scale(int head_size) const { return 1.0f / std::sqrt(float(head_size)); }

const NormalizationEntry& find_normalization(const std::string& name) {
  std::vector<std::string> names;
  for (auto& e : normalization_registry()) {
    if (name == e.name) return e;
    names.push_back(e.name);
  }
  refuse("normalization.unknown", "normalization", {{"name", show_text(name)}, {"names", join_names(names)}});
}

nlohmann::json normalization_json(const NormalizationEntry& e) {
  nlohmann::json opts = nlohmann::json::array();
  for (auto& o : e.options) opts.push_back(o.to_json());
  return {{"name", e.name},
          {"title", e.title.c_str()},
          {"formula", e.formula.c_str()},
          {"note", e.note.c_str()},
          {"row_sum", e.row_sum == RowSum::One ? "one" : "varies"},
          {"accepts_bias", e.accepts_bias},
          {"stable", e.stable},
          {"options", opts}};
}

}  // namespace ap
