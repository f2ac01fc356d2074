// tests/native/test_softcap.cpp — the logit soft cap (config `softcap`, normalization/softcap.hpp):
// one row pinned to values computed by hand from c·tanh(s/c) and softmax (reference §7.9's row),
// the whole-model gradient check with the cap on for every normalization that forms logits
// (registry-wide), refusal where there are no logits, and the capped logits of a model against
// the same model uncapped.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "model_check.hpp"
#include "session/inspect.hpp"
#include "normalization/softcap.hpp"

using aptest::tiny;
using Catch::Matchers::Contains;

TEST_CASE("softcap: reference row s = [0.5, -1, 2, 0], c = 1, through softmax, forward and backward",
          "[normalization][softcap]") {
  std::vector<float> s = {0.5f, -1.0f, 2.0f, 0.0f};
  ap::softcap_forward(s.data(), 4, 1.0f);
  const double capped[4] = {0.4621171573, -0.7615941560, 0.9640275801, 0.0};  // tanh(s)
  for (int i = 0; i < 4; ++i) CHECK(s[i] == Approx(capped[i]).margin(1e-7));
  ap::ParamStore ps;
  ap::Config cfg;
  auto norm = ap::make_variant(ap::find_normalization("softmax"), cfg, ps);
  std::vector<float> a(4), da = {1.0f, 2.0f, -1.0f, 0.5f}, ds(4, 0.0f);
  norm->row_forward(s.data(), a.data(), 4);
  const double want_a[4] = {0.2796452586, 0.0822538793, 0.4619387419, 0.1761621203};  // softmax(tanh s)
  for (int i = 0; i < 4; ++i) CHECK(a[i] == Approx(want_a[i]).margin(1e-7));
  norm->row_backward(s.data(), a.data(), da.data(), ds.data(), 4);
  ap::softcap_backward(s.data(), ds.data(), 4, 1.0f);
  // a_i (g_i − a·g) (1 − tanh² s_i), g = upstream gradient
  const double want_ds[4] = {0.2044665810, 0.0666607191, -0.0349305365, 0.0756976848};
  for (int i = 0; i < 4; ++i) CHECK(ds[i] == Approx(want_ds[i]).margin(1e-7));
  // c = 0.5 bounds every logit below 0.5 in size: 0.5 tanh(2 s).
  std::vector<float> t = {0.5f, -1.0f, 2.0f, 0.0f};
  ap::softcap_forward(t.data(), 4, 0.5f);
  const double half[4] = {0.3807970780, -0.4820137900, 0.4996646499, 0.0};
  for (int i = 0; i < 4; ++i) CHECK(t[i] == Approx(half[i]).margin(1e-7));
}

TEST_CASE("softcap: whole-model gradients for every normalization that forms logits", "[model][grad][softcap]") {
  std::vector<std::string> names;
  for (auto& e : ap::normalization_registry())
    if (e.accepts_bias) names.push_back(e.name);
  auto name = GENERATE_COPY(from_range(names));
  auto causal = GENERATE(true, false);
  // c = 0.3: the logits of the tiny model (|s| up to ~1) sit on the curved part of the tanh;
  // cosine's logits are τ q̂·k̂ with τ = 10 at init (up to ±10), so its c is 4: with 0.3 they
  // would sit deep in the flat tails, where float central differences at h = 2e-3 are no
  // measure of the slope. kerple adds a learned bias whose gradient passes through the cap too.
  auto position = GENERATE(std::string("none"), std::string("kerple"));
  INFO(name << ", causal " << causal << ", position " << position);
  const double c = name == "cosine" ? 4.0 : 0.3;
  const nlohmann::json cfg =
      tiny({{"normalization", name}, {"causal", causal}, {"position", position}, {"softcap", c}});
  if (!aptest::grad_skip("normalization", name, causal).empty()) {  // a declared skip: refused
    CHECK_THROWS_WITH(ap::Config::from_json(cfg), Contains("causal"));
    return;
  }
  ap::Session s(ap::Config::from_json(cfg));
  aptest::check_model_gradients(s, 12, aptest::grad_tolerance("model", "normalization", name));
}

TEST_CASE("softcap: refused without logits; capped logits are c·tanh(s/c) of the same model's", "[softcap]") {
  for (auto& e : ap::normalization_registry()) {
    if (e.accepts_bias) continue;
    INFO(e.name);
    CHECK_THROWS_WITH(ap::Config::from_json(tiny({{"normalization", e.name}, {"position", "none"}, {"softcap", 5.0}})),
                      Contains("softcap") && Contains(e.name));
  }
  CHECK_THROWS_WITH(ap::Config::from_json(tiny({{"softcap", -1.0}})), Contains("softcap"));
  // The same weights (the cap adds none): the capped logits are c·tanh of the plain ones.
  ap::Session off(ap::Config::from_json(tiny({{"position", "alibi"}, {"heads", 1}})));
  ap::Session far(ap::Config::from_json(tiny({{"position", "alibi"}, {"heads", 1}, {"softcap", 1000.0}})));
  ap::Session tight(ap::Config::from_json(tiny({{"position", "alibi"}, {"heads", 1}, {"softcap", 0.05}})));
  off.train(60);  // sharper attention than at init
  far.model().params().all_data() = off.model().params().all_data();
  tight.model().params().all_data() = off.model().params().all_data();
  auto a = off.inspect().attention(8), f = far.inspect().attention(8), t = tight.inspect().attention(8);
  double largest = 0;
  for (int l = 0; l < 2; ++l)
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j <= i; ++j) {  // causal: the visible logits
        const double s = a["layers"][l]["heads"][0]["logits"][i][j].get<double>();
        largest = std::max(largest, std::fabs(s));
        CHECK(f["layers"][l]["heads"][0]["logits"][i][j].get<double>() == Approx(s).margin(1e-5));
        if (l == 0)  // layer 1's input already differs: layer 0's attention was capped
          CHECK(t["layers"][0]["heads"][0]["logits"][i][j].get<double>() ==
                Approx(0.05 * std::tanh(s / 0.05)).margin(1e-6));
      }
  INFO("largest logit " << largest);
  CHECK(largest > 0.2);  // some logits are capped hard (0.05 tanh(4) = 0.04997)
}
