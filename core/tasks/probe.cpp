// core/tasks/probe.cpp — probe: can the model tell positions apart? Every input is the same
// single token "x"; position t must output its own index t. Nothing but the position encoding
// distinguishes the positions, so this measures what the encoding provides (bidirectional by
// default, so that a causal mask does not leak the position by counting). Classes 0..L-1 with
// L = max(seq_len, eval_len) from the config, which is also the longest T. There is only one
// example per T, so train and held-out coincide.
//   T = 8   in   x x x x x x x x
//           tgt  0 1 2 3 4 5 6 7
//           mask 1 1 1 1 1 1 1 1
#include <algorithm>

#include "tasks/task_util.hpp"

namespace ap {
namespace {

class ProbeTask : public NamedTask {
 public:
  explicit ProbeTask(int L) : NamedTask("probe") {
    add_token("x");
    for (int t = 0; t < L; ++t) classes_.push_back(std::to_string(t));
  }
  int min_len() const override { return 1; }
  int max_len() const override { return num_classes(); }
  void generate(Rng&, int B, int T, Split, Batch& out) const override {
    start_batch(B, T, out);  // inputs already all 0 = "x"
    for (int b = 0; b < B; ++b)
      for (int t = 0; t < T; ++t) {
        out.targets[size_t(b) * T + t] = t;
        out.mask[size_t(b) * T + t] = 1;
      }
  }
};

}  // namespace

std::unique_ptr<Task> make_probe(const nlohmann::json& config) {
  TaskOptions opt(config, "probe");
  const int seq_len = opt.get_int("seq_len", 1, 4096);
  return std::make_unique<ProbeTask>(std::max(seq_len, opt.get_int("eval_len", 1, 4096)));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_probe() {
  return {"probe",
          "Identical tokens; each position must output its own index.",
          "in: x x x x x x x x | tgt: 0 1 2 3 4 5 6 7 | mask: 1 1 1 1 1 1 1 1",
          task_model_defaults(8, false, 600, 32, 2, 1, 16),
          {},
          make_probe};
}

}  // namespace ap
