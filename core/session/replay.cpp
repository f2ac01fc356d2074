// core/session/replay.cpp — the replay (replay.hpp): what a frame holds, when it is taken
// (after a step that lands on the schedule), the index the front ends read and one frame by its
// step. The schedule and the store: frames.cpp.
#include "session/replay.hpp"

#include <stdexcept>
#include <string>

#include "refusal/refusal.hpp"
#include "session/attention_json.hpp"
#include "session/inspect.hpp"
#include "session/session.hpp"

namespace ap {

// One frame: what the attention and position panels draw, for held-out example 0 at seq_len
// (the example attention(0, 0) shows), and the model's prediction on it.
ReplayFrame Replay::capture() {
  const Config& cfg = s_.config();
  Transformer& model = s_.model();
  ReplayFrame f;
  f.step = s_.steps_done();
  Rng rng(uint64_t(cfg.seed) ^ 0x5EED0E7A1ull);  // as attention() and predictions()
  Batch b = s_.make_batch(rng, 1, cfg.seq_len, Split::Heldout);
  f.ids = b.inputs;
  model.forward(b.inputs.data(), 1, b.T, nullptr, nullptr, false, nullptr);
  const size_t maps = size_t(cfg.heads) * b.T * b.T;  // (NH, T, T) per layer
  f.weights.reserve(maps * cfg.layers);
  f.logits.reserve(maps * cfg.layers);
  for (int l = 0; l < cfg.layers; ++l) {
    const AttentionActs& a = model.attention(l);
    f.weights.insert(f.weights.end(), a.used_weights().data(), a.used_weights().data() + maps);
    f.logits.insert(f.logits.end(), a.logits.data(), a.logits.data() + maps);
  }
  nlohmann::json pred = s_.inspect().predictions(1);
  const nlohmann::json rest{{"positions", s_.inspect().positions(0)},
                            {"prediction", std::move(pred["examples"][0])},
                            {"per_sequence", pred["per_sequence"]}};
  f.rest = rest.dump();
  return f;
}

nlohmann::json Replay::frame_json(const ReplayFrame& f) const {
  const Config& cfg = s_.config();
  const int T = int(f.ids.size()), NH = cfg.heads;
  const size_t maps = size_t(NH) * T * T;
  // our own text, written just above; parsed from a char range, the one input type the engine's
  // other JSON reads use, so the module holds one instantiation of the parser
  nlohmann::json j = nlohmann::json::parse(f.rest.data(), f.rest.data() + f.rest.size());
  std::vector<std::string> toks;
  for (int id : f.ids) toks.push_back(s_.token_name(id));
  nlohmann::json layers = nlohmann::json::array();
  for (size_t off = 0; off + maps <= f.weights.size(); off += maps)
    layers.push_back(
        {{"heads", attention_heads_json(f.weights.data() + off, f.logits.data() + off, NH, T, cfg.causal)}});
  j["step"] = f.step;
  j["attention"] = {{"tokens", toks}, {"layers", layers}};
  return j;
}

void Replay::before_step() {
  if (on_ && store_.count() == 0) maybe_take();  // the first step seen (0 for a new run)
}

void Replay::after_step() { maybe_take(); }

void Replay::maybe_take() {
  const Config& cfg = s_.config();
  if (!on_ || !store_.due(s_.steps_done())) return;
  // The attention maps alone (weights and logits, float32): a model whose frame
  // would crowd out the replay is never inspected for it, and training never fails for a frame.
  const double T = cfg.model_len(), maps = 2.0 * cfg.layers * cfg.heads * T * T * sizeof(float);
  if (maps > double(FrameStore::kMaxBytes / 2)) return store_.give_up();
  try {
    store_.add(capture());
  } catch (const std::exception&) {
    store_.give_up();
  }
}

void Replay::set_enabled(bool on) {
  on_ = on;
  if (!on) store_ = FrameStore();
}

nlohmann::json Replay::index() const {
  const int latest = s_.steps_done();
  std::vector<int> steps = store_.steps();
  if (steps.empty() || steps.back() != latest) steps.push_back(latest);  // the latest, made on demand
  return {{"steps", steps},
          {"latest", latest},
          {"kept", store_.count()},
          {"bytes", store_.bytes()},
          {"max_count", FrameStore::kMaxCount},
          {"max_bytes", FrameStore::kMaxBytes},
          {"density", store_.density()},
          {"enabled", on_},
          {"too_large", store_.too_large()}};
}

nlohmann::json Replay::frame(int step) {
  const int latest = s_.steps_done();
  if (const ReplayFrame* s = store_.find(step)) return frame_json(*s);
  if (step == latest) return frame_json(capture());
  std::string kept;
  for (int k : store_.steps()) kept += (kept.empty() ? "" : " ") + std::to_string(k);
  if (kept.empty())
    refuse("replay.no_frame_latest", "step", {{"step", std::to_string(step)}, {"latest", std::to_string(latest)}});
  refuse("replay.no_frame", "step",
         {{"step", std::to_string(step)}, {"steps", kept}, {"latest", std::to_string(latest)}});
}

}  // namespace ap
