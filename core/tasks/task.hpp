// core/tasks/task.hpp — what a task is: a seeded generator of (input, target) batches at any
// length, with its vocabulary and the model defaults it wants. One file per task in core/tasks/
// (the generator, its make() and its registry entry), listed in core/tasks/registry.cpp.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/options.hpp"
#include "tensor/rng.hpp"

namespace ap {

// One batch of B sequences of length T.
struct Batch {
  int B = 0, T = 0;
  std::vector<int32_t> inputs;  // (B, T) token ids in [0, vocab_size)
  // per-token tasks: (B, T) class ids in [0, num_classes); per-sequence tasks: (B) class ids
  std::vector<int32_t> targets;
  // per-token tasks: (B, T), 1 where the target counts in the loss and accuracy (e.g. only the
  // answer half of a copy task); per-sequence tasks: empty
  std::vector<uint8_t> mask;
};

enum class Split { Train, Heldout };

class Task {
 public:
  virtual ~Task() = default;
  virtual int vocab_size() const = 0;                  // input tokens
  virtual int num_classes() const = 0;                 // outputs of the head (often == vocab_size)
  virtual bool per_sequence() const { return false; }  // one label per sequence (pooled head)
  virtual int min_len() const { return 2; }            // shortest T the task can make
  // Longest T the task can make (probe: one class per position, so T <= num_classes()).
  virtual int max_len() const { return 1 << 20; }
  // Fill `out` with B sequences of length T. The generator draws only from `rng`, so the same
  // rng state gives the same batch. `split` lets tasks with a small example space keep train and
  // held-out examples disjoint where possible.
  virtual void generate(Rng& rng, int B, int T, Split split, Batch& out) const = 0;
  // Human-readable token / class names, for the UI and the CLI ("a", "7", "<sep>", "(").
  virtual std::string token_name(int id) const;
  virtual std::string class_name(int id) const { return token_name(id); }
  // The raw text a token stands for (the text task: the character itself, e.g. " " where the
  // name is "␣"); prompts are read and continuations written with it.
  virtual std::string token_text(int id) const { return token_name(id); }
  // The input token placed where the answer is expected (answer-slot layouts: copy, sort,
  // addition ...), or -1 for next-token tasks. Generation fills slots instead of feeding
  // its own outputs back.
  virtual int answer_slot() const { return -1; }
};

// Registry ------------------------------------------------------------------------------------
struct TaskEntry {
  const char* name;
  Doc description;  // one sentence for the UI (common/doc.hpp: empty in the wasm builds)
  Doc example;      // one encoded example, as in the file header
  // Core config defaults this task wants (seq_len, eval_len, causal, steps, lr, d_model, heads,
  // layers, batch), as flat config keys.
  nlohmann::json defaults;
  // The task's own options ("copy_back_k", "text", "vocab"), each with its one default, range
  // and help: the same type as the options of encodings and normalizations. Keys are prefixed
  // with the task name, or shared with one meaning (vocab); the UI shows them with the task.
  std::vector<OptionSpec> options;
  // Build the task from the full flat config (it reads its own keys; an absent one takes its
  // declared default). Throws std::invalid_argument naming the field for bad values.
  std::unique_ptr<Task> (*make)(const nlohmann::json& config);
};

const std::vector<TaskEntry>& task_registry();
const TaskEntry& find_task(const std::string& name);  // throws listing the valid names
// What choosing the task sets: its core defaults plus each option's declared default.
nlohmann::json task_defaults(const TaskEntry& t);
// {name, description, example, defaults (task_defaults), options: [{key, kind, default, help,
// min, max}]} for CLI and UI.
nlohmann::json describe_task(const TaskEntry& t);

}  // namespace ap
