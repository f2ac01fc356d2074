// core/tasks/copy_memory.cpp — copy_memory: the copying-memory problem (Hochreiter &
// Schmidhuber 1997; Arjovsky et al. 2016): k = copy_memory_k random symbols, a stretch of blanks
// "-", the delimiter ":", then k blanks during which the model must recall the k symbols in
// order. The gap T - 2k - 1 grows with T. Only the last k positions are scored.
//   T = 12, k = 3   in   4 1 6 - - - - - : - - -
//                   tgt  . . . . . . . . . 4 1 6
//                   mask 0 0 0 0 0 0 0 0 0 1 1 1
// Options: copy_memory_k (symbols to remember), vocab (number of symbols).
#include "tasks/task_util.hpp"

namespace ap {
namespace {

class CopyMemoryTask : public NamedTask {
 public:
  CopyMemoryTask(int k, int V) : NamedTask("copy_memory"), k_(k), V_(V) {
    add_symbols(V);
    blank_ = add_token("-");
    delim_ = add_token(":");
  }
  int min_len() const override { return 2 * k_ + 1; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
      for (int t = 0; t < T; ++t) x[t] = y[t] = blank_;
      x[T - k_ - 1] = y[T - k_ - 1] = delim_;
      for (int i = 0; i < k_; ++i) {
        x[i] = r.uniform_int(V_);
        y[T - k_ + i] = x[i];
        m[T - k_ + i] = 1;
      }
    });
  }

 private:
  int k_, V_, blank_, delim_;
};

}  // namespace

std::unique_ptr<Task> make_copy_memory(const nlohmann::json& config) {
  TaskOptions opt(config, "copy_memory");
  const int k = opt.get_int("copy_memory_k");
  return std::make_unique<CopyMemoryTask>(k, opt.get_int("vocab"));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_copy_memory() {
  return {"copy_memory",
          "Recall the first k symbols after a long blank stretch and a delimiter.",
          "in: 4 1 6 - - - - - : - - - | tgt: . . . . . . . . . 4 1 6 | mask: 0 0 0 0 0 0 0 0 0 1 1 1",
          task_model_defaults(24, true, 2000, 32, 2, 2, 32),
          {opt_int("copy_memory_k", 4, 1, 64, "how many symbols to remember (min_len = 2k + 1)"),
           opt_int("vocab", 8, 2, 64, kVocabHelp)},
          make_copy_memory};
}

}  // namespace ap
