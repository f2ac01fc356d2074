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

#include "io/json.hpp"
#include "session/session.hpp"

namespace ap {

namespace {

// The character (one UTF-8 sequence, or one stray byte) at s[i], for a message.
std::string describe_char(std::string_view s, size_t i, size_t n) {
  const auto b = [&](size_t k) { return uint32_t(static_cast<unsigned char>(s[i + k])); };
  char buf[40];
  if (n == 0) {
    std::snprintf(buf, sizeof buf, " (byte 0x%02X, not UTF-8)", unsigned(b(0)));
    return show_text(s.substr(i, 1)) + buf;
  }
  uint32_t cp = n == 1 ? b(0) : n == 2 ? b(0) & 0x1F : n == 3 ? b(0) & 0x0F : b(0) & 0x07;
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (b(k) & 0x3F);
  std::snprintf(buf, sizeof buf, " (U+%04X)", unsigned(cp));
  return show_text(s.substr(i, n)) + buf;
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
  auto unknown = [&](const std::string& what) {
    std::string valid;
    for (int i = 0; i < std::min(V, 24); ++i) valid += (i ? " " : "") + task_->token_name(i);
    return std::invalid_argument("prompt: " + what + " of task " + cfg_.task + "; its tokens are: " + valid +
                                 (V > 24 ? " ..." : ""));
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
      if (!used) throw unknown(describe_char(text, i, n) + " is not a token");
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
        if (!used) {
          const std::string c = describe_char(text, k, n);
          if ((n ? n : 1) == word.size()) throw unknown(c + " is not a token");
          throw unknown(show_text(word) + " is not a token, nor is its character " + c + ",");
        }
        k += used;
      }
    }
    i = j;
  }
  return ids;
}

}  // namespace ap
