// tests/native/test_learning.cpp — learning outcomes, stated and enforced. Tagged [learning]
// (they train for hundreds of steps; the wasm test runs skip them, the native runs keep them).
#include <catch2/catch.hpp>

#include "session/session.hpp"

namespace {
ap::EvalMetrics train_and_eval(nlohmann::json cfg, int steps) {
  cfg["steps"] = steps;
  cfg["eval_every"] = 0;
  ap::Session s(ap::Config::from_json(cfg));
  s.train(steps);
  return s.evaluate();
}
}  // namespace

TEST_CASE("copy (length 8) reaches >= 0.99 token accuracy within 600 steps", "[learning]") {
  auto e = train_and_eval(
      {{"task", "copy"}, {"seq_len", 16}, {"d_model", 32}, {"heads", 2}, {"layers", 2}, {"batch", 32}, {"seed", 1}},
      600);
  INFO("eval token accuracy " << e.token_accuracy);
  CHECK(e.token_accuracy >= 0.99f);
}

TEST_CASE("probe with learned positions reaches >= 0.99", "[learning]") {
  auto e = train_and_eval({{"task", "probe"}, {"position", "learned"}, {"seq_len", 8}, {"seed", 1}}, 300);
  INFO("accuracy " << e.token_accuracy);
  CHECK(e.token_accuracy >= 0.99f);
}

TEST_CASE("probe with no positions stays at 1/n (n = 8)", "[learning]") {
  auto e = train_and_eval({{"task", "probe"}, {"position", "none"}, {"seq_len", 8}, {"seed", 1}}, 300);
  INFO("accuracy " << e.token_accuracy << ", loss " << e.loss);
  CHECK(e.token_accuracy == Approx(1.0 / 8).margin(1e-6));
  CHECK(e.loss == Approx(std::log(8.0)).margin(2e-3));  // CE = ln n: nothing to learn
}
