// core/tasks/slapjack.cpp — slapjack: slap (class 1) on every jack, per token.
// Cards A 2 .. 10 J Q K; each card is a jack with probability 1/4 (so slaps are not rare),
// otherwise uniform over the other twelve. With slapjack_doubles (a common house rule) a card
// equal to the previous card is slapped too, which needs attention to the previous position.
//   T = 8   in   7 J 3 K K J 9 2
//           tgt  - slap - - - slap - -          (slapjack_doubles false)
//           mask 1 1 1 1 1 1 1 1
// Option: slapjack_doubles.
#include "tasks/task_util.hpp"

namespace ap {
namespace {

class SlapjackTask : public NamedTask {
 public:
  explicit SlapjackTask(bool doubles) : NamedTask("slapjack"), doubles_(doubles) {
    for (const char* c : {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}) add_token(c);
    classes_ = {"-", "slap"};
  }
  int min_len() const override { return 1; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
      for (int t = 0; t < T; ++t) {
        if (r.bernoulli(0.25f)) {
          x[t] = kJack;
        } else {
          x[t] = r.uniform_int(12);
          if (x[t] >= kJack) ++x[t];
        }
        y[t] = x[t] == kJack || (doubles_ && t > 0 && x[t] == x[t - 1]);
        m[t] = 1;
      }
    });
  }

 private:
  static constexpr int kJack = 10;
  bool doubles_;
};

}  // namespace

std::unique_ptr<Task> make_slapjack(const nlohmann::json& config) {
  TaskOptions opt(config, "slapjack");
  return std::make_unique<SlapjackTask>(opt.get_bool("slapjack_doubles"));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_slapjack() {
  return {"slapjack",
          "Slap every jack (and, optionally, every card equal to the previous one).",
          "in: 7 J 3 K K J 9 2 | tgt: - slap - - - slap - - | mask: 1 1 1 1 1 1 1 1",
          task_model_defaults(16, true, 500, 32, 2, 1, 32),
          {opt_bool("slapjack_doubles", false, "also slap a card equal to the previous card")},
          make_slapjack};
}

}  // namespace ap
