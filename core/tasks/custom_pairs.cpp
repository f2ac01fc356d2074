// core/tasks/custom_pairs.cpp — the custom task's line reader (custom_pairs.hpp): split each line
// at its one "->", split both sides at spaces and tabs, check every limit before it can grow
// anything, and reject an input that appears twice with different outputs.
#include "tasks/custom_pairs.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "io/json.hpp"

namespace ap {
namespace {

// The refusal `code` of line `line` ("line 21: ..."), about the field custom_pairs.
[[noreturn]] void fail_line(int line, const char* code, RefusalParams params = {}) {
  params.insert(params.begin(), {"line", std::to_string(line)});
  refuse(code, "custom_pairs", std::move(params));
}

std::string shown(const std::string& s) { return "'" + (s.size() > 40 ? s.substr(0, 40) + "..." : s) + "'"; }

// Tokens of one side (the input, else the output), at spaces and tabs.
std::vector<std::string> split_side(const std::string& side, int line, bool input) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < side.size()) {
    while (i < side.size() && (side[i] == ' ' || side[i] == '\t')) ++i;
    size_t j = i;
    while (j < side.size() && side[j] != ' ' && side[j] != '\t') ++j;
    if (j == i) break;
    std::string tok = side.substr(i, j - i);
    if (tok.size() > CustomPairsLimits::kMaxToken)
      fail_line(line, "custom.token_too_long",
                {{"token", shown(tok)}, {"max", std::to_string(CustomPairsLimits::kMaxToken)}});
    for (size_t k = 0; k < tok.size(); ++k) {  // C0, DEL, and C1 (U+0080..U+009F, UTF-8 C2 80..C2 9F)
      const unsigned char c = static_cast<unsigned char>(tok[k]);
      const bool c1 = c == 0xC2 && k + 1 < tok.size() && static_cast<unsigned char>(tok[k + 1]) <= 0x9F;
      if (c1) {
        char code[8];
        std::snprintf(code, sizeof code, "%04X", static_cast<unsigned char>(tok[k + 1]));
        fail_line(line, "custom.control_character", {{"code", code}});
      }
      if (c < 0x20 || c == 0x7f) fail_line(line, "custom.control_byte", {{"byte", std::to_string(c)}});
    }
    for (const char* r : kReservedTokens)
      if (tok == r) fail_line(line, "custom.reserved_token", {{"token", shown(tok)}});
    if (int(out.size()) == CustomPairsLimits::kMaxSide)
      fail_line(line, input ? "custom.input_too_long" : "custom.output_too_long",
                {{"max", std::to_string(CustomPairsLimits::kMaxSide)}});
    out.push_back(std::move(tok));
    i = j;
  }
  if (out.empty()) fail_line(line, input ? "custom.input_empty" : "custom.output_empty");
  return out;
}

// Numbers by value first (so 2 < 10), then the rest in byte order.
bool token_less(const std::string& a, const std::string& b) {
  auto num = [](const std::string& s) {
    return !s.empty() && s.size() <= 9 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  const bool na = num(a), nb = num(b);
  if (na != nb) return na;
  if (na && std::stol(a) != std::stol(b)) return std::stol(a) < std::stol(b);
  return a < b;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (auto& t : v) s += (s.empty() ? "" : " ") + t;
  return s;
}

}  // namespace

CustomPairs parse_custom_pairs(const std::string& text) {
  if (text.size() > CustomPairsLimits::kMaxBytes)
    refuse("custom.too_big", "custom_pairs",
           {{"max", std::to_string(CustomPairsLimits::kMaxBytes)}, {"bytes", std::to_string(text.size())}});
  // Tokens become the model's vocabulary, saved in its JSON metadata: UTF-8 only.
  if (RefusalParams bad = utf8_fault(text); !bad.empty()) refuse("custom.not_utf8", "custom_pairs", std::move(bad));
  CustomPairs r;
  std::map<std::string, std::pair<std::string, int>> seen;  // input -> (output, line)
  std::set<std::string, bool (*)(const std::string&, const std::string&)> vocab(token_less);
  int line = 0;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string s = text.substr(start, end - start);
    start = end + 1;
    ++line;
    if (!s.empty() && s.back() == '\r') s.pop_back();
    const size_t first = s.find_first_not_of(" \t");
    if (first == std::string::npos || s[first] == '#') {
      if (end == text.size()) break;
      continue;
    }
    const size_t arrow = s.find(kPairArrow);
    if (arrow == std::string::npos) fail_line(line, "custom.no_arrow");
    if (s.find(kPairArrow, arrow + 2) != std::string::npos) fail_line(line, "custom.two_arrows");
    CustomPair p{line, split_side(s.substr(0, arrow), line, true), split_side(s.substr(arrow + 2), line, false)};
    const std::string in = joined(p.in), out = joined(p.out);
    auto it = seen.find(in);
    if (it != seen.end()) {
      if (it->second.first == out) continue;  // an exact repeat: kept once
      fail_line(line, "custom.conflict", {{"input", in.substr(0, 60)}, {"other", std::to_string(it->second.second)}});
    }
    if (int(r.pairs.size()) == CustomPairsLimits::kMaxPairs)
      fail_line(line, "custom.too_many_pairs", {{"max", std::to_string(CustomPairsLimits::kMaxPairs)}});
    for (auto* side : {&p.in, &p.out})
      for (auto& t : *side) {
        vocab.insert(t);
        if (int(vocab.size()) > CustomPairsLimits::kMaxVocab)
          fail_line(line, "custom.too_many_tokens", {{"max", std::to_string(CustomPairsLimits::kMaxVocab)}});
      }
    seen.emplace(in, std::make_pair(out, line));
    r.longest_in = std::max(r.longest_in, int(p.in.size()));
    r.longest_out = std::max(r.longest_out, int(p.out.size()));
    r.pairs.push_back(std::move(p));
    if (end == text.size()) break;
  }
  if (r.pairs.size() < 2) refuse("custom.too_few_pairs", "custom_pairs", {{"n", std::to_string(r.pairs.size())}});
  r.tokens.assign(vocab.begin(), vocab.end());
  r.label = r.longest_out == 1;
  return r;
}

}  // namespace ap
