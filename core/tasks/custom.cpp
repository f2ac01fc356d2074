// core/tasks/custom.cpp — custom: the learner's own input -> output pairs (custom_pairs.hpp reads
// them). The vocabulary is "<pad>", "->", "_" and the pairs' tokens (numbers by value, then the
// rest). Two layouts, chosen from the pairs:
//   answer slots (some output has 2+ tokens): the input, "->", one slot "_" per output token
//   (targets: the output, mask 1 there), then "<pad>" to T;
//     "3 1 2 -> 1 2 3", T = 8   in   3 1 2 -> _ _ _ <pad>
//                               tgt  . . . .  1 2 3 .
//                               mask 0 0 0 0  1 1 1 0
//   label (every output is one token): the input, then "<pad>" to T; one label per sequence,
//   the classes being the output tokens.
// Train / held-out: a pair is held out iff the hash of its input ids falls in the lowest 10%
// (split.hpp), and each split gets at least one pair. A batch row is a pair of its split, drawn
// uniformly. Empty text: a built-in set (sort three digits 0-4, 125 pairs).
// Option: custom_pairs.
#include <algorithm>
#include <map>

#include "refusal/refusal.hpp"
#include "tasks/custom_pairs.hpp"
#include "tasks/task_util.hpp"

namespace ap {
namespace {

std::string builtin_pairs() {
  std::string s = "# sort three digits\n";
  for (int a = 0; a < 5; ++a)
    for (int b = 0; b < 5; ++b)
      for (int c = 0; c < 5; ++c) {
        int v[3] = {a, b, c};
        std::sort(v, v + 3);
        s += std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(c) + " -> " + std::to_string(v[0]) +
             " " + std::to_string(v[1]) + " " + std::to_string(v[2]) + "\n";
      }
  return s;
}

class CustomTask : public NamedTask {
 public:
  explicit CustomTask(const CustomPairs& p) : NamedTask("custom"), label_(p.label) {
    pad_ = add_token("<pad>");
    arrow_ = add_token(kPairArrow);
    slot_ = add_token("_");
    std::map<std::string, int> id;
    for (auto& t : p.tokens) id[t] = add_token(t);
    std::map<std::string, int> cls;
    if (label_) {  // the classes: the output tokens, in vocabulary order
      for (auto& t : p.tokens)
        for (auto& q : p.pairs)
          if (q.out[0] == t) {
            cls[t] = int(classes_.size()), classes_.push_back(t);
            break;
          }
    }
    for (auto& q : p.pairs) {
      Row r;
      for (auto& t : q.in) r.in.push_back(id[t]);
      for (auto& t : q.out) r.out.push_back(label_ ? cls[t] : id[t]);
      const bool held = hash_is_heldout(hash_tokens(r.in.data(), int(r.in.size())));
      (held ? heldout_ : train_).push_back(std::move(r));
    }
    // each split holds at least one pair: move the last pair of the larger one
    if (heldout_.empty()) heldout_.push_back(train_.back()), train_.pop_back();
    if (train_.empty()) train_.push_back(heldout_.back()), heldout_.pop_back();
    min_len_ = label_ ? p.longest_in : p.longest_in + 1 + p.longest_out;
  }
  bool per_sequence() const override { return label_; }
  int min_len() const override { return min_len_; }
  int max_len() const override { return 4096; }
  int answer_slot() const override { return label_ ? -1 : slot_; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    start_batch(B, T, out);
    const auto& rows = split == Split::Train ? train_ : heldout_;
    for (int b = 0; b < B; ++b) {
      const Row& r = rows[size_t(rng.uniform_int(int(rows.size())))];
      int32_t* x = &out.inputs[size_t(b) * T];
      std::fill(x, x + T, pad_);
      std::copy(r.in.begin(), r.in.end(), x);
      if (label_) {
        out.targets[size_t(b)] = r.out[0];
        continue;
      }
      int32_t* y = &out.targets[size_t(b) * T];
      uint8_t* m = &out.mask[size_t(b) * T];
      std::fill(y, y + T, pad_);  // not scored
      const int n = int(r.in.size());
      x[n] = arrow_;
      for (size_t i = 0; i < r.out.size(); ++i) x[n + 1 + i] = slot_, y[n + 1 + i] = r.out[i], m[n + 1 + i] = 1;
    }
  }
  int train_pairs() const { return int(train_.size()); }

 private:
  struct Row {
    std::vector<int32_t> in, out;
  };
  bool label_;
  int pad_ = 0, arrow_ = 0, slot_ = 0, min_len_ = 1;
  std::vector<Row> train_, heldout_;
};

}  // namespace

std::unique_ptr<Task> make_custom(const nlohmann::json& config) {
  TaskOptions opt(config, "custom");
  std::string text = opt.get_string("custom_pairs");
  const bool builtin =
      text.size() <= CustomPairsLimits::kMaxBytes && text.find_first_not_of(" \t\r\n") == std::string::npos;
  CustomPairs pairs;
  try {
    pairs = parse_custom_pairs(builtin ? builtin_pairs() : text);
  } catch (const Refusal& e) {
    // the docs' form, the line first: "custom_pairs: line 21: no '->' ..." (no echo of the field)
    refuse_within("custom_pairs", e);
  }
  auto task = std::make_unique<CustomTask>(pairs);
  const int seq_len = opt.get_int("seq_len", 1, 1 << 16);
  if (seq_len < task->min_len())
    opt.fail(pairs.label ? "custom.seq_len_short_label" : "custom.seq_len_short", "seq_len",
             {{"min", std::to_string(task->min_len())}});
  return task;
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_custom() {
  return {
      "custom",
      "Your own task: input -> output pairs, one per line (e.g. '3 1 2 -> 1 2 3'); the engine builds the vocabulary, "
      "the held-out split and the targets.",
      "in: 3 1 2 -> _ _ _ <pad> | tgt: . . . . 1 2 3 . | mask: 0 0 0 0 1 1 1 0",
      task_model_defaults(8, true, 2000, 32, 2, 2, 32),
      {opt_string(
          "custom_pairs", "",
          "input -> output pairs, one per line, tokens separated by spaces ('3 1 2 -> 1 2 3'); '#' starts a comment "
          "line; at most 10,000 pairs, 64 tokens a side, 512 distinct tokens, 256 KiB; empty = sort three digits 0-4")},
      make_custom};
}

}  // namespace ap
