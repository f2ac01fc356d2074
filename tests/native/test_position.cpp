// tests/native/test_position.cpp — the position encodings: values pinned to the reference
// (shared/reference/positions-and-normalizations.md §7), option variants through the whole-model
// gradient check, the rotate hooks' adjoint, Lemma 1 (logits-only encodings with softmax give
// identical hidden states on identical tokens), extrapolation, messages, and (tagged [learning])
// the probe outcomes. Registry-wide wherever possible: a new entry is covered without new code.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include "model_check.hpp"
#include "session/inspect.hpp"
#include "position/absolute.hpp"
#include "position/relative.hpp"
#include "position/rotary.hpp"

using aptest::tiny;
using Catch::Matchers::Contains;

namespace {

std::vector<std::string> position_names() {
  std::vector<std::string> names;
  for (auto& e : ap::position_registry()) names.push_back(e.name);
  return names;
}

// Config error text, or "" when valid.
std::string config_error(const nlohmann::json& j) {
  try {
    ap::Config::from_json(j);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// x (length HS) rotated to position m with base 10000, all dims (reference §7.4).
std::vector<float> rope_at(std::vector<float> x, int m, bool half, double base = 10000.0) {
  const int d = int(x.size());
  std::vector<float> c, s, buf(size_t(m + 1) * d, 0.0f);
  ap::rope_tables(c, s, m + 1, ap::rope_thetas(d, base), 1.0);
  std::copy(x.begin(), x.end(), buf.begin() + size_t(m) * d);
  ap::rope_apply(buf.data(), 1, m + 1, d, d, half, c.data(), s.data(), nullptr, false);
  return std::vector<float>(buf.begin() + size_t(m) * d, buf.end());
}

double dot(const std::vector<float>& a, const std::vector<float>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += double(a[i]) * b[i];
  return s;
}

// max_i ‖h_i − h_0‖∞ of the final hidden states on the probe's identical tokens.
double hidden_spread(ap::Session& s) {
  std::vector<int32_t> ids(size_t(s.config().model_len()), 0);
  auto out = s.inspect().run(ids);
  const auto& h = out["hidden"];
  double spread = 0;
  for (size_t i = 1; i < h.size(); ++i)
    for (size_t c = 0; c < h[i].size(); ++c)
      spread = std::max(spread, std::fabs(h[i][c].get<double>() - h[0][c].get<double>()));
  return spread;
}

// A probe config the entry accepts (xpos needs a causal model).
nlohmann::json probe_config(const std::string& name, nlohmann::json extra = {}) {
  nlohmann::json j{{"task", "probe"}, {"position", name}, {"seq_len", 8},     {"d_model", 32},
                   {"heads", 4},      {"layers", 2},      {"ffn", 64},        {"batch", 4},
                   {"seed", 1},       {"eval_every", 0},  {"eval_batches", 1}};
  for (auto& [k, v] : extra.items()) j[k] = v;
  if (!config_error(j).empty() && !j.contains("causal")) j["causal"] = true;
  return j;
}

float probe_accuracy(nlohmann::json cfg, int steps) {
  ap::Session s(ap::Config::from_json(cfg));
  s.train(steps);
  return s.evaluate().token_accuracy;
}

}  // namespace

// ---------------------------------------------------------------- pinned values (reference §7)

TEST_CASE("T5 buckets for rel = -200..200 match HF T5 (bidirectional and causal)", "[position]") {
  const int bidir[401] = {
      15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
      15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
      15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
      15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
      15, 15, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14,
      14, 14, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 12, 12, 12, 12, 12, 12, 12,
      12, 12, 12, 12, 12, 12, 12, 11, 11, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10, 10, 10, 10, 9,  9,  9,  9,
      8,  8,  8,  8,  7,  6,  5,  4,  3,  2,  1,  0,  17, 18, 19, 20, 21, 22, 23, 24, 24, 24, 24, 25, 25, 25, 25,
      26, 26, 26, 26, 26, 26, 26, 27, 27, 27, 27, 27, 27, 27, 27, 27, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
      28, 28, 28, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 30, 30, 30, 30, 30, 30,
      30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 31, 31, 31, 31, 31, 31,
      31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
      31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
      31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
      31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31};
  for (int rel = -200; rel <= 200; ++rel) {
    INFO("rel " << rel);
    CHECK(ap::t5_bucket(rel, true, 32, 128) == bidir[rel + 200]);
  }
  // Causal run-length form: −16..−18 → 16, …, ≤ −113 → 31; rel > 0 → 0.
  const std::vector<std::pair<int, int>> starts = {{-16, 16}, {-19, 17}, {-21, 18}, {-24, 19}, {-27, 20}, {-31, 21},
                                                   {-35, 22}, {-40, 23}, {-46, 24}, {-52, 25}, {-59, 26}, {-67, 27},
                                                   {-77, 28}, {-87, 29}, {-99, 30}, {-113, 31}};
  auto causal_expected = [&](int rel) {
    if (rel >= 0) return 0;
    if (rel > -16) return -rel;
    int b = 16;
    for (auto& [from, bucket] : starts)
      if (rel <= from) b = bucket;
    return b;
  };
  for (int rel = -200; rel <= 200; ++rel) {
    INFO("rel " << rel);
    CHECK(ap::t5_bucket(rel, false, 32, 128) == causal_expected(rel));
  }
}

TEST_CASE("ALiBi slopes match get_slopes for 1-8, 12 and 16 heads", "[position]") {
  const double r = std::sqrt(0.5);
  const std::map<int, std::vector<double>> want = {
      {1, {1.0 / 256}},
      {2, {1.0 / 16, 1.0 / 256}},
      {3, {1.0 / 16, 1.0 / 256, 0.25}},
      {4, {0.25, 1.0 / 16, 1.0 / 64, 1.0 / 256}},
      {5, {0.25, 1.0 / 16, 1.0 / 64, 1.0 / 256, 0.5}},
      {6, {0.25, 1.0 / 16, 1.0 / 64, 1.0 / 256, 0.5, 0.125}},
      {7, {0.25, 1.0 / 16, 1.0 / 64, 1.0 / 256, 0.5, 0.125, 1.0 / 32}},
      {8, {0.5, 0.25, 0.125, 1.0 / 16, 1.0 / 32, 1.0 / 64, 1.0 / 128, 1.0 / 256}},
      {12, {0.5, 0.25, 0.125, 1.0 / 16, 1.0 / 32, 1.0 / 64, 1.0 / 128, 1.0 / 256, r, r / 2, r / 4, r / 8}},
      {16,
       {r, 0.5, r / 2, 0.25, r / 4, 0.125, r / 8, 1.0 / 16, r / 16, 1.0 / 32, r / 32, 1.0 / 64, r / 64, 1.0 / 128,
        r / 128, 1.0 / 256}}};
  for (auto& [n, w] : want) {
    auto got = ap::alibi_slopes(n);
    REQUIRE(got.size() == w.size());
    for (size_t h = 0; h < w.size(); ++h) {
      INFO(n << " heads, head " << h);
      CHECK(got[h] == Approx(w[h]).epsilon(1e-12));
    }
  }
  CHECK(ap::alibi_slopes(12)[8] == Approx(0.707106781187).epsilon(1e-11));
}

TEST_CASE("ALiBi causal bias matrix for n = 4, slope 0.5 (one head)", "[position]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "alibi"}, {"heads", 1}, {"causal", true}})));
  auto d = s.model().position().display(4);
  CHECK(d["slopes"][0].get<double>() == Approx(1.0 / 256));
  // With 8 heads the first slope is 0.5: −0.5 (i − j) below the diagonal.
  ap::Session s8(ap::Config::from_json(tiny({{"position", "alibi"}, {"heads", 8}, {"causal", true}})));
  auto b = s8.model().position().display(4)["bias"][0];
  const double want[4][4] = {{0, 0.5, 1, 1.5}, {-0.5, 0, 0.5, 1}, {-1, -0.5, 0, 0.5}, {-1.5, -1, -0.5, 0}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j <= i; ++j) CHECK(b[i][j].get<double>() == Approx(want[i][j]));
}

TEST_CASE("sinusoidal table at p = 1 and 2 (d = 8), interleaved and concat", "[position]") {
  auto P = ap::sinusoidal_table(3, 8, 10000.0, false);
  const double p1[8] = {0.8414709848, 0.5403023059, 0.0998334166, 0.9950041653,
                        0.0099998333, 0.9999500004, 0.0009999998, 0.9999995000};
  const double p2[8] = {0.9092974268, -0.4161468365, 0.1986693308, 0.9800665778,
                        0.0199986667, 0.9998000067,  0.0019999987, 0.9999980000};
  for (int c = 0; c < 8; ++c) {
    CHECK(P[8 + c] == Approx(p1[c]).margin(1e-7));
    CHECK(P[16 + c] == Approx(p2[c]).margin(1e-7));
    CHECK(P[c] == Approx(c % 2 ? 1.0 : 0.0));
  }
  auto B = ap::sinusoidal_table(2, 8, 10000.0, true);
  const double b1[8] = {0.8414709848, 0.0998334166, 0.0099998333, 0.0009999998,
                        0.5403023059, 0.9950041653, 0.9999500004, 0.9999995000};
  for (int c = 0; c < 8; ++c) CHECK(B[8 + c] == Approx(b1[c]).margin(1e-7));
}

TEST_CASE("RoPE interleaved and half vectors, their permutation equivalence, the relative property", "[position]") {
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8};
  const double inter[8] = {-1.1426396637, 1.9220755965, 2.5856788292, 4.2795169111,
                           4.9397510021,  6.0496991692, 6.9919965013, 8.0069959988};
  const double half[8] = {-3.6670526182, 1.3910078307, 2.9298511679, 3.9919980013,
                          3.5429825141,  6.1696918250, 7.0296495029, 8.0039959993};
  auto ri = rope_at(x, 1, false), rh = rope_at(x, 1, true);
  for (int c = 0; c < 8; ++c) {
    CHECK(ri[c] == Approx(inter[c]).margin(2e-6));
    CHECK(rh[c] == Approx(half[c]).margin(2e-6));
  }
  const int P[8] = {0, 2, 4, 6, 1, 3, 5, 7};
  std::vector<float> xp(8);
  for (int k = 0; k < 8; ++k) xp[k] = x[P[k]];
  auto a = rope_at(xp, 3, true), b = rope_at(x, 3, false);
  for (int k = 0; k < 8; ++k) CHECK(a[k] == Approx(b[P[k]]).margin(1e-6));
  std::vector<float> q = {0.3f, -1.2f, 0.5f, 2.0f, -0.7f, 0.1f, 1.1f, -0.4f};
  std::vector<float> k = {1.0f, 0.2f, -0.3f, 0.8f, 0.5f, -1.5f, 0.9f, 0.05f};
  CHECK(dot(rope_at(q, 5, false), rope_at(k, 2, false)) == Approx(2.300630892717).margin(1e-5));
  CHECK(dot(rope_at(q, 3, false), rope_at(k, 0, false)) == Approx(2.300630892717).margin(1e-5));
}

TEST_CASE("RoPE scaling: PI, NTK base and YaRN ratios (reference §7.5)", "[position]") {
  auto theta = ap::rope_thetas(16, 10000.0);
  const double th[8] = {1.0, 0.316228, 0.1, 0.0316228, 0.01, 0.00316228, 0.001, 0.000316228};
  for (int i = 0; i < 8; ++i) CHECK(theta[i] == Approx(th[i]).epsilon(1e-5));
  auto pi = ap::rope_scale(16, 10000.0, ap::RopeScaling::PI, 2.0, 32);
  for (int i = 0; i < 8; ++i) CHECK(pi.theta[i] / theta[i] == Approx(0.5));
  auto ntk = ap::rope_scale(16, 10000.0, ap::RopeScaling::NTK, 2.0, 32);
  CHECK(ntk.base == Approx(22081.790273476).epsilon(1e-12));
  CHECK(ap::rope_scale(16, 1000.0, ap::RopeScaling::NTK, 2.0, 32).base == Approx(2208.179027348).epsilon(1e-12));
  const double ntk_ratio[8] = {1.0,          0.9057236643, 0.820335356,  0.7429971446,
                               0.6729500963, 0.6095068271, 0.5520447568, 0.5};
  for (int i = 0; i < 8; ++i) CHECK(ntk.theta[i] / theta[i] == Approx(ntk_ratio[i]).epsilon(1e-9));
  auto y32 = ap::rope_scale(16, 10000.0, ap::RopeScaling::YaRN, 2.0, 32);
  const double r32[8] = {1, 0.75, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5};
  for (int i = 0; i < 8; ++i) CHECK(y32.theta[i] / theta[i] == Approx(r32[i]).epsilon(1e-9));
  CHECK(y32.mscale == Approx(1.0693147181).epsilon(1e-10));
  CHECK(y32.mscale * y32.mscale == Approx(1.1434339663).epsilon(1e-9));
  auto y64 = ap::rope_scale(16, 10000.0, ap::RopeScaling::YaRN, 2.0, 64);
  const double r64[8] = {1, 5.0 / 6, 2.0 / 3, 0.5, 0.5, 0.5, 0.5, 0.5};
  for (int i = 0; i < 8; ++i) CHECK(y64.theta[i] / theta[i] == Approx(r64[i]).epsilon(1e-9));
  auto y128 = ap::rope_scale(32, 10000.0, ap::RopeScaling::YaRN, 2.0, 128);
  auto t32 = ap::rope_thetas(32, 10000.0);
  const double mask[7] = {1, 5.0 / 6, 4.0 / 6, 3.0 / 6, 2.0 / 6, 1.0 / 6, 0};
  for (int i = 0; i < 16; ++i) CHECK(y128.theta[i] / t32[i] == Approx(0.5 + 0.5 * (i < 7 ? mask[i] : 0)).epsilon(1e-9));
}

TEST_CASE("xPos zeta (d = 8) and relative decay at distance 64 (gamma 512)", "[position]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "xpos"}, {"d_model", 16}, {"heads", 2}})));
  auto d = s.model().position().display(4);
  const double z[4] = {0.285714285714, 0.464285714286, 0.642857142857, 0.821428571429};
  const double f64[4] = {0.85505, 0.908549, 0.946268, 0.975711};
  for (int i = 0; i < 4; ++i) {
    CHECK(d["zeta"][i].get<double>() == Approx(z[i]).epsilon(1e-10));
    CHECK(std::pow(z[i], 64.0 / 512) == Approx(f64[i]).epsilon(1e-5));
  }
}

// ---------------------------------------------------------------- gradients and hooks

TEST_CASE("whole-model gradients, position option variants", "[position][grad]") {
  auto extra = GENERATE(
      nlohmann::json{{"position", "sinusoidal"}, {"sinusoidal_layout", "concat"}},
      nlohmann::json{{"position", "rope"}, {"rope_layout", "half"}},
      nlohmann::json{{"position", "rope"}, {"rope_fraction", 0.5}},
      nlohmann::json{{"position", "rope"}, {"rope_fraction", 0.5}, {"rope_layout", "half"}, {"rope_base", 100.0}},
      nlohmann::json{{"position", "rope"}, {"anchors", "cls_sep"}, {"causal", false}},
      nlohmann::json{{"position", "alibi"}, {"alibi_mode", "symmetric"}, {"causal", false}},
      nlohmann::json{{"position", "alibi"}, {"alibi_mode", "asymmetric"}, {"causal", false}},
      nlohmann::json{{"position", "alibi"}, {"alibi_mode", "causal"}, {"heads", 4}, {"d_model", 24}},
      nlohmann::json{{"position", "t5_bias"}, {"causal", true}, {"t5_num_buckets", 8}, {"t5_max_distance", 6}},
      nlohmann::json{{"position", "t5_bias"}, {"causal", false}, {"t5_num_buckets", 8}, {"t5_max_distance", 6}},
      nlohmann::json{{"position", "t5_bias"}, {"anchors", "cls_sep"}, {"causal", false}},
      nlohmann::json{{"position", "shaw"}, {"shaw_values", false}},
      nlohmann::json{{"position", "shaw"}, {"shaw_clip", 2}, {"causal", false}},
      nlohmann::json{{"position", "contextual1"}, {"contextual_num_buckets", 8}, {"contextual_max_distance", 6}},
      nlohmann::json{{"position", "contextual2"}, {"heads", 4}, {"causal", false}},
      nlohmann::json{{"position", "urpe"}, {"urpe_max_distance", 2}, {"causal", false}},
      nlohmann::json{{"position", "xpos"}, {"xpos_gamma", 8.0}},
      nlohmann::json{{"position", "fire"}, {"fire_length", 4.5}, {"causal", true}},
      nlohmann::json{{"position", "fire"}, {"fire_length", 4.5}, {"causal", false}, {"fire_hidden", 8}},
      nlohmann::json{{"position", "kerple"}, {"kerple_kind", "power"}, {"causal", true}},
      nlohmann::json{{"position", "kerple"}, {"kerple_kind", "power"}, {"causal", false}},
      nlohmann::json{{"position", "scaled_sinusoidal"}, {"placement", "layerwise"}},
      nlohmann::json{{"position", "rope_embed"}, {"placement", "layerwise"}, {"rope_embed_base", 100.0}},
      nlohmann::json{{"position", "rope_embed"}, {"anchors", "cls_sep"}, {"causal", false}},
      nlohmann::json{{"position", "qk_learned"}, {"heads", 4}, {"max_len", 12}},
      nlohmann::json{{"position", "qk_sinusoidal"}, {"layernorm", "post"}, {"causal", false}},
      nlohmann::json{{"position", "dynamic_bias"}, {"dynamic_bias_distance", "absolute"}, {"causal", false}},
      nlohmann::json{{"position", "cope"}, {"causal", true}, {"cope_npos_max", 5}},
      nlohmann::json{{"position", "cope"}, {"causal", false}},
      nlohmann::json{{"position", "forget"}, {"causal", true}, {"forget_bias_init", 0.5}},
      nlohmann::json{{"position", "randomized"}, {"randomized_wrap", "learned"}},
      nlohmann::json{{"position", "randomized"}, {"randomized_wrap", "rope"}, {"causal", false}});
  INFO(extra.dump());
  ap::Session s(ap::Config::from_json(tiny(extra)));
  aptest::check_model_gradients(s);
}

// Hook-level check, sensitive where the whole-model check is not (position parameters start tiny,
// so their share of the loss gradient sits near float noise). Every hook an entry has is driven
// with random inputs and random upstream gradients G, the loss is the linear probe
//   L = Σ G_s ⊙ (bias added to 0 logits) + Σ G_w ⊙ (a ⊙ M) + Σ G_o ⊙ (value term) + Σ G_x ⊙ (x + P)
//     + Σ G_q ⊙ q̃ + Σ G_k ⊙ k̃ (the rotate hook: RoPE, or a table added to q and k) + Σ G_x ⊙ map(x)
// (rotate hooks also have the adjoint test below), and the analytic gradients of the position
// parameters and of q, k, a, x are compared with central differences (h = 4e-3; no kinks within reach, see FIRE below).
// All model parameters are redrawn N(0, 0.5) first so that no gradient is tiny.
namespace {
struct HookProbe {
  ap::Session& s;
  ap::PositionEncoding& enc;
  ap::AttnShape sh;
  std::vector<float> q, k, a, x, Gs, Gw, Go, Gx, Gq, Gk;
  HookProbe(ap::Session& ss, int T)
      : s(ss),
        enc(ss.model().position()),
        sh{2, T, ss.config().heads, ss.config().d_model / ss.config().heads, ss.config().causal, true} {
    sh.tau = 0.7f;
    ap::Rng rng(11);
    for (auto& v : s.model().params().all_data()) v = 0.5f * rng.normal();
    // FIRE: first-layer biases of ±(5 + |b|) put every ReLU firmly on (even units) or off (odd
    // units), so that no kink lies within h of any pre-activation — the normalized distance
    // moves every pre-activation at once, and a random draw always leaves one near 0.
    const int fb = s.model().params().find("fire.mlp.0.bias");
    if (fb >= 0)
      for (size_t u = 0; u < s.model().params().info(fb).size; ++u) {
        float& b = s.model().params().data(fb)[u];
        b = (u % 2 ? -1.0f : 1.0f) * (5.0f + std::fabs(b));
      }
    const size_t hd = size_t(sh.B) * sh.NH * T * sh.HS, tt = size_t(sh.B) * sh.NH * T * T;
    for (auto* v : {&q, &k, &Go}) {
      v->resize(hd);
      for (auto& x : *v) x = rng.normal();
    }
    for (auto* v : {&Gs, &Gw, &a}) {
      v->resize(tt);
      for (auto& x : *v) x = rng.normal();
    }
    for (size_t r = 0; r < size_t(sh.B) * sh.NH * T; ++r)  // weights: ≥ 0, masked keys 0
      for (int j = 0; j < T; ++j) {
        float& x = a[r * T + j];
        x = (sh.causal && j > int(r % T)) ? 0.0f : std::fabs(x) / T;
      }
    Gx.resize(size_t(sh.B) * T * s.config().d_model);
    for (auto& e : Gx) e = rng.normal();
    // The rotate and map hooks' inputs, drawn last so that the draws above stay as they were.
    for (auto* v : {&Gq, &Gk}) {
      v->resize(hd);
      for (auto& e : *v) e = rng.normal();
    }
    x.resize(Gx.size());
    for (auto& e : x) e = rng.normal();
  }
  double loss() {
    double L = 0;
    const int T = sh.T, C = s.config().d_model;
    if (enc.biases()) {
      std::vector<float> logits(Gs.size(), 0.0f);
      enc.bias_forward(0, logits.data(), q.data(), k.data(), sh);
      for (size_t i = 0; i < logits.size(); ++i) L += double(Gs[i]) * logits[i];
    }
    if (enc.multiplies()) {
      std::vector<float> out(a.size());
      enc.weights_forward(0, a.data(), out.data(), sh);
      for (size_t i = 0; i < out.size(); ++i) L += double(Gw[i]) * out[i];
    }
    if (enc.adds_values()) {
      std::vector<float> o(Go.size(), 0.0f);
      enc.values_forward(0, a.data(), o.data(), sh);
      for (size_t i = 0; i < o.size(); ++i) L += double(Go[i]) * o[i];
    }
    if (enc.adds()) {
      std::vector<float> x(Gx.size(), 0.0f);
      enc.add_forward(0, x.data(), sh.B, T, C);
      for (size_t i = 0; i < x.size(); ++i) L += double(Gx[i]) * x[i];
    }
    if (enc.rotates()) {
      std::vector<float> rq = q, rk = k;
      enc.rotate_forward(0, rq.data(), rk.data(), sh);
      for (size_t i = 0; i < rq.size(); ++i) L += double(Gq[i]) * rq[i] + double(Gk[i]) * rk[i];
    }
    if (enc.maps()) {
      std::vector<float> mx = x;
      enc.map_forward(0, mx.data(), sh.B, T, C);
      for (size_t i = 0; i < mx.size(); ++i) L += double(Gx[i]) * mx[i];
    }
    return L;
  }
  // Analytic: parameter grads in the store, dq, dk, da, dx returned.
  void backward(std::vector<float>& dq, std::vector<float>& dk, std::vector<float>& da, std::vector<float>& dx) {
    s.model().params().zero_grad();
    dq.assign(q.size(), 0.0f), dk.assign(k.size(), 0.0f), da.assign(a.size(), 0.0f);
    if (enc.biases()) enc.bias_backward(0, Gs.data(), q.data(), k.data(), dq.data(), dk.data(), sh);
    if (enc.multiplies()) enc.weights_backward(0, a.data(), Gw.data(), da.data(), sh);
    if (enc.adds_values()) enc.values_backward(0, a.data(), Go.data(), da.data(), sh);
    if (enc.adds()) enc.add_backward(0, Gx.data(), sh.B, sh.T, s.config().d_model);
    if (enc.rotates()) {
      std::vector<float> gq = Gq, gk = Gk;
      enc.rotate_backward(0, gq.data(), gk.data(), sh);
      for (size_t i = 0; i < gq.size(); ++i) dq[i] += gq[i], dk[i] += gk[i];
    }
    dx.assign(x.size(), 0.0f);
    if (enc.maps()) {
      dx = Gx;
      enc.map_backward(0, dx.data(), sh.B, sh.T, s.config().d_model);
    }
  }
};

// Up to 40 coordinates against the declared tolerance (grad_spec.hpp; by default h = 4e-3 and
// ‖analytic − numeric‖ ≤ 1e-2·max(‖analytic‖, ‖numeric‖) + 1e-3).
void check_coords(const std::string& what, float* x, size_t n, const float* analytic, HookProbe& p,
                  const aptest::GradTolerance& tol, std::function<bool(size_t)> skip = nullptr) {
  const float h = tol.eps;
  const size_t stride = std::max<size_t>(1, n / 40);
  double d2 = 0, a2 = 0, n2 = 0;
  size_t k = 0;
  for (size_t i = 0; i < n; i += stride) {
    if (skip && skip(i)) continue;
    ++k;
    const float x0 = x[i];
    x[i] = x0 + h;
    const double lp = p.loss();
    x[i] = x0 - h;
    const double lm = p.loss();
    x[i] = x0;
    const double num = (lp - lm) / (2.0 * h), ana = analytic[i];
    d2 += (num - ana) * (num - ana), a2 += ana * ana, n2 += num * num;
  }
  INFO(what << ": |analytic - numeric| = " << std::sqrt(d2) << ", |analytic| = " << std::sqrt(a2)
            << ", |numeric| = " << std::sqrt(n2));
  CHECK(tol.passes(std::sqrt(d2), std::sqrt(a2), std::sqrt(n2), k));
}
}  // namespace

TEST_CASE("position hooks: parameter and input gradients match central differences", "[position][grad]") {
  std::vector<nlohmann::json> variants;
  for (auto& e : ap::position_registry()) variants.push_back({{"position", e.name}});
  for (auto& v :
       {nlohmann::json{{"position", "shaw"}, {"shaw_values", false}, {"shaw_clip", 2}},
        nlohmann::json{{"position", "alibi"}, {"alibi_mode", "asymmetric"}},
        nlohmann::json{{"position", "t5_bias"}, {"t5_num_buckets", 8}, {"t5_max_distance", 5}},
        nlohmann::json{{"position", "urpe"}, {"urpe_max_distance", 3}},
        nlohmann::json{{"position", "fire"}, {"fire_length", 3.5}},
        nlohmann::json{{"position", "kerple"}, {"kerple_kind", "power"}},
        nlohmann::json{{"position", "scaled_sinusoidal"}, {"placement", "layerwise"}},
        nlohmann::json{{"position", "dynamic_bias"}, {"dynamic_bias_distance", "absolute"}, {"dynamic_bias_hidden", 5}},
        nlohmann::json{{"position", "learned"}, {"placement", "layerwise"}},
        nlohmann::json{{"position", "cope"}, {"cope_npos_max", 4}},
        nlohmann::json{{"position", "randomized"}, {"randomized_wrap", "learned"}},
        nlohmann::json{{"position", "rope_embed"}, {"rope_embed_base", 100.0}},
        nlohmann::json{{"position", "qk_learned"}, {"heads", 4}},
        nlohmann::json{{"position", "rope"}, {"rope_layout", "half"}, {"rope_fraction", 0.5}}})
    variants.push_back(v);
  auto variant = GENERATE_COPY(from_range(variants));
  auto causal = GENERATE(true, false);
  auto cfg = tiny(variant);
  cfg["causal"] = causal;
  INFO(cfg.dump());
  const std::string name = cfg["position"];
  if (const std::string skip = aptest::grad_skip("position", name, causal); !skip.empty()) {
    INFO("declared skip (grad_spec.hpp): " << skip);
    CHECK_FALSE(config_error(cfg).empty());  // the engine refuses it, else the skip is stale
    return;
  }
  const aptest::GradTolerance tol = aptest::grad_tolerance("hooks", "position", name);
  ap::Session s(ap::Config::from_json(cfg));
  HookProbe p(s, 7);
  std::vector<float> dq, dk, da, dx;
  p.backward(dq, dk, da, dx);
  auto& ps = s.model().params();
  for (size_t t = 0; t < ps.infos().size(); ++t) {
    const auto& info = ps.info(int(t));
    const bool mine = info.name.find("attn.qkv.weight") != std::string::npos
                          ? cfg["position"] == "contextual2"
                          : ap::position_param_count(s.config()) > 0 && info.name.rfind("tok_emb", 0) != 0 &&
                                info.name.find("blocks.") != 0;
    const bool per_layer =
        info.name.find(".shaw.") != std::string::npos || info.name.find(".pos_emb.") != std::string::npos ||
        info.name.find(".kerple.") != std::string::npos || info.name.find(".forget.") != std::string::npos;
    if (!mine && !(per_layer && info.name.rfind("blocks.0.", 0) == 0)) continue;
    if (info.name.rfind("ln_f", 0) == 0 || info.name.rfind("head", 0) == 0) continue;
    if (info.name.find("qkv.weight") != std::string::npos && info.name.rfind("blocks.0.", 0) != 0) continue;
    std::vector<float> grad(ps.grad(int(t)), ps.grad(int(t)) + info.size);
    check_coords(info.name, ps.data(int(t)), info.size, grad.data(), p, tol);
  }
  auto masked = [&](size_t i) {
    const int T = 7;
    return causal && int(i % T) > int((i / T) % T);
  };
  if (p.enc.biases() || p.enc.rotates()) {
    check_coords("q", p.q.data(), p.q.size(), dq.data(), p, tol);
    check_coords("k", p.k.data(), p.k.size(), dk.data(), p, tol);
  }
  if (p.enc.multiplies() || p.enc.adds_values()) check_coords("a", p.a.data(), p.a.size(), da.data(), p, tol, masked);
  if (p.enc.maps()) check_coords("x", p.x.data(), p.x.size(), dx.data(), p, tol);
}

TEST_CASE("rotate hooks: backward is the adjoint of forward, with and without evaluation scaling", "[position][grad]") {
  auto extra = GENERATE(
      nlohmann::json{{"position", "rope"}},
      nlohmann::json{{"position", "rope"}, {"rope_layout", "half"}, {"rope_fraction", 0.5}},
      nlohmann::json{{"position", "rope"}, {"rope_scaling", "pi"}, {"rope_factor", 2.5}},
      nlohmann::json{{"position", "rope"}, {"rope_scaling", "ntk"}, {"rope_factor", 2.0}},
      nlohmann::json{{"position", "rope"}, {"rope_scaling", "yarn"}, {"rope_factor", 3.0}, {"rope_layout", "half"}},
      nlohmann::json{{"position", "rope"}, {"rope_scaling", "pi"}, {"rope_factor", 2.0}, {"rope_train_len", 10}},
      nlohmann::json{{"position", "xpos"}, {"xpos_gamma", 4.0}});
  auto training = GENERATE(true, false);
  INFO(extra.dump() << " training " << training);
  ap::Config cfg = ap::Config::from_json(tiny(extra));
  ap::ParamStore ps;
  auto enc = ap::make_variant(ap::find_position(cfg.position), cfg, ps);
  REQUIRE(enc->rotates());
  const ap::AttnShape s{2, 20, cfg.heads, cfg.d_model / cfg.heads, cfg.causal, training};  // T > seq_len
  const size_t n = size_t(s.B) * s.NH * s.T * s.HS;
  ap::Rng rng(5);
  std::vector<float> q(n), k(n), gq(n), gk(n);
  for (size_t i = 0; i < n; ++i) q[i] = rng.normal(), k[i] = rng.normal(), gq[i] = rng.normal(), gk[i] = rng.normal();
  auto rq = q, rk = k, bq = gq, bk = gk;
  enc->rotate_forward(0, rq.data(), rk.data(), s);
  enc->rotate_backward(0, bq.data(), bk.data(), s);
  CHECK(dot(rq, gq) == Approx(dot(q, bq)).epsilon(1e-4));
  CHECK(dot(rk, gk) == Approx(dot(k, bk)).epsilon(1e-4));
  // Scaling changes the evaluation rotation only (YaRN's mscale also the norm), and the training
  // one too past rope_train_len (a fine-tune at a longer length).
  const bool tuned = cfg.options.value("rope_train_len", 0.0) > 0;
  const bool scaled = (tuned || !training) && cfg.options.value("rope_scaling", "none") != "none";
  // The unscaled rotation: a training step of the same encoding without rope_train_len.
  auto untuned = extra;
  untuned.erase("rope_train_len");
  ap::Config ucfg = ap::Config::from_json(tiny(untuned));
  ap::ParamStore ups;
  auto uenc = ap::make_variant(ap::find_position(ucfg.position), ucfg, ups);
  ap::AttnShape plain = s;
  plain.training = true;
  auto pq = q, pk = k;
  uenc->rotate_forward(0, pq.data(), pk.data(), plain);
  double diff = 0;
  for (size_t i = 0; i < n; ++i) diff = std::max(diff, double(std::fabs(pq[i] - rq[i])));
  if (scaled)
    CHECK(diff > 1e-3);
  else
    CHECK(diff == 0.0);
}

// ---------------------------------------------------------------- Lemma 1, extrapolation, messages

TEST_CASE("Lemma 1: logits-only encodings with softmax give identical hidden states on identical tokens",
          "[position]") {
  for (auto& e : ap::position_registry()) {
    if (!e.logits_only) continue;
    for (bool causal : {false, true}) {
      auto cfg = probe_config(e.name, {{"causal", causal}});
      if (!config_error(cfg).empty()) continue;  // e.g. xpos is causal only
      INFO("position " << e.name << ", causal " << causal);
      ap::Session s(ap::Config::from_json(cfg));
      CHECK(hidden_spread(s) <= 1e-6);
      s.train(40);
      CHECK(hidden_spread(s) <= 1e-6);
      CHECK(s.evaluate().token_accuracy == Approx(1.0 / 8).margin(1e-6));
    }
  }
  // Option forms that are logits-only too: Shaw keys without values.
  ap::Session s(ap::Config::from_json(probe_config("shaw", {{"shaw_values", false}})));
  s.train(40);
  CHECK(hidden_spread(s) <= 1e-6);
}

TEST_CASE("encodings that act beyond the logits do separate identical tokens", "[position]") {
  for (auto& e : ap::position_registry()) {
    if (e.logits_only || std::string(e.name) == "none") continue;
    INFO("position " << e.name);
    ap::Session s(ap::Config::from_json(probe_config(e.name)));
    s.train(20);
    CHECK(hidden_spread(s) > 1e-3);
  }
}

TEST_CASE("every entry that extrapolates evaluates beyond the training length; learned refuses", "[position]") {
  auto name = GENERATE_COPY(from_range(position_names()));
  auto cfg = tiny({{"position", name}, {"eval_len", 20}});
  if (!config_error(cfg).empty()) cfg["causal"] = !cfg.value("causal", true);
  INFO("position " << name);
  ap::Session s(ap::Config::from_json(cfg));
  s.train(3);
  const auto& e = ap::find_position(name);
  CHECK(s.can_address(20) == e.extrapolates);
  if (e.extrapolates) {
    auto m = s.evaluate(20);
    CHECK(std::isfinite(m.loss));
    CHECK(m.length == 20);
  } else {
    CHECK_THROWS_WITH(s.evaluate(20), Contains("do not extrapolate"));
  }
}

TEST_CASE("every entry round-trips through the model file", "[position][io]") {
  auto name = GENERATE_COPY(from_range(position_names()));
  auto cfg = tiny({{"position", name}});
  if (!config_error(cfg).empty()) cfg["causal"] = !cfg.value("causal", true);
  INFO("position " << name);
  ap::Session a(ap::Config::from_json(cfg));
  a.train(5);
  auto bytes = a.save();
  auto b = ap::Session::load(bytes.data(), bytes.size());
  CHECK(b->weights_sha256() == a.weights_sha256());
  CHECK(a.inspect().predictions(2).dump() == b->inspect().predictions(2).dump());
}

TEST_CASE("every entry describes itself and gives display data", "[position]") {
  ap::Config d;
  for (auto& e : ap::position_registry()) {
    INFO("position " << e.name);
    auto j = ap::describe_position(e, d);
    for (const char* k : {"title", "formula", "where", "note"})  // prose: native builds only (common/doc.hpp)
      CHECK(j[k].get<std::string>().empty() == !ap::kDocs);
    auto cfg = tiny({{"position", e.name}});
    if (!config_error(cfg).empty()) cfg["causal"] = false;
    ap::Session s(ap::Config::from_json(cfg));
    auto disp = s.inspect().positions();
    CHECK(disp.contains("kind"));
    CHECK(disp["describe"]["params"].get<size_t>() == ap::position_param_count(s.config()));
    for (auto& [key, opt] : j["options"].items())
      CHECK(opt["key"].get<std::string>().rfind(std::string(e.name).substr(0, 3), 0) == 0);
  }
}

TEST_CASE("parameters are declared with PyTorch-style names, per layer or shared", "[position]") {
  auto names = [](nlohmann::json extra) {
    ap::Session s(ap::Config::from_json(tiny(extra)));
    std::vector<std::string> out;
    for (auto& p : s.model().params().infos()) out.push_back(p.name);
    return out;
  };
  auto has = [](const std::vector<std::string>& v, const std::string& n) {
    return std::find(v.begin(), v.end(), n) != v.end();
  };
  CHECK(has(names({{"position", "t5_bias"}}), "t5_bias.weight"));
  CHECK(has(names({{"position", "shaw"}}), "blocks.1.attn.shaw.value.weight"));
  CHECK(has(names({{"position", "urpe"}}), "urpe.weight"));
  CHECK(has(names({{"position", "contextual1"}}), "contextual.to_r.weight"));
  CHECK(has(names({{"position", "fire"}}), "fire.mlp.2.weight"));
  CHECK(ap::position_param_count(ap::Config::from_json(tiny({{"position", "rope"}}))) == 0);
  CHECK(ap::position_param_count(ap::Config::from_json(tiny({{"position", "t5_bias"}}))) == 32 * 2);
}

TEST_CASE("invalid position combinations are rejected with a clear message", "[position][config]") {
  CHECK_THAT(config_error(tiny({{"position", "xpos"}, {"causal", false}})), Contains("causal") && Contains("xpos"));
  CHECK_THAT(config_error(tiny({{"position", "alibi"}, {"alibi_mode", "causal"}, {"causal", false}})),
             Contains("alibi_mode"));
  CHECK_THAT(config_error(tiny({{"position", "rope"}, {"rope_fraction", 0.1}})), Contains("rope_fraction"));
  CHECK_THAT(config_error(tiny({{"position", "rope"}, {"placement", "layerwise"}})), Contains("placement"));
  CHECK_THAT(config_error(tiny({{"position", "rope"}, {"rope_scaling", "magic"}})),
             Contains("rope_scaling") && Contains("yarn"));
  CHECK_THAT(config_error(tiny({{"position", "t5_bias"}, {"t5_max_distance", 4}})), Contains("t5_max_distance"));
  CHECK_THAT(config_error(tiny({{"position", "shaw"}, {"shaw_clip", 0}})), Contains("shaw_clip"));
  CHECK(config_error(tiny({{"position", "learned"}, {"placement", "layerwise"}})).empty());
  CHECK(config_error(tiny({{"position", "xpos"}, {"causal", true}})).empty());
}

// ---------------------------------------------------------------- learning outcomes on the probe

TEST_CASE("probe (n = 8): absolute, Shaw with values and URPE reach >= 0.99", "[position][learning]") {
  auto name = GENERATE(std::string("learned"), std::string("sinusoidal"), std::string("shaw"), std::string("urpe"));
  const float acc = probe_accuracy(probe_config(name), 300);
  INFO("position " << name << ": probe accuracy " << acc);
  CHECK(acc >= 0.99f);
}

TEST_CASE("probe (n = 8): rope, alibi and t5_bias with softmax stay at 1/n", "[position][learning]") {
  auto name = GENERATE(std::string("rope"), std::string("alibi"), std::string("t5_bias"));
  const float acc = probe_accuracy(probe_config(name), 300);
  INFO("position " << name << ": probe accuracy " << acc);
  CHECK(acc == Approx(1.0 / 8).margin(1e-6));
}

TEST_CASE("probe (n = 8): t5_bias and rope with [CLS]/[SEP] anchors reach >= 0.95", "[position][learning]") {
  auto name = GENERATE(std::string("t5_bias"), std::string("rope"));
  const float acc = probe_accuracy(probe_config(name, {{"anchors", "cls_sep"}}), 300);
  INFO("position " << name << " + cls_sep: probe accuracy " << acc);
  CHECK(acc >= 0.95f);
}
