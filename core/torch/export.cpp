// core/torch/export.cpp — assembles an exported model's Python file (export.hpp): the docstring,
// the loader and bases (core_py.cpp), the constants of this config, the snippets of its position
// encoding and normalization (positions.cpp, normalizations.cpp), the model and the stored batch.
// What becomes text: registry names, numbers through py_num, token ids — never a user string.
#include "torch/export.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "common/params.hpp"
#include "config/variants.hpp"
#include "torch/core_py.hpp"
#include "torch/snippet.hpp"

namespace ap {

std::string py_num(double x) {
  if (!std::isfinite(x)) throw std::invalid_argument("export-torch: a value of the config is not finite");
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";  // a float literal
  return s;
}

std::string py_list(const std::vector<double>& xs) {
  std::string s = "[";
  for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + py_num(xs[i]);
  return s + "]";
}

namespace {

const TorchSnippet* find_snippet(const std::vector<TorchSnippet>& table, const std::string& name) {
  for (const auto& s : table)
    if (name == s.name) return &s;
  return nullptr;
}

std::string names_of(const std::vector<TorchSnippet>& table) {
  std::string s;
  for (const auto& e : table) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s;
}

// The weights that the fixed Model does not declare (position and normalization parameters).
bool standard_param(const std::string& name) {
  static const char* const top[] = {"tok_emb.weight", "ln_f.weight", "ln_f.bias", "head.weight", "head.bias"};
  for (const char* t : top)
    if (name == t) return true;
  if (name.rfind("blocks.", 0) != 0) return false;
  const size_t dot = name.find('.', 7);
  if (dot == std::string::npos) return false;
  const std::string rest = name.substr(dot + 1);
  static const char* const in_block[] = {"ln1.weight", "ln1.bias", "ln2.weight", "ln2.bias",
                                         "attn.qkv.weight", "attn.qkv.bias", "attn.proj.weight",
                                         "attn.proj.bias", "mlp.fc.weight", "mlp.fc.bias",
                                         "mlp.proj.weight", "mlp.proj.bias"};
  for (const char* t : in_block)
    if (rest == t) return true;
  return false;
}

// A parameter name goes into the file as a string literal: only the engine's own names, which
// are dotted identifiers; anything else is refused rather than quoted.
void check_name(const std::string& name) {
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'))
      throw std::invalid_argument("export-torch: parameter name with an unexpected character");
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

std::string int_list(const std::vector<int32_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

}  // namespace

std::vector<std::string> torch_exportable(bool positions) {
  std::vector<std::string> out;
  for (const auto& s : positions ? torch_position_snippets() : torch_normalization_snippets()) out.push_back(s.name);
  return out;
}

std::string torch_export(const TorchExport& in) {
  const Config& cfg = *in.cfg;
  const PositionEntry& pe = find_position(cfg.position);
  const NormalizationEntry& ne = find_normalization(cfg.normalization);
  const TorchSnippet* ps = find_snippet(torch_position_snippets(), pe.name);
  if (!ps)
    throw std::invalid_argument(std::string("export-torch: the position encoding '") + pe.name +
                                "' cannot be exported to PyTorch (it has no snippet in core/torch/positions.cpp); "
                                "these export: " + names_of(torch_position_snippets()));
  const TorchSnippet* ns = find_snippet(torch_normalization_snippets(), ne.name);
  if (!ns)
    throw std::invalid_argument(std::string("export-torch: the normalization '") + ne.name +
                                "' cannot be exported to PyTorch (it has no snippet in core/torch/normalizations.cpp); "
                                "these export: " + names_of(torch_normalization_snippets()));
  const std::string pos_py = ps->python(make_context(cfg, pe.options));
  const std::string norm_py = ns->python(make_context(cfg, ne.options));
  ParamStore scratch;  // τ as the engine computes it (Normalization::scale)
  const float tau = make_variant(ne, cfg, scratch)->scale(cfg.d_model / cfg.heads);

  const ModelChoices ch = cfg.choices();
  std::ostringstream py;
  py << "#!/usr/bin/env python3\n"
     << "\"\"\"A model trained in Attention Playground (" << in.engine << "), as a PyTorch module.\n\n"
     << "Task " << cfg.task << ", position encoding " << pe.name << ", normalization " << ne.name << ", "
     << cfg.layers << " layers, d_model " << cfg.d_model << ", " << cfg.heads << " heads, "
     << (cfg.causal ? "causal" : "bidirectional") << ", " << cfg.norm_position << "-norm; step " << in.step
     << ".\nWritten by `attnplay export-torch` (or the playground's Export -> PyTorch); needs only torch.\n\n"
     << "    python3 model.py model.safetensors   # evaluates the held-out batch stored below: one JSON line\n"
     << "    from model import Model; m = Model.load(\"model.safetensors\"); logits = m(inputs)\n\n"
     << "inputs are (B, T) int64 token ids, anchors included (docs/model-format.md). Dropout is not\n"
     << "part of this module (evaluation mode).\n\"\"\"\n"
     << kTorchLoaderPy
     << "D_MODEL, HEADS, LAYERS, FFN = " << cfg.d_model << ", " << cfg.heads << ", " << cfg.layers << ", " << cfg.ffn << "\n"
     << "VOCAB, CLASSES = " << in.V << ", " << in.O << "  # input ids (anchors included), outputs\n"
     << "CAUSAL = " << py_bool(cfg.causal) << "\n"
     << "PRE_NORM = " << py_bool(ch.norm_position == NormPosition::Pre) << "\n"
     << "ACTIVATION = \"" << (ch.activation == Activation::Relu ? "relu" : ch.activation == Activation::GeluErf ? "gelu_erf" : "gelu") << "\"\n"
     << "PER_SEQUENCE = " << py_bool(in.per_sequence) << "\n"
     << "POOL = \"" << (ch.pool == Pool::Cls ? "cls" : "mean") << "\"  # per-sequence tasks: mean over T (anchors included) or position 0\n"
     << "SOFTCAP = " << py_num(cfg.softcap) << "  # logit soft cap c (0 = off)\n"
     << "TRAIN_LEN = " << cfg.model_len() << "  # training length, anchors included\n"
     << "TAU = " << py_num(tau) << "  # the scale of q.k\n"
     << "EXTRA_PARAMETERS = [  # beyond the blocks: the position encoding's and normalization's\n";
  for (const auto& [name, shape] : in.params) {
    check_name(name);
    if (standard_param(name)) continue;
    py << "    (\"" << name << "\", (";
    for (size_t d : shape) py << d << ",";
    py << ")),\n";
  }
  py << "]\n" << kTorchBasesPy;
  py << "\n# ---- position encoding: " << pe.name << " (core/torch/positions.cpp)\n" << pos_py;
  py << "\n\n# ---- normalization: " << ne.name << " (core/torch/normalizations.cpp)\n" << norm_py << "\n";
  py << kTorchModelPy;
  // The stored batch goes last, before nothing that reads it at import time.
  std::ostringstream batch;
  batch << "\n\n# ---- one held-out batch (token ids, anchors included) and the engine's result on it\n"
        << "BATCH_INPUTS = " << int_rows(in.inputs, in.B, in.T) << "\n"
        << "BATCH_TARGETS = "
        << (in.per_sequence ? int_list(in.targets) : int_rows(in.targets, in.B, in.T)) << "\n"
        << "BATCH_MASK = " << (in.mask.empty() ? std::string("None") : int_rows(in.mask, in.B, in.T)) << "\n"
        << "ENGINE_LOSS = " << py_num(in.loss) << "\n"
        << "ENGINE_ACCURACY = " << py_num(in.accuracy) << "\n"
        << "STEP = " << in.step << "\n";
  std::string text = py.str();
  // __main__ must come after the batch: insert the batch before the main guard.
  const std::string guard = "\nif __name__ == \"__main__\":";
  const size_t at = text.rfind(guard);
  text.insert(at == std::string::npos ? text.size() : at, batch.str());
  return text;
}

}  // namespace ap
