// core/torch/export.cpp — assembles an exported model's Python file (export.hpp): the docstring,
// the loader and bases (core_py.cpp), the constants of this config, the classes of its position
// encoding and normalization (their entries' PyTorch forms, filled by snippet.cpp), the model and
// the stored batch.
// What becomes text: registry names, numbers through py_num, token ids — never a user string.
#include "torch/export.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "common/params.hpp"
#include "refusal/refusal.hpp"
#include "config/variants.hpp"
#include "torch/core_py.hpp"
#include "torch/snippet.hpp"

namespace ap {

namespace {

// The weights that the fixed Model does not declare (position and normalization parameters).
bool standard_param(const std::string& name) {
  static const char* const top[] = {"tok_emb.weight", "ln_f.weight", "ln_f.bias", "head.weight", "head.bias"};
  for (const char* t : top)
    if (name == t) return true;
  if (name.rfind("blocks.", 0) != 0) return false;
  const size_t dot = name.find('.', 7);
  if (dot == std::string::npos) return false;
  const std::string rest = name.substr(dot + 1);
  static const char* const in_block[] = {"ln1.weight",      "ln1.bias",      "ln2.weight",       "ln2.bias",
                                         "attn.qkv.weight", "attn.qkv.bias", "attn.proj.weight", "attn.proj.bias",
                                         "mlp.fc.weight",   "mlp.fc.bias",   "mlp.proj.weight",  "mlp.proj.bias"};
  for (const char* t : in_block)
    if (rest == t) return true;
  return false;
}

// A parameter name goes into the file as a string literal: only the engine's own names, which
// are dotted identifiers; anything else is refused rather than quoted.
void check_name(const std::string& name) {
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) refuse("torch.bad_parameter_name", "");
}

template <class T>
std::string int_rows(const std::vector<T>& v, int rows, int cols) {
  std::string s = "[\n";
  for (int r = 0; r < rows; ++r) {
    s += "    [";
    for (int c = 0; c < cols; ++c) s += (c ? ", " : "") + std::to_string(int(v[size_t(r) * cols + c]));
    s += "],\n";
  }
  return s + "]";
}

// Floats as the shortest literals that read back to the same float32 (%.9g), `cols` a line.
std::string float_rows(const std::vector<float>& v, int cols) {
  std::string s = "[";
  char buf[24];
  for (size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) refuse("torch.tensor_not_finite", "");
    std::snprintf(buf, sizeof buf, "%.9g", double(v[i]));
    s += (i == 0 ? "" : i % size_t(cols) == 0 ? ",\n        " : ", ") + std::string(buf);
  }
  return s + "]";
}

std::string int_list(const std::vector<int32_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

}  // namespace

namespace {
// The module docstring, this config's constants and the stored batch (templates of fill, snippet.hpp).
const char* const kHead = R"PY(#!/usr/bin/env python3
"""A model trained in Attention Playground (${engine}), as a PyTorch module.

Task ${task}, position encoding ${position}, normalization ${normalization}, ${layers} layers, d_model ${d_model}, ${heads} heads, step ${step}.
Written by `attnplay export-torch` (or the playground's Export -> PyTorch); needs only torch.

    python3 model.py [model.safetensors]   # evaluates the held-out batch stored below: one JSON line;
                                           # without a path, the model file beside this one (main)
    from model import Model; m = Model.load("model.safetensors"); logits = m(inputs)

inputs are (B, T) int64 token ids, anchors included (docs/model-format.md). Dropout is not
part of this module (evaluation mode).
"""
)PY";
const char* const kConstants = R"PY(
D_MODEL, HEADS, LAYERS, FFN = ${d_model}, ${heads}, ${layers}, ${ffn}
VOCAB, CLASSES = ${vocab}, ${classes}  # input ids (anchors included), outputs
CAUSAL, PRE_NORM, PER_SEQUENCE = ${causal}, ${pre_norm}, ${per_sequence}
ACTIVATION = "${activation}"  # gelu (tanh form) | gelu_erf | relu
POOL = "${pool}"  # per-sequence tasks: mean over T (anchors included) or position 0
SOFTCAP = ${softcap}  # logit soft cap c (0 = off)
TRAIN_LEN = ${train_len}  # training length, anchors included
TAU = ${tau}  # the scale of q.k
EXTRA_PARAMETERS = [  # beyond the blocks: the position encoding's and normalization's
)PY";
const char* const kBatch = R"PY(

# ---- one held-out batch (token ids, anchors included) and the engine's result on it
BATCH_INPUTS = ${inputs}
BATCH_TARGETS = ${targets}
BATCH_MASK = ${mask}
ENGINE_LOSS, ENGINE_ACCURACY, STEP = ${loss}, ${accuracy}, ${step}
)PY";
}  // namespace

std::string torch_export(const TorchExport& in) {
  const Config& cfg = *in.cfg;
  const PositionEntry& pe = find_position(cfg.position);
  const NormalizationEntry& ne = find_normalization(cfg.normalization);
  ParamStore scratch;  // τ as the engine computes it (Normalization::scale)
  const float tau = make_variant(ne, cfg, scratch)->scale(cfg.d_model / cfg.heads);
  const ModelChoices ch = cfg.choices();

  std::string py = fill(kHead, {{"engine", in.engine},
                                {"task", cfg.task},
                                {"position", pe.name},
                                {"normalization", ne.name},
                                {"layers", cfg.layers},
                                {"d_model", cfg.d_model},
                                {"heads", cfg.heads},
                                {"step", in.step}});
  py += kTorchLoaderPy;
  const char* activation = ch.activation == Activation::Relu      ? "relu"
                           : ch.activation == Activation::GeluErf ? "gelu_erf"
                                                                  : "gelu";
  py += fill(kConstants, {{"d_model", cfg.d_model},
                          {"heads", cfg.heads},
                          {"layers", cfg.layers},
                          {"ffn", cfg.ffn},
                          {"vocab", in.V},
                          {"classes", in.O},
                          {"causal", cfg.causal},
                          {"pre_norm", ch.layernorm == LayerNormAt::Pre},
                          {"per_sequence", in.per_sequence},
                          {"activation", activation},
                          {"pool", ch.pool == Pool::Cls ? "cls" : "mean"},
                          {"softcap", double(cfg.softcap)},
                          {"train_len", cfg.model_len()},
                          {"tau", double(tau)}});
  for (const ParamInfo& p : *in.params) {
    check_name(p.name);
    if (standard_param(p.name)) continue;
    py += "    (\"";
    py += p.name;
    py += "\", (";
    for (int d : p.shape) py += std::to_string(d) + ",";
    py += ")),\n";
  }
  py += "]\nFIXED_TENSORS = [  # drawn by the engine, not parameters: name, shape, values\n";
  for (const FixedTensor& t : in.fixed) {
    check_name(t.name);
    py += "    (\"" + t.name + "\", (";
    for (int d : t.shape) py += std::to_string(d) + ",";
    py += "), " + float_rows(t.values, t.shape.empty() ? 1 : t.shape.back()) + "),\n";
  }
  py += "]\n";
  py += kTorchBasesPy;
  const std::string pos_py = torch_entry_python(true, pe.name, pe.torch, make_context(cfg, pe.options));
  const std::string norm_py = torch_entry_python(false, ne.name, ne.torch, make_context(cfg, ne.options));
  py += fill(
      "\n# ---- position encoding: ${position} (core/position/${position}.cpp)\n${position_py}\n\n\n"
      "# ---- normalization: ${normalization} (core/normalization/${normalization}.cpp)\n${normalization_py}\n",
      {{"position", pe.name}, {"position_py", pos_py}, {"normalization", ne.name}, {"normalization_py", norm_py}});
  py += kTorchModelPy;
  // The stored batch, before the main guard that reads it.
  const std::string inputs = int_rows(in.inputs, in.B, in.T);
  const std::string targets = in.per_sequence ? int_list(in.targets) : int_rows(in.targets, in.B, in.T);
  const std::string mask = in.mask.empty() ? std::string("None") : int_rows(in.mask, in.B, in.T);
  const std::string batch = fill(kBatch, {{"inputs", inputs},
                                          {"targets", targets},
                                          {"mask", mask},
                                          {"loss", double(in.loss)},
                                          {"accuracy", double(in.accuracy)},
                                          {"step", in.step}});
  const size_t at = py.rfind("\n\nif __name__ == \"__main__\":");
  py.insert(at == std::string::npos ? py.size() : at, batch);
  return py;
}

}  // namespace ap
