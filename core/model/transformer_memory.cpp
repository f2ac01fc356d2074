// core/model/transformer_memory.cpp — Transformer::activation_bytes(): what the activations and
// the backward scratch hold, for the sweep's peak_memory_bytes (Session::memory_bytes()).
#include "model/transformer.hpp"

namespace ap {

namespace {

template <class T>
size_t vec_bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

size_t attention_bytes(const AttentionActs& a) {
  size_t n = vec_bytes(a.drop_keep);
  for (const auto* t : {&a.q, &a.k, &a.v, &a.logits, &a.weights, &a.weights_mult, &a.weights_drop, &a.o, &a.dheads,
                        &a.dq, &a.dk, &a.dv, &a.dweights, &a.dlogits, &a.dscratch})
    n += t->bytes();
  return n;
}

}  // namespace

size_t Transformer::activation_bytes() const {
  size_t n = vec_bytes(ids_in_) + vec_bytes(targets_) + vec_bytes(mask_);
  for (const auto* t : {&emb_, &lnf_}) n += t->bytes();
  for (const auto* t : {&lnf_mean_, &lnf_rstd_}) n += t->bytes();
  for (const auto* t : {&pooled_, &logits_, &probs_, &grads_.dlogits, &grads_.dpooled}) n += t->bytes();
  for (const auto* t :
       {&grads_.dlnf, &grads_.dstream, &grads_.dprev, &grads_.ds2, &grads_.dmid, &grads_.dfc2_drop, &grads_.dact,
        &grads_.dfc, &grads_.dmlp_in, &grads_.ds1, &grads_.dproj_drop, &grads_.datt_out, &grads_.dqkv, &grads_.datt_in})
    n += t->bytes();
  for (const BlockActs& b : blocks_) {
    for (const auto* t : {&b.x, &b.ln1, &b.qkv, &b.att_out, &b.proj, &b.proj_drop, &b.s1, &b.mid, &b.ln2, &b.fc, &b.act,
                          &b.fc2, &b.fc2_drop, &b.s2, &b.out})
      n += t->bytes();
    for (const auto* t : {&b.ln1_mean, &b.ln1_rstd, &b.ln2_mean, &b.ln2_rstd}) n += t->bytes();
    n += vec_bytes(b.proj_keep) + vec_bytes(b.fc2_keep) + attention_bytes(b.att);
  }
  return n;
}

}  // namespace ap
