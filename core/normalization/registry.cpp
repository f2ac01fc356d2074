// core/normalization/registry.cpp — the one table of attention normalizations. Adding one is a
// file in core/normalization/ (its class and its entry function) plus two lines here: the entry
// function's declaration and its row in the table.
#include <cmath>
#include <stdexcept>

#include "normalization/normalization.hpp"
#include "io/json.hpp"

namespace ap {

NormalizationEntry normalization_softmax();
NormalizationEntry normalization_l2();
NormalizationEntry normalization_relu2();
NormalizationEntry normalization_swish_l2();
NormalizationEntry normalization_exp();
NormalizationEntry normalization_sigmoid();
NormalizationEntry normalization_softmax1();
NormalizationEntry normalization_cosine();
NormalizationEntry normalization_linear();
NormalizationEntry normalization_performer();

const std::vector<NormalizationEntry>& normalization_registry() {
  static const std::vector<NormalizationEntry> table = {
      normalization_softmax(),
      normalization_l2(),
      normalization_relu2(),
      normalization_swish_l2(),
      normalization_exp(),
      normalization_sigmoid(),
      normalization_softmax1(),
      normalization_cosine(),
      normalization_linear(),
      normalization_performer(),
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
  throw std::invalid_argument("normalization: unknown name " + show_text(name) + "; valid names are: " +
                              join_names(names));
}

nlohmann::json normalization_json(const NormalizationEntry& e) {
  nlohmann::json opts = nlohmann::json::array();
  for (auto& o : e.options) opts.push_back(o.to_json());
  return {{"name", e.name},
          {"title", e.title},
          {"formula", e.formula},
          {"note", e.note},
          {"row_sum", e.row_sum == RowSum::One ? "one" : "varies"},
          {"accepts_bias", e.accepts_bias},
          {"stable", e.stable},
          {"options", opts}};
}

}  // namespace ap
