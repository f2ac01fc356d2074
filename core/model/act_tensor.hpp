// core/model/act_tensor.hpp — an activation: a buffer that is reused from step to step, with the
// shape it was last sized to and a name. The layer code reads it with that shape, through
// xtensor views (tensor/xt.hpp): `x.view()` is the whole (B, T, C) tensor, `x.rows()` the
// (B·T, C) matrix that a linear layer or LayerNorm reads; a layer derives its sizes from these
// shapes and throws ShapeError naming the activation when they do not fit together.
// The storage is a std::vector rather than an xt::xtensor: xtensor's container reallocates
// whenever its size changes, while a vector keeps its capacity, so that alternating training and
// evaluation batches allocate nothing once the largest has been seen. Its allocator leaves new
// elements uninitialised: a plain vector zero-fills every element it grows by, even within its
// capacity, which after each smaller evaluation batch cost 8% of a wasm training step (profiled).
// The kernels read data().
// The members that build views and check shapes are out of line (act_tensor.cpp), instantiated
// for ranks 1 to 4: one copy of each in the wasm module (docs/xtensor.md, code size).
#pragma once
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "tensor/xt.hpp"

namespace ap {

// An allocator whose value-initialisation (vector::resize) leaves floats uninitialised.
template <class T>
struct UninitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitAllocator<U>;
  };
  UninitAllocator() = default;
  template <class U>
  UninitAllocator(const UninitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using FloatBuffer = std::vector<float, UninitAllocator<float>>;

template <std::size_t N>
class ActTensor {
 public:
  explicit ActTensor(const char* name = "activation") : name_(name) {}

  // Size to `shape`, contents unspecified (no allocation once the buffer has grown).
  float* resize(const Shape<N>& shape);
  // Size to `shape`, all zeros.
  float* zeros(const Shape<N>& shape);
  // Empty (shape all zeros): the activation is not in use this step.
  void clear();
  bool empty() const { return buffer_.empty(); }
  // Exchange contents and shapes (the names stay).
  void swap(ActTensor& other);

  const Shape<N>& shape() const { return shape_; }
  std::size_t shape(std::size_t axis) const { return shape_[axis]; }
  std::size_t size() const { return buffer_.size(); }
  // Bytes held (the capacity: the largest size seen, kept from step to step).
  std::size_t bytes() const { return buffer_.capacity() * sizeof(float); }
  const char* name() const { return name_; }
  float* data() { return buffer_.data(); }
  const float* data() const { return buffer_.data(); }
  float* begin() { return buffer_.data(); }
  float* end() { return buffer_.data() + buffer_.size(); }
  const float* begin() const { return buffer_.data(); }
  const float* end() const { return buffer_.data() + buffer_.size(); }
  // The values in row-major order (what the session copies out).
  const FloatBuffer& values() const { return buffer_; }

  // The whole tensor with its shape.
  FView<N> view();
  CView<N> view() const;
  // As a matrix: (product of the leading extents, last extent), e.g. (B·T, C) for (B, T, C).
  FView<2> rows();
  CView<2> rows() const;
  // The read-only views of a tensor the caller may write (a layer's input).
  CView<N> cview() const { return view(); }
  CView<2> crows() const { return rows(); }
  // ShapeError "<name> is (2, 3), expected (3, 2)" unless the shape is `want`.
  void expect(const Shape<N>& want) const;

 private:
  FloatBuffer buffer_;
  Shape<N> shape_{};
  const char* name_;
};

extern template class ActTensor<1>;
extern template class ActTensor<2>;
extern template class ActTensor<3>;
extern template class ActTensor<4>;

}  // namespace ap
