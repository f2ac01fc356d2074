// tests/native/test_explore.cpp — the Explore view's data (position/explore.hpp, Inspector::explore):
// values pinned to the reference formulas (shared/reference/positions-and-normalizations.md §1, §7):
// the RoPE score at distance 0 is q·k and at 3 the reference's 2.300630892717, PI at factor s
// stretches the curve by s, xPos multiplies by ζ^{d/γ}, ALiBi is −m_h·|d|, T5's buckets start
// where the reference's causal table says, the sinusoidal similarity is (2/C) Σ cos(dω_i), and
// init vs now. Registry-wide: every entry gives an empty object or a view with a formula and a source.
#include <catch2/catch.hpp>

#include <cmath>

#include "model_check.hpp"
#include "session/inspect.hpp"
#include "position/explore.hpp"
#include "position/relative.hpp"
#include "position/rotary.hpp"

using aptest::tiny;
using Catch::Matchers::Contains;

namespace {

// A query for the encoding of session s with one probe (q, k) repeated over its heads.
ap::ExploreQuery query_for(const ap::Session& s, std::vector<float> q, std::vector<float> k, int length) {
  ap::ExploreQuery x;
  x.length = length;
  x.heads = s.config().heads;
  x.head_size = s.config().d_model / x.heads;
  x.causal = s.config().causal;
  ap::QKProbe p{"x", {}, {}};
  for (int h = 0; h < x.heads; ++h)
    p.q.insert(p.q.end(), q.begin(), q.end()), p.k.insert(p.k.end(), k.begin(), k.end());
  x.probes.push_back(p);
  return x;
}

const std::vector<float> kQ = {0.3f, -1.2f, 0.5f, 2.0f, -0.7f, 0.1f, 1.1f, -0.4f};
const std::vector<float> kK = {1.0f, 0.2f, -0.3f, 0.8f, 0.5f, -1.5f, 0.9f, 0.05f};

}  // namespace

TEST_CASE("explore rope: s(0) = q·k, s(3) = the reference's relative value, closed form, layouts",
          "[position][explore]") {
  for (const char* layout : {"interleaved", "half"}) {
    INFO("layout " << layout);
    ap::Session s(ap::Config::from_json(tiny({{"position", "rope"}, {"rope_layout", layout}})));  // HS = 8
    auto j = s.model().position().explore(query_for(s, kQ, kK, 40));
    REQUIRE(j["kind"] == "rotary");
    const auto score = j["score"]["x"][1].get<std::vector<double>>();
    double qk = 0;
    for (int c = 0; c < 8; ++c) qk += double(kQ[c]) * kK[c];
    CHECK(score[0] == Approx(qk).margin(1e-6));
    // Closed form s(d) = Σ_i (q_a k_a + q_b k_b) cos dθ_i + (q_a k_b − q_b k_a) sin dθ_i.
    const auto th = ap::rope_thetas(8, 10000.0);
    for (int d = 0; d < 40; ++d) {
      double want = 0;
      for (int i = 0; i < 4; ++i) {
        const int a = layout[0] == 'h' ? i : 2 * i, b = layout[0] == 'h' ? i + 4 : 2 * i + 1;
        want += (kQ[a] * kK[a] + kQ[b] * kK[b]) * std::cos(d * th[i]) +
                (kQ[a] * kK[b] - kQ[b] * kK[a]) * std::sin(d * th[i]);
      }
      INFO("d " << d);
      CHECK(score[d] == Approx(want).margin(2e-5));
    }
    if (layout[0] == 'i') CHECK(score[3] == Approx(2.300630892717).margin(1e-5));  // reference §7.4
  }
}

TEST_CASE("explore rope: the pair's share, its rotation by m·θ_i, and PI stretching the curve", "[position][explore]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "rope"}})));
  auto q = query_for(s, kQ, kK, 64);
  q.pair = 1, q.position = 5, q.scaling = "pi", q.factor = 2;
  auto j = s.model().position().explore(q);
  const double th1 = std::pow(10000.0, -2.0 / 8);
  CHECK(j["pair"]["theta"].get<double>() == Approx(th1));
  CHECK(j["pair"]["angle"].get<double>() == Approx(5 * th1));
  // q's pair (q_2, q_3) turned by 5θ_1.
  const auto rot = j["pair"]["q_rotated"]["x"][0].get<std::vector<double>>();
  CHECK(rot[0] == Approx(kQ[2] * std::cos(5 * th1) - kQ[3] * std::sin(5 * th1)).margin(1e-6));
  CHECK(rot[1] == Approx(kQ[3] * std::cos(5 * th1) + kQ[2] * std::sin(5 * th1)).margin(1e-6));
  // The shares of all pairs add up to the score (every dim rotates).
  const auto share = j["pair"]["share"]["x"][0].get<std::vector<double>>();
  CHECK(share[0] == Approx(kQ[2] * kK[2] + kQ[3] * kK[3]).margin(1e-6));
  // PI divides θ by s: the scaled score at 2d is the plain score at d.
  const auto plain = j["score"]["x"][0].get<std::vector<double>>(),
             pi = j["scaled"]["score"]["x"][0].get<std::vector<double>>();
  for (int d = 0; d < 32; ++d) CHECK(pi[2 * d] == Approx(plain[d]).margin(2e-5));
  q.pair = 4;  // HS = 8 has 4 pairs
  CHECK_THROWS_WITH(s.model().position().explore(q), Contains("pair 4 does not exist") && Contains("4 pairs"));
}

TEST_CASE("explore xpos: all-ones probes give Σ_i 2 ζ_i^{d/γ} cos dθ_i", "[position][explore]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "xpos"}, {"xpos_gamma", 32.0}, {"causal", true}})));
  std::vector<float> ones(8, 1.0f);
  auto j = s.model().position().explore(query_for(s, ones, ones, 48));
  const auto score = j["score"]["x"][0].get<std::vector<double>>();
  const auto th = ap::rope_thetas(8, 10000.0);
  for (int d = 0; d < 48; ++d) {
    double want = 0;
    for (int i = 0; i < 4; ++i) want += 2 * std::pow((2.0 * i + 3.2) / 11.2, d / 32.0) * std::cos(d * th[i]);
    INFO("d " << d);
    CHECK(score[d] == Approx(want).margin(2e-5));
  }
}

TEST_CASE("explore alibi: b_h(d) = −m_h |d|, causal and symmetric", "[position][explore]") {
  for (bool causal : {true, false}) {
    INFO("causal " << causal);
    ap::Session s(ap::Config::from_json(tiny({{"position", "alibi"}, {"heads", 8}, {"causal", causal}})));
    auto j = s.inspect().explore({{"length", 20}});
    const auto dist = j["now"]["distance"].get<std::vector<int>>();
    CHECK(dist.size() == (causal ? 20u : 39u));
    const auto slopes = ap::alibi_slopes(8);
    for (int h = 0; h < 8; ++h)
      for (size_t x = 0; x < dist.size(); ++x)
        CHECK(j["now"]["heads"][h][x].get<double>() == Approx(-slopes[h] * std::abs(dist[x])));
    CHECK(j["init"]["heads"] == j["now"]["heads"]);  // fixed
  }
}

TEST_CASE("explore t5_bias: buckets and where they start (reference §7.1), init vs trained", "[position][explore]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "t5_bias"}, {"causal", true}})));
  auto j = s.inspect().explore({{"length", 200}});
  const auto dist = j["now"]["distance"].get<std::vector<int>>();
  const auto buckets = j["now"]["buckets"].get<std::vector<int>>();
  for (size_t x = 0; x < dist.size(); ++x) CHECK(buckets[x] == ap::t5_bucket(-dist[x], false, 32, 128));
  // The causal run-length table: exact buckets 0..15, then log buckets from these distances.
  std::vector<int> starts;
  for (int d = 1; d < 16; ++d) starts.push_back(d);
  for (int d : {16, 19, 21, 24, 27, 31, 35, 40, 46, 52, 59, 67, 77, 87, 99, 113}) starts.push_back(d);
  CHECK(j["now"]["bucket_starts"].get<std::vector<int>>() == starts);
  CHECK(j["now"]["max_exact"] == 16);
  CHECK(j["init"]["heads"] == j["now"]["heads"]);  // step 0: the trained model is the initial one
  s.train(5);
  auto k = s.inspect().explore({{"length", 200}});
  CHECK(k["init"]["heads"] == j["init"]["heads"]);
  CHECK(k["now"]["heads"] != k["init"]["heads"]);
  // A bias is one weight per bucket: equal within a bucket.
  for (size_t x = 1; x < dist.size(); ++x)
    if (buckets[x] == buckets[x - 1]) CHECK(k["now"]["heads"][0][x] == k["now"]["heads"][0][x - 1]);
}

TEST_CASE("explore urpe and fire: URPE starts at 1; FIRE's curve is its display's last row", "[position][explore]") {
  ap::Session u(ap::Config::from_json(tiny({{"position", "urpe"}})));
  auto j = u.inspect().explore({{"length", 12}});
  CHECK(j["now"]["quantity"] == "multiplier");
  for (auto& head : j["init"]["heads"])
    for (auto& v : head) CHECK(v.get<double>() == 1.0);
  ap::Session f(ap::Config::from_json(tiny({{"position", "fire"}, {"causal", true}, {"fire_length", 4.0}})));
  f.train(3);
  auto e = f.inspect().explore({{"length", 10}});
  auto disp = f.model().position().display(10);
  for (int h = 0; h < 2; ++h)
    for (int d = 0; d < 10; ++d)
      CHECK(e["now"]["heads"][h][d].get<double>() == Approx(disp["bias"][h][9][9 - d].get<double>()));
}

TEST_CASE("explore sinusoidal: mean similarity (2/C) Σ cos(d ω_i); learned moves away from its init",
          "[position][explore]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "sinusoidal"}})));  // C = 16
  auto j = s.inspect().explore({{"length", 16}, {"position", 3}});
  const auto dist = j["now"]["distance"].get<std::vector<int>>();
  for (size_t x = 0; x < dist.size(); ++x) {
    double want = 0;
    for (int i = 0; i < 8; ++i) want += std::cos(dist[x] * std::pow(10000.0, -2.0 * i / 16)) / 8;
    INFO("d " << dist[x]);
    CHECK(j["now"]["mean"][x].get<double>() == Approx(want).margin(1e-6));
    if (dist[x] == 0) CHECK(j["now"]["from"][x].get<double>() == Approx(1.0));
    if (dist[x] < -3) CHECK(j["now"]["from"][x].dump() == "null");  // position 3 + d < 0: NaN, null in JSON
  }
  ap::Session l(ap::Config::from_json(tiny({{"position", "learned"}})));
  CHECK(l.inspect().explore({})["now"]["mean"] == l.inspect().explore({})["init"]["mean"]);
  l.train(20);
  auto k = l.inspect().explore({});
  CHECK(k["now"]["mean"] != k["init"]["mean"]);
  CHECK(k["now"]["length"] == l.config().table_len());  // the learned table's length
}

TEST_CASE("explore: every registry entry gives a view with a formula and a source, or none", "[position][explore]") {
  for (auto& e : ap::position_registry()) {
    INFO("position " << e.name);
    auto cfg = tiny({{"position", e.name}});
    if (std::string(e.name) == "xpos") cfg["causal"] = true;
    ap::Session s(ap::Config::from_json(cfg));
    auto j = s.inspect().explore({{"length", 24}, {"scaling", "yarn"}, {"factor", 4.0}, {"layer", 1}});
    REQUIRE(j.contains("now"));
    REQUIRE(j.contains("init"));
    if (j["now"].empty()) {
      CHECK((std::string(e.name) == "none" || std::string(e.name).rfind("contextual", 0) == 0));
      continue;
    }
    const std::string kind = j["now"]["kind"];
    CHECK((kind == "rotary" || kind == "bias" || kind == "absolute"));
    CHECK(!j["now"]["formula"].get<std::string>().empty());
    CHECK_THAT(j["now"]["source"].get<std::string>(), Contains(std::string("core/position/") + e.name + ".cpp"));
    const size_t n = j["now"]["distance"].size();
    if (kind == "bias")
      for (auto& h : j["now"]["heads"]) CHECK(h.size() == n);
    if (kind == "rotary") {
      for (const char* p : {"trained", "ones", "random"}) CHECK(j["now"]["score"][p][0].size() == n);
      CHECK(j["init"]["score"]["init"][0].size() == n);
      CHECK(j["now"]["scaled"]["score"]["ones"][1].size() == n);
    }
  }
}

TEST_CASE("explore: the request is checked field by field", "[position][explore]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "rope"}})));
  CHECK_THROWS_WITH(s.inspect().explore({{"colour", 1}}), Contains("unknown field") && Contains("length, layer"));
  CHECK_THROWS_WITH(s.inspect().explore({{"layer", 2}}), Contains("layer must be from 0 to 1"));
  CHECK_THROWS_WITH(s.inspect().explore({{"length", 100000}}), Contains("length must be from 2 to 512"));
  CHECK_THROWS_WITH(s.inspect().explore({{"length", 1.5}}), Contains("length must be a whole number"));
  CHECK_THROWS_WITH(s.inspect().explore({{"scaling", "zoom"}}), Contains("not one of none, pi, ntk, yarn"));
  CHECK_THROWS_WITH(s.inspect().explore({{"factor", 0.5}}), Contains("factor must be a number from 1 to 64"));
  CHECK_THROWS_WITH(s.inspect().explore(nlohmann::json::array()), Contains("expected an object"));
  // Seeded: the same request gives the same random probe; another seed another.
  CHECK(s.inspect().explore({{"seed", 3}})["now"]["score"]["random"] ==
        s.inspect().explore({{"seed", 3}})["now"]["score"]["random"]);
  CHECK(s.inspect().explore({{"seed", 3}})["now"]["score"]["random"] !=
        s.inspect().explore({{"seed", 4}})["now"]["score"]["random"]);
}
