// tests/native/test_frames.cpp — the replay's frames (core/session/frames.cpp, replay.cpp): the log
// grid's nesting, the store's bounds over a million steps, and the Session's frames (the right
// steps, early and late frames differ, training is unchanged by taking them).
#include <catch2/catch.hpp>

#include "model_check.hpp"
#include "session/replay.hpp"

using ap::FrameSchedule;
using ap::FrameStore;
using aptest::tiny;
using Catch::Matchers::Contains;

namespace {
ap::ReplayFrame frame_of(int step, size_t bytes) {
  ap::ReplayFrame f;
  f.step = step;
  f.rest.assign(bytes, 'x');
  return f;
}
}  // namespace

TEST_CASE("the frame grids nest and always hold 0 and the powers of two", "[frames]") {
  for (int d : {1, 2, 4, 8}) {
    for (int p = 1; p > 0 && p <= (1 << 30); p *= 2) REQUIRE(FrameSchedule::on_grid(p, d));
    REQUIRE(FrameSchedule::on_grid(0, d));
  }
  // Density 8 starts with every step up to 13, then 15 16 17 19 21 (2^(i/8) rounded).
  for (int s = 0; s <= 13; ++s) REQUIRE(FrameSchedule::on_grid(s, 8));
  for (int s : {15, 16, 17, 19, 21}) REQUIRE(FrameSchedule::on_grid(s, 8));
  for (int s : {14, 18, 20}) REQUIRE_FALSE(FrameSchedule::on_grid(s, 8));
  // G_{d/2} is a subset of G_d: a coarser grid never wants a step that a finer one skipped.
  for (int s = 1; s <= 200000; ++s)
    for (int d : {2, 4, 8})
      if (FrameSchedule::on_grid(s, d / 2)) REQUIRE(FrameSchedule::on_grid(s, d));
  REQUIRE_FALSE(FrameSchedule::on_grid(3, 1));
  REQUIRE_FALSE(FrameSchedule::on_grid(1000, 1));
}

TEST_CASE("the frame store stays within its count and bytes over a million steps", "[frames]") {
  for (size_t frame : {size_t(1000), size_t(900) << 10}) {  // 1 KB frames; 900 KiB frames (bytes bind)
    FrameStore store;
    int taken = 0;
    for (int step = 0; step <= 1000000; ++step) {
      if (!store.due(step)) continue;
      store.add(frame_of(step, frame));
      ++taken;
      REQUIRE(store.count() <= FrameStore::kMaxCount - 1);
      REQUIRE(store.bytes() <= FrameStore::kMaxBytes);
    }
    const auto steps = store.steps();
    REQUIRE(steps.front() == 0);
    REQUIRE(std::is_sorted(steps.begin(), steps.end()));
    for (int p = 1; p <= 1000000 && frame < 1000 * 1000; p *= 2)  // small frames: every power of two stays
      REQUIRE(std::find(steps.begin(), steps.end(), p) != steps.end());
    INFO("frame " << frame << ": " << taken << " taken, " << steps.size() << " kept, density " << store.density());
    REQUIRE(taken < 200);  // taken only on the schedule: a few per octave
    REQUIRE(steps.size() >= 10);
  }
  FrameStore huge;  // a frame above half the budget: none kept, none taken again
  huge.add(frame_of(0, FrameStore::kMaxBytes / 2 + 1));
  REQUIRE(huge.too_large());
  REQUIRE(huge.count() == 0);
  REQUIRE_FALSE(huge.due(1));
}

TEST_CASE("a session keeps replay frames at the scheduled steps without changing training", "[frames][session]") {
  ap::Session s(ap::Config::from_json(tiny({{"position", "learned"}})));
  s.train(40);
  const nlohmann::json index = s.replay().index();
  const auto steps = index["steps"].get<std::vector<int>>();
  for (int want : {0, 1, 2, 4, 8, 16, 32, 40}) REQUIRE(std::find(steps.begin(), steps.end(), want) != steps.end());
  REQUIRE(index["latest"] == 40);
  REQUIRE(int(steps.size()) <= FrameStore::kMaxCount);

  const nlohmann::json early = s.replay().frame(0), late = s.replay().frame(40);
  REQUIRE(early["step"] == 0);
  REQUIRE(late["step"] == 40);
  const int T = int(early["attention"]["tokens"].size());
  REQUIRE(early["attention"]["layers"][0]["heads"][0]["weights"].size() == size_t(T));
  REQUIRE(early["attention"]["layers"] != late["attention"]["layers"]);  // attention moved
  REQUIRE(early["positions"]["matrix"] != late["positions"]["matrix"]);  // learned positions moved
  REQUIRE(early["prediction"].contains("inputs"));
  REQUIRE_THROWS_WITH(s.replay().frame(39), Contains("no frame at step 39") && Contains("0 1 2 3"));

  ap::Session off(ap::Config::from_json(tiny({{"position", "learned"}})));
  off.replay().set_enabled(false);
  off.train(40);
  REQUIRE(off.replay().index()["kept"] == 0);
  REQUIRE(off.weights_sha256() == s.weights_sha256());  // a frame is inspection only
}
