// tests/fuzz/fuzz_generate.cpp — libFuzzer target for the prompt tokenizer and the arguments of
// generate (the CLI's `sample`, the page's generate panel, Session.generate in wasm).
//   byte 0: the model (character models: rope, learned with a 16-token limit, bidirectional,
//           over a UTF-8 corpus; answer-slot tasks: copy, copy with anchors and learned
//           positions, addition; a per-sequence task: parity)
//   byte 1: max_new, byte 2: temperature, byte 3: top_k (each from a table of edge values)
//   bytes 4..11: the sampling seed;  the rest: the prompt text (any bytes: UTF-8, NUL, ...)
// tokenize() must return ids inside the vocabulary or throw std::invalid_argument with a
// message free of raw NUL bytes; generate() must return as many tokens as asked (all inside the
// output classes, with finite probabilities) or throw std::invalid_argument. The same prompt is
// also fed as raw ids (bytes - 8), so that out-of-vocabulary ids reach generate(). Anything
// else, a crash or UB caught by the sanitizers is a finding. The models are untrained: only
// the code paths matter. memory_limit_mb is 4, so a long prompt meets the forward-pass bound
// instead of allocating gigabytes.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "session/inspect.hpp"
#include "session/session.hpp"

namespace {

std::vector<std::unique_ptr<ap::Session>> make_sessions() {
  const nlohmann::json base = {{"d_model", 16}, {"heads", 2},   {"layers", 1},     {"ffn", 16},
                               {"batch", 2},    {"seq_len", 8}, {"eval_every", 0}, {"memory_limit_mb", 4}};
  std::vector<nlohmann::json> configs = {
      {{"task", "text"}, {"position", "rope"}},
      {{"task", "text"}, {"position", "learned"}, {"max_len", 16}},
      {{"task", "text"}, {"position", "alibi"}, {"causal", false}},
      {{"task", "copy"}, {"position", "rope"}},
      {{"task", "copy"}, {"anchors", "cls_sep"}, {"position", "learned"}},
      {{"task", "addition"}, {"position", "rope"}},
      {{"task", "parity"}},
      {{"task", "text"},
       {"position", "sinusoidal"},
       {"anchors", "bos"},
       // at least 10·seq_len + 1 bytes: the held-out 10% must hold one window (core/tasks/text.cpp)
       {"text",
        "h\xC3\xA9llo w\xC3\xB6rld, a tiny corpus in UTF-8 \xF0\x9F\x98\x80, long enough for "
        "seq_len 8: the held-out part holds a window."}},
  };
  std::vector<std::unique_ptr<ap::Session>> out;
  for (auto cfg : configs) {
    for (auto& [k, v] : base.items()) cfg[k] = v;
    out.push_back(std::make_unique<ap::Session>(ap::Config::from_json(cfg)));
  }
  return out;
}

void check_result(const nlohmann::json& r, const ap::Session& s, int max_new) {
  const int O = s.task().num_classes();
  if (!r["ids"].is_array() || int(r["ids"].size()) != max_new) __builtin_trap();
  for (auto& id : r["ids"])
    if (id.get<int>() < 0 || id.get<int>() >= O) __builtin_trap();
  for (auto& p : r["probs"])
    if (!std::isfinite(p.get<double>())) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<std::unique_ptr<ap::Session>> sessions = make_sessions();
  if (size < 12) return 0;
  constexpr int kMaxInt = std::numeric_limits<int>::max(), kMinInt = std::numeric_limits<int>::min();
  const int max_news[] = {1, 2, 5, 17, 0, -1, 4097, kMaxInt, kMinInt, 64, 4096};
  const float temps[] = {0.0f, 1.0f, 0.5f, 100.0f, 100.5f, -1.0f, NAN, INFINITY, 1e-30f, 1e30f, -0.0f};
  const int top_ks[] = {0, 1, 2, 1000, -1, kMaxInt, kMinInt};
  ap::Session& s = *sessions[data[0] % sessions.size()];
  int max_new = max_news[data[1] % std::size(max_news)];
  // Thousands of autoregressive steps would only slow the search: 4096 only in one-pass slot mode.
  if (max_new == 4096 && s.task().answer_slot() < 0) max_new = 64;
  const float temperature = temps[data[2] % std::size(temps)];
  const int top_k = top_ks[data[3] % std::size(top_ks)];
  uint64_t seed;
  std::memcpy(&seed, data + 4, 8);
  const std::string prompt(reinterpret_cast<const char*>(data + 12), size - 12);

  try {
    const std::vector<int32_t> ids = s.tokenize(prompt);
    for (int32_t id : ids)
      if (id < 0 || id >= s.task().vocab_size()) __builtin_trap();
    try {
      check_result(s.inspect().generate(ids, max_new, temperature, top_k, seed), s, max_new);
    } catch (const std::invalid_argument&) {
    }
  } catch (const std::invalid_argument& e) {
    // The message must survive a C string boundary whole (wasm Error, CLI stderr).
    if (std::strlen(e.what()) == 0 || std::string(e.what()).find('\0') != std::string::npos) __builtin_trap();
  }
  // The bytes as raw ids: mostly inside the vocabulary, -1, V and V+1 outside it.
  std::vector<int32_t> raw;
  const int V = s.task().vocab_size();
  for (size_t i = 12; i < size && raw.size() < 64; ++i) raw.push_back(int32_t(data[i] % (V + 3)) - 1);
  try {
    check_result(s.inspect().generate(raw, max_new, temperature, top_k, seed), s, max_new);
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
