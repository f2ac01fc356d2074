// core/tasks/copy_back.cpp — copy_back: y_t = x_{t-k}, output the token k positions back.
// The first k positions have no answer and are not scored. k = 1 is the "previous token" head
// of induction circuits; larger k needs relative position information.
//   T = 8, k = 1   in   3 1 4 1 5 9 2 6
//                  tgt  . 3 1 4 1 5 9 2
//                  mask 0 1 1 1 1 1 1 1
// Options: copy_back_k (the offset k), vocab (number of symbols).
#include "tasks/task_util.hpp"

namespace ap {
namespace {

class CopyBackTask : public NamedTask {
 public:
  CopyBackTask(int k, int V) : NamedTask("copy_back"), k_(k), V_(V) { add_symbols(V); }
  int min_len() const override { return k_ + 1; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
      for (int t = 0; t < T; ++t) x[t] = r.uniform_int(V_);
      for (int t = k_; t < T; ++t) {
        y[t] = x[t - k_];
        m[t] = 1;
      }
    });
  }

 private:
  int k_, V_;
};

}  // namespace

std::unique_ptr<Task> make_copy_back(const nlohmann::json& config) {
  TaskOptions opt(config, "copy_back");
  const int k = opt.get_int("copy_back_k");
  return std::make_unique<CopyBackTask>(k, opt.get_int("vocab"));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_copy_back() {
  return {"copy_back",
          "Output the token k positions back: y_t = x_{t-k}.",
          "in: 3 1 4 1 5 9 2 6 | tgt: . 3 1 4 1 5 9 2 | mask: 0 1 1 1 1 1 1 1",
          task_model_defaults(16, true, 1000, 32, 2, 1, 32),
          {opt_int("copy_back_k", 1, 1, 1024, "offset k in y_t = x_{t-k}; the first k positions are not scored"),
           opt_int("vocab", 10, 2, 64, kVocabHelp)},
          make_copy_back};
}

}  // namespace ap
