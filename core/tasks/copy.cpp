// core/tasks/copy.cpp — copy: repeat a random digit string.
// Layout: answer slots (task_util.hpp), for causal and bidirectional models alike: n = T/2
// symbols, then n slots "_" whose targets are the same symbols; an odd T ends with a pad ".".
//   T = 10   in   3 1 4 1 5 _ _ _ _ _
//            tgt  . . . . . 3 1 4 1 5        ("." = not scored)
//            mask 0 0 0 0 0 1 1 1 1 1
// Option: vocab (number of symbols).
#include <algorithm>

#include "tasks/task_util.hpp"

namespace ap {
namespace {

class CopyTask : public SlotAnswerTask {
 public:
  explicit CopyTask(int V) : SlotAnswerTask("copy", V) {}

 protected:
  void answer(const int32_t* q, int n, int32_t* out) const override { std::copy(q, q + n, out); }
};

}  // namespace

std::unique_ptr<Task> make_copy(const nlohmann::json& config) {
  TaskOptions opt(config, "copy");
  return std::make_unique<CopyTask>(opt.get_int("vocab"));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_copy() {
  return {"copy",
          "Repeat a random digit string after it.",
          "in: 3 1 4 1 5 _ _ _ _ _ | tgt: . . . . . 3 1 4 1 5 | mask: 0 0 0 0 0 1 1 1 1 1",
          task_model_defaults(16, true, 2000, 32, 2, 2, 32),
          {opt_int("vocab", 10, 2, 64, kVocabHelp)},
          make_copy};
}

}  // namespace ap
