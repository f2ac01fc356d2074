// core/session_snapshots.cpp — the replay over training: the snapshot schedule and store (see
// session_snapshots.hpp) and the Session's side: what a frame holds, when it is taken (after a
// step that lands on the schedule), the index the front ends read and one frame by its step.
#include "session_snapshots.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "session.hpp"

namespace ap {

bool SnapshotSchedule::on_grid(int step, int density) {
  if (step <= 0) return step == 0;
  // i = density * log2(step), up to rounding: test its neighbours with the same formula that
  // defines the grid, so that membership never depends on the log's last bit.
  const long i = std::lround(density * std::log2(double(step)));
  for (long k = std::max(0L, i - 1); k <= i + 1; ++k)
    if (std::llround(std::exp2(double(k) / density)) == step) return true;
  return false;
}

void SnapshotStore::add(Snapshot frame) {
  if (frame.bytes() > kMaxBytes / 2) {  // one frame would crowd out the replay: keep none
    too_large_ = true;
    return;
  }
  truncate(frame.step - 1);  // a step seen again (after a rollback) replaces its old frame
  bytes_ += frame.bytes();
  kept_.push_back(std::move(frame));
  thin();
}

void SnapshotStore::thin() {
  while (kept_.size() > size_t(kMaxCount - 1) || bytes_ > kMaxBytes) {
    const int first = kept_.front().step;  // the first step seen stays (0 for a new run)
    if (schedule_.density() > 1) {
      schedule_.coarsen();
      const int d = schedule_.density();
      auto off = [&](const Snapshot& s) { return s.step != first && !SnapshotSchedule::on_grid(s.step, d); };
      kept_.erase(std::remove_if(kept_.begin(), kept_.end(), off), kept_.end());
    } else {
      // Every other one, keeping the first and the newest (a frame near kMaxBytes / 2 ends with 2).
      std::vector<Snapshot> half;
      for (size_t k = 0; k < kept_.size(); ++k)
        if (k % 2 == 0 || k + 1 == kept_.size()) half.push_back(std::move(kept_[k]));
      if (half.size() == kept_.size()) half.erase(half.begin());
      kept_ = std::move(half);
    }
    bytes_ = 0;
    for (auto& s : kept_) bytes_ += s.bytes();
  }
}

void SnapshotStore::truncate(int step) {
  while (!kept_.empty() && kept_.back().step > step) {
    bytes_ -= kept_.back().bytes();
    kept_.pop_back();
  }
}

const Snapshot* SnapshotStore::find(int step) const {
  auto it = std::lower_bound(kept_.begin(), kept_.end(), step, [](const Snapshot& s, int v) { return s.step < v; });
  return it != kept_.end() && it->step == step ? &*it : nullptr;
}

std::vector<int> SnapshotStore::steps() const {
  std::vector<int> out;
  for (auto& s : kept_) out.push_back(s.step);
  return out;
}

// ---- the Session's side ----------------------------------------------------------------------

// One frame: what the attention and position panels draw, for held-out example 0 at seq_len
// (the example attention(0, 0) shows), and the model's prediction on it.
Snapshot Session::capture() {
  Snapshot f;
  f.step = step_;
  Rng rng(uint64_t(cfg_.seed) ^ 0x5EED0E7A1ull);  // as attention() and predictions()
  Batch b = make_batch(rng, 1, cfg_.seq_len, Split::Heldout);
  f.ids = b.inputs;
  model_->forward(b.inputs.data(), 1, b.T, nullptr, nullptr, false, nullptr);
  const size_t maps = size_t(cfg_.heads) * b.T * b.T;  // (NH, T, T) per layer
  f.weights.reserve(maps * cfg_.layers);
  f.logits.reserve(maps * cfg_.layers);
  for (int l = 0; l < cfg_.layers; ++l) {
    const AttentionActs& a = model_->attention(l);
    f.weights.insert(f.weights.end(), a.used_weights().data(), a.used_weights().data() + maps);
    f.logits.insert(f.logits.end(), a.logits.data(), a.logits.data() + maps);
  }
  nlohmann::json pred = predictions(1);
  const nlohmann::json rest{{"positions", position_display(0)},
                            {"prediction", std::move(pred["examples"][0])},
                            {"per_sequence", pred["per_sequence"]}};
  f.rest = rest.dump();
  return f;
}

nlohmann::json Session::frame_json(const Snapshot& f) const {
  const int T = int(f.ids.size()), NH = cfg_.heads;
  const size_t maps = size_t(NH) * T * T;
  nlohmann::json j = nlohmann::json::parse(f.rest);  // our own text, written just above
  std::vector<std::string> toks;
  for (int id : f.ids) toks.push_back(token_name(id));
  nlohmann::json layers = nlohmann::json::array();
  for (size_t off = 0; off + maps <= f.weights.size(); off += maps)
    layers.push_back({{"heads", heads_json(f.weights.data() + off, f.logits.data() + off, NH, T, cfg_.causal)}});
  j["step"] = f.step;
  j["attention"] = {{"tokens", toks}, {"layers", layers}};
  return j;
}

void Session::maybe_snapshot() {
  if (!snapshots_on_ || !snaps_.due(step_)) return;
  // The attention maps alone (weights and logits, float32): a model whose frame
  // would crowd out the replay is never inspected for it, and training never fails for a frame.
  const double T = cfg_.model_len(), maps = 2.0 * cfg_.layers * cfg_.heads * T * T * sizeof(float);
  if (maps > double(SnapshotStore::kMaxBytes / 2)) return snaps_.give_up();
  try {
    snaps_.add(capture());
  } catch (const std::exception&) {
    snaps_.give_up();
  }
}

void Session::set_snapshots(bool on) {
  snapshots_on_ = on;
  if (!on) snaps_ = SnapshotStore();
}

nlohmann::json Session::snapshot_index() const {
  std::vector<int> steps = snaps_.steps();
  if (steps.empty() || steps.back() != step_) steps.push_back(step_);  // the latest, made on demand
  return {{"steps", steps},
          {"latest", step_},
          {"kept", snaps_.count()},
          {"bytes", snaps_.bytes()},
          {"max_count", SnapshotStore::kMaxCount},
          {"max_bytes", SnapshotStore::kMaxBytes},
          {"density", snaps_.density()},
          {"enabled", snapshots_on_},
          {"too_large", snaps_.too_large()}};
}

nlohmann::json Session::snapshot_at(int step) {
  if (const Snapshot* s = snaps_.find(step)) return frame_json(*s);
  if (step == step_) return frame_json(capture());
  std::string kept;
  for (int k : snaps_.steps()) kept += (kept.empty() ? "" : " ") + std::to_string(k);
  throw std::invalid_argument("snapshot: no snapshot at step " + std::to_string(step) +
                              " (it was thinned out, or not reached); the snapshots are at steps " +
                              (kept.empty() ? "(none)" : kept) + " and the latest, " + std::to_string(step_));
}

}  // namespace ap
