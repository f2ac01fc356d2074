// core/config/file_size.cpp — see file_size.hpp.
#include "config/file_size.hpp"

#include <stdexcept>

#include "refusal/refusal.hpp"
#include "config/variants.hpp"
#include "io/safetensors.hpp"
#include "tasks/task.hpp"

namespace ap {

namespace {
// One header entry, "optimizer.exp_avg_sq.<name>": {"dtype":"F32","shape":[a,b],"data_offsets":[x,y]},
// is below 100 bytes plus its name (names are below 80 bytes).
constexpr size_t kEntryBytes = 256;
// The other metadata (format, step, optimizer_t, two RNG states, a "stopped" sentence of at most
// 1000 characters) and the header's braces.
constexpr size_t kOtherMetadataBytes = 4096;
}  // namespace

ModelFileSize model_file_size(const Config& cfg, const Task& task) {
  const size_t C = size_t(cfg.d_model), F = size_t(cfg.ffn), L = size_t(cfg.layers);
  const size_t V = size_t(task.vocab_size()) + size_t(cfg.anchor_count()), O = size_t(task.num_classes());
  // The two axes declare their own tensors: count them in scratch stores, as they are built.
  ParamStore pos, norm;
  make_variant(find_position(cfg.position), cfg, pos);
  make_variant(find_normalization(cfg.normalization), cfg, norm);
  ModelFileSize s;
  // tok_emb (V, C); per block ln1, qkv (3C, C) + bias, proj (C, C) + bias, ln2, fc (F, C) + bias,
  // proj (C, F) + bias; ln_f; head (O, C) + bias.
  s.parameters = V * C + L * (4 * C * C + 2 * C * F + 9 * C + F) + 2 * C + O * C + O + pos.size() + norm.size();
  const size_t tensors = 3 * (1 + 12 * L + 4 + pos.infos().size() + norm.infos().size());
  // The config is stored as a JSON string inside the JSON header: escaped twice. A byte that is
  // not UTF-8 (in a field the task does not read, which no reader checks) counts as U+FFFD's three:
  // an upper bound, and no json exception out of validation.
  const auto replace = nlohmann::json::error_handler_t::replace;
  const size_t config_bytes =
      nlohmann::json(cfg.to_json().dump(-1, ' ', false, replace)).dump(-1, ' ', false, replace).size();
  s.header_bytes = tensors * kEntryBytes + config_bytes + kOtherMetadataBytes;
  s.bytes = 8 + s.header_bytes + 12 * s.parameters;
  return s;
}

void check_model_file_size(const Config& cfg, const Task& task) {
  const ModelFileSize s = model_file_size(cfg, task);
  if (s.bytes > kMaxModelFileBytes) {
    refuse("config.model_too_big", "",
           {{"d_model", std::to_string(cfg.d_model)},
            {"layers", std::to_string(cfg.layers)},
            {"ffn", std::to_string(cfg.ffn)},
            {"parameters", std::to_string(s.parameters)},
            {"mib", std::to_string((s.bytes + (1 << 19)) / (1 << 20))},
            {"max", std::to_string(kMaxModelFileBytes >> 20)}});
  }
  if (s.header_bytes > kSafetensorsMaxHeaderBytes)
    refuse("config.header_too_big", "",
           {{"bytes", std::to_string(s.header_bytes)}, {"max", std::to_string(kSafetensorsMaxHeaderBytes)}});
}

}  // namespace ap
