// core/tasks/task_util.hpp — what the task files share: a Task base with named tokens and the
// row-filling loop (shape checks, the train / held-out split of split.hpp), reading the task's
// options from the flat config with actionable errors, and the "question, then answer slots"
// base that copy, reverse and sort are built on.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "refusal/refusal.hpp"
#include "tasks/split.hpp"
#include "tasks/task.hpp"

namespace ap {

class NamedTask : public Task {
 public:
  explicit NamedTask(std::string name) : name_(std::move(name)) {}
  int vocab_size() const override { return int(tokens_.size()); }
  int num_classes() const override { return classes_.empty() ? vocab_size() : int(classes_.size()); }
  std::string token_name(int id) const override;
  std::string class_name(int id) const override;
  // By convention the answer slot is the token named "_" (see SlotAnswerTask, addition, ...).
  int answer_slot() const override;

 protected:
  int add_token(const std::string& name);  // returns the new id
  int add_symbols(int n);                  // tokens "0" .. "n-1"; returns the first id
  // Throws std::invalid_argument for B < 1 or T outside [min_len, max_len]; sizes `out`
  // (B, T) / (B) and zero-fills it.
  void start_batch(int B, int T, Batch& out) const;
  // Fills B rows with draw(rng, x, y, m): x (T) inputs, y (T) or (1) targets, m (T) mask or
  // nullptr for per-sequence tasks; all pre-zeroed. Rows are redrawn until their inputs hash
  // into `split` (split.hpp).
  template <class Draw>
  void fill_rows(Rng& rng, int B, int T, Split split, Batch& out, Draw draw) const;

  std::string name_;
  std::vector<std::string> tokens_, classes_;  // classes_ empty: classes are the tokens
};

template <class Draw>
void NamedTask::fill_rows(Rng& rng, int B, int T, Split split, Batch& out, Draw draw) const {
  start_batch(B, T, out);
  const bool seq = per_sequence();
  for (int b = 0; b < B; ++b) {
    int32_t* x = &out.inputs[size_t(b) * T];
    int32_t* y = seq ? &out.targets[b] : &out.targets[size_t(b) * T];
    uint8_t* m = seq ? nullptr : &out.mask[size_t(b) * T];
    for (int tries = 1;; ++tries) {
      std::fill(x, x + T, 0);
      std::fill(y, y + (seq ? 1 : T), 0);
      if (m) std::fill(m, m + T, uint8_t(0));
      draw(rng, x, y, m);
      if (tries >= kSplitTries || in_split(x, T, split)) break;
    }
  }
}

// The core config defaults of a task entry (seq_len, eval_len = 2 seq_len, causal, steps, lr,
// d_model, heads, layers, batch).
nlohmann::json task_model_defaults(int seq_len, bool causal, int steps, int d_model, int heads, int layers, int batch,
                                   double lr = 3e-3);
inline constexpr const char* kVocabHelp = "number of distinct symbols in the input";

// A task's options, read from the flat config; an absent key takes the default declared with
// the option in the task's entry (the one place it is written), or for a core field the entry's
// `defaults`. Bad values throw a Refusal (task.*):
// "task 'copy': field 'vocab' = 1 is invalid; allowed: ...".
class TaskOptions {
 public:
  TaskOptions(const nlohmann::json& config, const char* task);
  int get_int(const char* key) const;                  // a declared int option, within its declared range
  int get_int(const char* key, int lo, int hi) const;  // a core field (probe: seq_len)
  bool get_bool(const char* key) const;
  std::string get_string(const char* key) const;
  // Refuse the value of `key` with `code`, whose template starts "task '{task}': field '{field}' =
  // {value} is invalid; allowed: " (task and value are added to `params`).
  [[noreturn]] void fail(const char* code, const char* key, RefusalParams params = {}) const;

 private:
  const nlohmann::json& value(const char* key) const;
  const nlohmann::json& config_;
  std::string task_;
};

// Sequence-to-sequence tasks over V symbols in the answer-slot layout, which both causal and
// bidirectional models can learn: n = T/2 symbols, then n slots "_" whose targets are the
// answer (mask 1); an odd T ends with one pad "." (mask 0).
class SlotAnswerTask : public NamedTask {
 public:
  SlotAnswerTask(std::string name, int symbols);
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override;

 protected:
  virtual void answer(const int32_t* question, int n, int32_t* out) const = 0;
  int V_, slot_, pad_;
};

}  // namespace ap
