// core/config/config.cpp — the field table of Config and everything driven by it: JSON in and
// out, --set, validation with messages that name the field, the value and what is allowed.
#include "config/config.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <variant>

#include "refusal/refusal.hpp"
#include "normalization/normalization.hpp"
#include "io/json.hpp"
#include "position/position.hpp"
#include "tasks/task.hpp"

namespace ap {

namespace {

using Member = std::variant<int Config::*, float Config::*, bool Config::*, std::string Config::*, int64_t Config::*>;
struct Field {
  const char* name;
  Member member;
  double min, max;                   // numbers
  std::vector<std::string> choices;  // fixed enums (registry names are checked separately)
  Doc help;                          // common/doc.hpp: empty in the wasm builds
};

const std::vector<Field>& fields() {
  static const std::vector<Field> table = {
      {"task", &Config::task, 0, 0, {}, "the task the model learns (see `attnplay list tasks`)"},
      {"position", &Config::position, 0, 0, {}, "position encoding"},
      {"placement",
       &Config::placement,
       0,
       0,
       {"embed", "layerwise"},
       "absolute encodings: add once at the embedding, or at every block's input"},
      {"normalization", &Config::normalization, 0, 0, {}, "attention normalization"},
      {"anchors",
       &Config::anchors,
       0,
       0,
       {"none", "cls", "cls_sep", "bos"},
       "distinguished tokens added to every sequence"},
      {"d_model", &Config::d_model, 1, 1024, {}, "width of the residual stream"},
      {"heads", &Config::heads, 1, 64, {}, "attention heads (must divide d_model)"},
      {"layers", &Config::layers, 1, 16, {}, "transformer blocks"},
      {"ffn", &Config::ffn, 1, 8192, {}, "hidden width of the feed-forward layer"},
      {"activation", &Config::activation, 0, 0, {"gelu", "gelu_erf", "relu"}, "FFN activation"},
      {"layernorm", &Config::layernorm, 0, 0, {"pre", "post"}, "LayerNorm before or after each sublayer"},
      {"causal", &Config::causal, 0, 1, {}, "decoder (causal mask) or encoder (bidirectional)"},
      {"pool", &Config::pool, 0, 0, {"mean", "cls"}, "per-sequence tasks: mean-pool or the [CLS] token"},
      {"dropout", &Config::dropout, 0, 0.95, {}, "residual dropout probability"},
      {"attn_dropout", &Config::attn_dropout, 0, 0.95, {}, "attention-weight dropout probability"},
      {"softcap",
       &Config::softcap,
       0,
       1000,
       {},
       "logit soft cap c: the logits become c·tanh(s/c) before the normalization (0 = off; "
       "normalizations that form logits only)"},
      {"seq_len", &Config::seq_len, 1, 4096, {}, "training sequence length"},
      {"eval_len", &Config::eval_len, 0, 16384, {}, "evaluation length (0 = seq_len)"},
      {"max_len", &Config::max_len, 0, 16384, {}, "learned position table size (0 = training length)"},
      {"batch", &Config::batch, 1, 4096, {}, "sequences per step"},
      {"steps", &Config::steps, 0, 10000000, {}, "training steps"},
      {"lr", &Config::lr, 1e-7, 1, {}, "peak learning rate"},
      {"warmup", &Config::warmup, 0, 10000000, {}, "linear warmup steps"},
      {"schedule", &Config::schedule, 0, 0, {"constant", "linear", "cosine"}, "decay after warmup"},
      {"schedule_start",
       &Config::schedule_start,
       0,
       10000000,
       {},
       "the step the warmup and the decay count from (0 = the first; a fine-tune restarts the schedule at the "
       "step it resumes from; before it the rate is lr)"},
      {"weight_decay", &Config::weight_decay, 0, 1, {}, "AdamW decoupled weight decay"},
      {"clip", &Config::clip, 0, 1e6, {}, "global gradient-norm clip (0 = off)"},
      {"beta1", &Config::beta1, 0, 0.9999, {}, "AdamW β1"},
      {"beta2", &Config::beta2, 0, 0.999999, {}, "AdamW β2"},
      {"eps", &Config::eps, 1e-12, 1e-2, {}, "AdamW ε"},
      {"seed", &Config::seed, 0, 4294967295.0, {}, "random seed (weights, data, dropout)"},
      {"eval_every", &Config::eval_every, 0, 10000000, {}, "steps between evaluations (0 = never)"},
      {"eval_batches", &Config::eval_batches, 1, 1000, {}, "held-out batches per evaluation"},
      {"memory_limit_mb", &Config::memory_limit_mb, 1, 65536, {}, "refuse configs whose memory estimate exceeds this"},
  };
  return table;
}

const std::string& current_name(const std::string& key) {
  for (auto& [old_name, name] : renamed_fields())
    if (key == old_name) return name;
  return key;
}

const Field* find_field(const std::string& key) {
  for (auto& f : fields())
    if (current_name(key) == f.name) return &f;
  return nullptr;
}

// The declared option with this key in any position or normalization entry, or null.
const OptionSpec* find_option(const std::string& key) {
  for (auto& e : position_registry())
    for (auto& o : e.options)
      if (o.key == key) return &o;
  for (auto& e : normalization_registry())
    for (auto& o : e.options)
      if (o.key == key) return &o;
  return nullptr;
}

// The first task that declares the option `key`, and its spec; {null, null} when none does.
std::pair<const TaskEntry*, const OptionSpec*> find_task_option(const std::string& key) {
  for (auto& t : task_registry())
    if (const OptionSpec* o = find_spec(t.options, key)) return {&t, o};
  return {nullptr, nullptr};
}

bool is_task_option(const std::string& key) { return find_task_option(key).second != nullptr; }

std::string kind_of(const Member& m) {
  switch (m.index()) {
    case 0:
    case 4:
      return "int";
    case 1:
      return "float";
    case 2:
      return "bool";
    default:
      return "string";
  }
}

[[noreturn]] void unknown_field(const std::string& key) {
  std::vector<std::string> names;
  for (auto& f : fields()) names.push_back(f.name);
  refuse("config.unknown_field", key, {{"name", show_text(key)}, {"fields", join_names(names)}});
}

std::string float_text(float x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.7g", double(x));
  return buf;
}

// A value in a message: cut to ~60 characters, never a recursive dump of a whole tree.
std::string show(const nlohmann::json& v) { return show_value(v); }

// whole: the field holds whole numbers ("allowed: a whole number from ..."), else any number.
[[noreturn]] void out_of_range(const std::string& key, const std::string& value, const Field& f, bool whole) {
  refuse(whole ? "config.out_of_range_int" : "config.out_of_range", key,
         {{"value", value}, {"min", num_text(f.min)}, {"max", num_text(f.max)}});
}

// A task option's value must have its declared kind (vocab: a whole number, ...); its range is
// the task's to check (tasks share "vocab" with different ranges), when the task is built.
void check_task_option(const std::string& key, const nlohmann::json& v) {
  auto [t, o] = find_task_option(key);
  if (!o) return;
  const char* code = nullptr;
  if (o->kind == "bool" && !v.is_boolean()) code = "config.task_option_not_bool";
  if (o->kind == "string" && !v.is_string()) code = "config.task_option_not_string";
  if (o->kind == "int" &&
      !(v.is_number() && std::isfinite(v.get<double>()) && std::floor(v.get<double>()) == v.get<double>()))
    code = "config.task_option_not_int";
  if (o->kind == "float" && !(v.is_number() && std::isfinite(v.get<double>()))) code = "config.task_option_not_number";
  if (code) refuse(code, key, {{"value", show(v)}, {"task", t->name}});
}

// Assign one JSON value to the field or option `key`, checking its type (not its range).
void assign(Config& c, const std::string& key_as_given, const nlohmann::json& v) {
  const std::string& key = current_name(key_as_given);
  if (const Field* f = find_field(key)) {
    auto bad = [&](const char* code) { refuse(code, key, {{"value", show(v)}}); };
    std::visit(
        [&](auto member) {
          using T = std::decay_t<decltype(c.*member)>;
          if constexpr (std::is_same_v<T, bool>) {
            if (!v.is_boolean()) bad("config.not_bool");
            c.*member = v.get<bool>();
          } else if constexpr (std::is_same_v<T, std::string>) {
            if (!v.is_string()) bad("config.not_string");
            c.*member = v.get<std::string>();
          } else if constexpr (std::is_integral_v<T>) {
            if (!v.is_number() || std::floor(v.get<double>()) != v.get<double>()) bad("config.not_int");
            double d = v.get<double>();
            if (d < f->min || d > f->max) out_of_range(key, show(v), *f, true);
            c.*member = T(d);
          } else {
            if (!v.is_number() || !std::isfinite(v.get<double>())) bad("config.not_finite");
            double d = v.get<double>();
            if (d < f->min || d > f->max) out_of_range(key, show(v), *f, false);
            c.*member = float(d);
          }
        },
        f->member);
    return;
  }
  if (const OptionSpec* o = find_option(key)) {
    o->check(v);  // also when its entry is not the one chosen: a bad value is never kept
    c.options[key] = v;
    return;
  }
  if (is_task_option(key)) {
    check_task_option(key, v);
    c.options[key] = v;
    return;
  }
  unknown_field(key);
}

nlohmann::json parse_text(const std::string& key, const std::string& text) {
  if (const Field* f = find_field(key)) {
    std::string kind = kind_of(f->member);
    if (kind == "string") return text;
    OptionSpec as{key, kind == "bool" ? "bool" : kind, nullptr, f->min, f->max, {}, ""};
    return as.parse(text);
  }
  if (const OptionSpec* o = find_option(key)) return o->parse(text);
  if (const OptionSpec* o = find_task_option(key).second) return o->parse(text);  // its kind
  unknown_field(key);
}

}  // namespace

void check_fields(const Config& c) {
  for (auto& f : fields())
    std::visit(
        [&](auto member) {
          using T = std::decay_t<decltype(c.*member)>;
          const T& v = c.*member;
          if constexpr (std::is_same_v<T, std::string>) {
            if (f.choices.empty()) return;  // registry names: checked by their find_*()
            for (auto& ch : f.choices)
              if (ch == v) return;
            refuse("config.not_choice", f.name, {{"value", show_text(v)}, {"choices", join_names(f.choices)}});
          } else if constexpr (!std::is_same_v<T, bool>) {
            const double d = double(v);
            if (std::isnan(d)) refuse("config.nan", f.name);
            if (d < f.min || d > f.max)
              out_of_range(f.name, std::is_integral_v<T> ? std::to_string(v) : float_text(float(v)), f,
                           std::is_integral_v<T>);
          }
        },
        f.member);
}

nlohmann::json with_current_names(const nlohmann::json& j) {
  if (!j.is_object()) return j;
  nlohmann::json out = j;
  for (auto& [old_name, name] : renamed_fields()) {
    if (!out.contains(old_name)) continue;
    if (!out.contains(name)) out[name] = out[old_name];  // the new name wins when both are given
    out.erase(old_name);
  }
  return out;
}

Config Config::parse(const nlohmann::json& given) {
  if (!given.is_object()) refuse("config.not_object", "");
  const nlohmann::json j = with_current_names(given);
  Config c;
  if (j.contains("task")) assign(c, "task", j["task"]);
  const TaskEntry& task = find_task(c.task);
  const nlohmann::json defaults = task_defaults(task);  // kept alive through the loop
  for (auto& [k, v] : defaults.items()) assign(c, k, v);
  for (auto& [k, v] : j.items()) assign(c, k, v);
  return c;
}

Config Config::from_json(const nlohmann::json& j) {
  Config c = parse(j);
  c.validate();
  return c;
}

ModelChoices Config::choices() const {
  auto pick = [](const std::string& field, const std::string& value, auto... named) {
    for (auto& [name, e] : {named...})
      if (value == name) return e;
    refuse("internal.not_validated", field, {{"value", value}});
  };
  using P = std::pair<const char*, Placement>;
  using N = std::pair<const char*, LayerNormAt>;
  using A = std::pair<const char*, Activation>;
  using Q = std::pair<const char*, Pool>;
  return {pick("placement", placement, P{"embed", Placement::Embed}, P{"layerwise", Placement::Layerwise}),
          pick("layernorm", layernorm, N{"pre", LayerNormAt::Pre}, N{"post", LayerNormAt::Post}),
          pick("activation", activation, A{"gelu", Activation::Gelu}, A{"gelu_erf", Activation::GeluErf},
               A{"relu", Activation::Relu}),
          pick("pool", pool, Q{"mean", Pool::Mean}, Q{"cls", Pool::Cls})};
}

nlohmann::json Config::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (auto& f : fields())
    std::visit(
        [&](auto member) {
          if constexpr (std::is_same_v<std::decay_t<decltype(this->*member)>, float>)
            j[f.name] = std::stod(float_text(this->*member));  // 0.9, not 0.8999999761581421
          else
            j[f.name] = this->*member;
        },
        f.member);
  for (auto& [k, v] : options.items()) j[k] = v;
  return j;
}

void Config::set(const std::string& key, const std::string& value) {
  if (key == "task") {  // a new task brings its defaults, as from_json does
    find_task(value);
    task = value;
    const nlohmann::json defaults = task_defaults(find_task(value));
    for (auto& [k, v] : defaults.items()) assign(*this, k, v);
    return;
  }
  assign(*this, key, parse_text(key, value));
}

int Config::anchor_count() const {
  if (anchors == "cls_sep") return 2;
  return anchors == "none" ? 0 : 1;
}

nlohmann::json config_value(const std::string& key, const std::string& text) { return parse_text(key, text); }

std::pair<std::string, std::string> split_assignment(const std::string& kv) {
  auto eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) refuse("config.not_assignment", "", {{"text", show_text(kv)}});
  return {kv.substr(0, eq), kv.substr(eq + 1)};
}

// The one table of renamed fields (config.hpp). `layernorm` was `norm_position` (it places the
// LayerNorm, not a position encoding).
const std::vector<std::pair<std::string, std::string>>& renamed_fields() {
  static const std::vector<std::pair<std::string, std::string>> table = {{"norm_position", "layernorm"}};
  return table;
}

nlohmann::json renamed_json() {
  nlohmann::json out = nlohmann::json::object();
  for (auto& [old_name, name] : renamed_fields()) out[old_name] = name;
  return out;
}

nlohmann::json config_schema() {
  nlohmann::json out = nlohmann::json::array();
  Config d;
  for (auto& f : fields()) {
    nlohmann::json e{{"key", f.name}, {"kind", kind_of(f.member)}, {"help", f.help.c_str()}};
    std::visit([&](auto m) { e["default"] = d.*m; }, f.member);
    if (e["kind"] == "int" || e["kind"] == "float") e["min"] = f.min, e["max"] = f.max;
    if (!f.choices.empty()) e["kind"] = "enum", e["choices"] = f.choices;
    out.push_back(e);
  }
  return out;
}

}  // namespace ap
