// core/config/config.hpp — the one flat configuration object. The same names are used by the JSON
// file, the CLI's --set, the URL hash and the widget attributes. A table of field specs
// (config.cpp) drives parsing, printing, validation and the UI's control list.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <memory>

#include <nlohmann/json.hpp>

namespace ap {

class Task;  // tasks/task.hpp; the model, which includes this header, never sees the tasks

// The fixed-name fields the model branches on, resolved once when it is built (the hot path
// compares no strings).
enum class Placement { Embed, Layerwise };
enum class LayerNormAt { Pre, Post };
enum class Activation { Gelu, GeluErf, Relu };
enum class Pool { Mean, Cls };
struct ModelChoices {
  Placement placement;
  LayerNormAt layernorm;
  Activation activation;
  Pool pool;
};

struct Config {
  std::string task = "copy";
  std::string position = "learned";       // core/position registry
  std::string placement = "embed";        // absolute encodings: embed (once) | layerwise
  std::string normalization = "softmax";  // core/normalization registry
  std::string anchors = "none";           // none | cls | cls_sep | bos
  int d_model = 32, heads = 2, layers = 2, ffn = 128;
  std::string activation = "gelu";  // gelu (tanh form) | gelu_erf | relu
  std::string layernorm = "pre";    // pre | post
  bool causal = true;
  std::string pool = "mean";  // per-sequence tasks: mean | cls
  float dropout = 0.0f, attn_dropout = 0.0f;
  float softcap = 0.0f;            // logit soft cap c: s ← c·tanh(s/c) (0 = off)
  int seq_len = 16, eval_len = 0;  // eval_len 0 = seq_len
  int max_len = 0;                 // learned table size; 0 = the model's training length
  int batch = 16, steps = 600;
  float lr = 3e-3f, weight_decay = 0.01f, clip = 1.0f;
  float beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
  int warmup = 20;
  std::string schedule = "constant";  // constant | linear | cosine (after warmup)
  int schedule_start = 0;             // the step the warmup and the decay count from (a fine-tune's restart)
  int64_t seed = 1;
  int eval_every = 50, eval_batches = 4;
  float memory_limit_mb = 1024.0f;
  // Options of the registry entries (position, normalization, task), flat keys such as
  // "rope_base" or "copy_back_k"; each entry declares and validates its own.
  nlohmann::json options = nlohmann::json::object();

  // Parse a flat JSON object: task defaults first, then the given keys. Validates.
  static Config from_json(const nlohmann::json& j);
  // The same without validate(): for callers that validate with checked_task() next.
  static Config parse(const nlohmann::json& j);
  nlohmann::json to_json() const;  // flat, every field, plus options
  // Set one field from text ("heads=4" in the CLI, the URL hash, an attribute). Not validated.
  void set(const std::string& key, const std::string& value);
  void validate() const;  // throws std::invalid_argument naming the field, value and what is allowed
  // validate(), returning the task it built to check the task's options and lengths, so that a
  // caller that needs the task (Session) builds it once.
  std::unique_ptr<Task> checked_task() const;
  // placement, layernorm, activation and pool as enums (the config must be valid).
  ModelChoices choices() const;

  int effective_eval_len() const { return eval_len > 0 ? eval_len : seq_len; }
  int anchor_count() const;  // extra tokens the anchors add to every sequence
  int model_len() const { return seq_len + anchor_count(); }
  int table_len() const { return max_len > 0 ? max_len : model_len(); }
  // Rough bytes of parameters, optimizer state and activations for one training step.
  double memory_estimate_mb() const;
};

// A config object with each field given under an older name (`norm_position`) moved to its current
// one (`layernorm`), unless that is given too: old links and model files still load.
nlohmann::json with_current_names(const nlohmann::json& j);

// The typed JSON value of `key` written as text ("4" -> 4, "true" -> true, "rope" -> "rope");
// throws naming the key when the text does not fit the field's kind or the key is unknown.
nlohmann::json config_value(const std::string& key, const std::string& text);
// Split "key=value" into its parts; throws when there is no '='.
std::pair<std::string, std::string> split_assignment(const std::string& kv);

// Every core field against the field table: numbers within their range (NaN refused), fixed
// names among their choices. Part of validate(); throws std::invalid_argument naming the field.
void check_fields(const Config& c);

// Metadata of every field (core fields and registry options) for the CLI help and the UI.
nlohmann::json config_schema();

// Fields read under an older name as well (old links, model files, --set, the URL hash), always
// written under the new one: {old name, current name}. The one table: the registry JSON gives it
// to the front ends as "renamed" ({old: current}, renamed_json()), so the page keeps no copy.
const std::vector<std::pair<std::string, std::string>>& renamed_fields();
nlohmann::json renamed_json();

}  // namespace ap
