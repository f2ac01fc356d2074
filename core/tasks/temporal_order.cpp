// core/tasks/temporal_order.cpp — temporal_order: the temporal-order problem (Hochreiter &
// Schmidhuber 1997, experiment 6a), one label per sequence. Noise symbols a b c d fill the
// sequence except two random positions t1 < t2 holding X or Y each; the class is the ordered
// pair (XX, XY, YX, YY). Without position information XY and YX look the same.
//   T = 10   in     c X a d b Y d a c b
//            label  XY
#include "tasks/task_util.hpp"

namespace ap {
namespace {

class TemporalOrderTask : public NamedTask {
 public:
  TemporalOrderTask() : NamedTask("temporal_order") {
    for (const char* n : {"a", "b", "c", "d", "X", "Y"}) add_token(n);
    classes_ = {"XX", "XY", "YX", "YY"};
  }
  bool per_sequence() const override { return true; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t*) {
      for (int t = 0; t < T; ++t) x[t] = r.uniform_int(4);
      const int t1 = r.uniform_int(T - 1);
      const int t2 = r.range(t1 + 1, T - 1);
      const int first = r.uniform_int(2), second = r.uniform_int(2);  // 0 = X, 1 = Y
      x[t1] = kX + first;
      x[t2] = kX + second;
      y[0] = 2 * first + second;
    });
  }

 private:
  static constexpr int kX = 4;
};

}  // namespace

std::unique_ptr<Task> make_temporal_order(const nlohmann::json& config) {
  TaskOptions opt(config, "temporal_order");
  return std::make_unique<TemporalOrderTask>();
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_temporal_order() {
  return {"temporal_order",
          "Classify the order of two marked symbols (X, Y) hidden in noise.",
          "in: c X a d b Y d a c b | label: XY",
          task_model_defaults(16, false, 2000, 32, 2, 2, 32),
          {},
          make_temporal_order};
}

}  // namespace ap
