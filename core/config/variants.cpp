// core/config/variants.cpp — MakeContext from a Config, building entries, and the registries as
// JSON (see variants.hpp).
#include "config/variants.hpp"

#include "tasks/task.hpp"

namespace ap {

ModelSizes model_sizes(const Config& cfg) {
  ModelSizes s;
  s.d_model = cfg.d_model;
  s.heads = cfg.heads;
  s.layers = cfg.layers;
  s.model_len = cfg.model_len();
  s.table_len = cfg.table_len();
  s.causal = cfg.causal;
  s.layerwise = cfg.placement == "layerwise";
  s.seed = uint64_t(cfg.seed);
  return s;
}

MakeContext make_context(const Config& cfg, const std::vector<OptionSpec>& specs) {
  return {model_sizes(cfg), OptionValues(cfg.options, specs)};
}

std::unique_ptr<PositionEncoding> make_variant(const PositionEntry& e, const Config& cfg, ParamStore& params) {
  return e.make(make_context(cfg, e.options), params);
}

std::unique_ptr<Normalization> make_variant(const NormalizationEntry& e, const Config& cfg, ParamStore& params) {
  return e.make(make_context(cfg, e.options), params);
}

void check_variant(const PositionEntry& e, const Config& cfg) {
  if (e.check) e.check(make_context(cfg, e.options));
}

void check_variant(const NormalizationEntry& e, const Config& cfg) {
  if (e.check) e.check(make_context(cfg, e.options));
}

size_t position_param_count(const Config& cfg) {
  ParamStore scratch;
  make_variant(find_position(cfg.position), cfg, scratch);
  return scratch.size();
}

nlohmann::json describe_position(const PositionEntry& e, const Config& cfg) {
  Config c = cfg;
  c.position = e.name;
  size_t params = 0;
  try {
    params = position_param_count(c);
  } catch (const std::exception&) {
  }
  return position_json(e, params);
}

nlohmann::json describe_normalization(const NormalizationEntry& e, const Config&) { return normalization_json(e); }

nlohmann::json registry_json(const std::string& what) {
  const Config defaults;
  nlohmann::json out = nlohmann::json::object();
  if (what.empty() || what == "tasks") {
    out["tasks"] = nlohmann::json::array();
    for (auto& t : task_registry()) out["tasks"].push_back(describe_task(t));
  }
  if (what.empty() || what == "positions") {
    out["positions"] = nlohmann::json::array();
    for (auto& e : position_registry()) out["positions"].push_back(describe_position(e, defaults));
  }
  if (what.empty() || what == "normalizations") {
    out["normalizations"] = nlohmann::json::array();
    for (auto& e : normalization_registry()) out["normalizations"].push_back(describe_normalization(e, defaults));
  }
  if (what.empty()) out["config"] = config_schema(), out["renamed"] = renamed_json();
  return out;
}

}  // namespace ap
