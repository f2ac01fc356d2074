// core/normalization/kernel_attention.hpp — the O(T) forms of the kernel (feature-map) entries,
// linear and performer. The model materializes the T×T weights a_ij = φ(q_i)·φ(k_j) / D_i
// because the UI draws them; these functions compute the same outputs the efficient way
// (Katharopoulos et al. 2020; idiap/fast-transformers `linear_attention.py`, performer-pytorch
// `causal_linear_attention_noncuda`), and a test proves the two forms agree.
#pragma once

namespace ap {

// One head. fq, fk (T,F) feature-mapped queries and keys, v (T,HS). Output o (T,HS):
//   o_i = φ(q_i)ᵀ S_i / D_i,  S_i = Σ_{j∈vis(i)} φ(k_j) v_jᵀ (F,HS),  z_i = Σ_{j∈vis(i)} φ(k_j),
//   D_i = φ(q_i)·z_i ± ε (the guarded denominator of row_ops.hpp),
// vis(i) = {0..i} (causal: S and z are running prefix sums) or {0..T−1}. O(T·F·HS) time.
void kernel_attention_prefix(float* o, const float* fq, const float* fk, const float* v, int T, int F, int HS,
                             bool causal, double eps);

}  // namespace ap
