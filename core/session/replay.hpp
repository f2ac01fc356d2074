// core/session/replay.hpp — the replay over training, an object of its own beside the Session
// that owns it (Session::replay()): frames at log-spaced steps (frames.hpp), taken after the
// steps that land on the schedule, at most FrameStore::kMaxCount (the latest included) and
// kMaxBytes; the index and one frame by step for the front ends; and the head diagnostics over
// those frames (diagnostics.cpp, model/head_stats.hpp). It reads the session through its public
// face (config, model, held-out batches, predictions, the position view) and holds a reference
// to it, so it lives exactly as long as its session.
#pragma once
#include <nlohmann/json.hpp>

#include "session/frames.hpp"

namespace ap {

class Session;

class Replay {
 public:
  explicit Replay(Session& s) : s_(s) {}
  Replay(const Replay&) = delete;
  Replay& operator=(const Replay&) = delete;

  // The index: {"steps": [kept..., the latest], "latest", "kept", "bytes", "max_count",
  // "max_bytes", "density", "enabled", "too_large"}.
  nlohmann::json index() const;
  // A frame: {"step", "attention": {"tokens", "layers"} (as Inspector::attention()), "positions"
  // (as Inspector::positions()), "prediction" (held-out example 0, as one of predictions()'s
  // examples), "per_sequence"}; the latest step's is made on demand. Throws
  // std::invalid_argument for a step that has no frame.
  nlohmann::json frame(int step);
  void set_enabled(bool on);  // off: none are taken, and the kept ones are dropped
  bool enabled() const { return on_; }
  const FrameStore& store() const { return store_; }

  // Head diagnostics (diagnostics.cpp): per layer and head, the measures and labels of one frame
  // (step as frame(); -1 = the latest): {"step", "thresholds", "layers": [{"heads":
  // [HeadStats::to_json()]}]}; and every measure over the kept frames: {"steps", "measures":
  // [names], "layers": [{"heads": [{measure: [value per step]}]}]}. Throw as frame() does.
  nlohmann::json head_diagnostics(int step);
  nlohmann::json head_diagnostics_history();

  // The session's training calls these: before a step (the first step seen takes a frame, step
  // 0 for a new run), after a step that went through (a frame when the step is on the
  // schedule), and after going back to the last good weights (the frames after `step` go).
  void before_step();
  void after_step();
  void truncate(int step) { store_.truncate(step); }

 private:
  ReplayFrame capture();                                  // the frame of the current weights (compact)
  nlohmann::json frame_json(const ReplayFrame& f) const;  // the frame as frame() returns it
  void maybe_take();                                      // keep a frame when the step is on the schedule
  Session& s_;
  FrameStore store_;
  bool on_ = true;
};

}  // namespace ap
