// core/tensor/xt.cpp — the shape checks of xt.hpp, out of line: each call site compares and
// calls, and the message is built in one place.
#include "tensor/xt.hpp"

#include <algorithm>

#include "refusal/refusal.hpp"

namespace ap {

void check_extents(const std::size_t* got, std::size_t got_rank, const std::size_t* want, std::size_t rank,
                   const char* what) {
  bool ok = got_rank == rank;
  for (std::size_t i = 0; ok && i < rank; ++i) ok = got[i] == want[i];
  if (ok) return;
  RefusalParams p = {{"tensor", what},
                     {"shape", shape_text(std::vector<std::size_t>(got, got + std::min(got_rank, rank)))},
                     {"want", shape_text(std::vector<std::size_t>(want, want + rank))}};
  if (got_rank > rank) p.emplace_back("rank", std::to_string(got_rank));
  refuse(got_rank > rank ? "shape.mismatch_rank" : "shape.mismatch", "", std::move(p));
}

void check_size(std::size_t have, const std::size_t* shape, std::size_t rank, const char* what) {
  std::vector<std::size_t> s(shape, shape + rank);
  if (have == shape_size(s)) return;
  refuse("shape.size", "", {{"tensor", what}, {"n", std::to_string(have)}, {"shape", shape_text(s)}});
}

}  // namespace ap
