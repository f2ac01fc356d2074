// core/tasks/text.hpp — the text task's limits, shared with the CLI's --text-file: how large a
// text may be and how long it must be for a given seq_len (see text.cpp).
#pragma once
#include <cstddef>
#include <string>

#include "common/options.hpp"
#include "refusal/refusal.hpp"
#include "tensor/rng.hpp"

namespace ap {

// The largest text the task takes (2 MiB: the config's JSON limit is 4 MiB, io/json.hpp).
inline constexpr size_t kMaxTextBytes = size_t(2) << 20;

// The shortest text for seq_len: its held-out part (the last 10%) must hold one whole window,
// seq_len inputs and the next character, so n - floor(9n/10) >= seq_len + 1, i.e. n >= 10 seq_len + 1.
inline size_t text_min_chars(int seq_len) { return size_t(10) * size_t(seq_len) + 1; }

// Why `bytes` characters do not fit seq_len (empty when they do): the parameters of the task's
// refusal task.text_too_short (need, seq_len, held_need, bytes, held), and lower (the seq_len the
// text fits) when there is one: task.text_too_short_lower. web/src/panels/text-source-panel.js
// words the same rule.
RefusalParams text_length_problem(size_t bytes, int seq_len);

class TaskOptions;
// The option "text" of a task that reads a text (text, mlm): its value checked (at most 2 MiB,
// UTF-8, long enough for seq_len), or the built-in essay when it is empty; and its declaration.
std::string checked_text(const TaskOptions& opt);
OptionSpec text_option();

// A text read as characters (bytes): the vocabulary is the sorted set of its bytes, the first 90%
// is the training region and the last 10% the held-out region. text and mlm are built on it.
class CharText {
 public:
  explicit CharText(std::string text);
  int size() const { return int(chars_.size()); }  // distinct characters
  char char_of(int id) const { return chars_.at(size_t(id)); }
  const std::string& chars() const { return chars_; }  // token id -> character
  // The id of the character at `i` of a window that starts `s` into `split`'s region and wraps
  // within it; `start` draws such an s so that n characters fit in the region when they can.
  int start(Rng& rng, int n, bool train) const;
  int at(int s, int i, bool train) const;
  static std::string char_name(int c);  // the token's name: "␣" for a space, "\\n", "\\x01"

 private:
  std::string text_;
  int id_of_[256];
  std::string chars_;
  int cut_;
};

}  // namespace ap
