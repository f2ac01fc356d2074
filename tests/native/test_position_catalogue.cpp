// tests/native/test_position_catalogue.cpp — the second catalogue's encodings (issue 20) pinned to
// vectors computed here from the papers' equations with plain loops and literal numbers, not by
// the entries' code: KERPLE's log and power kernels (Chi et al. 2022), x-transformers'
// ScaledSinusoidalEmbedding and DynamicPositionBias; CoPE's gated counts (Golovneva et al. 2024),
// the Forgetting Transformer's gate (Lin et al. 2025) and randomized positions (Ruoss et al. 2023). Gradients, round
// trips, explore views and the Lemma 1 checks come from the registry-wide tests (test_position.cpp, test_model.cpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "model_check.hpp"

using aptest::tiny;
using Catch::Matchers::Contains;

namespace {

// Overwrite the parameter `name` of session s with `values`.
void set_param(ap::Session& s, const std::string& name, const std::vector<float>& values) {
  auto& ps = s.model().params();
  const int id = ps.find(name);
  REQUIRE(id >= 0);
  REQUIRE(ps.info(id).size == values.size());
  std::copy(values.begin(), values.end(), ps.data(id));
}

// The bias the entry adds to zero logits (B = 1): (NH, T, T).
std::vector<float> bias_of(ap::Session& s, int layer, int T) {
  const auto& c = s.config();
  ap::AttnShape sh{1, T, c.heads, c.d_model / c.heads, c.causal, true};
  std::vector<float> logits(size_t(c.heads) * T * T, 0.0f);
  s.model().position().bias_forward(layer, logits.data(), nullptr, nullptr, sh);
  return logits;
}

// Config error text, or "" when valid.
std::string config_error_of(const nlohmann::json& j) {
  try {
    ap::Config::from_json(j);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// softplus⁻¹(r) = ln(e^r − 1), logit(p) = ln(p / (1 − p)): the raw values that give chosen rates.
double inv_softplus(double r) { return std::log(std::expm1(r)); }

}  // namespace

TEST_CASE("kerple: log and power kernels at chosen rates, causal and bidirectional", "[position]") {
  for (bool causal : {true, false}) {
    INFO("causal " << causal);
    // Head 0: r1 = 2, r2 = 0.5; head 1: r1 = 0.25, log r2 = 3 / power r2 = 1.5 (2σ(ln 3) = 1.5).
    ap::Session lg(ap::Config::from_json(tiny({{"position", "kerple"}, {"causal", causal}})));
    set_param(lg, "blocks.1.attn.kerple.raw_r1", {float(inv_softplus(2.0)), float(inv_softplus(0.25))});
    set_param(lg, "blocks.1.attn.kerple.raw_r2", {float(inv_softplus(0.5)), float(inv_softplus(3.0))});
    // −r1 ln(1 + r2 d) for d = 0..4, by hand: head 0 −2 ln(1 + d/2), head 1 −ln(1 + 3d)/4.
    const double log0[5] = {0, -0.8109302162, -1.3862943611, -1.8325814637, -2.1972245773};
    const double log1[5] = {0, -0.3465735903, -0.4864775373, -0.5756462732, -0.6412373394};
    auto b = bias_of(lg, 1, 5);
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 5; ++j) {
        INFO("i " << i << " j " << j);
        const bool seen = !causal || j <= i;
        CHECK(b[i * 5 + j] == Approx(seen ? log0[std::abs(i - j)] : 0.0).margin(2e-6));
        CHECK(b[25 + i * 5 + j] == Approx(seen ? log1[std::abs(i - j)] : 0.0).margin(2e-6));
      }
    ap::Session pw(ap::Config::from_json(tiny({{"position", "kerple"}, {"kerple_kind", "power"}, {"causal", causal}})));
    set_param(pw, "blocks.0.attn.kerple.raw_r1", {float(inv_softplus(2.0)), float(inv_softplus(0.25))});
    set_param(pw, "blocks.0.attn.kerple.raw_r2", {float(std::log(1.0 / 3.0)), float(std::log(3.0))});  // r2 = 0.5, 1.5
    // −r1 |d|^r2: head 0 −2√d, head 1 −d^1.5 / 4.
    const double pw0[5] = {0, -2.0, -2.8284271247, -3.4641016151, -4.0};
    const double pw1[5] = {0, -0.25, -0.7071067812, -1.2990381057, -2.0};
    auto p = bias_of(pw, 0, 5);
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 5; ++j) {
        INFO("power, i " << i << " j " << j);
        const bool seen = !causal || j <= i;
        CHECK(p[i * 5 + j] == Approx(seen ? pw0[std::abs(i - j)] : 0.0).margin(2e-6));
        CHECK(p[25 + i * 5 + j] == Approx(seen ? pw1[std::abs(i - j)] : 0.0).margin(2e-6));
      }
  }
}

TEST_CASE("kerple: rates are positive at init, the power exponent below 2; logit-free normalizations refuse it",
          "[position]") {
  ap::Session s(
      ap::Config::from_json(tiny({{"position", "kerple"}, {"kerple_kind", "power"}, {"heads", 4}, {"d_model", 16}})));
  auto d = s.model().position().display(6);
  for (int h = 0; h < 4; ++h) {
    CHECK(d["r1"][h].get<double>() > 0);
    CHECK(d["r2"][h].get<double>() > 0);
    CHECK(d["r2"][h].get<double>() < 2);
  }
  for (const char* norm : {"linear", "performer"}) {
    INFO(norm);
    CHECK_THROWS_WITH(ap::Config::from_json(tiny({{"position", "kerple"}, {"normalization", norm}})),
                      Contains("kerple") && Contains("logit"));
  }
  CHECK_THROWS_WITH(ap::Config::from_json(tiny({{"position", "kerple"}, {"kerple_kind", "cubic"}})),
                    Contains("kerple_kind"));
}

TEST_CASE("scaled_sinusoidal: [sin | cos] at p = 1 (reference §7.3) times g = d^-1/2, then a set scale", "[position]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "scaled_sinusoidal"}, {"d_model", 8}})));
  const double p1[8] = {0.8414709848, 0.0998334166, 0.0099998333, 0.0009999998,
                        0.5403023059, 0.9950041653, 0.9999500004, 0.9999995000};
  auto added = [&](int layer) {  // what the hook adds to zeros, (1, 3, 8)
    std::vector<float> x(3 * 8, 0.0f);
    s.model().position().add_forward(layer, x.data(), 1, 3, 8);
    return x;
  };
  auto x = added(-1);
  const double g = 0.3535533906;  // 8^(−1/2)
  for (int c = 0; c < 8; ++c) {
    CHECK(x[8 + c] == Approx(g * p1[c]).margin(1e-7));
    CHECK(x[c] == Approx(c < 4 ? 0.0 : g).margin(1e-7));  // p = 0: sin 0 | cos 0
  }
  // Any position and column from the equation: g · sin/cos(p · 10000^(−2i/8)).
  set_param(s, "pos_emb.scale", {2.5f});
  x = added(-1);
  for (int p = 0; p < 3; ++p)
    for (int i = 0; i < 4; ++i) {
      const double w = std::pow(10000.0, -2.0 * i / 8);
      CHECK(x[p * 8 + i] == Approx(2.5 * std::sin(p * w)).margin(1e-6));
      CHECK(x[p * 8 + 4 + i] == Approx(2.5 * std::cos(p * w)).margin(1e-6));
    }
  CHECK(s.model().position().display(3)["scale"].get<double>() == 2.5);
  // Layerwise: one scale per block, each starting at d^−1/2.
  ap::Session l(ap::Config::from_json(tiny({{"position", "scaled_sinusoidal"}, {"placement", "layerwise"}})));
  for (const char* name : {"blocks.0.pos_emb.scale", "blocks.1.pos_emb.scale"}) {
    const int id = l.model().params().find(name);
    REQUIRE(id >= 0);
    CHECK(l.model().params().data(id)[0] == Approx(0.25));  // d_model 16
  }
  CHECK(l.model().params().find("pos_emb.scale") < 0);
}

TEST_CASE("dynamic_bias: the two-hidden-layer SiLU MLP of sign(d) ln(1 + |d|), by hand", "[position]") {
  // H = 2, NH = 2, literal weights; b_h(d) computed in python from the equation (d = i − j).
  const std::vector<float> W1 = {0.5f, -1.0f}, b1 = {0.1f, 0.2f}, W2 = {1.0f, -0.5f, 0.3f, 0.8f}, b2 = {0.0f, -0.1f};
  const std::vector<float> W3 = {0.7f, -0.2f, -0.4f, 0.9f}, b3 = {0.05f, -0.05f};
  const double want[7][2] = {{-0.2559673556, 0.6206157331}, {-0.1983290844, 0.4360928421},
                             {-0.1119988312, 0.2169430824}, {0.0487581883, -0.0478251364},
                             {0.2165810723, -0.2056198885}, {0.3140028438, -0.2652422520},
                             {0.3832734784, -0.2976776975}};  // d = −3..3
  for (const char* input : {"signed", "absolute"})
    for (bool causal : {true, false}) {
      INFO(input << ", causal " << causal);
      ap::Session s(ap::Config::from_json(tiny({{"position", "dynamic_bias"},
                                                {"dynamic_bias_hidden", 2},
                                                {"dynamic_bias_distance", input},
                                                {"causal", causal}})));
      set_param(s, "dynamic_bias.mlp.0.0.weight", W1), set_param(s, "dynamic_bias.mlp.0.0.bias", b1);
      set_param(s, "dynamic_bias.mlp.1.0.weight", W2), set_param(s, "dynamic_bias.mlp.1.0.bias", b2);
      set_param(s, "dynamic_bias.mlp.2.weight", W3), set_param(s, "dynamic_bias.mlp.2.bias", b3);
      for (int layer : {0, 1}) {  // shared: the same in every layer
        auto b = bias_of(s, layer, 4);
        for (int h = 0; h < 2; ++h)
          for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
              INFO("h " << h << " i " << i << " j " << j);
              const int d = input[0] == 's' ? i - j : std::abs(i - j);
              const double v = (causal && j > i) ? 0.0 : want[d + 3][h];
              CHECK(b[(h * 4 + i) * 4 + j] == Approx(v).margin(2e-6));
            }
      }
    }
}

// ---------------------------------------------------------------- cope, forget, randomized (issue 20, Catalogue 2)

namespace {
// The bias the entry adds to zero logits for given q, k (B = 1, NH = 2, T, HS = 2), τ = 1.
std::vector<float> bias_qk(ap::Session& s, int T, const std::vector<float>& q, const std::vector<float>& k) {
  const auto& c = s.config();
  ap::AttnShape sh{1, T, c.heads, c.d_model / c.heads, c.causal, true};
  sh.tau = 1.0f;
  std::vector<float> logits(size_t(c.heads) * T * T, 0.0f);
  s.model().position().bias_forward(0, logits.data(), q.data(), k.data(), sh);
  return logits;
}
double sig(double x) { return 1 / (1 + std::exp(-x)); }
}  // namespace

TEST_CASE("cope: gates, fractional positions and interpolation by hand (Golovneva et al. 2024, eq. 3-5)",
          "[position]") {
  const double l3 = std::log(3.0);
  // Both heads: q_0 = (0, ln 3), q_1 = (2, 0), q_2 = (1, 1); k_0 = (ln 3, 0), k_1 = (0, 0), k_2 = (0, −ln 3).
  std::vector<float> q1 = {0, float(l3), 2, 0, 1, 1}, k1 = {float(l3), 0, 0, 0, 0, float(-l3)};
  std::vector<float> q = q1, k = k1;
  q.insert(q.end(), q1.begin(), q1.end()), k.insert(k.end(), k1.begin(), k1.end());
  // e_0 = (1, 0), e_1 = (0, 2), e_2 = (−1, 1): q_0·e = [0, 2 ln 3, ln 3], q_1·e = [2, 0, −2], q_2·e = [1, 2, 0].
  const std::vector<float> E = {1, 0, 0, 2, -1, 1};
  auto model = [](bool causal, int npos) {
    return tiny({{"position", "cope"}, {"d_model", 4}, {"heads", 2}, {"causal", causal}, {"cope_npos_max", npos}});
  };
  ap::Session c(ap::Config::from_json(model(true, 3)));
  set_param(c, "blocks.0.attn.cope.pos_emb.weight", E);
  // Row 2: g = σ(ln 3), σ(0), σ(−ln 3) = 3/4, 1/2, 1/4 → p = 1.5, 0.75, 0.25;
  //   bias = ½·2 + ½·0, ¼·1 + ¾·2, ¾·1 + ¼·2. Row 1: g = 9/10, 1/2 → p = 1.4, 0.5; bias = 0.6·0 + 0.4·(−2),
  //   ½·2 + ½·0. Row 0: g = ½ → p = ½; bias = ½·0 + ½·2 ln 3.
  const double want[3][3] = {{l3, 0, 0}, {-0.8, 1.0, 0}, {1.0, 1.75, 1.25}};
  auto b = bias_qk(c, 3, q, k);
  for (int h = 0; h < 2; ++h)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) CHECK(b[(h * 3 + i) * 3 + j] == Approx(want[i][j]).margin(2e-6));
  // Clamped at P = npos_max − 1 = 1: p_20 = 1.5 → 1, bias q_2·e_1 = 2; p_10 = 1.4 → 1, bias 0.
  ap::Session cl(ap::Config::from_json(model(true, 2)));
  set_param(cl, "blocks.0.attn.cope.pos_emb.weight", {1, 0, 0, 2});
  b = bias_qk(cl, 3, q, k);
  CHECK(b[2 * 3 + 0] == Approx(2.0).margin(2e-6));
  CHECK(b[1 * 3 + 0] == Approx(0.0).margin(2e-6));
  CHECK(b[2 * 3 + 1] == Approx(1.75).margin(2e-6));
  // Bidirectional: keys to the right count over i..j. Row 0: g = ½, ½, σ(−ln²3) → p_01 = 1, p_02 = 1 + w.
  ap::Session bi(ap::Config::from_json(model(false, 3)));
  set_param(bi, "blocks.0.attn.cope.pos_emb.weight", E);
  b = bias_qk(bi, 3, q, k);
  const double w = sig(-l3 * l3);
  CHECK(b[0 * 3 + 1] == Approx(2 * l3).margin(2e-6));
  CHECK(b[0 * 3 + 2] == Approx((1 - w) * 2 * l3 + w * l3).margin(2e-6));
  CHECK(b[2 * 3 + 0] == Approx(1.0).margin(2e-6));  // the left side is the causal one
  CHECK_THAT(config_error_of(model(true, 1)), Contains("cope_npos_max"));
}

TEST_CASE("forget: D_ij = Σ_{l=j+1..i} ln σ(w·k_l + b) by hand (Lin et al. 2025); bidirectional refused",
          "[position]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "forget"}, {"d_model", 4}, {"heads", 2}, {"causal", true}})));
  // Head 0: w = (1, 0), b = 0, keys k_1 = (ln 3, 0), k_2 = (−ln 3, 0) → f_1 = 3/4, f_2 = 1/4.
  // Head 1: w = 0, b = ln 3 → f = 3/4 for every token: D = (i − j) ln(3/4), ALiBi's line.
  set_param(s, "blocks.0.attn.forget.weight", {1, 0, 0, 0});
  set_param(s, "blocks.0.attn.forget.bias", {0, float(std::log(3.0))});
  const float l3 = float(std::log(3.0));
  std::vector<float> k = {5, 5, l3, 0, -l3, 0, 5, 5, l3, 0, -l3, 0}, q(12, 0.0f);
  auto b = bias_qk(s, 3, q, k);
  const double a = std::log(0.75), f = std::log(0.25);
  const double want0[3][3] = {{0, 0, 0}, {a, 0, 0}, {a + f, f, 0}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      CHECK(b[i * 3 + j] == Approx(want0[i][j]).margin(2e-6));
      CHECK(b[9 + i * 3 + j] == Approx(j <= i ? (i - j) * a : 0.0).margin(2e-6));
    }
  // The default init keeps the gates near 1: f = σ(3) ≈ 0.953 at k = 0.
  ap::Session d(ap::Config::from_json(tiny({{"position", "forget"}, {"causal", true}})));
  CHECK(d.model().params().data(d.model().params().find("blocks.1.attn.forget.bias"))[1] == 3.0f);
  const std::string err = config_error_of(tiny({{"position", "forget"}, {"causal", false}}));
  CHECK_THAT(err, Contains("causal") && Contains("causal=true"));
  CHECK_THAT(config_error_of(tiny({{"position", "forget"}, {"causal", true}, {"forget_bias_init", 50.0}})),
             Contains("forget_bias_init"));
}

TEST_CASE("randomized: sorted distinct draws in [0, L_max), seeded; 0..T-1 at evaluation", "[position]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "randomized"}, {"randomized_max_range", 20}})));
  auto& enc = s.model().position();
  const int B = 3, T = 8, C = s.config().d_model;
  auto draw = [&](uint64_t seed, bool training) {
    ap::Rng rng(seed);
    enc.begin_forward(training, B, T, &rng);
    std::vector<float> x(size_t(B) * T * C, 0.0f);
    enc.add_forward(-1, x.data(), B, T, C);
    return x;
  };
  // The sinusoids at p (interleaved, base 10⁴, d = 16), by the equation: PE(p, 2i) = sin(p 10⁴^(−2i/16)).
  auto pe = [&](int p, int c) {
    const double w = std::pow(10000.0, -2.0 * (c / 2) / 16);
    return c % 2 ? std::cos(p * w) : std::sin(p * w);
  };
  // Recover each token's position from its first column pair (sin p, cos p, ω_0 = 1) and the next (ω_1).
  auto positions = [&](const std::vector<float>& x, int b) {
    std::vector<int> p(T);
    for (int t = 0; t < T; ++t) {
      int best = -1;
      double err = 1e9;
      for (int cand = 0; cand < 20; ++cand) {
        double e = 0;
        for (int c = 0; c < C; ++c) e += std::fabs(x[(size_t(b) * T + t) * C + c] - pe(cand, c));
        if (e < err) err = e, best = cand;
      }
      CHECK(err < 1e-4);
      p[t] = best;
    }
    return p;
  };
  const auto eval = draw(1, false);
  for (int b = 0; b < B; ++b) CHECK(positions(eval, b) == std::vector<int>({0, 1, 2, 3, 4, 5, 6, 7}));
  CHECK(eval[size_t(1) * C + 0] == Approx(0.8414709848).margin(1e-6));  // sin 1 (reference §7.3, p = 1)
  CHECK(eval[size_t(1) * C + 3] == Approx(0.9504152803).margin(1e-6));  // cos(10000^(−1/8)), d = 16
  const auto x1 = draw(42, true), x2 = draw(42, true), x3 = draw(43, true);
  CHECK(x1 == x2);  // same seed, same positions
  CHECK(x1 != x3);
  std::vector<int> seen(20, 0);
  bool differ = false;
  for (int b = 0; b < B; ++b) {
    const auto p = positions(x1, b);
    CHECK(std::is_sorted(p.begin(), p.end()));
    CHECK(std::adjacent_find(p.begin(), p.end()) == p.end());  // distinct
    differ = differ || p != positions(x1, 0);
  }
  CHECK(differ);  // each sequence draws its own
  // Uniform subsets: over 2000 draws every position in [0, 20) is taken with probability 8/20.
  ap::Rng rng(5);
  for (int n = 0; n < 2000 / B; ++n) {
    enc.begin_forward(true, B, T, &rng);
    std::vector<float> x(size_t(B) * T * C, 0.0f);
    enc.add_forward(-1, x.data(), B, T, C);
    for (int b = 0; b < B; ++b)
      for (int p : positions(x, b)) ++seen[p];
  }
  for (int p = 0; p < 20; ++p) CHECK(seen[p] / double(2000 / B * B) == Approx(0.4).margin(0.05));
  CHECK_THAT(config_error_of(tiny({{"position", "randomized"}, {"randomized_max_range", 5}})),
             Contains("randomized_max_range"));
}

TEST_CASE("randomized: rope at drawn positions rotates by pos·θ; learned gathers; gradients with the positions fixed",
          "[position][grad]") {
  // rope, HS = 2 (d_model 4, 2 heads): θ_0 = 1, the pair (a, b) at p becomes (a cos p − b sin p, b cos p + a sin p).
  ap::Session r(ap::Config::from_json(tiny({{"position", "randomized"},
                                            {"randomized_wrap", "rope"},
                                            {"d_model", 4},
                                            {"heads", 2},
                                            {"randomized_max_range", 40}})));
  const int B = 2, T = 5, NH = 2, HS = 2;
  ap::Rng rng(9);
  r.model().position().begin_forward(true, B, T, &rng);
  auto& ps = r.model().position();
  ap::AttnShape sh{B, T, NH, HS, true, true};
  std::vector<float> q(size_t(B) * NH * T * HS), k(q.size());
  ap::Rng fill(3);
  for (auto& v : q) v = fill.normal();
  for (auto& v : k) v = fill.normal();
  auto q0 = q, k0 = k;
  ps.rotate_forward(0, q.data(), k.data(), sh);
  // The drawn positions, from head 0's rotation of q, and the check that every head used them.
  for (int b = 0; b < B; ++b) {
    std::vector<double> angle(T);
    for (int t = 0; t < T; ++t) {
      const size_t o = ((size_t(b) * NH) * T + t) * HS;
      angle[t] = std::atan2(q0[o] * q[o + 1] - q0[o + 1] * q[o], q0[o] * q[o] + q0[o + 1] * q[o + 1]);
    }
    for (int t = 0; t < T; ++t)
      for (int h = 0; h < NH; ++h) {
        const size_t o = ((size_t(b) * NH + h) * T + t) * HS;
        const double c = std::cos(angle[t]), s = std::sin(angle[t]);
        CHECK(k[o] == Approx(k0[o] * c - k0[o + 1] * s).margin(1e-5));
        CHECK(k[o + 1] == Approx(k0[o + 1] * c + k0[o] * s).margin(1e-5));
      }
  }
  // Adjoint with the drawn positions: ⟨G, R q⟩ = ⟨Rᵀ G, q⟩.
  std::vector<float> G(q.size()), Gk(q.size());
  for (auto& v : G) v = fill.normal();
  Gk = G;
  double lhs = 0, rhs = 0;
  for (size_t i = 0; i < q.size(); ++i) lhs += double(G[i]) * q[i];
  ps.rotate_backward(0, G.data(), Gk.data(), sh);
  for (size_t i = 0; i < q.size(); ++i) rhs += double(G[i]) * q0[i];
  CHECK(lhs == Approx(rhs).epsilon(1e-5));

  // learned: x += P[pos]; dP scatters dx to the drawn rows; central differences with those positions.
  ap::Session l(ap::Config::from_json(
      tiny({{"position", "randomized"}, {"randomized_wrap", "learned"}, {"randomized_max_range", 30}})));
  auto& le = l.model().position();
  const int C = l.config().d_model, TL = 8;
  ap::Rng lr(4);
  le.begin_forward(true, B, TL, &lr);
  auto& store = l.model().params();
  const int id = store.find("pos_emb.weight");
  REQUIRE(store.info(id).size == size_t(30) * C);
  std::vector<float> Gx(size_t(B) * TL * C);
  for (auto& v : Gx) v = fill.normal();
  auto loss = [&] {
    std::vector<float> x(Gx.size(), 0.0f);
    le.add_forward(-1, x.data(), B, TL, C);
    double L = 0;
    for (size_t i = 0; i < x.size(); ++i) L += double(Gx[i]) * x[i] * x[i];  // quadratic: not constant in P
    return L;
  };
  std::vector<float> x(Gx.size(), 0.0f), dx(Gx.size());
  le.add_forward(-1, x.data(), B, TL, C);
  for (size_t i = 0; i < x.size(); ++i) dx[i] = 2 * Gx[i] * x[i];
  store.zero_grad();
  le.add_backward(-1, dx.data(), B, TL, C);
  const float* P = store.data(id);
  size_t used = 0;
  for (size_t i = 0; i < size_t(30) * C; i += 7) {
    float& p = store.data(id)[i];
    const float p0 = p, h = 1e-2f;
    p = p0 + h;
    const double lp = loss();
    p = p0 - h;
    const double lm = loss();
    p = p0;
    const double num = (lp - lm) / (2 * h);
    CHECK(store.grad(id)[i] == Approx(num).margin(1e-3));
    used += store.grad(id)[i] != 0.0f;
  }
  CHECK(used > 0);
  (void)P;
  // Same seed, same run; evaluation at 4× the training length works for learned (within L_max).
  auto run = [](int seed) {
    ap::Session s(ap::Config::from_json(tiny({{"position", "randomized"}, {"seed", seed}})));
    s.train(3);
    return s.evaluate().loss;
  };
  CHECK(run(7) == run(7));
}
