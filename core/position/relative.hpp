// core/position/relative.hpp — shared helpers of the relative encodings (t5_bias, alibi, shaw,
// contextual, urpe, fire): bucket and slope functions pinned by tests (reference §7.1, §7.2), and
// a (T, T) index table cached per length so that no hot loop recomputes a bucket. The tables are
// xtensor expressions over the grid of relative positions (NumPy-like: j[None, :] − i[:, None]).
// Sign conventions (reference §0): query i, key j; each entry says which difference it uses.
#pragma once
#include <functional>
#include <vector>

#include <xtensor/xtensor.hpp>

namespace ap {

using IndexGrid = xt::xtensor<int, 2>;

// rel(i, j) = j − i over (T, T): key − query (negate it for query − key).
IndexGrid key_minus_query(int T);

// T5 `_relative_position_bucket` (HF modeling_t5.py) of every entry of rel (= j − i, key − query,
// in T5). Bidirectional: keys to the right get the upper half of the buckets. Causal: rel > 0 → 0.
IndexGrid t5_bucket(const IndexGrid& rel, bool bidirectional, int num_buckets, int max_distance);
int t5_bucket(int rel, bool bidirectional, int num_buckets, int max_distance);  // one entry

// ALiBi head slopes (ofirpress get_slopes): 2^(−8h/n) for n a power of 2; otherwise the
// 2^⌊log2 n⌋ set followed by the even-indexed slopes of the doubled set.
std::vector<double> alibi_slopes(int n);

// clip(rel, k) = max(−k, min(k, rel)) elementwise (Shaw et al.); + k gives a table row in [0, 2k].
IndexGrid clip_rel(const IndexGrid& rel, int k);

// A (T, T) index table (row-major, idx[i*T + j]) made by make(T), rebuilt only when T changes.
class IndexTable {
 public:
  const int* get(int T, const std::function<IndexGrid(int)>& make) {
    if (T != T_) idx_ = make(T), T_ = T;
    return idx_.data();
  }
  void reset() { T_ = -1; }

 private:
  int T_ = -1;
  IndexGrid idx_;
};

// Keys query row i can see.
inline int visible_keys(bool causal, int T, int i) { return causal ? i + 1 : T; }

// Small vector helpers of the relative entries (Shaw, contextual): a·b and y += a·x over n.
inline float dot(const float* a, const float* b, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}
inline void axpy(float* y, float a, const float* x, int n) {
  for (int i = 0; i < n; ++i) y[i] += a * x[i];
}

// A matrix as nested JSON-friendly vectors.
std::vector<std::vector<float>> as_matrix(const float* p, int rows, int cols);
std::vector<std::vector<int>> as_matrix(const int* p, int rows, int cols);

}  // namespace ap
