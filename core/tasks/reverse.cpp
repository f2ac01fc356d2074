// core/tasks/reverse.cpp — reverse: write a random digit string backwards.
// Layout: answer slots (task_util.hpp): n = T/2 symbols, then n slots "_" whose targets are the
// symbols last-to-first; an odd T ends with a pad ".".
//   T = 10   in   3 1 4 1 5 _ _ _ _ _
//            tgt  . . . . . 5 1 4 1 3
//            mask 0 0 0 0 0 1 1 1 1 1
// Option: vocab (number of symbols).
#include <algorithm>

#include "tasks/task_util.hpp"

namespace ap {
namespace {

class ReverseTask : public SlotAnswerTask {
 public:
  explicit ReverseTask(int V) : SlotAnswerTask("reverse", V) {}

 protected:
  void answer(const int32_t* q, int n, int32_t* out) const override { std::reverse_copy(q, q + n, out); }
};

}  // namespace

std::unique_ptr<Task> make_reverse(const nlohmann::json& config) {
  TaskOptions opt(config, "reverse");
  return std::make_unique<ReverseTask>(opt.get_int("vocab"));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_reverse() {
  return {"reverse",
          "Write a random digit string backwards.",
          "in: 3 1 4 1 5 _ _ _ _ _ | tgt: . . . . . 5 1 4 1 3 | mask: 0 0 0 0 0 1 1 1 1 1",
          task_model_defaults(16, true, 3000, 32, 2, 2, 32),
          {opt_int("vocab", 10, 2, 64, kVocabHelp)},
          make_reverse};
}

}  // namespace ap
