// core/tasks/parity.cpp — parity: the running parity of a random bit string, at every position.
// Target at t is x_1 xor ... xor x_t (a bidirectional model has to learn to ignore the future).
//   T = 8   in   1 0 1 1 0 0 1 0
//           tgt  1 1 0 1 1 1 0 0
//           mask 1 1 1 1 1 1 1 1
#include "tasks/task_util.hpp"

namespace ap {
namespace {

class ParityTask : public NamedTask {
 public:
  ParityTask() : NamedTask("parity") { add_symbols(2); }
  int min_len() const override { return 1; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
      int parity = 0;
      for (int t = 0; t < T; ++t) {
        x[t] = r.uniform_int(2);
        parity ^= x[t];
        y[t] = parity;
        m[t] = 1;
      }
    });
  }
};

}  // namespace

std::unique_ptr<Task> make_parity(const nlohmann::json& config) {
  TaskOptions opt(config, "parity");  // no options; checks the config is an object
  return std::make_unique<ParityTask>();
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_parity() {
  return {"parity",
          "Running parity of a bit string, at every position.",
          "in: 1 0 1 1 0 0 1 0 | tgt: 1 1 0 1 1 1 0 0 | mask: 1 1 1 1 1 1 1 1",
          task_model_defaults(16, true, 3000, 32, 2, 2, 32),
          {},
          make_parity};
}

}  // namespace ap
