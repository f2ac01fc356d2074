// tests/native/test_position_tdlm.cpp — the TDLM seed's (seed 000) position variants, pinned to
// vectors written here from the seed's own PyTorch with plain loops (its
// FixedAbsolutePositionEmbedding table cat(sin, cos), forward_rope with rotate_every_two, and the
// 'b h l d -> b l (h d)' of LearnableAbsolutePositionEmbedding on q and k), and to the shared
// reference §7.3 (B, concat) and §7.4 (interleaved RoPE), not by the entries' code: rope_embed
// (the seed's embedding-level 'rope'), qk_sinusoidal ('layerwise_fixed'), qk_learned
// ('layerwise_learnable'). Gradients, round trips, explore views, Lemma 1 and the PyTorch export
// come from the registry-wide tests (test_position.cpp, test_model.cpp, torch_test.sh).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "model_check.hpp"

using aptest::tiny;
using Catch::Matchers::Contains;

namespace {

// Config error text, or "" when valid.
std::string config_error(const nlohmann::json& j) {
  try {
    ap::Config::from_json(j);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// The seed's FixedAbsolutePositionEmbedding buffer: (T, d) = cat(sin(t·inv_freq), cos(t·inv_freq)),
// inv_freq = 1 / 10000^(arange(0, d, 2) / d).
std::vector<double> seed_table(int T, int d) {
  std::vector<double> E(size_t(T) * d);
  for (int t = 0; t < T; ++t)
    for (int i = 0; i < d / 2; ++i) {
      const double inv_freq = 1.0 / std::pow(10000.0, (2.0 * i) / d);
      E[size_t(t) * d + i] = std::sin(t * inv_freq);
      E[size_t(t) * d + d / 2 + i] = std::cos(t * inv_freq);
    }
  return E;
}

// The seed's forward_rope on one row x (d) at position t: x·cos + rotate_every_two(x)·sin, where
// sin, cos are the table's halves repeated '... d -> ... (d 2)' and rotate_every_two maps
// (x1, x2) pairs to (−x2, x1).
std::vector<double> seed_rope(const std::vector<double>& x, int t, const std::vector<double>& E) {
  const int d = int(x.size());
  std::vector<double> out(d);
  for (int c = 0; c < d; ++c) {
    const double sin = E[size_t(t) * d + c / 2], cos = E[size_t(t) * d + d / 2 + c / 2];
    const double rot = c % 2 == 0 ? -x[c + 1] : x[c - 1];
    out[c] = x[c] * cos + rot * sin;
  }
  return out;
}

}  // namespace

TEST_CASE("rope_embed: the seed's forward_rope on the embedding; reference §7.4 at m = 1", "[position]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "rope_embed"}, {"d_model", 8}, {"heads", 2}})));
  auto& enc = s.model().position();
  REQUIRE(enc.maps());
  CHECK_FALSE(enc.rotates());  // q and k are not turned again in the blocks
  const int B = 2, T = 6, C = 8;
  std::vector<float> x(size_t(B) * T * C);
  ap::Rng rng(3);
  for (auto& v : x) v = rng.normal();
  for (int c = 0; c < C; ++c) x[size_t(1) * C + c] = float(c + 1);  // batch 0, position 1: [1..8]
  auto turned = x;
  enc.map_forward(-1, turned.data(), B, T, C);
  // Reference §7.4, interleaved, x = [1..8], m = 1.
  const std::vector<double> ref{-1.1426396637, 1.9220755965, 2.5856788292, 4.2795169111,
                                4.9397510021,  6.0496991692, 6.9919965013, 8.0069959988};
  for (int c = 0; c < C; ++c) CHECK(turned[size_t(1) * C + c] == Approx(ref[c]).margin(1e-6));
  // Every row against the seed's formula; position 0 is unchanged.
  const auto E = seed_table(T, C);
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      std::vector<double> row(x.begin() + (size_t(b) * T + t) * C, x.begin() + (size_t(b) * T + t + 1) * C);
      auto want = seed_rope(row, t, E);
      for (int c = 0; c < C; ++c) CHECK(turned[(size_t(b) * T + t) * C + c] == Approx(want[c]).margin(1e-5));
    }
  // Backward turns back: map_backward(map_forward(x)) = x (orthogonal).
  enc.map_backward(-1, turned.data(), B, T, C);
  for (size_t i = 0; i < x.size(); ++i) CHECK(turned[i] == Approx(x[i]).margin(1e-5));
  CHECK(ap::position_param_count(s.config()) == 0);
  CHECK_THAT(config_error(tiny({{"position", "rope_embed"}, {"d_model", 9}, {"heads", 1}})),
             Contains("d_model") && Contains("even"));
}

TEST_CASE("qk_sinusoidal: the seed's head-sized [sin | cos] table added to q and k of every head; §7.3 B",
          "[position]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "qk_sinusoidal"}, {"d_model", 16}, {"heads", 2}})));
  auto& enc = s.model().position();
  REQUIRE(enc.rotates());
  CHECK_FALSE(enc.adds());  // not the block's input
  const ap::AttnShape sh{2, 5, 2, 8, true, true};
  const size_t n = size_t(sh.B) * sh.NH * sh.T * sh.HS;
  std::vector<float> q(n, 0.0f), k(n, 1.0f);
  enc.rotate_forward(1, q.data(), k.data(), sh);
  // Reference §7.3 B (concat, d = 8, p = 1): [sin 1, sin 0.1, sin 0.01, sin 0.001, cos 1, ...].
  const std::vector<double> ref{0.8414709848, 0.0998334166, 0.0099998333, 0.0009999998,
                                0.5403023059, 0.9950041653, 0.9999500004, 0.9999995000};
  const auto E = seed_table(sh.T, sh.HS);
  for (int b = 0; b < sh.B; ++b)
    for (int h = 0; h < sh.NH; ++h)
      for (int t = 0; t < sh.T; ++t)
        for (int d = 0; d < sh.HS; ++d) {
          const size_t i = ((size_t(b) * sh.NH + h) * sh.T + t) * sh.HS + d;
          CHECK(q[i] == Approx(E[size_t(t) * sh.HS + d]).margin(1e-6));
          CHECK(k[i] == Approx(1.0 + E[size_t(t) * sh.HS + d]).margin(1e-6));
          if (t == 1) CHECK(q[i] == Approx(ref[d]).margin(1e-7));
        }
  // The addition passes dq, dk through unchanged.
  std::vector<float> dq(n, 0.5f), dk(n, -2.0f);
  enc.rotate_backward(1, dq.data(), dk.data(), sh);
  for (size_t i = 0; i < n; ++i) CHECK((dq[i] == 0.5f && dk[i] == -2.0f));
  CHECK(ap::position_param_count(s.config()) == 0);
  CHECK_THAT(config_error(tiny({{"position", "qk_sinusoidal"}, {"placement", "layerwise"}})), Contains("placement"));
}

TEST_CASE("qk_learned: one model-sized table shared by the layers, head h reads its slice ('b l (h d)')",
          "[position]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "qk_learned"}, {"d_model", 8}, {"heads", 2}})));
  auto& ps = s.model().params();
  const int id = ps.find("qk_pos_emb.weight");
  REQUIRE(id >= 0);
  const int L = s.config().table_len(), C = 8;
  REQUIRE(ps.info(id).size == size_t(L) * C);
  CHECK(ap::position_param_count(s.config()) == size_t(L) * C);  // one table, not one per layer
  for (int t = 0; t < L; ++t)
    for (int c = 0; c < C; ++c) ps.data(id)[size_t(t) * C + c] = float(100 * t + c);
  auto& enc = s.model().position();
  const ap::AttnShape sh{2, 4, 2, 4, true, true};
  const size_t n = size_t(sh.B) * sh.NH * sh.T * sh.HS;
  for (int layer : {0, 1}) {
    std::vector<float> q(n, 0.0f), k(n, 0.0f);
    enc.rotate_forward(layer, q.data(), k.data(), sh);
    for (int b = 0; b < sh.B; ++b)
      for (int h = 0; h < sh.NH; ++h)
        for (int t = 0; t < sh.T; ++t)
          for (int d = 0; d < sh.HS; ++d) {
            const size_t i = ((size_t(b) * sh.NH + h) * sh.T + t) * sh.HS + d;
            CHECK(q[i] == float(100 * t + h * sh.HS + d));  // P[t, h·HS + d]
            CHECK(k[i] == q[i]);
          }
  }
  // dP[t] = Σ_b (dq + dk) over both layers; rows past T untouched.
  ps.zero_grad();
  for (int layer : {0, 1}) {
    std::vector<float> dq(n, 1.0f), dk(n, 2.0f);
    enc.rotate_backward(layer, dq.data(), dk.data(), sh);
    CHECK(dq[0] == 1.0f);
  }
  for (int t = 0; t < L; ++t)
    for (int c = 0; c < C; ++c) CHECK(ps.grad(id)[size_t(t) * C + c] == (t < sh.T ? 2 * sh.B * 3.0f : 0.0f));
}
