// core/tasks/elman.cpp — elman: next-word prediction on a toy grammar after Elman (1990),
// "Finding structure in time": sentence templates over noun and verb categories (human, animal,
// aggressor, food, ... ; a reduced lexicon of two words per category, 21 distinct words), each
// sentence ended by "." (Elman used no end marker; it makes the stream readable). Rows are
// windows of a stream of random sentences starting at a random word of the first one; target at
// t = word t+1; all positions scored.
// Only a causal model can learn this meaningfully (a bidirectional one sees the next word).
//   T = 8   in   man eat cookie . dragon smash glass .
//           tgt  eat cookie . dragon smash glass . cat
//           mask 1 1 1 1 1 1 1 1
#include <vector>

#include "tasks/task_util.hpp"

namespace ap {
namespace {

// Word categories and their words.
enum Cat { HUM, ANIM, INANIM, AGRESS, FRAG, FOOD, INTRAN, TRAN, AGPAT, PERCEPT, DESTROY, EAT, NONE };
const char* const kCatWords[12][2] = {{"man", "woman"},      {"cat", "mouse"},   {"book", "rock"},
                                      {"dragon", "monster"}, {"glass", "plate"}, {"cookie", "sandwich"},
                                      {"think", "sleep"},    {"see", "chase"},   {"move", "break"},
                                      {"smell", "see"},      {"break", "smash"}, {"eat", "eat"}};
// Sentence templates: word 1, word 2, word 3 (NONE = two-word sentence).
const Cat kTemplates[16][3] = {
    {HUM, EAT, FOOD},        {HUM, PERCEPT, INANIM}, {HUM, DESTROY, FRAG}, {HUM, INTRAN, NONE},
    {HUM, TRAN, HUM},        {HUM, AGPAT, INANIM},   {HUM, AGPAT, NONE},   {ANIM, EAT, FOOD},
    {ANIM, TRAN, ANIM},      {ANIM, AGPAT, INANIM},  {ANIM, AGPAT, NONE},  {INANIM, AGPAT, NONE},
    {AGRESS, DESTROY, FRAG}, {AGRESS, EAT, HUM},     {AGRESS, EAT, ANIM},  {AGRESS, EAT, FOOD}};

class ElmanTask : public NamedTask {
 public:
  ElmanTask() : NamedTask("elman") {
    for (auto& words : kCatWords)
      for (const char* w : words) id_of(w);
    stop_ = id_of(".");
  }
  int min_len() const override { return 1; }
  void generate(Rng& rng, int B, int T, Split split, Batch& out) const override {
    std::vector<int32_t> stream;
    fill_rows(rng, B, T, split, out, [&](Rng& r, int32_t* x, int32_t* y, uint8_t* m) {
      stream.clear();
      append_sentence(r, stream);
      const int start = r.uniform_int(int(stream.size()));
      while (int(stream.size()) < start + T + 1) append_sentence(r, stream);
      for (int t = 0; t < T; ++t) {
        x[t] = stream[size_t(start + t)];
        y[t] = stream[size_t(start + t + 1)];
        m[t] = 1;
      }
    });
  }

 private:
  int id_of(const std::string& word) {  // adds the word on first sight
    for (size_t i = 0; i < tokens_.size(); ++i)
      if (tokens_[i] == word) return int(i);
    return add_token(word);
  }
  int word_id(const char* word) const {
    for (size_t i = 0; i < tokens_.size(); ++i)
      if (tokens_[i] == word) return int(i);
    return -1;
  }
  void append_sentence(Rng& r, std::vector<int32_t>& s) const {
    const Cat* tpl = kTemplates[r.uniform_int(16)];
    for (int i = 0; i < 3 && tpl[i] != NONE; ++i) s.push_back(word_id(kCatWords[tpl[i]][r.uniform_int(2)]));
    s.push_back(stop_);
  }
  int stop_;
};

}  // namespace

std::unique_ptr<Task> make_elman(const nlohmann::json& config) {
  TaskOptions opt(config, "elman");
  return std::make_unique<ElmanTask>();
}

// The registry entry (core/tasks/registry.cpp lists it): description, one encoded example,
// the model defaults this task wants, and its own options.
TaskEntry task_elman() {
  return {"elman",
          "Next-word prediction in Elman's (1990) toy grammar of short sentences.",
          "in: man eat cookie . dragon smash glass . | tgt: eat cookie . dragon smash glass . cat | "
          "mask: 1 1 1 1 1 1 1 1",
          task_model_defaults(16, true, 2000, 32, 2, 2, 32),
          {},
          make_elman};
}

}  // namespace ap
