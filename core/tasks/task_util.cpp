// core/tasks/task_util.cpp — NamedTask, TaskOptions and SlotAnswerTask (see task_util.hpp).
#include "tasks/task_util.hpp"

#include <cmath>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "io/json.hpp"

namespace ap {

std::string NamedTask::token_name(int id) const {
  if (id < 0 || id >= int(tokens_.size())) return "?" + std::to_string(id);
  return tokens_[size_t(id)];
}

int NamedTask::answer_slot() const {
  for (size_t i = 0; i < tokens_.size(); ++i)
    if (tokens_[i] == "_") return int(i);
  return -1;
}

std::string NamedTask::class_name(int id) const {
  if (classes_.empty()) return token_name(id);
  if (id < 0 || id >= int(classes_.size())) return "?" + std::to_string(id);
  return classes_[size_t(id)];
}

int NamedTask::add_token(const std::string& name) {
  tokens_.push_back(name);
  return int(tokens_.size()) - 1;
}

int NamedTask::add_symbols(int n) {
  const int first = int(tokens_.size());
  for (int i = 0; i < n; ++i) tokens_.push_back(std::to_string(i));
  return first;
}

void NamedTask::start_batch(int B, int T, Batch& out) const {
  if (B < 1) refuse("task.batch_too_small", "", {{"task", name_}, {"b", std::to_string(B)}});
  if (T < min_len() || T > max_len())
    refuse("task.bad_length", "",
           {{"task", name_},
            {"t", std::to_string(T)},
            {"min", std::to_string(min_len())},
            {"max", std::to_string(max_len())}});
  out.B = B;
  out.T = T;
  out.inputs.assign(size_t(B) * T, 0);
  out.targets.assign(per_sequence() ? size_t(B) : size_t(B) * T, 0);
  out.mask.assign(per_sequence() ? 0 : size_t(B) * T, uint8_t(0));
}

// ---- options ----------------------------------------------------------------------------------
TaskOptions::TaskOptions(const nlohmann::json& config, const char* task) : config_(config), task_(task) {
  if (!config.is_null() && !config.is_object())
    refuse("task.config_not_object", "", {{"task", task_}, {"value", show_json(config)}});
}

const nlohmann::json& TaskOptions::value(const char* key) const {
  if (config_.is_object()) {
    auto it = config_.find(key);
    if (it != config_.end()) return *it;
  }
  const TaskEntry& entry = find_task(task_);
  if (const OptionSpec* spec = find_spec(entry.options, key)) return spec->default_value;
  const nlohmann::json& defaults = entry.defaults;
  auto it = defaults.find(key);
  if (it == defaults.end()) refuse("internal.no_default", "", {{"task", task_}, {"key", key}});
  return *it;
}

void TaskOptions::fail(const char* code, const char* key, RefusalParams params) const {
  params.insert(params.begin(), {{"task", task_}, {"value", show_json(value(key))}});
  refuse(code, key, std::move(params));
}

int TaskOptions::get_int(const char* key, int lo, int hi) const {
  const nlohmann::json& v = value(key);
  const RefusalParams range = {{"min", std::to_string(lo)}, {"max", std::to_string(hi)}};
  if (!v.is_number()) fail("task.not_int", key, range);
  const double d = v.get<double>();
  if (!(d >= lo && d <= hi) || d != std::floor(d)) fail("task.not_int", key, range);  // range first: the cast
  return int(d);
}

int TaskOptions::get_int(const char* key) const {
  const OptionSpec* spec = find_spec(find_task(task_).options, key);
  if (!spec || spec->kind != "int") refuse("internal.not_int_option", "", {{"task", task_}, {"key", key}});
  return get_int(key, int(spec->min), int(spec->max));
}

bool TaskOptions::get_bool(const char* key) const {
  const nlohmann::json& v = value(key);
  if (!v.is_boolean()) fail("task.not_bool", key);
  return v.get<bool>();
}

std::string TaskOptions::get_string(const char* key) const {
  const nlohmann::json& v = value(key);
  if (!v.is_string()) fail("task.not_string", key);
  return v.get<std::string>();
}

nlohmann::json task_model_defaults(int seq_len, bool causal, int steps, int d_model, int heads, int layers, int batch,
                                   double lr) {
  return {{"seq_len", seq_len}, {"eval_len", 2 * seq_len}, {"causal", causal}, {"steps", steps}, {"lr", lr},
          {"d_model", d_model}, {"heads", heads},          {"layers", layers}, {"batch", batch}};
}

// ---- question, then answer slots -----------------------------------------------------------
SlotAnswerTask::SlotAnswerTask(std::string name, int symbols) : NamedTask(std::move(name)), V_(symbols) {
  add_symbols(V_);
  slot_ = add_token("_");
  pad_ = add_token(".");
}

void SlotAnswerTask::generate(Rng& rng, int B, int T, Split split, Batch& out) const {
  const int n = T / 2;
  fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
    for (int i = 0; i < n; ++i) x[i] = r.uniform_int(V_);
    answer(x, n, y + n);  // targets of the slots
    for (int i = 0; i < n; ++i) {
      y[i] = pad_;  // not scored
      x[n + i] = slot_;
      m[n + i] = 1;
    }
    for (int t = 2 * n; t < T; ++t) x[t] = y[t] = pad_;
  });
}

}  // namespace ap
