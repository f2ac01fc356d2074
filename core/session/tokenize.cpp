// core/session/tokenize.cpp — Session::tokenize: prompt text to task token ids.
//   character vocabularies (those with a space token, e.g. text): every character is a token;
//   others: whitespace-separated token names, a word that is not a name read character by
//   character ("31415" = 3 1 4 1 5).
// The text is read as UTF-8: an unknown character is named as itself with its code point
// ('é' (U+00E9), '\0' (U+0000)), not as the first byte of its encoding ('\xC3'); a byte that is
// not UTF-8 is named as a byte. NUL is an ordinary character here: nothing stops at it, and
// messages escape it (a raw NUL would end the message where C strings cross, e.g. in wasm).
#include <cctype>
#include <cstdio>
#include <stdexcept>
#include <unordered_map>

#include "refusal/refusal.hpp"
#include "io/json.hpp"
#include "session/session.hpp"

namespace ap {

namespace {

// show_text(s) without its quotes (the refusals' templates quote it).
std::string unquoted(std::string_view s) {
  const std::string q = show_text(s);
  return q.substr(1, q.size() - 2);
}

// The parameters that name the character (one UTF-8 sequence, or one stray byte) at s[i]: char,
// and code ("U+00E9") or, for a byte that is not UTF-8, byte ("0xC3").
RefusalParams describe_char(std::string_view s, size_t i, size_t n) {
  const auto b = [&](size_t k) { return uint32_t(static_cast<unsigned char>(s[i + k])); };
  char buf[16];
  if (n == 0) {
    std::snprintf(buf, sizeof buf, "0x%02X", unsigned(b(0)));
    return {{"char", unquoted(s.substr(i, 1))}, {"byte", buf}};
  }
  uint32_t cp = n == 1 ? b(0) : n == 2 ? b(0) & 0x1F : n == 3 ? b(0) & 0x0F : b(0) & 0x07;
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (b(k) & 0x3F);
  std::snprintf(buf, sizeof buf, "U+%04X", unsigned(cp));
  return {{"char", unquoted(s.substr(i, n))}, {"code", buf}};
}

// Refuses the prompt's character at text[i] (n bytes; 0: a stray byte), alone or in `word` (empty
// when the character is the whole word), naming the task and its first 24 tokens.
[[noreturn]] void refuse_char(const Task& task, const std::string& task_name, std::string_view text, size_t i, size_t n,
                              std::string_view word) {
  RefusalParams p = describe_char(text, i, n);
  const bool byte = n == 0;
  std::string tokens;
  const int V = task.vocab_size();
  for (int k = 0; k < std::min(V, 24); ++k) tokens += (k ? " " : "") + task.token_name(k);
  if (V > 24) tokens += " ...";
  p.push_back({"task", task_name});
  p.push_back({"tokens", tokens});
  if (word.empty()) refuse(byte ? "prompt.byte_unknown" : "prompt.char_unknown", "prompt", std::move(p));
  p.push_back({"word", unquoted(word)});
  refuse(byte ? "prompt.word_byte_unknown" : "prompt.word_char_unknown", "prompt", std::move(p));
}

}  // namespace

std::vector<int32_t> Session::tokenize(const std::string& text) const {
  const int V = task_->vocab_size();
  std::unordered_map<std::string, int> id_of;  // token text -> its first id
  for (int i = 0; i < V; ++i) id_of.emplace(task_->token_text(i), i);
  auto find = [&](std::string_view t) {
    auto it = id_of.find(std::string(t));
    return it == id_of.end() ? -1 : it->second;
  };
  std::vector<int32_t> ids;
  // The character at text[i] as token ids: the whole UTF-8 sequence when it is a token, else its
  // bytes when each is one (a byte-level vocabulary); returns the bytes used, or 0 if unknown.
  auto add_char = [&](size_t i, size_t n) -> size_t {
    const size_t len = n ? n : 1;
    if (int id = find(std::string_view(text).substr(i, len)); id >= 0) {
      ids.push_back(id);
      return len;
    }
    if (len == 1) return 0;
    std::vector<int32_t> bytes;
    for (size_t k = 0; k < len; ++k) {
      const int id = find(std::string_view(text).substr(i + k, 1));
      if (id < 0) return 0;
      bytes.push_back(id);
    }
    ids.insert(ids.end(), bytes.begin(), bytes.end());
    return len;
  };
  if (find(" ") >= 0) {  // a character vocabulary with a space: every character is a token
    for (size_t i = 0; i < text.size();) {
      const size_t n = utf8_at(text, i);
      const size_t used = add_char(i, n);
      if (!used) refuse_char(*task_, cfg_.task, text, i, n, "");
      i += used;
    }
    return ids;
  }
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace((unsigned char)text[i])) ++i;
    size_t j = i;
    while (j < text.size() && !std::isspace((unsigned char)text[j])) ++j;
    if (j == i) break;
    const std::string_view word = std::string_view(text).substr(i, j - i);
    if (int id = find(word); id >= 0) {
      ids.push_back(id);
    } else {
      for (size_t k = i; k < j;) {
        const size_t n = utf8_at(text, k);
        const size_t used = add_char(k, n);
        if (!used) refuse_char(*task_, cfg_.task, text, k, n, (n ? n : 1) == word.size() ? "" : word);
        k += used;
      }
    }
    i = j;
  }
  return ids;
}

}  // namespace ap
