// core/position/rotary_explore.cpp — the Explore view of rope and xpos (rotary.hpp): the score of a
// query at position d against a key at position 0, s(d) = q̃_d·k̃_0 = q^T R_{−dθ} k (RoFormer §3.4.3,
// its long-range decay), computed by rotating with rope_tables/rope_apply exactly as training does.
// One loop per probe and head; sizes are small (D ≤ 1024, NH·HS ≤ d_model).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "refusal/refusal.hpp"
#include "position/rotary.hpp"

namespace ap {

namespace {

using Rows = std::vector<std::vector<float>>;

struct ProbeCurves {
  Rows score, cosine, share;                           // (NH, D): whole score, score / (‖q‖‖k‖), pair i's share
  std::vector<float> norm;                             // (NH): ‖q‖‖k‖
  std::vector<std::vector<float>> q, q_rot, k, k_rot;  // (NH, 2): pair i before / after rotation
};

// Rotate probe p under `th` (and the xPos scales qs/ks, or none) for every head.
ProbeCurves curves(const RotarySpec& r, const ExploreQuery& q, const QKProbe& p, const ScaledThetas& th,
                   const std::vector<float>& qs, const std::vector<float>& ks) {
  const int D = q.length, HS = r.HS, NH = q.heads, half = r.d_rot / 2;
  const int a = r.half ? q.pair : 2 * q.pair, b = r.half ? q.pair + half : 2 * q.pair + 1;
  const int m = std::clamp(q.position, 0, D - 1);
  std::vector<float> c, s;
  rope_tables(c, s, D, th.theta, th.mscale);
  ProbeCurves out;
  out.score = out.cosine = out.share = Rows(NH, std::vector<float>(D));
  std::vector<float> Q(size_t(D) * HS), K(HS);
  for (int h = 0; h < NH; ++h) {
    const float* q0 = p.q.data() + size_t(h) * HS;
    const float* k0 = p.k.data() + size_t(h) * HS;
    for (int t = 0; t < D; ++t) std::copy(q0, q0 + HS, Q.begin() + size_t(t) * HS);  // q at every position
    std::copy(k0, k0 + HS, K.begin());                                               // k at position 0
    rope_apply(Q.data(), 1, D, HS, r.d_rot, r.half, c.data(), s.data(), qs.empty() ? nullptr : qs.data(), false);
    rope_apply(K.data(), 1, 1, HS, r.d_rot, r.half, c.data(), s.data(), ks.empty() ? nullptr : ks.data(), false);
    double nq = 0, nk = 0;
    for (int x = 0; x < HS; ++x) nq += double(q0[x]) * q0[x], nk += double(k0[x]) * k0[x];
    const double norm = std::sqrt(nq * nk) + 1e-12;
    out.norm.push_back(float(norm));
    for (int d = 0; d < D; ++d) {
      const float* qd = Q.data() + size_t(d) * HS;
      double sum = 0;
      for (int x = 0; x < HS; ++x) sum += double(qd[x]) * K[x];
      out.score[h][d] = float(sum);
      out.cosine[h][d] = float(sum / norm);
      out.share[h][d] = float(double(qd[a]) * K[a] + double(qd[b]) * K[b]);
    }
    out.q.push_back({q0[a], q0[b]});
    out.q_rot.push_back({Q[size_t(m) * HS + a], Q[size_t(m) * HS + b]});
    out.k.push_back({k0[a], k0[b]});
    out.k_rot.push_back({K[a], K[b]});
  }
  return out;
}

}  // namespace

nlohmann::json rotary_explore(const RotarySpec& r, const ExploreQuery& q) {
  const int half = r.d_rot / 2, D = q.length;
  if (q.pair < 0 || q.pair >= half)
    refuse("position.explore_no_pair", "",
           {{"pair", std::to_string(q.pair)}, {"pairs", std::to_string(half)}, {"last", std::to_string(half - 1)}});
  if (q.scaling == "ntk" && r.d_rot <= 2) refuse("position.explore_ntk_few_dims", "");
  std::vector<float> qs, ks;
  if (r.gamma > 0) xpos_scales(qs, ks, D, r.d_rot, r.gamma);
  const ScaledThetas plain = rope_scale(r.d_rot, r.base, RopeScaling::None, 1.0, r.train_len);
  const RopeScaling kind = rope_scaling_from(q.scaling);
  const ScaledThetas scaled = rope_scale(r.d_rot, r.base, kind, q.factor, r.train_len);
  std::vector<int> dist(D);
  for (int d = 0; d < D; ++d) dist[d] = d;
  const int m = std::clamp(q.position, 0, D - 1);
  const double th = plain.theta[q.pair];
  nlohmann::json score, cosine, norms, scaled_score, scaled_cosine, share, pq, pq_rot, pk, pk_rot;
  for (const QKProbe& p : q.probes) {
    ProbeCurves c = curves(r, q, p, plain, qs, ks);
    score[p.name] = c.score, cosine[p.name] = c.cosine, share[p.name] = c.share;
    norms[p.name] = c.norm;
    pq[p.name] = c.q, pq_rot[p.name] = c.q_rot, pk[p.name] = c.k, pk_rot[p.name] = c.k_rot;
    if (kind != RopeScaling::None) {
      ProbeCurves sc = curves(r, q, p, scaled, qs, ks);
      scaled_score[p.name] = sc.score, scaled_cosine[p.name] = sc.cosine;
    }
  }
  nlohmann::json j{{"kind", "rotary"},
                   {"distance", dist},
                   {"score", score},
                   {"cosine", cosine},
                   {"norm", norms},
                   {"rotated_dims", r.d_rot},
                   {"pairs", half},
                   {"train_len", r.train_len},
                   {"pair",
                    {{"index", q.pair},
                     {"theta", th},
                     {"wavelength", 2 * 3.14159265358979323846 / th},
                     {"position", m},
                     {"angle", m * th},
                     {"share", share},
                     {"q", pq},
                     {"q_rotated", pq_rot},
                     {"k", pk},
                     {"k_rotated", pk_rot}}}};
  if (kind != RopeScaling::None)
    j["scaled"] = {{"scaling", q.scaling},          {"factor", q.factor},    {"mscale", scaled.mscale},
                   {"theta", scaled.theta[q.pair]}, {"score", scaled_score}, {"cosine", scaled_cosine}};
  return j;
}

}  // namespace ap
