// core/config/validate.cpp — Config::validate(): every field's range and names, then the
// rules that relate fields to each other. Runs once at every boundary (file, CLI, bindings).
#include <cmath>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "config/config.hpp"
#include "config/file_size.hpp"
#include "config/variants.hpp"
#include "io/json.hpp"
#include "tasks/task.hpp"

namespace ap {

void Config::validate() const { checked_task(); }

std::unique_ptr<Task> Config::checked_task() const {
  const TaskEntry& te = find_task(task);
  const PositionEntry& pe = find_position(position);
  const NormalizationEntry& ne = find_normalization(normalization);
  check_fields(*this);  // every field's range and fixed names, from the one field table
  if (d_model % heads != 0)
    refuse("config.heads_divide", "heads", {{"d_model", std::to_string(d_model)}, {"heads", std::to_string(heads)}});

  // Refuse before anything is allocated (the task's data, the encoding's tables below).
  const double mb = memory_estimate_mb();
  if (mb > memory_limit_mb) {
    refuse("config.memory", "memory_limit_mb",
           {{"mb", std::to_string(std::lround(mb))}, {"max", num_text(memory_limit_mb)}});
  }

  // Registry options: each declared option checks its own value, whether or not its entry is
  // the chosen one (a config built in code may hold any of them).
  for (auto& [key, value] : options.items()) {
    for (auto& e : position_registry())
      for (auto& o : e.options)
        if (o.key == key) o.check(value);
    for (auto& e : normalization_registry())
      for (auto& o : e.options)
        if (o.key == key) o.check(value);
  }
  // The task checks its own options and lengths.
  auto t = te.make(to_json());
  if (seq_len < t->min_len())
    refuse("config.seq_len_short", "seq_len",
           {{"seq_len", std::to_string(seq_len)}, {"task", task}, {"min", std::to_string(t->min_len())}});
  if (effective_eval_len() < t->min_len())
    refuse("config.eval_len_short", "eval_len",
           {{"eval_len", std::to_string(eval_len)}, {"task", task}, {"min", std::to_string(t->min_len())}});

  // Placement applies to absolute encodings only.
  if (placement == "layerwise" && !pe.absolute)
    refuse("config.layerwise_not_absolute", "placement", {{"position", position}});
  if (max_len > 0 && max_len < model_len())
    refuse("config.max_len_short", "max_len",
           {{"max_len", std::to_string(max_len)}, {"len", std::to_string(model_len())}});
  if (pool == "cls" && !(anchors == "cls" || anchors == "cls_sep")) refuse("config.pool_needs_cls", "pool");

  // Rules of the entry itself (xpos needs causal=true, ...), declared on the entry.
  check_variant(pe, *this);
  check_variant(ne, *this);

  // The soft cap acts on the logits too.
  if (softcap > 0 && !ne.accepts_bias)
    refuse("config.softcap_no_logits", "softcap", {{"normalization", normalization}});

  // Encodings that bias the logits need a normalization that has logits (flags of the entries:
  // nothing is built to ask them).
  if (pe.biases_logits && !ne.accepts_bias)
    refuse("config.bias_needs_logits", "normalization", {{"normalization", normalization}, {"position", position}});

  // What train can write, every loader must read: the model file stays within their limit.
  check_model_file_size(*this, *t);
  return t;
}

double Config::memory_estimate_mb() const {
  const double C = d_model, F = ffn, L = layers, B = batch;
  const double T = std::max(model_len(), effective_eval_len() + anchor_count());
  const double V = 256;  // upper bound of the built-in vocabularies for embedding + head
  // Position tables: up to (max(T, max_len), C) per layer (learned, layerwise).
  const double params = 2 * V * C + L * (4 * C * C + 2 * C * F + 9 * C + F) + std::max<double>(T, table_len()) * C * L;
  const double acts_per_layer = B * T * (12 * C + 2 * F) + 4 * B * heads * T * T;
  const double floats = 4 * params + L * acts_per_layer + 3 * B * T * V;
  return floats * 4 / (1024.0 * 1024.0);
}

}  // namespace ap
