// core/tasks/marked_addition.cpp — marked_addition: the "adding problem" (Hochreiter &
// Schmidhuber 1997; the transformer tutorials' marked-sum task) over digits: among n = T - 2
// random digits exactly `marked_addition_count` are marked (tokens "0*".."9*"); after "=" one
// answer slot "_" must give the sum of the marked digits mod 10.
//   T = 8   in   3 7* 1 4 2* 9 = _
//           tgt  . .  . . .  . . 9
//           mask 0 0  0 0 0  0 0 1
// Option: marked_addition_count (how many digits are marked).
#include <numeric>
#include <vector>

#include "tasks/task_util.hpp"

namespace ap {
namespace {

class MarkedAdditionTask : public NamedTask {
 public:
  explicit MarkedAdditionTask(int count) : NamedTask("marked_addition"), count_(count) {
    add_symbols(10);
    for (int d = 0; d < 10; ++d) add_token(std::to_string(d) + "*");  // ids 10..19
    eq_ = add_token("=");
    slot_ = add_token("_");
  }
  int min_len() const override { return count_ + 2; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    const int n = T - 2;
    std::vector<int> pos(static_cast<size_t>(n));
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
      for (int i = 0; i < n; ++i) x[i] = r.uniform_int(10);
      std::iota(pos.begin(), pos.end(), 0);
      r.shuffle(pos.data(), n);
      int sum = 0;
      for (int j = 0; j < count_; ++j) {
        sum += x[pos[size_t(j)]];
        x[pos[size_t(j)]] += 10;  // the marked twin of the digit
      }
      for (int t = 0; t < T; ++t) y[t] = eq_;  // not scored
      x[n] = eq_;
      x[n + 1] = slot_;
      y[n + 1] = sum % 10;
      m[n + 1] = 1;
    });
  }

 private:
  int count_, eq_, slot_;
};

}  // namespace

std::unique_ptr<Task> make_marked_addition(const nlohmann::json& config) {
  TaskOptions opt(config, "marked_addition");
  return std::make_unique<MarkedAdditionTask>(opt.get_int("marked_addition_count"));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_marked_addition() {
  return {"marked_addition",
          "Sum of the marked digits modulo 10 (the adding problem).",
          "in: 3 7* 1 4 2* 9 = _ | tgt: . . . . . . . 9 | mask: 0 0 0 0 0 0 0 1",
          task_model_defaults(12, true, 3000, 32, 2, 2, 32),
          {opt_int("marked_addition_count", 2, 1, 16, "how many digits are marked")},
          make_marked_addition};
}

}  // namespace ap
