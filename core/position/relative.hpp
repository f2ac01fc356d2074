// core/position/relative.hpp — shared helpers of the relative encodings (t5_bias, alibi, shaw,
// contextual, urpe, fire): bucket and slope functions pinned by tests (reference §7.1, §7.2), and
// a (T, T) index table cached per length so that no hot loop recomputes a bucket.
// Sign conventions (reference §0): query i, key j; each entry says which difference it uses.
#pragma once
#include <functional>
#include <vector>

namespace ap {

// T5 `_relative_position_bucket` (HF modeling_t5.py), rel = j − i (key − query).
// Bidirectional: keys to the right get the upper half of the buckets. Causal: rel > 0 → 0.
int t5_bucket(int rel, bool bidirectional, int num_buckets, int max_distance);

// ALiBi head slopes (ofirpress get_slopes): 2^(−8h/n) for n a power of 2; otherwise the
// 2^⌊log2 n⌋ set followed by the even-indexed slopes of the doubled set.
std::vector<double> alibi_slopes(int n);

// clip(x, k) = max(−k, min(k, x)) (Shaw et al.).
inline int clip_rel(int x, int k) { return x < -k ? -k : (x > k ? k : x); }

// A (T, T) table idx[i*T + j] = f(i, j), rebuilt only when T changes.
class IndexTable {
 public:
  const int* get(int T, const std::function<int(int, int)>& f) {
    if (T != T_) {
      idx_.resize(size_t(T) * T);
      for (int i = 0; i < T; ++i)
        for (int j = 0; j < T; ++j) idx_[size_t(i) * T + j] = f(i, j);
      T_ = T;
    }
    return idx_.data();
  }
  void reset() { T_ = -1; }

 private:
  int T_ = -1;
  std::vector<int> idx_;
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

// T5's bucket function in Python (t5_bias.cpp), which contextual.cpp's PyTorch form shares.
extern const char* const kT5BucketPy;

}  // namespace ap
