// core/tasks/repeat.cpp — repeat: continue a pattern periodically.
// A random pattern w of period p (1 <= p <= repeat_period, and p <= T-2) is followed by the
// separator "|"; every later position is a slot "_" whose target continues w w w ...:
// slot j (0-based) has target w[j mod p]. The separator's position varies with p, so the model
// must find it; a longer T just means more repetitions.
//   T = 10, p = 3   in   2 7 5 | _ _ _ _ _ _
//                   tgt  . . . . 2 7 5 2 7 5
//                   mask 0 0 0 0 1 1 1 1 1 1
// Options: vocab (number of symbols), repeat_period (longest period).
#include <algorithm>

#include "tasks/task_util.hpp"

namespace ap {
namespace {

class RepeatTask : public NamedTask {
 public:
  RepeatTask(int V, int P) : NamedTask("repeat"), V_(V), P_(P) {
    add_symbols(V);
    sep_ = add_token("|");
    slot_ = add_token("_");
  }
  int min_len() const override { return 3; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
      const int p = r.range(1, std::min(P_, T - 2));
      for (int i = 0; i < p; ++i) {
        x[i] = r.uniform_int(V_);
        y[i] = sep_;  // not scored
      }
      x[p] = y[p] = sep_;
      for (int t = p + 1; t < T; ++t) {
        x[t] = slot_;
        y[t] = x[(t - p - 1) % p];
        m[t] = 1;
      }
    });
  }

 private:
  int V_, P_, sep_, slot_;
};

}  // namespace

std::unique_ptr<Task> make_repeat(const nlohmann::json& config) {
  TaskOptions opt(config, "repeat");
  const int V = opt.get_int("vocab");
  return std::make_unique<RepeatTask>(V, opt.get_int("repeat_period"));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_repeat() {
  return {"repeat",
          "Continue a short pattern periodically after the separator.",
          "in: 2 7 5 | _ _ _ _ _ _ | tgt: . . . . 2 7 5 2 7 5 | mask: 0 0 0 0 1 1 1 1 1 1",
          task_model_defaults(16, true, 2000, 32, 2, 2, 32),
          {opt_int("repeat_period", 4, 1, 64, "longest pattern length p (p is drawn in 1..this)"),
           opt_int("vocab", 10, 2, 64, kVocabHelp)},
          make_repeat};
}

}  // namespace ap
