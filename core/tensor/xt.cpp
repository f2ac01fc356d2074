// core/tensor/xt.cpp — the shape checks of xt.hpp, out of line: each call site compares and
// calls, and the message is built in one place.
#include "tensor/xt.hpp"

#include <algorithm>

namespace ap {

void check_extents(const std::size_t* got, std::size_t got_rank, const std::size_t* want, std::size_t rank,
                   const char* what) {
  bool ok = got_rank == rank;
  for (std::size_t i = 0; ok && i < rank; ++i) ok = got[i] == want[i];
  if (ok) return;
  throw ShapeError(std::string(what) + " is " +
                   shape_text(std::vector<std::size_t>(got, got + std::min(got_rank, rank))) +
                   (got_rank > rank ? " (rank " + std::to_string(got_rank) + ")" : "") + ", expected " +
                   shape_text(std::vector<std::size_t>(want, want + rank)));
}

void check_size(std::size_t have, const std::size_t* shape, std::size_t rank, const char* what) {
  std::vector<std::size_t> s(shape, shape + rank);
  if (have == shape_size(s)) return;
  throw ShapeError(std::string(what) + " holds " + std::to_string(have) + " values, not a " + shape_text(s) +
                   " tensor");
}

}  // namespace ap
