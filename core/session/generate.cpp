// core/session/generate.cpp — generation from a trained model (seed 003 §4.4: a character
// model continues a prompt, sampling with a temperature).
//   next-token tasks: x_{t+1} ~ softmax(logits_t / temperature) restricted to the top k,
//     fed back; the context slides (oldest tokens dropped, anchors kept) once it reaches the
//     longest length the position encoding can address.
//   answer-slot tasks: prompt + max_new slots "_", one forward; each slot's output is sampled.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "io/json.hpp"
#include "session/inspect.hpp"
#include "session/json.hpp"
#include "session/session.hpp"

namespace ap {

namespace {

// Index drawn from probabilities p^(1/temperature) over the top_k largest (greedy at 0).
int sample(const float* p, int O, float temperature, int top_k, Rng& rng) {
  if (temperature <= 0.0f) return int(std::max_element(p, p + O) - p);
  std::vector<int> idx(O);
  std::iota(idx.begin(), idx.end(), 0);
  const int k = top_k > 0 ? std::min(top_k, O) : O;
  std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), [&](int a, int b) { return p[a] > p[b]; });
  std::vector<double> w(k);
  double total = 0;
  for (int i = 0; i < k; ++i) total += w[i] = std::pow(std::max(double(p[idx[i]]), 1e-30), 1.0 / temperature);
  double r = rng.uniform() * total;
  for (int i = 0; i < k; ++i)
    if ((r -= w[i]) <= 0) return idx[i];
  return idx[k - 1];
}

}  // namespace

// Session::tokenize (prompt text to ids): tokenize.cpp.

nlohmann::json Inspector::generate(const std::vector<int32_t>& prompt, int max_new, float temperature, int top_k,
                                   uint64_t seed) {
  const Config& cfg = s_.config();
  Transformer& model = s_.model();
  const Task& task = s_.task();
  const int V = task.vocab_size(), O = model.shape().O, slot = task.answer_slot();
  if (max_new < 1 || max_new > 4096) throw std::invalid_argument("tokens: must be from 1 to 4096");
  if (!(temperature >= 0.0f && temperature <= 100.0f))
    throw std::invalid_argument("temperature: must be from 0 (greedy) to 100");
  if (top_k < 0) throw std::invalid_argument("top_k: must be 0 (all) or a positive count");
  for (int id : prompt)
    if (id < 0 || id >= V)
      throw std::invalid_argument("prompt: token id " + std::to_string(id) + " is outside the vocabulary");
  if (task.per_sequence())
    throw std::invalid_argument("generate: task " + cfg.task + " labels whole sequences; there is nothing to continue");
  const bool next_token = slot < 0;
  if (next_token && !cfg.causal)
    throw std::invalid_argument(
        "generate: this model is bidirectional (causal=false), so it was never trained to "
        "predict the next token; train a causal model to generate");
  if (next_token && O != V)
    throw std::invalid_argument("generate: task " + cfg.task + " predicts labels, not next tokens");
  // Anchor prefix (and [SEP] suffix for slot tasks), as in make_batch.
  std::vector<int32_t> prefix;
  if (cfg.anchors != "none") prefix.push_back(V);
  const int limit = model.position().max_length();
  const int suffix = cfg.anchors == "cls_sep" ? 1 : 0;
  const int needed = int(prefix.size() + prompt.size()) + (next_token ? 0 : max_new) + suffix;
  if (limit >= 0 && (next_token ? int(prefix.size() + prompt.size()) : needed) > limit)
    throw std::invalid_argument("prompt: " + std::to_string(prompt.size()) + " tokens" +
                                (next_token ? "" : " plus " + std::to_string(max_new) + " answer slots") +
                                " exceed the " + std::to_string(limit) + " positions the learned encoding can address");
  if (prompt.empty() && prefix.empty()) throw std::invalid_argument("prompt: give at least one token");
  Rng rng(seed);
  nlohmann::json out{{"mode", next_token ? "next_token" : "slots"},
                     {"ids", nlohmann::json::array()},
                     {"tokens", nlohmann::json::array()},
                     {"probs", nlohmann::json::array()}};
  std::string text;
  const bool char_vocab = next_token && [&] {
    for (int i = 0; i < V; ++i)
      if (task.token_text(i) == " ") return true;
    return false;
  }();
  auto emit = [&](const float* p) {
    // Weights that are finite but huge can overflow the forward: no token can be chosen then.
    if (!std::all_of(p, p + O, [](float x) { return std::isfinite(x); }))
      throw std::invalid_argument(
          "generate: the model's output probabilities are NaN or infinite (its weights "
          "overflow the forward pass), so no token can be chosen; retrain or load another model");
    int c = sample(p, O, temperature, top_k, rng);
    out["ids"].push_back(c);
    out["tokens"].push_back(task.class_name(c));
    out["probs"].push_back(p[c]);
    // Character vocabularies join with nothing, token vocabularies with spaces.
    const std::string piece = next_token && c < V ? task.token_text(c) : task.class_name(c);
    text += (text.empty() || char_vocab ? "" : " ") + piece;
    return c;
  };
  if (!next_token) {
    std::vector<int32_t> ids = prefix;
    ids.insert(ids.end(), prompt.begin(), prompt.end());
    const int first = int(ids.size());
    ids.insert(ids.end(), max_new, slot);
    if (suffix) ids.push_back(V + 1);
    check_forward_memory(cfg, 1, int(ids.size()), "prompt");  // a long prompt is not cut here
    model.forward(ids.data(), 1, int(ids.size()), nullptr, nullptr, false, nullptr);
    for (int i = 0; i < max_new; ++i) emit(&model.probs()[size_t(first + i) * O]);
  } else {
    const int window = limit >= 0 ? limit : std::max(4 * cfg.model_len(), int(prefix.size() + prompt.size()));
    check_forward_memory(cfg, 1, window, "prompt");  // the first window holds the whole prompt
    std::vector<int32_t> ctx(prompt.begin(), prompt.end());
    for (int i = 0; i < max_new; ++i) {
      const int keep = window - int(prefix.size());
      std::vector<int32_t> ids = prefix;
      ids.insert(ids.end(), ctx.end() - std::min<int>(int(ctx.size()), keep), ctx.end());
      model.forward(ids.data(), 1, int(ids.size()), nullptr, nullptr, false, nullptr);
      ctx.push_back(emit(&model.probs()[size_t(ids.size() - 1) * O]));
    }
  }
  out["text"] = utf8_repaired(text);  // bytes sampled one by one may split a character
  return out;
}

}  // namespace ap
