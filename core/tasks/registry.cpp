// core/tasks/registry.cpp — the table of synthetic tasks: name, description, one encoded
// example, config defaults, option help and constructor. Adding a task = one file in
// core/tasks/ plus its declaration and one line in the table below.
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

std::unique_ptr<Task> make_copy(const json&);
std::unique_ptr<Task> make_reverse(const json&);
std::unique_ptr<Task> make_sort(const json&);
std::unique_ptr<Task> make_repeat(const json&);
std::unique_ptr<Task> make_parity(const json&);
std::unique_ptr<Task> make_addition(const json&);
std::unique_ptr<Task> make_modular_addition(const json&);
std::unique_ptr<Task> make_marked_addition(const json&);
std::unique_ptr<Task> make_two_sum(const json&);
std::unique_ptr<Task> make_dyck(const json&);
std::unique_ptr<Task> make_elman(const json&);
std::unique_ptr<Task> make_copy_memory(const json&);
std::unique_ptr<Task> make_temporal_order(const json&);
std::unique_ptr<Task> make_slapjack(const json&);
std::unique_ptr<Task> make_zeros(const json&);
std::unique_ptr<Task> make_random(const json&);
std::unique_ptr<Task> make_probe(const json&);
std::unique_ptr<Task> make_order(const json&);
std::unique_ptr<Task> make_copy_back(const json&);
std::unique_ptr<Task> make_copy_first(const json&);
std::unique_ptr<Task> make_assoc_recall(const json&);
std::unique_ptr<Task> make_text(const json&);

namespace {

// Core config defaults shared by most tasks; each entry overrides what it needs.
json model(int seq_len, bool causal, int steps, int d_model, int heads, int layers, int batch,
           double lr = 3e-3) {
  return json{{"seq_len", seq_len}, {"eval_len", 2 * seq_len}, {"causal", causal},
              {"steps", steps},     {"lr", lr},                {"d_model", d_model},
              {"heads", heads},     {"layers", layers},        {"batch", batch}};
}

json with(json base, const json& extra) {
  base.update(extra);
  return base;
}

const char* const kVocabHelp = "number of distinct symbols in the input";

std::vector<TaskEntry> build_registry() {
  return {
      {"copy", "Repeat a random digit string after it.",
       "in: 3 1 4 1 5 _ _ _ _ _ | tgt: . . . . . 3 1 4 1 5 | mask: 0 0 0 0 0 1 1 1 1 1",
       with(model(16, true, 2000, 32, 2, 2, 32), {{"vocab", 10}}), {{"vocab", kVocabHelp}},
       make_copy},
      {"reverse", "Write a random digit string backwards.",
       "in: 3 1 4 1 5 _ _ _ _ _ | tgt: . . . . . 5 1 4 1 3 | mask: 0 0 0 0 0 1 1 1 1 1",
       with(model(16, true, 3000, 32, 2, 2, 32), {{"vocab", 10}}), {{"vocab", kVocabHelp}},
       make_reverse},
      {"sort", "Write a random digit string in ascending order.",
       "in: 3 1 4 1 5 _ _ _ _ _ . | tgt: . . . . . 1 1 3 4 5 . | mask: 0 0 0 0 0 1 1 1 1 1 0",
       with(model(16, true, 3000, 32, 2, 2, 32), {{"vocab", 10}}), {{"vocab", kVocabHelp}},
       make_sort},
      {"repeat", "Continue a short pattern periodically after the separator.",
       "in: 2 7 5 | _ _ _ _ _ _ | tgt: . . . . 2 7 5 2 7 5 | mask: 0 0 0 0 1 1 1 1 1 1",
       with(model(16, true, 2000, 32, 2, 2, 32), {{"vocab", 10}, {"repeat_period", 4}}),
       {{"vocab", kVocabHelp},
        {"repeat_period", "longest pattern length p (p is drawn in 1..this)"}},
       make_repeat},
      {"parity", "Running parity of a bit string, at every position.",
       "in: 1 0 1 1 0 0 1 0 | tgt: 1 1 0 1 1 1 0 0 | mask: 1 1 1 1 1 1 1 1",
       model(16, true, 3000, 32, 2, 2, 32), json::object(), make_parity},
      {"addition", "Add two numbers written least-significant digit first.",
       "in: 2 7 4 + 5 8 3 = _ _ _ _ | tgt: . . . . . . . . 7 5 8 0 | mask: 0 0 0 0 0 0 0 0 1 1 1 1",
       model(12, true, 4000, 64, 4, 2, 32), json::object(), make_addition},
      {"modular_addition", "Sum of the terms modulo p (a + b mod p at the default length).",
       "in: 7 + 9 = _ | tgt: . . . . 5 | mask: 0 0 0 0 1",
       with(model(5, true, 3000, 64, 4, 1, 32), {{"modular_p", 11}}),
       {{"modular_p", "the modulus p; terms and answer are in 0..p-1"}}, make_modular_addition},
      {"marked_addition", "Sum of the marked digits modulo 10 (the adding problem).",
       "in: 3 7* 1 4 2* 9 = _ | tgt: . . . . . . . 9 | mask: 0 0 0 0 0 0 0 1",
       with(model(12, true, 3000, 32, 2, 2, 32), {{"marked_addition_count", 2}}),
       {{"marked_addition_count", "how many digits are marked"}}, make_marked_addition},
      {"two_sum", "Do two of the digits sum to the target (mod 10)?",
       "in: 4 0 7 2 6 1 : 3 ? | tgt: . . . . . . . . yes | mask: 0 0 0 0 0 0 0 0 1",
       model(11, true, 3000, 64, 4, 2, 32), json::object(), make_two_sum},
      {"dyck", "Nesting depth of well-nested brackets, at every position.",
       "in: ( [ ] ( ) ) [ ] | tgt: 1 2 1 2 1 0 1 0 | mask: 1 1 1 1 1 1 1 1",
       with(model(16, true, 2000, 32, 2, 2, 32), {{"dyck_types", 2}, {"dyck_max_depth", 8}}),
       {{"dyck_types", "bracket kinds, 1..4 of () [] {} <>"},
        {"dyck_max_depth", "deepest nesting generated; the classes are depths 0..this"}},
       make_dyck},
      {"elman", "Next-word prediction in Elman's (1990) toy grammar of short sentences.",
       "in: man eat cookie . dragon smash glass . | tgt: eat cookie . dragon smash glass . cat | "
       "mask: 1 1 1 1 1 1 1 1",
       model(16, true, 2000, 32, 2, 2, 32), json::object(), make_elman},
      {"copy_memory", "Recall the first k symbols after a long blank stretch and a delimiter.",
       "in: 4 1 6 - - - - - : - - - | tgt: . . . . . . . . . 4 1 6 | mask: 0 0 0 0 0 0 0 0 0 1 1 1",
       with(model(24, true, 2000, 32, 2, 2, 32), {{"copy_memory_k", 4}, {"vocab", 8}}),
       {{"copy_memory_k", "how many symbols to remember (min_len = 2k + 1)"},
        {"vocab", kVocabHelp}},
       make_copy_memory},
      {"temporal_order", "Classify the order of two marked symbols (X, Y) hidden in noise.",
       "in: c X a d b Y d a c b | label: XY", model(16, false, 2000, 32, 2, 2, 32),
       json::object(), make_temporal_order},
      {"slapjack", "Slap every jack (and, optionally, every card equal to the previous one).",
       "in: 7 J 3 K K J 9 2 | tgt: - slap - - - slap - - | mask: 1 1 1 1 1 1 1 1",
       with(model(16, true, 500, 32, 2, 1, 32), {{"slapjack_doubles", false}}),
       {{"slapjack_doubles", "also slap a card equal to the previous card"}}, make_slapjack},
      {"zeros", "Sanity check: every target is 0.",
       "in: 3 8 0 5 5 2 | tgt: 0 0 0 0 0 0 | mask: 1 1 1 1 1 1",
       with(model(8, true, 200, 32, 2, 1, 16), {{"vocab", 10}}), {{"vocab", kVocabHelp}},
       make_zeros},
      {"random", "Baseline: random targets independent of the input; nothing can be learned.",
       "in: 3 8 0 5 5 2 | tgt: 7 1 1 9 0 4 | mask: 1 1 1 1 1 1",
       with(model(8, true, 500, 32, 2, 1, 16), {{"vocab", 10}}),
       {{"vocab", "number of symbols, and of target classes"}}, make_random},
      {"probe", "Identical tokens; each position must output its own index.",
       "in: x x x x x x x x | tgt: 0 1 2 3 4 5 6 7 | mask: 1 1 1 1 1 1 1 1",
       model(8, false, 600, 32, 2, 1, 16), json::object(), make_probe},
      {"order", "Does A come before B? Same tokens either way: only positions tell.",
       "in: d A c c f B e d | label: AB",
       with(model(8, false, 1000, 32, 2, 1, 32), {{"vocab", 4}}),
       {{"vocab", "number of filler tokens besides A and B"}}, make_order},
      {"copy_back", "Output the token k positions back: y_t = x_{t-k}.",
       "in: 3 1 4 1 5 9 2 6 | tgt: . 3 1 4 1 5 9 2 | mask: 0 1 1 1 1 1 1 1",
       with(model(16, true, 1000, 32, 2, 1, 32), {{"copy_back_k", 1}, {"vocab", 10}}),
       {{"copy_back_k", "offset k in y_t = x_{t-k}; the first k positions are not scored"},
        {"vocab", kVocabHelp}},
       make_copy_back},
      {"copy_first", "Every position outputs the first token.",
       "in: 7 2 9 2 0 4 | tgt: 7 7 7 7 7 7 | mask: 1 1 1 1 1 1",
       with(model(16, true, 1000, 32, 2, 1, 32), {{"vocab", 10}}), {{"vocab", kVocabHelp}},
       make_copy_first},
      {"assoc_recall", "Key-value pairs, then a query key: give its value.",
       "in: c 7 a 2 f 9 e 1 ? a | tgt: . . . . . . . . . 2 | mask: 0 0 0 0 0 0 0 0 0 1",
       with(model(18, true, 4000, 64, 4, 2, 32), {{"assoc_recall_keys", 26}}),
       {{"assoc_recall_keys", "number of distinct keys (letters a..z); at most this many pairs"}},
       make_assoc_recall},
      {"text", "Character language model on a text (a built-in essay if none is given).",
       "in: T h e \u2423 o r d e | tgt: h e \u2423 o r d e r | mask: 1 1 1 1 1 1 1 1",
       with(model(32, true, 3000, 64, 4, 2, 32), {{"text", ""}}),
       {{"text", "training text; empty = the built-in corpus; the last 10% is held out"}},
       make_text},
  };
}

}  // namespace

const std::vector<TaskEntry>& task_registry() {
  static const std::vector<TaskEntry> registry = build_registry();
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
