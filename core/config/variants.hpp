// core/config/variants.hpp — from a Config to the registry entries it names: the narrow
// MakeContext an encoding or a normalization is built from (the model's sizes and its own
// options, never the whole Config), and the registries as JSON for the CLI and the bindings.
// This is the one place where the config layer meets the two axes.
#pragma once
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "common/make_context.hpp"
#include "config/config.hpp"
#include "normalization/normalization.hpp"
#include "position/position.hpp"

namespace ap {

ModelSizes model_sizes(const Config& cfg);
// The context for an entry with these declared options; it refers to cfg.options and `specs`,
// so both must outlive it.
MakeContext make_context(const Config& cfg, const std::vector<OptionSpec>& specs);

// Build an entry for a config (declares its parameters into `params`).
std::unique_ptr<PositionEncoding> make_variant(const PositionEntry& e, const Config& cfg, ParamStore& params);
std::unique_ptr<Normalization> make_variant(const NormalizationEntry& e, const Config& cfg, ParamStore& params);
// The entry's own rules for this config (xpos needs causal=true, ...); throws
// std::invalid_argument naming the field. Nothing for entries without rules.
void check_variant(const PositionEntry& e, const Config& cfg);
void check_variant(const NormalizationEntry& e, const Config& cfg);

// Parameter count the config's position encoding adds (declares into a scratch store).
size_t position_param_count(const Config& cfg);
// An entry as JSON for the CLI and the UI (its parameter count for `cfg`, where that applies).
nlohmann::json describe_position(const PositionEntry& e, const Config& cfg);
nlohmann::json describe_normalization(const NormalizationEntry& e, const Config& cfg);

// {"tasks": [...], "positions": [...], "normalizations": [...], "config": schema}: what
// `attnplay list --json` prints and the bindings give the page. `what` = "tasks", "positions"
// or "normalizations" keeps that family only; "" gives all four.
nlohmann::json registry_json(const std::string& what = "");

}  // namespace ap
