// core/model/act_tensor.cpp — the out-of-line members of ActTensor (act_tensor.hpp): sizing,
// views with the tensor's shape, and the shape check.
#include "model/act_tensor.hpp"

#include <cstring>
#include <utility>

namespace ap {

template <std::size_t N>
float* ActTensor<N>::resize(const Shape<N>& shape) {
  shape_ = shape;
  buffer_.resize(shape_size(shape));
  return buffer_.data();
}

template <std::size_t N>
float* ActTensor<N>::zeros(const Shape<N>& shape) {
  resize(shape);
  if (!buffer_.empty()) std::memset(buffer_.data(), 0, buffer_.size() * sizeof(float));
  return buffer_.data();
}

template <std::size_t N>
void ActTensor<N>::clear() {
  buffer_.clear();
  shape_ = Shape<N>{};
}

template <std::size_t N>
void ActTensor<N>::swap(ActTensor& other) {
  buffer_.swap(other.buffer_);
  std::swap(shape_, other.shape_);
}

template <std::size_t N>
FView<N> ActTensor<N>::view() {
  return shaped<N>(buffer_.data(), shape_);
}
template <std::size_t N>
CView<N> ActTensor<N>::view() const {
  return shaped<N>(buffer_.data(), shape_);
}

namespace {
template <std::size_t N>
Shape<2> as_rows(const Shape<N>& shape) {
  std::size_t leading = 1;
  for (std::size_t i = 0; i + 1 < N; ++i) leading *= shape[i];
  return {leading, shape[N - 1]};
}
}  // namespace

template <std::size_t N>
FView<2> ActTensor<N>::rows() {
  return shaped<2>(buffer_.data(), as_rows(shape_));
}
template <std::size_t N>
CView<2> ActTensor<N>::rows() const {
  return shaped<2>(buffer_.data(), as_rows(shape_));
}

template <std::size_t N>
void ActTensor<N>::expect(const Shape<N>& want) const {
  check_extents(shape_.data(), N, want.data(), N, name_);
}

template class ActTensor<1>;
template class ActTensor<2>;
template class ActTensor<3>;
template class ActTensor<4>;

}  // namespace ap
