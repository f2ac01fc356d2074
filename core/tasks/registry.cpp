// core/tasks/registry.cpp — the table of synthetic tasks. Each task's file holds its generator
// and its entry (name, description, one encoded example, model defaults, options with their
// defaults and help, constructor). Adding a task = one file in core/tasks/ plus one line here:
// X(name) in the list below.
//
// Example strings (also in each file's header) read "in: <tokens> | tgt: <classes> | mask:
// <0/1>" for per-token tasks, where "." marks a target that is not scored (mask 0), and
// "in: <tokens> | label: <class>" for per-sequence tasks; tokens are separated by spaces and
// named as token_name() / class_name() name them.
//
// Layouts. Seq2seq tasks (copy, reverse, sort, repeat, addition, ...) all use the answer-slot
// layout: the question, a separator, then placeholder tokens whose targets are the answer
// (mask 1 only there). A causal model sees the whole question from every slot and a
// bidirectional one sees everything, so both can learn the same batches. Next-token tasks
// (elman, text) are meaningful for causal models only. Every task derives its sizes from T and
// works at any T in [min_len(), max_len()], so a model trained at seq_len can be evaluated at
// eval_len.
//
// Train / held-out split (split.hpp, NamedTask::fill_rows). A row is held-out iff
// splitmix64(FNV-1a(T, its input tokens)) % 10 == 0, i.e. ~10% of the example space. The
// generator draws a row and redraws it (up to kSplitTries = 256 times) until its hash falls in
// the requested split, so train and held-out rows are disjoint wherever the space holds
// held-out rows at all (tiny spaces at very short T may not; after 256 tries the last draw is
// kept). Inputs determine the targets in every task except `random`, whose targets are noise
// anyway. Exceptions: `text` splits by place (held-out windows come from the last 10% of the
// text) and `probe` has a single example per length, shared by both splits.
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "tasks/task.hpp"
#include "io/json.hpp"

namespace ap {

using json = nlohmann::json;

std::string Task::token_name(int id) const { return std::to_string(id); }

// The list: one line per task, X(name) for the entry function task_<name>() in its own file.
#define AP_TASKS(X)   \
  X(copy)             \
  X(reverse)          \
  X(sort)             \
  X(repeat)           \
  X(parity)           \
  X(addition)         \
  X(modular_addition) \
  X(marked_addition)  \
  X(two_sum)          \
  X(dyck)             \
  X(elman)            \
  X(copy_memory)      \
  X(temporal_order)   \
  X(slapjack)         \
  X(zeros)            \
  X(random)           \
  X(probe)            \
  X(order)            \
  X(copy_back)        \
  X(copy_first)       \
  X(assoc_recall)     \
  X(text)             \
  X(mlm)              \
  X(custom)

#define AP_DECLARE(name) TaskEntry task_##name();
AP_TASKS(AP_DECLARE)
#undef AP_DECLARE

const std::vector<TaskEntry>& task_registry() {
  static const std::vector<TaskEntry> registry = {
#define AP_ROW(name) task_##name(),
      AP_TASKS(AP_ROW)
#undef AP_ROW
  };
  return registry;
}

const TaskEntry& find_task(const std::string& name) {
  const auto& reg = task_registry();
  for (const TaskEntry& e : reg)
    if (name == e.name) return e;
  std::string valid;
  for (const TaskEntry& e : reg) valid += (valid.empty() ? "" : ", ") + std::string(e.name);
  refuse("task.unknown", "task", {{"name", show_text(name)}, {"names", valid}});
}

}  // namespace ap
