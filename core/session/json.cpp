// core/session/json.cpp — see json.hpp.
#include "session/json.hpp"

#include <cmath>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "config/variants.hpp"
#include "io/json.hpp"

namespace ap {

namespace {

// No input row or batch is longer than this many ids (the memory check usually stops it first).
constexpr size_t kMaxIds = size_t(1) << 20;

// The rows of the batch's field `name` (inputs, targets, mask): arrays of ids of one length.
std::vector<std::vector<int32_t>> rows_of(const nlohmann::json& j, const std::string& name) {
  if (!j.is_array()) refuse("batch.rows_not_array", name, {{"type", j.type_name()}, {"value", show_value(j)}});
  if (j.size() > kMaxIds)
    refuse("batch.rows_too_many", name, {{"n", std::to_string(j.size())}, {"max", std::to_string(kMaxIds)}});
  std::vector<std::vector<int32_t>> rows;
  size_t total = 0;
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string row = name + "[" + std::to_string(i) + "]";
    rows.push_back(int_array(j[i], "batch: " + row, kMaxIds - total));
    total += rows.back().size();
    if (rows.back().size() != rows.front().size())
      refuse("batch.row_length", row,
             {{"n", std::to_string(rows.back().size())}, {"first", std::to_string(rows.front().size())}});
  }
  return rows;
}

// The parameters of a pass over B sequences of T tokens above the memory limit; empty when it fits.
RefusalParams memory_over(const Config& cfg, int B, int T) {
  Config c;  // only the fields the estimate reads: no copy of a task's options (a text corpus)
  c.d_model = cfg.d_model, c.ffn = cfg.ffn, c.layers = cfg.layers, c.heads = cfg.heads;
  c.anchors = cfg.anchors, c.max_len = cfg.max_len, c.eval_len = 0;
  c.batch = std::max(B, 1), c.seq_len = std::max(T - c.anchor_count(), 1);
  const double mb = c.memory_estimate_mb();
  if (mb <= cfg.memory_limit_mb) return {};
  return {{"b", std::to_string(B)},
          {"n", std::to_string(T)},
          {"mb", std::to_string(std::lround(mb))},
          {"max", num_text(cfg.memory_limit_mb)}};
}

}  // namespace

void check_forward_memory(const Config& cfg, int B, int T, const std::string& what) {
  RefusalParams p = memory_over(cfg, B, T);
  if (!p.empty()) refuse(B == 1 ? "memory.pass_one" : "memory.pass", what, std::move(p));
}

void check_evaluation_memory(const Config& cfg, int B, int T, int length) {
  RefusalParams p = memory_over(cfg, B, T);
  if (p.empty()) return;
  p.push_back({"length", std::to_string(length)});
  refuse(B == 1 ? "memory.evaluation_one" : "memory.evaluation", "length", std::move(p));
}

std::vector<int32_t> run_ids_from_json(std::string_view text) {
  return int_array(parse_json(text, "ids", kSmallJson), "ids", kMaxIds);
}

void configure_from_json(Session& s, std::string_view text) { s.configure(parse_json(text, "configure", kSmallJson)); }

Batch batch_from_text(const Session& s, std::string_view text) {
  return batch_from_json(s, parse_json(text, "batch", kBatchJson));
}

Batch batch_from_json(const Session& s, const nlohmann::json& j) {
  const bool per_seq = s.task().per_sequence();
  const char* shape = per_seq ? R"({"inputs": [[ids]], "targets": [class per row]})"
                              : R"({"inputs": [[ids]], "targets": [[ids]], "mask": [[0|1]]})";
  if (!j.is_object()) refuse("batch.not_object", "", {{"shape", shape}, {"type", j.type_name()}});
  for (auto& [k, v] : j.items())
    if (k != "inputs" && k != "targets" && !(k == "mask" && !per_seq))
      refuse("batch.unknown_field", "", {{"name", show_text(k)}, {"shape", shape}});
  for (const char* k : {"inputs", "targets"})
    if (!j.contains(k)) refuse("batch.field_missing", k, {{"shape", shape}});
  Batch b;
  const auto inputs = rows_of(j["inputs"], "inputs");
  if (inputs.empty() || inputs[0].empty()) refuse("batch.inputs_empty", "inputs");
  b.B = int(inputs.size()), b.T = int(inputs[0].size());
  check_forward_memory(s.config(), b.B, b.T, "batch");
  for (auto& row : inputs) b.inputs.insert(b.inputs.end(), row.begin(), row.end());
  auto same_shape = [&](const std::vector<std::vector<int32_t>>& rows, const char* name) {
    if (rows.size() != inputs.size() || rows.empty() || rows[0].size() != inputs[0].size())
      refuse("batch.shape_mismatch", name, {{"b", std::to_string(b.B)}, {"t", std::to_string(b.T)}});
  };
  if (per_seq) {
    b.targets = int_array(j["targets"], "batch: targets", kMaxIds);
    if (b.targets.size() != inputs.size())
      refuse("batch.targets_count", "targets", {{"b", std::to_string(b.B)}, {"n", std::to_string(b.targets.size())}});
    return b;
  }
  const auto targets = rows_of(j["targets"], "targets");
  same_shape(targets, "targets");
  for (auto& row : targets) b.targets.insert(b.targets.end(), row.begin(), row.end());
  if (!j.contains("mask")) {
    b.mask.assign(b.inputs.size(), 1);
    return b;
  }
  const auto mask = rows_of(j["mask"], "mask");
  same_shape(mask, "mask");
  for (auto& row : mask)
    for (int32_t m : row) b.mask.push_back(uint8_t(m != 0));
  return b;
}

nlohmann::json registry_with_live_keys() {
  nlohmann::json out = registry_json();
  out["live_keys"] = Session::live_keys();
  return out;
}

}  // namespace ap
