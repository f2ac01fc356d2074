// core/position/registry.cpp — the one table of position encodings. Adding an encoding is one
// file in core/position/ (its class and its entry function) plus two lines here: the entry
// function's declaration and its row in the table. The table feeds the model, the config
// validation, the CLI's `list`, the bindings and the UI.
#include <stdexcept>

#include "position/position.hpp"
#include "io/json.hpp"

namespace ap {

PositionEntry position_none();
PositionEntry position_learned();
PositionEntry position_sinusoidal();
PositionEntry position_rope();
PositionEntry position_alibi();
PositionEntry position_t5_bias();
PositionEntry position_shaw();
PositionEntry position_contextual1();
PositionEntry position_contextual2();
PositionEntry position_urpe();
PositionEntry position_xpos();
PositionEntry position_fire();

const std::vector<PositionEntry>& position_registry() {
  static const std::vector<PositionEntry> table = {
      position_none(),
      position_learned(),
      position_sinusoidal(),
      position_rope(),
      position_alibi(),
      position_t5_bias(),
      position_shaw(),
      position_contextual1(),
      position_contextual2(),
      position_urpe(),
      position_xpos(),
      position_fire(),
  };
  return table;
}

const PositionEntry& find_position(const std::string& name) {
  std::vector<std::string> names;
  for (auto& e : position_registry()) {
    if (name == e.name) return e;
    names.push_back(e.name);
  }
  throw std::invalid_argument("position: unknown encoding " + show_text(name) + "; valid names are: " +
                              join_names(names));
}

nlohmann::json position_json(const PositionEntry& e, size_t params) {
  nlohmann::json opts = nlohmann::json::array();
  for (auto& o : e.options) opts.push_back(o.to_json());
  return {{"name", e.name},           {"title", e.title},
          {"formula", e.formula},     {"where", e.where},
          {"note", e.note},           {"absolute", e.absolute},
          {"logits_only", e.logits_only}, {"extrapolates", e.extrapolates},
          {"biases_logits", e.biases_logits},
          {"params", params},         {"options", opts}};
}

}  // namespace ap
