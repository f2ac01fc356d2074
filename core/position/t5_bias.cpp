// core/position/t5_bias.cpp — T5 relative position bias (Raffel et al.; HF modeling_t5.py
// T5Attention.compute_bias, reference §1.5): a learned scalar per (bucket, head) added to the
// logits, b_ij = W[bucket(j − i), h], with rel = j − i (key − query, the T5 sign). Buckets are
// exact for small distances and logarithmic up to t5_max_distance; bidirectional models give
// keys to the right the upper half, causal models use the one-sided buckets.
// Parameters: "t5_bias.weight" (num_buckets, NH), ONE table shared by all layers, as HF T5
// computes it in the first layer and reuses it. The bias is added after τ q·k (HF T5 does not
// scale q·k at all; here the content keeps the model's τ and the bias is unscaled).
#include <cmath>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "position/position.hpp"
#include "position/relative.hpp"

namespace ap {

namespace {

class T5Bias : public PositionEncoding {
 public:
  T5Bias(const MakeContext& ctx, ParamStore& ps)
      : ps_(ps),
        NH_(ctx.sizes.heads),
        NB_(int(ctx.options.number("t5_num_buckets"))),
        maxd_(int(ctx.options.number("t5_max_distance"))),
        bidir_(!ctx.sizes.causal) {
    // HF T5 _init_weights: relative_attention_bias ~ N(0, d_model^−1/2).
    id_ = ps.add("t5_bias.weight", {NB_, NH_}, Init::Normal, 1.0f / std::sqrt(float(ctx.sizes.d_model)), false);
  }
  bool biases() const override { return true; }
  void bias_forward(int, float* logits, const float*, const float*, const AttnShape& s) override {
    const int T = s.T;
    const int* bk = buckets(T);
    const float* W = ps_.data(id_);
    for (int b = 0; b < s.B; ++b)
      for (int h = 0; h < s.NH; ++h) {
        float* L = logits + (size_t(b) * s.NH + h) * T * T;
        for (int i = 0; i < T; ++i)
          for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j)
            L[size_t(i) * T + j] += W[bk[size_t(i) * T + j] * NH_ + h];
      }
  }
  void bias_backward(int, const float* dlogits, const float*, const float*, float*, float*,
                     const AttnShape& s) override {
    const int T = s.T;
    const int* bk = buckets(T);
    float* dW = ps_.grad(id_);
    for (int b = 0; b < s.B; ++b)
      for (int h = 0; h < s.NH; ++h) {
        const float* D = dlogits + (size_t(b) * s.NH + h) * T * T;
        for (int i = 0; i < T; ++i)
          for (int j = 0, n = visible_keys(s.causal, T, i); j < n; ++j)
            dW[bk[size_t(i) * T + j] * NH_ + h] += D[size_t(i) * T + j];
      }
  }
  nlohmann::json display(int T) const override {
    std::vector<int> bk(size_t(T) * T);
    for (int i = 0; i < T; ++i)
      for (int j = 0; j < T; ++j) bk[size_t(i) * T + j] = t5_bucket(j - i, bidir_, NB_, maxd_);
    const float* W = ps_.data(id_);
    nlohmann::json heads = nlohmann::json::array();
    for (int h = 0; h < NH_; ++h) {
      std::vector<float> m(size_t(T) * T);
      for (size_t x = 0; x < m.size(); ++x) m[x] = W[bk[x] * NH_ + h];
      heads.push_back(as_matrix(m.data(), T, T));
    }
    return {{"kind", "bias"},        {"buckets", as_matrix(bk.data(), T, T)},
            {"bias", heads},         {"num_buckets", NB_},
            {"max_distance", maxd_}, {"bidirectional", bidir_}};
  }

  // The learned bias against distance per head, each distance's bucket, and the distances where
  // a bucket starts (d = i − j, so rel = j − i = −d).
  nlohmann::json explore(const ExploreQuery& q) const override {
    const float* W = ps_.data(id_);
    auto bucket = [&](int d) { return t5_bucket(-d, bidir_, NB_, maxd_); };
    nlohmann::json j =
        sample_by_distance(NH_, q.length, !bidir_, [&](int h, int i, int k) { return W[bucket(i - k) * NH_ + h]; });
    std::vector<int> buckets, starts;
    const auto dist = j["distance"].get<std::vector<int>>();
    for (size_t x = 0; x < dist.size(); ++x) {
      buckets.push_back(bucket(dist[x]));
      // A bucket starts where it differs from its neighbour nearer to d = 0.
      const int inner = dist[x] > 0 ? dist[x] - 1 : dist[x] + 1;
      if (dist[x] != 0 && bucket(inner) != buckets.back()) starts.push_back(dist[x]);
    }
    j["kind"] = "bias";
    j["quantity"] = "bias";
    j["buckets"] = buckets;
    j["bucket_starts"] = starts;
    j["max_exact"] = bidir_ ? NB_ / 4 : NB_ / 2;
    j["max_distance"] = maxd_;
    j["formula"] =
        R"(b_h(d) = w_{h,\,\mathrm{bucket}(-d)},\ \mathrm{bucket}(n) = n \text{ for } n < n_e,\ n_e + \Big\lfloor \frac{\ln(n/n_e)}{\ln(D_{\max}/n_e)}(N - n_e) \Big\rfloor \text{ else})";
    j["source"] = "core/position/t5_bias.cpp · T5Bias::explore → t5_bucket (relative.cpp)";
    return j;
  }

 private:
  const int* buckets(int T) {
    return table_.get(T, [&](int i, int j) { return t5_bucket(j - i, bidir_, NB_, maxd_); });
  }
  ParamStore& ps_;
  int NH_, NB_, maxd_;
  bool bidir_;
  int id_;
  IndexTable table_;
};

void check_t5(const MakeContext& ctx) {
  const int nb = int(ctx.options.number("t5_num_buckets")), md = int(ctx.options.number("t5_max_distance"));
  const int exact = ctx.sizes.causal ? nb / 2 : nb / 4;
  if (md <= exact)
    refuse("position.t5_distance", "t5_max_distance",
           {{"distance", std::to_string(md)}, {"exact", std::to_string(exact)}, {"buckets", std::to_string(nb)}});
}

}  // namespace

// T5's bucket of rel in Python (HF _relative_position_bucket, with relative.cpp's +1e-9), for
// this entry's PyTorch form and contextual.cpp's.
const char* const kT5BucketPy = R"PY(
def _t5_bucket(rel, bidirectional, num_buckets, max_distance):
    ret = 0
    if bidirectional:
        num_buckets //= 2
        ret = num_buckets if rel > 0 else 0
        n = abs(rel)
    else:
        n = -rel if rel < 0 else 0
    exact = num_buckets // 2
    if n < exact:
        return ret + n
    v = math.log(n / exact) / math.log(max_distance / exact) * (num_buckets - exact)
    return ret + min(exact + int(v + 1e-9), num_buckets - 1)


)PY";

namespace {
// The PyTorch form (common/torch_form.hpp).
const char* const kT5BiasPy = R"PY(class Position(PositionBase):
    """T5: s += W[bucket(j - i), h], one table for all layers (core/position/t5_bias.cpp)."""
    NUM_BUCKETS, MAX_DISTANCE = ${num_buckets}, ${max_distance}

    def bias(self, m, layer, s, q, k, tau):
        T = s.shape[-1]
        idx = torch.tensor([[_t5_bucket(j - i, not CAUSAL, self.NUM_BUCKETS, self.MAX_DISTANCE)
                             for j in range(T)] for i in range(T)])
        W = m.get_parameter("t5_bias.weight")  # (NB, NH)
        return s + W[idx.to(W.device)].permute(2, 0, 1))PY";

std::string torch_t5_bias(const MakeContext& ctx, PyFill fill) {
  return kT5BucketPy + fill(kT5BiasPy, {{"num_buckets", ctx.options.integer("t5_num_buckets")},
                                        {"max_distance", ctx.options.integer("t5_max_distance")}});
}
}  // namespace

PositionEntry position_t5_bias() {
  PositionEntry e{"t5_bias",
                  "T5 relative bias (bucketed)",
                  R"(s_{ij} = \tau\, q_i\cdot k_j + w_{h,\,\mathrm{bucket}(j-i)})",
                  "adds a learned bias per distance bucket and head to the logits; one table shared by all layers",
                  "Nearby distances get their own learned bias, far ones share logarithmic buckets, and "
                  "everything beyond max_distance shares the last bucket — which is why it extrapolates. "
                  "Position acts only through the logits: with softmax the probe stays at 1/n unless "
                  "anchors ([CLS]/[SEP]) give the positions something to measure against.",
                  false,
                  true,
                  true,
                  {opt_int("t5_num_buckets", 32, 4, 512, "number of buckets (half per direction when bidirectional)"),
                   opt_int("t5_max_distance", 128, 2, 65536, "distances from here on share the last bucket")},
                  [](const MakeContext& ctx, ParamStore& ps) -> std::unique_ptr<PositionEncoding> {
                    return std::make_unique<T5Bias>(ctx, ps);
                  }};
  e.check = check_t5;
  e.biases_logits = true;
  e.torch.python = torch_t5_bias;
  return e;
}

}  // namespace ap
