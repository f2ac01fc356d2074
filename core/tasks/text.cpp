// core/tasks/text.cpp — text: a character language model on the config's "text" (empty or
// absent: the built-in corpus below). Characters are bytes; the vocabulary is the sorted set of
// bytes in the text. A row is a random window: input = text[s .. s+T), target = text[s+1 ..
// s+T+1), every position scored. Train windows come from the first 90% of the text, held-out
// windows from the last 10%; a window longer than its region wraps around within the region
// (evaluation at eval_len can be longer than the held-out part). The text must be long enough for
// the held-out part to hold one window of seq_len + 1 characters, and at most 2 MiB (text.hpp).
// The page sends the bundled corpus (the Jargon File, build-scripts/corpus.mjs, docs/corpus.md);
// the CLI reads a file (--text-file). The essay below is the fallback for a config without text:
// 4 KB, which a model memorises within a few hundred steps (tests use it).
//   T = 8   in   T h e ␣ o r d e          ("␣" is the space character)
//           tgt  h e ␣ o r d e r
//           mask 1 1 1 1 1 1 1 1
// Option: text.
#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "io/json.hpp"
#include "tasks/task_util.hpp"
#include "tasks/text.hpp"

namespace ap {
namespace {

// Original prose, written for this project.
const char* const kCorpus =
    "The order of words carries meaning. A dog that bites a man is ordinary news, but a man "
    "who bites a dog is a story, and the only difference between the two sentences is where "
    "each word stands. A model that reads text must therefore know not only which tokens are "
    "present but also where they are, and attention, left to itself, does not know this.\n\n"
    "Attention compares every position with every other position. Each token asks a question, "
    "the query, and every token offers an answer to be matched, the key. The better a key "
    "fits a query, the more of that token's value flows into the result. The rule is elegant "
    "and fast, yet it is blind to order: shuffle the tokens and the same weights come out, "
    "merely shuffled along with them. A bag of words cannot tell the dog from the man.\n\n"
    "So we give the model a sense of place. The oldest trick adds a fixed pattern of waves to "
    "each token, slow waves and fast waves, so that every position wears a distinct signature "
    "and nearby positions wear similar ones. Another trick learns one vector per position, "
    "which works well until the text grows longer than anything seen in training, when the "
    "model meets positions it has never learned. A third trick rotates queries and keys by an "
    "angle that grows with position, so that the score between two tokens depends only on "
    "how far apart they are. A fourth simply tilts the scores, charging a small penalty for "
    "every step of distance, and lets nearby words speak louder than distant ones.\n\n"
    "Each choice is a bet about language. Rotations bet that relative distance matters more "
    "than absolute place. Penalties bet that recent words matter most. Learned vectors bet "
    "that the training lengths are all the lengths there will ever be. None of the bets is "
    "free, and the way to see what each one buys is to train small models on small tasks: "
    "copy a string, reverse it, find the first token, count the brackets, recall a value from "
    "its key. Then stretch the sequences beyond the training length and watch which models "
    "keep their footing and which ones stumble.\n\n"
    "How the scores become weights matters too. The softmax turns any row of scores into "
    "weights that are positive and sum to one, so a token must always spend its whole budget "
    "of attention somewhere, even when nothing deserves it. Some variants allow a row to sum "
    "to less than one, or let weights reach exactly zero, and a model built on them may learn "
    "to ignore what it does not need. Small experiments, run in a browser in a few seconds, "
    "make these differences visible: a heat map of the weights shows a diagonal where a model "
    "copies, an anti-diagonal where it reverses, and a bright first column where it keeps "
    "returning to the start.\n";

class TextTask : public NamedTask {
 public:
  explicit TextTask(std::string text) : NamedTask("text"), text_(std::move(text)) {
    for (char c : text_.chars()) add_token(CharText::char_name((unsigned char)c));
  }
  int min_len() const override { return 1; }
  // Every position predicts the next character: no answer slots, even when the text holds '_'
  // (the name NamedTask takes for a slot), as the Jargon File does.
  int answer_slot() const override { return -1; }
  std::string token_text(int id) const override { return std::string(1, text_.char_of(id)); }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    start_batch(B, T, out);
    const bool train = split == Split::Train;
    for (int b = 0; b < B; ++b) {
      const int s = text_.start(rng, T + 1, train);
      for (int t = 0; t < T; ++t) {
        const size_t i = size_t(b) * T + t;
        out.inputs[i] = text_.at(s, t, train);
        out.targets[i] = text_.at(s, t + 1, train);
        out.mask[i] = 1;
      }
    }
  }

 private:
  CharText text_;
};

}  // namespace

CharText::CharText(std::string text) : text_(std::move(text)) {
  bool seen[256] = {};
  for (unsigned char c : text_) seen[c] = true;
  for (int c = 0; c < 256; ++c) {
    id_of_[c] = seen[c] ? int(chars_.size()) : -1;
    if (seen[c]) chars_.push_back(char(c));
  }
  cut_ = int(text_.size()) * 9 / 10;
}

int CharText::start(Rng& rng, int n, bool train) const {
  const int len = train ? cut_ : int(text_.size()) - cut_;
  return n <= len ? rng.uniform_int(len - n + 1) : rng.uniform_int(len);
}

int CharText::at(int s, int i, bool train) const {
  const int lo = train ? 0 : cut_;
  const int len = train ? cut_ : int(text_.size()) - cut_;
  return id_of_[(unsigned char)text_[size_t(lo + (s + i) % len)]];
}

std::string CharText::char_name(int c) {
  if (c == ' ') return "\u2423";  // ␣
  if (c == '\n') return "\\n";
  if (c == '\t') return "\\t";
  if (c > ' ' && c < 127) return std::string(1, char(c));
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", c);
  return buf;
}

RefusalParams text_length_problem(size_t bytes, int seq_len) {
  const size_t need = text_min_chars(seq_len);
  if (bytes >= need) return {};
  const size_t held = bytes - bytes * 9 / 10;
  RefusalParams p = {{"need", std::to_string(need)},
                     {"seq_len", std::to_string(seq_len)},
                     {"held_need", std::to_string(seq_len + 1)},
                     {"bytes", std::to_string(bytes)},
                     {"held", std::to_string(held)}};
  if (bytes > 10) p.emplace_back("lower", std::to_string((bytes - 1) / 10));
  return p;
}

std::string checked_text(const TaskOptions& opt) {
  std::string text = opt.get_string("text");
  if (text.empty()) text = kCorpus;
  if (text.size() > kMaxTextBytes)
    opt.fail("task.text_too_big", "text",
             {{"max", std::to_string(kMaxTextBytes)}, {"bytes", std::to_string(text.size())}});
  if (RefusalParams bad = utf8_fault(text); !bad.empty()) opt.fail("task.text_not_utf8", "text", std::move(bad));
  RefusalParams problem = text_length_problem(text.size(), opt.get_int("seq_len", 1, 1 << 16));
  if (!problem.empty()) {
    const char* code = problem.back().first == "lower" ? "task.text_too_short_lower" : "task.text_too_short";
    opt.fail(code, "text", std::move(problem));
  }
  return text;
}

OptionSpec text_option() {
  return opt_string("text", "",
                    "training text (at most 2 MiB, at least 10 seq_len + 1 characters); the last 10% is held out; "
                    "empty = a 4 KB essay built in for tests");
}

std::unique_ptr<Task> make_text(const nlohmann::json& config) {
  return std::make_unique<TextTask>(checked_text(TaskOptions(config, "text")));
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_text() {
  return {"text",
          "Character language model on a text (the page trains on the Jargon File, 700 KB of English prose, or on your "
          "own text).",
          "in: T h e \u2423 o r d e | tgt: h e \u2423 o r d e r | mask: 1 1 1 1 1 1 1 1",
          task_model_defaults(32, true, 3000, 64, 4, 2, 32),
          {text_option()},
          make_text};
}

}  // namespace ap
