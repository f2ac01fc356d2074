// core/tasks/random.cpp — random: a baseline where nothing can be learned. Random input symbols
// and, independently, uniformly random targets over the same V classes; every position scored.
// The best possible loss is ln V and accuracy 1/V; anything better on held-out data is a bug.
//   T = 6   in   3 8 0 5 5 2
//           tgt  7 1 1 9 0 4
//           mask 1 1 1 1 1 1
// Option: vocab (number of symbols and of classes).
#include "tasks/task_util.hpp"

namespace ap {
namespace {

class RandomTask : public NamedTask {
 public:
  explicit RandomTask(int V) : NamedTask("random"), V_(V) { add_symbols(V); }
  int min_len() const override { return 1; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
      for (int t = 0; t < T; ++t) {
        x[t] = r.uniform_int(V_);
        y[t] = r.uniform_int(V_);
        m[t] = 1;
      }
    });
  }

 private:
  int V_;
};

}  // namespace

std::unique_ptr<Task> make_random(const nlohmann::json& config) {
  TaskOptions opt(config, "random");
  return std::make_unique<RandomTask>(opt.get_int("vocab"));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_random() {
  return {"random",
          "Baseline: random targets independent of the input; nothing can be learned.",
          "in: 3 8 0 5 5 2 | tgt: 7 1 1 9 0 4 | mask: 1 1 1 1 1 1",
          task_model_defaults(8, true, 500, 32, 2, 1, 16),
          {opt_int("vocab", 10, 2, 64, "number of symbols, and of target classes")},
          make_random};
}

}  // namespace ap
