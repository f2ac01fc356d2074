// core/tasks/split.hpp — the one train / held-out split of the synthetic tasks (method described
// in registry.cpp's header): a sequence belongs to the held-out split iff a hash of its input
// tokens falls in the lowest 10% of the hash space; generators redraw until the split matches.
#pragma once
#include <cstdint>

#include "tasks/task.hpp"

namespace ap {

// Redraws per row before a generator gives up and keeps its last draw (tiny example spaces at
// short T may hold no held-out sequence at all). 0.9^256 < 1e-11, so a split with >= 10% of the
// space essentially never falls through.
constexpr int kSplitTries = 256;

// FNV-1a over the 32-bit token ids, length included, then the splitmix64 finalizer so that the
// low bits are well mixed.
inline uint64_t hash_tokens(const int32_t* x, int n) {
  uint64_t h = 0xcbf29ce484222325ull ^ uint64_t(n);
  for (int i = 0; i < n; ++i) {
    h ^= uint32_t(x[i]);
    h *= 0x100000001b3ull;
  }
  h ^= h >> 30;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 27;
  h *= 0x94D049BB133111EBull;
  return h ^ (h >> 31);
}

inline bool hash_is_heldout(uint64_t h) { return h % 10 == 0; }

inline bool in_split(const int32_t* x, int n, Split split) {
  return hash_is_heldout(hash_tokens(x, n)) == (split == Split::Heldout);
}

}  // namespace ap
