// tests/fuzz/fuzz_pairs.cpp — libFuzzer target for the custom task's pairs (core/tasks/
// custom_pairs.cpp, custom.cpp): the bytes are the text of a --task-file or of the page's
// "Custom task" box. parse_custom_pairs must return pairs or throw std::invalid_argument; what
// it accepts keeps every limit (pairs, tokens a side, vocabulary, token bytes), and the task
// built from it makes a batch at its shortest length whose ids are all in range.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "tasks/custom_pairs.hpp"
#include "tasks/task.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using L = ap::CustomPairsLimits;
  const std::string text(reinterpret_cast<const char*>(data), size);
  ap::CustomPairs p;
  try {
    p = ap::parse_custom_pairs(text);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  if (p.pairs.size() < 2 || p.pairs.size() > size_t(L::kMaxPairs)) __builtin_trap();
  if (p.tokens.empty() || p.tokens.size() > size_t(L::kMaxVocab)) __builtin_trap();
  for (auto& q : p.pairs) {
    if (q.in.empty() || q.out.empty() || q.in.size() > size_t(L::kMaxSide) || q.out.size() > size_t(L::kMaxSide))
      __builtin_trap();
    for (auto* side : {&q.in, &q.out})
      for (auto& t : *side)
        if (t.empty() || t.size() > L::kMaxToken || t.find(' ') != std::string::npos) __builtin_trap();
  }
  nlohmann::json config = ap::find_task("custom").defaults;
  config["custom_pairs"] = text;
  config["seq_len"] = p.label ? p.longest_in : p.longest_in + 1 + p.longest_out;
  std::unique_ptr<ap::Task> task = ap::find_task("custom").make(config);  // accepted text: no throw
  ap::Rng rng(1);
  ap::Batch b;
  task->generate(rng, 4, task->min_len(), ap::Split::Heldout, b);
  for (int32_t x : b.inputs)
    if (x < 0 || x >= task->vocab_size()) __builtin_trap();
  for (int32_t y : b.targets)
    if (y < 0 || y >= task->num_classes()) __builtin_trap();
  return 0;
}
