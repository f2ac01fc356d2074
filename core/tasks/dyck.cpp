// core/tasks/dyck.cpp — dyck: nesting depth of a well-nested bracket string, at every position.
// The input is a random prefix of a Dyck word over `dyck_types` bracket kinds: at depth 0 it
// opens, at depth dyck_max_depth it closes, otherwise it opens or closes with probability 1/2,
// and a closing bracket always matches the innermost open one. Target at t = the depth after
// token t (classes "0".."dyck_max_depth"); counting opens minus closes over the prefix.
//   T = 8, 2 kinds   in   ( [ ] ( ) ) [ ]
//                    tgt  1 2 1 2 1 0 1 0
//                    mask 1 1 1 1 1 1 1 1
// Options: dyck_types (1..4 of () [] {} <>), dyck_max_depth.
#include <vector>

#include "tasks/task_util.hpp"

namespace ap {
namespace {

class DyckTask : public NamedTask {
 public:
  DyckTask(int kinds, int depth) : NamedTask("dyck"), K_(kinds), D_(depth) {
    const char* pairs[4][2] = {{"(", ")"}, {"[", "]"}, {"{", "}"}, {"<", ">"}};
    for (int k = 0; k < K_; ++k) {  // open = 2k, close = 2k + 1
      add_token(pairs[k][0]);
      add_token(pairs[k][1]);
    }
    for (int d = 0; d <= D_; ++d) classes_.push_back(std::to_string(d));
  }
  int min_len() const override { return 1; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    std::vector<int> stack;
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
      stack.clear();
      for (int t = 0; t < T; ++t) {
        const int depth = int(stack.size());
        const bool open = depth == 0 || (depth < D_ && r.bernoulli(0.5f));
        if (open) {
          stack.push_back(r.uniform_int(K_));
          x[t] = 2 * stack.back();
        } else {
          x[t] = 2 * stack.back() + 1;
          stack.pop_back();
        }
        y[t] = int(stack.size());
        m[t] = 1;
      }
    });
  }

 private:
  int K_, D_;
};

}  // namespace

std::unique_ptr<Task> make_dyck(const nlohmann::json& config) {
  TaskOptions opt(config, "dyck");
  const int kinds = opt.get_int("dyck_types");
  return std::make_unique<DyckTask>(kinds, opt.get_int("dyck_max_depth"));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_dyck() {
  return {"dyck",
          "Nesting depth of well-nested brackets, at every position.",
          "in: ( [ ] ( ) ) [ ] | tgt: 1 2 1 2 1 0 1 0 | mask: 1 1 1 1 1 1 1 1",
          task_model_defaults(16, true, 2000, 32, 2, 2, 32),
          {opt_int("dyck_max_depth", 8, 1, 64, "deepest nesting generated; the classes are depths 0..this"),
           opt_int("dyck_types", 2, 1, 4, "bracket kinds, 1..4 of () [] {} <>")},
          make_dyck};
}

}  // namespace ap
