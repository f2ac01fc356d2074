// core/session/io.cpp — a session as a safetensors file: the model's tensors under their
// PyTorch-style names, then the AdamW moments as "optimizer.exp_avg.<name>" and
// "optimizer.exp_avg_sq.<name>", and in __metadata__ the config (JSON), the step, the RNG
// states and the format version. Loading checks every name, shape and value (docs/model-format.md).
#include <cmath>
#include <cctype>
#include <charconv>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "io/json.hpp"
#include "io/safetensors.hpp"
#include "session/session.hpp"

namespace ap {

namespace {
constexpr const char* kFormat = "attention-playground/1";

std::string rng_text(const Rng& r) {
  std::string out;
  for (auto x : r.state()) out += std::to_string(x) + ' ';
  return out;
}
Rng rng_from(const std::string& s, const char* field) {
  std::array<uint64_t, 4> st{};
  const char* p = s.data();
  const char* end = p + s.size();
  for (auto& x : st) {
    while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p;
    auto [next, ec] = std::from_chars(p, end, x);
    if (ec != std::errc() || next == p) refuse("load.rng_state", field);
    p = next;
  }
  Rng r;
  r.set_state(st);
  return r;
}
// A step count: digits only (no sign, no trailing text), at most 10^9.
int count_from(const std::string& text, const char* field) {
  const bool digits = !text.empty() && text.size() <= 10 && text.find_first_not_of("0123456789") == std::string::npos;
  const long long n = digits ? std::stoll(text) : -1;
  if (n < 0 || n > 1000000000) refuse("load.count", field, {{"value", text.substr(0, 40)}});
  return int(n);
}

// The config of a model file with the caller's overrides (current names), parsed and its task
// built; a refusal says whose fault it is: the file's own config, or what the caller replaced.
std::pair<Config, std::unique_ptr<Task>> file_config(nlohmann::json cfg, const nlohmann::json& overrides) {
  if (!cfg.is_object()) refuse("load.config_not_object", "config");
  if (!overrides.is_object()) refuse("load.overrides_not_object", "overrides");
  const nlohmann::json file_cfg = cfg;
  cfg = with_current_names(cfg);  // an override under the current name replaces an old file's field
  const nlohmann::json replaced = with_current_names(overrides);
  for (auto& [k, v] : replaced.items()) cfg[k] = v;
  try {
    Config c = Config::parse(cfg);
    std::unique_ptr<Task> task = c.checked_task();  // validates once; the session keeps the task it built
    return {std::move(c), std::move(task)};
  } catch (const std::invalid_argument& e) {
    try {
      Config::from_json(file_cfg);
    } catch (const Refusal& own) {
      refuse_within("model file: its config is not valid", own);
    } catch (const std::invalid_argument& own) {
      refuse("load.config_invalid", "config", {{"reason", own.what()}});
    }
    throw;
  }
}

// Tensor `name` of the file into dst, checked against the parameter's shape (and non-negative:
// a second moment below 0 would make the next update NaN); an absent one is refused if required.
void fill_tensor(const SafetensorsFile& f, const std::string& name, const ParamInfo& p, float* dst, bool required,
                 bool non_negative = false) {
  const NamedTensor* t = f.find(name);
  if (!t) {
    if (required) refuse("load.tensor_missing", name);
    return;
  }
  std::vector<int64_t> want(p.shape.begin(), p.shape.end());
  if (t->shape != want)
    refuse("load.tensor_shape", name,
           {{"shape", nlohmann::json(t->shape).dump()}, {"want", nlohmann::json(want).dump()}});
  for (float x : t->data) {
    if (!std::isfinite(x)) refuse("load.tensor_nonfinite", name);
    if (non_negative && x < 0) refuse("load.tensor_negative", name);
  }
  std::copy(t->data.begin(), t->data.end(), dst);
}

}  // namespace

std::vector<uint8_t> Session::save() const {
  std::vector<NamedTensor> tensors;
  const ParamStore& ps = model_->params();
  auto add = [&](const std::string& name, const ParamInfo& p, const float* src) {
    NamedTensor t{name, {}, std::vector<float>(src, src + p.size)};
    for (int d : p.shape) t.shape.push_back(d);
    tensors.push_back(std::move(t));
  };
  for (auto& p : ps.infos()) add(p.name, p, ps.all_data().data() + p.offset);
  for (auto& p : ps.infos()) add("optimizer.exp_avg." + p.name, p, opt_->m.data() + p.offset);
  for (auto& p : ps.infos()) add("optimizer.exp_avg_sq." + p.name, p, opt_->v.data() + p.offset);
  std::map<std::string, std::string> meta{{"format", kFormat},
                                          {"config", cfg_.to_json().dump()},
                                          {"step", std::to_string(step_)},
                                          {"optimizer_t", std::to_string(opt_->t)},
                                          {"data_rng", rng_text(data_rng_)},
                                          {"dropout_rng", rng_text(dropout_rng_)}};
  if (!stopped_.empty()) meta["stopped"] = stopped_;  // written after a refused step
  return safetensors_write(tensors, meta);
}

std::unique_ptr<Session> Session::load(const uint8_t* bytes, size_t size, const nlohmann::json& overrides) {
  SafetensorsFile f = safetensors_read(bytes, size);
  auto meta = [&](const char* key) -> const std::string& {
    auto it = f.metadata.find(key);
    if (it == f.metadata.end()) refuse("load.no_metadata", key);
    return it->second;
  };
  if (meta("format") != kFormat)
    refuse("load.format", "format", {{"value", show_text(meta("format"))}, {"expected", kFormat}});
  // Bounded in size and depth: a deeply nested value would overflow the stack later (dump, copy).
  auto [c, task] = file_config(parse_json(meta("config"), "model file: metadata 'config'", kConfigJson), overrides);
  std::unique_ptr<Session> s(new Session(c, std::move(task)));
  ParamStore& ps = s->model_->params();
  size_t known = 0;
  for (auto& p : ps.infos()) fill_tensor(f, p.name, p, ps.all_data().data() + p.offset, true), ++known;
  for (auto& p : ps.infos()) {
    known += f.find("optimizer.exp_avg." + p.name) != nullptr;
    known += f.find("optimizer.exp_avg_sq." + p.name) != nullptr;
    fill_tensor(f, "optimizer.exp_avg." + p.name, p, s->opt_->m.data() + p.offset, false);
    fill_tensor(f, "optimizer.exp_avg_sq." + p.name, p, s->opt_->v.data() + p.offset, false, true);
  }
  if (known != f.tensors.size())
    for (auto& t : f.tensors) {
      const std::string& n = t.name;
      std::string param = n;
      for (const char* pre : {"optimizer.exp_avg.", "optimizer.exp_avg_sq."})
        if (n.rfind(pre, 0) == 0) param = n.substr(std::string(pre).size());
      if (ps.find(param) < 0)
        refuse("load.tensor_unknown", n, {{"name", show_text(n)}, {"position", s->cfg_.position}});
    }
  s->step_ = count_from(meta("step"), "step");
  s->opt_->t = f.metadata.count("optimizer_t") ? count_from(meta("optimizer_t"), "optimizer_t") : s->step_;
  if (f.metadata.count("data_rng")) s->data_rng_ = rng_from(meta("data_rng"), "data_rng");
  if (f.metadata.count("dropout_rng")) s->dropout_rng_ = rng_from(meta("dropout_rng"), "dropout_rng");
  if (f.metadata.count("stopped")) s->stopped_ = meta("stopped").substr(0, 1000);
  return s;
}

}  // namespace ap

namespace ap {

size_t Session::memory_bytes() const {
  auto bytes = [](const std::vector<float>& v) { return v.capacity() * sizeof(float); };
  const ParamStore& p = model_->params();
  return bytes(p.all_data()) + bytes(p.all_grads()) + bytes(opt_->m) + bytes(opt_->v) + bytes(good_.weights) +
         bytes(good_.m) + bytes(good_.v) + model_->activation_bytes();
}

}  // namespace ap
