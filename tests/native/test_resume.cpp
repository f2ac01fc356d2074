// tests/native/test_resume.cpp — the user's weights are never thrown away: a session saved in the
// middle of training and loaded again continues bit-identically (with or without optimizer
// changes through configure(), the path of `attnplay train --resume`); a refused step marks the
// session as stopped, and the mark survives a save and clears after a step that goes through; a
// model whose forward pass overflows cannot generate.
#include <catch2/catch.hpp>

#include <cmath>

#include "model_check.hpp"
#include "optim/adamw.hpp"
#include "session/inspect.hpp"
#include "session/session.hpp"

using aptest::tiny;
using Catch::Matchers::Contains;

namespace {
std::unique_ptr<ap::Session> reload(const ap::Session& s) {
  const std::vector<uint8_t> bytes = s.save();
  return ap::Session::load(bytes.data(), bytes.size());
}
}  // namespace

TEST_CASE("resume: save, load and go on equals an uninterrupted run, bit for bit", "[resume]") {
  // Dropout and a decaying schedule: every piece of state (RNGs, moments, step) must come along.
  const auto cfg = tiny({{"dropout", 0.1}, {"schedule", "cosine"}, {"warmup", 3}, {"steps", 20}});
  ap::Session straight(ap::Config::from_json(cfg));
  straight.train(20);

  ap::Session first(ap::Config::from_json(cfg));
  first.train(9);
  auto resumed = reload(first);
  REQUIRE(resumed->steps_done() == 9);
  resumed->train(11);
  CHECK(resumed->weights_sha256() == straight.weights_sha256());
}

TEST_CASE("resume: a changed lr after loading equals the same change on the live session", "[resume]") {
  const auto cfg = tiny({{"dropout", 0.1}, {"steps", 30}});
  ap::Session live(ap::Config::from_json(cfg));
  live.train(10);
  auto resumed = reload(live);
  live.configure({{"lr", 3e-4}, {"clip", 0.5}});
  resumed->configure({{"lr", 3e-4}, {"clip", 0.5}});
  live.train(10);
  resumed->train(10);
  CHECK(resumed->weights_sha256() == live.weights_sha256());
  CHECK(resumed->config().lr == Approx(3e-4));
}

TEST_CASE("resume: a refused step marks the session as stopped, saved with it", "[resume]") {
  ap::Session s(ap::Config::from_json(tiny()));
  s.train(3);
  CHECK(s.stopped().empty());
  s.model().params().all_data()[0] = std::nanf("");
  auto m = s.step();
  REQUIRE(m.refused);
  CHECK(s.stopped() == m.message);
  CHECK(s.steps_done() == 2);  // rolled back to the weights that gave step 3 a finite loss

  auto loaded = reload(s);
  CHECK(loaded->stopped() == m.message);
  CHECK(loaded->info()["stopped"] == m.message);
  CHECK(loaded->steps_done() == 2);
  CHECK(loaded->weights_sha256() == s.weights_sha256());
  // Training on clears the mark: a file saved later is not "stopped".
  loaded->configure({{"lr", 1e-4}});
  REQUIRE_FALSE(loaded->step().refused);
  CHECK(loaded->stopped().empty());
  CHECK(reload(*loaded)->stopped().empty());
}

TEST_CASE("generate: a model whose forward overflows refuses to emit tokens", "[resume][generate]") {
  ap::Session s(ap::Config::from_json(tiny({{"task", "text"}, {"causal", true}, {"seq_len", 16}})));
  for (float& w : s.model().params().all_data()) w = 3e38f;  // finite, but the forward overflows
  const auto prompt = s.tokenize("the ");
  CHECK_THROWS_WITH(s.inspect().generate(prompt, 4, 1.0f, 0, 1), Contains("NaN or infinite"));
  CHECK_FALSE(std::isfinite(s.evaluate().loss));  // what `attnplay eval` refuses to print
}

TEST_CASE("a fine-tune's schedule restarts at schedule_start: its own warmup, then its decay over the steps left",
          "[resume][schedule]") {
  auto cfg = ap::Config::from_json(tiny({{"lr", 1e-3}, {"warmup", 10}, {"schedule", "linear"}, {"steps", 100}}));
  CHECK(ap::learning_rate(cfg, 0) == Approx(1e-4));   // from the first step (schedule_start 0)
  CHECK(ap::learning_rate(cfg, 55) == Approx(5e-4));  // 45 of the 90 decay steps
  cfg.schedule_start = 60;
  CHECK(ap::learning_rate(cfg, 59) == Approx(1e-3));  // before the restart: lr
  CHECK(ap::learning_rate(cfg, 60) == Approx(1e-4));  // the restart's warmup
  CHECK(ap::learning_rate(cfg, 69) == Approx(1e-3));
  CHECK(ap::learning_rate(cfg, 85) == Approx(5e-4));  // 15 of the 30 decay steps left
  CHECK(ap::learning_rate(cfg, 99) == Approx(1e-3 / 30).epsilon(1e-3));
  cfg.schedule = "cosine";
  CHECK(ap::learning_rate(cfg, 85) == Approx(5e-4));  // cosine's midpoint
}
