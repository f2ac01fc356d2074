// core/tasks/order.cpp — order: one label per sequence that only the order decides. Random
// filler tokens with exactly one A and one B at two random positions; label "AB" (class 1) if A
// comes first, else "BA" (class 0). The bag of tokens is the same for both labels, so a model
// without position information stays at chance (50%).
//   T = 8   in     d A c c f B e d
//           label  AB
// Option: vocab (number of filler tokens).
#include "tasks/task_util.hpp"

namespace ap {
namespace {

class OrderTask : public NamedTask {
 public:
  explicit OrderTask(int fillers) : NamedTask("order"), F_(fillers) {
    add_token("A");
    add_token("B");
    for (int i = 0; i < F_; ++i) add_token(std::string(1, char('c' + i)));
    classes_ = {"BA", "AB"};
  }
  bool per_sequence() const override { return true; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t*) {
      for (int t = 0; t < T; ++t) x[t] = 2 + r.uniform_int(F_);
      const int a = r.uniform_int(T);
      int b = r.uniform_int(T - 1);
      if (b >= a) ++b;
      x[a] = kA;
      x[b] = kB;
      y[0] = a < b ? 1 : 0;
    });
  }

 private:
  static constexpr int kA = 0, kB = 1;
  int F_;
};

}  // namespace

std::unique_ptr<Task> make_order(const nlohmann::json& config) {
  TaskOptions opt(config, "order");
  return std::make_unique<OrderTask>(opt.get_int("vocab"));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_order() {
  return {"order",
          "Does A come before B? Same tokens either way: only positions tell.",
          "in: d A c c f B e d | label: AB",
          task_model_defaults(8, false, 1000, 32, 2, 1, 32),
          {opt_int("vocab", 4, 1, 24, "number of filler tokens besides A and B")},
          make_order};
}

}  // namespace ap
