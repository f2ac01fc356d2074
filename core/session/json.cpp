// core/session/json.cpp — see json.hpp.
#include "session/json.hpp"

#include <cmath>
#include <stdexcept>

#include "io/json.hpp"

namespace ap {

namespace {

// No input row or batch is longer than this many ids (the memory check usually stops it first).
constexpr size_t kMaxIds = size_t(1) << 20;

std::vector<std::vector<int32_t>> rows_of(const nlohmann::json& j, const std::string& what) {
  if (!j.is_array())
    throw std::invalid_argument(what + ": expected an array of rows ([[ids], ...]), not " + std::string(j.type_name()) +
                                " " + show_value(j));
  if (j.size() > kMaxIds)
    throw std::invalid_argument(what + ": " + std::to_string(j.size()) + " rows are above the limit of " +
                                std::to_string(kMaxIds));
  std::vector<std::vector<int32_t>> rows;
  size_t total = 0;
  for (size_t i = 0; i < j.size(); ++i) {
    rows.push_back(int_array(j[i], what + "[" + std::to_string(i) + "]", kMaxIds - total));
    total += rows.back().size();
    if (rows.back().size() != rows.front().size())
      throw std::invalid_argument(what + "[" + std::to_string(i) + "]: has " + std::to_string(rows.back().size()) +
                                  " entries, but row 0 has " + std::to_string(rows.front().size()) +
                                  "; every row must have the same length");
  }
  return rows;
}

}  // namespace

void check_forward_memory(const Config& cfg, int B, int T, const std::string& what) {
  Config c;  // only the fields the estimate reads: no copy of a task's options (a text corpus)
  c.d_model = cfg.d_model, c.ffn = cfg.ffn, c.layers = cfg.layers, c.heads = cfg.heads;
  c.anchors = cfg.anchors, c.max_len = cfg.max_len, c.eval_len = 0;
  c.batch = std::max(B, 1), c.seq_len = std::max(T - c.anchor_count(), 1);
  const double mb = c.memory_estimate_mb();
  if (mb > cfg.memory_limit_mb) {
    throw std::invalid_argument(std::string(what) + ": a pass over " + std::to_string(B) +
                                (B == 1 ? " sequence" : " sequences") + " of " + std::to_string(T) +
                                " tokens needs about " + std::to_string(std::lround(mb)) +
                                " MB for one pass, above the limit of " + num_text(cfg.memory_limit_mb) +
                                " MB (memory_limit_mb); use fewer tokens");
  }
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
  if (!j.is_object())
    throw std::invalid_argument(std::string("batch: expected a JSON object ") + shape + ", not " + j.type_name());
  for (auto& [k, v] : j.items())
    if (k != "inputs" && k != "targets" && !(k == "mask" && !per_seq))
      throw std::invalid_argument("batch: unknown field " + show_text(k) + "; expected " + shape);
  for (const char* k : {"inputs", "targets"})
    if (!j.contains(k))
      throw std::invalid_argument(std::string("batch: field '") + k + "' is missing; expected " + shape);
  Batch b;
  const auto inputs = rows_of(j["inputs"], "batch: inputs");
  if (inputs.empty() || inputs[0].empty())
    throw std::invalid_argument("batch: inputs must hold at least one row of at least one token id");
  b.B = int(inputs.size()), b.T = int(inputs[0].size());
  check_forward_memory(s.config(), b.B, b.T, "batch");
  for (auto& row : inputs) b.inputs.insert(b.inputs.end(), row.begin(), row.end());
  auto same_shape = [&](const std::vector<std::vector<int32_t>>& rows, const char* name) {
    if (rows.size() != inputs.size() || rows.empty() || rows[0].size() != inputs[0].size())
      throw std::invalid_argument(std::string("batch: ") + name + " must have the shape of inputs (" +
                                  std::to_string(b.B) + " rows of " + std::to_string(b.T) + ")");
  };
  if (per_seq) {
    b.targets = int_array(j["targets"], "batch: targets", kMaxIds);
    if (b.targets.size() != inputs.size())
      throw std::invalid_argument("batch: targets must hold one class per input row (" + std::to_string(b.B) +
                                  "), not " + std::to_string(b.targets.size()));
    return b;
  }
  const auto targets = rows_of(j["targets"], "batch: targets");
  same_shape(targets, "targets");
  for (auto& row : targets) b.targets.insert(b.targets.end(), row.begin(), row.end());
  if (!j.contains("mask")) {
    b.mask.assign(b.inputs.size(), 1);
    return b;
  }
  const auto mask = rows_of(j["mask"], "batch: mask");
  same_shape(mask, "mask");
  for (auto& row : mask)
    for (int32_t m : row) b.mask.push_back(uint8_t(m != 0));
  return b;
}

}  // namespace ap
