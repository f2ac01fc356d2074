// core/tasks/modular_addition.cpp — modular_addition: a_1 + ... + a_k mod p.
// k = (T - 1) / 2 terms in [0, p): a_1 "+" a_2 ... "+" a_k "=" then one answer slot "_" whose
// target is the sum mod p; an even T ends with a pad "." (mask 0). At the default T = 5 this is
// the classic a + b mod p table (p^2 examples, ~10% held out); longer T adds terms.
//   T = 5, p = 11   in   7 + 9 = _
//                   tgt  . . . . 5
//                   mask 0 0 0 0 1
// Option: modular_p (the modulus; 11 keeps the table small enough for tiny models).
#include "tasks/task_util.hpp"

namespace ap {
namespace {

class ModularAdditionTask : public NamedTask {
 public:
  explicit ModularAdditionTask(int p) : NamedTask("modular_addition"), p_(p) {
    add_symbols(p);
    plus_ = add_token("+");
    eq_ = add_token("=");
    slot_ = add_token("_");
    pad_ = add_token(".");
  }
  int min_len() const override { return 5; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    const int k = (T - 1) / 2;
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
      for (int t = 0; t < T; ++t) y[t] = x[t] = pad_;
      int sum = 0;
      for (int i = 0; i < k; ++i) {
        x[2 * i] = r.uniform_int(p_);
        sum = (sum + x[2 * i]) % p_;
        x[2 * i + 1] = i + 1 < k ? plus_ : eq_;
      }
      x[2 * k] = slot_;
      y[2 * k] = sum;
      m[2 * k] = 1;
    });
  }

 private:
  int p_, plus_, eq_, slot_, pad_;
};

}  // namespace

std::unique_ptr<Task> make_modular_addition(const nlohmann::json& config) {
  TaskOptions opt(config, "modular_addition");
  return std::make_unique<ModularAdditionTask>(opt.get_int("modular_p"));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_modular_addition() {
  return {"modular_addition",
          "Sum of the terms modulo p (a + b mod p at the default length).",
          "in: 7 + 9 = _ | tgt: . . . . 5 | mask: 0 0 0 0 1",
          task_model_defaults(5, true, 3000, 64, 4, 1, 32),
          {opt_int("modular_p", 11, 2, 257, "the modulus p; terms and answer are in 0..p-1")},
          make_modular_addition};
}

}  // namespace ap
