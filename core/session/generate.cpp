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

#include "refusal/refusal.hpp"
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

// The prompt's length against the `limit` positions the encoding can address (-1: any), with the
// anchors (`prefix` before it, `suffix` after) and, for slot tasks, the max_new answer slots.
void check_prompt_length(size_t prompt, int prefix, int suffix, int max_new, bool next_token, int limit) {
  const int needed = int(prefix + prompt) + (next_token ? 0 : max_new) + suffix;
  if (limit >= 0 && (next_token ? int(prefix + prompt) : needed) > limit) {
    const std::string n = std::to_string(prompt), max = std::to_string(limit);
    if (next_token) refuse("prompt.too_long", "prompt", {{"n", n}, {"max", max}});
    refuse("prompt.too_long_slots", "prompt", {{"n", n}, {"slots", std::to_string(max_new)}, {"max", max}});
  }
  if (prompt == 0 && prefix == 0) refuse("prompt.empty", "prompt");
}

// The settings and the prompt of a generation, checked before anything runs.
void check_request(const Config& cfg, const Task& task, int O, const std::vector<int32_t>& prompt, int max_new,
                   float temperature, int top_k) {
  const int V = task.vocab_size();
  if (max_new < 1 || max_new > 4096) refuse("generate.tokens_range", "tokens", {{"lo", "1"}, {"hi", "4096"}});
  if (!(temperature >= 0.0f && temperature <= 100.0f))
    refuse("generate.temperature_range", "temperature", {{"lo", "0"}, {"hi", "100"}});
  if (top_k < 0) refuse("generate.top_k", "top_k");
  for (int id : prompt)
    if (id < 0 || id >= V) refuse("prompt.token_id", "prompt", {{"id", std::to_string(id)}});
  if (task.per_sequence()) refuse("generate.per_sequence", "", {{"task", cfg.task}});
  const bool next_token = task.answer_slot() < 0;
  if (next_token && !cfg.causal) refuse("generate.bidirectional", "");
  if (next_token && O != V) refuse("generate.labels", "", {{"task", cfg.task}});
}

}  // namespace

// Session::tokenize (prompt text to ids): tokenize.cpp.

nlohmann::json Inspector::generate(const std::vector<int32_t>& prompt, int max_new, float temperature, int top_k,
                                   uint64_t seed) {
  const Config& cfg = s_.config();
  Transformer& model = s_.model();
  const Task& task = s_.task();
  const int V = task.vocab_size(), O = model.shape().O, slot = task.answer_slot();
  check_request(cfg, task, O, prompt, max_new, temperature, top_k);
  const bool next_token = slot < 0;
  // Anchor prefix (and [SEP] suffix for slot tasks), as in make_batch.
  std::vector<int32_t> prefix;
  if (cfg.anchors != "none") prefix.push_back(V);
  const int limit = model.position().max_length();
  const int suffix = cfg.anchors == "cls_sep" ? 1 : 0;
  check_prompt_length(prompt.size(), int(prefix.size()), suffix, max_new, next_token, limit);
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
    if (!std::all_of(p, p + O, [](float x) { return std::isfinite(x); })) refuse("generate.overflow", "");
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
