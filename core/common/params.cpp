// core/common/params.cpp — declaration, allocation and initialisation of parameters.
#include "common/params.hpp"

#include <algorithm>
#include <cassert>

#include "refusal/refusal.hpp"

namespace ap {

int ParamStore::add(std::string name, std::vector<int> shape, Init init, float std, bool decay) {
  assert(data_.empty() && "declare every parameter before allocate()");
  ParamInfo p;
  p.name = std::move(name);
  p.shape = std::move(shape);
  p.size = 1;
  for (int d : p.shape) p.size *= size_t(d);
  p.offset = total_;
  p.init = init;
  p.std = std;
  p.decay = decay;
  total_ += p.size;
  infos_.push_back(std::move(p));
  return int(infos_.size()) - 1;
}

void ParamStore::allocate(Rng& rng) {
  data_.assign(total_, 0.0f);
  grad_.assign(total_, 0.0f);
  for (auto& p : infos_) {
    float* d = data_.data() + p.offset;
    switch (p.init) {
      case Init::Zeros:
        break;
      case Init::Ones:
        std::fill(d, d + p.size, 1.0f);
        break;
      case Init::Constant:
        std::fill(d, d + p.size, p.std);
        break;
      case Init::Normal:
        for (size_t i = 0; i < p.size; ++i) d[i] = p.std * rng.normal();
        break;
    }
  }
}

int ParamStore::find(const std::string& name) const {
  for (size_t i = 0; i < infos_.size(); ++i)
    if (infos_[i].name == name) return int(i);
  return -1;
}

template <std::size_t N>
Shape<N> ParamStore::shape_of(int id) const {
  const ParamInfo& p = infos_[id];
  if (p.shape.size() != N)
    refuse("shape.rank", "", {{"tensor", p.name}, {"shape", shape_text(p.shape)}, {"rank", std::to_string(N)}});
  Shape<N> s;
  for (std::size_t i = 0; i < N; ++i) s[i] = std::size_t(p.shape[i]);
  return s;
}

template <std::size_t N>
CView<N> ParamStore::tensor(int id) const {
  return shaped<N>(data(id), shape_of<N>(id));
}

template <std::size_t N>
FView<N> ParamStore::grad_tensor(int id) {
  return shaped<N>(grad(id), shape_of<N>(id));
}

template CView<1> ParamStore::tensor<1>(int) const;
template CView<2> ParamStore::tensor<2>(int) const;
template CView<3> ParamStore::tensor<3>(int) const;
template FView<1> ParamStore::grad_tensor<1>(int);
template FView<2> ParamStore::grad_tensor<2>(int);
template FView<3> ParamStore::grad_tensor<3>(int);

void ParamStore::zero_grad() { std::fill(grad_.begin(), grad_.end(), 0.0f); }

}  // namespace ap
