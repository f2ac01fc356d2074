// core/session/explore.cpp — Inspector::explore (inspect.hpp), the data of the playground's Explore view (issue 17
// §3): the request is checked here, the model supplies its q/k probes, and the position encoding
// computes the rest (PositionEncoding::explore, position/explore.hpp). "At init" comes from a
// second model built from the same config and seed, which initialises to the same weights.
#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "refusal/refusal.hpp"
#include "io/json.hpp"
#include "session/inspect.hpp"
#include "session/session.hpp"

namespace ap {

namespace {

constexpr int kMaxExploreLength = 512;  // distances; the absolute view is O(length² · d_model)

int int_field(const nlohmann::json& r, const char* key, int def, int lo, int hi) {
  if (!r.contains(key)) return def;
  const auto& v = r[key];
  if (!v.is_number() || (v.is_number_float() && v.get<double>() != double(int64_t(v.get<double>()))))
    refuse("explore.not_whole", key);
  const double x = v.get<double>();
  if (x < lo || x > hi)
    refuse("explore.out_of_range", key,
           {{"lo", std::to_string(lo)}, {"hi", std::to_string(hi)}, {"value", show_text(v.dump())}});
  return int(x);
}

// The request's fields (the defaults for those it leaves out), checked; *seed: the random probe's.
ExploreQuery read_query(const nlohmann::json& r, const Config& cfg, int* seed) {
  if (!r.is_object()) refuse("explore.not_object", "");
  static const std::set<std::string> known = {"length", "layer", "pair", "position", "scaling", "factor", "seed"};
  for (auto& [k, v] : r.items())
    if (!known.count(k)) refuse("explore.unknown_field", "", {{"name", show_text(k)}});
  ExploreQuery q;
  q.length = int_field(r, "length", std::min(kMaxExploreLength, 2 * cfg.model_len()), 2, kMaxExploreLength);
  q.layer = int_field(r, "layer", 0, 0, cfg.layers - 1);
  q.pair = int_field(r, "pair", 0, 0, 1 << 20);
  q.position = int_field(r, "position", 0, 0, q.length - 1);
  *seed = int_field(r, "seed", cfg.seed, 0, 1 << 30);
  if (r.contains("scaling")) {
    if (!r["scaling"].is_string()) refuse("explore.scaling_type", "scaling");
    q.scaling = r["scaling"].get<std::string>();
    if (q.scaling != "none" && q.scaling != "pi" && q.scaling != "ntk" && q.scaling != "yarn")
      refuse("explore.scaling_unknown", "scaling", {{"value", show_text(q.scaling)}});
  }
  if (r.contains("factor")) {
    if (!r["factor"].is_number() || r["factor"].get<double>() < 1 || r["factor"].get<double>() > 64)
      refuse("explore.factor_range", "factor");
    q.factor = r["factor"].get<double>();
  }
  q.heads = cfg.heads;
  q.head_size = cfg.d_model / cfg.heads;
  q.causal = cfg.causal;
  return q;
}

// Head h's mean query and key over the T positions of the last forward, (NH, HS) each.
QKProbe mean_probe(const Transformer& m, const char* name, int layer, int T) {
  // (NH, HS) row-major is the layout of the first C columns (q) and the next C (k) of qkv.
  const int C = m.config().d_model;
  const float* qkv = m.qkv(layer);  // (1, T, 3C)
  QKProbe p{name, std::vector<float>(size_t(C), 0.0f), std::vector<float>(size_t(C), 0.0f)};
  for (int t = 0; t < T; ++t)
    for (int c = 0; c < C; ++c) {
      p.q[c] += qkv[size_t(t) * 3 * C + c] / T;
      p.k[c] += qkv[size_t(t) * 3 * C + C + c] / T;
    }
  return p;
}

}  // namespace

nlohmann::json Inspector::explore(const nlohmann::json& request) {
  const Config& cfg = s_.config();
  Transformer& model = s_.model();
  const nlohmann::json r = request.is_null() ? nlohmann::json::object() : request;  // {} in C++ is null
  int seed = 0;
  ExploreQuery q = read_query(r, cfg, &seed);
  q.tau = model.normalization().scale(q.head_size);

  // The probes: one held-out example through this model and through the model at init.
  Rng rng(uint64_t(cfg.seed) ^ 0x5EED0E7A1ull);
  const Batch b = s_.make_batch(rng, 1, cfg.seq_len, Split::Heldout);
  if (!init_model_) init_model_ = std::make_unique<Transformer>(cfg, model.shape());
  model.forward(b.inputs.data(), 1, b.T, nullptr, nullptr, false, nullptr);
  init_model_->forward(b.inputs.data(), 1, b.T, nullptr, nullptr, false, nullptr);
  ExploreQuery init = q;
  q.probes.push_back(mean_probe(model, "trained", q.layer, b.T));
  init.probes.push_back(mean_probe(*init_model_, "init", q.layer, b.T));
  // Reference probes of the rotary views: all ones (RoFormer's decay bound) and seeded N(0, 1).
  const size_t C = size_t(cfg.d_model);
  q.probes.push_back({"ones", std::vector<float>(C, 1.0f), std::vector<float>(C, 1.0f)});
  Rng prng(uint64_t(seed) ^ 0xE7910E5EEDull);
  QKProbe rnd{"random", std::vector<float>(C), std::vector<float>(C)};
  for (auto& x : rnd.q) x = prng.normal();
  for (auto& x : rnd.k) x = prng.normal();
  q.probes.push_back(rnd);

  nlohmann::json out{{"now", model.position().explore(q)},
                     {"init", init_model_->position().explore(init)},
                     {"step", s_.steps_done()},
                     {"request",
                      {{"length", q.length},
                       {"layer", q.layer},
                       {"pair", q.pair},
                       {"position", q.position},
                       {"scaling", q.scaling},
                       {"factor", q.factor},
                       {"seed", seed}}},
                     {"describe", describe_position(find_position(cfg.position), cfg)}};
  return out;
}

}  // namespace ap
