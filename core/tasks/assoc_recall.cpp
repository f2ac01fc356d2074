// core/tasks/assoc_recall.cpp — assoc_recall: associative recall. n key-value pairs (distinct
// keys from the letters, values digits), then "?" and a query key drawn from the pairs; the
// target at the query position is its value. n = min((T - 2) / 2, assoc_recall_keys); leftover
// positions at the end are pads "." (not scored).
//   T = 10   in   c 7 a 2 f 9 e 1 ? a
//            tgt  . . . . . . . . . 2
//            mask 0 0 0 0 0 0 0 0 0 1
// Option: assoc_recall_keys (number of distinct keys, letters a..z).
#include <algorithm>
#include <numeric>
#include <vector>

#include "tasks/task_util.hpp"

namespace ap {
namespace {

class AssocRecallTask : public NamedTask {
 public:
  explicit AssocRecallTask(int keys) : NamedTask("assoc_recall"), K_(keys) {
    for (int i = 0; i < K_; ++i) add_token(std::string(1, char('a' + i)));  // keys 0..K-1
    value0_ = add_symbols(10);                                              // values K..K+9
    query_ = add_token("?");
    pad_ = add_token(".");
  }
  int min_len() const override { return 4; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    const int n = std::min((T - 2) / 2, K_);
    std::vector<int32_t> keys(static_cast<size_t>(K_));
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
      for (int t = 0; t < T; ++t) x[t] = y[t] = pad_;
      std::iota(keys.begin(), keys.end(), 0);
      r.shuffle(keys.data(), K_);
      for (int i = 0; i < n; ++i) {
        x[2 * i] = keys[size_t(i)];
        x[2 * i + 1] = value0_ + r.uniform_int(10);
      }
      const int q = r.uniform_int(n);
      x[2 * n] = query_;
      x[2 * n + 1] = x[2 * q];
      y[2 * n + 1] = x[2 * q + 1];
      m[2 * n + 1] = 1;
    });
  }

 private:
  int K_, value0_, query_, pad_;
};

}  // namespace

std::unique_ptr<Task> make_assoc_recall(const nlohmann::json& config) {
  TaskOptions opt(config, "assoc_recall");
  return std::make_unique<AssocRecallTask>(opt.get_int("assoc_recall_keys"));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_assoc_recall() {
  return {"assoc_recall",
          "Key-value pairs, then a query key: give its value.",
          "in: c 7 a 2 f 9 e 1 ? a | tgt: . . . . . . . . . 2 | mask: 0 0 0 0 0 0 0 0 0 1",
          task_model_defaults(18, true, 4000, 64, 4, 2, 32),
          {opt_int("assoc_recall_keys", 26, 1, 26, "number of distinct keys (letters a..z); at most this many pairs")},
          make_assoc_recall};
}

}  // namespace ap
