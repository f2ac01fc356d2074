// core/tasks/copy_first.cpp — copy_first: every position outputs the first token of the
// sequence (an attention sink / absolute-position test: attend to position 0 from anywhere).
//   T = 6   in   7 2 9 2 0 4
//           tgt  7 7 7 7 7 7
//           mask 1 1 1 1 1 1
// Option: vocab (number of symbols).
#include "tasks/task_util.hpp"

namespace ap {
namespace {

class CopyFirstTask : public NamedTask {
 public:
  explicit CopyFirstTask(int V) : NamedTask("copy_first"), V_(V) { add_symbols(V); }
  int min_len() const override { return 1; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
      for (int t = 0; t < T; ++t) {
        x[t] = r.uniform_int(V_);
        y[t] = x[0];
        m[t] = 1;
      }
    });
  }

 private:
  int V_;
};

}  // namespace

std::unique_ptr<Task> make_copy_first(const nlohmann::json& config) {
  TaskOptions opt(config, "copy_first");
  return std::make_unique<CopyFirstTask>(opt.get_int("vocab"));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_copy_first() {
  return {"copy_first",
          "Every position outputs the first token.",
          "in: 7 2 9 2 0 4 | tgt: 7 7 7 7 7 7 | mask: 1 1 1 1 1 1",
          task_model_defaults(16, true, 1000, 32, 2, 1, 32),
          {opt_int("vocab", 10, 2, 64, kVocabHelp)},
          make_copy_first};
}

}  // namespace ap
