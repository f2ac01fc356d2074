// core/session/inspect.cpp — what the UI and the CLI look at (Inspector, inspect.hpp): predictions
// on held-out data, attention maps, position-encoding data, hidden states; and Session::info, a
// description of the session. Explore: explore.cpp; generation: generate.cpp.
#include <algorithm>
#include <limits>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "session/attention_json.hpp"
#include "session/inspect.hpp"
#include "session/json.hpp"
#include "session/session.hpp"

namespace ap {

namespace {
using Matrix = std::vector<std::vector<float>>;
// (T,T) rows; with `causal`, the keys j > i a query cannot see are -inf (JSON null: masked).
Matrix square(const float* p, int T, bool causal = false) {
  Matrix m(T, std::vector<float>(T));
  for (int i = 0; i < T; ++i) {
    std::copy(p + size_t(i) * T, p + size_t(i + 1) * T, m[i].begin());
    if (causal) std::fill(m[i].begin() + i + 1, m[i].end(), -std::numeric_limits<float>::infinity());
  }
  return m;
}
}  // namespace

nlohmann::json attention_heads_json(const float* weights, const float* logits, int NH, int T, bool causal) {
  nlohmann::json heads = nlohmann::json::array();
  for (int h = 0; h < NH; ++h) {
    const size_t off = size_t(h) * T * T;
    const float* w = weights + off;
    std::vector<float> sums(T, 0.0f);
    for (int i = 0; i < T; ++i)
      for (int j = 0; j < T; ++j) sums[i] += w[size_t(i) * T + j];
    heads.push_back({{"weights", square(w, T)}, {"logits", square(logits + off, T, causal)}, {"row_sums", sums}});
  }
  return heads;
}

Inspector::Inspector(Session& s) : s_(s) {}
Inspector::~Inspector() = default;

nlohmann::json Inspector::predictions(int n, int length, bool train) {
  const Config& cfg = s_.config();
  Transformer& model = s_.model();
  const Task& task = s_.task();
  if (n < 1 || n > 1024) refuse("inspect.predictions_n", "n", {{"lo", "1"}, {"hi", "1024"}});
  const int T = length > 0 ? length : cfg.seq_len;
  Rng rng(uint64_t(cfg.seed) ^ (train ? 0x7EA1ull : 0x5EED0E7A1ull));
  Batch b = s_.make_batch(rng, n, T, train ? Split::Train : Split::Heldout);
  model.forward(b.inputs.data(), b.B, b.T, nullptr, nullptr, false, nullptr);
  const auto& probs = model.probs();
  const int O = model.shape().O;
  nlohmann::json out{{"per_sequence", task.per_sequence()}, {"examples", nlohmann::json::array()}};
  for (int s = 0; s < b.B; ++s) {
    nlohmann::json ex;
    std::vector<std::string> toks;
    for (int t = 0; t < b.T; ++t) toks.push_back(s_.token_name(b.inputs[size_t(s) * b.T + t]));
    ex["inputs"] = toks;
    auto pred = [&](size_t row, nlohmann::json& dst) {
      const float* p = &probs[row * O];
      int best = int(std::max_element(p, p + O) - p);
      dst["prediction"].push_back(task.class_name(best));
      dst["confidence"].push_back(p[best]);
      return best;
    };
    if (task.per_sequence()) {
      int best = pred(s, ex);
      ex["target"] = task.class_name(b.targets[s]);
      ex["correct"] = best == b.targets[s];
    } else {
      bool all = true;
      for (int t = 0; t < b.T; ++t) {
        size_t r = size_t(s) * b.T + t;
        int best = pred(r, ex);
        ex["target"].push_back(b.mask[r] ? task.class_name(b.targets[r]) : "");
        ex["mask"].push_back(b.mask[r] != 0);
        if (b.mask[r] && best != b.targets[r]) all = false;
      }
      ex["correct"] = all;
    }
    out["examples"].push_back(ex);
  }
  return out;
}

nlohmann::json Inspector::attention(int length, int example) {
  const Config& cfg = s_.config();
  const int T = length > 0 ? length : cfg.seq_len;
  if (example < 0 || example > 63) refuse("inspect.attention_example", "example", {{"lo", "0"}, {"hi", "63"}});
  Rng rng(uint64_t(cfg.seed) ^ 0x5EED0E7A1ull);
  Batch b = s_.make_batch(rng, example + 1, T, Split::Heldout);
  std::vector<int32_t> ids(b.inputs.begin() + size_t(example) * b.T, b.inputs.begin() + size_t(example + 1) * b.T);
  return run(ids);
}

nlohmann::json Inspector::run(const std::vector<int32_t>& ids) {
  const Config& cfg = s_.config();
  Transformer& model = s_.model();
  const int T = int(ids.size()), V = model.shape().V, C = cfg.d_model, NH = cfg.heads;
  if (T < 1) refuse("run.empty", "run");
  check_forward_memory(cfg, 1, T, "run");
  for (int id : ids)
    if (id < 0 || id >= V) refuse("run.token_id", "run", {{"id", std::to_string(id)}, {"vocab", std::to_string(V)}});
  model.forward(ids.data(), 1, T, nullptr, nullptr, false, nullptr);
  nlohmann::json out;
  std::vector<std::string> toks;
  for (int id : ids) toks.push_back(s_.token_name(id));
  out["tokens"] = toks;
  out["layers"] = nlohmann::json::array();
  for (int l = 0; l < cfg.layers; ++l) {
    const AttentionActs& a = model.attention(l);
    out["layers"].push_back(
        {{"heads", attention_heads_json(a.used_weights().data(), a.logits.data(), NH, T, cfg.causal)}});
  }
  const auto& probs = model.probs();
  const int O = model.shape().O, rows = model.rows();
  Matrix p(rows, std::vector<float>(O));
  for (int r = 0; r < rows; ++r) std::copy(&probs[size_t(r) * O], &probs[size_t(r + 1) * O], p[r].begin());
  out["probs"] = p;
  const auto& h = model.hidden();
  Matrix hid(T, std::vector<float>(C));
  for (int t = 0; t < T; ++t) std::copy(&h[size_t(t) * C], &h[size_t(t + 1) * C], hid[t].begin());
  out["hidden"] = hid;
  return out;
}

nlohmann::json Inspector::positions(int length) {
  const Config& cfg = s_.config();
  Transformer& model = s_.model();
  const int T = length > 0 ? length : cfg.model_len();
  nlohmann::json j = model.position().display(T);
  j["describe"] = describe_position(find_position(cfg.position), cfg);
  return j;
}

nlohmann::json Session::info() const {
  nlohmann::json params = nlohmann::json::array();
  for (auto& p : model_->params().infos()) params.push_back({{"name", p.name}, {"shape", p.shape}});
  std::vector<std::string> vocab, classes;
  for (int i = 0; i < model_->shape().V; ++i) vocab.push_back(token_name(i));
  for (int i = 0; i < model_->shape().O; ++i) classes.push_back(task_->class_name(i));
  return {{"config", cfg_.to_json()},
          {"step", step_},
          {"stopped", stopped_},
          {"vocab", vocab},
          {"classes", classes},
          {"per_sequence", task_->per_sequence()},
          {"parameters", params},
          {"parameter_count", model_->params().size()},
          {"position", describe_position(find_position(cfg_.position), cfg_)},
          {"normalization", describe_normalization(find_normalization(cfg_.normalization), cfg_)}};
}

}  // namespace ap
