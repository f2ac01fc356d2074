// core/tasks/mlm.cpp — mlm: a masked language model on the config's "text" (the text task's
// corpus and split: characters are bytes, train windows from the first 90%, held-out windows from
// the last 10%), for a bidirectional model, as BERT and seed 000's TDLM are trained. Per window of
// T characters, k = max(1, round(0.15 T)) positions are chosen (uniformly, without replacement);
// of the chosen positions 80% become the [MASK] token, 10% a random character (uniform over the
// text's characters) and 10% stay as they are. The target of every position is its own original
// character, and only the chosen positions are scored (mask 1), so the loss and the bits per
// character count the chosen positions alone (seed 000's bpd = loss / ln 2, over the masked
// tokens). Inputs: the text's characters plus [MASK] (the last id); classes: the characters.
//   T = 8, k = 1    text  T h e ␣ o r d e
//                   in    T h e ␣ [MASK] r d e      (position 4 chosen, the 80% case)
//                   tgt   T h e ␣ o r d e
//                   mask  0 0 0 0 1 0 0 0
// At T = 64, k = 10: on average 8 [MASK], 1 random character and 1 unchanged among them.
// Option: text (the text task's). docs/corpus.md ("The masked language model") has the rule and a worked example.
#include <algorithm>
#include <cmath>
#include <vector>

#include "io/json.hpp"
#include "tasks/task_util.hpp"
#include "tasks/text.hpp"

namespace ap {
namespace {

class MlmTask : public NamedTask {
 public:
  explicit MlmTask(std::string text) : NamedTask("mlm"), text_(std::move(text)) {
    for (char c : text_.chars()) add_token(CharText::char_name((unsigned char)c));
    classes_ = tokens_;
    mask_id_ = add_token("[MASK]");
  }
  int min_len() const override { return 1; }
  int answer_slot() const override { return -1; }  // the text may hold '_'; no slots here
  std::string token_text(int id) const override {
    return id == mask_id_ ? "[MASK]" : std::string(1, text_.char_of(id));
  }
  static int chosen_per_window(int T) { return std::max(1, int(std::lround(0.15 * T))); }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    start_batch(B, T, out);
    const bool train = split == Split::Train;
    const int k = chosen_per_window(T);
    std::vector<int> order(size_t(T), 0);
    for (int b = 0; b < B; ++b) {
      int32_t* x = &out.inputs[size_t(b) * T];
      int32_t* y = &out.targets[size_t(b) * T];
      uint8_t* m = &out.mask[size_t(b) * T];
      const int s = text_.start(rng, T, train);
      for (int t = 0; t < T; ++t) x[t] = y[t] = text_.at(s, t, train);
      for (int t = 0; t < T; ++t) order[size_t(t)] = t;
      for (int i = 0; i < k; ++i) {  // the first k of a partial Fisher–Yates shuffle
        std::swap(order[size_t(i)], order[size_t(i + rng.uniform_int(T - i))]);
        const int t = order[size_t(i)];
        m[t] = 1;
        const float u = rng.uniform();
        if (u < 0.8f)
          x[t] = mask_id_;
        else if (u < 0.9f)
          x[t] = rng.uniform_int(text_.size());
      }
    }
  }

 private:
  CharText text_;
  int mask_id_ = 0;
};

std::unique_ptr<Task> make_mlm(const nlohmann::json& config) {
  return std::make_unique<MlmTask>(checked_text(TaskOptions(config, "mlm")));
}

}  // namespace

TaskEntry task_mlm() {
  return {
      "mlm",
      "Masked language model on a text, for a bidirectional model (BERT's rule: 15% of each window's characters are "
      "chosen; 80% of them become [MASK], 10% a random character, 10% stay; only they are scored).",
      "in: T h e \u2423 [MASK] r d e | tgt: . . . . o . . . | mask: 0 0 0 0 1 0 0 0",
      task_model_defaults(32, false, 3000, 64, 4, 2, 32),
      {text_option()},
      make_mlm};
}

}  // namespace ap
