// core/tasks/registry.cpp — the table of synthetic tasks. Each task's file holds its generator
// and its entry (name, description, one encoded example, model defaults, options with their
// defaults and help, constructor). Adding a task = one file in core/tasks/ plus two lines here:
// the declaration of its entry function and its row in the table.
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

#include "tasks/task.hpp"
#include "io/json.hpp"

namespace ap {

using json = nlohmann::json;

std::string Task::token_name(int id) const { return std::to_string(id); }

TaskEntry task_copy();
TaskEntry task_reverse();
TaskEntry task_sort();
TaskEntry task_repeat();
TaskEntry task_parity();
TaskEntry task_addition();
TaskEntry task_modular_addition();
TaskEntry task_marked_addition();
TaskEntry task_two_sum();
TaskEntry task_dyck();
TaskEntry task_elman();
TaskEntry task_copy_memory();
TaskEntry task_temporal_order();
TaskEntry task_slapjack();
TaskEntry task_zeros();
TaskEntry task_random();
TaskEntry task_probe();
TaskEntry task_order();
TaskEntry task_copy_back();
TaskEntry task_copy_first();
TaskEntry task_assoc_recall();
TaskEntry task_text();

const std::vector<TaskEntry>& task_registry() {
  static const std::vector<TaskEntry> registry = {
      task_copy(),
      task_reverse(),
      task_sort(),
      task_repeat(),
      task_parity(),
      task_addition(),
      task_modular_addition(),
      task_marked_addition(),
      task_two_sum(),
      task_dyck(),
      task_elman(),
      task_copy_memory(),
      task_temporal_order(),
      task_slapjack(),
      task_zeros(),
      task_random(),
      task_probe(),
      task_order(),
      task_copy_back(),
      task_copy_first(),
      task_assoc_recall(),
      task_text(),
  };
  return registry;
}

const TaskEntry& find_task(const std::string& name) {
  const auto& reg = task_registry();
  for (const TaskEntry& e : reg)
    if (name == e.name) return e;
  std::string valid;
  for (const TaskEntry& e : reg) valid += (valid.empty() ? "" : ", ") + std::string(e.name);
  throw std::invalid_argument("task: unknown name " + show_text(name) + "; valid names are: " + valid);
}

}  // namespace ap
