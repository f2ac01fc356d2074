// core/tasks/addition.cpp — addition: add two n-digit numbers, digits LEAST significant first
// (so each answer digit depends only on digits already seen; the carry runs left to right).
// n = (T - 3) / 3: a_0..a_{n-1} "+" b_0..b_{n-1} "=" then n+1 answer slots "_" holding the
// digits of a + b (least significant first, with the final carry); leftover positions are
// pads "." (mask 0). Leading zeros are allowed: every number has exactly n digits.
//   T = 12: 472 + 385 = 857   in   2 7 4 + 5 8 3 = _ _ _ _
//                             tgt  . . . . . . . . 7 5 8 0
//                             mask 0 0 0 0 0 0 0 0 1 1 1 1
#include "tasks/task_util.hpp"

namespace ap {
namespace {

class AdditionTask : public NamedTask {
 public:
  AdditionTask() : NamedTask("addition") {
    add_symbols(10);
    plus_ = add_token("+");
    eq_ = add_token("=");
    slot_ = add_token("_");
    pad_ = add_token(".");
  }
  int min_len() const override { return 6; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    const int n = (T - 3) / 3;
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
      for (int t = 0; t < T; ++t) y[t] = x[t] = pad_;
      int32_t* a = x;
      int32_t* b = x + n + 1;
      for (int i = 0; i < n; ++i) {
        a[i] = r.uniform_int(10);
        b[i] = r.uniform_int(10);
      }
      x[n] = plus_;
      x[2 * n + 1] = eq_;
      int carry = 0;
      for (int i = 0; i <= n; ++i) {
        const int s = (i < n ? a[i] + b[i] : 0) + carry;
        const int t = 2 * n + 2 + i;
        x[t] = slot_;
        y[t] = s % 10;
        m[t] = 1;
        carry = s / 10;
      }
    });
  }

 private:
  int plus_, eq_, slot_, pad_;
};

}  // namespace

std::unique_ptr<Task> make_addition(const nlohmann::json& config) {
  TaskOptions opt(config, "addition");
  return std::make_unique<AdditionTask>();
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_addition() {
  return {"addition",
          "Add two numbers written least-significant digit first.",
          "in: 2 7 4 + 5 8 3 = _ _ _ _ | tgt: . . . . . . . . 7 5 8 0 | mask: 0 0 0 0 0 0 0 0 1 1 1 1",
          task_model_defaults(12, true, 4000, 64, 4, 2, 32),
          {},
          make_addition};
}

}  // namespace ap
