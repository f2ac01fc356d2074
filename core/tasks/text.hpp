// core/tasks/text.hpp — the text task's limits, shared with the CLI's --text-file: how large a
// text may be and how long it must be for a given seq_len (see text.cpp).
#pragma once
#include <cstddef>
#include <string>

namespace ap {

// The largest text the task takes (2 MiB: the config's JSON limit is 4 MiB, io/json.hpp).
inline constexpr size_t kMaxTextBytes = size_t(2) << 20;

// The shortest text for seq_len: its held-out part (the last 10%) must hold one whole window,
// seq_len inputs and the next character, so n - floor(9n/10) >= seq_len + 1, i.e. n >= 10 seq_len + 1.
inline size_t text_min_chars(int seq_len) { return size_t(10) * size_t(seq_len) + 1; }

// Why `bytes` characters do not fit seq_len ("" when they do): the sentence the task, the CLI
// and the page (web/src/panels/text-source-panel.js words the same rule) give.
std::string text_length_problem(size_t bytes, int seq_len);

}  // namespace ap
