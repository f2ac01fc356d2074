// tests/native/test_train_chunk.cpp — Session::train_chunk, the wasm worker's unit of work: the
// same steps as Session::train (same losses, weights and evaluations), every step's metrics
// kept, a refused step ending the chunk; and the one list of live optimizer keys.
#include <catch2/catch.hpp>

#include <cmath>

#include "model_check.hpp"

using aptest::tiny;
using Catch::Matchers::Contains;

namespace {
// eval_len differs from seq_len, so a periodic evaluation makes two records.
nlohmann::json chunk_config() {
  return tiny({{"eval_every", 4}, {"eval_len", 12}, {"position", "sinusoidal"}, {"dropout", 0.1}});
}
}  // namespace

TEST_CASE("train_chunk takes the same steps as train and as step-by-step training", "[session][chunk]") {
  ap::Session by_step(ap::Config::from_json(chunk_config()));
  std::vector<float> losses;
  std::vector<ap::EvalMetrics> evals;
  for (int i = 0; i < 10; ++i) {
    losses.push_back(by_step.step().loss);
    if (by_step.steps_done() % 4 == 0)
      for (auto& e : by_step.evaluate_periodic()) evals.push_back(e);
  }
  ap::Session trained(ap::Config::from_json(chunk_config()));
  const ap::StepMetrics last = trained.train(10);

  ap::Session chunked(ap::Config::from_json(chunk_config()));
  std::vector<ap::StepMetrics> steps;
  std::vector<ap::EvalMetrics> chunk_evals;
  for (int n : {3, 0, 5, 2}) {  // chunk borders fall on and off the evaluation steps
    ap::TrainChunk c = chunked.train_chunk(n);
    REQUIRE(c.steps.size() == size_t(n));
    steps.insert(steps.end(), c.steps.begin(), c.steps.end());
    chunk_evals.insert(chunk_evals.end(), c.evals.begin(), c.evals.end());
  }
  REQUIRE(steps.size() == losses.size());
  for (size_t i = 0; i < steps.size(); ++i) {
    INFO("step " << i + 1);
    CHECK(steps[i].loss == losses[i]);  // bit-identical: the same code path
    CHECK(steps[i].step == int(i) + 1);
    CHECK_FALSE(steps[i].refused);
  }
  CHECK(last.loss == losses.back());
  CHECK(chunked.weights_sha256() == by_step.weights_sha256());
  CHECK(trained.weights_sha256() == by_step.weights_sha256());
  // Steps 4 and 8, each at seq_len 8 and eval_len 12.
  REQUIRE(chunk_evals.size() == 4);
  REQUIRE(evals.size() == 4);
  for (size_t i = 0; i < evals.size(); ++i) {
    CHECK(chunk_evals[i].step == evals[i].step);
    CHECK(chunk_evals[i].length == evals[i].length);
    CHECK(chunk_evals[i].loss == evals[i].loss);
  }
  CHECK(chunk_evals[0].step == 4);
  CHECK(chunk_evals[1].length == 12);
  CHECK(trained.evals().size() == 4);

  auto j = ap::TrainChunk{{steps[0]}, {chunk_evals[0]}}.to_json();
  CHECK(j["steps"][0]["loss"].get<float>() == losses[0]);
  CHECK(j["evals"][0]["length"] == 8);
}

TEST_CASE("a refused step ends the chunk; n out of range is refused by name", "[session][chunk]") {
  ap::Session s(ap::Config::from_json(tiny()));
  s.train_chunk(2);
  s.model().params().all_data()[0] = std::nanf("");  // the next forward gives a NaN loss
  ap::TrainChunk c = s.train_chunk(5);
  REQUIRE(c.steps.size() == 1);
  CHECK(c.steps[0].refused);
  CHECK_THAT(c.steps[0].message, Contains("refused"));
  CHECK(c.evals.empty());
  CHECK(s.train_chunk(0).steps.empty());
  CHECK_THROWS_WITH(s.train_chunk(-1), Contains("train: n must be from 0 to 1000000"));
  CHECK_THROWS_WITH(s.train_chunk(ap::Session::kMaxChunk + 1), Contains("got 1000001"));
}

TEST_CASE("live_keys is the one list of fields configure() may change", "[session][config]") {
  const auto& keys = ap::Session::live_keys();
  CHECK(keys == std::vector<std::string>{"lr", "clip", "warmup", "schedule", "weight_decay", "steps"});
  ap::Session s(ap::Config::from_json(tiny()));
  const nlohmann::json cfg = s.config().to_json();
  for (auto& k : keys) {
    INFO(k);
    REQUIRE(cfg.contains(k));  // every live key is a config field
    CHECK_NOTHROW(s.configure({{k, cfg[k]}}));
  }
  try {
    s.configure({{"d_model", 32}});
    FAIL("configure changed d_model");
  } catch (const std::invalid_argument& e) {
    for (auto& k : keys) CHECK_THAT(e.what(), Contains(k));
  }
}
