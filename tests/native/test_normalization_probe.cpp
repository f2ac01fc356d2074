// tests/native/test_normalization_probe.cpp — probe outcomes of the normalizations (shared
// reference §2 and §4; Su, kexue.fm/archives/9105). n = 8 identical tokens, label = position.
//   row-stochastic (softmax, cosine, linear, performer, topk) + a position that acts only in the
//     attention (t5_bias, rope, causal NoPE): accuracy stays at 1/n, loss at ln n (Lemma 1) —
//     but linear under RoPE, whose RoFormer denominator is unrotated, has rows that do not sum
//     to 1 and learns the probe;
//   non-row-stochastic (l2, relu2 with a fixed n, sigmoid, softmax1, sink): ≥ 0.95 (t5_bias, rope);
//   causal NoPE: stick_breaking counts with no position at all;
//   symmetric ALiBi with l2: mirror-limited, ≤ 0.5 + 1/n (Lemma 2);
//   learned absolute positions: every entry can learn it; causal NoPE + BOS: softmax can count.
// Tagged [learning]: each run trains the probe's default one-layer model (d_model 32, 2 heads,
// batch 16) for 1200 steps (softmax1 needs about that many: its rows start near n/(n+1) ≈ 1,
// a weak signal), or 300 steps where nothing can be learned; < 1 s each natively.
// Every encoding named here is registered: an unknown name fails the test (find_position throws).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "config/variants.hpp"
#include "session/session.hpp"

namespace {

const int kN = 8;

struct Outcome {
  float acc = 0, loss = 0;
  std::string what;
};

Outcome probe(const std::string& norm, const std::string& pos, nlohmann::json extra = {}, int steps = 1200) {
  nlohmann::json cfg{{"task", "probe"},       {"seq_len", kN}, {"eval_len", kN}, {"position", pos},
                     {"normalization", norm}, {"seed", 1},     {"steps", steps}, {"eval_every", 0}};
  for (auto& [k, v] : extra.items()) cfg[k] = v;
  ap::Session s(ap::Config::from_json(cfg));
  s.train(steps);
  auto e = s.evaluate();
  return {e.token_accuracy, e.loss,
          "probe " + norm + " + " + pos + " " + extra.dump() + ": accuracy " + std::to_string(e.token_accuracy) +
              ", loss " + std::to_string(e.loss)};
}

// Lemma 1: nothing to learn, so the loss stays at ln n and the accuracy at 1/n (identical
// outputs at every position; after training all classes are near-tied, so rounding may pick a
// different argmax at one position — the loss is the exact witness).
void check_collapsed(const Outcome& o) {
  INFO(o.what);
  CHECK(o.loss == Approx(std::log(double(kN))).margin(2e-3));
  CHECK(o.acc <= 2.0f / kN + 1e-6f);
}

void check_learned(const Outcome& o, float at_least) {
  INFO(o.what);
  CHECK(o.acc >= at_least);
}

}  // namespace

TEST_CASE("probe: row-stochastic entries stay at 1/n with t5_bias and rope", "[normalization][learning]") {
  for (const char* pos : {"t5_bias", "rope"}) {
    for (const char* norm : {"softmax", "cosine", "linear", "performer", "topk"}) {
      INFO(norm << " + " << pos);
      if (!ap::find_normalization(norm).accepts_bias) {
        // linear/performer cannot take a logit bias: the config is refused instead.
        ap::Config c;
        c.position = pos;
        ap::ParamStore scratch;
        if (ap::make_variant(ap::find_position(pos), c, scratch)->biases()) {
          CHECK_THROWS_WITH(ap::Config::from_json({{"task", "probe"}, {"position", pos}, {"normalization", norm}}),
                            Catch::Matchers::Contains("cannot take"));
          continue;
        }
      }
      if (std::string(norm) == "linear" && std::string(pos) == "rope") {
        // RoFormer's rule (linear.cpp): the numerator is rotated, the denominator is not, so the
        // rows no longer sum to 1 under RoPE and Lemma 1 does not apply: the probe is learned.
        check_learned(probe(norm, pos, {}, 300), 0.95f);
        continue;
      }
      check_collapsed(probe(norm, pos, {}, 300));
    }
  }
}

TEST_CASE("probe: non-row-stochastic entries reach >= 0.95 with t5_bias and rope", "[normalization][learning]") {
  const std::vector<std::pair<const char*, nlohmann::json>> norms = {
      {"l2", {}}, {"relu2", {{"relu2_divisor", "fixed"}}}, {"sigmoid", {}}, {"softmax1", {}}, {"sink", {}}};
  for (const char* pos : {"t5_bias", "rope"})
    for (auto& [norm, extra] : norms) {
      INFO(norm << " + " << pos);
      check_learned(probe(norm, pos, extra.is_null() ? nlohmann::json::object() : extra), 0.95f);
    }
}

TEST_CASE("probe: l2 with t5_bias reaches >= 0.9 (the probe demo's claim)", "[normalization][learning]") {
  check_learned(probe("l2", "t5_bias"), 0.9f);
}

TEST_CASE("probe: symmetric ALiBi with l2 is mirror-limited, <= 0.5 + 1/n", "[normalization][learning]") {
  auto o = probe("l2", "alibi", {{"alibi_mode", "symmetric"}, {"heads", 4}});
  INFO(o.what);
  CHECK(o.acc <= 0.5f + 1.0f / kN + 1e-6f);
}

TEST_CASE("probe: learned absolute positions work under every normalization", "[normalization][learning]") {
  for (auto& e : ap::normalization_registry()) {
    INFO(e.name);
    // Entries that refuse bidirectional rows (stick_breaking) run the probe causally.
    nlohmann::json extra = nlohmann::json::object();
    if (e.check) {
      ap::Config c;
      c.causal = false;
      try {
        ap::check_variant(e, c);
      } catch (const std::invalid_argument&) {
        extra["causal"] = true;
      }
    }
    check_learned(probe(e.name, "learned", extra, 400), 0.95f);
  }
}

TEST_CASE("probe, causal NoPE: softmax cannot count, l2/relu2(fixed)/softmax1 can; BOS rescues softmax",
          "[normalization][learning]") {
  const nlohmann::json causal{{"causal", true}};
  check_collapsed(probe("softmax", "none", causal, 300));
  check_collapsed(probe("cosine", "none", causal, 300));
  check_collapsed(probe("topk", "none", {{"causal", true}, {"topk_k", 2}}, 300));
  // stick_breaking: R(i) = 1 − (1 − β)^i with no position at all (order is built in).
  // (sink is not listed: with seed 1 it ends at 0.875 after 1200 steps — it can count, but its
  // learned z does not make it reliably faster than softmax1 here; docs/normalizations.md.)
  for (const char* n : {"l2", "softmax1", "sigmoid", "stick_breaking"}) {
    INFO(n);
    check_learned(probe(n, "none", causal), 0.95f);
  }
  // relu2 with a fixed n counts too, but a head whose (identical) logits start ≤ 0 is dead for
  // good — zero weights, zero gradient (§3.3). With seed 1 both heads start dead; seed 4 has a
  // live head and ends at 1.0 on AVX-512 and SSE (seed 2's end, 1.0 or 0.875, turned on float
  // rounding: the row sums in double of issue 32 changed it).
  check_learned(probe("relu2", "none", {{"causal", true}, {"seed", 4}}), 0.95f);
  // relu²/ℓ_i with ℓ_i = visible keys: the row sum of equal logits does not depend on i
  // (Lemma 3), so with identical tokens the positions stay identical.
  check_collapsed(probe("relu2", "none", {{"causal", true}, {"relu2_divisor", "visible"}}, 300));
  // A distinct BOS token gives the first layer a 1/(i+1) signal (NoPE Theorem 1).
  check_learned(probe("softmax", "none", {{"causal", true}, {"anchors", "bos"}, {"layers", 2}}, 800), 0.95f);
}
