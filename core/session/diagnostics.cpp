// core/session/diagnostics.cpp — Replay::head_diagnostics and head_diagnostics_history: the
// measures and labels of model/head_stats.hpp for every head of a replay frame, and each measure
// across the kept frames (the replay's steps), so a front end can show how a head became what it
// is. Frames are the replay's own (held-out example 0 at seq_len, anchors included).
#include "model/head_stats.hpp"
#include "session/replay.hpp"
#include "session/session.hpp"

namespace ap {
namespace {

const char* const kMeasures[] = {"entropy",    "distance", "first_share",  "anchor_share", "row_sum_spread",
                                 "prev_share", "offset",   "offset_share", "induction"};

// One frame: HeadStats of every (layer, head).
std::vector<std::vector<HeadStats>> frame_stats(const ReplayFrame& f, int NH, bool causal, const Config& cfg) {
  const int T = int(f.ids.size());
  std::vector<int> anchors;
  if (cfg.anchor_count() >= 1) anchors.push_back(0);
  if (cfg.anchors == "cls_sep") anchors.push_back(T - 1);
  const size_t map = size_t(T) * T;
  std::vector<std::vector<HeadStats>> out;
  for (size_t off = 0; off + map * NH <= f.weights.size(); off += map * NH) {
    out.emplace_back();
    for (int h = 0; h < NH; ++h)
      out.back().push_back(head_stats(f.weights.data() + off + map * h, T, f.ids.data(), causal, anchors));
  }
  return out;
}

nlohmann::json heads_object(nlohmann::json heads) {
  nlohmann::json o = nlohmann::json::object();
  o["heads"] = std::move(heads);
  return o;
}

}  // namespace

nlohmann::json Replay::head_diagnostics(int step) {
  const Config& cfg = s_.config();
  const int latest = s_.steps_done();
  if (step < 0) step = latest;
  const ReplayFrame* kept = store_.find(step);
  if (!kept && step != latest) frame(step);  // throws, naming the kept steps
  const ReplayFrame made = kept ? ReplayFrame{} : capture();
  const ReplayFrame& f = kept ? *kept : made;
  nlohmann::json layers = nlohmann::json::array();
  std::vector<std::vector<HeadStats>> st = frame_stats(f, cfg.heads, cfg.causal, cfg);
  apply_induction_rule(st);  // the label needs a previous-token head below: one rule for the CLI and the pages
  for (auto& heads : st) {
    nlohmann::json hs = nlohmann::json::array();
    for (auto& h : heads) hs.push_back(h.to_json());
    layers.push_back(heads_object(std::move(hs)));
  }
  // Key by key: initializer lists cost several KB of wasm per call site (the widget's budget).
  nlohmann::json out = nlohmann::json::object();
  out["step"] = f.step;
  out["thresholds"] = head_thresholds_json();
  out["layers"] = std::move(layers);
  return out;
}

nlohmann::json Replay::head_diagnostics_history() {
  const Config& cfg = s_.config();
  const int latest = s_.steps_done();
  std::vector<int> steps = store_.steps();
  nlohmann::json layers = nlohmann::json::array();
  for (int l = 0; l < cfg.layers; ++l) {
    nlohmann::json heads = nlohmann::json::array();
    for (int h = 0; h < cfg.heads; ++h) {
      nlohmann::json m = nlohmann::json::object();
      for (const char* k : kMeasures) m[k] = nlohmann::json::array();
      heads.push_back(m);
    }
    layers.push_back(heads_object(std::move(heads)));
  }
  auto add = [&](const ReplayFrame& f) {
    const auto st = frame_stats(f, cfg.heads, cfg.causal, cfg);
    for (size_t l = 0; l < st.size(); ++l)
      for (size_t h = 0; h < st[l].size(); ++h) {
        const nlohmann::json j = st[l][h].to_json();
        for (const char* k : kMeasures) layers[l]["heads"][h][k].push_back(j[k]);
      }
  };
  for (int s : steps) add(*store_.find(s));
  if (steps.empty() || steps.back() != latest) {  // the latest, made on demand
    add(capture());
    steps.push_back(latest);
  }
  nlohmann::json names = nlohmann::json::array();
  for (const char* k : kMeasures) names.push_back(k);
  nlohmann::json out = nlohmann::json::object();
  out["steps"] = steps;
  out["measures"] = std::move(names);
  out["layers"] = std::move(layers);
  return out;
}

}  // namespace ap
