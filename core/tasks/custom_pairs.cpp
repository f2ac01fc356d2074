// core/tasks/custom_pairs.cpp — the custom task's line reader (custom_pairs.hpp): split each line
// at its one "->", split both sides at spaces and tabs, check every limit before it can grow
// anything, and reject an input that appears twice with different outputs.
#include "tasks/custom_pairs.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>

#include "io/json.hpp"

namespace ap {
namespace {

[[noreturn]] void fail_line(int line, const std::string& what) {
  throw std::invalid_argument("line " + std::to_string(line) + ": " + what);
}

std::string shown(const std::string& s) { return "'" + (s.size() > 40 ? s.substr(0, 40) + "..." : s) + "'"; }

// Tokens of one side, at spaces and tabs.
std::vector<std::string> split_side(const std::string& side, int line, const char* which) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < side.size()) {
    while (i < side.size() && (side[i] == ' ' || side[i] == '\t')) ++i;
    size_t j = i;
    while (j < side.size() && side[j] != ' ' && side[j] != '\t') ++j;
    if (j == i) break;
    std::string tok = side.substr(i, j - i);
    if (tok.size() > CustomPairsLimits::kMaxToken)
      fail_line(line, "the token " + shown(tok) + " is longer than " + std::to_string(CustomPairsLimits::kMaxToken) +
                          " bytes");
    for (size_t k = 0; k < tok.size(); ++k) {  // C0, DEL, and C1 (U+0080..U+009F, UTF-8 C2 80..C2 9F)
      const unsigned char c = static_cast<unsigned char>(tok[k]);
      const bool c1 = c == 0xC2 && k + 1 < tok.size() && static_cast<unsigned char>(tok[k + 1]) <= 0x9F;
      if (c < 0x20 || c == 0x7f || c1) {
        char what[16];
        std::snprintf(what, sizeof what, c1 ? "U+%04X" : "byte %d", c1 ? static_cast<unsigned char>(tok[k + 1]) : c);
        fail_line(line, std::string("a control character (") + what + ") is not allowed; tokens are printable text");
      }
    }
    for (const char* r : kReservedTokens)
      if (tok == r)
        fail_line(line,
                  "the token " + shown(tok) + " is reserved by the task (answer slot or padding); use another name");
    if (int(out.size()) == CustomPairsLimits::kMaxSide)
      fail_line(line, std::string("the ") + which + " has more than " + std::to_string(CustomPairsLimits::kMaxSide) +
                          " tokens");
    out.push_back(std::move(tok));
    i = j;
  }
  if (out.empty())
    fail_line(line, std::string("the ") + which + " is empty; write tokens on both sides of ->, e.g. '3 1 2 -> 1 2 3'");
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
    throw std::invalid_argument("at most " + std::to_string(CustomPairsLimits::kMaxBytes) +
                                " bytes (256 KiB); this text has " + std::to_string(text.size()));
  // Tokens become the model's vocabulary, saved in its JSON metadata: UTF-8 only.
  if (const std::string bad = utf8_problem(text); !bad.empty()) throw std::invalid_argument(bad);
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
    if (arrow == std::string::npos) fail_line(line, "no '->'; a pair reads 'input -> output', e.g. '3 1 2 -> 1 2 3'");
    if (s.find(kPairArrow, arrow + 2) != std::string::npos)
      fail_line(line, "more than one '->'; a pair has exactly one");
    CustomPair p{line, split_side(s.substr(0, arrow), line, "input"), split_side(s.substr(arrow + 2), line, "output")};
    const std::string in = joined(p.in), out = joined(p.out);
    auto it = seen.find(in);
    if (it != seen.end()) {
      if (it->second.first == out) continue;  // an exact repeat: kept once
      fail_line(line, "the input '" + in.substr(0, 60) + "' is on line " + std::to_string(it->second.second) +
                          " with another output; an input has one output");
    }
    if (int(r.pairs.size()) == CustomPairsLimits::kMaxPairs)
      fail_line(line, "more than " + std::to_string(CustomPairsLimits::kMaxPairs) + " pairs");
    for (auto* side : {&p.in, &p.out})
      for (auto& t : *side) {
        vocab.insert(t);
        if (int(vocab.size()) > CustomPairsLimits::kMaxVocab)
          fail_line(line, "more than " + std::to_string(CustomPairsLimits::kMaxVocab) + " distinct tokens");
      }
    seen.emplace(in, std::make_pair(out, line));
    r.longest_in = std::max(r.longest_in, int(p.in.size()));
    r.longest_out = std::max(r.longest_out, int(p.out.size()));
    r.pairs.push_back(std::move(p));
    if (end == text.size()) break;
  }
  if (r.pairs.size() < 2)
    throw std::invalid_argument("at least 2 pairs are needed (one to train on, one held out); found " +
                                std::to_string(r.pairs.size()));
  r.tokens.assign(vocab.begin(), vocab.end());
  r.label = r.longest_out == 1;
  return r;
}

}  // namespace ap
