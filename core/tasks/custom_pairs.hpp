// core/tasks/custom_pairs.hpp — the reader of the custom task's pairs: one "input -> output" pair
// per line, tokens separated by spaces or tabs ("3 1 2 -> 1 2 3"). Blank lines and lines that
// start with '#' are skipped; a pair that repeats an earlier line exactly is kept once. Every
// problem is an std::invalid_argument naming the line and what is allowed. Bounded: the limits
// below hold for any input (tests/fuzz/fuzz_pairs.cpp feeds it arbitrary bytes).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace ap {

struct CustomPairsLimits {
  static constexpr size_t kMaxBytes = size_t(256) << 10;  // 256 KiB of text
  static constexpr int kMaxPairs = 10000;
  static constexpr int kMaxSide = 64;      // tokens on either side of "->"
  static constexpr int kMaxVocab = 512;    // distinct tokens, inputs and outputs together
  static constexpr size_t kMaxToken = 32;  // bytes of one token
};

struct CustomPair {
  int line = 0;                      // 1-based line in the text, for messages
  std::vector<std::string> in, out;  // the tokens of each side
};

struct CustomPairs {
  std::vector<CustomPair> pairs;    // in the text's order, exact repeats dropped
  std::vector<std::string> tokens;  // the vocabulary of the pairs, sorted (numbers by value)
  bool label = false;               // every output is one token: one label per sequence
  int longest_in = 0, longest_out = 0;
};

// The separator and the names the task keeps for itself (no pair may use them as tokens).
inline constexpr const char* kPairArrow = "->";
inline constexpr const char* kReservedTokens[] = {"_", "<pad>"};

CustomPairs parse_custom_pairs(const std::string& text);

}  // namespace ap
