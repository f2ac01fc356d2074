// core/position/registry.cpp — the one table of position encodings. Adding an encoding is one
// file in core/position/ (its class and its entry function) plus one line here, X(name) in
// the list below. The table feeds the model, the config validation, the CLI's `list`, the
// bindings and the UI.
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "position/position.hpp"
#include "io/json.hpp"

namespace ap {

// The list: one line per encoding, X(name) for the entry function position_<name>() in its own file.
#define AP_POSITIONS(X) \
  X(none)               \
  X(learned)            \
  X(sinusoidal)         \
  X(rope)               \
  X(rope_embed)         \
  X(qk_sinusoidal)      \
  X(qk_learned)         \
  X(alibi)              \
  X(t5_bias)            \
  X(shaw)               \
  X(contextual1)        \
  X(contextual2)        \
  X(urpe)               \
  X(xpos)               \
  X(fire)               \
  X(kerple)             \
  X(scaled_sinusoidal)  \
  X(dynamic_bias)       \
  X(cope)               \
  X(forget)             \
  X(randomized)

#define AP_DECLARE(name) PositionEntry position_##name();
AP_POSITIONS(AP_DECLARE)
#undef AP_DECLARE

const std::vector<PositionEntry>& position_registry() {
  static const std::vector<PositionEntry> table = {
#define AP_ROW(name) position_##name(),
      AP_POSITIONS(AP_ROW)
#undef AP_ROW
  };
  return table;
}

const PositionEntry& find_position(const std::string& name) {
  std::vector<std::string> names;
  for (auto& e : position_registry()) {
    if (name == e.name) return e;
    names.push_back(e.name);
  }
  refuse("position.unknown", "position", {{"name", show_text(name)}, {"names", join_names(names)}});
}

nlohmann::json position_json(const PositionEntry& e, size_t params) {
  nlohmann::json opts = nlohmann::json::array();
  for (auto& o : e.options) opts.push_back(o.to_json());
  return {{"name", e.name},
          {"title", e.title.c_str()},
          {"formula", e.formula.c_str()},
          {"where", e.where.c_str()},
          {"note", e.note.c_str()},
          {"absolute", e.absolute},
          {"logits_only", e.logits_only},
          {"extrapolates", e.extrapolates},
          {"biases_logits", e.biases_logits},
          {"params", params},
          {"options", opts}};
}

}  // namespace ap
