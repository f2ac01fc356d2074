// core/tensor/xt.hpp — how core/ uses xtensor. Two roles (see docs/xtensor.md):
//   1. Shapes: the model's memory stays in flat arenas (ParamStore's one buffer, the activation
//      vectors) that the xsimd kernels read through raw pointers; `shaped()` puts an xtensor view
//      with a shape over such a buffer, and `expect_shape()` checks one, so that a shape mistake
//      throws ShapeError naming the tensor instead of reading the wrong memory.
//   2. Readable math: the *_naive twins (tensor/naive.cpp, gemm_naive.cpp) and the tables of the
//      position encodings are xtensor expressions, written like NumPy.
// Views never own memory and do not keep the vector alive: take them, use them, drop them (a
// std::vector that grows moves its data). Give expression results a concrete container type
// (xt::xtensor<float, N>), never `auto`: xtensor expressions are lazy and can dangle.
// Not used in the hot loops: xtensor is built without XTENSOR_USE_XSIMD, and its lazy stepper
// loops are far slower than the packed kernels (tensor/*.cpp keep raw pointers and xsimd).
#pragma once
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

#include "refusal/refusal.hpp"

namespace ap {

// A shape mistake inside the engine (a bug, not bad user input): a refusal with a shape.* code
// (the name kept for the readers and tests that expect one).
using ShapeError = Refusal;

template <std::size_t N>
using Shape = std::array<std::size_t, N>;

// A view with a fixed rank over memory it does not own; T may be const.
template <class T, std::size_t N>
using View =
    decltype(xt::adapt(std::declval<T*>(), std::size_t(), xt::no_ownership(), std::declval<const Shape<N>&>()));
template <std::size_t N>
using FView = View<float, N>;
template <std::size_t N>
using CView = View<const float, N>;

template <class Seq>
std::string shape_text(const Seq& s) {
  std::string t = "(";
  for (std::size_t i = 0; i < std::size(s); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + ")";
}

template <class Seq>
std::size_t shape_size(const Seq& s) {
  std::size_t n = 1;
  for (auto d : s) n *= std::size_t(d);
  return n;
}

// The checks, out of line (xt.cpp) so that each call site stays a compare and a call: the wasm
// module pays for the message once.
void check_extents(const std::size_t* got, std::size_t got_rank, const std::size_t* want, std::size_t rank,
                   const char* what);
void check_size(std::size_t have, const std::size_t* shape, std::size_t rank, const char* what);

// got == want, else ShapeError "<what> is (2, 3), expected (3, 2)".
template <class Seq, std::size_t N>
void expect_extents(const Seq& got, const Shape<N>& want, const char* what) {
  Shape<N> g{};
  const std::size_t rank = got.size();
  for (std::size_t i = 0; i < N && i < rank; ++i) g[i] = std::size_t(got[i]);
  check_extents(g.data(), rank, want.data(), N, what);
}
template <class E, std::size_t N>
void expect_shape(const E& e, const Shape<N>& want, const char* what) {
  expect_extents(e.shape(), want, what);
}

// A row-major view of p with this shape (p holds at least the product of the extents).
template <std::size_t N, class T>
View<T, N> shaped(T* p, const Shape<N>& shape) {
  return xt::adapt(static_cast<T*>(p), shape_size(shape), xt::no_ownership(), shape);
}

// The same over a whole vector, which must hold exactly the product of the extents.
template <std::size_t N, class T>
View<T, N> shaped(std::vector<T>& v, const Shape<N>& shape, const char* what) {
  check_size(v.size(), shape.data(), N, what);
  return shaped<N>(v.data(), shape);
}
template <std::size_t N, class T>
View<const T, N> shaped(const std::vector<T>& v, const Shape<N>& shape, const char* what) {
  check_size(v.size(), shape.data(), N, what);
  return shaped<N>(v.data(), shape);
}

// The (rows, cols) matrix at p whose rows are ld apart (a GEMM operand with its leading
// dimension); transposed = the memory holds it as (cols, rows), so the view reads it as opᵀ.
// (xtensor sizes a strided adaptor's buffer as rows·cols, the number of elements it addresses,
// whatever span the strides cover.)
template <class T>
auto strided(T* p, std::size_t rows, std::size_t cols, std::size_t ld, bool transposed) {
  const std::size_t n = rows * cols;
  const Shape<2> shape{rows, cols};
  const std::array<std::ptrdiff_t, 2> strides{transposed ? 1 : std::ptrdiff_t(ld), transposed ? std::ptrdiff_t(ld) : 1};
  return xt::adapt(static_cast<T*>(p), n, xt::no_ownership(), shape, strides);
}

}  // namespace ap
