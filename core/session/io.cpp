// core/session/io.cpp — a session as a safetensors file: the model's tensors under their
// PyTorch-style names, then the AdamW moments as "optimizer.exp_avg.<name>" and
// "optimizer.exp_avg_sq.<name>", and in __metadata__ the config (JSON), the step, the RNG
// states and the format version. Loading checks every name, shape and value (docs/model-format.md).
#include <cmath>
#include <cctype>
#include <charconv>
#include <stdexcept>

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
    if (ec != std::errc() || next == p)
      throw std::invalid_argument(std::string("model file: metadata '") + field + "' is not four integers");
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
  if (n < 0 || n > 1000000000)
    throw std::invalid_argument(std::string("model file: metadata '") + field + "' is '" + text.substr(0, 40) +
                                "', not a whole number from 0 to 1000000000");
  return int(n);
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
    if (it == f.metadata.end())
      throw std::invalid_argument(std::string("model file: __metadata__ has no '") + key +
                                  "' entry; this is not an Attention Playground model file");
    return it->second;
  };
  if (meta("format") != kFormat)
    throw std::invalid_argument("model file: format " + show_text(meta("format")) + " is not supported; expected " +
                                kFormat);
  // Bounded in size and depth: a deeply nested value would overflow the stack later (dump, copy).
  nlohmann::json cfg = parse_json(meta("config"), "model file: metadata 'config'", kConfigJson);
  if (!cfg.is_object()) throw std::invalid_argument("model file: metadata 'config' is not a JSON object");
  if (!overrides.is_object()) throw std::invalid_argument("load: overrides must be a JSON object");
  const nlohmann::json file_cfg = cfg;
  cfg = with_current_names(cfg);  // an override under the current name replaces an old file's field
  const nlohmann::json replaced = with_current_names(overrides);
  for (auto& [k, v] : replaced.items()) cfg[k] = v;
  Config c;
  std::unique_ptr<Task> task;
  try {
    c = Config::parse(cfg);
    task = c.checked_task();  // validates once; the session keeps the task it built
  } catch (const std::invalid_argument& e) {
    // Say whose fault it is: the file's own config, or what the caller replaced in it.
    try {
      Config::from_json(file_cfg);
    } catch (const std::invalid_argument& own) {
      throw std::invalid_argument(std::string("model file: its config is not valid: ") + own.what());
    }
    throw;
  }
  std::unique_ptr<Session> s(new Session(c, std::move(task)));
  ParamStore& ps = s->model_->params();
  auto fill = [&](const std::string& name, const ParamInfo& p, float* dst, bool required, bool non_negative = false) {
    const NamedTensor* t = f.find(name);
    if (!t) {
      if (required) throw std::invalid_argument("model file: tensor '" + name + "' is missing");
      return;
    }
    std::vector<int64_t> want(p.shape.begin(), p.shape.end());
    if (t->shape != want) {
      throw std::invalid_argument("model file: tensor '" + name + "' has shape " + nlohmann::json(t->shape).dump() +
                                  " but this config needs " + nlohmann::json(want).dump());
    }
    for (float x : t->data) {
      if (!std::isfinite(x))
        throw std::invalid_argument("model file: tensor '" + name + "' holds NaN or infinite values");
      if (non_negative && x < 0)  // a second moment below 0 would make the next update NaN
        throw std::invalid_argument("model file: tensor '" + name + "' holds negative values; it must be >= 0");
    }
    std::copy(t->data.begin(), t->data.end(), dst);
  };
  size_t known = 0;
  for (auto& p : ps.infos()) fill(p.name, p, ps.all_data().data() + p.offset, true), ++known;
  for (auto& p : ps.infos()) {
    known += f.find("optimizer.exp_avg." + p.name) != nullptr;
    known += f.find("optimizer.exp_avg_sq." + p.name) != nullptr;
    fill("optimizer.exp_avg." + p.name, p, s->opt_->m.data() + p.offset, false);
    fill("optimizer.exp_avg_sq." + p.name, p, s->opt_->v.data() + p.offset, false, true);
  }
  if (known != f.tensors.size())
    for (auto& t : f.tensors) {
      const std::string& n = t.name;
      std::string param = n;
      for (const char* pre : {"optimizer.exp_avg.", "optimizer.exp_avg_sq."})
        if (n.rfind(pre, 0) == 0) param = n.substr(std::string(pre).size());
      if (ps.find(param) < 0)
        throw std::invalid_argument("model file: tensor " + show_text(n) + " is not part of a " + s->cfg_.position +
                                    " model of this config");
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
