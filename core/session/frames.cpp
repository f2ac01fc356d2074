// core/session/frames.cpp — the replay's memory: the frame schedule and store (see
// frames.hpp). What a frame holds and when it is taken: replay.cpp.
#include "session/frames.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ap {

bool FrameSchedule::on_grid(int step, int density) {
  if (step <= 0) return step == 0;
  // i = density * log2(step), up to rounding: test its neighbours with the same formula that
  // defines the grid, so that membership never depends on the log's last bit.
  const long i = std::lround(density * std::log2(double(step)));
  for (long k = std::max(0L, i - 1); k <= i + 1; ++k)
    if (std::llround(std::exp2(double(k) / density)) == step) return true;
  return false;
}

void FrameStore::add(ReplayFrame frame) {
  if (frame.bytes() > kMaxBytes / 2) {  // one frame would crowd out the replay: keep none
    too_large_ = true;
    return;
  }
  truncate(frame.step - 1);  // a step seen again (after a rollback) replaces its old frame
  bytes_ += frame.bytes();
  kept_.push_back(std::move(frame));
  thin();
}

void FrameStore::thin() {
  while (kept_.size() > size_t(kMaxCount - 1) || bytes_ > kMaxBytes) {
    const int first = kept_.front().step;  // the first step seen stays (0 for a new run)
    if (schedule_.density() > 1) {
      schedule_.coarsen();
      const int d = schedule_.density();
      auto off = [&](const ReplayFrame& s) { return s.step != first && !FrameSchedule::on_grid(s.step, d); };
      kept_.erase(std::remove_if(kept_.begin(), kept_.end(), off), kept_.end());
    } else {
      // Every other one, keeping the first and the newest (a frame near kMaxBytes / 2 ends with 2).
      std::vector<ReplayFrame> half;
      for (size_t k = 0; k < kept_.size(); ++k)
        if (k % 2 == 0 || k + 1 == kept_.size()) half.push_back(std::move(kept_[k]));
      if (half.size() == kept_.size()) half.erase(half.begin());
      kept_ = std::move(half);
    }
    bytes_ = 0;
    for (auto& s : kept_) bytes_ += s.bytes();
  }
}

void FrameStore::truncate(int step) {
  while (!kept_.empty() && kept_.back().step > step) {
    bytes_ -= kept_.back().bytes();
    kept_.pop_back();
  }
}

const ReplayFrame* FrameStore::find(int step) const {
  auto it = std::lower_bound(kept_.begin(), kept_.end(), step, [](const ReplayFrame& s, int v) { return s.step < v; });
  return it != kept_.end() && it->step == step ? &*it : nullptr;
}

std::vector<int> FrameStore::steps() const {
  std::vector<int> out;
  for (auto& s : kept_) out.push_back(s.step);
  return out;
}

}  // namespace ap
