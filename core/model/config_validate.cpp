// core/model/config_validate.cpp — Config::validate(): every field's range and names, then the
// rules that relate fields to each other. Runs once at every boundary (file, CLI, bindings).
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "attention/normalization.hpp"
#include "model/config.hpp"
#include "position/position.hpp"
#include "tasks/task.hpp"

namespace ap {

namespace {

[[noreturn]] void fail(const std::string& msg) { throw std::invalid_argument(msg); }

void choice(const char* key, const std::string& v, std::vector<std::string> ok) {
  for (auto& c : ok)
    if (c == v) return;
  fail(std::string(key) + ": '" + v + "' is not allowed; expected one of " + join_names(ok));
}

void range(const char* key, double v, double lo, double hi, const char* what = "a value") {
  if (!(v >= lo && v <= hi)) {
    std::ostringstream os;
    os << key << ": " << v << " is out of range; expected " << what << " from " << lo << " to " << hi;
    fail(os.str());
  }
}

}  // namespace

void Config::validate() const {
  const TaskEntry& te = find_task(task);
  const PositionEntry& pe = find_position(position);
  const NormalizationEntry& ne = find_normalization(normalization);
  choice("placement", placement, {"embed", "layerwise"});
  choice("anchors", anchors, {"none", "cls", "cls_sep", "bos"});
  choice("activation", activation, {"gelu", "gelu_erf", "relu"});
  choice("norm_position", norm_position, {"pre", "post"});
  choice("pool", pool, {"mean", "cls"});
  choice("schedule", schedule, {"constant", "linear", "cosine"});
  range("d_model", d_model, 1, 1024, "a size");
  range("heads", heads, 1, 64, "a count");
  range("layers", layers, 1, 16, "a count");
  range("ffn", ffn, 1, 8192, "a size");
  range("batch", batch, 1, 4096, "a size");
  range("lr", lr, 1e-7, 1.0);
  range("dropout", dropout, 0, 0.95);
  range("attn_dropout", attn_dropout, 0, 0.95);
  range("weight_decay", weight_decay, 0, 1);
  range("clip", clip, 0, 1e6);
  if (d_model % heads != 0)
    fail("d_model: " + std::to_string(d_model) + " is not divisible by heads = " +
         std::to_string(heads) + "; choose d_model as a multiple of heads");

  // Registry options: each declared option checks its own value.
  for (auto& [key, value] : options.items()) {
    const OptionSpec* spec = nullptr;
    for (auto& o : pe.options) if (o.key == key) spec = &o;
    for (auto& o : ne.options) if (o.key == key) spec = &o;
    if (spec) spec->check(value);
  }
  // The task checks its own options and lengths.
  auto t = te.make(to_json());
  if (seq_len < t->min_len())
    fail("seq_len: " + std::to_string(seq_len) + " is too short for task " + task +
         "; it needs at least " + std::to_string(t->min_len()));
  if (effective_eval_len() < t->min_len())
    fail("eval_len: " + std::to_string(eval_len) + " is too short for task " + task +
         "; it needs at least " + std::to_string(t->min_len()));

  // Placement applies to absolute encodings only.
  if (placement == "layerwise" && !pe.absolute)
    fail("placement: 'layerwise' applies to absolute encodings (those added to the residual "
         "stream); " + position + " already acts inside every layer, so use placement=embed");
  if (max_len > 0 && max_len < model_len())
    fail("max_len: " + std::to_string(max_len) + " is shorter than the training length " +
         std::to_string(model_len()) + " (seq_len plus anchors)");
  if (pool == "cls" && !(anchors == "cls" || anchors == "cls_sep"))
    fail("pool: 'cls' needs a [CLS] token; set anchors to cls or cls_sep, or use pool=mean");

  // Rules of the entry itself (xpos needs causal=true, ...), declared on the entry.
  if (pe.check) pe.check(*this);

  // Encodings that bias the logits need a normalization that has logits.
  ParamStore scratch;
  auto penc = pe.make(*this, scratch);
  if (penc->biases() && !ne.accepts_bias)
    fail("normalization: " + normalization + " never forms attention logits, so it cannot take "
         "the logit bias of position=" + position + "; choose a logit-based normalization "
         "(softmax, l2, sigmoid, ...) or a position encoding that does not bias the logits");

  double mb = memory_estimate_mb();
  if (mb > memory_limit_mb) {
    std::ostringstream os;
    os << "memory: this config needs about " << std::lround(mb) << " MB, above the limit of "
       << memory_limit_mb << " MB (memory_limit_mb); reduce batch, seq_len, d_model or layers";
    fail(os.str());
  }
}

double Config::memory_estimate_mb() const {
  const double C = d_model, F = ffn, L = layers, B = batch;
  const double T = std::max(model_len(), effective_eval_len() + anchor_count());
  const double V = 256;  // upper bound of the built-in vocabularies for embedding + head
  const double params = 2 * V * C + L * (4 * C * C + 2 * C * F + 9 * C + F) + T * C * L;
  const double acts_per_layer = B * T * (12 * C + 2 * F) + 4 * B * heads * T * T;
  const double floats = 4 * params + L * acts_per_layer + 3 * B * T * V;
  return floats * 4 / (1024.0 * 1024.0);
}

}  // namespace ap
