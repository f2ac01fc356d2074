// core/session/frames.hpp — the replay's memory: replay frames (attention of one fixed
// held-out example, the position view, its prediction) kept at log-spaced steps, bounded in
// count and bytes whatever the length of the run. The replay (replay.hpp) takes a frame only
// when a step falls on the schedule, so training between those steps pays one test.
//
// The schedule: step 0 (or the first step a session sees) and the log grid of `density` points
// per octave, G_d = { round(2^(i/d)) : i >= 0 } (d = 8: 1 2 ... 13 15 16 17 19 21 23 ...).
// When the kept frames exceed kMaxCount - 1 (one slot is the latest step, made on demand) or
// kMaxBytes, d halves and the frames off the coarser grid are dropped. Since
// 2^(2i/d) = 2^(i/(d/2)), G_{d/2} is a subset of G_d: every frame that the coarser grid wants
// was taken while the grid was finer, and the powers of two (0 1 2 4 8 ...) are never dropped.
// At d = 1 (G_1 = powers of two: at most 31 points for an int step) the store halves itself by
// dropping every other frame, which only frames of more than about kMaxBytes / 32 can need.
#pragma once
#include <cstddef>
#include <string>
#include <cstdint>
#include <vector>

namespace ap {

class FrameSchedule {
 public:
  static constexpr int kStartDensity = 8;  // points per octave at the start of a run
  // Whether `step` is on G_density (step 0 is on every grid).
  static bool on_grid(int step, int density);
  bool due(int step) const { return on_grid(step, density_); }
  int density() const { return density_; }
  void coarsen() { density_ = density_ > 1 ? density_ / 2 : 1; }

 private:
  int density_ = kStartDensity;
};

// One frame. The attention maps, most of its bytes, are kept as the model's raw float buffers
// (a copy costs microseconds; JSON is made only when a front end asks); the rest as JSON text
// (CBOR would be smaller, but its coder adds about 19 KB gzipped to every wasm download).
struct ReplayFrame {
  int step = 0;
  std::vector<int32_t> ids;            // (T) held-out example 0, anchors included
  std::vector<float> weights, logits;  // (L, NH, T, T) as the attention panel draws them
  std::string rest;                    // JSON text: {"positions", "prediction", "per_sequence"}
  size_t bytes() const {
    return ids.size() * sizeof(int32_t) + (weights.size() + logits.size()) * sizeof(float) + rest.size();
  }
};

class FrameStore {
 public:
  static constexpr int kMaxCount = 64;                   // kept frames plus the latest step
  static constexpr size_t kMaxBytes = size_t(32) << 20;  // 32 MiB of frames per session
  // The first step offered is always due (step 0 of a new run, or a loaded model's step).
  // None once a frame was too large (the replay is off for this model).
  bool due(int step) const { return !too_large_ && (kept_.empty() || schedule_.due(step)); }
  // Keep a frame (refused when it alone exceeds kMaxBytes / 2: then `too_large`), then thin.
  void add(ReplayFrame frame);
  // Forget the frames after `step` (training went back to the last good weights).
  void truncate(int step);
  // Take no more frames (one would be too large, or could not be made): `too_large`.
  void give_up() { too_large_ = true; }
  const ReplayFrame* find(int step) const;
  std::vector<int> steps() const;
  size_t bytes() const { return bytes_; }
  int count() const { return int(kept_.size()); }
  int density() const { return schedule_.density(); }
  bool too_large() const { return too_large_; }

 private:
  void thin();
  std::vector<ReplayFrame> kept_;  // ascending steps
  FrameSchedule schedule_;
  size_t bytes_ = 0;
  bool too_large_ = false;
};

}  // namespace ap
