// tests/native/test_position_catalogue.cpp — the second catalogue's encodings (issue 20) pinned to
// vectors computed here from the papers' equations with plain loops and literal numbers, not by
// the entries' code: KERPLE's log and power kernels (Chi et al. 2022), x-transformers'
// ScaledSinusoidalEmbedding and DynamicPositionBias. Gradients, round trips, explore views and
// the Lemma 1 checks come from the registry-wide tests (test_position.cpp, test_model.cpp).
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

TEST_CASE("kerple: rates are positive at init, the power exponent below 2; logit-free normalizations refuse it", "[position]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "kerple"}, {"kerple_kind", "power"}, {"heads", 4}, {"d_model", 16}})));
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
  CHECK_THROWS_WITH(ap::Config::from_json(tiny({{"position", "kerple"}, {"kerple_kind", "cubic"}})), Contains("kerple_kind"));
}

TEST_CASE("scaled_sinusoidal: [sin | cos] at p = 1 (reference §7.3) times g = d^-1/2, then a set scale", "[position]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "scaled_sinusoidal"}, {"d_model", 8}})));
  const double p1[8] = {0.8414709848, 0.0998334166, 0.0099998333, 0.0009999998, 0.5403023059, 0.9950041653, 0.9999500004, 0.9999995000};
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
  const double want[7][2] = {{-0.2559673556, 0.6206157331}, {-0.1983290844, 0.4360928421}, {-0.1119988312, 0.2169430824},
                             {0.0487581883, -0.0478251364}, {0.2165810723, -0.2056198885}, {0.3140028438, -0.2652422520},
                             {0.3832734784, -0.2976776975}};  // d = −3..3
  for (const char* input : {"signed", "absolute"})
    for (bool causal : {true, false}) {
      INFO(input << ", causal " << causal);
      ap::Session s(ap::Config::from_json(tiny({{"position", "dynamic_bias"}, {"dynamic_bias_hidden", 2},
                                                 {"dynamic_bias_distance", input}, {"causal", causal}})));
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
