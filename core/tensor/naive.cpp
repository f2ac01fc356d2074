// core/tensor/naive.cpp — the *_naive twins of the kernels in layernorm.cpp, activations.cpp,
// softmax.cpp and optim_embed.cpp (GEMM: gemm_naive.cpp), written as xtensor expressions over
// shaped views of the same raw buffers, so that each reads like its formula in NumPy. They are
// the references of tests/native/test_kernels.cpp: obviously correct, never fast. Letters as in
// kernels.hpp; `[:, None]` in the comments is NumPy for a column broadcast over a row.
#include <xtensor/xindex_view.hpp>
#include <xtensor/xmath.hpp>

#include "tensor/gelu.hpp"
#include "tensor/kernels.hpp"
#include "tensor/xt.hpp"

namespace ap {

namespace {
using std::size_t;
using xt::all;
using xt::newaxis;
using Vec1 = xt::xtensor<float, 1>;
using Mat = xt::xtensor<float, 2>;

// The column vector v[:, None] of a (N,) expression, to broadcast along rows.
template <class E>
auto col(E&& v) {
  return xt::view(std::forward<E>(v), all(), newaxis());
}

// y(rows, cols) = softmax(x) per row; returns logsumexp(x) per row.
Vec1 softmax_rows(FView<2> y, const CView<2>& x) {
  const Vec1 mx = xt::amax(x, {1});
  const Mat e = xt::exp(x - col(mx));
  const Vec1 sum = xt::sum(e, {1});
  xt::noalias(y) = e / col(sum);
  return mx + xt::log(sum);
}

// Rows that count towards the mean: mask != 0 (all rows when there is no mask).
xt::xtensor<bool, 1> counted(const uint8_t* mask, int N) {
  if (!mask) return xt::ones<bool>({size_t(N)});
  return xt::not_equal(shaped<1>(mask, {size_t(N)}), uint8_t(0));
}
}  // namespace

// μ = mean(x), rstd = 1/√(var(x) + eps), out = (x − μ)·rstd·w + b   (per row)
void layernorm_forward_naive(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                             const float* bias, int N, int C, float eps) {
  const size_t n = size_t(N), c = size_t(C);
  const auto x = shaped<2>(inp, {n, c});
  const Vec1 mu = xt::sum(x, {1}) / float(C);
  const Mat xc = x - col(mu);
  const Vec1 rs = 1.f / xt::sqrt(xt::sum(xc * xc, {1}) / float(C) + eps);
  xt::noalias(shaped<2>(out, {n, c})) = xc * col(rs) * shaped<1>(weight, {c}) + shaped<1>(bias, {c});
  xt::noalias(shaped<1>(mean, {n})) = mu;
  xt::noalias(shaped<1>(rstd, {n})) = rs;
}

// n̂ = (x − μ)·rstd, g = w ⊙ dout:  dbias += Σ_rows dout,  dweight += Σ_rows n̂ ⊙ dout,
// dinp += rstd · (g − mean(g) − n̂ · mean(g ⊙ n̂))
void layernorm_backward_naive(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                              const float* weight, const float* mean, const float* rstd, int N, int C) {
  const size_t n = size_t(N), c = size_t(C);
  const auto x = shaped<2>(inp, {n, c}), dy = shaped<2>(dout, {n, c});
  const auto rs = shaped<1>(rstd, {n});
  const Mat nrm = (x - col(shaped<1>(mean, {n}))) * col(rs);
  const Mat g = shaped<1>(weight, {c}) * dy;
  const Vec1 mg = xt::sum(g, {1}) / float(C), mgn = xt::sum(g * nrm, {1}) / float(C);
  shaped<1>(dbias, {c}) += xt::sum(dy, {0});
  shaped<1>(dweight, {c}) += xt::sum(nrm * dy, {0});
  shaped<2>(dinp, {n, c}) += (g - col(mg) - nrm * col(mgn)) * col(rs);
}

void gelu_forward_naive(float* out, const float* inp, std::size_t n, GeluKind kind) {
  using namespace gelu;
  const auto x = shaped<1>(inp, {n});
  auto y = shaped<1>(out, {n});
  if (kind == GeluKind::Tanh)
    xt::noalias(y) = 0.5f * x * (1.f + xt::tanh(kS * (x + kC * x * x * x)));
  else
    xt::noalias(y) = 0.5f * x * (1.f + xt::erf(x * kInvSqrt2));
}

void gelu_backward_naive(float* dinp, const float* inp, const float* dout, std::size_t n, GeluKind kind) {
  using namespace gelu;
  const auto x = shaped<1>(inp, {n}), dy = shaped<1>(dout, {n});
  Vec1 grad;
  if (kind == GeluKind::Tanh) {
    const Vec1 th = xt::tanh(kS * (x + kC * x * x * x));
    grad = 0.5f * (1.f + th) + 0.5f * x * (1.f - th * th) * kS * (1.f + 3.f * kC * x * x);
  } else {
    grad = 0.5f * (1.f + xt::erf(x * kInvSqrt2)) + x * kInvSqrt2Pi * xt::exp(-0.5f * x * x);
  }
  shaped<1>(dinp, {n}) += grad * dy;
}

// ReLU: max(x, 0); the gradient at exactly 0 is 0.
void relu_forward_naive(float* out, const float* inp, std::size_t n) {
  const auto x = shaped<1>(inp, {n});
  xt::noalias(shaped<1>(out, {n})) = xt::where(x > 0.f, x, 0.f);
}

void relu_backward_naive(float* dinp, const float* inp, const float* dout, std::size_t n) {
  shaped<1>(dinp, {n}) += xt::where(shaped<1>(inp, {n}) > 0.f, shaped<1>(dout, {n}), 0.f);
}

void softmax_forward_naive(float* out, const float* inp, int rows, int cols) {
  const Shape<2> s{size_t(rows), size_t(cols)};
  softmax_rows(shaped<2>(out, s), shaped<2>(inp, s));
}

// dinp += y ⊙ (dout − Σ_row y ⊙ dout)
void softmax_backward_naive(float* dinp, const float* out, const float* dout, int rows, int cols) {
  const Shape<2> s{size_t(rows), size_t(cols)};
  const auto y = shaped<2>(out, s), dy = shaped<2>(dout, s);
  const Vec1 dot = xt::sum(y * dy, {1});
  shaped<2>(dinp, s) += y * (dy - col(dot));
}

// loss = mean over counted rows of logsumexp(x) − x[target]
float cross_entropy_forward_naive(float* probs, const float* logits, const int32_t* targets, const uint8_t* mask, int N,
                                  int V) {
  const Shape<2> s{size_t(N), size_t(V)};
  const auto x = shaped<2>(logits, s);
  const Vec1 lse = softmax_rows(shaped<2>(probs, s), x);
  const xt::xtensor<bool, 1> use = counted(mask, N);
  double total = 0.0;  // the targets of rows that do not count are never read
  for (int n = 0; n < N; ++n)
    if (use(n)) total += lse(n) - x(n, targets[n]);
  const int count = int(xt::sum(xt::cast<int>(use))());
  return count ? float(total / count) : 0.f;
}

// dlogits += (probs − onehot(target)) / count on counted rows
void cross_entropy_backward_naive(float* dlogits, const float* probs, const int32_t* targets, const uint8_t* mask,
                                  int N, int V) {
  const Shape<2> s{size_t(N), size_t(V)};
  const auto p = shaped<2>(probs, s);
  auto d = shaped<2>(dlogits, s);
  const xt::xtensor<bool, 1> use = counted(mask, N);
  const int count = int(xt::sum(xt::cast<int>(use))());
  for (int n = 0; n < N; ++n) {
    if (!use(n)) continue;
    Vec1 onehot = xt::zeros<float>({size_t(V)});
    onehot(targets[n]) = 1.f;
    xt::row(d, n) += (xt::row(p, n) - onehot) / float(count);
  }
}

// m = β1·m + (1−β1)·g,  v = β2·v + (1−β2)·g²,  p −= lr·(m̂/(√v̂ + eps) + wd·p)
void adamw_update_naive(float* params, const float* grads, float* m, float* v, std::size_t n, float lr, float beta1,
                        float beta2, float eps, float weight_decay, int t) {
  auto p = shaped<1>(params, {n}), mv = shaped<1>(m, {n}), vv = shaped<1>(v, {n});
  const auto g = shaped<1>(grads, {n});
  mv = beta1 * mv + (1.f - beta1) * g;
  vv = beta2 * vv + (1.f - beta2) * g * g;
  const Vec1 mhat = mv / (1.f - std::pow(beta1, float(t)));
  const Vec1 vhat = vv / (1.f - std::pow(beta2, float(t)));
  p -= lr * (mhat / (xt::sqrt(vhat) + eps) + weight_decay * p);
}

// out = table[ids]   (NumPy fancy indexing: xt::keep)
void embedding_forward_naive(float* out, const int32_t* ids, const float* table, int N, int C) {
  const size_t c = size_t(C);
  int V = 0;
  for (int i = 0; i < N; ++i) V = std::max(V, ids[i] + 1);
  const std::vector<int32_t> rows(ids, ids + N);
  xt::noalias(shaped<2>(out, {size_t(N), c})) = xt::view(shaped<2>(table, {size_t(V), c}), xt::keep(rows), all());
}

// dtable[ids[n]] += dout[n]: a loop, since repeated ids must accumulate (np.add.at).
void embedding_backward_naive(float* dtable, const float* dout, const int32_t* ids, int N, int C) {
  const size_t c = size_t(C);
  int V = 0;
  for (int i = 0; i < N; ++i) V = std::max(V, ids[i] + 1);
  auto d = shaped<2>(dtable, {size_t(V), c});
  const auto g = shaped<2>(dout, {size_t(N), c});
  for (int n = 0; n < N; ++n) xt::row(d, ids[n]) += xt::row(g, n);
}

}  // namespace ap
