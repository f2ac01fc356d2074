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
  return std::make_unique<CopyTask>(opt.get_int("vocab", 2, 64));
}

}  // namespace ap
