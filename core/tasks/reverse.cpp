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
  void answer(const int32_t* q, int n, int32_t* out) const override {
    std::reverse_copy(q, q + n, out);
  }
};

}  // namespace

std::unique_ptr<Task> make_reverse(const nlohmann::json& config) {
  TaskOptions opt(config, "reverse");
  return std::make_unique<ReverseTask>(opt.get_int("vocab", 2, 64));
}

}  // namespace ap
