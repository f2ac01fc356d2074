// core/tasks/two_sum.cpp — two_sum: does some pair of the digits sum to the target, mod 10?
// n = T - 3 digits x_1..x_n, then ":" and a target digit s, then one answer slot "?" whose
// target is "yes" iff x_i + x_j = s (mod 10) for some i < j. Half the rows plant such a pair;
// the other half draw digits that cannot form one (one side of each pair {v, s - v}, and a
// value with 2v = s at most once). The label is always recomputed by brute force.
//   T = 9   in   4 0 7 2 6 1 : 3 ?
//           tgt  . . . . . . . . yes        (2 + 1 = 3)
//           mask 0 0 0 0 0 0 0 0 1
#include <vector>

#include "tasks/task_util.hpp"

namespace ap {
namespace {

class TwoSumTask : public NamedTask {
 public:
  TwoSumTask() : NamedTask("two_sum") {
    add_symbols(10);
    colon_ = add_token(":");
    slot_ = add_token("?");
    no_ = add_token("no");
    yes_ = add_token("yes");
  }
  int min_len() const override { return 5; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    const int n = T - 3;
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
      const int s = r.uniform_int(10);
      if (r.bernoulli(0.5f)) {  // plant a pair
        for (int i = 0; i < n; ++i) x[i] = r.uniform_int(10);
        const int i = r.uniform_int(n);
        int j = r.uniform_int(n - 1);
        if (j >= i) ++j;
        x[j] = ((s - x[i]) % 10 + 10) % 10;
      } else {                            // avoid every pair
        std::vector<int> allowed, selfs;  // selfs: 2v = s (mod 10), usable once each
        for (int v = 0; v < 10; ++v) {
          const int w = ((s - v) % 10 + 10) % 10;
          if (w == v)
            selfs.push_back(v);
          else if (v < w)
            allowed.push_back(r.bernoulli(0.5f) ? v : w);
        }
        for (int i = 0; i < n; ++i) x[i] = allowed[size_t(r.uniform_int(int(allowed.size())))];
        for (int v : selfs)
          if (r.bernoulli(0.5f)) x[r.uniform_int(n)] = v;  // may overwrite the other self: fine
      }
      bool found = false;
      for (int i = 0; i < n && !found; ++i)
        for (int j = i + 1; j < n && !found; ++j) found = (x[i] + x[j]) % 10 == s;
      for (int t = 0; t < T; ++t) y[t] = slot_;  // not scored
      x[n] = colon_;
      x[n + 1] = s;
      x[n + 2] = slot_;
      y[n + 2] = found ? yes_ : no_;
      m[n + 2] = 1;
    });
  }

 private:
  int colon_, slot_, no_, yes_;
};

}  // namespace

std::unique_ptr<Task> make_two_sum(const nlohmann::json& config) {
  TaskOptions opt(config, "two_sum");
  return std::make_unique<TwoSumTask>();
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_two_sum() {
  return {"two_sum",
          "Do two of the digits sum to the target (mod 10)?",
          "in: 4 0 7 2 6 1 : 3 ? | tgt: . . . . . . . . yes | mask: 0 0 0 0 0 0 0 0 1",
          task_model_defaults(11, true, 3000, 64, 4, 2, 32),
          {},
          make_two_sum};
}

}  // namespace ap
