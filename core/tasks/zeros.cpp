// core/tasks/zeros.cpp — zeros: a sanity check. Random input symbols, every target is class 0
// (of two), every position scored: any model should reach loss ~0 within a few steps.
//   T = 6   in   3 8 0 5 5 2
//           tgt  0 0 0 0 0 0
//           mask 1 1 1 1 1 1
// Option: vocab (number of input symbols).
#include "tasks/task_util.hpp"

namespace ap {
namespace {

class ZerosTask : public NamedTask {
 public:
  explicit ZerosTask(int V) : NamedTask("zeros"), V_(V) {
    add_symbols(V);
    classes_ = {"0", "1"};
  }
  int min_len() const override { return 1; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
      for (int t = 0; t < T; ++t) {
        x[t] = r.uniform_int(V_);
        y[t] = 0;
        m[t] = 1;
      }
    });
  }

 private:
  int V_;
};

}  // namespace

std::unique_ptr<Task> make_zeros(const nlohmann::json& config) {
  TaskOptions opt(config, "zeros");
  return std::make_unique<ZerosTask>(opt.get_int("vocab"));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_zeros() {
  return {"zeros",
          "Sanity check: every target is 0.",
          "in: 3 8 0 5 5 2 | tgt: 0 0 0 0 0 0 | mask: 1 1 1 1 1 1",
          task_model_defaults(8, true, 200, 32, 2, 1, 16),
          {opt_int("vocab", 10, 1, 64, kVocabHelp)},
          make_zeros};
}

}  // namespace ap
