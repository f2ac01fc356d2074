// core/tasks/sort.cpp — sort: write a random digit string in ascending order.
// Layout: answer slots (task_util.hpp): n = T/2 symbols, then n slots "_" whose targets are the
// symbols sorted ascending (duplicates kept); an odd T ends with a pad ".".
//   T = 11   in   3 1 4 1 5 _ _ _ _ _ .
//            tgt  . . . . . 1 1 3 4 5 .
//            mask 0 0 0 0 0 1 1 1 1 1 0
// Option: vocab (number of symbols).
#include <algorithm>

#include "tasks/task_util.hpp"

namespace ap {
namespace {

class SortTask : public SlotAnswerTask {
 public:
  explicit SortTask(int V) : SlotAnswerTask("sort", V) {}

 protected:
  void answer(const int32_t* q, int n, int32_t* out) const override {
    std::copy(q, q + n, out);
    std::sort(out, out + n);
  }
};

}  // namespace

std::unique_ptr<Task> make_sort(const nlohmann::json& config) {
  TaskOptions opt(config, "sort");
  return std::make_unique<SortTask>(opt.get_int("vocab"));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_sort() {
  return {"sort",
          "Write a random digit string in ascending order.",
          "in: 3 1 4 1 5 _ _ _ _ _ . | tgt: . . . . . 1 1 3 4 5 . | mask: 0 0 0 0 0 1 1 1 1 1 0",
          task_model_defaults(16, true, 3000, 32, 2, 2, 32),
          {opt_int("vocab", 10, 2, 64, kVocabHelp)},
          make_sort};
}

}  // namespace ap
