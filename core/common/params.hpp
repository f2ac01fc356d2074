// core/common/params.hpp — every trainable tensor of a model in one flat buffer (so AdamW, the
// gradient norm and the model file each take one pass), addressed by PyTorch-style names.
// The layer code reads each tensor as an xtensor view with its declared shape (tensor<N>(id),
// grad_tensor<N>(id)), so that a tensor used with the wrong rank or shape throws ShapeError naming
// it; the kernels take the view's data() pointer.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "tensor/rng.hpp"
#include "tensor/xt.hpp"

namespace ap {

enum class Init { Zeros, Ones, Normal, Constant };  // Constant: every entry = `std`

// A fixed tensor that a forward reads and that is no parameter (performer's random features):
// named like a parameter, for the PyTorch export (core/torch/), which writes it into the file.
struct FixedTensor {
  std::string name;  // "blocks.0.attn.performer.omega"
  std::vector<int> shape;
  std::vector<float> values;
};

struct ParamInfo {
  std::string name;        // "blocks.0.attn.qkv.weight"
  std::vector<int> shape;  // PyTorch layout: an nn.Linear weight is (out, in)
  size_t offset = 0, size = 0;
  Init init = Init::Normal;
  float std = 0.02f;  // for Init::Normal (the value for Init::Constant)
  bool decay = true;  // AdamW weight decay applies (weights yes; biases, norms no)
};

class ParamStore {
 public:
  // Declare a tensor; returns its id. All declarations come before allocate().
  int add(std::string name, std::vector<int> shape, Init init, float std = 0.02f, bool decay = true);
  void allocate(Rng& rng);  // allocates data and grads, initialises data from rng
  float* data(int id) { return data_.data() + infos_[id].offset; }
  const float* data(int id) const { return data_.data() + infos_[id].offset; }
  float* grad(int id) { return grad_.data() + infos_[id].offset; }
  // The values (read-only) or the gradient of tensor id with its declared shape; N must be its
  // rank (ShapeError otherwise). Defined in params.cpp for N = 1, 2, 3: out of line, so that the
  // wasm module holds one copy of each view's construction (docs/xtensor.md, code size).
  template <std::size_t N>
  CView<N> tensor(int id) const;
  template <std::size_t N>
  FView<N> grad_tensor(int id);
  const ParamInfo& info(int id) const { return infos_[id]; }
  const std::vector<ParamInfo>& infos() const { return infos_; }
  int find(const std::string& name) const;  // -1 when absent
  size_t size() const { return total_; }
  void zero_grad();
  std::vector<float>& all_data() { return data_; }
  const std::vector<float>& all_data() const { return data_; }
  std::vector<float>& all_grads() { return grad_; }
  const std::vector<float>& all_grads() const { return grad_; }

 private:
  // The declared shape of id; throws ShapeError naming the tensor unless its rank is N.
  template <std::size_t N>
  Shape<N> shape_of(int id) const;

  std::vector<ParamInfo> infos_;
  std::vector<float> data_, grad_;
  size_t total_ = 0;
};

}  // namespace ap
